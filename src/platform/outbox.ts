import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database, Trx } from './db/database.js';
import { decodeJson, encodeJson } from './db/dialect.js';
import { insertRows } from './db/insert.js';
import { isStorageUnavailable, logFailure } from './db/unavailable.js';
import { newId } from './ids.js';
import { nowIso } from './time.js';

/**
 * The outbox: side effects (e-mail now, webhook deliveries next) are rows written in the
 * same transaction as the change that causes them, so a commit can never lose them, and
 * carried out after commit by `OutboxWorker`, which survives restarts (rows are durable)
 * and crashes mid-send (a claimed row's lease runs out and it is claimed again).
 * Delivery is at least once: handlers must tolerate a repeat.
 */

export interface OutboxMessage {
  kind: string;
  payload: unknown;
  /** The row's id, when the caller must refer to it (a webhook delivery shows its next attempt). */
  id?: string;
}

export async function appendToOutbox(
  trx: Trx,
  messages: readonly OutboxMessage[],
  now = nowIso(),
): Promise<void> {
  await insertRows(trx, 'outbox', outboxRows(messages, now));
}

/** Messages as their rows of `outbox`, due at once. */
export const outboxRows = (messages: readonly OutboxMessage[], now: string) =>
  messages.map((message) => ({
    id: message.id ?? newId('obx'),
    kind: message.kind,
    payload: encodeJson(message.payload),
    status: 'pending' as const,
    attempts: 0,
    next_attempt_at: now,
    lease_until: null,
    last_error: null,
    created_at: now,
    done_at: null,
  }));

/** Thrown by a handler for a failure that no retry can mend (the message is marked failed at once). */
export class PermanentFailure extends Error {}

export interface OutboxAttempt {
  id: string;
  attempt: number;
  /** True when a failure of this attempt is the message's last: no retry follows it. */
  final: boolean;
}

export type OutboxHandler = (payload: unknown, context: OutboxAttempt) => Promise<void>;

export interface OutboxWorkerOptions {
  /** Handlers by message kind; features add theirs with `OutboxWorker.handle` before start. */
  handlers?: Record<string, OutboxHandler>;
  logger: FastifyBaseLogger;
  /** How often to look for due messages when nothing nudges the worker. */
  pollMs?: number;
  /** How long a claimed message is reserved for this worker before another may take it. */
  leaseMs?: number;
  /** Delays before attempt 2, 3, ...; after the last, the message is failed. */
  retryDelaysMs?: readonly number[];
  batchSize?: number;
  /** At most this many messages in hand at once (the rest wait in the table). */
  concurrency?: number;
}

/** How long a shutdown waits for the messages in hand (well within server.ts's own limit). */
const STOP_GRACE_MS = 5_000;

/** The longest pause between rounds while the database is unavailable. */
const MAX_BACKOFF_MS = 10_000;

/** About 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h (API.md §7), with jitter. */
export const DEFAULT_RETRY_DELAYS_MS = [5, 30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200].map(
  (s) => s * 1000,
);

