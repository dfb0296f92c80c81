import type { Principal } from '../../platform/auth.js';
import type { Database } from '../../platform/db/database.js';
import { Problem } from '../../platform/problem.js';
import { Turns } from '../../platform/turns.js';
import { managedOrThrow } from './access.js';
import { findForm, type StoredForm } from './repo.js';

/**
 * A form's writes that check the version they read (PUT, the working copy's save and publish):
 * one at a time per form in this process (`Turns`), so its own concurrent requests never make
 * each other retry; another instance's write that lands between a read and the update is read
 * again and retried, a little later each time, up to `ATTEMPTS` times.
 */

const turnsOf = new WeakMap<Database['db'], Turns>();

/**
 * `work` in the form's turn (the database's one set of turns, shared by every route of the
 * process), handed `readManaged`: the form read afresh and judged for `manageForms`, as each
 * attempt needs. It is judged once before the turn too: a request refused waits behind no one
 * and holds no one up.
 */
export async function inManagedFormTurn<T>(
  database: Database,
  principal: Principal | null,
  formId: string,
  environment: string | undefined,
  work: (readManaged: () => Promise<StoredForm>) => Promise<T>,
): Promise<T> {
  const readManaged = async () =>
    managedOrThrow(principal, await findForm(database.db, formId), formId, 'manageForms', environment);
  await readManaged();
  let turns = turnsOf.get(database.db);
  if (!turns) {
    turns = new Turns();
    turnsOf.set(database.db, turns);
  }
  return turns.take(formId, () => work(readManaged));
}

/** Reads and writes a form may take when other instances keep changing it meanwhile. */
export const ATTEMPTS = 10;

/**
 * After a write lost to another request's: the 412 when the caller named the version it read
 * (`If-Match`) or past the last attempt; else a wait before the next read (random, growing: two
 * instances that collided do not collide again in step).
 */
export async function afterLostRace(attempt: number, ifMatch: string | undefined): Promise<void> {
  if (ifMatch !== undefined || attempt + 1 >= ATTEMPTS)
    throw new Problem(
      412,
      'version_conflict',
      'The form was changed by another request; read it again and retry',
    );
  await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 5 * 2 ** attempt)));
}
