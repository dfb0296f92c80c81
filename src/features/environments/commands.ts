import { actorOf, recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth.js';
import type { Database } from '../../platform/db/database.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/dialect.js';
import { conflict } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { environmentNotFound, isDefaultEnvironment } from './names.js';
import {
  countEnvironmentContents,
  deleteEnvironment,
  environmentExists,
  insertEnvironment,
  type StoredEnvironment,
} from './repo.js';

/** Creating and deleting a user's environments (API.md §3), for the routes and the pages. */

/** A new environment named `name` (already parsed); 409 when the user has one by that name. */
export async function createEnvironment(
  database: Database,
  by: Principal,
  name: string,
): Promise<StoredEnvironment> {
  const { workspaceId } = by;
  const createdAt = nowIso();
  try {
    await database.transaction(async (trx) => {
      await insertEnvironment(trx, workspaceId, name, createdAt);
      await recordAudit(trx, {
        workspaceId,
        actor: actorOf(by),
        action: 'environment.created',
        target: { type: 'environment', id: name },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(`The environment "${name}" already exists`);
    throw error;
  }
  return { name, createdAt };
}

/**
 * Deletes an environment: never a default one, and only when it holds no form and no key
 * (409 `environment_not_empty`, with the counts, says what is left to delete first).
 */
export async function deleteEnvironmentByName(
  database: Database,
  by: Principal,
  name: string,
): Promise<void> {
  const { workspaceId } = by;
  const remove = database.transaction(async (trx) => {
    if (!(await environmentExists(trx, workspaceId, name))) throw environmentNotFound(name);
    if (isDefaultEnvironment(name)) {
      throw conflict(`"${name}" is a default environment: development and production always exist`);
    }
    const contents = await countEnvironmentContents(trx, workspaceId, name);
    if (contents.forms > 0 || contents.keys > 0) throw notEmpty(name, contents);
    await deleteEnvironment(trx, workspaceId, name);
    await recordAudit(trx, {
      workspaceId,
      actor: actorOf(by),
      action: 'environment.deleted',
      target: { type: 'environment', id: name },
    });
  });
  await remove.catch(async (error: unknown) => {
    // a form or key was created in the environment while it was being deleted
    if (!isForeignKeyViolation(error)) throw error;
    throw notEmpty(name, await countEnvironmentContents(database.db, workspaceId, name));
  });
}

function notEmpty(name: string, contents: { forms: number; keys: number }) {
  return conflict(
    `The environment "${name}" still holds ${contents.forms} form(s) and ${contents.keys} API key(s): delete them first`,
    'environment_not_empty',
    { extensions: { forms: contents.forms, keys: contents.keys } },
  );
}
