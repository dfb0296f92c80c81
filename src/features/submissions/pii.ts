import type { Envelope } from '../../platform/crypto/envelope.js';
import { sha256Hex } from '../../platform/hashing.js';
import type { FileDescriptor, PiiMode } from '../../shared/form.js';
import { maskText } from '../../shared/mask.js';
import type { Field, FormDefinition } from '../forms/schemas.js';
import type { AnswerValue } from './validator.js';

/**
 * PII handling per field (API.md §6.1): the field's `piiMode`, else `storage.pii` for
 * fields marked `pii`, else plain. Each stored value carries its handling with it, so a
 * later change of the form's settings never unmasks or misreads what was stored before:
 *   plain      the value
 *   masked     {"$masked": value}      shown masked in every output
 *   hashed     "sha256:<hex>"          irreversible
 *   encrypted  {"$encrypted": "enc:v1:…"}  AES-256-GCM envelope, shown decrypted to the owner
 *   dropped    {"$dropped": true}      nothing of the value: shown nowhere, counted as answered
 *              (API.md §8: dropped fields "count as answered but show no values")
 */

export type StoredValue =
  | AnswerValue
  | { $masked: AnswerValue }
  | { $encrypted: string }
  | { $dropped: true };
export type StoredAnswers = Record<string, StoredValue>;

export function piiModeOf(field: Field, definition: FormDefinition): PiiMode {
  if (field.piiMode) return field.piiMode;
  return field.pii ? definition.storage.pii : 'plain';
}

/** An answer as text: strings as they are, anything else as JSON. */
export const asText = (value: AnswerValue): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** The answers as they are stored (or forwarded): dropped ones marked, the others transformed. */
export async function protectAnswers(
  answers: Record<string, AnswerValue>,
  definition: FormDefinition,
  envelope: Envelope,
): Promise<StoredAnswers> {
  const stored: StoredAnswers = {};
  for (const field of definition.fields) {
    if (!Object.hasOwn(answers, field.id)) continue;
    const value = answers[field.id];
    if (value === undefined) continue;
    const mode = piiModeOf(field, definition);
    // a hashed file's descriptor holds its name's hash, size and checksum already (files/service.ts)
    if (field.type === 'file' && mode === 'hashed') {
      stored[field.id] = value;
      continue;
    }
    switch (mode) {
      case 'plain':
        stored[field.id] = value;
        break;
      case 'masked':
        stored[field.id] = { $masked: value };
        break;
      case 'hashed':
        stored[field.id] = `sha256:${sha256Hex(asText(value))}`;
        break;
      case 'encrypted':
        stored[field.id] = { $encrypted: await envelope.encrypt(JSON.stringify(value)) };
        break;
      case 'dropped':
        stored[field.id] = { $dropped: true };
        break;
    }
  }
  return stored;
}

/** True for a file field's answer: descriptors rather than values. */
export function isFileAnswer(value: unknown): value is FileDescriptor[] {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === 'object' && value[0] !== null;
}

/** A file answer masked (API.md §12: `masked` masks the name in every output): the rest is no one's secret. */
function maskFiles(files: readonly FileDescriptor[]): FileDescriptor[] {
  return files.map((file) => ({ ...file, name: maskValue(file.name) }));
}

/** A masked answer as the outputs show it: text masked, a file answer with its names masked. */
export function maskAnswer(value: AnswerValue): AnswerValue {
  return isFileAnswer(value) ? maskFiles(value) : maskValue(value);
}

/** `jane@example.com` → `j***@example.com`; anything else keeps its last two characters (files: their names, masked). */
export function mask(value: AnswerValue): string {
  if (isFileAnswer(value))
    return maskFiles(value)
      .map((file) => file.name)
      .join('; ');
  return maskValue(value);
}

function maskValue(value: Exclude<AnswerValue, FileDescriptor[]>): string {
  // A list is masked as it reads (`a; b`, as in CSV), not as JSON, whose `"]` would show.
  const text = Array.isArray(value) ? value.join('; ') : asText(value);
  return maskText(text, { address: typeof value === 'string' });
}

/** True when some stored value is encrypted (revealing it needs the key-management provider). */
export function hasEncrypted(stored: StoredAnswers): boolean {
  for (const id in stored) {
    const value = stored[id];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && '$encrypted' in value)
      return true;
  }
  return false;
}

/**
 * `revealAnswersInPlace` on a copy, made only when an answer is masked or dropped: most stored
 * answers are shown as they are (a page of the inbox copied every submission's before).
 */
export function revealAnswersCopied(stored: StoredAnswers): Record<string, AnswerValue> {
  for (const id in stored) {
    const value = stored[id];
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return revealAnswersInPlace({ ...stored });
  }
  return stored as Record<string, AnswerValue>;
}

/** `revealAnswers` for answers with nothing encrypted, without a promise (the CSV export's hot loop). */
export function revealAnswersInPlace(stored: StoredAnswers): Record<string, AnswerValue> {
  const shown = stored as Record<string, AnswerValue | { $masked: AnswerValue } | { $dropped: true }>;
  for (const id in shown) {
    const value = shown[id];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      if ('$dropped' in value) delete shown[id];
      else shown[id] = maskAnswer(value.$masked);
    }
  }
  return shown as Record<string, AnswerValue>;
}

/** What the owner sees of stored answers: masked values masked, encrypted ones decrypted. */
export async function revealAnswers(
  stored: StoredAnswers,
  envelope: Envelope,
): Promise<Record<string, AnswerValue>> {
  const shown: Record<string, AnswerValue> = {};
  for (const [id, value] of Object.entries(stored)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      if ('$dropped' in value) continue;
      if ('$masked' in value) shown[id] = maskAnswer(value.$masked);
      else shown[id] = JSON.parse(await envelope.decrypt(value.$encrypted)) as AnswerValue;
    } else {
      shown[id] = value;
    }
  }
  return shown;
}

/**
 * What the owner sees of answers just protected, without decrypting: the encrypted ones are
 * shown from the plain answers they were made from (the same result as `revealAnswers`).
 */
export function ownerAnswers(
  stored: StoredAnswers,
  plain: Record<string, AnswerValue>,
): Record<string, AnswerValue> {
  const shown: Record<string, AnswerValue> = {};
  for (const [id, value] of Object.entries(stored)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      // dropped: nothing shown, the plain answer it was made from least of all
      if ('$dropped' in value) continue;
      if ('$masked' in value) shown[id] = maskAnswer(value.$masked);
      else if (plain[id] !== undefined) shown[id] = plain[id];
    } else {
      shown[id] = value;
    }
  }
  return shown;
}
