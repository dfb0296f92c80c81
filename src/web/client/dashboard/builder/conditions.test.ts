import { describe, expect, it } from 'vitest';
import { conditionMisfit } from '../../../../shared/condition-fit.js';
import {
  type ConditionRow,
  conditionValueOf,
  keptRuleProblems,
  misfitWords,
  newCondition,
  rowProblem,
  testOf,
  testsFor,
  withField,
  withTest,
} from './conditions.js';
import type { FieldInput } from './model.js';

const fields: FieldInput[] = [
  { id: 'agree', type: 'checkbox', label: 'Subscribe' },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', { value: 'support', label: 'Support' }] },
  { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['a', 'b'] },
  { id: 'guests', type: 'number', label: 'Guests' },
  { id: 'stars', type: 'rating', label: 'Stars' },
  { id: 'day', type: 'date', label: 'Day' },
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'cv', type: 'file', label: 'CV', maxFiles: 2 },
];
const field = (id: string) => {
  const found = fields.find((candidate) => candidate.id === id);
  if (!found) throw new Error(id);
  return found;
};
const labels = (id: string) => testsFor(field(id)).map((test) => test.label);

describe('the tests a condition offers follow its field’s type', () => {
  it('a checkbox: is ticked, is not ticked (no value to type)', () => {
    expect(labels('agree')).toEqual(['is ticked', 'is not ticked']);
    expect(newCondition(field('agree'))).toEqual({ field: 'agree', op: 'equals', value: 'true' });
    expect(withTest(field('agree'), newCondition(field('agree')), 'unticked')).toEqual({
      field: 'agree',
      op: 'notEquals',
      value: 'true',
    });
  });
  it('a choice: is, is not, is one of; several answers: includes, any of, exactly', () => {
    expect(labels('topic')).toEqual(['is', 'is not', 'is one of', 'is blank', 'is answered']);
    expect(labels('tags')).toEqual([
      'includes',
      'does not include',
      'includes any of',
      'is exactly',
      'is not exactly',
      'is blank',
      'is answered',
    ]);
  });
  it('a number, a rating and a date: comparisons of order; text: contains; never the other way', () => {
    expect(labels('guests')).toContain('is more than');
    expect(labels('stars')).toContain('is at least');
    expect(labels('day')).toEqual([
      'is on',
      'is not on',
      'is after',
      'is on or after',
      'is before',
      'is on or before',
      'is one of',
      'is blank',
      'is answered',
    ]);
    expect(labels('name')).toEqual([
      'is',
      'is not',
      'contains',
      'does not contain',
      'is one of',
      'is blank',
      'is answered',
    ]);
    expect(labels('name')).not.toContain('is more than');
    expect(labels('guests')).not.toContain('contains');
  });
});

describe('a row’s value as sent', () => {
  it('a checkbox’s true as true; a number as a number; a date as typed; a list item by item', () => {
    expect(conditionValueOf(field('agree'), { field: 'agree', op: 'equals', value: 'true' })).toBe(true);
    expect(conditionValueOf(field('guests'), { field: 'guests', op: 'gt', value: '4' })).toBe(4);
    expect(conditionValueOf(field('day'), { field: 'day', op: 'lt', value: '2026-12-01' })).toBe(
      '2026-12-01',
    );
    expect(
      conditionValueOf(field('guests'), { field: 'guests', op: 'in', value: '', list: ['1', '', '2'] }),
    ).toEqual([1, 2]);
    expect(conditionValueOf(field('name'), { field: 'name', op: 'isEmpty', value: 'x' })).toBeUndefined();
  });
  it('reads a multiple choice’s "is exactly" stored with one option as a list of it', () => {
    const row: ConditionRow = { field: 'tags', op: 'equals', value: 'a' };
    expect(conditionValueOf(field('tags'), row)).toEqual(['a']);
    expect(rowProblem(fields, row)).toBeUndefined();
  });
  it('moves what was typed between a single value and a list when the test changes', () => {
    const one: ConditionRow = { field: 'name', op: 'equals', value: 'Ada, Lovelace' };
    const listed = withTest(field('name'), one, 'in');
    expect(listed.list).toEqual(['Ada, Lovelace']);
    expect(withTest(field('name'), { ...listed, value: '' }, 'contains').value).toBe('Ada, Lovelace');
  });
});

