import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const RANDOM_LENGTH = 16;

let lastTime = -1;
let lastRandom: number[] = [];

/**
 * A time-ordered id (ULID-like): 10 characters of millisecond timestamp, then 16 random
 * ones (80 bits), Crockford base32. Within one millisecond the random part is incremented
 * rather than drawn again, so ids a process makes sort in the order it made them: `id`
 * is a faithful tie-breaker after `createdAt`, and B-tree inserts stay local.
 */
export function newId(prefix: string, now = Date.now()): string {
  let random: number[];
  if (now === lastTime) {
    random = [...lastRandom];
    let i = RANDOM_LENGTH - 1;
    while (i >= 0 && random[i] === 31) random[i--] = 0;
    if (i >= 0) random[i] = (random[i] ?? 0) + 1;
  } else {
    random = [...randomBytes(RANDOM_LENGTH)].map((byte) => byte % 32);
  }
  lastTime = now;
  lastRandom = random;

  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  return `${prefix}_${time}${random.map((digit) => CROCKFORD.charAt(digit)).join('')}`;
}

/** A url-safe random secret of `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
