/**
 * Conditional logic (API.md §5.4): which fields are visible for a set of answers. A field named
 * in any rule's `show` is hidden unless such a rule matches; a field named in a matching rule's
 * `hide` is hidden. Conditions read the answers as given, but for an unticked box (below).
 *
 * Pure and self-contained (no Node, no DOM; its one import is the form's types, erased when
 * built), because two places run it and must agree: the server (the submit path's validator,
 * the hosted page's one-by-one sequence) and the hosted page's script in the browser
 * (web/client/hosted), which shows and hides fields live.
 */

import type { Condition, Logic } from './form.js';

export type Answers = Readonly<Record<string, unknown>>;

export function isEmptyAnswer(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Whether a question counts as answered on a page's progress bar: a non-blank answer, a ticked box. */
export const isAnswered = (value: unknown): boolean => !isEmptyAnswer(value) && value !== false;

const asNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
};

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return x === y;
  return false;
}

function equals(answer: unknown, value: unknown): boolean {
  // A list answer (multiple select) is a set: order and repeats do not matter.
  if (Array.isArray(answer)) {
    if (Array.isArray(value)) {
      return (
        answer.every((item) => value.some((v) => same(item, v))) &&
        value.every((v) => answer.some((item) => same(item, v)))
      );
    }
    return answer.length > 0 && answer.every((item) => same(item, value));
  }
  return same(answer, value);
}

function contains(answer: unknown, value: unknown): boolean {
  if (Array.isArray(answer)) return answer.some((item) => same(item, value));
  if (typeof answer === 'string' && value !== null && value !== undefined)
    return answer.includes(String(value));
  return false;
}

/** Numbers compare as numbers; otherwise strings (ISO dates) compare as text. */
function compare(answer: unknown, value: unknown): number | undefined {
  const x = asNumber(answer);
  const y = asNumber(value);
  if (x !== undefined && y !== undefined) return x - y;
  if (typeof answer === 'string' && typeof value === 'string')
    return answer < value ? -1 : answer > value ? 1 : 0;
  return undefined;
}

export function matches(condition: Condition, answers: Answers): boolean {
  if ('all' in condition) return condition.all.every((c) => matches(c, answers));
  if ('any' in condition) return condition.any.some((c) => matches(c, answers));
  const raw = Object.hasOwn(answers, condition.field) ? answers[condition.field] : undefined;
  // An unticked box is `false` in an API submission but absent from a page's post (an unticked
  // control sends nothing): both are "not ticked", so a condition reads them alike.
  const answer = raw === false ? undefined : raw;
  const { value } = condition;
  if (value === false && (condition.op === 'equals' || condition.op === 'notEquals')) {
    const ticked = !isEmptyAnswer(answer);
    return condition.op === 'equals' ? !ticked : ticked;
  }
  switch (condition.op) {
    case 'isEmpty':
      return isEmptyAnswer(answer);
    case 'isNotEmpty':
      return !isEmptyAnswer(answer);
    case 'equals':
      return !isEmptyAnswer(answer) && equals(answer, value);
    case 'notEquals':
      return isEmptyAnswer(answer) || !equals(answer, value);
    case 'contains':
      return contains(answer, value);
    case 'notContains':
      return !contains(answer, value);
    case 'in': {
      if (!Array.isArray(value) || isEmptyAnswer(answer)) return false;
      const given = Array.isArray(answer) ? answer : [answer];
      return given.some((item) => value.some((v) => same(item, v)));
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      if (isEmptyAnswer(answer)) return false;
      const order = compare(answer, value);
      if (order === undefined) return false;
      return condition.op === 'gt'
        ? order > 0
        : condition.op === 'gte'
          ? order >= 0
          : condition.op === 'lt'
            ? order < 0
            : order <= 0;
    }
    default:
      // an operator this code does not know (the definition's schema lets none through)
      return false;
  }
}

/** The ids of the fields hidden by `logic` for these answers. */
export function hiddenFields(logic: Logic, answers: Answers): Set<string> {
  const shownByRule = new Set<string>();
  const shown = new Set<string>();
  const hidden = new Set<string>();
  for (const rule of logic.rules) {
    for (const id of rule.show ?? []) shownByRule.add(id);
    if (!matches(rule.when, answers)) continue;
    for (const id of rule.show ?? []) shown.add(id);
    for (const id of rule.hide ?? []) hidden.add(id);
  }
  for (const id of shownByRule) if (!shown.has(id)) hidden.add(id);
  return hidden;
}

/**
 * What a person sees, given everything they typed: the answers without blank ones and without
 * those the logic hides, and the hidden fields. Dropping a hidden field's answer may hide another
 * field (a chain of rules), so it is repeated until nothing more is hidden: the page (in the
 * browser and on the server) and the validator then agree on every field.
 */
export function visibleAnswers(
  logic: Logic,
  answers: Answers,
): { answers: Record<string, unknown>; hidden: Set<string> } {
  const kept: Record<string, unknown> = Object.create(null);
  for (const [id, value] of Object.entries(answers)) if (!isEmptyAnswer(value)) kept[id] = value;
  let hidden = hiddenFields(logic, kept);
  for (let round = 0; round <= logic.rules.length * 2 + 1; round++) {
    const dropped = [...hidden].filter((id) => Object.hasOwn(kept, id));
    if (dropped.length === 0) break;
    for (const id of dropped) delete kept[id];
    hidden = hiddenFields(logic, kept);
  }
  return { answers: kept, hidden };
}
