import type { Envelope } from '../../platform/crypto/envelope.js';
import type { Trx } from '../../platform/db/database.js';
import { insertRows } from '../../platform/db/insert.js';
import { newId } from '../../platform/ids.js';
import { appendToOutbox } from '../../platform/outbox.js';
import { nowIso } from '../../platform/time.js';
import { renderPayload } from './payload.js';
import { type StoredWebhook, subscribedWebhooks } from './repo.js';
import type { WebhookEventName } from './schemas.js';

/**
 * The events webhooks subscribe to (API.md §7), and how a change queues them: in the
 * transaction of the change itself, as `webhook_deliveries` rows plus one outbox row each
 * (kind `webhook`), so a commit never loses an event and a rollback never sends one.
 */

export const WEBHOOK_KIND = 'webhook';

export interface WebhookDeliveryPayload {
  deliveryId: string;
}

export interface WebhookEvent {
  event: WebhookEventName;
  formId: string;
  workspaceId: string;
  environment: string;
  /** ISO 8601 with milliseconds: when the change happened. */
  occurredAt: string;
  /** As the owner sees it (what GET /responses/{id} or GET /forms/{id} shows): PII already applied. */
  data: Record<string, unknown>;
  submissionId?: string;
}

/**
 * In the caller's transaction: finds the enabled webhooks of these forms subscribed to each
 * event (one query for the whole list), renders and stores one delivery per webhook and
 * event, and appends their outbox rows. Returns how many deliveries were queued; when > 0
 * the caller nudges the outbox worker after commit.
 */
export async function enqueueWebhookEvents(
  trx: Trx,
  envelope: Envelope,
  events: readonly WebhookEvent[],
): Promise<number> {
  if (events.length === 0) return 0;
  const formIds = [...new Set(events.map((e) => e.formId))];
  const names = [...new Set(events.map((e) => e.event))];
  const webhooks = await subscribedWebhooks(trx, formIds, names);
  if (webhooks.length === 0) return 0;
  const byFormAndEvent = new Map<string, StoredWebhook[]>();
  for (const webhook of webhooks) {
    const key = `${webhook.formId}\u0000${webhook.event}`;
    const list = byFormAndEvent.get(key);
    if (list) list.push(webhook);
    else byFormAndEvent.set(key, [webhook]);
  }
  const targets: Array<{ webhook: StoredWebhook; event: WebhookEvent; eventId: string }> = [];
  for (const event of events) {
    const subscribed = byFormAndEvent.get(`${event.formId}\u0000${event.event}`);
    if (!subscribed) continue;
    // One id per event: every webhook it goes to, and every attempt, carries the same `webhook-id`.
    const eventId = newId('evt');
    for (const webhook of subscribed) targets.push({ webhook, event, eventId });
  }
  return queueDeliveries(trx, envelope, targets);
}

/**
 * Queues `event` to one webhook, whatever its subscription (`POST /webhooks/{id}/test`).
 * Returns the new delivery's id.
 */
export async function enqueueToWebhook(
  trx: Trx,
  envelope: Envelope,
  webhook: StoredWebhook,
  event: WebhookEvent,
): Promise<string> {
  const ids: string[] = [];
  await queueDeliveries(trx, envelope, [{ webhook, event, eventId: newId('evt') }], ids);
  return ids[0] as string;
}

async function queueDeliveries(
  trx: Trx,
  envelope: Envelope,
  targets: ReadonlyArray<{ webhook: StoredWebhook; event: WebhookEvent; eventId: string }>,
  ids: string[] = [],
): Promise<number> {
  if (targets.length === 0) return 0;
  const now = nowIso();
  const rows = await Promise.all(
    targets.map(async ({ webhook, event, eventId }) => {
      const body = renderPayload(webhook.format, {
        eventId,
        event: event.event,
        occurredAt: event.occurredAt,
        observedAt: now,
        formId: event.formId,
        environment: event.environment,
        webhookId: webhook.id,
        ...(event.submissionId ? { submissionId: event.submissionId } : {}),
        data: event.data,
      });
      return {
        id: newId('dlv'),
        webhook_id: webhook.id,
        workspace_id: webhook.workspaceId,
        environment: webhook.environment,
        form_id: webhook.formId,
        event_id: eventId,
        event: event.event,
        url: webhook.url,
        format: webhook.format,
        secret_ciphertext: webhook.secretCiphertext,
        body_ciphertext: await envelope.encrypt(body),
        status: 'pending' as const,
        attempts: 0,
        outbox_id: newId('obx'),
        redelivery_of: null,
        created_at: now,
        updated_at: now,
      };
    }),
  );
  await insertRows(trx, 'webhook_deliveries', rows);
  await appendToOutbox(
    trx,
    rows.map((row) => ({
      id: row.outbox_id,
      kind: WEBHOOK_KIND,
      payload: { deliveryId: row.id } satisfies WebhookDeliveryPayload,
    })),
    now,
  );
  ids.push(...rows.map((row) => row.id));
  return rows.length;
}