export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private again = false;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly retryDelaysMs: readonly number[];
  private readonly batchSize: number;
  private readonly concurrency: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly handlers: Record<string, OutboxHandler>;
  /** Messages carried out whose `done` mark is about to be written (see markDone). */
  private finished: string[] = [];
  private marking: Promise<void> | undefined;
  /** Rounds failed in a row: the pause before the next one grows with it. */
  private failedRounds = 0;
  private readonly closers: Array<() => unknown> = [];

  constructor(
    private readonly database: Database,
    private readonly options: OutboxWorkerOptions,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.batchSize = options.batchSize ?? 20;
    this.concurrency = Math.max(1, options.concurrency ?? 32);
    this.handlers = { ...options.handlers };
  }

  /**
   * Registers the handler of one kind of message (each feature brings its own), and what to
   * close once the worker is closed for good: the connections its handler sends through.
   */
  handle(kind: string, handler: OutboxHandler, options: { close?: () => unknown } = {}): void {
    this.handlers[kind] = handler;
    if (options.close) this.closers.push(options.close);
  }

  /** `stop`, then the handlers' own resources closed: the service is shutting down. */
  async close(graceMs = STOP_GRACE_MS): Promise<void> {
    await this.stop(graceMs);
    for (const close of this.closers.splice(0)) await close();
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.nudge();
  }

  /** Look for due messages now (called after a commit that appended some). */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.drain()
      .then(() => {
        if (this.failedRounds > 0) this.options.logger.info('outbox worker resumed');
        this.failedRounds = 0;
      })
      .catch((error: unknown) => this.roundFailed(error))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          // While the database is away, wait longer between rounds (a commit nudges the worker
          // at once anyway, so service resumes with the first write after the outage).
          const delay = Math.min(this.pollMs * 2 ** this.failedRounds, Math.max(this.pollMs, MAX_BACKOFF_MS));
          this.timer = setTimeout(() => this.nudge(), delay);
          this.timer.unref();
        }
      });
  }

  /** An outage is told once, when it starts, not every round; anything else every time. */
  private roundFailed(error: unknown): void {
    this.failedRounds += 1;
    if (!isStorageUnavailable(error)) {
      this.options.logger.error({ err: error }, 'outbox worker failed a round');
    } else if (this.failedRounds === 1) {
      this.options.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'outbox worker paused: the database is unavailable; retrying with backoff',
      );
    }
  }

  /**
   * Stops claiming; waits for the messages in hand to finish, for at most `graceMs`: a receiver or
   * an SMTP server that hangs must not hold the shutdown. One abandoned is carried out again
   * once its lease runs out (delivery is at least once).
   */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([Promise.all([this.running, ...this.inFlight]), grace]);
    clearTimeout(timer);
  }

  /**
   * Claims due messages while there is room and hands each to its handler without waiting
   * for the rest of its batch: one slow receiver holds one slot, not the whole worker.
   * Returns when nothing more is due; messages still in hand finish on their own.
   */
  private async drain(): Promise<void> {
    // claim in bunches rather than one row per freed slot
    const minimumClaim = Math.max(1, Math.floor(Math.min(this.batchSize, this.concurrency) / 4));
    for (;;) {
      if (this.stopped) return;
      const room = this.concurrency - this.inFlight.size;
      if (room < minimumClaim) {
        await Promise.race(this.inFlight);
        continue;
      }
      const claimed = await this.claim(Math.min(room, this.batchSize));
      // A row can be seen as soon as it is committed; nothing leaves for the world before it is durable.
      if (claimed.length > 0) await this.database.durable();
      for (const row of claimed) {
        const work: Promise<void> = this.process(row)
          // Its outcome could not be written: the lease runs out and it is carried out again.
          .catch((error: unknown) =>
            logFailure(this.options.logger, error, 'outbox message lost its lease', { outboxId: row.id }),
          )
          .finally(() => this.inFlight.delete(work));
        this.inFlight.add(work);
      }
      if (claimed.length === 0) return;
    }
  }

  /**
   * Marks a message done together with the others finished in the same turn of the event
   * loop: one UPDATE for many, not one round trip each. A crash before it is written only
   * means the message is carried out again (delivery is at least once).
   */
  private markDone(id: string): Promise<void> {
    this.finished.push(id);
    this.marking ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        while (this.finished.length > 0) {
          const ids = this.finished.splice(0, 500);
          await this.database.db
            .updateTable('outbox')
            .set({ status: 'done', done_at: nowIso(), lease_until: null, last_error: null })
            .where('id', 'in', ids)
            .execute();
        }
      })
      .finally(() => {
        this.marking = undefined;
      });
    return this.marking;
  }

  private async claim(limit: number) {
    const now = nowIso();
    const leaseUntil = new Date(Date.now() + this.leaseMs).toISOString();
    const { db, engine } = this.database;
    let due = db
      .selectFrom('outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_at')
      .limit(limit);
    // Several instances on one PostgreSQL database share the work without taking the same rows.
    if (engine === 'postgres') due = due.forUpdate().skipLocked();
    return db
      .updateTable('outbox')
      .set({ lease_until: leaseUntil, attempts: sql<number>`attempts + 1` })
      .where('id', 'in', due)
      .returning(['id', 'kind', 'payload', 'attempts'])
      .execute();
  }

  private async process(row: { id: string; kind: string; payload: string; attempts: number }): Promise<void> {
    const handler = Object.hasOwn(this.handlers, row.kind) ? this.handlers[row.kind] : undefined;
    const final = this.retryDelaysMs[row.attempts - 1] === undefined;
    try {
      if (!handler) throw new PermanentFailure(`no handler for outbox messages of kind ${row.kind}`);
      await handler(decodeJson(row.payload), { id: row.id, attempt: row.attempts, final });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = this.retryDelaysMs[row.attempts - 1];
      const give_up = error instanceof PermanentFailure || delay === undefined;
      this.options.logger.warn(
        { outboxId: row.id, kind: row.kind, attempt: row.attempts, err: message },
        'outbox message failed',
      );
      await this.database.db
        .updateTable('outbox')
        .set(
          give_up
            ? { status: 'failed', lease_until: null, last_error: message, done_at: nowIso() }
            : {
                lease_until: null,
                last_error: message,
                // ±20 % jitter, so that many failures do not come back all at once
                next_attempt_at: new Date(Date.now() + delay * (0.8 + Math.random() * 0.4)).toISOString(),
              },
        )
        .where('id', '=', row.id)
        .execute();
      return;
    }
    // Carried out: a failure to record that is not a failure of the message (it is only
    // carried out again once its lease runs out: delivery is at least once).
    await this.markDone(row.id);
  }
}
