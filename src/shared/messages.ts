/**
 * The words a refused answer is told in, by id, in English: the validator
 * (features/submissions/validator.ts) answers with them, the page's components put them under
 * each field and in the error summary, and the hosted page's script (web/client/hosted/checks.ts)
 * says the same before a post. One table, so the browser's check and the server's agree word for
 * word.
 *
 * Each entry is the `code` a problem's `errors[]` carries (API.md §6.1; several messages share
 * one, such as `type`) and its text, a predicate ("is required", "must be …") that follows the
 * field's label.
 */

type Text = (...values: never[]) => string;

const message = <T extends Text>(code: string, text: T) => ({ code, text });

export const FIELD_MESSAGES = {
  required: message('required', () => 'is required'),
  notText: message('type', () => 'must be a string'),
  tooShort: message('min_length', (minLength: number) => `must be at least ${minLength} characters long`),
  tooLong: message('max_length', (maxLength: number) => `must be at most ${maxLength} characters long`),
  notEmail: message('invalid_email', () => 'must be a valid e-mail address'),
  notUrl: message('invalid_url', () => 'must be an http(s) URL'),
  notPhone: message('invalid_phone', () => 'must be a phone number'),
  notPattern: message('pattern', (pattern: string) => `must match the pattern ${pattern}`),
  notNumber: message('type', () => 'must be a finite number'),
  notWhole: message('integer', () => 'must be a whole number'),
  belowMinimum: message('minimum', (min: number) => `must be at least ${min}`),
  aboveMaximum: message('maximum', (max: number) => `must be at most ${max}`),
  notBoolean: message('type', () => 'must be true or false'),
  notDate: message('invalid_date', () => 'must be a date written YYYY-MM-DD'),
  notOptionList: message('type', () => 'must be an array of option values'),
  notOption: message('type', () => 'must be one option value (a string)'),
  notOneOf: message('invalid_option', (options: string) => `must be one of: ${options}`),
  unknownOption: message(
    'invalid_option',
    (value: string, options: string) => `"${value}" is not one of: ${options}`,
  ),
  unknownField: message('unknown_field', () => 'is not a field of this form'),
  hiddenField: message('hidden_field', () => 'is hidden by the form logic and takes no answer'),
  /** The browser found something its own rules refuse that none of the above names. */
  invalid: message('invalid', () => 'is not valid'),
} as const;

export type FieldMessageId = keyof typeof FIELD_MESSAGES;

/** A field's error as the page says it: its label, then the message, as one sentence. */
export function errorSentence(label: string | undefined, message: string): string {
  const text = label === undefined ? message : `${label} ${message}`;
  return text.endsWith('.') ? text : `${text}.`;
}

/** Where a one-by-one page stands (its progress text and its `<title>`, API.md §11.1). */
export const questionOf = (n: number, m: number): string => `Question ${n} of ${m}`;

/** How far a classic page is answered (its progress bar, API.md §11.1): the questions shown and answered. */
export const answeredOf = (answered: number, shown: number): string =>
  `${answered} of ${shown} questions answered`;
