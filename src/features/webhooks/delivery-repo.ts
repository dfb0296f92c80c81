import { sql } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';
import { appendToOutbox } from '../../platform/outbox.js';
import { nowIso } from '../../platform/time.js';
import { WEBHOOK_KIND, type WebhookDeliveryPayload } from './events.js';

/** Queries of `webhook_deliveries` and `webhook_delivery_attempts` (migration 004). */

export type DeliveryRow = Schema['webhook_deliveries'];
export type AttemptRow = Schema['webhook_delivery_attempts'];
export type DeliveryStatus = DeliveryRow['status'];

export async function findDelivery(db: Db | Trx, id: string): Promise<DeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The webhook as it is now, beside the delivery (absent when it has been deleted). */
export type DeliveryWithWebhook = DeliveryRow & {
  live_url: string | null;
  live_secret_ciphertext: string | null;
  live_enabled: number | null;
};

/** A delivery and its webhook's current url, secret and state, in one query (the sender's read). */
export async function findDeliveryToSend(db: Db, id: string): Promise<DeliveryWithWebhook | undefined> {
  return db
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

export interface ListedDelivery extends DeliveryRow {
  next_attempt_at: string | null;
  createdAt: string;
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
  return rows.map((row) => ({ ...row, createdAt: row.created_at }));
}

export async function attemptsOf(db: Db, deliveryIds: readonly string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('delivery_id', 'in', [...deliveryIds])
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}

/**
 * Sends a delivery again as a new delivery of the same event: same `webhook-id` and body
 * (receivers deduplicate on the id, as Standard Webhooks and Stripe intend), its own
 * attempts and status. Returns the new row.
 */
export async function queueRedelivery(trx: Trx, original: DeliveryRow): Promise<DeliveryRow> {
  const now = nowIso();
  const row: DeliveryRow = {
    ...original,
    id: newId('dlv'),
    status: 'pending',
    attempts: 0,
    outbox_id: newId('obx'),
    redelivery_of: original.id,
    created_at: now,
    updated_at: now,
  };
  await trx.insertInto('webhook_deliveries').values(row).execute();
  await appendToOutbox(
    trx,
    [
      {
        id: row.outbox_id,
        kind: WEBHOOK_KIND,
        payload: { deliveryId: row.id } satisfies WebhookDeliveryPayload,
      },
    ],
    now,
  );
  return row;
}
