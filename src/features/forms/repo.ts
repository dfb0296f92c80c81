import { sql } from 'kysely';
import { olderThan, type Position } from '../../platform/cursor.js';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { decodeJson, type Engine, encodeJson, lockRow } from '../../platform/db/dialect.js';
import type { Schema } from '../../platform/db/schema.js';
import type { FormLookup } from '../webhooks/access.js';
import type { FormDefinition, FormStatus } from './schemas.js';

export interface StoredForm {
  id: string;
  /** The workspace that owns it (API.md §14). */
  workspaceId: string;
  /** Who made it. */
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
  workspaceId: row.workspace_id,
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
  workspace_id: form.workspaceId,
  user_id: form.userId,
  environment: form.environment,
  title: form.title,
  status: form.status,
  version: form.version,
  definition: encodeJson(form.definition),
  created_at: form.createdAt,
  updated_at: form.updatedAt,
});

/**
 * Inserts the form. An id its owner chose may have been a deleted form's: claims of `oncePer:
 * "email"` that form left (the race `deleteForm` tells of, not swept yet) are not the new form's.
 */
export async function insertForm(trx: Trx, form: StoredForm): Promise<void> {
  await trx.insertInto('forms').values(toRow(form)).execute();
  await deleteClaimsOf(trx, form.id);
}

/** The `oncePer: "email"` claims kept under a form's id, in both tables (no foreign key cascades them: migration 022). */
async function deleteClaimsOf(trx: Trx, formId: string): Promise<void> {
  await trx.deleteFrom('response_addresses').where('form_id', '=', formId).execute();
  await trx.deleteFrom('response_address_log').where('form_id', '=', formId).execute();
}

