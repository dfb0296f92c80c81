import type { Envelope } from '../../platform/crypto/envelope.js';
import { newId } from '../../platform/ids.js';
import { badRequest, type FieldError } from '../../platform/problem.js';
import type { StoredWebhook } from '../webhooks/repo.js';
import { secretError, webhookUrlError } from '../webhooks/rules.js';
import { SUBSCRIBABLE_EVENTS, type WebhookInput } from '../webhooks/schemas.js';
import type { StoredForm } from './repo.js';

/**
 * The `webhooks` member of a form body (API.md §5.4) as rows: it replaces the form's
 * webhooks. An item carrying the id of one of them (a form read with GET and sent back)
 * updates that webhook in place, keeping its secret when none is given, like the CAPTCHA
 * secret. Secrets are encrypted here, before any transaction opens.
 */
export async function webhookRowsFor(
  form: StoredForm,
  inputs: WebhookInput[],
  existing: StoredWebhook[],
  envelope: Envelope,
  now: string,
): Promise<StoredWebhook[]> {
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
          : (previous?.secretCiphertext ?? null);
      return {
        id,
        workspaceId: form.workspaceId,
        environment: form.environment,
        formId: form.id,
        event: input.event,
        url: input.url,
        secretCiphertext: secret,
        format: input.format ?? 'legacy',
        enabled: input.enabled ?? previous?.enabled ?? true,
        createdAt: previous?.createdAt ?? now,
      };
    }),
  );
}

/**
 * The rules of `/webhooks` that the member's schema does not carry: no `webhook.test`
 * subscription, a well-formed `whsec_` secret, and, outside development mode, a url that
 * reaches no private address (ssrf.ts). A url an item keeps from the stored webhook of
 * its id is not judged again. Every problem at once, as invalid_form like the rest of a form.
 */
export async function assertWebhookMember(
  inputs: readonly WebhookInput[],
  existing: readonly StoredWebhook[],
  guard: boolean,
): Promise<void> {
  const byId = new Map(existing.map((row) => [row.id, row]));
  const subscribable: readonly string[] = SUBSCRIBABLE_EVENTS;
  const perItem = await Promise.all(
    inputs.map(async (input, i) => {
      const at = (member: string) => `webhooks[${i}].${member}`;
      const errors: FieldError[] = [];
      if (!subscribable.includes(input.event)) {
        errors.push({
          field: at('event'),
          code: 'enum',
          message: `must be one of ${subscribable.join(', ')}`,
        });
      }
      const previous = input.id === undefined ? undefined : byId.get(input.id);
      const urlError = await webhookUrlError(input.url, previous, guard);
      if (urlError) errors.push({ ...urlError, field: at('url') });
      const secretProblem = input.secret === undefined ? undefined : secretError(input.secret, at('secret'));
      if (secretProblem) errors.push(secretProblem);
      return errors;
    }),
  );
  const errors = perItem.flat();
  const [first] = errors;
  if (!first) return;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw badRequest('invalid_form', `The form definition is invalid: ${first.field} ${first.message}${more}`, {
    errors,
  });
}
