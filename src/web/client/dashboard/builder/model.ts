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
import { type ConditionRow, conditionValueOf } from './conditions.js';

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
  { type: 'file', label: 'File upload' },
  { type: 'hidden', label: 'Hidden (from the link)' },
];

/** A condition as the builder edits it (builder/conditions.ts: the tests that fit its field, its value). */
export type { ConditionRow } from './conditions.js';

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

export function toLogic(rows: readonly RuleRow[], fields: readonly FieldInput[]): LogicInput {
  return {
    rules: rows
      .filter((row) => row.raw || (row.conditions.length > 0 && row.targets.length > 0))
      .map((row): LogicRule => {
        if (row.raw) return row.raw;
        const tests = row.conditions.map((condition): Test => {
          const value = conditionValueOf(
            fields.find((field) => field.id === condition.field),
            condition,
          );
          return value === undefined
            ? { field: condition.field, op: condition.op }
            : { field: condition.field, op: condition.op, value };
        });
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
    // a list is kept item by item (an item may hold a comma); a single value as its control shows it
    const conditions = tests.map(
      ({ field, op, value }): ConditionRow =>
        Array.isArray(value)
          ? { field, op, value: '', list: value.map(String) }
          : { field, op, value: value === undefined || value === null ? '' : String(value) },
    );
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