export async function findForm(db: Db | Trx, id: string): Promise<StoredForm | undefined> {
  const row = await db.selectFrom('forms').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

/**
 * Forms as the submit path reads them: from memory when read less than a second ago, so
 * a submission costs no SELECT and no JSON.parse of the definition. A change made by this
 * process is seen at once (`updateForm` and `deleteForm` forget the form, and loads that
 * overlap the change's transaction are not kept); one made by another instance on the same
 * PostgreSQL database within a second. The objects are shared: callers must not mutate them.
 */
const FORM_TTL_MS = 1000;
const FORM_CACHE_SIZE = 10_000;
/** A load that started this long after a change may still have read the row before the change committed. */
const CHANGE_WINDOW_MS = 5000;
const cachedForms = new Map<string, { form: StoredForm; until: number }>();
const changedAt = new Map<string, number>();

export async function findFormCached(db: Db, id: string): Promise<StoredForm | undefined> {
  const now = Date.now();
  const hit = cachedForms.get(id);
  if (hit && hit.until > now) return hit.form;
  const form = await findForm(db, id);
  const changed = changedAt.get(id);
  if (changed !== undefined && now - changed > CHANGE_WINDOW_MS) changedAt.delete(id);
  if (form && (changed === undefined || now - changed > CHANGE_WINDOW_MS)) {
    cachedForms.delete(id);
    cachedForms.set(id, { form, until: now + FORM_TTL_MS });
    // Map order is insertion order: the first key is the one cached longest ago.
    if (cachedForms.size > FORM_CACHE_SIZE) cachedForms.delete(cachedForms.keys().next().value as string);
  } else {
    cachedForms.delete(id);
  }
  return form;
}

/**
 * The form as `findFormCached` holds it now, without reading the database: undefined when it is
 * not held or its second is over (the caller then takes the path that reads it).
 */
export function cachedFormNow(id: string): StoredForm | undefined {
  const hit = cachedForms.get(id);
  return hit && hit.until > Date.now() ? hit.form : undefined;
}

function forgetForm(id: string): void {
  const now = Date.now();
  cachedForms.delete(id);
  // Re-inserted, so the map stays in order of change: the expired marks are all at its front.
  changedAt.delete(id);
  changedAt.set(id, now);
  for (const [formId, at] of changedAt) {
    if (now - at <= CHANGE_WINDOW_MS) break;
    changedAt.delete(formId);
  }
}

export interface ListQuery {
  environment: string;
  statuses: readonly FormStatus[];
  limit: number;
  after: Position | undefined;
  /** The workspace whose forms to list; undefined lists every workspace's (the public list). */
  workspaceId: string | undefined;
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
  if (query.workspaceId !== undefined) select = select.where('workspace_id', '=', query.workspaceId);
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return rows.map(fromRow);
}

/** Writes `next` only if the stored version is still `expectedVersion`. */
export async function updateForm(trx: Trx, next: StoredForm, expectedVersion: number): Promise<boolean> {
  forgetForm(next.id);
  const {
    id: _id,
    workspace_id: _workspace,
    user_id: _user,
    environment: _env,
    created_at: _created,
    ...changes
  } = toRow(next);
  const result = await trx
    .updateTable('forms')
    .set(changes)
    .where('id', '=', next.id)
    .where('version', '=', expectedVersion)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes the form; what refers to it goes with it (foreign keys), but for the claims of
 * `oncePer: "email"`, which have no key to the form (migration 022): deleted here, after the
 * form. On PostgreSQL a batch claiming for the form writes its submission or its count in the same
 * statement, whose keys to the form wait for this delete or make it wait: under READ COMMITTED the
 * claims' delete, a statement later, sees the claims of a batch committed meanwhile. (A flagged
 * submission to a form that keeps none writes neither: the retention job sweeps what that race
 * leaves, features/submissions/retention.ts.)
 */
export async function deleteForm(trx: Trx, id: string): Promise<void> {
  forgetForm(id);
  await trx.deleteFrom('forms').where('id', '=', id).execute();
  await deleteClaimsOf(trx, id);
}

/** Accepted submissions of a form so far (API.md §15 `maxSubmissions`): 0 before the first. */
export async function acceptedCount(db: Db | Trx, formId: string): Promise<number> {
  const row = await db
    .selectFrom('form_counts')
    .select('accepted')
    .where('form_id', '=', formId)
    .executeTakeFirst();
  return row ? Number(row.accepted) : 0;
}

/** The same for several forms at once (a page of public views); a form never counted is left out. */
export async function acceptedCounts(db: Db, formIds: readonly string[]): Promise<Map<string, number>> {
  if (formIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('form_counts')
    .select(['form_id', 'accepted'])
    .where('form_id', 'in', [...formIds])
    .execute();
  return new Map(rows.map((row) => [row.form_id, Number(row.accepted)]));
}

/**
 * Counts `count` more accepted submissions of a form in their own transaction, all or nothing:
 * false, with nothing counted, when that would pass `max`. One conditional upsert: on PostgreSQL
 * the row's lock makes a concurrent transaction (of this instance or another) wait and judge the
 * count it leaves; SQLite has one writer.
 */
export async function countAccepted(
  trx: Trx,
  formId: string,
  count: number,
  max: number | undefined,
): Promise<boolean> {
  if (max !== undefined && count > max) return false;
  // once per batch and limited form (per submission when a batch overflows): built by Kysely once per shape
  const build = ([form, add, listed, unread, last, limit]: readonly unknown[]) =>
    trx
      .insertInto('form_counts')
      .values({
        form_id: form as string,
        accepted: add as number,
        listed: listed as number,
        unread: unread as number,
        last_at: last as null,
      })
      .onConflict((conflict) => {
        const update = conflict
          .column('form_id')
          .doUpdateSet({ accepted: sql<number>`form_counts.accepted + excluded.accepted` });
        return limit === undefined
          ? update
          : update.where(sql<number>`form_counts.accepted + excluded.accepted`, '<=', limit as number);
      })
      .returning('accepted');
  const values = max === undefined ? [formId, count, 0, 0, null] : [formId, count, 0, 0, null, max];
  const { rows } = await executeCached(
    trx,
    `forms: count accepted ${max === undefined ? 'without a limit' : 'within a limit'}`,
    values,
    build,
  );
  return rows.length > 0;
}

/** Gives back counted submissions: refused after they were counted, or deleted by the owner. */
export async function uncountAccepted(trx: Trx, formId: string, count: number): Promise<void> {
  await trx
    .updateTable('form_counts')
    .set({ accepted: sql<number>`accepted - ${count}` })
    .where('form_id', '=', formId)
    .where('accepted', '>=', count)
    .execute();
}

/** What the webhooks feature (below forms) is told of forms: handed to it at registration. */
export function formLookup(engine: Engine): FormLookup {
  return {
    find: (db, id) => findForm(db, id),
    lock: async (trx, id) =>
      (await lockRow(
        engine,
        trx.selectFrom('forms').select('id').where('id', '=', id),
      ).executeTakeFirst()) !== undefined,
  };
}
