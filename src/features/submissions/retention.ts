import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { type ExpressionBuilder, sql } from 'kysely';
import { deleteAuditBefore } from '../../platform/audit.js';
import type { Database, Trx } from '../../platform/db/database.js';
import { decodeJson } from '../../platform/db/dialect.js';
import type { Schema } from '../../platform/db/schema.js';
import { logFailure } from '../../platform/db/unavailable.js';
import type { FormDefinition } from '../forms/schemas.js';
import { uncountDeleted } from './counters.js';
import { IDEMPOTENCY_TTL_MS } from './idempotency.js';

/**
 * Retention (API.md §5.4 `retention`, issue 3 item 8): a periodic job that deletes
 *   - submissions older than their form's `retention.days` (their notes go with them),
 *   - partial responses 30 days after their last save (API.md §15),
 *   - idempotency keys older than 24 hours,
 *   - outbox messages done or failed more than 7 days ago,
 *   - webhook deliveries succeeded or failed more than 7 days ago, with their attempts (their
 *     bodies carry answers, encrypted, possibly of submissions deleted since),
 *   - audit log entries older than AUDIT_RETENTION_DAYS (API.md §14),
 *   - the `oncePer: "email"` claims of forms deleted (features/forms/repo.ts `deleteForm`).
 * Each statement deletes at most `batchSize` rows by primary key in a transaction of its
 * own, so no lock is held for long and submissions keep flowing meanwhile.
 */

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const RETRY_AFTER_FAILURE_MS = 60_000;
export const OUTBOX_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const FORMS_PER_PAGE = 200;

export interface RetentionCounts {
  submissions: number;
  idempotencyKeys: number;
  outbox: number;
  webhookDeliveries: number;
  auditEntries: number;
  /** Partial responses (API.md §15 saved progress) 30 days after their last save. */
  partials: number;
  /** The tokens of completed partials, once they would have expired. */
  completedTokens: number;
  /** `oncePer: "email"` claims left by a form deleted while a submission to it was written. */
  strayClaims: number;
}

export interface RetentionOptions {
  batchSize?: number;
  /** Checked between batches: a pass stops early when the service is closing. */
  stopping?: () => boolean;
  /** AUDIT_RETENTION_DAYS; default 365. */
  auditRetentionDays?: number;
}

/** Deletes batch after batch until a batch comes back short. */
async function drain(
  database: Database,
  options: Required<RetentionOptions>,
  batch: (trx: Trx, size: number) => Promise<bigint | number>,
): Promise<number> {
  let total = 0;
  for (;;) {
    if (options.stopping()) return total;
    const deleted = Number(await database.transaction((trx) => batch(trx, options.batchSize)));
    total += deleted;
    if (deleted < options.batchSize) return total;
    await yieldToIo();
  }
}

/** The forms with a retention period, a page at a time (the JSON is only decoded for candidates). */
async function* formsWithRetention(database: Database) {
  let after = '';
  for (;;) {
    const rows = await database.db
      .selectFrom('forms')
      .select(['id', 'definition'])
      .where('id', '>', after)
      // `"retention":{` can only be a member name in the stored JSON (quotes in strings are escaped)
      .where('definition', 'like', '%"retention":{%')
      .orderBy('id')
      .limit(FORMS_PER_PAGE)
      .execute();
    for (const row of rows) {
      const days = decodeJson<FormDefinition>(row.definition).retention?.days;
      if (typeof days === 'number' && days > 0) yield { id: row.id, days };
    }
    const last = rows.at(-1);
    if (!last || rows.length < FORMS_PER_PAGE) return;
    after = last.id;
  }
}

/**
 * The forms claims are kept for that exist no more. `deleteForm` deletes a form's claims with it;
 * what a race leaves (a flagged submission to a form that keeps none, written as the form was
 * deleted) is found here. The claimed forms are read from the claims' key by skipping from one
 * form to the next (one index lookup a form, on both engines), not by reading every claim.
 */
