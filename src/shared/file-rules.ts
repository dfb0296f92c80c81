import { acceptInWords } from './file-kinds.js';
import type { FormField } from './form.js';
import type { Words } from './i18n/words.js';
import { FIELD_MESSAGES as M, sizeInWords } from './messages.js';

export { acceptInWords };

/**
 * A file field's rules (API.md §12) as the page and the server both read them: its limits with
 * their defaults, whether a file is of a type its `accept` takes, and the limits in words (under
 * the field's label, and in the refusal "… is not a file of an accepted type (PDF or images)").
 * The page's script checks a chosen file with `fileProblem` before it sends a byte; the server
 * judges again (by the bytes' signature as well), in the same words.
 *
 * Pure: it imports the form's types and the validator's words, nothing else.
 */

export const DEFAULT_MAX_FILES = 1;
/** 10 MiB. */
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

/**
 * The largest file a field takes on this instance: its own `maxFileSize`, else the default, never
 * more than `FILE_MAX_BYTES` (API.md §12), which a restart may have lowered since the form was saved.
 */
export const effectiveMaxFileSize = (
  field: { maxFileSize?: number | undefined },
  instanceMax: number,
): number => Math.min(field.maxFileSize ?? DEFAULT_MAX_FILE_SIZE, instanceMax);

export interface FileLimits {
  maxFiles: number;
  maxFileSize: number;
  /** Extensions (`.pdf`) and media types (`image/*`, `application/pdf`); empty: any file. */
  accept: readonly string[];
  /**
   * `accept` in words (`acceptInWords`): the page renders it, so that its script, which reads the
   * limits off the page, needs no table of media types.
   */
  acceptText: string;
}

/** What a file is judged by before its bytes are read: its name, its size, the type the browser claims. */
export interface FileFacts {
  name: string;
  size: number;
  /** A media type, or '' when the browser does not know one (as `File.type`). */
  type: string;
}

export function limitsOf(
  field: Pick<FormField, 'maxFiles' | 'maxFileSize' | 'accept'>,
  words: Words,
): FileLimits {
  const accept = field.accept ?? [];
  return {
    maxFiles: field.maxFiles ?? DEFAULT_MAX_FILES,
    maxFileSize: field.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
    accept,
    acceptText: acceptInWords(accept, words),
  };
}

/**
 * Whether `accept` takes the file, by the rules of HTML's `accept` attribute: an extension
 * matches the end of the name, `type/*` any subtype of that type, a media type itself; letter
 * case never matters. No entries: any file.
 */
export function acceptsFile(accept: readonly string[], file: Pick<FileFacts, 'name' | 'type'>): boolean {
  if (accept.length === 0) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.some((entry) => {
    const wanted = entry.trim().toLowerCase();
    if (wanted.startsWith('.')) return name.endsWith(wanted);
    if (wanted.endsWith('/*')) return type.startsWith(wanted.slice(0, -1));
    return type !== '' && type === wanted;
  });
}

/** What a file field takes, under its label: "Up to 3 files, 10 MB each; PDF or images", "One file, up to 2 MB". */
export function limitsInWords(limits: FileLimits, words: Words): string {
  const size = sizeInWords(limits.maxFileSize, words.lang);
  const count =
    limits.maxFiles === 1
      ? words.say('oneFile', { size })
      : words.say('severalFiles', { count: limits.maxFiles, size });
  return limits.acceptText ? words.say('filesAccepted', { limits: count, types: limits.acceptText }) : count;
}

/**
 * Why one chosen file is refused, in the validator's words (shared/messages.ts), or undefined:
 * empty, larger than the field takes, of a type outside `accept`; in that order, as the first
 * reason is the one a person mends first. How many files a field holds is `tooMany`'s to say.
 */
export function fileProblem(limits: FileLimits, file: FileFacts, words: Words): string | undefined {
  if (file.size === 0) return M.fileEmpty.say(words, file.name);
  if (file.size > limits.maxFileSize) return M.fileTooLarge.say(words, file.name, limits.maxFileSize);
  if (!acceptsFile(limits.accept, file)) return M.fileType.say(words, file.name, limits.acceptText);
  return undefined;
}

/** Too many files for the field (those it holds already and those chosen now), in the validator's words; else undefined. */
export const tooMany = (limits: FileLimits, count: number, words: Words): string | undefined =>
  count > limits.maxFiles ? M.tooManyFiles.say(words, limits.maxFiles) : undefined;
