import { olderThan, type Position } from '../../platform/cursor.js';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { decodeJson, encodeJson } from '../../platform/db/dialect.js';
import { insertRows } from '../../platform/db/insert.js';
import type { Schema } from '../../platform/db/schema.js';
import { uncountAccepted } from '../forms/repo.js';
import type { AddressBook } from './address-claims.js';
import { countUnread, uncountDeleted } from './counters.js';
import type { StoredAnswers } from './pii.js';
import type { SubmissionStatus } from './schemas.js';

export type { SubmissionStatus };

export interface StoredSubmission {
  id: string;
  workspaceId: string;
  environment: string;
  formId: string;
  formVersion: number;
  answers: StoredAnswers;
  sessionId: string | null;
  status: SubmissionStatus;
  read: boolean;
  starred: boolean;
  /** The language the form was shown in (API.md §13); null for submissions stored before it was kept. */
  language: string | null;
  createdAt: string;
}

export interface StoredNote {
  id: string;
  submissionId: string;
  text: string;
  createdAt: string;
  /** Null for a note written before authors were kept (migration 014): who wrote it is not known. */
  author: NoteAuthor | null;
}

/** Who wrote a note: a member, or the key (`keyId`) of the member who made it. */
export interface NoteAuthor {
  userId: string;
  email: string;
  keyId: string | null;
}

function noteAuthor(userId: string | null, email: string | null, keyId: string | null): NoteAuthor | null {
  return userId === null || email === null ? null : { userId, email, keyId };
}

type Row = Schema['submissions'];

/** Every column of `submissions`, named (what `submissionFromRow` reads). */
const SUBMISSION_COLUMNS = [
  'id',
  'workspace_id',
  'environment',
  'form_id',
  'form_version',
  'answers',
  'session_id',
  'status',
  'read',
  'starred',
  'language',
  'created_at',
] as const satisfies ReadonlyArray<keyof Row>;

/** A row of `submissions` as the code reads it. */
export const submissionFromRow = (row: Row): StoredSubmission => ({
  id: row.id,
  workspaceId: row.workspace_id,
  environment: row.environment,
  formId: row.form_id,
  formVersion: Number(row.form_version),
  answers: decodeJson<StoredAnswers>(row.answers),
  sessionId: row.session_id,
  status: row.status,
  read: Number(row.read) === 1,
  starred: Number(row.starred) === 1,
  language: row.language,
  createdAt: row.created_at,
});

/** A submission as its row of `submissions`. */
export const toSubmissionRow = (submission: StoredSubmission): Row => ({
  id: submission.id,
  workspace_id: submission.workspaceId,
  environment: submission.environment,
  form_id: submission.formId,
  form_version: submission.formVersion,
  answers: encodeJson(submission.answers),
  session_id: submission.sessionId,
  status: submission.status,
  read: submission.read ? 1 : 0,
  starred: submission.starred ? 1 : 0,
  language: submission.language,
  created_at: submission.createdAt,
});

/** Stores submissions with as few statements as possible. */
export const insertSubmissions = (trx: Trx, submissions: readonly StoredSubmission[]) =>
  insertRows(trx, 'submissions', submissions.map(toSubmissionRow));

