import type { StoredWebhook } from './repo.js';

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
