import {
  type AnswerKind,
  answerKind,
  conditionMisfit,
  operatorsFor,
  optionValues,
  takesList,
  takesValue,
} from '../../../../shared/condition-fit.js';
import type {
  Condition,
  ConditionLeaf,
  ConditionOp,
  ConditionValue,
  OwnerField,
} from '../../../../shared/form.js';

type FieldInput = OwnerField;

/** A condition as the builder edits it: one field, one test, the value as typed. */
export interface ConditionRow {
  field: string;
  op: ConditionOp;
  /** A single value as its control gives it: text, a number or date as typed, an option's value, a checkbox's "true". */
  value: string;
  /** The values of a list test (`in`, a multiple choice's "is exactly"), one an item: an item may hold a comma. */
  list?: string[];
}

/**
 * A logic condition as the builder offers it (pure, unit-tested): the tests that fit the chosen
 * field's type (shared/condition-fit.ts, which the server judges a save by), their words, the
 * value the row sends, and what is wrong with a row, in words for the form's owner.
 *
 * A checkbox's two tests, "is ticked" and "is not ticked", are `equals true` and `notEquals true`
 * (a ticked box is `true`; an unticked one is `false` or absent, which shared/logic.ts reads alike).
 */

/** What the test select offers: an operator, or one of a checkbox's two tests. */
export type TestKey = ConditionOp | 'ticked' | 'unticked';

const WORDS: Record<AnswerKind, Partial<Record<ConditionOp, string>>> = {
  boolean: {},
  option: { equals: 'is', notEquals: 'is not', in: 'is one of' },
  options: {
    contains: 'includes',
    notContains: 'does not include',
    in: 'includes any of',
    equals: 'is exactly',
    notEquals: 'is not exactly',
  },
  number: {
    equals: 'is',
    notEquals: 'is not',
    gt: 'is more than',
    gte: 'is at least',
    lt: 'is less than',
    lte: 'is at most',
    in: 'is one of',
  },
  date: {
    equals: 'is on',
    notEquals: 'is not on',
    gt: 'is after',
    gte: 'is on or after',
    lt: 'is before',
    lte: 'is on or before',
    in: 'is one of',
  },
  text: {
    equals: 'is',
    notEquals: 'is not',
    contains: 'contains',
    notContains: 'does not contain',
    in: 'is one of',
  },
  // a file field is there or not (shared/condition-fit.ts): its two tests in a file's words
  files: { isEmpty: 'has no file', isNotEmpty: 'has a file' },
};
const BLANK_WORDS: Partial<Record<ConditionOp, string>> = { isEmpty: 'is blank', isNotEmpty: 'is answered' };

/** The tests a field's condition may use, in the words the test select shows. */
export function testsFor(field: FieldInput): Array<{ value: TestKey; label: string }> {
  const kind = answerKind(field);
  if (kind === 'boolean')
    return [
      { value: 'ticked', label: 'is ticked' },
      { value: 'unticked', label: 'is not ticked' },
    ];
  return operatorsFor(field).map((op) => ({ value: op, label: WORDS[kind][op] ?? BLANK_WORDS[op] ?? op }));
}

/** The test a row makes of its field, or undefined when it is none of those offered (it does not fit). */
export function testOf(field: FieldInput, row: ConditionRow): TestKey | undefined {
  if (answerKind(field) === 'boolean') {
    const ticked =
      (row.op === 'equals' && row.value === 'true') || (row.op === 'notEquals' && row.value === 'false');
    const unticked =
      (row.op === 'notEquals' && row.value === 'true') || (row.op === 'equals' && row.value === 'false');
    if (ticked || row.op === 'isNotEmpty') return 'ticked';
    if (unticked || row.op === 'isEmpty') return 'unticked';
    return undefined;
  }
  return operatorsFor(field).includes(row.op) ? row.op : undefined;
}

/**
 * A list test's values: its list, or else its single value (a multiple choice's "is exactly" may
 * be stored with one option, not a list of one).
 */
export const listOf = (row: ConditionRow): string[] =>
  row.list ?? (row.value.trim() === '' ? [] : [row.value]);

/** The row with another test chosen: what was typed carries over between a single value and a list. */
export function withTest(field: FieldInput, row: ConditionRow, test: TestKey): ConditionRow {
  if (test === 'ticked') return { field: row.field, op: 'equals', value: 'true' };
  if (test === 'unticked') return { field: row.field, op: 'notEquals', value: 'true' };
  const listed = listOf(row);
  if (takesList(field, test)) return { field: row.field, op: test, value: row.value, list: listed };
  return { field: row.field, op: test, value: row.value || (listed[0] ?? '') };
}

/** A new condition on a field: its first test, nothing typed yet. */
export function newCondition(field: FieldInput | undefined): ConditionRow {
  if (!field) return { field: '', op: 'equals', value: '' };
  const [first] = testsFor(field);
  return withTest(field, { field: field.id, op: 'equals', value: '' }, first?.value ?? 'equals');
}

