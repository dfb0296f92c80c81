import type { FieldOption, FieldType } from '../../../../shared/form.js';
import { type FieldInput, newFieldId } from './model.js';

/**
 * What the builder knows of a field beyond its shape (pure, unit-tested): the type palette's
 * words, what a new field of each type starts as, a field id that follows its label until the
 * form is first published or the id is edited, and a choice's options as rows.
 */

/** The "Add field" palette: each type's plain name and what it is for, in one line. */
export const FIELD_KINDS: ReadonlyArray<{ type: FieldType; name: string; description: string }> = [
  { type: 'text', name: 'Short text', description: 'One line: a name, a title, a short answer.' },
  { type: 'textarea', name: 'Long text', description: 'Several lines: a message, a comment, feedback.' },
  { type: 'email', name: 'E-mail', description: 'An e-mail address, checked for its form.' },
  { type: 'phone', name: 'Phone', description: 'A phone number.' },
  { type: 'select', name: 'Choice', description: 'One or several answers from a list you write.' },
  { type: 'checkbox', name: 'Checkbox', description: 'One box to tick: a consent, a yes or no.' },
  { type: 'number', name: 'Number', description: 'A number, with a smallest and largest if you like.' },
  { type: 'rating', name: 'Rating', description: 'A score on a scale, such as 1 to 5.' },
  { type: 'date', name: 'Date', description: 'A day, picked from a calendar.' },
  { type: 'url', name: 'Web address', description: 'A link to a website.' },
  { type: 'file', name: 'File upload', description: 'Files to attach: a CV, photos, a signed document.' },
  {
    type: 'hidden',
    name: 'Hidden',
    description: 'Not shown: filled from the link, such as ?source=newsletter.',
  },
];

/** Types whose answers identify a person: new fields of these are personal data unless said otherwise. */
const PERSONAL_TYPES: ReadonlySet<FieldType> = new Set(['email', 'phone']);

/** The label a new field starts with: words for what it plainly asks, else "Question n". */
const STARTING_LABELS: Partial<Record<FieldType, string>> = {
  email: 'E-mail address',
  phone: 'Phone number',
  url: 'Website',
  hidden: 'Source',
  file: 'Attachment',
};

/** A new field of `type`, placed after `fields`: its label, an id from it, and the type's defaults. */
export function newField(type: FieldType, fields: readonly FieldInput[]): FieldInput {
  const label = STARTING_LABELS[type] ?? `Question ${fields.length + 1}`;
  const id = newFieldId(
    label,
    fields.map((field) => field.id),
  );
  return {
    id,
    type,
    label,
    ...(PERSONAL_TYPES.has(type) ? { pii: true } : {}),
    ...(type === 'select' ? { options: ['Option 1', 'Option 2'] } : {}),
    ...(type === 'rating' ? { min: 1, max: 5 } : {}),
  };
}

/** Types with no box to type in, so no example text: a tick, a scale, nothing shown, a file picker. */
export const NO_PLACEHOLDER: readonly FieldType[] = ['checkbox', 'rating', 'hidden', 'file'];

/**
 * The members only some types take (API.md §5.1, §12: the server refuses them on any other
 * type, forms/definition.ts), and a placeholder, which a card offers only where there is a box.
 */
const MEMBERS_TAKEN: ReadonlyArray<{
  members: ReadonlyArray<keyof FieldInput>;
  by: (type: FieldType) => boolean;
}> = [
  { members: ['options', 'multiple', 'display'], by: (type) => type === 'select' },
  {
    members: ['minLength', 'maxLength', 'pattern'],
    by: (type) => ['text', 'email', 'textarea', 'url', 'phone', 'hidden'].includes(type),
  },
  { members: ['min', 'max', 'integer'], by: (type) => type === 'number' || type === 'rating' },
  { members: ['maxFiles', 'maxFileSize', 'accept'], by: (type) => type === 'file' },
  { members: ['placeholder'], by: (type) => !NO_PLACEHOLDER.includes(type) },
];

/**
 * A field's type changed: what the new type cannot take is left behind (a save would be refused
 * for it, on a member its card no longer shows); a choice gets options to start from, and an
 * e-mail or phone field becomes personal data unless its owner already said whether it is
 * (`pii` set either way).
 */
export function withType(field: FieldInput, type: FieldType): FieldInput {
  // set to undefined rather than deleted: the card merges a change into the field (and JSON leaves undefined out)
  const left: Partial<FieldInput> = {};
  for (const { members, by } of MEMBERS_TAKEN)
    if (!by(type)) for (const member of members) if (field[member] !== undefined) left[member] = undefined;
  return {
    ...field,
    type,
    ...left,
    ...(type === 'select' && !field.options?.length ? { options: ['Option 1', 'Option 2'] } : {}),
    ...(PERSONAL_TYPES.has(type) && field.pii === undefined ? { pii: true } : {}),
  };
}

/** Whether `id` is what the builder would have made of `label` (its base, or the base numbered to be unique). */
export function idCameFrom(id: string, label: string): boolean {
  const base = newFieldId(label, []);
  return id === base || new RegExp(`^${base}_\\d+$`).test(id);
}

/**
 * Field `index` relabelled. Until the form is first published (`idsFollowLabels`), an id that
 * was made from the old label is made again from the new one, so that answers, the CSV's
 * columns and webhooks read "your_name" rather than "question_1". An id edited by hand, or any
 * id once respondents' answers are keyed by it, stays.
 */
export function relabelled(
  fields: readonly FieldInput[],
  index: number,
  label: string,
  idsFollowLabels: boolean,
): FieldInput[] {
  return fields.map((field, i) => {
    if (i !== index) return field;
    if (!idsFollowLabels || !idCameFrom(field.id, field.label)) return { ...field, label };
    const others = fields.filter((_, j) => j !== index).map((other) => other.id);
    return { ...field, label, id: newFieldId(label, others) };
  });
}

/** What a choice shows, and what its answer stores (the same words unless a value was set apart). */
export const optionLabel = (option: FieldOption): string =>
  typeof option === 'string' ? option : option.label;
export const optionValue = (option: FieldOption): string =>
  typeof option === 'string' ? option : option.value;

/** An option relabelled: its stored value follows the words unless it was set apart. */
export const withOptionLabel = (option: FieldOption, label: string): FieldOption =>
  typeof option === 'string' ? label : { ...option, label };

/** An option's stored value set apart from its words (blank, or the same words: stored as shown). */
export const withOptionValue = (option: FieldOption, value: string): FieldOption => {
  const label = optionLabel(option);
  return value.trim() === '' || value === label ? label : { value, label };
};

/** A new option's words: "Option n", n the first not already among the options. */
export function nextOptionLabel(options: readonly FieldOption[]): string {
  const taken = new Set(options.map(optionLabel));
  let n = options.length + 1;
  while (taken.has(`Option ${n}`)) n++;
  return `Option ${n}`;
}

/** `items` with the item at `from` moved by `by` places (out of range: unchanged). */
export function moved<T>(items: readonly T[], from: number, by: number): T[] {
  const to = from + by;
  if (to < 0 || to >= items.length || from < 0 || from >= items.length) return items.slice();
  const next = items.slice();
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}
