import type { ComponentChildren } from 'preact';
import { answerKind, optionValues, takesList, takesValue } from '../../../../shared/condition-fit.js';
import { Tick } from '../ui/controls.js';
import {
  type ConditionRow,
  listOf,
  misfitWords,
  rowProblem,
  type TestKey,
  testOf,
  testsFor,
  withField,
  withTest,
} from './conditions.js';
import type { FieldInput } from './model.js';

/**
 * One condition of a rule: the field it reads, a test that fits that field's type, and a value
 * control of the same type (none for a checkbox, whose tests are "is ticked" and "is not
 * ticked"; a choice's options to pick from; a number or date input; one text box per item of a
 * list). A row that cannot match as written is flagged beside its controls.
 */
export function ConditionEditor({
  id,
  name,
  row,
  fields,
  onChange,
  children,
}: {
  /** The prefix of its controls' ids. */
  id: string;
  /** "Condition 1 of rule 2": the group's name for a screen reader. */
  name: string;
  row: ConditionRow;
  fields: readonly FieldInput[];
  onChange: (row: ConditionRow) => void;
  /** What follows the controls: the button that removes the condition. */
  children?: ComponentChildren;
}) {
  const field = fields.find((candidate) => candidate.id === row.field);
  const problem = rowProblem(fields, row);
  const problemId = `${id}-problem`;
  const test = field && testOf(field, row);
  const tests = field ? testsFor(field) : [];
  const describedBy = problem ? problemId : undefined;
  const testInvalid = problem && !problem.missing && (!field || test === undefined);
  const valueInvalid = problem && !problem.missing && !testInvalid;
  return (
    <fieldset class="condition">
      <legend class="visually-hidden">{name}</legend>
      <div class="control-row">
        <label for={`${id}-field`}>Answer to</label>
        <select
          id={`${id}-field`}
          aria-invalid={field ? undefined : 'true'}
          aria-describedby={field ? undefined : describedBy}
          onChange={(event) => onChange(withField(fields, row, event.currentTarget.value))}
        >
          {!field && (
            <option value={row.field} selected>
              {row.field ? `“${row.field}” (no longer in the form)` : 'Choose a field…'}
            </option>
          )}
          {fields.map((candidate) => (
            <option key={candidate.id} value={candidate.id} selected={candidate.id === row.field}>
              {candidate.label || candidate.id}
            </option>
          ))}
        </select>
      </div>
      {field && (
        <div class="control-row">
          <label for={`${id}-op`}>Test</label>
          <select
            id={`${id}-op`}
            aria-invalid={testInvalid ? 'true' : undefined}
            aria-describedby={testInvalid ? describedBy : undefined}
            onChange={(event) => onChange(withTest(field, row, event.currentTarget.value as TestKey))}
          >
            {test === undefined && (
              <option value="" selected disabled>
                {misfitWords(row)}
              </option>
            )}
            {tests.map((option) => (
              <option key={option.value} value={option.value} selected={option.value === test}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      )}
      {field && test !== undefined && answerKind(field) !== 'boolean' && takesValue(row.op) && (
        <ValueControl
          id={`${id}-value`}
          field={field}
          row={row}
          invalid={Boolean(valueInvalid)}
          describedBy={describedBy}
          onChange={onChange}
        />
      )}
      {problem && (
        <p class={problem.missing ? 'hint condition__problem' : 'error condition__problem'} id={problemId}>
          {problem.text}
        </p>
      )}
      {children}
    </fieldset>
  );
}

interface ValueProps {
  id: string;
  field: FieldInput;
  row: ConditionRow;
  invalid: boolean;
  describedBy: string | undefined;
  onChange: (row: ConditionRow) => void;
}

function ValueControl(props: ValueProps) {
  const { field, row } = props;
  const kind = answerKind(field);
  const list = takesList(field, row.op);
  if (kind === 'option' || kind === 'options')
    return list ? <OptionTicks {...props} /> : <OptionPick {...props} />;
  return list ? <ValueList {...props} /> : <TypedValue {...props} />;
}

/** The words an option shows: its label, else its value. */
const optionLabels = (field: FieldInput) =>
  (field.options ?? []).map((option) =>
    typeof option === 'string'
      ? { value: option, label: option }
      : { value: option.value, label: option.label },
  );

/** One option of a choice, from a dropdown of them (a value stored that is no option shown as such). */
function OptionPick({ id, field, row, invalid, describedBy, onChange }: ValueProps) {
  const options = optionLabels(field);
  const known = options.some((option) => option.value === row.value);
  return (
    <div class="control-row">
      <label for={id}>Option</label>
      <select
        id={id}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange({ ...row, value: event.currentTarget.value })}
      >
        {!known && (
          <option value={row.value} selected disabled>
            {row.value === '' ? 'Choose an option…' : `“${row.value}” (not an option)`}
          </option>
        )}
        {options.map((option) => (
          <option key={option.value} value={option.value} selected={option.value === row.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Several options of a choice, each a box to tick (`in`, and a multiple choice's "is exactly"). */
function OptionTicks({ id, field, row, invalid, describedBy, onChange }: ValueProps) {
  const chosen = listOf(row);
  const values = optionValues(field);
  // a value stored that is no option stays visible, ticked, so that it can be unticked
  const strays = chosen
    .filter((value) => !values.includes(value))
    .map((value) => ({ value, label: `“${value}” (not an option)` }));
  const toggle = (value: string, on: boolean) =>
    onChange({
      ...row,
      list: on
        ? [...chosen.filter((item) => item !== value), value]
        : chosen.filter((item) => item !== value),
    });
  return (
    <fieldset
      class="condition__options"
      aria-describedby={describedBy}
      aria-invalid={invalid ? 'true' : undefined}
    >
      <legend>Options</legend>
      {[...optionLabels(field), ...strays].map((option, n) => (
        <Tick
          key={option.value}
          id={`${id}-${n}`}
          label={option.label}
          checked={chosen.includes(option.value)}
          onChange={(on) => toggle(option.value, on)}
        />
      ))}
    </fieldset>
  );
}

const INPUT_TYPES = { number: 'number', date: 'date' } as const;
const inputTypeOf = (field: FieldInput) => {
  const kind = answerKind(field);
  return kind === 'number' || kind === 'date' ? INPUT_TYPES[kind] : 'text';
};

/** One value typed: a number input for a number or rating, a date input for a date, else text. */
function TypedValue({ id, field, row, invalid, describedBy, onChange }: ValueProps) {
  const type = inputTypeOf(field);
  return (
    <div class={`control-row${invalid ? ' control-row--invalid' : ''}`}>
      <label for={id}>{type === 'date' ? 'Date' : type === 'number' ? 'Number' : 'Value'}</label>
      <input
        id={id}
        type={type as 'text'}
        step={type === 'number' ? 'any' : undefined}
        value={row.value}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(event) => onChange({ ...row, value: event.currentTarget.value })}
      />
    </div>
  );
}

/** A list of values, one control each (so an item may hold a comma), with add and remove. */
function ValueList({ id, field, row, invalid, describedBy, onChange }: ValueProps) {
  const type = inputTypeOf(field);
  const listed = listOf(row);
  const items = listed.length > 0 ? listed : [''];
  const set = (list: string[], focus: number) => {
    onChange({ ...row, list });
    // the control added, or the one before the control removed, takes the focus the button had
    requestAnimationFrame(() => document.getElementById(`${id}-${focus}`)?.focus());
  };
  return (
    <fieldset class="condition__values" aria-describedby={describedBy}>
      <legend>Values</legend>
      {items.map((item, n) => (
        <div class="condition__value" key={`${id}-${n}`}>
          <div class={`control-row${invalid ? ' control-row--invalid' : ''}`}>
            <label for={`${id}-${n}`}>Value {n + 1}</label>
            <input
              id={`${id}-${n}`}
              type={type as 'text'}
              step={type === 'number' ? 'any' : undefined}
              value={item}
              aria-invalid={invalid ? 'true' : undefined}
              onInput={(event) =>
                onChange({ ...row, list: items.map((old, i) => (i === n ? event.currentTarget.value : old)) })
              }
            />
          </div>
          <button
            class="button button--small"
            type="button"
            disabled={items.length === 1}
            onClick={() =>
              set(
                items.filter((_, i) => i !== n),
                Math.max(0, n - 1),
              )
            }
          >
            Remove<span class="visually-hidden"> value {n + 1}</span>
          </button>
        </div>
      ))}
      <button class="button button--small" type="button" onClick={() => set([...items, ''], items.length)}>
        Add a value
      </button>
    </fieldset>
  );
}
