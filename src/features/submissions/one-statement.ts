import { type QueryCreator, type RawBuilder, sql } from 'kysely';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Db } from '../../platform/db/database.js';
import { isTransactionConflict } from '../../platform/db/dialect.js';
import { boundRows, columnsOf, valuesOf } from '../../platform/db/insert.js';
import type { Schema } from '../../platform/db/schema.js';
import { type OutboxMessage, outboxRows } from '../../platform/outbox.js';
import { nowIso } from '../../platform/time.js';
import type { WebhookEvent } from '../webhooks/events.js';
import { CLAIM_COLUMNS, inClaimOrder } from './address-claims.js';
import { addCounts, type BatchCount, batchCounts, inKeyOrder } from './counters.js';
import { addUsage, type QuotaScope, type UsageCount, usageKey, usageOf } from './quota.js';
import { type StoredSubmission, toSubmissionRow } from './repo.js';

/**
 * PostgreSQL: a batch of plain submissions written by one statement, in autocommit, so one round
 * trip instead of five or six (BEGIN, the quota, the INSERT, the counters, the webhooks' lookup,
 * COMMIT). Each round trip costs a socket write and read on both sides and a statement of
 * PostgreSQL's: measured under `npm run bench -- --profile`, the socket writes alone were a
 * quarter of the service's busy time on the submit path (issue 24, "one round trip per batch").
 *
 * The statement's data-modifying CTEs claim the `oncePer: "email"` addresses, count each limited
 * form against its `maxSubmissions`, count the quota, insert the submissions, add to the other
 * forms' counters and queue the outbox rows; its main query fails (so the whole statement,
 * atomic, is undone) when the batch needs what only the transaction can do: an address taken
 * (the square root of -1), or, by a division by zero, a limit or a quota that does not take the
 * whole batch (refused one by one there) or a webhook subscribed to the events (its deliveries
 * are encrypted per webhook in code, between a read and a write). Every CTE and
 * the main query see one snapshot (a webhook added meanwhile is missed, as by the transaction's
 * lookup under READ COMMITTED when added after it), and take their rows in the transaction's
 * order: addresses, limited forms, quota scopes, the other forms, each in key order. (A CTE the
 * main query reads runs when its guard is evaluated, left to right; the others after it: so the
 * guards' order below is the order in which rows are taken.)
 *
 * "Plain" leaves out what is decided per submission before the insert and cannot be checked by
 * the guard: an idempotency key, a partial completed, uploads. Those batches, and SQLite's (one
 * fsync per batch already, and no round trips), take the transaction.
 */

/** What the statement reads of each write of a batch (writer.ts `SubmissionWrite`). */
export interface PlainWrite {
  submission: StoredSubmission | undefined;
  quota: QuotaScope | undefined;
  idempotency?: unknown;
  outbox: readonly OutboxMessage[];
  event: WebhookEvent | undefined;
  files?: unknown;
  count?: { formId: string; max: number | undefined };
  address?: { formId: string; hash: string; submissionId: string; createdAt: string };
  completes?: string;
}

/** Bound values beyond which the batch takes the transaction (PostgreSQL allows 65,535 a statement). */
const MAX_VALUES = 30_000;

/** The statement's parts, in the order of their values; the shape names them all. */
interface Layout {
  /** `oncePer: "email"` claims (form, hash, submission, time). */
  claims: number;
  /** Forms with `maxSubmissions`, each its own conditional upsert of its counters. */
  limited: number;
  usage: number;
  submissions: readonly string[] | undefined;
  submissionRows: number;
  counts: number;
  outbox: readonly string[] | undefined;
  outboxRows: number;
  /** The forms and event names whose webhooks are looked for (none when no event is queued). */
  webhookForms: number;
  webhookEvents: number;
}

/**
 * `needs-transaction`: the batch needs what only the transaction does because of its forms' state
 * (a webhook subscribed, a limit or quota nearly used up), which lasts: their next batches may as
 * well take the transaction straight away. `address-taken`: an address of the batch was taken
 * already (or is in it twice), which says nothing of the form's next batches.
 */
export type OneStatementResult = 'written' | 'needs-transaction' | 'address-taken';

/** True when every write of the batch is plain (see above) and could be written by one statement. */
export const isPlainBatch = (writes: readonly PlainWrite[]): boolean =>
  writes.every(
    (write) => write.idempotency === undefined && write.files === undefined && write.completes === undefined,
  );

/**
 * Writes a plain batch in one statement; `needs-transaction` or `address-taken` (nothing written)
 * when the batch needs the transaction after all, and why. `webhooks`: whether events are queued
 * for webhooks at all.
 */
