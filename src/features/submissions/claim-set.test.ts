import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ClaimSet } from './claim-set.js';

/** The address hashes `oncePer: "email"` keeps (controls.ts): HMAC-SHA256 in base64url. */
const key = randomBytes(32);
const hashOf = (address: string) => createHmac('sha256', key).update(address).digest('base64url');

describe('ClaimSet', () => {
  it('holds what was added and nothing else, through its growth', () => {
    const set = new ClaimSet();
    const added = Array.from({ length: 20_000 }, (_, i) => hashOf(`person${i}@example.com`));
    for (const [i, hash] of added.entries()) {
      set.add(hash);
      // added twice: held once
      if (i % 7 === 0) set.add(hash);
    }
    expect(set.size).toBe(added.length);
    expect(added.every((hash) => set.has(hash))).toBe(true);
    const others = Array.from({ length: 20_000 }, (_, i) => hashOf(`other${i}@example.com`));
    expect(others.filter((hash) => set.has(hash))).toEqual([]);
  });

  it('tells apart hashes that differ in any one of their first 128 bits', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const hash = hashOf('ada@example.com');
    const set = new ClaimSet();
    set.add(hash);
    let flipped = 0;
    // 21 characters of 6 bits, then the 22nd's top 2: 128 bits, each flipped in turn
    for (let i = 0; i < 22; i++) {
      for (let bit = 5; bit >= (i === 21 ? 4 : 0); bit--) {
        const value = alphabet.indexOf(hash[i] as string) ^ (1 << bit);
        const changed = `${hash.slice(0, i)}${alphabet[value]}${hash.slice(i + 1)}`;
        expect(set.has(changed), `character ${i}, bit ${bit}`).toBe(false);
        flipped++;
      }
    }
    expect(flipped).toBe(128);
    expect(set.has(hash)).toBe(true);
  });

  it('holds strings of any other form by a hash of them (hand-made ones, a 43-character one outside base64url)', () => {
    const set = new ClaimSet();
    const odd = ['hash-of-ada', 'hash-of-grace', '', 'é'.repeat(43), `${'!'.repeat(42)}A`];
    for (const hash of odd) set.add(hash);
    expect(set.size).toBe(odd.length);
    expect(odd.every((hash) => set.has(hash))).toBe(true);
    expect(set.has('hash-of-alan')).toBe(false);
    expect(set.has(hashOf('hash-of-ada'))).toBe(false);
  });

  it('holds a hash whose first 128 bits are all zeros', () => {
    const set = new ClaimSet();
    const zeros = `${'A'.repeat(22)}${'B'.repeat(21)}`;
    expect(set.has(zeros)).toBe(false);
    set.add(zeros);
    expect(set.has(zeros)).toBe(true);
    expect(set.size).toBe(1);
  });

  it('takes two hashes alike in their first 128 bits for one (the decoding is used, not a hash of the text)', () => {
    const hash = hashOf('grace@example.com');
    const set = new ClaimSet();
    set.add(hash);
    // the 22nd character's low 4 bits and the 21 after it are past the 128 bits kept
    const tail = hash.slice(22) === 'A'.repeat(21) ? 'B'.repeat(21) : 'A'.repeat(21);
    const alike = `${hash.slice(0, 22)}${tail}`;
    expect(set.has(alike)).toBe(true);
    set.add(alike);
    expect(set.size).toBe(1);
  });
});
