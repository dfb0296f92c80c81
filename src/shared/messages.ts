import { acceptInWords } from './file-kinds.js';
import type { MessageId, MessageValues, Words } from './i18n/words.js';

/**
 * The words a refused answer is told in, by id, in English: the validator
 * (features/submissions/validator.ts) answers with them, the page's components put them under
 * each field and in the error summary, and the hosted page's script (web/client/hosted/checks.ts)
 * says the same before a post. One table, so the browser's check and the server's agree word for
 * word.
 *
 * Each entry is the `code` a problem's `errors[]` carries (API.md §6.1; several messages share
 * one, such as `type`: the codes are the API's contract, the words are not) and its text: plain
 * words for the person answering, an instruction that stands on its own under the question
 * ("Enter at least 8 characters", "Tick this box to continue"), never a rule's name or a pattern.
 */

type Values = (words: Words, ...args: never[]) => MessageValues;

const none = () => ({});

/**
 * A message of the catalogue (shared/i18n) with its `code`: `say` tells it in the words of a
 * page or a request; in English (the API's `message`) through shared/refusals.ts.
 */
const message = <V extends Values>(code: string, id: MessageId, values: V) => ({
  code,
  id,
  values,
  say: (words: Words, ...args: Tail<Parameters<V>>) => words.say(id, values(words, ...(args as never[]))),
});
export type Tail<T extends unknown[]> = T extends [unknown, ...infer Rest] ? Rest : [];

/** A size in bytes as people read it: 10 MB, 2.5 MB, 300 KB (binary units, written the way file managers do), in `lang`'s numbers. */
export function sizeInWords(bytes: number, lang = 'en'): string {
  const format = (value: number, unit: string, display: 'short' | 'long') =>
    new Intl.NumberFormat(lang, {
      style: 'unit',
      unit,
      unitDisplay: display,
      maximumFractionDigits: value >= 10 ? 0 : 1,
    }).format(value);
  if (bytes < 1024) return format(bytes, 'byte', 'long');
  const units = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return format(value, units[unit] ?? 'terabyte', 'short');
}

export const FIELD_MESSAGES = {
  required: message('required', 'required', none),
  /** A required checkbox is a consent: it must be ticked. */
  requiredBox: message('required', 'requiredBox', none),
  /** A required choice (one option, or a rating). */
  requiredChoice: message('required', 'requiredChoice', none),
  /** A required choice of several options. */
  requiredChoices: message('required', 'requiredChoices', none),
  notText: message('type', 'notText', none),
  tooShort: message('min_length', 'tooShort', (_: Words, minLength: number) => ({ minLength })),
  tooLong: message('max_length', 'tooLong', (_: Words, maxLength: number) => ({ maxLength })),
  notEmail: message('invalid_email', 'notEmail', none),
  notUrl: message('invalid_url', 'notUrl', none),
  notPhone: message('invalid_phone', 'notPhone', none),
  /** The author's pattern, which no person reads: the question's help says what it wants. */
  notPattern: message('pattern', 'notPattern', none),
  notNumber: message('type', 'notNumber', none),
  notWhole: message('integer', 'notWhole', none),
  belowMinimum: message('minimum', 'belowMinimum', (_: Words, min: number) => ({ min })),
  aboveMaximum: message('maximum', 'aboveMaximum', (_: Words, max: number) => ({ max })),
  notBoolean: message('type', 'notBoolean', none),
  notDate: message('invalid_date', 'notDate', none),
  notOptionList: message('type', 'notOptionList', none),
  notOption: message('type', 'notOption', none),
  notOneOf: message('invalid_option', 'notOneOf', (_: Words, options: string) => ({ options })),
  unknownOption: message('invalid_option', 'unknownOption', (_: Words, value: string, options: string) => ({
    value,
    options,
  })),
  unknownField: message('unknown_field', 'unknownField', none),
  hiddenField: message('hidden_field', 'hiddenField', none),
  /** A file field (API.md §12). */
  requiredFile: message('required', 'requiredFile', none),
  fileTooLarge: message('file_too_large', 'fileTooLarge', (words: Words, name: string, maxBytes: number) => ({
    name,
    size: sizeInWords(maxBytes, words.lang),
  })),
  tooManyFiles: message('too_many_files', 'tooManyFiles', (_: Words, maxFiles: number) => ({ maxFiles })),
  /** `accept` as the field's entries (said in the words' language), or as words already said (the page script's). */
  fileType: message(
    'file_type',
    'fileType',
    (words: Words, name: string, accept: string | readonly string[]) => ({
      name,
      accept: typeof accept === 'string' ? accept : acceptInWords(accept, words),
    }),
  ),
  fileEmpty: message('file_empty', 'fileEmpty', (_: Words, name: string) => ({ name })),
  infected: message('infected', 'infected', (_: Words, name: string) => ({ name })),
  notFiles: message('type', 'notFiles', none),
  /** An upload id that is unknown, expired, of another form or field, or already used. */
  uploadGone: message('unknown_upload', 'uploadGone', none),
  /** The browser found something its own rules refuse that none of the above names. */
  invalid: message('invalid', 'invalid', none),
} as const;

export type FieldMessage = (typeof FIELD_MESSAGES)[keyof typeof FIELD_MESSAGES];
/** The values a message is said with (after the words). */
export type MessageArgs<M extends FieldMessage> = Tail<Parameters<M['say']>>;

/** Which message a missing answer gets: what a person does to give one. */
export function requiredMessageOf(field: {
  type: string;
  multiple?: boolean;
}): 'required' | 'requiredBox' | 'requiredChoice' | 'requiredChoices' | 'requiredFile' {
  if (field.type === 'checkbox') return 'requiredBox';
  if (field.type === 'select') return field.multiple ? 'requiredChoices' : 'requiredChoice';
  if (field.type === 'rating') return 'requiredChoice';
  if (field.type === 'file') return 'requiredFile';
  return 'required';
}

/**
 * A field's error as one sentence. Under its question the message stands alone (the label is
 * right above it); where the question is not in sight (the error summary) the label leads:
 * "Your name: Enter at least 2 characters."
 */
export function errorSentence(label: string | undefined, message: string, words: ScriptWords): string {
  const text = label === undefined ? message : words.say('labelled', { label, message });
  return /[.!?。．！？]$/.test(text) ? text : words.say('sentence', { text });
}

/** The words a script-side helper needs: any `Words` (the server's catalogues, or the page's own messages). */
type ScriptWords = Pick<Words, 'say'>;

/** Where a one-by-one page stands (its progress text and its `<title>`, API.md §11.1). */
export const questionOf = (n: number, m: number, words: ScriptWords): string =>
  words.say('questionOf', { n, m });

/** How far a classic page is answered (its progress bar, API.md §11.1): the questions shown and answered. */
export const answeredOf = (answered: number, shown: number, words: ScriptWords): string =>
  words.say('answeredOf', { answered, shown });