export async function writeInOneStatement(
  db: Db,
  writes: readonly PlainWrite[],
  webhooks: boolean,
): Promise<OneStatementResult> {
  const usage = usageCounts(writes);
  if (usage === undefined) return 'needs-transaction';
  const submissions = writes.flatMap((write) =>
    write.submission ? [toSubmissionRow(write.submission)] : [],
  );
  const stored = writes.flatMap((write) => (write.submission ? [write.submission] : []));
  const accepted = new Map<string, number>();
  /** Each limited form's `maxSubmissions`, as the first of its writes says (writer-counts.ts `countForms`). */
  const limits = new Map<string, number>();
  for (const { count } of writes) {
    if (!count) continue;
    accepted.set(count.formId, (accepted.get(count.formId) ?? 0) + 1);
    if (count.max !== undefined && !limits.has(count.formId)) limits.set(count.formId, count.max);
  }
  const allCounts = batchCounts(stored, accepted);
  // a limited form's whole count, its listed ones too, in its conditional upsert: one write a row
  const limited = allCounts.filter((row) => limits.has(row.formId));
  const counts = allCounts.filter((row) => !limits.has(row.formId));
  if (limited.some((row) => row.accepted > (limits.get(row.formId) ?? 0))) return 'needs-transaction';
  const claims = inClaimOrder(writes.flatMap((write) => (write.address ? [write.address] : [])));
  // the same address twice in the batch (a double click): refused by the transaction, no round trip first
  if (claims.some((claim, i) => i > 0 && sameAddress(claim, claims[i - 1]))) return 'address-taken';
  const outbox = outboxRows(
    writes.flatMap((write) => write.outbox),
    nowIso(),
  );
  const events = webhooks ? writes.flatMap((write) => (write.event ? [write.event] : [])) : [];
  const webhookForms = [...new Set(events.map((event) => event.formId))];
  const webhookEvents = [...new Set(events.map((event) => event.event))];

  const layout: Layout = {
    claims: claims.length,
    limited: limited.length,
    usage: usage.counts.length,
    submissions: columnsOf(submissions),
    submissionRows: submissions.length,
    counts: counts.length,
    outbox: columnsOf(outbox),
    outboxRows: outbox.length,
    webhookForms: webhookForms.length,
    webhookEvents: webhookEvents.length,
  };
  // a row that leaves a column out (undefined) is Kysely's to write each time: the transaction's
  if ((submissions.length > 0 && !layout.submissions) || (outbox.length > 0 && !layout.outbox))
    return 'needs-transaction';
  const values: unknown[] = [];
  for (const claim of claims) values.push(claim.formId, claim.hash, claim.submissionId, claim.createdAt);
  for (const row of limited)
    values.push(row.formId, row.accepted, row.listed, row.unread, row.last, limits.get(row.formId));
  for (const row of usage.counts) values.push(row.workspaceId, row.environment, row.month, row.count);
  if (layout.usage > 0) values.push(usage.quota);
  if (layout.submissions) values.push(...valuesOf(submissions, layout.submissions));
  for (const row of counts) values.push(row.formId, row.accepted, row.listed, row.unread, row.last);
  if (layout.outbox) values.push(...valuesOf(outbox, layout.outbox));
  // the main query's values after the CTEs', as Kysely writes them
  if (layout.claims > 0) values.push(layout.claims);
  if (layout.usage > 0) values.push(layout.usage);
  if (layout.webhookForms > 0) values.push(...webhookForms, ...webhookEvents, 1);
  if (values.length > MAX_VALUES) return 'needs-transaction';

  try {
    await executeCached(db, shapeOf(layout), values, (bound) => statement(db, layout, bound));
    return 'written';
  } catch (error) {
    // Undone, for certain (a statement in autocommit): the transaction takes the batch. Besides
    // the statement's own refusal, a deadlock: its rows are taken in the transaction's order,
    // but a form's counters may come before or after the quota there (a flagged submission to a
    // limited form counts it after)
    const code = (error as { code?: unknown } | null)?.code;
    if (code === NEGATIVE_SQUARE_ROOT) return 'address-taken';
    if (code === DIVISION_BY_ZERO || isTransactionConflict(error)) return 'needs-transaction';
    throw error;
  }
}

/** How the statement says "take the transaction", its whole work undone: an address taken… */
const NEGATIVE_SQUARE_ROOT = '2201F';
/** …or a guard of the forms' state. */
const DIVISION_BY_ZERO = '22012';

const sameAddress = (a: { formId: string; hash: string }, b: { formId: string; hash: string } | undefined) =>
  b !== undefined && a.formId === b.formId && a.hash === b.hash;

/** The quota's counts per (workspace, environment, month), or undefined when one alone exceeds it. */
function usageCounts(writes: readonly PlainWrite[]): { counts: UsageCount[]; quota: number } | undefined {
  const byScope = new Map<string, UsageCount>();
  let quota = 0;
  for (const { quota: scope } of writes) {
    if (!scope || scope.quota === 0) continue;
    // one limit a statement: every scope of a service has the same (MONTHLY_QUOTA)
    if (quota !== 0 && scope.quota !== quota) return undefined;
    quota = scope.quota;
    const key = usageKey(scope);
    const known = byScope.get(key);
    if (known) known.count += 1;
    else byScope.set(key, usageOf(scope, 1));
  }
  // rows taken in one order by every statement and transaction (writer-counts.ts `countQuota`)
  const counts = inKeyOrder(byScope).map(([, usage]) => usage);
  if (counts.some((usage) => usage.count > quota)) return undefined;
  return { counts, quota };
}

