import { useEffect, useRef } from 'preact/hooks';
import type { FieldType } from '../../../../shared/form.js';
import { TextInput, Tick } from '../ui/controls.js';
import { FIELD_KINDS, NO_PLACEHOLDER, withType } from './field-model.js';
import { FileRules } from './file-rules-editor.js';
import { Choice, numberOf } from './inputs.js';
import type { FieldInput } from './model.js';
import { OptionsEditor, OptionValues } from './options-editor.js';

/**
 * One field's card: what nearly every question needs in sight (its words, type, whether it must
 * be answered, a choice's options, a number's range, a file field's limits), and the rarely used
 * rules under "More options" (its id, a placeholder, lengths, a pattern, stored values, personal
 * data), opened by itself when the API refuses one of them. A card offers only the members its
 * type takes (field-model.ts `withType` leaves the others behind when the type changes).
 */

const TEXTUAL: FieldType[] = ['text', 'textarea', 'email', 'url', 'phone'];
/** The members kept under "More options": an error about one opens it. */
const MORE = ['id', 'placeholder', 'minLength', 'maxLength', 'pattern', 'integer', 'pii', 'piiMode'];
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

/** What each way of keeping personal data means for a file (API.md §12), said under the choice on a file field. */
const FILE_PII_HINT =
  'For a file: masked keeps the file but hides its name everywhere; hashed keeps only a checksum of the name, the size and the file’s checksum, not the file; encrypted keeps the file encrypted on the server (a download decrypts it); not stored checks the file, then keeps nothing.';

