import { type QueryCreator, sql } from 'kysely';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import type { SubmissionStatus } from './schemas.js';

/**
 * Each form's counters for the forms list (GET /responses/summary, issue 24): its listed
 * submissions, how many of them are unread and when the newest came, kept in `form_counts` by
 * every write that changes them, in that write's own transaction: the writer's batch, read and
 * unread, deleting one, retention. So the forms list reads one row per form however many
 * submissions there are. A test holds them equal to a full count after random operations.
 */

/** The statuses the inbox lists (a quarantined submission and a partial one are apart). */
export const LISTED: readonly SubmissionStatus[] = ['accepted', 'flagged'];

export const isListed = (status: SubmissionStatus) => LISTED.includes(status);

/**
 * A map's entries in the order of their keys: the order in which every transaction takes the rows
 * they name (forms, quota scopes), so two transactions never wait on each other's rows crosswise.
 */
export const inKeyOrder = <T>(byKey: ReadonlyMap<string, T>): Array<[string, T]> =>
  [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

interface Added {
  formId: string;
  status: SubmissionStatus;
  read: boolean;
  createdAt: string;
}

/**
 * Counts a batch's submissions: one upsert per form of the batch, forms in one order (no crosswise
 * waits): the stored ones it lists (listed, unread, last), and `accepted`, the submissions of a
 * form without `maxSubmissions` taken (stored or not: a form may keep no copy), which need no
 * count before the write (writer-counts.ts `countForms` counts the limited ones). One statement
 * per form for both: the batch's only write to the row.
 */
export async function countStored(
  trx: Trx,
  submissions: readonly Added[],
  accepted: ReadonlyMap<string, number> = new Map(),
): Promise<void> {
  for (const { formId, accepted: taken, listed, unread, last } of batchCounts(submissions, accepted)) {
    await executeCached(
      trx,
      'counters: count a batch',
      [formId, taken, listed, unread, last],
      countBatch(trx),
    );
  }
}

/** What a batch adds to each form's counters. */
export interface BatchCount {
  formId: string;
  accepted: number;
  listed: number;
  unread: number;
  last: string | null;
}

/** A batch's counts per form (see `countStored`), forms in key order. */
export function batchCounts(
  submissions: readonly Added[],
  accepted: ReadonlyMap<string, number> = new Map(),
): BatchCount[] {
  const byForm = new Map<string, BatchCount>();
  const countsOf = (formId: string) => {
    let counts = byForm.get(formId);
    if (!counts) {
      counts = { formId, accepted: 0, listed: 0, unread: 0, last: null };
      byForm.set(formId, counts);
    }
    return counts;
  };
  for (const [formId, count] of accepted) countsOf(formId).accepted += count;
  for (const submission of submissions) {
    if (!isListed(submission.status)) continue;
    const counts = countsOf(submission.formId);
    counts.listed += 1;
    if (!submission.read) counts.unread += 1;
    if (counts.last === null || submission.createdAt > counts.last) counts.last = submission.createdAt;
  }
  return inKeyOrder(byForm).map(([, counts]) => counts);
}

/**
 * Forms' counts of a batch added to their rows (`excluded` is the row the batch proposed). A
 * form with nothing listed proposes no last time (NULL): `x < NULL` is not true, so the form's
 * newest stays as it was. Rows in key order (`batchCounts`): each transaction takes them in one order.
 */
export const addCounts = (
  creator: QueryCreator<Schema>,
  counts: readonly BatchCount[],
  maxAccepted?: number,
) =>
  creator
    .insertInto('form_counts')
    .values(
      counts.map(({ formId, accepted, listed, unread, last }) => ({
        form_id: formId,
        accepted,
        listed,
        unread,
        last_at: last,
      })),
    )
    .onConflict((conflict) => {
      const update = conflict.column('form_id').doUpdateSet({
        accepted: sql<number>`form_counts.accepted + excluded.accepted`,
        listed: sql<number>`form_counts.listed + excluded.listed`,
        unread: sql<number>`form_counts.unread + excluded.unread`,
        last_at: sql<string>`case when form_counts.last_at is null or form_counts.last_at < excluded.last_at
          then excluded.last_at else form_counts.last_at end`,
      });
      // a form's `maxSubmissions`: the row is left as it was when the batch would pass it
      return maxAccepted === undefined
        ? update
        : update.where(sql<number>`form_counts.accepted + excluded.accepted`, '<=', maxAccepted);
    });

const countBatch =
  (trx: Trx) =>
  ([formId, accepted, listed, unread, last]: readonly unknown[]) =>
    addCounts(trx, [
      {
        formId: formId as string,
        accepted: accepted as number,
        listed: listed as number,
        unread: unread as number,
        last: last as string | null,
      },
    ]);

/** A listed submission turned read (-1) or unread (+1). */
export async function countUnread(trx: Trx, formId: string, status: SubmissionStatus, change: 1 | -1) {
  if (!isListed(status)) return;
  await trx
    .updateTable('form_counts')
    .set({ unread: sql<number>`unread + ${change}` })
    .where('form_id', '=', formId)
    .execute();
}

interface Removed {
  form_id: string;
  status: string;
  read: number;
}

/** Takes deleted submissions out of their forms' counters; the newest time is read again from the index. */
export async function uncountDeleted(trx: Trx, rows: readonly Removed[]): Promise<void> {
  const byForm = new Map<string, { listed: number; unread: number }>();
  for (const row of rows) {
    if (!isListed(row.status as SubmissionStatus)) continue;
    const counts = byForm.get(row.form_id) ?? { listed: 0, unread: 0 };
    counts.listed += 1;
    if (Number(row.read) === 0) counts.unread += 1;
    byForm.set(row.form_id, counts);
  }
  for (const [formId, { listed, unread }] of inKeyOrder(byForm)) {
    // the newest listed one: the inbox's index (form, time, id) read backwards to the first listed
    // row, usually the first (max() with the status filter would read the form's whole range)
    const newest = trx
      .selectFrom('submissions')
      .select('created_at')
      .where('form_id', '=', formId)
      .where('status', 'in', [...LISTED])
      .orderBy('created_at', 'desc')
      .limit(1);
    await trx
      .updateTable('form_counts')
      .set({
        listed: sql<number>`listed - ${listed}`,
        unread: sql<number>`unread - ${unread}`,
        last_at: newest,
      })
      .where('form_id', '=', formId)
      .execute();
  }
}

export interface FormSummary {
  formId: string;
  submissions: number;
  unread: number;
  lastSubmissionAt: string | null;
}

/** Every form of an environment with listed submissions: one row per form, whatever their number. */
export async function summaryOf(db: Db, workspaceId: string, environment: string): Promise<FormSummary[]> {
  const rows = await db
    .selectFrom('form_counts')
    .innerJoin('forms', 'forms.id', 'form_counts.form_id')
    .select(['form_counts.form_id', 'form_counts.listed', 'form_counts.unread', 'form_counts.last_at'])
    .where('forms.workspace_id', '=', workspaceId)
    .where('forms.environment', '=', environment)
    .where('form_counts.listed', '>', 0)
    .orderBy('form_counts.form_id')
    .execute();
  return rows.map((row) => ({
    formId: row.form_id,
    submissions: Number(row.listed),
    unread: Number(row.unread),
    lastSubmissionAt: row.last_at,
  }));
}