describe('a row that cannot match is flagged', () => {
  it('a checkbox compared with "yes" (as an older builder saved it): says a ticked box is true', () => {
    const row: ConditionRow = { field: 'agree', op: 'equals', value: 'yes' };
    expect(testOf(field('agree'), row)).toBeUndefined();
    expect(rowProblem(fields, row)).toEqual({
      text: '“Subscribe” is a checkbox: a ticked box is true, so “yes” never matches. Choose “is ticked” or “is not ticked”.',
      missing: false,
    });
  });
  it('shows such a test in the test select in words, as never matching', () => {
    expect(misfitWords({ field: 'agree', op: 'equals', value: 'yes' })).toBe('is “yes” (never matches)');
    expect(misfitWords({ field: 'agree', op: 'in', value: '', list: ['a, b', 'c'] })).toBe(
      'is one of “a, b”, “c” (never matches)',
    );
  });
  it('reads any spelling of ticked or not ticked as one of the two tests', () => {
    const agree = field('agree');
    expect(testOf(agree, { field: 'agree', op: 'notEquals', value: 'false' })).toBe('ticked');
    expect(testOf(agree, { field: 'agree', op: 'isNotEmpty', value: '' })).toBe('ticked');
    expect(testOf(agree, { field: 'agree', op: 'equals', value: 'false' })).toBe('unticked');
    expect(testOf(agree, { field: 'agree', op: 'isEmpty', value: '' })).toBe('unticked');
    expect(rowProblem(fields, { field: 'agree', op: 'equals', value: 'false' })).toBeUndefined();
  });
  it('a choice compared with a label or no option; a number with text; a date not a date', () => {
    expect(rowProblem(fields, { field: 'topic', op: 'equals', value: 'Support' })?.text).toBe(
      '“Support” is not among the options of “Topic”: choose one of them.',
    );
    expect(rowProblem(fields, { field: 'guests', op: 'gt', value: 'ten' })?.missing).toBe(false);
    expect(rowProblem(fields, { field: 'day', op: 'gt', value: '24/12/2026' })?.missing).toBe(false);
    expect(rowProblem(fields, { field: 'topic', op: 'equals', value: 'support' })).toBeUndefined();
  });
  it('a value not typed yet is a hint, not an error', () => {
    expect(rowProblem(fields, newCondition(field('name')))).toEqual({
      text: 'Type the text to compare with (or choose “is blank” or “is answered”).',
      missing: true,
    });
    expect(rowProblem(fields, { field: 'tags', op: 'in', value: '', list: [] })?.missing).toBe(true);
  });
  it('a test that no longer fits after its field changed type, and a field gone', () => {
    const changed = fields.map((f) => (f.id === 'name' ? { ...f, type: 'checkbox' as const } : f));
    expect(rowProblem(changed, { field: 'name', op: 'contains', value: 'x' })?.text).toContain(
      'is a checkbox',
    );
    const numeric = fields.map((f) => (f.id === 'name' ? { ...f, type: 'number' as const } : f));
    expect(rowProblem(numeric, { field: 'name', op: 'contains', value: 'x' })?.text).toBe(
      '“Name” is a number, which this test does not apply to: choose another test.',
    );
    expect(rowProblem(fields, { field: 'gone', op: 'isEmpty', value: '' })?.text).toContain(
      'no longer in the form',
    );
  });
  it('names each condition of a nested rule kept as written that cannot match', () => {
    expect(
      keptRuleProblems(fields, {
        all: [{ field: 'name', op: 'isNotEmpty' }, { any: [{ field: 'agree', op: 'equals', value: 'on' }] }],
      }),
    ).toEqual([
      'when.all[1].any[0].value (Subscribe): must be true or false: a ticked box is true (got "on")',
    ]);
  });
});

describe('pointing a condition at another field', () => {
  it('keeps it whole between fields whose answers are alike', () => {
    const row: ConditionRow = { field: 'guests', op: 'gte', value: '3' };
    expect(withField(fields, row, 'stars')).toEqual({ field: 'stars', op: 'gte', value: '3' });
  });
  it('starts afresh on a field of another kind, keeping the test where it fits', () => {
    expect(withField(fields, { field: 'name', op: 'contains', value: 'x' }, 'agree')).toEqual({
      field: 'agree',
      op: 'equals',
      value: 'true',
    });
    expect(withField(fields, { field: 'name', op: 'in', value: '', list: ['x'] }, 'topic')).toEqual({
      field: 'topic',
      op: 'in',
      value: '',
      list: [],
    });
  });
});

describe('a file field: there or not (shared/condition-fit.ts)', () => {
  it('offers only has no file and has a file, with no value to type', () => {
    expect(testsFor(field('cv'))).toEqual([
      { value: 'isEmpty', label: 'has no file' },
      { value: 'isNotEmpty', label: 'has a file' },
    ]);
    const row = newCondition(field('cv'));
    expect(row).toEqual({ field: 'cv', op: 'isEmpty', value: '' });
    expect(conditionValueOf(field('cv'), row)).toBeUndefined();
    expect(rowProblem(fields, row)).toBeUndefined();
    expect(rowProblem(fields, { field: 'cv', op: 'isNotEmpty', value: '' })).toBeUndefined();
  });
  it('flags any other test of a file, as the server refuses it', () => {
    const row: ConditionRow = { field: 'cv', op: 'contains', value: 'pdf' };
    expect(testOf(field('cv'), row)).toBeUndefined();
    expect(rowProblem(fields, row)?.text).toBe(
      '“CV” is a file upload, which this test does not apply to: choose another test.',
    );
    expect(conditionMisfit(field('cv'), { op: 'equals', value: 'x' })).toEqual({
      member: 'op',
      code: 'not_applicable',
      message: 'equals does not apply to a file field ("cv" is file): it takes isEmpty, isNotEmpty',
    });
  });
  it('a condition pointed from a text field to a file field keeps a blank test, else starts afresh', () => {
    expect(withField(fields, { field: 'name', op: 'isNotEmpty', value: '' }, 'cv')).toEqual({
      field: 'cv',
      op: 'isNotEmpty',
      value: '',
    });
    expect(withField(fields, { field: 'name', op: 'contains', value: 'x' }, 'cv')).toEqual({
      field: 'cv',
      op: 'isEmpty',
      value: '',
    });
  });
});
