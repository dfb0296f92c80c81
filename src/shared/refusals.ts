import type { FieldError } from './form.js';
import { ENGLISH_WORDS } from './i18n/english.js';
import type { Words } from './i18n/words.js';
import type { FieldMessage, MessageArgs } from './messages.js';

/**
 * A field's refusal in the validator's words (shared/messages.ts): `message` in English (the
 * API's), remembered so that `localized` can say it in a page's or a request's language
 * (API.md §13). The server's alone: the page script says its own with `say`.
 */

/** How each refusal made by `refusal` is said in another language: read by `localized`. */
const SAYERS = new WeakMap<FieldError, (words: Words) => string>();

const sayer =
  <M extends FieldMessage>(entry: M, args: MessageArgs<M>) =>
  (words: Words): string =>
    (entry.say as (w: Words, ...a: unknown[]) => string)(words, ...(args as unknown[]));

/** A message in English, as the API's `message` says it. */
export const inEnglish = <M extends FieldMessage>(entry: M, ...args: MessageArgs<M>): string =>
  sayer(entry, args)(ENGLISH_WORDS);

export function refusal<M extends FieldMessage>(
  field: string,
  entry: M,
  ...args: MessageArgs<M>
): FieldError {
  const say = sayer(entry, args);
  const error: FieldError = { field, code: entry.code, message: say(ENGLISH_WORDS) };
  SAYERS.set(error, say);
  return error;
}

/** A refusal's message in `words`' language: its own words when `refusal` made it, else its English `message`. */
export const localized = (error: FieldError, words: Words): string =>
  SAYERS.get(error)?.(words) ?? error.message;

/** Errors with their `localizedMessage` (the JSON API's, API.md §13). */
export const withLocalizedMessages = (errors: readonly FieldError[], words: Words): FieldError[] =>
  errors.map((error) => ({ ...error, localizedMessage: localized(error, words) }));
