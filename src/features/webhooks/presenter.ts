import type { ListedDelivery, StoredAttempt, StoredDelivery } from './delivery-repo.js';
import { UNTRIED, type WebhookHealth } from './health.js';
import type { StoredWebhook } from './repo.js';
import type { WebhookEventName } from './schemas.js';
import { attemptSummary } from './verdict.js';

/** A webhook as the API shows it: never its secret, only whether it has one. */
export function presentWebhook(webhook: StoredWebhook) {
  return {
    id: webhook.id,
    formId: webhook.formId,
    environment: webhook.environment,
    event: webhook.event,
    url: webhook.url,
    format: webhook.format,
    enabled: webhook.enabled,
    hasSecret: webhook.secretCiphertext !== null,
    createdAt: webhook.createdAt,
  };
}

/** A webhook with its health, as the `/webhooks` resource answers it. */
export function presentWebhookWithHealth(webhook: StoredWebhook, health: WebhookHealth = UNTRIED) {
  return { ...presentWebhook(webhook), health };
}

/** A delivery with its attempts, oldest first; the next attempt's time while one is due. */
export function presentDelivery(
  delivery: StoredDelivery & Partial<Pick<ListedDelivery, 'nextAttemptAt'>>,
  attempts: readonly StoredAttempt[],
) {
  return {
    id: delivery.id,
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    // written only from WEBHOOK_EVENTS (events.ts)
    event: delivery.event as WebhookEventName,
    status: delivery.status,
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      statusCode: attempt.statusCode,
      error: attempt.error,
      summary: attemptSummary(attempt, delivery.url),
      durationMs: attempt.durationMs,
      attemptedAt: attempt.attemptedAt,
    })),
    nextAttemptAt: delivery.status === 'pending' ? (delivery.nextAttemptAt ?? null) : null,
    redeliveryOf: delivery.redeliveryOf,
    createdAt: delivery.createdAt,
    updatedAt: delivery.updatedAt,
  };
}
