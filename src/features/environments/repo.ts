import type { Principal } from '../../platform/auth.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { type Engine, keepRow, toCount } from '../../platform/db/dialect.js';
import { forbidden } from '../../platform/problem.js';
import { DEFAULT_ENVIRONMENTS, environmentNotFound } from './names.js';

export interface StoredEnvironment {
  name: string;
  createdAt: string;
}

export function listEnvironments(db: Db, workspaceId: string): Promise<StoredEnvironment[]> {
  return db
    .selectFrom('environments')
    .select(['name', 'created_at as createdAt'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('name')
    .execute();
}

export async function environmentExists(db: Db | Trx, workspaceId: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('environments')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the environment exists, holding it for the rest of the transaction: a form or
 * key about to be created in it cannot lose its environment to a concurrent delete.
 */
export async function holdEnvironment(
  trx: Trx,
  engine: Engine,
  workspaceId: string,
  name: string,
): Promise<boolean> {
  const query = trx
    .selectFrom('environments')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name);
  return (await keepRow(engine, query).executeTakeFirst()) !== undefined;
}

export async function insertEnvironment(trx: Db | Trx, workspaceId: string, name: string, createdAt: string) {
  await trx
    .insertInto('environments')
    .values({ workspace_id: workspaceId, name, created_at: createdAt })
    .execute();
}

export async function insertDefaultEnvironments(trx: Trx, workspaceId: string, createdAt: string) {
  await trx
    .insertInto('environments')
    .values(DEFAULT_ENVIRONMENTS.map((name) => ({ workspace_id: workspaceId, name, created_at: createdAt })))
    .execute();
}

/** What still lives in an environment: it can be deleted only when both are zero. */
export async function countEnvironmentContents(trx: Db | Trx, workspaceId: string, name: string) {
  const [forms, keys] = await Promise.all([
    trx
      .selectFrom('forms')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('environment', '=', name)
      .executeTakeFirstOrThrow(),
    trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('environment', '=', name)
      .executeTakeFirstOrThrow(),
  ]);
  return { forms: toCount(forms.n), keys: toCount(keys.n) };
}

export async function deleteEnvironment(trx: Trx, workspaceId: string, name: string): Promise<void> {
  await trx
    .deleteFrom('environments')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .execute();
}

/**
 * The caller may work in `environment`: an API key of that environment, or a session whose
 * user has it. Otherwise 403 (a key of another environment) or 404 `environment_not_found`.
 */
export async function assertReachesEnvironment(
  db: Db,
  principal: Principal,
  environment: string,
): Promise<void> {
  if (principal.kind !== 'session' && principal.environment !== environment) {
    throw forbidden(
      `This API key belongs to the environment "${principal.environment}", not "${environment}"`,
    );
  }
  if (principal.kind === 'session' && !(await environmentExists(db, principal.workspaceId, environment))) {
    throw environmentNotFound(environment);
  }
}
