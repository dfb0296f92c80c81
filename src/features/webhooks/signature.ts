import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks signatures (API.md §7, https://www.standardwebhooks.com):
 * `v1,<base64 HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}">`. The key is the
 * base64-decoded rest of a `whsec_…` secret (the spec's own secrets, which its libraries
 * verify), otherwise the secret's UTF-8 bytes.
 */

const WHSEC = 'whsec_';

export function signingKey(secret: string): Buffer {
  return secret.startsWith(WHSEC)
    ? Buffer.from(secret.slice(WHSEC.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/** The headers of one attempt: `webhook-timestamp` is the time of sending, so a retry is signed anew. */
export function deliveryHeaders(
  eventId: string,
  body: string,
  secret: string | undefined,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Intake-Webhooks/1.0',
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    ...(secret ? { 'webhook-signature': sign(secret, eventId, timestamp, body) } : {}),
  };
}
