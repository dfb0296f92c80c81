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
