import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { type FormLookup, WebhookAccess } from './access.js';
import { DEFAULT_WEBHOOK_TIMEOUT_MS, WebhookSender, webhookHandler } from './delivery.js';
import { webhookDeliveryRoutes } from './delivery-routes.js';
import { WEBHOOK_KIND } from './events.js';
import { webhookRoutes } from './routes.js';
import { ssrfGuardOn } from './ssrf.js';

export interface WebhooksOptions {
  /** What webhooks know of forms (features/forms, above this one, hands it over). */
  forms: FormLookup;
  /** How long a receiver may take to answer (tests shorten it); default 10 s (API.md §7). */
  timeoutMs?: number;
}

/**
 * Webhooks (API.md §7): the `/webhooks` resource, deliveries and tests, and the outbox
 * handler that sends what changes queue (delivery.ts).
 */
export async function registerWebhooks(
  app: FastifyInstance,
  context: AppContext,
  options: WebhooksOptions,
): Promise<void> {
  const access = new WebhookAccess(options.forms);
  await app.register(webhookRoutes(context, access));
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  await app.register(webhookDeliveryRoutes(context, access, { timeoutMs }));
  const sender = new WebhookSender({ guard: ssrfGuardOn(context.config), timeoutMs });
  // the sender's connections close once the worker has stopped for good (outbox.close)
  context.outbox.handle(WEBHOOK_KIND, webhookHandler(context.database, context.envelope, sender, app.log), {
    close: () => sender.close(),
  });
}