export function FieldCard({
  id,
  field,
  position,
  count,
  idFollows,
  onChange,
  onLabel,
  onMove,
  onRemove,
  errorFor,
}: {
  /** The prefix of the card's element ids, stable while the field moves. */
  id: string;
  field: FieldInput;
  /** Its place in the form, from 0. */
  position: number;
  count: number;
  /** Whether its id is still made from its label (said under the id). */
  idFollows: boolean;
  onChange: (change: Partial<FieldInput>) => void;
  onLabel: (label: string) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
  errorFor: (member: string) => string | undefined;
}) {
  const more = useRef<HTMLDetailsElement>(null);
  const moreError = MORE.some((member) => errorFor(member));
  useEffect(() => {
    if (moreError && more.current) more.current.open = true;
  }, [moreError]);
  const piiChoice: PiiChoice = !field.pii ? 'none' : (field.piiMode ?? 'default');
  const name = field.label || field.id;
  return (
    <fieldset class="field-editor" id={id}>
      <legend>
        Field {position + 1}: {name}
      </legend>
      <div class="field-editor__grid">
        <TextInput
          id={`${id}-label`}
          label="Label"
          value={field.label}
          onInput={onLabel}
          error={errorFor('label')}
        />
        <Choice
          id={`${id}-type`}
          label="Type"
          value={field.type}
          options={FIELD_KINDS.map(({ type, name }) => ({ value: type, label: name }))}
          onChange={(type) => onChange(withType(field, type))}
        />
        {field.type === 'hidden' ? (
          <p class="hint field-editor__wide">
            Not shown to respondents: its answer comes from the form’s link, such as …?{field.id}=newsletter.
          </p>
        ) : (
          <div class="field-editor__wide">
            <TextInput
              id={`${id}-help`}
              label="Help text (shown under the question)"
              value={field.help}
              onInput={(help) => onChange({ help: help || undefined })}
            />
          </div>
        )}
        {field.type === 'select' && (
          <div class="field-editor__wide">
            <OptionsEditor
              id={id}
              options={field.options ?? []}
              onChange={(options) => onChange({ options })}
              error={errorFor('options')}
            />
          </div>
        )}
        {field.type === 'select' && (
          <>
            <Tick
              id={`${id}-multiple`}
              label="Several may be chosen"
              checked={field.multiple === true}
              onChange={(multiple) => onChange({ multiple: multiple || undefined })}
            />
            <Choice
              id={`${id}-display`}
              label="Show the options as"
              value={field.display ?? 'auto'}
              options={[
                { value: 'auto', label: 'Automatic (tiles up to 7)' },
                { value: 'tiles', label: 'Tiles' },
                { value: 'dropdown', label: field.multiple ? 'A list' : 'A dropdown' },
              ]}
              onChange={(display) => onChange({ display: display === 'auto' ? undefined : display })}
            />
          </>
        )}
        {(field.type === 'number' || field.type === 'rating') && (
          <>
            <TextInput
              id={`${id}-min`}
              label="Smallest"
              type="number"
              value={field.min}
              onInput={(text) => onChange({ min: numberOf(text) })}
              error={errorFor('min')}
            />
            <TextInput
              id={`${id}-max`}
              label="Largest"
              type="number"
              value={field.max}
              onInput={(text) => onChange({ max: numberOf(text) })}
              error={errorFor('max')}
            />
          </>
        )}
        {field.type === 'file' && <FileRules id={id} field={field} onChange={onChange} errorFor={errorFor} />}
        {field.type !== 'hidden' && (
          <Tick
            id={`${id}-required`}
            label="Required"
            checked={field.required === true}
            onChange={(required) => onChange({ required: required || undefined })}
          />
        )}
      </div>
      <details class="field-editor__more" ref={more}>
        <summary>More options</summary>
        <div class="field-editor__grid">
          <TextInput
            id={`${id}-id`}
            label="Field id"
            hint={
              idFollows
                ? 'The answer’s name in the CSV, the API and webhooks. Made from the label until you change it or first publish the form.'
                : 'The answer’s name in the CSV, the API and webhooks.'
            }
            value={field.id}
            onInput={(fieldId) => onChange({ id: fieldId })}
            error={errorFor('id')}
          />
          {!NO_PLACEHOLDER.includes(field.type) && (
            <TextInput
              id={`${id}-placeholder`}
              label="Placeholder (example text in the empty box)"
              value={field.placeholder}
              onInput={(placeholder) => onChange({ placeholder: placeholder || undefined })}
            />
          )}
          {TEXTUAL.includes(field.type) && (
            <>
              <TextInput
                id={`${id}-min-length`}
                label="Fewest characters"
                type="number"
                value={field.minLength}
                onInput={(text) => onChange({ minLength: numberOf(text) })}
                error={errorFor('minLength')}
              />
              <TextInput
                id={`${id}-max-length`}
                label="Most characters"
                type="number"
                value={field.maxLength}
                onInput={(text) => onChange({ maxLength: numberOf(text) })}
                error={errorFor('maxLength')}
              />
              <TextInput
                id={`${id}-pattern`}
                label="Pattern (a regular expression the whole answer matches)"
                value={field.pattern}
                onInput={(pattern) => onChange({ pattern: pattern || undefined })}
                error={errorFor('pattern')}
              />
            </>
          )}
          {field.type === 'number' && (
            <Tick
              id={`${id}-integer`}
              label="Whole numbers only"
              checked={field.integer === true}
              onChange={(integer) => onChange({ integer: integer || undefined })}
            />
          )}
          {field.type === 'select' && (
            <div class="field-editor__wide">
              <OptionValues
                id={id}
                options={field.options ?? []}
                onChange={(options) => onChange({ options })}
              />
            </div>
          )}
          <div class="field-editor__wide">
            <Choice
              id={`${id}-pii`}
              label="Personal data"
              value={piiChoice}
              options={PII_CHOICES}
              hint={field.type === 'file' ? FILE_PII_HINT : undefined}
              error={errorFor('pii') ?? errorFor('piiMode')}
              onChange={(choice) =>
                onChange(
                  choice === 'none'
                    ? // said outright: a later change of type to e-mail keeps it so
                      { pii: false, piiMode: undefined }
                    : { pii: true, piiMode: choice === 'default' ? undefined : choice },
                )
              }
            />
          </div>
        </div>
      </details>
      <p class="actions">
        <button
          id={`${id}-up`}
          class="button button--small"
          type="button"
          aria-label={`Move up: ${name}`}
          disabled={position === 0}
          onClick={() => onMove(-1)}
        >
          Move up
        </button>
        <button
          id={`${id}-down`}
          class="button button--small"
          type="button"
          aria-label={`Move down: ${name}`}
          disabled={position === count - 1}
          onClick={() => onMove(1)}
        >
          Move down
        </button>
        <button
          class="button button--small button--danger"
          type="button"
          aria-label={`Remove: ${name}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </p>
    </fieldset>
  );
}
