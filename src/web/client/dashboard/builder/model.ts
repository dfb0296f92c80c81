import type { paths } from '../api/schema.js';

/** The form as the builder edits it: the API's own types (schema.d.ts), nothing written twice. */
type FormAnswer = paths['/forms/{id}']['get']['responses'][200]['content']['application/json'];
/** The owner's view (GET /forms/{id} answers the owner with it; others get the public view). */
export type StoredForm = Extract<FormAnswer, { userId: string }>;
export type FormInput = paths['/forms/{id}']['put']['requestBody']['content']['application/json'];
export type FieldInput = NonNullable<FormInput['fields']>[number];
export type FieldType = FieldInput['type'];
export type Ui = NonNullable<FormInput['ui']>;
export type LogicInput = NonNullable<FormInput['logic']>;

export const FIELD_TYPES: ReadonlyArray<{ type: FieldType; label: string }> = [
  { type: 'text', label: 'Short text' },
  { type: 'textarea', label: 'Long text' },
  { type: 'email', label: 'E-mail' },
  { type: 'number', label: 'Number' },
  { type: 'select', label: 'Choice' },
  { type: 'checkbox', label: 'Checkbox' },
  { type: 'date', label: 'Date' },
  { type: 'url', label: 'Web address' },
  { type: 'phone', label: 'Phone' },
  { type: 'rating', label: 'Rating' },
  { type: 'hidden', label: 'Hidden (from the link)' },
];

export const OPERATORS: ReadonlyArray<{ op: string; label: string; takesValue: boolean }> = [
  { op: 'equals', label: 'is', takesValue: true },
  { op: 'notEquals', label: 'is not', takesValue: true },
  { op: 'contains', label: 'contains', takesValue: true },
  { op: 'notContains', label: 'does not contain', takesValue: true },
  { op: 'gt', label: 'is more than', takesValue: true },
  { op: 'gte', label: 'is at least', takesValue: true },
  { op: 'lt', label: 'is less than', takesValue: true },
  { op: 'lte', label: 'is at most', takesValue: true },
  { op: 'in', label: 'is one of (comma-separated)', takesValue: true },
  { op: 'isEmpty', label: 'is blank', takesValue: false },
  { op: 'isNotEmpty', label: 'is answered', takesValue: false },
];

/** A condition as the builder edits it: one field, one operator, the value as typed. */
export interface ConditionRow {
  field: string;
  op: string;
  value: string;
}

/** A rule as the builder edits it: every (all) or any of its conditions, then show or hide fields. */
export interface RuleRow {
  match: 'all' | 'any';
  conditions: ConditionRow[];
  action: 'show' | 'hide';
  targets: string[];
  /**
   * A rule as stored that this editor cannot show whole (conditions nested deeper, both show
   * and hide, several fields): kept and sent back as it is.
   */
  raw?: Record<string, unknown>;
}

type Condition = { field: string; op: string; value?: unknown } | { all: Condition[] } | { any: Condition[] };

/** The value a condition compares with, from what was typed: numbers as numbers, `in` as a list. */
function conditionValue(row: ConditionRow, fields: readonly FieldInput[]): unknown {
  const field = fields.find((candidate) => candidate.id === row.field);
  const numeric = field?.type === 'number' || field?.type === 'rating';
  const one = (text: string): unknown => {
    const trimmed = text.trim();
    if (numeric && trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
    if (field?.type === 'checkbox' && (trimmed === 'true' || trimmed === 'false')) return trimmed === 'true';
    return trimmed;
  };
  return row.op === 'in' ? row.value.split(',').map(one) : one(row.value);
}

export function toLogic(rows: readonly RuleRow[], fields: readonly FieldInput[]): LogicInput {
  return {
    rules: rows
      .filter((row) => row.raw || (row.conditions.length > 0 && row.targets.length > 0))
      .map((row) => {
        if (row.raw) return row.raw;
        const conditions: Condition[] = row.conditions.map((condition) =>
          OPERATORS.find((operator) => operator.op === condition.op)?.takesValue
            ? { field: condition.field, op: condition.op, value: conditionValue(condition, fields) }
            : { field: condition.field, op: condition.op },
        );
        const when = conditions.length === 1 ? conditions[0] : { [row.match]: conditions };
        return { when, [row.action]: row.targets };
      }),
  } as LogicInput;
}

export function fromLogic(
  logic: { rules: ReadonlyArray<Record<string, unknown>> } | null | undefined,
): RuleRow[] {
  return (logic?.rules ?? []).map((rule) => {
    const when = rule.when as Condition;
    const leaves = 'all' in when ? when.all : 'any' in when ? when.any : [when];
    const show = rule.show as string[] | undefined;
    const hide = rule.hide as string[] | undefined;
    const editable =
      leaves.every((condition) => 'field' in condition) &&
      (show ? 1 : 0) + (hide ? 1 : 0) === 1 &&
      (show ?? hide ?? []).length === 1;
    if (!editable) return { match: 'all', conditions: [], action: 'show', targets: [], raw: rule };
    const match: 'all' | 'any' = 'any' in when ? 'any' : 'all';
    const list = 'all' in when ? when.all : 'any' in when ? when.any : [when];
    const conditions = list
      .filter(
        (condition): condition is { field: string; op: string; value?: unknown } => 'field' in condition,
      )
      .map((condition) => ({
        field: condition.field,
        op: condition.op,
        value: Array.isArray(condition.value)
          ? condition.value.join(', ')
          : condition.value === undefined
            ? ''
            : String(condition.value),
      }));
    const action: 'show' | 'hide' = Array.isArray(rule.show) ? 'show' : 'hide';
    return { match, conditions, action, targets: ((rule[action] as string[] | undefined) ?? []).slice() };
  });
}

/** A field id not yet taken, from its label ("Your name" → your_name). */
export function newFieldId(label: string, taken: readonly string[]): string {
  const base =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'field';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}_${n}`;
  return id;
}
