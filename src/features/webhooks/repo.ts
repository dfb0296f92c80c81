import { olderThan, type Position } from '../../platform/cursor.js';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import { lastAttemptFailed } from './health.js';

type WebhookRow = Schema['webhooks'];

/** A webhook as stored: its secret only as envelope ciphertext. */
export interface StoredWebhook {
  id: string;
  workspaceId: string;
  environment: string;
  formId: string;
  event: string;
  url: string;
  secretCiphertext: string | null;
  format: string;
  enabled: boolean;
  createdAt: string;
}

const fromRow = (row: WebhookRow): StoredWebhook => ({
  id: row.id,
  workspaceId: row.workspace_id,
  environment: row.environment,
  formId: row.form_id,
  event: row.event,
  url: row.url,
  secretCiphertext: row.secret_ciphertext,
  format: row.format,
  enabled: Number(row.enabled) === 1,
  createdAt: row.created_at,
});

const toRow = (webhook: StoredWebhook): WebhookRow => ({
  id: webhook.id,
  workspace_id: webhook.workspaceId,
  environment: webhook.environment,
  form_id: webhook.formId,
  event: webhook.event,
  url: webhook.url,
  secret_ciphertext: webhook.secretCiphertext,
  format: webhook.format,
  enabled: webhook.enabled ? 1 : 0,
  created_at: webhook.createdAt,
});

/** The webhooks of these forms, oldest first, in one query (lists never ask per form). */
export async function listWebhooksOfForms(
  db: Db | Trx,
  formIds: readonly string[],
): Promise<StoredWebhook[]> {
  if (formIds.length === 0) return [];
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('form_id', 'in', [...formIds])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(fromRow);
}

/**
 * The enabled webhooks of these forms subscribed to one of these events, oldest first (one query).
 * Asked by every batch of submissions, mostly of a form with no webhook: sorted here, not in SQL,
 * where the sort's temporary B-tree cost SQLite 15 µs even for no row (measured; the query is then 3).
 */
export async function subscribedWebhooks(
  trx: Trx,
  formIds: readonly string[],
  events: readonly string[],
): Promise<StoredWebhook[]> {
  // once per batch on the submit path: built by Kysely once per number of forms and events
  const build = (bound: readonly unknown[]) =>
    trx
      .selectFrom('webhooks')
      .selectAll()
      .where('form_id', 'in', bound.slice(0, formIds.length) as string[])
      .where('event', 'in', bound.slice(formIds.length, -1) as string[])
      .where('enabled', '=', bound.at(-1) as number);
  const { rows } = await executeCached(
    trx,
    `webhooks: subscribed of ${formIds.length} forms to ${events.length} events`,
    [...formIds, ...events, 1],
    build,
  );
  return rows.map(fromRow).sort(oldestFirst);
}

const oldestFirst = (a: StoredWebhook, b: StoredWebhook): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Makes `rows` the form's whole set of webhooks: the others are deleted, these upserted. */
export async function replaceFormWebhooks(
  trx: Trx,
  formId: string,
  webhooks: readonly StoredWebhook[],
): Promise<void> {
  let remove = trx.deleteFrom('webhooks').where('form_id', '=', formId);
  if (webhooks.length > 0)
    remove = remove.where(
      'id',
      'not in',
      webhooks.map((webhook) => webhook.id),
    );
  await remove.execute();
  for (const row of webhooks.map(toRow)) {
    const {
      id: _id,
      workspace_id: _user,
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

export async function findWebhook(db: Db | Trx, id: string): Promise<StoredWebhook | undefined> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

export interface WebhookListQuery {
  workspaceId: string;
  /** One form's webhooks, or every webhook of the user in `environment`. */
  scope: { formId: string } | { environment: string };
  limit: number;
  after: Position | undefined;
  /** Only the enabled webhooks whose last attempt failed (health.ts): what the forms list marks. */
  failingOnly?: boolean;
}

/** One page, newest first, plus one row to tell whether another page follows. */
export async function listWebhooks(db: Db, query: WebhookListQuery): Promise<StoredWebhook[]> {
  let select = db.selectFrom('webhooks as w').selectAll('w').where('w.workspace_id', '=', query.workspaceId);
  select =
    'formId' in query.scope
      ? select.where('w.form_id', '=', query.scope.formId)
      : select.where('w.environment', '=', query.scope.environment);
  if (query.after) select = select.where(olderThan(query.after));
  if (query.failingOnly) select = select.where('w.enabled', '=', 1).where(lastAttemptFailed);
  const rows = await select
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return rows.map(fromRow);
}

/** Every webhook of these workspaces in every environment, oldest first, at most `limit`. */
export async function listWebhooksOfWorkspaces(
  db: Db | Trx,
  workspaceIds: readonly string[],
  limit: number,
): Promise<StoredWebhook[]> {
  if (workspaceIds.length === 0) return [];
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', 'in', [...workspaceIds])
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(fromRow);
}

export async function countFormWebhooks(db: Db | Trx, formId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('form_id', '=', formId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertWebhook(trx: Trx, webhook: StoredWebhook): Promise<void> {
  await trx.insertInto('webhooks').values(toRow(webhook)).execute();
}

export type WebhookChanges = Partial<
  Pick<StoredWebhook, 'event' | 'url' | 'secretCiphertext' | 'format' | 'enabled'>
>;

/** False when the webhook is gone (deleted, or its form deleted, meanwhile). */
export async function updateWebhook(trx: Trx, id: string, changes: WebhookChanges): Promise<boolean> {
  const columns: Partial<WebhookRow> = {};
  if (changes.event !== undefined) columns.event = changes.event;
  if (changes.url !== undefined) columns.url = changes.url;
  if (changes.secretCiphertext !== undefined) columns.secret_ciphertext = changes.secretCiphertext;
  if (changes.format !== undefined) columns.format = changes.format;
  if (changes.enabled !== undefined) columns.enabled = changes.enabled ? 1 : 0;
  if (Object.keys(columns).length === 0) return (await findWebhook(trx, id)) !== undefined;
  const result = await trx.updateTable('webhooks').set(columns).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteWebhook(trx: Trx, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
