import type { Envelope } from '../../platform/crypto/envelope.js';
import { newId } from '../../platform/ids.js';
import type { WebhookRow } from '../webhooks/repo.js';
import type { StoredForm } from './repo.js';
import type { WebhookInput } from './schemas.js';

/**
 * The `webhooks` member of a form body (API.md §5.4) as rows: it replaces the form's
 * webhooks. An item carrying the id of one of them (a form read with GET and sent back)
 * updates that webhook in place, keeping its secret when none is given, like the CAPTCHA
 * secret. Secrets are encrypted here, before any transaction opens.
 */
export async function webhookRowsFor(
  form: StoredForm,
  inputs: WebhookInput[],
  existing: WebhookRow[],
  envelope: Envelope,
  now: string,
): Promise<WebhookRow[]> {
  const byId = new Map(existing.map((row) => [row.id, row]));
  // Ids first, in the order given: they order the webhooks of a form created in one millisecond.
  const items = inputs.map((input) => {
    const previous = input.id === undefined ? undefined : byId.get(input.id);
    return { input, previous, id: previous?.id ?? newId('whk') };
  });
  return Promise.all(
    items.map(async ({ input, previous, id }) => {
      const secret =
        input.secret !== undefined
          ? await envelope.encrypt(input.secret)
          : (previous?.secret_ciphertext ?? null);
      return {
        id,
        user_id: form.userId,
        environment: form.environment,
        form_id: form.id,
        event: input.event,
        url: input.url,
        secret_ciphertext: secret,
        format: input.format ?? 'legacy',
        enabled: (input.enabled ?? (previous ? previous.enabled === 1 : true)) ? 1 : 0,
        created_at: previous?.created_at ?? now,
      };
    }),
  );
}
