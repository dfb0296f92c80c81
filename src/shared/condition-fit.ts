/**
 * Which conditions can match a field (API.md §5.4: "a condition must be able to match its
 * field"): the tests each type of field takes and the values they compare with. The server
 * refuses a definition with a condition that never matches (forms/definition.ts); the
 * builder offers only the tests that fit and flags a stored one that does not
 * (web/client/dashboard/builder). One module, so that both say the same.
 *
 * Pure, imports only the form's types (erased when built).
 */

import type { ConditionOp, ConditionValue, FormField } from './form.js';

/** What a field's answer is, for comparing: `shared/logic.ts` compares these. */
export type AnswerKind = 'boolean' | 'option' | 'options' | 'number' | 'date' | 'text' | 'files';

type FieldShape = Pick<FormField, 'id' | 'type' | 'options' | 'multiple'>;

export function answerKind(field: Pick<FormField, 'type' | 'multiple'>): AnswerKind {
  switch (field.type) {
    case 'checkbox':
      return 'boolean';
    case 'select':
      return field.multiple ? 'options' : 'option';
    case 'number':
    case 'rating':
      return 'number';
    case 'date':
      return 'date';
    case 'file':
      // a list of stored files (API.md §12): there or not, nothing in it to compare with
      return 'files';
    default:
      // text, textarea, email, url, phone, hidden: answers are text
      return 'text';
  }
}

const BLANK_TESTS: readonly ConditionOp[] = ['isEmpty', 'isNotEmpty'];

/** The tests each kind of answer takes, in the order a builder offers them. */
export const OPERATORS_BY_KIND: Readonly<Record<AnswerKind, readonly ConditionOp[]>> = {
  boolean: ['equals', 'notEquals', ...BLANK_TESTS],
  option: ['equals', 'notEquals', 'in', ...BLANK_TESTS],
  // a list of chosen options: includes one, includes any of several, or is exactly these
  options: ['contains', 'notContains', 'in', 'equals', 'notEquals', ...BLANK_TESTS],
  number: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'in', ...BLANK_TESTS],
  date: ['equals', 'notEquals', 'gt', 'gte', 'lt', 'lte', 'in', ...BLANK_TESTS],
  text: ['equals', 'notEquals', 'contains', 'notContains', 'in', ...BLANK_TESTS],
  files: BLANK_TESTS,
};

export const operatorsFor = (field: Pick<FormField, 'type' | 'multiple'>): readonly ConditionOp[] =>
  OPERATORS_BY_KIND[answerKind(field)];

export const takesValue = (op: ConditionOp): boolean => !BLANK_TESTS.includes(op);

/** Whether the test's value is a list: `in`, and "is exactly these" of a multiple select. */
export const takesList = (field: Pick<FormField, 'type' | 'multiple'>, op: ConditionOp): boolean =>
  op === 'in' || (answerKind(field) === 'options' && (op === 'equals' || op === 'notEquals'));

export const optionValues = (field: Pick<FormField, 'options'>): string[] =>
  (field.options ?? []).map((option) => (typeof option === 'string' ? option : option.value));

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD, as a date field's answer is. */
export function isIsoDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, as Date.UTC reads years 0..99 as 1900..1999
  date.setUTCFullYear(year, month - 1, day);
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/** Why a condition can never match: which member is wrong, a code, and the words. */
export interface Misfit {
  member: 'op' | 'value';
  code: 'not_applicable' | 'type' | 'unknown_option' | 'required';
  message: string;
}

const TYPE_WORDS: Record<AnswerKind, string> = {
  boolean: 'a checkbox',
  option: 'a choice',
  options: 'a choice of several',
  number: 'a number',
  date: 'a date',
  text: 'a text',
  files: 'a file',
};

const quote = (value: unknown) => JSON.stringify(value);

/** Why one value can never be the answer of this kind, or undefined when it can be. */
function valueMisfit(field: FieldShape, kind: AnswerKind, value: unknown): Misfit | undefined {
  const wrong = (message: string, code: Misfit['code'] = 'type'): Misfit => ({
    member: 'value',
    code,
    message,
  });
  switch (kind) {
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : wrong(`must be true or false: a ticked box is true (got ${quote(value)})`);
    case 'option':
    case 'options': {
      const options = optionValues(field);
      if (typeof value === 'string' && options.includes(value)) return undefined;
      return wrong(
        `${quote(value)} is not an option of "${field.id}" (its options: ${options.slice(0, 10).join(', ')})`,
        'unknown_option',
      );
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? undefined
        : wrong(`must be a number (got ${quote(value)})`);
    case 'date':
      return typeof value === 'string' && isIsoDate(value)
        ? undefined
        : wrong(`must be a date written YYYY-MM-DD (got ${quote(value)})`);
    case 'files':
      // unreachable: a file field takes only the blank tests, which compare with no value
      return wrong('a file field is compared only by isEmpty or isNotEmpty');
    case 'text':
      if (typeof value !== 'string') return wrong(`must be text (got ${quote(value)})`);
      return value.trim() === ''
        ? wrong('is blank, which no answer equals or contains: use isEmpty or isNotEmpty', 'required')
        : undefined;
  }
}

/**
 * Why a condition on this field can never match (or always matches for want of a value), or
 * undefined when it fits. Its words name operators and values as the API spells them.
 */
export function conditionMisfit(
  field: FieldShape,
  condition: { op: ConditionOp; value?: ConditionValue },
): Misfit | undefined {
  const kind = answerKind(field);
  const allowed = OPERATORS_BY_KIND[kind];
  const { op, value } = condition;
  if (!allowed.includes(op)) {
    return {
      member: 'op',
      code: 'not_applicable',
      message: `${op} does not apply to ${TYPE_WORDS[kind]} field ("${field.id}" is ${field.type}${
        kind === 'options' ? ', multiple' : ''
      }): it takes ${allowed.join(', ')}${kind === 'boolean' ? ' (equals and notEquals with true or false)' : ''}`,
    };
  }
  if (!takesValue(op)) return undefined;
  if (value === undefined) return { member: 'value', code: 'required', message: `is required by ${op}` };
  if (takesList(field, op)) {
    // "is exactly" of a multiple select takes one option as well as a list of them
    const list = Array.isArray(value) ? value : op === 'in' ? undefined : [value];
    if (!list || list.length === 0)
      return {
        member: 'value',
        code: 'type',
        message: `must be a list of at least one ${kind === 'option' || kind === 'options' ? 'option' : 'value'} for ${op}`,
      };
    for (const item of list) {
      const misfit = valueMisfit(field, kind === 'options' ? 'option' : kind, item);
      if (misfit) return misfit;
    }
    return undefined;
  }
  if (Array.isArray(value))
    return { member: 'value', code: 'type', message: `must be a single value for ${op} (a list is for in)` };
  // a multiple select's contains/notContains names one option
  return valueMisfit(field, kind === 'options' ? 'option' : kind, value);
}
