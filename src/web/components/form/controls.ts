import type { FieldOption } from '../../../shared/form.js';

/**
 * How a field becomes controls on the page: the value and the label of each option, the
 * element ids the error summary and the descriptions point at, and the answers a page keeps.
 * The form's shape itself is shared/form.ts.
 */

/** Answers as a page keeps them between posts: text, lists (multiple select), booleans, numbers. */
export type PageAnswers = Readonly<Record<string, unknown>>;

/**
 * A file received already for a file field (API.md §12): uploaded by the page's script, or kept
 * from an earlier post (a one-by-one page before, a classic page refused for another answer).
 * The page posts its `uploadId` again under the field's id, until the person removes it.
 */
export interface PageUpload {
  uploadId: string;
  name: string;
  size: number;
  type: string;
}

/** The files each file field holds already, by field id. */
export type PageUploads = Readonly<Record<string, readonly PageUpload[]>>;

export const optionValue = (option: FieldOption): string =>
  typeof option === 'string' ? option : option.value;
export const optionLabel = (option: FieldOption): string =>
  typeof option === 'string' ? option : option.label;

/**
 * The element id of a field's control (the error summary links to it). The texts tied to it are
 * `help-{id}`, `when-{id}`, `error-{id}`, `hint-{id}`, and a file field's `limits-{id}`,
 * `preview-{id}`, `uploads-{id}` and `status-{id}`: each kind has a prefix of its own, so no
 * field id makes one kind's id equal another's (field ids may contain `-`).
 */
export const controlId = (fieldId: string): string => `field-${fieldId}`;
