import type { Selectable } from 'kysely';
import type { Trx } from '../../platform/db/database.js';
import { type Engine, lockRow } from '../../platform/db/dialect.js';
import type { Schema } from '../../platform/db/schema.js';
import { Problem } from '../../platform/problem.js';

/**
 * What the submission writer does to the partials (API.md §15 saved progress) its submissions
 * complete, in the batch's transaction: a table's worth of queries of their own, so that the
 * writer needs nothing else of saved progress (progress.ts).
 */

/** A completion of a partial that another completion got to first: the page says it was sent already. */
export const partialSentAlready = () =>
  new Problem(409, 'conflict', 'These answers were sent already; send them again to send a new response');

/**
 * The partials a submission batch completes (writer.ts), locked until its commit: a partial
 * completed meanwhile by another post (two devices, one link) has its id taken by an accepted
 * submission, and that completion is refused. The ids taken. (A partial gone otherwise, expired
 * or deleted by the owner, leaves its id free: the submission is stored under it all the same.)
 */
export async function lockPartials(trx: Trx, engine: Engine, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const read = (among: readonly string[]) =>
    trx
      .selectFrom('submissions')
      .select(['id', 'status'])
      .where('id', 'in', [...among]);
  const rows = await lockRow(engine, read(ids)).execute();
  // PostgreSQL: a partial this statement waited for, completed by the transaction that held it,
  // is skipped (its row deleted); its accepted successor is seen by the next statement alone
  const unseen = ids.filter((id) => !rows.some((row) => row.id === id));
  if (unseen.length > 0) rows.push(...(await read(unseen).execute()));
  return new Set(rows.filter((row) => row.status !== 'partial').map((row) => row.id));
}

/** What the owner did to a partial while it was in progress: kept by the submission that completes it. */
export interface KeptOfPartial {
  read: boolean;
  starred: boolean;
  notes: Selectable<Schema['submission_notes']>[];
}

/**
 * Deletes the partials whose submissions the batch stores, in its transaction: each id passes to
 * its submission. What the owner did to each meanwhile (read, starred, its notes, which go with
 * the row) is handed back for `restorePartialNotes`: the response is the same one, completed.
 */
export async function deletePartials(trx: Trx, ids: readonly string[]): Promise<Map<string, KeptOfPartial>> {
  const kept = new Map<string, KeptOfPartial>();
  if (ids.length === 0) return kept;
  const flags = await trx
    .selectFrom('submissions')
    .select(['id', 'read', 'starred'])
    .where('id', 'in', [...ids])
    .where('status', '=', 'partial')
    .execute();
  if (flags.length === 0) return kept;
  const notes = await trx
    .selectFrom('submission_notes')
    .selectAll()
    .where(
      'submission_id',
      'in',
      flags.map((row) => row.id),
    )
    .execute();
  for (const row of flags)
    kept.set(row.id, { read: Boolean(row.read), starred: Boolean(row.starred), notes: [] });
  for (const note of notes) kept.get(note.submission_id)?.notes.push(note);
  // their tokens outlive them: a post with one later is a completion already made (progress.ts)
  await trx
    .insertInto('completed_progress')
    .columns(['token_hash', 'form_id', 'submission_id', 'expires_at'])
    .expression((eb) =>
      eb
        .selectFrom('partial_progress')
        .select(['token_hash', 'form_id', 'submission_id', 'expires_at'])
        .where(
          'submission_id',
          'in',
          flags.map((row) => row.id),
        ),
    )
    .onConflict((conflict) => conflict.column('token_hash').doNothing())
    .execute();
  await trx
    .deleteFrom('submissions')
    .where('id', 'in', [...ids])
    .where('status', '=', 'partial')
    .execute();
  return kept;
}

/** The notes of completed partials, written again under their submissions (stored by now). */
export async function restorePartialNotes(trx: Trx, notes: KeptOfPartial['notes']): Promise<void> {
  if (notes.length > 0) await trx.insertInto('submission_notes').values(notes).execute();
}
