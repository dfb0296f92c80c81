import { SUBJECT_FIELD_TYPES } from '../../../../shared/auto-response.js';
import type {
  Condition,
  ConditionLeaf,
  FieldType,
  FormUi,
  Logic,
  LogicRule,
  OwnerField,
} from '../../../../shared/form.js';
import type { paths } from '../api/schema.js';

/** The form as the builder edits it: the API's own types (schema.d.ts), nothing written twice. */
export type { StoredForm } from '../forms/resource.js';
export type FormInput = paths['/forms/{id}']['put']['requestBody']['content']['application/json'];
/** A new form (POST /forms): the same members, none of them null, and its environment. */
export type NewForm = paths['/forms']['post']['requestBody']['content']['application/json'];
/** A field as the builder edits it: the form contract's owner field (shared/form.ts). */
export type FieldInput = OwnerField;
/** `ui` as the API takes it: the members the page honours, and any others a form keeps (API.md §5.4). */
export type Ui = FormUi & Record<string, unknown>;
export type LogicInput = Logic;
type Test = ConditionLeaf;
export type Operator = Test['op'];

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

export const OPERATORS: ReadonlyArray<{ op: Operator; label: string; takesValue: boolean }> = [
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
  op: Operator;
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
  raw?: LogicRule;
}

/** The value a condition compares with, from what was typed: numbers as numbers, `in` as a list. */
function conditionValue(row: ConditionRow, fields: readonly FieldInput[]): Test['value'] {
  const field = fields.find((candidate) => candidate.id === row.field);
  const numeric = field?.type === 'number' || field?.type === 'rating';
  const one = (text: string): string | number | boolean => {
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
      .map((row): LogicRule => {
        if (row.raw) return row.raw;
        const tests = row.conditions.map(
          (condition): Test =>
            OPERATORS.find((operator) => operator.op === condition.op)?.takesValue
              ? { field: condition.field, op: condition.op, value: conditionValue(condition, fields) }
              : { field: condition.field, op: condition.op },
        );
        const [only] = tests;
        const when: Condition =
          tests.length === 1 && only ? only : row.match === 'all' ? { all: tests } : { any: tests };
        return row.action === 'show' ? { when, show: row.targets } : { when, hide: row.targets };
      }),
  };
}

export function fromLogic(logic: LogicInput | null | undefined): RuleRow[] {
  return (logic?.rules ?? []).map((rule) => {
    const { when, show, hide } = rule;
    const leaves = 'all' in when ? when.all : 'any' in when ? when.any : [when];
    const tests = leaves.filter((condition): condition is Test => 'field' in condition);
    // a null value has no words in the value control: such a rule is kept as it is, like a nested one
    const editable =
      tests.length === leaves.length &&
      tests.every((test) => test.value !== null) &&
      (show ? 1 : 0) + (hide ? 1 : 0) === 1 &&
      (show ?? hide ?? []).length === 1;
    if (!editable) return { match: 'all', conditions: [], action: 'show', targets: [], raw: rule };
    const conditions = tests.map((condition) => ({
      field: condition.field,
      op: condition.op,
      value: Array.isArray(condition.value)
        ? condition.value.join(', ')
        : condition.value === undefined || condition.value === null
          ? ''
          : String(condition.value),
    }));
    return {
      match: 'any' in when ? 'any' : 'all',
      conditions,
      action: show ? 'show' : 'hide',
      targets: (show ?? hide ?? []).slice(),
    };
  });
}

/** The fields whose answers an automatic reply's subject may carry (shared/auto-response.ts). */
export const subjectFields = (fields: readonly FieldInput[]): FieldInput[] =>
  fields.filter((field) => SUBJECT_FIELD_TYPES.has(field.type));

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
