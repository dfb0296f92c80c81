import type { ComponentChildren } from 'preact';
import { limitsInWords, limitsOf } from '../../../shared/file-rules.js';
import type { FormField } from '../../../shared/form.js';
import { ENGLISH_WORDS } from '../../../shared/i18n/english.js';
import type { Words } from '../../../shared/i18n/words.js';
import { sizeInWords } from '../../../shared/messages.js';
import { controlId, optionLabel, optionValue, type PageUpload } from './controls.js';

/**
 * One component per field type, each a native control (API.md §11.1): its accessible name is
 * exactly the field's label (the visible required mark is aria-hidden), its `name` the field's
 * id, `required` when the field is, the field's rules as the browser's own validation
 * attributes, and its help, its "when it applies" note and its error tied to it with
 * aria-describedby. Pure: props in, markup out, for the server's pages and the builder's preview.
 */
export interface FieldProps {
  field: FormField;
  /** The answer so far (kept when a post is answered with errors). */
  value?: unknown;
  /** The message of this field's error, if the last post had one. */
  error?: string;
  /** When the logic may hide the field: in words, when it applies. */
  note?: string;
  /**
   * The field is the page's one question (the one-by-one layout): its label is the page's
   * second-level heading (the script focuses its control on each step).
   */
  heading?: boolean;
  /** The id of what says where the question stands ("Question 2 of 5"), which the heading is described by. */
  position?: string;
  /** A file field: the files it holds already (uploaded, or kept from an earlier post). */
  uploads?: readonly PageUpload[];
  /** The owner's preview (the hosted `?preview=1`, the builder's): a file field uploads nothing, and says so. */
  preview?: boolean;
  /** Intake's own words in the page's language (API.md §13); English when not given. */
  words?: Words;
}

const wordsOf = (props: FieldProps): Words => props.words ?? ENGLISH_WORDS;

/** The most radio buttons a rating is shown as; a wider scale is a number input. */
const MAX_RATING_BUTTONS = 11;

const ids = (field: FormField) => ({
  control: controlId(field.id),
  help: `help-${field.id}`,
  note: `when-${field.id}`,
  error: `error-${field.id}`,
  hint: `hint-${field.id}`,
  group: `group-${field.id}`,
  limits: `limits-${field.id}`,
  uploads: `uploads-${field.id}`,
  status: `status-${field.id}`,
  preview: `preview-${field.id}`,
});

/**
 * What a control is described by: on a one-by-one page, where the question stands first (the
 * page's script focuses the control on each step, so that is where it is heard), then the
 * question's help, when it applies, and its error.
 */
function describedBy({ field, error, note, heading, position, preview }: FieldProps): string | undefined {
  const names = ids(field);
  const list = [
    heading && position ? position : '',
    field.help ? names.help : '',
    field.type === 'file' ? names.limits : '',
    field.type === 'file' && preview ? names.preview : '',
    note ? names.note : '',
    error ? names.error : '',
  ].filter(Boolean);
  return list.length > 0 ? list.join(' ') : undefined;
}

/** The texts under a label: help, when it applies, and the error (above the control, where it is read first). */
function Descriptions(props: FieldProps) {
  const { field, error, note, preview } = props;
  const words = wordsOf(props);
  const names = ids(field);
  return (
    <>
      {field.help && (
        <p class="field__help" id={names.help}>
          {field.help}
        </p>
      )}
      {field.type === 'file' && (
        <p class="field__help field__limits" id={names.limits}>
          {limitsInWords(limitsOf(field, words), words)}
        </p>
      )}
      {field.type === 'file' && preview && (
        <p class="field__when" id={names.preview}>
          {words.say('previewFiles')}
        </p>
      )}
      {note && (
        <p class="field__when" id={names.note}>
          {note}
        </p>
      )}
      {error && (
        <p class="field__error" id={names.error}>
          <span class="visually-hidden">{words.say('errorPrefix')} </span>
          {error}
        </p>
      )}
    </>
  );
}

const RequiredMark = ({ required }: { required?: boolean }) =>
  required ? (
    <span class="field__required" aria-hidden="true">
      {' *'}
    </span>
  ) : null;

/**
 * A label that is the page's heading when the field is its one question, described by the
 * question's position: read out when the page's script moves focus to it.
 */
