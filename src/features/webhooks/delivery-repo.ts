import { sql } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';
import { appendToOutbox } from '../../platform/outbox.js';
import { nowIso } from '../../platform/time.js';
import { WEBHOOK_KIND, type WebhookDeliveryPayload } from './events.js';

/** Queries of `webhook_deliveries` and `webhook_delivery_attempts` (migration 004). */

type DeliveryRow = Schema['webhook_deliveries'];
type AttemptRow = Schema['webhook_delivery_attempts'];
export type DeliveryStatus = DeliveryRow['status'];

/** One event on its way to one webhook, with snapshots of the webhook taken when it was queued. */
export interface StoredDelivery {
  id: string;
  /** No foreign key: a delivery outlives its webhook (form.deleted), see migration 004. */
  webhookId: string;
  workspaceId: string;
  environment: string;
  formId: string;
  /** The event's id: the `webhook-id` header, the same on every attempt and redelivery. */
  eventId: string;
  event: string;
  url: string;
  format: string;
  secretCiphertext: string | null;
  /** The rendered JSON body, envelope-encrypted. */
  bodyCiphertext: string;
  status: DeliveryStatus;
  attempts: number;
  outboxId: string;
  redeliveryOf: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface StoredAttempt {
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
}

const fromRow = (row: DeliveryRow): StoredDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  workspaceId: row.workspace_id,
  environment: row.environment,
  formId: row.form_id,
  eventId: row.event_id,
  event: row.event,
  url: row.url,
  format: row.format,
  secretCiphertext: row.secret_ciphertext,
  bodyCiphertext: row.body_ciphertext,
  status: row.status,
  attempts: Number(row.attempts),
  outboxId: row.outbox_id,
  redeliveryOf: row.redelivery_of,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toRow = (delivery: StoredDelivery): DeliveryRow => ({
  id: delivery.id,
  webhook_id: delivery.webhookId,
  workspace_id: delivery.workspaceId,
  environment: delivery.environment,
  form_id: delivery.formId,
  event_id: delivery.eventId,
  event: delivery.event,
  url: delivery.url,
  format: delivery.format,
  secret_ciphertext: delivery.secretCiphertext,
  body_ciphertext: delivery.bodyCiphertext,
  status: delivery.status,
  attempts: delivery.attempts,
  outbox_id: delivery.outboxId,
  redelivery_of: delivery.redeliveryOf,
  created_at: delivery.createdAt,
  updated_at: delivery.updatedAt,
});

const attemptFromRow = (row: AttemptRow): StoredAttempt => ({
  deliveryId: row.delivery_id,
  attempt: Number(row.attempt),
  statusCode: row.status_code === null ? null : Number(row.status_code),
  error: row.error,
  durationMs: Number(row.duration_ms),
  attemptedAt: row.attempted_at,
});

export async function findDelivery(db: Db | Trx, id: string): Promise<StoredDelivery | undefined> {
  const row = await db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromRow(row);
}

/** The delivery, and its webhook as it is now (null when it has been deleted). */
export interface DeliveryToSend extends StoredDelivery {
  live: { url: string; secretCiphertext: string | null; enabled: boolean } | null;
}

/** A delivery and its webhook's current url, secret and state, in one query (the sender's read). */
export async function findDeliveryToSend(db: Db, id: string): Promise<DeliveryToSend | undefined> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .selectAll('d')
    .select([
      'w.url as live_url',
      'w.secret_ciphertext as live_secret_ciphertext',
      'w.enabled as live_enabled',
    ])
    .where('d.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { live_url, live_secret_ciphertext, live_enabled, ...delivery } = row;
  return {
    ...fromRow(delivery),
    live:
      live_url === null
        ? null
        : { url: live_url, secretCiphertext: live_secret_ciphertext, enabled: Number(live_enabled) === 1 },
  };
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
}

/**
 * Records one attempt and what it leaves the delivery in, in one transaction. The attempt
 * number is the delivery's own count (an attempt cut short by a crash, before this, is
 * not one the receiver can tell apart from a lost request: it is not counted).
 * A delivery that has succeeded stays succeeded, whatever a late repeat reports.
 */
export async function recordAttempt(
  trx: Trx,
  deliveryId: string,
  outcome: AttemptOutcome,
  status: DeliveryStatus,
): Promise<number> {
  const updated = await trx
    .updateTable('webhook_deliveries')
    .set({
      attempts: sql<number>`attempts + 1`,
      status: sql<DeliveryStatus>`case when status = 'succeeded' then status else ${status} end`,
      updated_at: outcome.attemptedAt,
    })
    .where('id', '=', deliveryId)
    .returning('attempts')
    .executeTakeFirst();
  if (!updated) return 0;
  const attempt = Number(updated.attempts);
  await trx
    .insertInto('webhook_delivery_attempts')
    .values({
      delivery_id: deliveryId,
      attempt,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: Math.round(outcome.durationMs),
      attempted_at: outcome.attemptedAt,
    })
    .execute();
  return attempt;
}

/** A receiver's 410 Gone: the webhook is switched off (API.md §7); re-enable it with PATCH. */
export async function disableWebhook(trx: Trx, webhookId: string): Promise<void> {
  await trx.updateTable('webhooks').set({ enabled: 0 }).where('id', '=', webhookId).execute();
}

export interface ListedDelivery extends StoredDelivery {
  /** When the next attempt is due, while one is. */
  nextAttemptAt: string | null;
}

/** A webhook's deliveries, newest first, `limit + 1` of them (for `toPage`), with the next attempt's time. */
export async function listDeliveries(
  db: Db,
  webhookId: string,
  page: { limit: number; after?: { createdAt: string; id: string } },
): Promise<ListedDelivery[]> {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('outbox as o', (join) => join.onRef('o.id', '=', 'd.outbox_id').on('o.status', '=', 'pending'))
    .selectAll('d')
    .select('o.next_attempt_at')
    .where('d.webhook_id', '=', webhookId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(page.limit + 1);
  if (page.after) {
    query = query.where(sql<boolean>`(d.created_at, d.id) < (${page.after.createdAt}, ${page.after.id})`);
  }
  const rows = await query.execute();
  return rows.map(({ next_attempt_at, ...row }) => ({ ...fromRow(row), nextAttemptAt: next_attempt_at }));
}

export async function attemptsOf(db: Db, deliveryIds: readonly string[]): Promise<StoredAttempt[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', [...deliveryIds])
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
  return rows.map(attemptFromRow);
}

/**
 * Sends a delivery again as a new delivery of the same event: same `webhook-id` and body
 * (receivers deduplicate on the id, as Standard Webhooks and Stripe intend), its own
 * attempts and status. Returns the new row.
 */
export async function queueRedelivery(trx: Trx, original: StoredDelivery): Promise<StoredDelivery> {
  const now = nowIso();
  const delivery: StoredDelivery = {
    ...original,
    id: newId('dlv'),
    status: 'pending',
    attempts: 0,
    outboxId: newId('obx'),
    redeliveryOf: original.id,
    createdAt: now,
    updatedAt: now,
  };
  await trx.insertInto('webhook_deliveries').values(toRow(delivery)).execute();
  await appendToOutbox(
    trx,
    [
      {
        id: delivery.outboxId,
        kind: WEBHOOK_KIND,
        payload: { deliveryId: delivery.id } satisfies WebhookDeliveryPayload,
      },
    ],
    now,
  );
  return delivery;
}
