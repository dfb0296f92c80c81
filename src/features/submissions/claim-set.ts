import { createHash } from 'node:crypto';

/**
 * A set of address hashes (`oncePer: "email"`'s keyed hashes, HMAC-SHA256 in base64url), each kept
 * as its first 128 bits in one typed array: open addressing, linear probing, at most half full.
 * Written by hand because JavaScript's `Set<string>` held 85 bytes a hash (a million hashes,
 * measured on Node 24); this holds 32 to 64 (16 a slot, a quarter to a half of the slots used), so that a form's every claim fits in memory (SQLite:
 * address-claims.ts). Two different addresses share 128 bits of a keyed hash with a chance of
 * 2^-128 a pair: taken as equal, as the hash itself is taken for the address.
 *
 * A hash of another form (not 43 characters of base64url: tests' hand-made ones) is hashed to one
 * first, so every string has its 128 bits.
 */
export class ClaimSet {
  /** Four 32-bit words a slot; a slot of four zeros is empty. */
  private slots = new Int32Array(4 * INITIAL_SLOTS);
  private mask = INITIAL_SLOTS - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(hash: string): boolean {
    fingerprint(hash);
    return this.slotOf() >= 0;
  }

  add(hash: string): void {
    fingerprint(hash);
    const found = this.slotOf();
    if (found >= 0) return;
    this.put(-found - 1);
    this.count++;
    if (this.count * 2 > this.mask + 1) this.grow();
  }

  /** The slot holding `scratch`, or -(the empty slot where it would go) - 1. */
  private slotOf(): number {
    const [a, b, c, d] = scratch as unknown as [number, number, number, number];
    const slots = this.slots;
    for (let slot = a & this.mask; ; slot = (slot + 1) & this.mask) {
      const at = slot * 4;
      const w0 = slots[at] as number;
      const w1 = slots[at + 1] as number;
      const w2 = slots[at + 2] as number;
      const w3 = slots[at + 3] as number;
      if (w0 === a && w1 === b && w2 === c && w3 === d) return slot;
      if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0) return -slot - 1;
    }
  }

  private put(slot: number): void {
    this.slots.set(scratch, slot * 4);
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let at = 0; at < old.length; at += 4) {
      if (old[at] === 0 && old[at + 1] === 0 && old[at + 2] === 0 && old[at + 3] === 0) continue;
      scratch.set(old.subarray(at, at + 4));
      this.put(-this.slotOf() - 1);
    }
  }
}

const INITIAL_SLOTS = 16;

/** The fingerprint being looked up: one module-wide buffer, so a lookup allocates nothing. */
const scratch = new Int32Array(4);

/** base64url's value of each character code, -1 for a character outside it. */
const SEXTETS = new Int8Array(128).fill(-1);
for (const [index, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].entries())
  SEXTETS[char.charCodeAt(0)] = index;

/** The first 128 bits of `hash` into `scratch` (never four zeros: that marks an empty slot). */
function fingerprint(hash: string): void {
  if (hash.length !== 43 || !decode(hash)) decode(createHash('sha256').update(hash).digest('base64url'));
  if (scratch[0] === 0 && scratch[1] === 0 && scratch[2] === 0 && scratch[3] === 0) scratch[3] = 1;
}

/** Decodes the first 22 characters (132 bits, of which 128 kept); false when one is not base64url. */
function decode(text: string): boolean {
  let word = 0;
  let filled = 0;
  let words = 0;
  for (let i = 0; words < 4; i++) {
    const code = text.charCodeAt(i);
    const sextet = code < 128 ? (SEXTETS[code] as number) : -1;
    if (sextet < 0) return false;
    const room = 32 - filled;
    if (room >= 6) {
      word = (word << 6) | sextet;
      filled += 6;
    } else {
      const rest = 6 - room;
      scratch[words++] = (word << room) | (sextet >>> rest);
      word = sextet & ((1 << rest) - 1);
      filled = rest;
      continue;
    }
    if (filled === 32) {
      scratch[words++] = word;
      word = 0;
      filled = 0;
    }
  }
  return true;
}
