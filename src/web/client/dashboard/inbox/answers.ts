import { filesOf, filesSummary } from './files.js';
import type { InboxField } from './model.js';

/**
 * An answer as a person reads it (issue 25: "the data reads like a database"): a ticked box
 * "Yes", an unticked one "No"; a choice by its option's label, several joined with commas; a
 * date in the reader's words; a rating out of its scale; a number with its digits grouped; files
 * by their count (the detail lists them: file-list.tsx).
 * What the form no longer describes (a field since removed, a value since re-typed) is shown
 * as it was stored.
 */

const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 10 });
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` answer in the reader's words, read as a calendar day (no time zone shifts it). */
export function dateWords(value: string): string {
  if (!DATE.test(value)) return value;
  const day = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return value;
  return day.toLocaleDateString(undefined, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
}

function optionLabel(field: InboxField, value: string): string {
  for (const option of field.options ?? []) {
    if (typeof option === 'string' ? option === value : option.value === value)
      return typeof option === 'string' ? option : option.label;
  }
  return value;
}

export function answerWords(field: InboxField | undefined, value: unknown): string {
  const files = filesOf(value);
  if (files) return filesSummary(files);
  if (field?.type === 'file' && Array.isArray(value) && value.length === 0) return filesSummary([]);
  if (Array.isArray(value)) {
    const items = field?.type === 'select' ? value.map((item) => optionLabel(field, String(item))) : value;
    return items
      .map((item) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : item))
      .join(', ');
  }
  // anything else with members (a shape no field type makes): its JSON, never "[object Object]"
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  if (!field) return String(value);
  if (typeof value === 'boolean') return field.type === 'checkbox' ? (value ? 'Yes' : 'No') : String(value);
  if (typeof value === 'number') {
    if (field.type === 'rating') return `${numbers.format(value)} of ${numbers.format(field.max ?? 5)}`;
    return numbers.format(value);
  }
  if (typeof value !== 'string') return String(value);
  if (field.type === 'select') return optionLabel(field, value);
  if (field.type === 'date') return dateWords(value);
  return value;
}