const asHeading = ({ heading, position }: FieldProps, children: ComponentChildren) =>
  heading ? (
    <h2 class="field__heading" aria-describedby={position}>
      {children}
    </h2>
  ) : (
    children
  );

function FieldFrame(props: FieldProps & { children: ComponentChildren }) {
  const { field, error, children } = props;
  return (
    <div
      class={`field field--${field.type}${error ? ' field--invalid' : ''}`}
      data-field={field.id}
      data-label={field.label}
    >
      {asHeading(
        props,
        // the mark beside the label, not in it: the label's text is the field's label alone, to
        // whatever reads it (a locator by label text, not only the accessible name)
        <span class="field__label-line">
          <label class="field__label" for={ids(field).control} dir="auto">
            {field.label}
          </label>
          <RequiredMark required={field.required} />
        </span>,
      )}
      <Descriptions {...props} />
      {children}
    </div>
  );
}

const text = (value: unknown): string =>
  value === undefined || value === null ? '' : Array.isArray(value) ? String(value[0] ?? '') : String(value);

/** The attributes every control shares. */
function common(props: FieldProps) {
  const { field, error } = props;
  return {
    id: ids(field).control,
    name: field.id,
    required: field.required === true,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': describedBy(props),
  };
}

const INPUT_TYPES: Record<string, { type: 'text' | 'email' | 'url' | 'tel'; autocomplete?: string }> = {
  text: { type: 'text' },
  email: { type: 'email', autocomplete: 'email' },
  url: { type: 'url', autocomplete: 'url' },
  phone: { type: 'tel', autocomplete: 'tel' },
};

/** text, email, url, phone (`type=tel`): one line of text with the field's length and pattern rules. */
export function TextField(props: FieldProps) {
  const { field, value } = props;
  const kind = INPUT_TYPES[field.type] ?? { type: 'text' };
  return (
    <FieldFrame {...props}>
      <input
        {...common(props)}
        class="control"
        // Preact types each input type apart, and no single branch takes all four
        type={kind.type as 'text'}
        value={text(value)}
        autocomplete={kind.autocomplete}
        placeholder={field.placeholder}
        minLength={field.minLength}
        maxLength={field.maxLength}
        pattern={field.pattern}
        spellcheck={kind.type === 'text' ? undefined : false}
      />
    </FieldFrame>
  );
}

/** A date, YYYY-MM-DD as the server takes it (the browser's date picker sends that form). */
export function DateField(props: FieldProps) {
  return (
    <FieldFrame {...props}>
      <input {...common(props)} class="control control--date" type="date" value={text(props.value)} />
    </FieldFrame>
  );
}

export function TextareaField(props: FieldProps) {
  const { field, value } = props;
  return (
    <FieldFrame {...props}>
      <textarea
        {...common(props)}
        class="control control--textarea"
        rows={5}
        placeholder={field.placeholder}
        minLength={field.minLength}
        maxLength={field.maxLength}
        value={text(value)}
      />
    </FieldFrame>
  );
}

export function NumberField(props: FieldProps) {
  const { field, value } = props;
  const whole = field.integer === true || field.type === 'rating';
  return (
    <FieldFrame {...props}>
      <input
        {...common(props)}
        class="control control--number"
        type="number"
        inputMode={field.integer ? 'numeric' : 'decimal'}
        // A whole number's bounds as whole numbers: the browser counts step=1 from min, so a
        // min of 0.5 would refuse 1, which the server takes.
        min={whole && field.min !== undefined ? Math.ceil(field.min) : field.min}
        max={whole && field.max !== undefined ? Math.floor(field.max) : field.max}
        step={whole ? 1 : 'any'}
        placeholder={field.placeholder}
        value={text(value)}
      />
    </FieldFrame>
  );
}

/** The most options shown as tiles when the author has not chosen (API.md §11.1; shared/form.ts `ChoiceDisplay`). */
export const TILE_LIMIT = 7;

/** Whether a select shows its options as tiles: the author's `display`, else up to TILE_LIMIT of them. */
export const showsTiles = (field: FormField): boolean =>
  field.display === 'tiles' || (field.display !== 'dropdown' && (field.options ?? []).length <= TILE_LIMIT);

