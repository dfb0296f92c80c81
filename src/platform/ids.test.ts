import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

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
