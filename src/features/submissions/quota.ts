import { type QueryCreator, sql } from 'kysely';
import type { Trx } from '../../platform/db/database.js';
import type { Schema } from '../../platform/db/schema.js';
import { Problem } from '../../platform/problem.js';
import { rateLimitHeaders } from '../../platform/rate-limit.js';

/** `YYYY-MM` of a timestamp: quotas run per calendar month, UTC. */
export const monthOf = (iso: string) => iso.slice(0, 7);

function secondsToNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

export interface QuotaScope {
  workspaceId: string;
  environment: string;
  /** Accepted submissions allowed per month; 0 is unlimited. */
  quota: number;
  now: string;
}

/**
 * Counts `count` accepted submissions against the monthly quota of (user, environment), in
 * the submissions' own transaction: a single conditional upsert, so that concurrent
 * submissions can never overshoot (the row lock, or SQLite's single writer, serialises
 * them) and a rolled-back submission is never counted. All or nothing: false, with nothing
 * counted, when the count does not fit into what is left of the month's quota.
 */
export async function countManyAgainstQuota(trx: Trx, scope: QuotaScope, count: number): Promise<boolean> {
  if (scope.quota === 0) return true;
  if (count > scope.quota) return false;
  const counted = await addUsage(trx, [usageOf(scope, count)], scope.quota)
    .returning('submissions')
    .executeTakeFirst();
  return counted !== undefined;
}

/** Accepted submissions to count in one (workspace, environment, month). */
export interface UsageCount {
  workspaceId: string;
  environment: string;
  month: string;
  count: number;
}

/**
 * The key of a scope's month: quota rows are taken in the order of these keys by every batch, a
 * transaction's (writer-counts.ts `countQuota`) or one statement's (one-statement.ts).
 */
export const usageKey = (scope: QuotaScope): string =>
  JSON.stringify([scope.workspaceId, scope.environment, monthOf(scope.now)]);

export const usageOf = (scope: QuotaScope, count: number): UsageCount => ({
  workspaceId: scope.workspaceId,
  environment: scope.environment,
  month: monthOf(scope.now),
  count,
});

/**
 * Adds each count to its scope's month, a row only where the sum stays within `quota` (a row it
 * did not change is not returned). Each count must be ≤ `quota` itself: a new row is inserted as is.
 */
export const addUsage = (creator: QueryCreator<Schema>, counts: readonly UsageCount[], quota: number) =>
  creator
    .insertInto('usage')
    .values(
      counts.map(({ workspaceId, environment, month, count }) => ({
        workspace_id: workspaceId,
        environment,
        month,
        submissions: count,
      })),
    )
    .onConflict((conflict) =>
      conflict
        .columns(['workspace_id', 'environment', 'month'])
        .doUpdateSet({ submissions: sql<number>`usage.submissions + excluded.submissions` })
        .where(sql<number>`usage.submissions + excluded.submissions`, '<=', quota),
    );

export function quotaExceeded(scope: QuotaScope): Problem {
  const retryAfter = secondsToNextMonth(new Date(scope.now));
  return new Problem(
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
