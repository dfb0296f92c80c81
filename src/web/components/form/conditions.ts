import type { Condition, FormField, Logic } from '../../../shared/form.js';
import { optionLabel, optionValue } from './controls.js';

/**
 * Conditional logic in words, for a page that shows every field at once (the classic layout
 * without JavaScript): a field the logic may hide says when it applies. The rules are those of
 * API.md §5.4: a field named in a rule's `show` appears only when such a rule matches; a field
 * named in a matching rule's `hide` is hidden.
 */
export function whenApplies(fieldId: string, logic: Logic, fields: readonly FormField[]): string | undefined {
  const byId = new Map(fields.map((field) => [field.id, field]));
  const shownBy = logic.rules.filter((rule) => rule.show?.includes(fieldId)).map((rule) => rule.when);
  const hiddenBy = logic.rules.filter((rule) => rule.hide?.includes(fieldId)).map((rule) => rule.when);
  if (shownBy.length === 0 && hiddenBy.length === 0) return undefined;
  const words = (conditions: Condition[]) =>
    conditions.map((condition) => describe(condition, byId, conditions.length > 1)).join(' or ');
  if (shownBy.length === 0) return `Skip this if ${words(hiddenBy)}.`;
  const only = `Answer this only if ${words(shownBy)}`;
  return hiddenBy.length === 0 ? `${only}.` : `${only}, and skip it if ${words(hiddenBy)}.`;
}

const quoted = (text: string) => `“${text}”`;

function valueWords(field: FormField | undefined, value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => valueWords(field, item)).join(', ');
  const text = String(value);
  const option = field?.options?.find((candidate) => optionValue(candidate) === text);
  return quoted(option ? optionLabel(option) : text);
}

function describe(condition: Condition, byId: Map<string, FormField>, nested: boolean): string {
  if ('all' in condition || 'any' in condition) {
    const [parts, joiner] = 'all' in condition ? [condition.all, ' and '] : [condition.any, ' or '];
    const text = parts.map((part) => describe(part, byId, parts.length > 1)).join(joiner);
    return nested && parts.length > 1 ? `(${text})` : text;
  }
  const field = byId.get(condition.field);
  const subject = quoted(field?.label ?? condition.field);
  const value = valueWords(field, condition.value);
  if (field?.type === 'checkbox' && typeof condition.value === 'boolean') {
    const ticked = (condition.op === 'equals') === condition.value;
    if (condition.op === 'equals' || condition.op === 'notEquals')
      return `${subject} is ${ticked ? 'ticked' : 'not ticked'}`;
  }
  switch (condition.op) {
    case 'equals':
      return `the answer to ${subject} is ${value}`;
    case 'notEquals':
      return `the answer to ${subject} is not ${value}`;
    case 'contains':
      return `the answer to ${subject} contains ${value}`;
    case 'notContains':
      return `the answer to ${subject} does not contain ${value}`;
    case 'gt':
      return `the answer to ${subject} is more than ${value}`;
    case 'gte':
      return `the answer to ${subject} is at least ${value}`;
    case 'lt':
      return `the answer to ${subject} is less than ${value}`;
    case 'lte':
      return `the answer to ${subject} is at most ${value}`;
    case 'in':
      return `the answer to ${subject} is one of ${value}`;
    case 'isEmpty':
      return `${subject} is left blank`;
    case 'isNotEmpty':
      return `${subject} is answered`;
    default:
      return `${subject} ${condition.op} ${value}`;
  }
}