/**
 * A choice: one answer as radio tiles (a dropdown for a long list, or when the author asks),
 * several as checkbox tiles (a scrolling list of checkboxes for a long list): never a list box
 * that needs Ctrl to choose more than one. Only the one-answer dropdown is a `<select>`.
 */
export function SelectField(props: FieldProps) {
  const { field, value } = props;
  const options = field.options ?? [];
  const chosen = new Set((Array.isArray(value) ? value : [value]).map((item) => String(item ?? '')));
  if (field.multiple || showsTiles(field)) return <ChoiceGroup {...props} chosen={chosen} />;
  return (
    <FieldFrame {...props}>
      <select {...common(props)} class="control control--select">
        <option value="" selected={!options.some((option) => chosen.has(optionValue(option)))}>
          {field.placeholder || wordsOf(props).say('choose')}
        </option>
        {options.map((option) => (
          <option
            key={optionValue(option)}
            dir="auto"
            value={optionValue(option)}
            selected={chosen.has(optionValue(option))}
          >
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * Radio or checkbox tiles in a group named by the label (its legend). A required group of
 * checkboxes has no attribute the browser checks (`required` on each box would ask for every
 * one): `data-required` tells the page's script, the hint tells the person, the server decides.
 */
function ChoiceGroup(props: FieldProps & { chosen: ReadonlySet<string> }) {
  const { field, error, chosen } = props;
  const names = ids(field);
  const several = field.multiple === true;
  const words = wordsOf(props);
  const hint = several ? words.say(field.required ? 'chooseOneOrMore' : 'chooseAny') : undefined;
  const described = [hint ? names.hint : '', describedBy(props) ?? ''].filter(Boolean).join(' ');
  return (
    <fieldset
      class={`field field--select field--choices${error ? ' field--invalid' : ''}`}
      data-field={field.id}
      data-label={field.label}
      data-required={several && field.required ? '' : undefined}
      id={names.group}
      aria-describedby={described || undefined}
    >
      <legend class="field__label" dir="auto">
        {asHeading(
          props,
          <>
            {field.label}
            <RequiredMark required={field.required} />
          </>,
        )}
      </legend>
      {hint && (
        <p class="field__help" id={names.hint}>
          {hint}
        </p>
      )}
      <Descriptions {...props} />
      <div class={`choices${showsTiles(field) ? ' choices--tiles' : ' choices--list'}`}>
        {(field.options ?? []).map((option, i) => (
          <label class="choice" key={optionValue(option)}>
            <input
              class="choice__input"
              type={several ? 'checkbox' : 'radio'}
              id={i === 0 ? names.control : `option-${i}-${field.id}`}
              name={field.id}
              value={optionValue(option)}
              checked={chosen.has(optionValue(option))}
              required={!several && field.required === true}
              aria-invalid={error ? 'true' : undefined}
            />
            <span class="choice__label" dir="auto">
              {optionLabel(option)}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * A single box: ticked sends "on", read by the server as true. As a page's one question its label
 * is the heading, and comes first in the document (a heading reads before what it heads); the box
 * still shows before it.
 */
export function CheckboxField(props: FieldProps) {
  const { field, value, error, heading } = props;
  const checked = value === true || value === 'on' || value === 'true';
  const box = <input {...common(props)} class="check__box" type="checkbox" value="on" checked={checked} />;
  const label = (
    <span class="check__text">
      <label class="check__label" for={ids(field).control} dir="auto">
        {field.label}
      </label>
      <RequiredMark required={field.required} />
    </span>
  );
  return (
    <div
      class={`field field--checkbox${error ? ' field--invalid' : ''}`}
      data-field={field.id}
      data-label={field.label}
    >
      {heading ? (
        <>
          <div class="check check--heading">
            {asHeading(props, label)}
            {box}
          </div>
          <Descriptions {...props} />
        </>
      ) : (
        <>
          <Descriptions {...props} />
          <div class="check">
            {box}
            {label}
          </div>
        </>
      )}
    </div>
  );
}

/** A rating: radio buttons from min to max (1..5 by default) in a group named by the label; a wide scale is a number input. */
export function RatingField(props: FieldProps) {
  const { field, value, error } = props;
  const min = Math.ceil(field.min ?? 1);
  const max = Math.floor(field.max ?? 5);
  if (max < min || max - min + 1 > MAX_RATING_BUTTONS) return <NumberField {...props} />;
  const names = ids(field);
  const scale = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  const current = text(value);
  return (
    <fieldset
      class={`field field--rating${error ? ' field--invalid' : ''}`}
      data-field={field.id}
      data-label={field.label}
      id={names.group}
      aria-describedby={describedBy(props)}
    >
      <legend class="field__label" dir="auto">
        {asHeading(
          props,
          <>
            {field.label}
            <RequiredMark required={field.required} />
          </>,
        )}
      </legend>
      <Descriptions {...props} />
      <div class="rating">
        {scale.map((score, i) => (
          <label class="rating__option" key={score}>
            <input
              class="rating__input"
              type="radio"
              id={i === 0 ? names.control : `choice-${score}-${field.id}`}
              name={field.id}
              value={String(score)}
              checked={current === String(score)}
              required={field.required === true}
              aria-invalid={error ? 'true' : undefined}
            />
            <span class="rating__score">{score}</span>
          </label>
        ))}
      </div>
      <p class="rating__ends">
        <span>{wordsOf(props).say('ratingLowest', { n: min })}</span>
        <span>{wordsOf(props).say('ratingHighest', { n: max })}</span>
      </p>
    </fieldset>
  );
}

/**
 * A file field (API.md §12): a native file input with the field's limits as its own attributes
 * (`accept`, `multiple`) and in words under the label, and the files it holds already, each
 * posted again under the field's id with a box that removes it (a post with the box ticked
 * drops the file: no script needed). The page's script (client/hosted/files.ts) checks chosen
 * files against the limits on the input's data attributes, uploads them one by one and adds
 * them to the list, its status line telling each change. In the owner's preview it uploads
 * nothing (`data-preview`): the files stay in the input, and the page says so.
 */
export function FileField(props: FieldProps) {
  const { field, uploads = [], preview } = props;
  const names = ids(field);
  const words = wordsOf(props);
  const limits = limitsOf(field, words);
  return (
    <FieldFrame {...props}>
      <input
        {...common(props)}
        class="control control--file"
        type="file"
        accept={limits.accept.length > 0 ? limits.accept.join(',') : undefined}
        multiple={limits.maxFiles > 1}
        // a file held already answers the question; data-required tells the page's script that
        // the input is required again once the last one is removed
        required={field.required === true && uploads.length === 0}
        data-required={field.required ? '' : undefined}
        data-max-files={limits.maxFiles}
        data-max-size={limits.maxFileSize}
        data-accept-text={limits.acceptText || undefined}
        data-preview={preview ? '' : undefined}
      />
      <ul class="uploads" id={names.uploads}>
        {uploads.map((upload) => (
          <li class="upload" key={upload.uploadId}>
            <span class="upload__name">{upload.name}</span>{' '}
            <span class="upload__size">({sizeInWords(upload.size, words.lang)})</span>
            <input type="hidden" name={field.id} value={upload.uploadId} />
            <label class="upload__remove">
              <input type="checkbox" name="_remove" value={upload.uploadId} /> {words.say('removeFile')}
              <span class="visually-hidden"> {upload.name}</span>
            </label>
          </li>
        ))}
      </ul>
      <p class="visually-hidden" id={names.status} role="status" />
    </FieldFrame>
  );
}

export function HiddenField({ field, value }: FieldProps) {
  // data-field: the page's script reads it as an answer the logic may depend on
  return <input type="hidden" name={field.id} value={text(value)} data-field={field.id} />;
}

/** The control of any field type; an unknown type (one added later) is a text input. */
export function Field(props: FieldProps) {
  switch (props.field.type) {
    case 'textarea':
      return <TextareaField {...props} />;
    case 'select':
      return <SelectField {...props} />;
    case 'number':
      return <NumberField {...props} />;
    case 'checkbox':
      return <CheckboxField {...props} />;
    case 'rating':
      return <RatingField {...props} />;
    case 'hidden':
      return <HiddenField {...props} />;
    case 'date':
      return <DateField {...props} />;
    case 'file':
      return <FileField {...props} />;
    default:
      return <TextField {...props} />;
  }
}
