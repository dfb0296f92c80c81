import type { FieldType } from '../../../../shared/form.js';
import { TextInput, Tick } from '../ui/controls.js';
import { Choice, numberOf } from './inputs.js';
import { FIELD_TYPES, type FieldInput, newFieldId } from './model.js';

/**
 * The form's fields (API.md §5.1): each with its type, label, id, help, placeholder, options and
 * rules, and its PII handling; moved up and down with buttons (WCAG 2.5.7: no dragging needed).
 */

const TEXTUAL: FieldType[] = ['text', 'textarea', 'email', 'url', 'phone'];
const PII_CHOICES = [
  { value: 'none', label: 'Not personal data' },
  { value: 'default', label: 'Personal: the form’s default handling' },
  { value: 'plain', label: 'Personal: stored as given' },
  { value: 'masked', label: 'Personal: masked' },
  { value: 'hashed', label: 'Personal: hashed' },
  { value: 'encrypted', label: 'Personal: encrypted' },
  { value: 'dropped', label: 'Personal: not stored' },
] as const;
type PiiChoice = (typeof PII_CHOICES)[number]['value'];

const optionsText = (options: FieldInput['options']) =>
  (options ?? [])
    .map((option) => (typeof option === 'string' ? option : `${option.value} | ${option.label}`))
    .join('\n');
const optionsOf = (text: string): FieldInput['options'] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [value = '', label] = line.split('|').map((part) => part.trim());
      return label ? { value, label } : value;
    });

