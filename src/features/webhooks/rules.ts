import { badRequest, type FieldError } from '../../platform/problem.js';
import type { StoredWebhook } from './repo.js';
import { deliverableUrlError } from './ssrf.js';

/** What a webhook may be: the rules shared by `/webhooks` and a form's `webhooks` member. */

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
  previous: Pick<StoredWebhook, 'url'> | undefined,
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
