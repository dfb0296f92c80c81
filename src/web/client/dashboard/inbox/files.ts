import type { FileDescriptor } from '../../../../shared/form.js';
import { sizeInWords } from '../../../../shared/messages.js';

/**
 * A file field's answer as the inbox shows it (API.md §12; pure, unit-tested): a list of stored
 * files, each with its name, its type (read from its bytes), its size and checksum, and its id.
 * A file kept as a checksum only (`piiMode: hashed`) has no id and no bytes: its name is the
 * name's hash ("sha256:…"), so it is said to be a checksum, never offered for download.
 */

/** A file as an answer may hold it: the id is absent when only a checksum was kept. */
export type StoredFile = Omit<FileDescriptor, 'id'> & { id?: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a value is one stored file: a name, a size and a checksum (its other members may be absent). */
export function isStoredFile(value: unknown): value is StoredFile {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    typeof value.size === 'number' &&
    typeof value.sha256 === 'string'
  );
}

/**
 * A file field's answer, or undefined when the value is not one. Known by its shape as well as
 * by its field's type: an answer to a file field since removed from the form is still files.
 */
export function filesOf(value: unknown): StoredFile[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every(isStoredFile) ? value : undefined;
}

/** Only the checksum was kept (hashed): no bytes to download, and the name is its hash. */
export const checksumOnly = (file: StoredFile): boolean => !file.id;

/** A file answer in a few words, as a list row shows it: "1 file", "3 files", "No files". */
export function filesSummary(files: readonly StoredFile[]): string {
  if (files.length === 0) return 'No files';
  return `${files.length} ${files.length === 1 ? 'file' : 'files'}`;
}

/** What a file's line says after its name: its type (when known) and its size in words. */
export function fileFacts(file: StoredFile): string {
  const type = file.type && file.type !== 'application/octet-stream' ? file.type : 'unknown type';
  return `${type}, ${sizeInWords(file.size)}`;
}

/**
 * The owner's download of a file (API.md §12): same origin, so the session cookie goes with it,
 * answered as an attachment. Inside the dashboard it is better than the signed link (`url`),
 * which anyone holding it may use until it expires.
 */
export const downloadHref = (submissionId: string, fileId: string): string =>
  `/responses/${encodeURIComponent(submissionId)}/files/${encodeURIComponent(fileId)}`;

/**
 * Image types a browser draws in <img> without running anything of theirs. SVG is left out (it
 * is a document, and a thumbnail of one is not worth the thought); a large image too, as the
 * thumbnail would download it whole.
 */
const THUMBNAIL_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
]);
export const THUMBNAIL_MAX_BYTES = 5 * 1024 * 1024;

export const hasThumbnail = (file: StoredFile): boolean =>
  !checksumOnly(file) && THUMBNAIL_TYPES.has(file.type.toLowerCase()) && file.size <= THUMBNAIL_MAX_BYTES;

/** What stands in a thumbnail's place: the name's extension in capitals ("PDF"), else "FILE"; "SHA" for a checksum only. */
export function fileBadge(file: StoredFile): string {
  if (checksumOnly(file)) return 'SHA';
  const extension = /\.([A-Za-z0-9]{1,4})$/.exec(file.name)?.[1];
  return extension ? extension.toUpperCase() : 'FILE';
}