async function formsOfStrayClaims(database: Database): Promise<string[]> {
  const { rows } = await sql<{ form_id: string }>`
    with recursive claimed (form_id) as (
      select min(form_id) from response_addresses
      union all
      select (select min(later.form_id) from response_addresses as later where later.form_id > claimed.form_id)
      from claimed where claimed.form_id is not null
    ),
    logged (form_id) as (
      select min(form_id) from response_address_log
      union all
      select (select min(later.form_id) from response_address_log as later where later.form_id > logged.form_id)
      from logged where logged.form_id is not null
    )
    select form_id from claimed
    where form_id is not null and not exists (select 1 from forms where forms.id = claimed.form_id)
    union
    select form_id from logged
    where form_id is not null and not exists (select 1 from forms where forms.id = logged.form_id)`.execute(
    database.db,
  );
  return rows.map((row) => row.form_id);
}

/** One pass of the retention job at `now`. */
export async function runRetention(
  database: Database,
  now: Date = new Date(),
  options: RetentionOptions = {},
): Promise<RetentionCounts> {
  const settings = {
    batchSize: options.batchSize ?? 500,
    stopping: options.stopping ?? (() => false),
    auditRetentionDays: options.auditRetentionDays ?? 365,
  };
  const counts: RetentionCounts = {
    submissions: 0,
    idempotencyKeys: 0,
    outbox: 0,
    webhookDeliveries: 0,
    auditEntries: 0,
    partials: 0,
    completedTokens: 0,
    strayClaims: 0,
  };

  for await (const form of formsWithRetention(database)) {
    if (settings.stopping()) return counts;
    const cutoff = new Date(now.getTime() - form.days * DAY_MS).toISOString();
    counts.submissions += await drain(database, settings, async (trx, size) => {
      const deleted = await trx
        .deleteFrom('submissions')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('submissions')
            .select('id')
            .where('form_id', '=', form.id)
            .where('created_at', '<', cutoff)
            .limit(size),
        )
        .returning(['form_id', 'status', 'read'])
        .execute();
      await uncountDeleted(trx, deleted);
      return BigInt(deleted.length);
    });
  }

  // their partial_progress rows go with them (on delete cascade)
  const nowIso = now.toISOString();
  counts.partials = await drain(database, settings, async (trx, size) => {
    const result = await trx
      .deleteFrom('submissions')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('partial_progress')
          .select('submission_id')
          .where('expires_at', '<=', nowIso)
          .limit(size),
      )
      .where('status', '=', 'partial')
      .executeTakeFirst();
    return result.numDeletedRows;
  });

  // the tokens of completed partials, once they would have expired (their form's go with it)
  counts.completedTokens = await drain(database, settings, async (trx, size) => {
    const result = await trx
      .deleteFrom('completed_progress')
      .where('token_hash', 'in', (eb) =>
        eb
          .selectFrom('completed_progress')
          .select('token_hash')
          .where('expires_at', '<=', nowIso)
          .limit(size),
      )
      .executeTakeFirst();
    return result.numDeletedRows;
  });

  const keysBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  counts.idempotencyKeys = await drain(database, settings, async (trx, size) => {
    const result = await trx
      .deleteFrom('idempotency_keys')
      .where((eb) =>
        eb(
          eb.refTuple('form_id', 'key'),
          'in',
          eb
            .selectFrom('idempotency_keys as old')
            .select(['old.form_id', 'old.key'])
            .where('old.created_at', '<', keysBefore)
            .limit(size)
            .$asTuple('form_id', 'key'),
        ),
      )
      .executeTakeFirst();
    return result.numDeletedRows;
  });

  const outboxBefore = new Date(now.getTime() - OUTBOX_KEEP_MS).toISOString();
  counts.outbox = await drain(database, settings, async (trx, size) => {
    const result = await trx
      .deleteFrom('outbox')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('outbox')
          .select('id')
          .where('status', 'in', ['done', 'failed'])
          .where('done_at', '<', outboxBefore)
          .limit(size),
      )
      .executeTakeFirst();
    return result.numDeletedRows;
  });

  counts.webhookDeliveries = await drain(database, settings, async (trx, size) => {
    const result = await trx
      .deleteFrom('webhook_deliveries')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', 'in', ['succeeded', 'failed'])
          .where('updated_at', '<', outboxBefore)
          .limit(size),
      )
      .executeTakeFirst();
    return result.numDeletedRows;
  });

  for (const formId of await formsOfStrayClaims(database)) {
    if (settings.stopping()) return counts;
    // the form may exist again meanwhile (an id its owner chose, used again): its claims are kept
    const gone = (eb: ExpressionBuilder<Schema, 'response_addresses' | 'response_address_log'>) =>
      eb.not(eb.exists(eb.selectFrom('forms').select('id').where('id', '=', formId)));
    counts.strayClaims += await drain(database, settings, async (trx, size) => {
      // the log's rows of the form, by its form index (SQLite keeps every claim there; PostgreSQL none)
      const logged = await trx
        .deleteFrom('response_address_log')
        .where('form_id', '=', formId)
        .where('submission_id', 'in', (eb) =>
          eb
            .selectFrom('response_address_log')
            .select('submission_id')
            .where('form_id', '=', formId)
            .limit(size),
        )
        .where(gone)
        .executeTakeFirst();
      return logged.numDeletedRows;
    });
    counts.strayClaims += await drain(database, settings, async (trx, size) => {
      const indexed = await trx
        .deleteFrom('response_addresses')
        .where('form_id', '=', formId)
        .where('address_hash', 'in', (eb) =>
          eb
            .selectFrom('response_addresses')
            .select('address_hash')
            .where('form_id', '=', formId)
            .limit(size),
        )
        .where(gone)
        .executeTakeFirst();
      return indexed.numDeletedRows;
    });
  }

  const auditBefore = new Date(now.getTime() - settings.auditRetentionDays * DAY_MS).toISOString();
  counts.auditEntries = await drain(database, settings, (trx, size) =>
    deleteAuditBefore(trx, auditBefore, size),
  );
  return counts;
}

