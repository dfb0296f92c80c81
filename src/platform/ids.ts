import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A time-ordered id: 10 characters of millisecond timestamp, then 16 random ones
 * (80 bits), Crockford base32. Ids sort by creation time, which keeps B-tree inserts
 * local and makes `id` a sensible tie-breaker after `createdAt`.
 */
export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  const random = randomBytes(16);
  let tail = '';
  for (const byte of random) tail += CROCKFORD.charAt(byte % 32);
  return `${prefix}_${time}${tail}`;
}

/** A url-safe random secret of `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