/** A submission of this form (the form scopes it to its owner and environment). */
export async function findSubmission(
  db: Db | Trx,
  formId: string,
  id: string,
): Promise<StoredSubmission | undefined> {
  const row = await db
    .selectFrom('submissions')
    .selectAll()
    .where('form_id', '=', formId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && submissionFromRow(row);
}

/** A submission by id alone, for the routes that name no form (`/responses/{id}/star`…). */
export async function findSubmissionById(db: Db | Trx, id: string): Promise<StoredSubmission | undefined> {
  const row = await db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst();
  return row && submissionFromRow(row);
}

export interface SubmissionFilter {
  formId: string;
  /** Statuses to include (the default leaves quarantined out). */
  statuses: readonly SubmissionStatus[];
  from: string | undefined;
  to: string | undefined;
  starred: boolean | undefined;
  read: boolean | undefined;
}

/**
 * The submissions `filter` takes; with `after` (a keyset page's position), those older than it.
 * The range's upper bound is then the position's time when that is earlier: SQLite's planner
 * bounds the index scan by the plain comparisons on `created_at`, not by the row value of
 * `olderThan`, so with a date range every page was scanned from the range's end down to its
 * position, and reading a range through (the exports, GET /analytics/questions) grew with the
 * square of its rows: 58 s for a 30-day range of 1M submissions, 3 s with the bound (a page of
 * 2000 rows in 2 ms wherever it is).
 */
export function filtered(db: Db, filter: SubmissionFilter, after?: Position) {
  const { shape, values } = filterOf(filter, after);
  return filteredBy(db, shape, values).query;
}

/** Which of a filter's clauses are there: with the values, all its statement's text depends on. */
interface FilterShape {
  statuses: number;
  from: boolean;
  upTo: boolean;
  after: boolean;
  starred: boolean;
  read: boolean;
}

/** A filter as the clauses it has and the values they bind, in the order they are bound. */
function filterOf(filter: SubmissionFilter, after?: Position): { shape: FilterShape; values: unknown[] } {
  const upTo =
    after && (filter.to === undefined || after.createdAt < filter.to) ? after.createdAt : filter.to;
  const values: unknown[] = [filter.formId, ...filter.statuses];
  if (filter.from !== undefined) values.push(filter.from);
  if (upTo !== undefined) values.push(upTo);
  if (after) values.push(after.createdAt, after.id);
  if (filter.starred !== undefined) values.push(filter.starred ? 1 : 0);
  if (filter.read !== undefined) values.push(filter.read ? 1 : 0);
  const shape = {
    statuses: filter.statuses.length,
    from: filter.from !== undefined,
    upTo: upTo !== undefined,
    after: after !== undefined,
    starred: filter.starred !== undefined,
    read: filter.read !== undefined,
  };
  return { shape, values };
}

/**
 * The query of a filter's shape, each clause binding the next of `values` (real ones, or the
 * probes of executeCached): the one place the filter's clauses are written. With the position
 * of the next value not bound, for what the caller adds.
 */
function filteredBy(db: Db, shape: FilterShape, values: readonly unknown[]) {
  let at = 0;
  // the values' types are the filter's (filterOf); probes are strings, bound all the same
  const next = () => values[at++] as string;
  let query = db
    .selectFrom('submissions')
    .where('form_id', '=', next())
    .where(
      'status',
      'in',
      Array.from({ length: shape.statuses }, () => next() as SubmissionStatus),
    );
  if (shape.from) query = query.where('created_at', '>=', next());
  if (shape.upTo) query = query.where('created_at', '<=', next());
  if (shape.after) query = query.where(olderThan({ createdAt: next(), id: next() }));
  if (shape.starred) query = query.where('starred', '=', next() as unknown as number);
  if (shape.read) query = query.where('read', '=', next() as unknown as number);
  return { query, next };
}

/**
 * One page, newest first (keyset on created_at, id: no OFFSET, no COUNT), plus one row to
 * tell whether more follow, with the notes of its submissions, in one query: the page is a
 * subquery the notes are LEFT JOINed onto, so an inbox page costs one round trip.
 */
export async function listSubmissionsWithNotes(
  db: Db,
  filter: SubmissionFilter,
  page: { limit: number; after: Position | undefined },
): Promise<{ submissions: StoredSubmission[]; notes: StoredNote[] }> {
  if (filter.statuses.length === 0) return { submissions: [], notes: [] };
  const { shape, values } = filterOf(filter, page.after);
  values.push(page.limit + 1);
  // Built by Kysely once per filter shape (executeCached): building it cost about a tenth of the
  // request's CPU and garbage, for a text that only the filter's shape changes. On PostgreSQL,
  // prepared by name once it runs often.
  const { rows } = await executeCached(db, `submissions page: ${JSON.stringify(shape)}`, values, (bound) => {
    const { query: inner, next } = filteredBy(db, shape, bound);
    // its columns named, not `*`: a text that may be prepared by name must not change its result
    // when a migration adds a column (statement-names.ts)
    return db
      .selectFrom(
        inner
          .select(SUBMISSION_COLUMNS)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(next() as unknown as number)
          .as('s'),
      )
      .leftJoin('submission_notes as n', 'n.submission_id', 's.id')
      .selectAll('s')
      .select([
        'n.id as note_id',
        'n.text as note_text',
        'n.created_at as note_created_at',
        'n.user_id as note_user_id',
        'n.author_email as note_author_email',
        'n.key_id as note_key_id',
      ])
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc');
  });
  const submissions: StoredSubmission[] = [];
  const notes: StoredNote[] = [];
  for (const row of rows) {
    if (submissions.at(-1)?.id !== row.id) submissions.push(submissionFromRow(row));
    if (row.note_id !== null && row.note_text !== null && row.note_created_at !== null) {
      notes.push({
        id: row.note_id,
        submissionId: row.id,
        text: row.note_text,
        createdAt: row.note_created_at,
        author: noteAuthor(row.note_user_id, row.note_author_email, row.note_key_id),
      });
    }
  }
  // Oldest note first, sorted here: ordered by the statement, SQLite sorted every page's rows
  // again in a temporary B-tree (a page of 50 at 1M: 135 µs against 104 without, measured in
  // better-sqlite3). A submission's rows stay together either way: the page is ordered by id.
  notes.sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1,
  );
  return { submissions, notes };
}