/** The row pointed at another field: kept whole where the answers are alike, else its test where it fits and nothing typed. */
export function withField(fields: readonly FieldInput[], row: ConditionRow, id: string): ConditionRow {
  const before = fields.find((field) => field.id === row.field);
  const after = fields.find((field) => field.id === id);
  if (!after) return { ...row, field: id };
  const kind = answerKind(after);
  const sameOptions = (a: FieldInput, b: FieldInput) =>
    optionValues(a).join('\n') === optionValues(b).join('\n');
  if (
    before &&
    answerKind(before) === kind &&
    (kind !== 'option' && kind !== 'options' ? true : sameOptions(before, after))
  )
    return { ...row, field: id };
  const fresh = newCondition(after);
  if (kind === 'boolean' || !operatorsFor(after).includes(row.op)) return fresh;
  return withTest(after, { ...fresh, value: '', list: undefined }, row.op);
}

/** One value as the API takes it for this kind of answer: numbers as numbers, a checkbox's true or false. */
function typed(kind: AnswerKind, text: string): string | number | boolean {
  const trimmed = text.trim();
  if (kind === 'number' && trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
  if (kind === 'boolean' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
  return trimmed;
}

/** The value a row sends (undefined for a test that takes none); a list's blank items are left out. */
export function conditionValueOf(field: FieldInput | undefined, row: ConditionRow): ConditionLeaf['value'] {
  if (!takesValue(row.op)) return undefined;
  const kind = field ? answerKind(field) : 'text';
  if (field && takesList(field, row.op))
    return listOf(row)
      .filter((item) => item.trim() !== '')
      .map((item) => typed(kind, item));
  return typed(kind, row.value);
}

const FIELD_WORDS: Record<AnswerKind, string> = {
  boolean: 'a checkbox',
  option: 'a choice',
  options: 'a choice of several answers',
  number: 'a number',
  date: 'a date',
  text: 'a text',
  files: 'a file upload',
};

const shown = (value: ConditionValue | undefined) =>
  Array.isArray(value) ? value.join(', ') : String(value);

const PLAIN: Record<ConditionOp, string> = {
  equals: 'is',
  notEquals: 'is not',
  contains: 'contains',
  notContains: 'does not contain',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of',
  isEmpty: 'is blank',
  isNotEmpty: 'is answered',
};

/** A test that fits none of those offered, as its test select shows it: `is “yes” (never matches)`. */
export function misfitWords(row: ConditionRow): string {
  const value = row.list ? row.list.map((item) => `“${item}”`).join(', ') : `“${row.value}”`;
  return `${PLAIN[row.op]}${takesValue(row.op) ? ` ${value}` : ''} (never matches)`;
}

/** What is wrong with a row: its words, and whether it is only a value not typed yet (a hint, not an error). */
export interface RowProblem {
  text: string;
  missing: boolean;
}

/**
 * Why a row can never match as written, in words for the form's owner, or undefined when it
 * fits: a rule stored before conditions had to fit, a field whose type changed since, a value
 * not typed yet. The server refuses the same rows (400 invalid_form) when the form is saved.
 */
export function rowProblem(fields: readonly FieldInput[], row: ConditionRow): RowProblem | undefined {
  const field = fields.find((candidate) => candidate.id === row.field);
  const wrong = (text: string) => ({ text, missing: false });
  if (!field) return wrong('The field this compares is no longer in the form: choose another.');
  const kind = answerKind(field);
  const name = `“${field.label || field.id}”`;
  if (testOf(field, row) === undefined) {
    if (kind === 'boolean')
      return wrong(
        `${name} is a checkbox: a ticked box is true, so “${shown(conditionValueOf(field, row))}” never matches. Choose “is ticked” or “is not ticked”.`,
      );
    return wrong(`${name} is ${FIELD_WORDS[kind]}, which this test does not apply to: choose another test.`);
  }
  const value = conditionValueOf(field, row);
  const misfit = conditionMisfit(field, { op: row.op, value });
  if (!misfit) return undefined;
  const list = takesList(field, row.op);
  const missing = Array.isArray(value) ? value.length === 0 : value === '';
  const say = (text: string) => ({ text, missing });
  switch (kind) {
    case 'option':
    case 'options':
      if (missing) return say(list ? 'Tick at least one option.' : 'Choose one of its options.');
      return say(
        `“${shown(value)}” is not among the options of ${name}: ${list ? 'untick it' : 'choose one of them'}.`,
      );
    case 'number':
      return say(
        list ? 'Type at least one number; each must be a number.' : 'Type a number to compare with.',
      );
    case 'date':
      return say(list ? 'Give at least one date.' : 'Give a date to compare with.');
    default:
      return say(
        list
          ? 'Type at least one value.'
          : 'Type the text to compare with (or choose “is blank” or “is answered”).',
      );
  }
}

/** Why each condition of a rule kept as written (nested) can never match, in the API's words. */
export function keptRuleProblems(fields: readonly FieldInput[], when: Condition, at = 'when'): string[] {
  if ('all' in when)
    return when.all.flatMap((inner, i) => keptRuleProblems(fields, inner, `${at}.all[${i}]`));
  if ('any' in when)
    return when.any.flatMap((inner, i) => keptRuleProblems(fields, inner, `${at}.any[${i}]`));
  const field = fields.find((candidate) => candidate.id === when.field);
  if (!field) return [`${at}: names no field of this form (“${when.field}”)`];
  const misfit = conditionMisfit(field, when);
  return misfit ? [`${at}.${misfit.member} (${field.label || field.id}): ${misfit.message}`] : [];
}
