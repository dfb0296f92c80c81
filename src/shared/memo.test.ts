import { describe, expect, it } from 'vitest';
import { keptPerKey } from './memo.js';

describe('keptPerKey', () => {
  it('makes a value once per key and gives the same one back', () => {
    const made: string[] = [];
    const of = keptPerKey((key) => {
      made.push(key);
      return { key };
    });
    const first = of('de');
    expect(of('de')).toBe(first);
    of('fr');
    expect(made).toEqual(['de', 'fr']);
  });

  it('empties itself past its bound, so a stream of keys cannot grow it without end', () => {
    let made = 0;
    const of = keptPerKey((key) => {
      made += 1;
      return key.length;
    }, 3);
    for (const key of ['a', 'b', 'c']) of(key);
    expect(made).toBe(3);
    of('d'); // the fourth key: the three are dropped
    of('a');
    expect(made).toBe(5);
    of('d');
    expect(made).toBe(5);
  });
});