/** Runs `runRetention` every `intervalMs` (the first pass soon after start), never two at once. */
export class RetentionJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly database: Database,
    private readonly options: {
      intervalMs?: number;
      logger: FastifyBaseLogger;
      /** AUDIT_RETENTION_DAYS. */
      auditRetentionDays?: number;
      /** Called after a pass that deleted submissions: their files go too (the file sweep). */
      afterDeletingSubmissions?: () => void;
    },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const interval = this.options.intervalMs ?? RETENTION_INTERVAL_MS;
    this.schedule(Math.min(interval, 60_000));
  }

  /** Stops the timer and waits for a pass under way (which stops at its next batch). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.running = runRetention(this.database, new Date(), {
        stopping: () => this.stopped,
        auditRetentionDays: this.options.auditRetentionDays,
      })
        .then((counts) => {
          if (Object.values(counts).some((count) => count > 0)) {
            this.options.logger.info({ retention: counts }, 'retention pass deleted expired rows');
          }
          if (counts.submissions > 0) this.options.afterDeletingSubmissions?.();
          return true;
        })
        .catch((error: unknown) => {
          logFailure(this.options.logger, error, 'retention pass failed');
          return false;
        })
        .then((completed) => {
          this.running = undefined;
          const interval = this.options.intervalMs ?? RETENTION_INTERVAL_MS;
          // A pass cut short by an outage is tried again within a minute, not an hour later.
          if (!this.stopped) this.schedule(completed ? interval : Math.min(interval, RETRY_AFTER_FAILURE_MS));
        });
    }, delayMs);
    this.timer.unref();
  }
}
