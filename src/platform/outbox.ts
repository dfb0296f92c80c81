import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database, Trx } from './db/database.js';
import { decodeJson, encodeJson } from './db/dialect.js';
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
}

export async function appendToOutbox(
  trx: Trx,
  messages: readonly OutboxMessage[],
  now = nowIso(),
): Promise<void> {
  if (messages.length === 0) return;
  await trx
    .insertInto('outbox')
    .values(
      messages.map((message) => ({
        id: newId('obx'),
        kind: message.kind,
        payload: encodeJson(message.payload),
        status: 'pending' as const,
        attempts: 0,
        next_attempt_at: now,
        lease_until: null,
        last_error: null,
        created_at: now,
        done_at: null,
      })),
    )
    .execute();
}

/** Thrown by a handler for a failure that no retry can mend (the message is marked failed at once). */
export class PermanentFailure extends Error {}

export type OutboxHandler = (payload: unknown, context: { id: string; attempt: number }) => Promise<void>;

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
}

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
  private readonly handlers: Record<string, OutboxHandler>;

  constructor(
    private readonly database: Database,
    private readonly options: OutboxWorkerOptions,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.batchSize = options.batchSize ?? 20;
    this.handlers = { ...options.handlers };
  }

  /** Registers the handler of one kind of message (each feature brings its own). */
  handle(kind: string, handler: OutboxHandler): void {
    this.handlers[kind] = handler;
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
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'outbox worker failed a round'))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.nudge();
        } else {
          this.timer = setTimeout(() => this.nudge(), this.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Stops claiming; waits for the messages in hand to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const claimed = await this.claim();
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((row) => this.process(row)));
    }
  }

  private async claim() {
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
      .limit(this.batchSize);
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
    try {
      if (!handler) throw new PermanentFailure(`no handler for outbox messages of kind ${row.kind}`);
      await handler(decodeJson(row.payload), { id: row.id, attempt: row.attempts });
      await this.database.db
        .updateTable('outbox')
        .set({ status: 'done', done_at: nowIso(), lease_until: null, last_error: null })
        .where('id', '=', row.id)
        .execute();
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
    }
  }
}
