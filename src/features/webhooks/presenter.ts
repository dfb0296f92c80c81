import type { WebhookRow } from './repo.js';

/** A webhook as the API shows it: never its secret, only whether it has one. */
export function presentWebhook(row: WebhookRow) {
  return {
    id: row.id,
    formId: row.form_id,
    environment: row.environment,
    event: row.event,
    url: row.url,
    format: row.format,
    enabled: row.enabled === 1,
    hasSecret: row.secret_ciphertext !== null,
    createdAt: row.created_at,
  };
}