const shapeOf = (layout: Layout) =>
  `one statement: claims ${layout.claims}; limited ${layout.limited}; usage ${layout.usage}; submissions ${layout.submissionRows} (${layout.submissions?.join(',')}); ` +
  `counts ${layout.counts}; outbox ${layout.outboxRows} (${layout.outbox?.join(',')}); ` +
  `webhooks of ${layout.webhookForms} forms, ${layout.webhookEvents} events`;

/** The statement of `layout`, its values taken from `bound` in order (no branch on a value: cached-statement.ts). */
function statement(db: Db, layout: Layout, bound: readonly unknown[]) {
  let at = 0;
  const take = (count: number) => {
    const part = bound.slice(at, at + count);
    at += count;
    return part;
  };
  // Kysely's types follow each CTE added; the statement's own parts are typed where they are built
  let query = db as unknown as QueryCreator<Schema>;
  // in the order rows are taken (see above): addresses, limited forms, then the quota
  const guards = [];
  if (layout.claims > 0) {
    const rows = boundRows(take(layout.claims * 4), CLAIM_COLUMNS);
    query = query.with('claimed_addresses', (creator) =>
      creator
        .insertInto('response_addresses')
        .values(rows as never)
        .onConflict((conflict) => conflict.columns(['form_id', 'address_hash']).doNothing())
        .returning('submission_id'),
    ) as unknown as QueryCreator<Schema>;
  }
  for (let i = 0; i < layout.limited; i++) {
    const [formId, accepted, listed, unread, last, max] = take(6);
    const row = { formId, accepted, listed, unread, last } as unknown as BatchCount;
    query = query.with(`counted_limited_${i}`, (creator) =>
      addCounts(creator, [row], max as number).returning('form_id'),
    ) as unknown as QueryCreator<Schema>;
  }
  if (layout.usage > 0) {
    const counts = boundRows(take(layout.usage * 4), ['workspaceId', 'environment', 'month', 'count']);
    const [quota] = take(1);
    query = query.with('counted_usage', (creator) =>
      addUsage(creator, counts as unknown as UsageCount[], quota as number).returning('submissions'),
    ) as unknown as QueryCreator<Schema>;
  }
  if (layout.submissions) {
    const rows = boundRows(take(layout.submissionRows * layout.submissions.length), layout.submissions);
    query = query.with('stored_submissions', (creator) =>
      creator.insertInto('submissions').values(rows as never),
    ) as unknown as QueryCreator<Schema>;
  }
  if (layout.counts > 0) {
    const counts = boundRows(take(layout.counts * 5), ['formId', 'accepted', 'listed', 'unread', 'last']);
    query = query.with('counted_forms', (creator) =>
      addCounts(creator, counts as unknown as BatchCount[]),
    ) as unknown as QueryCreator<Schema>;
  }
  if (layout.outbox) {
    const rows = boundRows(take(layout.outboxRows * layout.outbox.length), layout.outbox);
    query = query.with('queued_outbox', (creator) =>
      creator.insertInto('outbox').values(rows as never),
    ) as unknown as QueryCreator<Schema>;
  }
  // an address taken already inserts nothing: the transaction refuses it. Its own error (evaluated
  // first, so the addresses are still claimed first) tells it from the forms' guards
  let addressGuard: RawBuilder<number> | undefined;
  if (layout.claims > 0) {
    const [claimed] = take(1);
    addressGuard = sql<number>`sqrt(case when (select count(*) from claimed_addresses) = ${claimed} then 1 else -1 end)`;
  }
  // a limited form whose count the batch would pass is not updated: the transaction counts one by one
  for (let i = 0; i < layout.limited; i++)
    guards.push(sql`(select count(*) from ${sql.table(`counted_limited_${i}`)}) = 1`);
  if (layout.usage > 0) {
    const [groups] = take(1);
    guards.push(sql`(select count(*) from counted_usage) = ${groups}`);
  }
  if (layout.webhookForms > 0) {
    const forms = take(layout.webhookForms) as string[];
    const events = take(layout.webhookEvents) as string[];
    const [enabled] = take(1);
    const subscribed = db
      .selectFrom('webhooks')
      .select('id')
      .where('form_id', 'in', forms)
      .where('event', 'in', events)
      .where('enabled', '=', enabled as number);
    guards.push(sql`not exists (${subscribed})`);
  }
  const forms =
    guards.length > 0
      ? sql<number>`1 / (case when ${sql.join(guards, sql` and `)} then 1 else 0 end)`
      : undefined;
  // CASE evaluates its condition before its result: the address guard first, whatever the planner does
  const written =
    addressGuard && forms
      ? sql<number>`case when ${addressGuard} = 1 then ${forms} end`
      : (addressGuard ?? forms ?? sql<number>`1`);
  return query.selectNoFrom(written.as('written'));
}
