import { sql } from 'kysely';
import type { Trx } from '../../platform/db/database.js';
import { Problem } from '../../platform/problem.js';
import { rateLimitHeaders } from '../../platform/rate-limit.js';

/** `YYYY-MM` of a timestamp: quotas run per calendar month, UTC. */
export const monthOf = (iso: string) => iso.slice(0, 7);

function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Counts one accepted submission against the monthly quota of (user, environment), in the
 * submission's own transaction: a single conditional upsert, so that concurrent
 * submissions can never overshoot (the row lock, or SQLite's single writer, serialises
 * them) and a rolled-back submission is never counted.
 */
export async function countAgainstQuota(
  trx: Trx,
  scope: { userId: string; environment: string; quota: number; now: string },
): Promise<{ used: number }> {
  if (scope.quota === 0) return { used: 0 };
  const month = monthOf(scope.now);
  const counted = await trx
    .insertInto('usage')
    .values({ user_id: scope.userId, environment: scope.environment, month, submissions: 1 })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'environment', 'month'])
        .doUpdateSet({ submissions: sql<number>`usage.submissions + 1` })
        .where('usage.submissions', '<', scope.quota),
    )
    .returning('submissions')
    .executeTakeFirst();
  if (counted) return { used: Number(counted.submissions) };
  const retryAfter = secondsToNextMonth(new Date(scope.now));
  throw new Problem(
    429,
    'quota_exceeded',
    `The monthly quota of ${scope.quota} accepted submissions for this environment is used up; it renews at the start of next month (UTC)`,
    {
      headers: {
        'retry-after': String(retryAfter),
        ...rateLimitHeaders({ limit: scope.quota, remaining: 0, resetSeconds: retryAfter }),
      },
    },
  );
}
