import { olderThan, type Position } from '../../platform/cursor.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { decodeJson, encodeJson } from '../../platform/db/dialect.js';
import type { Schema } from '../../platform/db/schema.js';
import type { FormDefinition, FormStatus } from './schemas.js';

export interface StoredForm {
  id: string;
  userId: string;
  environment: string;
  title: string;
  status: FormStatus;
  version: number;
  definition: FormDefinition;
  createdAt: string;
  updatedAt: string;
}

type FormRow = Schema['forms'];

const fromRow = (row: FormRow): StoredForm => ({
  id: row.id,
  userId: row.user_id,
  environment: row.environment,
  title: row.title,
  status: row.status as FormStatus,
  version: Number(row.version),
  definition: decodeJson<FormDefinition>(row.definition),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRow = (form: StoredForm): FormRow => ({
  id: form.id,
  user_id: form.userId,
  environment: form.environment,
  title: form.title,
  status: form.status,
  version: form.version,
  definition: encodeJson(form.definition),
  created_at: form.createdAt,
  updated_at: form.updatedAt,
});

export async function insertForm(trx: Trx, form: StoredForm): Promise<void> {
  await trx.insertInto('forms').values(toRow(form)).execute();
}

export async function findForm(db: Db | Trx, id: string): Promise<StoredForm | undefined> {
  const row = await db.selectFrom('forms').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

export interface ListQuery {
  environment: string;
  statuses: readonly FormStatus[];
  limit: number;
  after: Position | undefined;
  /** The owner whose forms to list; undefined lists every user's (the public list). */
  userId: string | undefined;
}

/** One page, newest first, plus one row to tell whether another page follows. */
export async function listForms(db: Db, query: ListQuery): Promise<StoredForm[]> {
  // `in ()` is a syntax error in PostgreSQL: no status asked for is no rows.
  if (query.statuses.length === 0) return [];
  let select = db
    .selectFrom('forms')
    .selectAll()
    .where('environment', '=', query.environment)
    .where('status', 'in', [...query.statuses]);
  if (query.after) select = select.where(olderThan(query.after));
  if (query.userId !== undefined) select = select.where('user_id', '=', query.userId);
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return rows.map(fromRow);
}

/** Writes `next` only if the stored version is still `expectedVersion`. */
export async function updateForm(trx: Trx, next: StoredForm, expectedVersion: number): Promise<boolean> {
  const { id: _id, user_id: _user, environment: _env, created_at: _created, ...changes } = toRow(next);
  const result = await trx
    .updateTable('forms')
    .set(changes)
    .where('id', '=', next.id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteForm(trx: Trx, id: string): Promise<void> {
  await trx.deleteFrom('forms').where('id', '=', id).execute();
}
