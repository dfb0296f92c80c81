import { describe, expect, it } from 'vitest';
import { newId, timeOrderedToken } from './ids.js';

describe('newId', () => {
  it('is the prefix, then 26 Crockford base32 characters', () => {
    expect(newId('frm')).toMatch(/^frm_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('sorts in creation order, within one millisecond too', () => {
    const now = Date.now();
    const ids = Array.from({ length: 1000 }, (_, i) => newId('sub', now + Math.floor(i / 100)));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('timeOrderedToken', () => {
  it('is 12 hex digits of time, then 128 random bits, URL-safe', () => {
    const token = timeOrderedToken(0x18f3a2b4c5d);
    expect(token).toMatch(/^018f3a2b4c5d[A-Za-z0-9_-]{22}$/);
  });

  it('sorts by the millisecond it was made, and never repeats within one', () => {
    const now = Date.now();
    const tokens = Array.from({ length: 2000 }, (_, i) => timeOrderedToken(now + Math.floor(i / 500)));
    for (let i = 1; i < tokens.length; i++) {
      if (Math.floor(i / 500) !== Math.floor((i - 1) / 500))
        expect((tokens[i] as string) > (tokens[i - 1] as string)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
    // the random part is drawn afresh: not counted up as ids are within a millisecond
    const sameMs = tokens.slice(0, 500).map((token) => token.slice(12));
    expect(new Set(sameMs.map((part) => part.slice(0, 4))).size).toBeGreaterThan(400);
  });
});
