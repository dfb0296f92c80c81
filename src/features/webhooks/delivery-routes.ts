import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireSessionOrSecretKey } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { decodeCursor, toPage } from '../../platform/cursor.js';
import { emptyBodyIsNone } from '../../platform/http/empty-body.js';
import { ListOf, problems, SECURITY, StringEnum, Timestamp } from '../../platform/http/schemas.js';
import { conflict, notFound } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { managersOnly, type WebhookAccess } from './access.js';
import {
  attemptsOf,
  findDelivery,
  listDeliveries,
  queueRedelivery,
  type StoredAttempt,
  type StoredDelivery,
} from './delivery-repo.js';
import { enqueueToWebhook } from './events.js';
import { presentDelivery } from './presenter.js';
import type { StoredWebhook } from './repo.js';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from './schemas.js';

/**
 * A webhook's deliveries (API.md §7): the list with every attempt, redelivery and the test
 * event. Same access as the webhook itself: the form owner's session or a secret key of its
 * environment.
 */

const AttemptOut = Type.Object({
  attempt: Type.Integer({ minimum: 1 }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status" }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why no answer came (connection refused, timeout, refused address), or why nothing was sent',
  }),
  summary: Type.String({
    description:
      'What happened, in plain words: "hooks.example.com answered 200 OK", "hooks.example.com could not be found (no such host name)"',
  }),
  durationMs: Type.Integer({ minimum: 0 }),
  attemptedAt: Timestamp,
});

const DeliveryOut = Type.Object({
  id: Type.String({ examples: ['dlv_01jd5x8m0k4v9w3t2r1q0p9n8m'] }),
  webhookId: Type.String(),
  eventId: Type.String({ description: 'The `webhook-id` header: the same on every attempt and redelivery' }),
  event: StringEnum(WEBHOOK_EVENTS),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Array(AttemptOut),
  nextAttemptAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When a pending delivery is tried next',
  }),
  redeliveryOf: Type.Union([Type.String(), Type.Null()], {
    description: 'The delivery this one sends again',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const WebhookIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const DeliveryParams = Type.Object({
  id: Type.String({ maxLength: 200 }),
  deliveryId: Type.String({ maxLength: 200 }),
});
const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
});

const disabledConflict = (webhook: StoredWebhook) =>
  conflict(`The webhook ${webhook.id} is disabled; enable it (PATCH {"enabled": true}) before sending to it`);

const TestQuery = Type.Object({
  wait: Type.Optional(
    Type.Boolean({
      description:
        'true: answer once the test has been tried (within the delivery timeout and a few seconds more), its attempt and verdict included',
    }),
  ),
});

/** How often a waiting test looks whether its attempt is recorded (any instance's worker may send it). */
const WAIT_POLL_MS = 100;
/** Beyond the receiver's own timeout: the worker's pick-up, a name lookup, the record written. */
const WAIT_SLACK_MS = 5000;

