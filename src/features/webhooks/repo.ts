import { olderThan, type Position } from '../../platform/cursor.js';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';

export type WebhookRow = Schema['webhooks'];

/** The webhooks of these forms, oldest first, in one query (lists never ask per form). */
export async function listWebhooksOfForms(db: Db | Trx, formIds: readonly string[]): Promise<WebhookRow[]> {
  if (formIds.length === 0) return [];
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('form_id', 'in', [...formIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Makes `rows` the form's whole set of webhooks: the others are deleted, these upserted. */
export async function replaceFormWebhooks(trx: Trx, formId: string, rows: WebhookRow[]): Promise<void> {
  let remove = trx.deleteFrom('webhooks').where('form_id', '=', formId);
  if (rows.length > 0)
    remove = remove.where(
      'id',
      'not in',
      rows.map((row) => row.id),
    );
  await remove.execute();
  for (const row of rows) {
    const {
      id: _id,
      user_id: _user,
      environment: _env,
      form_id: _form,
      created_at: _created,
      ...changes
    } = row;
    const updated = await trx
      .updateTable('webhooks')
      .set(changes)
      .where('id', '=', row.id)
      .where('form_id', '=', formId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await trx.insertInto('webhooks').values(row).execute();
  }
}

// --- the /webhooks resource (routes.ts) ---------------------------------------------

export async function findWebhook(db: Db | Trx, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface WebhookListQuery {
  userId: string;
  /** One form's webhooks, or every webhook of the user in `environment`. */
  scope: { formId: string } | { environment: string };
  limit: number;
  after: Position | undefined;
}

/** One page, newest first, plus one row to tell whether another page follows. */
export async function listWebhooks(db: Db, query: WebhookListQuery): Promise<WebhookRow[]> {
  let select = db.selectFrom('webhooks').selectAll().where('user_id', '=', query.userId);
  select =
    'formId' in query.scope
      ? select.where('form_id', '=', query.scope.formId)
      : select.where('environment', '=', query.scope.environment);
  if (query.after) select = select.where(olderThan(query.after));
  return select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
}

export async function countFormWebhooks(db: Db | Trx, formId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('form_id', '=', formId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertWebhook(trx: Trx, row: WebhookRow): Promise<void> {
  await trx.insertInto('webhooks').values(row).execute();
}

export type WebhookChanges = Partial<
  Pick<WebhookRow, 'event' | 'url' | 'secret_ciphertext' | 'format' | 'enabled'>
>;

/** False when the webhook is gone (deleted, or its form deleted, meanwhile). */
export async function updateWebhook(trx: Trx, id: string, changes: WebhookChanges): Promise<boolean> {
  if (Object.keys(changes).length === 0) return (await findWebhook(trx, id)) !== undefined;
  const result = await trx.updateTable('webhooks').set(changes).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteWebhook(trx: Trx, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
