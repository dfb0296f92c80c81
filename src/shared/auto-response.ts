/**
 * What an automatic reply to the respondent may carry (docs/decisions.md, "Auto-responses"):
 * the server's mail (features/submissions/mail.ts) applies it, and the builder tells the owner
 * the same, from this one place.
 */
import type { FieldType } from './form.js';

/**
 * The field types whose answers may go into an auto-response's subject: an option the owner
 * wrote (`select`), yes or no, a number, a rating, a date. A respondent chooses among them but
 * words none of them. Any other answer (a name, a message, even the e-mail address, whose local
 * part is free text) in the subject would let anyone send anyone a subject of their own from
 * the owner's domain; those go into the body only, below the owner's own words.
 */
export const SUBJECT_FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  'select',
  'checkbox',
  'number',
  'rating',
  'date',
]);

/** Auto-responses to one mailbox in an hour, from every form together. */
export const AUTO_RESPONSES_PER_RECIPIENT_PER_HOUR = 3;
