import { Type } from '@sinclair/typebox';
import { badRequest, type FieldError } from '../../platform/problem.js';
import { WEBHOOK_EVENTS, type WebhookEventName } from './events.js';
import type { WebhookRow } from './repo.js';
import { deliverableUrlError } from './ssrf.js';

/** What a webhook may be: the rules shared by `/webhooks` and a form's `webhooks` member. */

/**
 * Every event but `webhook.test`: a test is sent to one webhook on request
 * (`POST /webhooks/{id}/test`), whatever it subscribes to, so subscribing to it means nothing.
 */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENTS.filter(
  (event): event is Exclude<WebhookEventName, 'webhook.test'> => event !== 'webhook.test',
);
export const WEBHOOK_FORMATS = ['legacy', 'otel'] as const;

/** A string enum: one error ("must be equal to one of the allowed values") rather than one per value. */
const literals = <T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

export const EventSchema = literals(SUBSCRIBABLE_EVENTS);
export const FormatSchema = literals(WEBHOOK_FORMATS);
export const UrlSchema = Type.String({ minLength: 1, maxLength: 2000, description: 'http:// or https://' });
export const SecretSchema = Type.String({
  minLength: 1,
  maxLength: 500,
  description:
    'Signs deliveries; a `whsec_` secret is base64 after the prefix (Standard Webhooks). Write-only.',
});

const WHSEC = /^whsec_(.*)$/s;
/** Base64, padding optional (a length of 4n+1 characters decodes to no whole byte). */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const decodable = (text: string) => BASE64.test(text) && text.replace(/=+$/, '').length % 4 !== 1;

/**
 * A `whsec_` secret is keyed by its base64-decoded rest (signature.ts): one that does not
 * decode would sign with a key the receiver's library can't reproduce, or an empty one.
 */
export function secretError(secret: string, field = 'secret'): FieldError | undefined {
  const rest = WHSEC.exec(secret)?.[1];
  if (rest === undefined) return undefined;
  if (decodable(rest)) return undefined;
  return { field, code: 'format', message: 'a whsec_ secret must be base64 after the prefix' };
}

/**
 * The url problem of a webhook being written, or undefined. A url left as it was (a form
 * sent back, a PATCH of other members) is not judged again: it was judged when it was
 * set, and deliveries judge it each time anyway.
 */
export async function webhookUrlError(
  url: string,
  previous: Pick<WebhookRow, 'url'> | undefined,
  guard: boolean,
): Promise<FieldError | undefined> {
  if (previous?.url === url) return undefined;
  return deliverableUrlError(url, { guard });
}

export function invalidWebhook(errors: FieldError[]) {
  const [first] = errors;
  const summary = first ? `${first.field} ${first.message}` : 'the webhook is invalid';
  return badRequest('validation_failed', `The webhook is invalid: ${summary}`, { errors });
}
