import type { Trx } from '../../platform/db/database.js';
import { type Engine, lockRow } from '../../platform/db/dialect.js';
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

/** Deletes the partials whose submissions the batch stores, in its transaction: each id passes to its submission. */
export async function deletePartials(trx: Trx, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await trx
    .deleteFrom('submissions')
    .where('id', 'in', [...ids])
    .where('status', '=', 'partial')
    .execute();
}
