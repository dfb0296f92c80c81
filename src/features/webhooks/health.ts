import { type ExpressionBuilder, sql } from 'kysely';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import { attemptSucceeded, attemptSummary } from './verdict.js';

/**
 * A webhook's health (issue 25 item 9): how its newest tried delivery went. "failing" while the
 * last attempt of that delivery failed, with the time its next retry is due (none for a test,
 * which is never retried, or once the retries have run out); "working" once one gets through;
 * "untried" before anything was sent. Read for a page of webhooks in one query, through the
 * index on (webhook_id, created_at, id): never a query a webhook.
 */

export const HEALTH_STATES = ['untried', 'working', 'failing'] as const;

export interface WebhookHealth {
  state: (typeof HEALTH_STATES)[number];
  lastAttemptAt: string | null;
  /** The last attempt in words (verdict.ts). */
  lastOutcome: string | null;
  nextRetryAt: string | null;
}

export const UNTRIED: WebhookHealth = {
  state: 'untried',
  lastAttemptAt: null,
  lastOutcome: null,
  nextRetryAt: null,
};

/** The newest delivery of webhook `w` that has been tried at least once (a correlated subquery). */
const newestTried = (eb: ExpressionBuilder<Schema & { w: Schema['webhooks'] }, 'w'>) =>
  eb
    .selectFrom('webhook_deliveries as newest')
    .select('newest.id')
    .whereRef('newest.webhook_id', '=', 'w.id')
    .where('newest.attempts', '>', 0)
    .orderBy('newest.created_at', 'desc')
    .orderBy('newest.id', 'desc')
    .limit(1);

/**
 * The condition "webhook `w`'s newest tried delivery ended its last attempt without a 2xx", for a
 * list of webhooks aliased `w` (`GET /webhooks?failing=true`).
 */
export const lastAttemptFailed = (eb: ExpressionBuilder<Schema & { w: Schema['webhooks'] }, 'w'>) =>
  eb.exists(
    eb
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_delivery_attempts as a', (join) =>
        join.onRef('a.delivery_id', '=', 'd.id').onRef('a.attempt', '=', 'd.attempts'),
      )
      .select(sql<number>`1`.as('one'))
      .where('d.id', '=', newestTried(eb))
      .where((inner) =>
        inner.or([
          inner('a.status_code', 'is', null),
          inner('a.status_code', '<', 200),
          inner('a.status_code', '>=', 300),
        ]),
      ),
  );

/**
 * The retry's time, once the worker has set it: the attempt is recorded by the handler a moment
 * before the worker reschedules the message, and a time before the attempt is the old one.
 */
const retryAfter = (attemptedAt: string, next: string | null): string | null =>
  next !== null && Date.parse(next) > Date.parse(attemptedAt) ? next : null;

/** The health of each of these webhooks (the ones never tried are left out: UNTRIED). */
export async function healthOf(
  db: Db | Trx,
  webhooks: ReadonlyArray<{ id: string; url: string }>,
): Promise<Map<string, WebhookHealth>> {
  const health = new Map<string, WebhookHealth>();
  if (webhooks.length === 0) return health;
  const rows = await db
    .selectFrom('webhooks as w')
    .innerJoin('webhook_deliveries as d', (join) => join.on((eb) => eb('d.id', '=', newestTried(eb))))
    .innerJoin('webhook_delivery_attempts as a', (join) =>
      join.onRef('a.delivery_id', '=', 'd.id').onRef('a.attempt', '=', 'd.attempts'),
    )
    .leftJoin('outbox as o', (join) => join.onRef('o.id', '=', 'd.outbox_id').on('o.status', '=', 'pending'))
    .select(['w.id', 'd.status', 'a.status_code', 'a.error', 'a.attempted_at', 'o.next_attempt_at'])
    .where(
      'w.id',
      'in',
      webhooks.map((webhook) => webhook.id),
    )
    .execute();
  const urls = new Map(webhooks.map((webhook) => [webhook.id, webhook.url]));
  for (const row of rows) {
    const attempt = {
      statusCode: row.status_code === null ? null : Number(row.status_code),
      error: row.error,
    };
    const working = attemptSucceeded(attempt);
    health.set(row.id, {
      state: working ? 'working' : 'failing',
      lastAttemptAt: row.attempted_at,
      lastOutcome: attemptSummary(attempt, urls.get(row.id) ?? ''),
      nextRetryAt:
        !working && row.status === 'pending' ? retryAfter(row.attempted_at, row.next_attempt_at) : null,
    });
  }
  return health;
}
