import { describe, expect, it } from 'vitest';
import { answerWords, dateWords } from './answers.js';
import type { InboxField } from './model.js';

const field = (type: string, extra: Partial<InboxField> = {}): InboxField => ({
  id: 'f',
  label: 'F',
  type,
  ...extra,
});

describe('answerWords: an answer as a person reads it', () => {
  it('says Yes or No for a checkbox, never true or false', () => {
    expect(answerWords(field('checkbox'), true)).toBe('Yes');
    expect(answerWords(field('checkbox'), false)).toBe('No');
  });
  it('names a choice by its option’s label, several joined with commas', () => {
    const size = field('select', { options: ['S', { value: 'M', label: 'Medium' }] });
    expect(answerWords(size, 'M')).toBe('Medium');
    expect(answerWords(size, 'S')).toBe('S');
    expect(answerWords(size, ['S', 'M'])).toBe('S, Medium');
    // a value the form no longer offers: as it was stored
    expect(answerWords(size, 'XL')).toBe('XL');
  });
  it('words a date as a calendar day, in any time zone', () => {
    const words = answerWords(field('date'), '2026-12-01');
    expect(words).toBe(dateWords('2026-12-01'));
    expect(words).toMatch(/2026/);
    expect(words).toMatch(/1/);
    expect(words).not.toMatch(/2026-12-01/);
    expect(answerWords(field('date'), 'not a date')).toBe('not a date');
  });
  it('gives a rating out of its scale and groups a number’s digits', () => {
    expect(answerWords(field('rating'), 4)).toBe(`4 of 5`);
    expect(answerWords(field('rating', { max: 10 }), 7)).toBe('7 of 10');
    expect(answerWords(field('number'), 1234.5)).toBe(
      (1234.5).toLocaleString(undefined, { maximumFractionDigits: 10 }),
    );
  });
  it('leaves text as it is, and shows an answer to a field since removed as stored', () => {
    expect(answerWords(field('text'), 'true')).toBe('true');
    expect(answerWords(undefined, true)).toBe('true');
    expect(answerWords(undefined, ['a', 'b'])).toBe('a, b');
  });
  it('counts files rather than showing their records, for a field since removed too', () => {
    const file = { id: 'fil_1', name: 'cv.pdf', type: 'application/pdf', size: 10, sha256: 'a'.repeat(64) };
    expect(answerWords(field('file'), [file, { ...file, id: 'fil_2' }])).toBe('2 files');
    expect(answerWords(field('file'), [file])).toBe('1 file');
    expect(answerWords(field('file'), [])).toBe('No files');
    expect(answerWords(undefined, [file])).toBe('1 file');
  });
  it('never says [object Object]: a record of another shape is shown as its JSON', () => {
    expect(answerWords(field('text'), { a: 1 })).toBe('{"a":1}');
    expect(answerWords(undefined, [{ a: 1 }, 'b'])).toBe('{"a":1}, b');
  });
});