export function FieldsEditor({
  fields,
  onChange,
  errorsFor,
}: {
  fields: FieldInput[];
  onChange: (fields: FieldInput[]) => void;
  /** The API's message about a member of field `index` (`label`, `options`…), if it named one. */
  errorsFor: (index: number, member: string) => string | undefined;
}) {
  const update = (index: number, change: Partial<FieldInput>) =>
    onChange(fields.map((field, i) => (i === index ? { ...field, ...change } : field)));
  const move = (index: number, by: number) => {
    const next = fields.slice();
    const [field] = next.splice(index, 1);
    if (field) next.splice(index + by, 0, field);
    onChange(next);
  };
  const add = () => {
    const label = `Question ${fields.length + 1}`;
    onChange([
      ...fields,
      {
        id: newFieldId(
          label,
          fields.map((field) => field.id),
        ),
        type: 'text',
        label,
      },
    ]);
  };
  return (
    <>
      {fields.length === 0 && <p class="empty">No fields yet: add the first one.</p>}
      <ol class="field-list">
        {fields.map((field, index) => {
          const key = `field-${index}`;
          const piiChoice: PiiChoice = !field.pii ? 'none' : (field.piiMode ?? 'default');
          return (
            <li key={key}>
              <fieldset class="field-editor">
                <legend>
                  Field {index + 1}: {field.label || field.id}
                </legend>
                <div class="field-editor__grid">
                  <TextInput
                    id={`${key}-label`}
                    label="Label"
                    value={field.label}
                    onInput={(label) => update(index, { label })}
                    error={errorsFor(index, 'label')}
                  />
                  <Choice
                    id={`${key}-type`}
                    label="Type"
                    value={field.type}
                    options={FIELD_TYPES.map(({ type, label }) => ({ value: type, label }))}
                    onChange={(type) =>
                      update(
                        index,
                        type === 'select' && !field.options ? { type, options: ['Yes', 'No'] } : { type },
                      )
                    }
                  />
                  <TextInput
                    id={`${key}-id`}
                    label="Field id"
                    hint="The answer's name in the API, CSV and webhooks."
                    value={field.id}
                    onInput={(id) => update(index, { id })}
                    error={errorsFor(index, 'id')}
                  />
                  <TextInput
                    id={`${key}-help`}
                    label="Help text"
                    value={field.help}
                    onInput={(help) => update(index, { help: help || undefined })}
                  />
                  {field.type !== 'checkbox' && field.type !== 'rating' && field.type !== 'hidden' && (
                    <TextInput
                      id={`${key}-placeholder`}
                      label="Placeholder"
                      value={field.placeholder}
                      onInput={(placeholder) => update(index, { placeholder: placeholder || undefined })}
                    />
                  )}
                  {field.type === 'select' && (
                    <>
                      <TextInput
                        id={`${key}-options`}
                        label="Options"
                        hint="One a line; “value | label” to show other words than the stored value."
                        multiline
                        value={optionsText(field.options)}
                        onInput={(text) => update(index, { options: optionsOf(text) })}
                        error={errorsFor(index, 'options')}
                      />
                      <Tick
                        id={`${key}-multiple`}
                        label="Several may be chosen"
                        checked={field.multiple === true}
                        onChange={(multiple) => update(index, { multiple: multiple || undefined })}
                      />
                    </>
                  )}
                  {TEXTUAL.includes(field.type) && (
                    <>
                      <TextInput
                        id={`${key}-min-length`}
                        label="Fewest characters"
                        type="number"
                        value={field.minLength}
                        onInput={(text) => update(index, { minLength: numberOf(text) })}
                        error={errorsFor(index, 'minLength')}
                      />
                      <TextInput
                        id={`${key}-max-length`}
                        label="Most characters"
                        type="number"
                        value={field.maxLength}
                        onInput={(text) => update(index, { maxLength: numberOf(text) })}
                        error={errorsFor(index, 'maxLength')}
                      />
                      <TextInput
                        id={`${key}-pattern`}
                        label="Pattern (a regular expression the whole answer matches)"
                        value={field.pattern}
                        onInput={(pattern) => update(index, { pattern: pattern || undefined })}
                        error={errorsFor(index, 'pattern')}
                      />
                    </>
                  )}
                  {(field.type === 'number' || field.type === 'rating') && (
                    <>
                      <TextInput
                        id={`${key}-min`}
                        label="Smallest"
                        type="number"
                        value={field.min}
                        onInput={(text) => update(index, { min: numberOf(text) })}
                        error={errorsFor(index, 'min')}
                      />
                      <TextInput
                        id={`${key}-max`}
                        label="Largest"
                        type="number"
                        value={field.max}
                        onInput={(text) => update(index, { max: numberOf(text) })}
                        error={errorsFor(index, 'max')}
                      />
                    </>
                  )}
                  {field.type === 'number' && (
                    <Tick
                      id={`${key}-integer`}
                      label="Whole numbers only"
                      checked={field.integer === true}
                      onChange={(integer) => update(index, { integer: integer || undefined })}
                    />
                  )}
                  {field.type !== 'hidden' && (
                    <Tick
                      id={`${key}-required`}
                      label="Required"
                      checked={field.required === true}
                      onChange={(required) => update(index, { required: required || undefined })}
                    />
                  )}
                  <Choice
                    id={`${key}-pii`}
                    label="Personal data"
                    value={piiChoice}
                    options={PII_CHOICES}
                    onChange={(choice) =>
                      update(
                        index,
                        choice === 'none'
                          ? { pii: undefined, piiMode: undefined }
                          : { pii: true, piiMode: choice === 'default' ? undefined : choice },
                      )
                    }
                  />
                </div>
                <p class="actions">
                  <button
                    class="button button--small"
                    type="button"
                    aria-label={`Move up: ${field.label}`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    Move up
                  </button>
                  <button
                    class="button button--small"
                    type="button"
                    aria-label={`Move down: ${field.label}`}
                    disabled={index === fields.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    Move down
                  </button>
                  <button
                    class="button button--small button--danger"
                    type="button"
                    aria-label={`Remove: ${field.label}`}
                    onClick={() => onChange(fields.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </p>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <p>
        <button class="button" type="button" onClick={add}>
          Add field
        </button>
      </p>
    </>
  );
}