export async function notesOf(db: Db | Trx, submissionIds: readonly string[]): Promise<StoredNote[]> {
  if (submissionIds.length === 0) return [];
  const rows = await db
    .selectFrom('submission_notes')
    .select(['id', 'submission_id', 'text', 'created_at', 'user_id', 'author_email', 'key_id'])
    .where('submission_id', 'in', [...submissionIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    submissionId: row.submission_id,
    text: row.text,
    createdAt: row.created_at,
    author: noteAuthor(row.user_id, row.author_email, row.key_id),
  }));
}

/**
 * Sets one flag, and says whether that changed anything. The row is written only when the
 * flag differs: of concurrent requests setting the same flag one changes it and the others
 * find nothing to change (on PostgreSQL the second UPDATE waits for the first and then sees
 * its result), so a change is reported, heard by webhooks and counted (unread) once.
 */
export async function setFlag(
  trx: Trx,
  submission: Pick<StoredSubmission, 'id' | 'formId' | 'status'>,
  flag: 'read' | 'starred',
  value: boolean,
): Promise<boolean> {
  const result = await trx
    .updateTable('submissions')
    .set({ [flag]: value ? 1 : 0 })
    .where('id', '=', submission.id)
    .where(flag, '!=', value ? 1 : 0)
    .executeTakeFirst();
  const changed = Number(result.numUpdatedRows) > 0;
  if (changed && flag === 'read')
    await countUnread(trx, submission.formId, submission.status, value ? -1 : 1);
  return changed;
}

export async function insertNote(
  trx: Trx,
  note: Omit<StoredNote, 'author'> & { author: NoteAuthor },
): Promise<void> {
  await trx
    .insertInto('submission_notes')
    .values({
      id: note.id,
      submission_id: note.submissionId,
      user_id: note.author.userId,
      text: note.text,
      created_at: note.createdAt,
      author_email: note.author.email,
      key_id: note.author.keyId,
    })
    .execute();
}

/**
 * The owner deletes a submission: with it go its place in its form's count of accepted
 * submissions and its address under `oncePer: "email"` (API.md §15), so that the person may
 * answer again and the form, if it was full, takes one more; and its place in the form's
 * counters (counters.ts).
 */
export async function deleteSubmission(
  trx: Trx,
  addresses: AddressBook,
  submission: Pick<StoredSubmission, 'id' | 'formId' | 'status'>,
): Promise<void> {
  const deleted = await trx
    .deleteFrom('submissions')
    .where('id', '=', submission.id)
    .returning(['form_id', 'status', 'read'])
    .execute();
  if (deleted.length === 0) return;
  await addresses.release(trx, [{ formId: submission.formId, submissionId: submission.id }]);
  if (submission.status === 'accepted') await uncountAccepted(trx, submission.formId, 1);
  await uncountDeleted(trx, deleted);
}
