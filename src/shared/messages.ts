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

type Text = (...values: never[]) => string;

const message = <T extends Text>(code: string, text: T) => ({ code, text });

const characters = (n: number) => `${n} ${n === 1 ? 'character' : 'characters'}`;

/** A size in bytes as people read it: 10 MB, 2.5 MB, 300 KB (binary units, written the way file managers do). */
export function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${units[unit]}`;
}

export const FIELD_MESSAGES = {
  required: message('required', () => 'Answer this question'),
  /** A required checkbox is a consent: it must be ticked. */
  requiredBox: message('required', () => 'Tick this box to continue'),
  /** A required choice (one option, or a rating). */
  requiredChoice: message('required', () => 'Choose an answer'),
  /** A required choice of several options. */
  requiredChoices: message('required', () => 'Choose at least one answer'),
  notText: message('type', () => 'Enter your answer as text'),
  tooShort: message('min_length', (minLength: number) => `Enter at least ${characters(minLength)}`),
  tooLong: message('max_length', (maxLength: number) => `Enter no more than ${characters(maxLength)}`),
  notEmail: message('invalid_email', () => 'Enter an e-mail address like name@example.com'),
  notUrl: message('invalid_url', () => 'Enter a web address starting with http:// or https://'),
  notPhone: message('invalid_phone', () => 'Enter a phone number using digits, like +1 555 010 0199'),
  /** The author's pattern, which no person reads: the question's help says what it wants. */
  notPattern: message('pattern', () => 'Enter your answer in the format this question asks for'),
  notNumber: message('type', () => 'Enter a number'),
  notWhole: message('integer', () => 'Enter a whole number, without decimals'),
  belowMinimum: message('minimum', (min: number) => `Enter a number that is ${min} or more`),
  aboveMaximum: message('maximum', (max: number) => `Enter a number that is ${max} or less`),
  notBoolean: message('type', () => 'Answer with true (ticked) or false (not ticked)'),
  notDate: message('invalid_date', () => 'Enter a real date, like 2026-03-31'),
  notOptionList: message('type', () => 'Choose from the options given'),
  notOption: message('type', () => 'Choose one of the options given'),
  notOneOf: message('invalid_option', (options: string) => `Choose one of the options: ${options}`),
  unknownOption: message(
    'invalid_option',
    (value: string, options: string) => `“${value}” is not one of the options: ${options}`,
  ),
  unknownField: message('unknown_field', () => 'This form has no such question'),
  hiddenField: message(
    'hidden_field',
    () => 'This question does not apply given the other answers: leave it empty',
  ),
  /** A file field (API.md §12). */
  requiredFile: message('required', () => 'Choose a file to upload'),
  fileTooLarge: message(
    'file_too_large',
    (name: string, maxBytes: number) =>
      `“${name}” is larger than ${sizeInWords(maxBytes)}: choose a smaller file`,
  ),
  tooManyFiles: message(
    'too_many_files',
    (maxFiles: number) => `Choose no more than ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'}`,
  ),
  fileType: message(
    'file_type',
    (name: string, accept: string) => `“${name}” is not a file of an accepted type (${accept})`,
  ),
  fileEmpty: message(
    'file_empty',
    (name: string) => `“${name}” is empty: choose a file with something in it`,
  ),
  infected: message('infected', (name: string) => `“${name}” was refused by the virus scanner`),
  notFiles: message('type', () => 'Upload the files with this form, then send it'),
  /** An upload id that is unknown, expired, of another form or field, or already used. */
  uploadGone: message('unknown_upload', () => 'A file is no longer available: choose it again'),
  /** The browser found something its own rules refuse that none of the above names. */
  invalid: message('invalid', () => 'Check this answer'),
} as const;

export type FieldMessageId = keyof typeof FIELD_MESSAGES;

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
export function errorSentence(label: string | undefined, message: string): string {
  const text = label === undefined ? message : `${label}: ${message}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Where a one-by-one page stands (its progress text and its `<title>`, API.md §11.1). */
export const questionOf = (n: number, m: number): string => `Question ${n} of ${m}`;

/** How far a classic page is answered (its progress bar, API.md §11.1): the questions shown and answered. */
export const answeredOf = (answered: number, shown: number): string =>
  `${answered} of ${shown} questions answered`;