export const webhookDeliveryRoutes =
  (
    { database, envelope, outbox }: AppContext,
    access: WebhookAccess,
    options: { timeoutMs: number },
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['webhooks'];

    /** The delivery once its first attempt is recorded, or as it stands when the wait is over. */
    async function triedOrAsItStands(delivery: StoredDelivery, signal: AbortSignal): Promise<StoredDelivery> {
      const deadline = Date.now() + options.timeoutMs + WAIT_SLACK_MS;
      let current = delivery;
      while (current.attempts === 0 && Date.now() < deadline && !signal.aborted) {
        await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
        current = (await findDelivery(database.db, delivery.id)) ?? current;
      }
      return current;
    }

    app.get(
      '/webhooks/:id/deliveries',
      {
        ...managersOnly,
        schema: {
          tags,
          summary: "A webhook's deliveries, newest first, each with its attempts",
          operationId: 'listWebhookDeliveries',
          security: SECURITY.sessionOrSecretKey,
          params: WebhookIdParams,
          querystring: ListQuery,
          response: { 200: ListOf(DeliveryOut), ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { webhook } = await access.managedWebhook(
          database.db,
          requireSessionOrSecretKey(request),
          request.params.id,
          'read',
        );
        const limit = request.query.limit ?? 50;
        const rows = await listDeliveries(database.db, webhook.id, {
          limit,
          after: decodeCursor(request.query.cursor),
        });
        const page = toPage(rows, limit);
        const attempts = await attemptsOf(
          database.db,
          page.rows.map((row) => row.id),
        );
        const byDelivery = new Map<string, StoredAttempt[]>();
        for (const attempt of attempts) {
          const list = byDelivery.get(attempt.deliveryId);
          if (list) list.push(attempt);
          else byDelivery.set(attempt.deliveryId, [attempt]);
        }
        return {
          data: page.rows.map((row) => presentDelivery(row, byDelivery.get(row.id) ?? [])),
          nextCursor: page.nextCursor,
        };
      },
    );

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/redeliver',
      {
        ...managersOnly,
        ...emptyBodyIsNone,
        schema: {
          tags,
          summary:
            'Send a delivery again: a new delivery of the same event (same webhook-id and body), to the current URL and secret',
          operationId: 'redeliverWebhookDelivery',
          security: SECURITY.sessionOrSecretKey,
          params: DeliveryParams,
          response: { 202: DeliveryOut, ...problems(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { webhook } = await access.managedWebhook(
          database.db,
          requireSessionOrSecretKey(request),
          request.params.id,
          'manageForms',
        );
        const original = await findDelivery(database.db, request.params.deliveryId);
        if (!original || original.webhookId !== webhook.id) {
          throw notFound(`No delivery ${request.params.deliveryId} of webhook ${webhook.id}`);
        }
        if (!webhook.enabled) throw disabledConflict(webhook);
        const row = await database.transaction((trx) => queueRedelivery(trx, original));
        outbox.nudge();
        return reply.status(202).send(presentDelivery(row, []));
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        ...managersOnly,
        ...emptyBodyIsNone,
        schema: {
          tags,
          summary: 'Send a webhook.test event to this webhook, whatever event it subscribes to',
          description:
            'A test is tried once and never retried. With wait=true the answer comes after that attempt, with its attempt and its verdict in words (`attempts[0].summary`); without, at once, and the outcome is read from the deliveries.',
          operationId: 'testWebhook',
          security: SECURITY.sessionOrSecretKey,
          params: WebhookIdParams,
          querystring: TestQuery,
          response: { 202: DeliveryOut, ...problems(401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { webhook } = await access.managedWebhook(
          database.db,
          requireSessionOrSecretKey(request),
          request.params.id,
          'manageForms',
        );
        if (!webhook.enabled) throw disabledConflict(webhook);
        // read back inside the transaction: the delivery as queued, before the worker can send it
        const row = await database.transaction(async (trx) => {
          const deliveryId = await enqueueToWebhook(trx, envelope, webhook, {
            event: 'webhook.test',
            formId: webhook.formId,
            workspaceId: webhook.workspaceId,
            environment: webhook.environment,
            occurredAt: nowIso(),
            data: {
              webhookId: webhook.id,
              subscribedEvent: webhook.event,
              message: 'A test event from Intake: this webhook can receive deliveries.',
            },
          });
          const queued = await findDelivery(trx, deliveryId);
          if (!queued) throw notFound(`No delivery ${deliveryId}`);
          return queued;
        });
        outbox.nudge();
        if (request.query.wait !== true) return reply.status(202).send(presentDelivery(row, []));
        // a client that went away stops the wait
        const gone = new AbortController();
        reply.raw.once('close', () => gone.abort());
        const tried = await triedOrAsItStands(row, gone.signal);
        return reply.status(202).send(presentDelivery(tried, await attemptsOf(database.db, [tried.id])));
      },
    );
  };
