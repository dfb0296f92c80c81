import type { paths } from '../api/schema.js';

/** What the inbox knows of a form and its responses, and how it words them. */

export type Page = Exclude<
  paths['/responses']['get']['responses'][200]['content']['application/json'],
  string
>;
export type Submission = Page['data'][number];

/** A page of GET /responses: its JSON (the same path answers CSV when asked for `format=csv`, never here). */
export function pageOf(answer: Page | string): Page {
  if (typeof answer === 'string')
    throw new Error('GET /responses answered CSV where a page of JSON was asked for');
  return answer;
}
export type Status = '' | 'accepted' | 'flagged' | 'quarantined' | 'partial';
const STATUSES: readonly Status[] = ['', 'accepted', 'flagged', 'quarantined', 'partial'];
const READ: ReadonlyArray<Filter['read']> = ['', 'true', 'false'];

/** The filter's part a select chose (a select offers its options only: anything else is no filter). */
export const statusOf = (value: string): Status => STATUSES.find((status) => status === value) ?? '';
export const readOf = (value: string): Filter['read'] => READ.find((read) => read === value) ?? '';

export interface Filter {
  status: Status;
  starred: boolean;
  read: '' | 'true' | 'false';
  /** ISO dates (yyyy-mm-dd) or '' for no bound; `to` covers its whole day (API.md §6.2). */
  from: string;
  to: string;
}

export const NO_FILTER: Filter = { status: '', starred: false, read: '', from: '', to: '' };

export interface InboxField {
  id: string;
  label: string;
  type: string;
  pii?: boolean;
  piiMode?: string;
  /** A choice's options (their labels are what the inbox shows), a rating's top (`max`). */
  options?: Array<string | { value: string; label: string }>;
  max?: number;
}

export interface InboxForm {
  id: string;
  title: string;
  environment: string;
  fields: InboxField[];
  storage?: { pii?: string };
}

export { ago, when } from '../ui/format.js';

type Note = Submission['notes'][number];

/**
 * Who wrote a note, in words: their address, and that a key wrote it for them (the key acted,
 * its maker answers for it); notes from before Intake kept authors are "Unknown author".
 */
export function noteAuthor(note: Pick<Note, 'author'>): string {
  if (!note.author) return 'Unknown author';
  return note.author.keyId
    ? `${note.author.email} (through API key ${note.author.keyId})`
    : note.author.email;
}

/** Whether `a` comes before `b` in the inbox's order (newest first: createdAt, then id, descending). */
export const newerThan = (a: Submission, b: Submission): boolean =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/** The query of GET /responses for a filter (and a page after `cursor`). */
export function queryOf(form: Pick<InboxForm, 'id' | 'environment'>, filter: Filter, cursor?: string) {
  return {
    form_id: form.id,
    environment: form.environment,
    limit: 50,
    ...(cursor ? { cursor } : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.starred ? { starred: true } : {}),
    ...(filter.read ? { read: filter.read === 'true' } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
  };
}

/**
 * The address of the CSV download of exactly what the inbox lists (every page of it), made for
 * a person opening it in a spreadsheet (API.md §6.2): the questions' labels as headers, a
 * byte-order mark (Excel then reads "café" right), the notes in a column of their own.
 */
export function csvHref(form: InboxForm, filter: Filter): string {
  return exportHref(form, filter, 'csv');
}

/** The formats the inbox's Export offers, by the name a person knows them by. */
export const EXPORT_CHOICES = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel' },
  { format: 'ndjson', label: 'NDJSON' },
] as const;
export type ExportChoice = (typeof EXPORT_CHOICES)[number]['format'];

/**
 * The export of exactly what the filter lists: the spreadsheets headed by labels with the notes
 * (and the CSV with a byte-order mark, for Excel); NDJSON as the API lists responses.
 */
export function exportHref(form: InboxForm, filter: Filter, format: ExportChoice): string {
  const { limit: _limit, ...query } = queryOf(form, filter);
  const text = Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const options: Record<string, string> =
    format === 'csv'
      ? { headers: 'labels', bom: '1', notes: '1' }
      : format === 'xlsx'
        ? { headers: 'labels', notes: '1' }
        : {};
  return `/responses?${new URLSearchParams({ ...text, format, ...options })}`;
}

/**
 * Who a reply would go to, as the server picks it (reply-routes.ts): the first e-mail field,
 * in the form's order, with an answer it can send to. Hashed and dropped answers cannot be.
 */
export function recipientOf(form: InboxForm, submission: Submission): string | undefined {
  for (const field of form.fields) {
    if (field.type !== 'email') continue;
    const mode = field.piiMode ?? (field.pii ? (form.storage?.pii ?? 'plain') : 'plain');
    if (mode === 'hashed' || mode === 'dropped') continue;
    const answer = submission.answers[field.id];
    if (typeof answer === 'string' && answer.includes('@')) return answer;
  }
  return undefined;
}

/** A date range filter that makes sense: both bounds optional, `to` not before `from`. */
export const rangeProblem = (filter: Filter): string | undefined =>
  filter.from && filter.to && filter.to < filter.from ? '“To” is before “From”.' : undefined;
