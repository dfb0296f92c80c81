import { type ControlledTransaction, type Kysely, sql, type Transaction } from 'kysely';
import { Batcher, retryAfterS } from '../batcher.js';
import { StorageUnavailable } from './unavailable.js';

type Work<DB, T> = (trx: Transaction<DB>) => Promise<T>;

interface Pending<DB> {
  work: Work<DB, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitOptions {
  maxBatch?: number;
  /**
   * Makes what was committed so far durable, off the event loop; callers are answered
   * only after it resolves. Without it, the commit itself must be durable.
   */
  durable?: () => Promise<void>;
  /**
   * Whether the connection is inside a transaction (better-sqlite3's `inTransaction`).
   * SQLite rolls the whole transaction back by itself on some errors (SQLITE_FULL,
   * SQLITE_IOERR, SQLITE_NOMEM), in the middle of a batch as well as at COMMIT: this is how
   * the committer knows, instead of going on in autocommit mode.
   */
  inTransaction?: () => boolean;
  /** A unit still queued after this long is refused (503) without being run. */
  deadlineMs?: number;
}

/**
 * Group commit: units of write work that arrive while the previous commit is under way
 * (or within the same turn of the event loop) share one transaction and one fsync.
 * Each unit runs inside its own savepoint, so a unit that fails rolls back alone and
 * rejects alone; the others commit. No caller is answered before its commit is durable.
 *
 * When the transaction itself fails (COMMIT refused on a full disk, an I/O error, the
 * transaction rolled back under a unit's feet) every unit of the batch is rejected with
 * that error and nothing of the batch is stored, except in one case: a commit whose WAL
 * flush then fails (EIO from fdatasync) is in the database, readable, yet its units are
 * refused, since whether it would survive a power loss is unknown. Such rows may be stored
 * without having been acknowledged; acknowledged rows are always stored.
 *
 * Units must do database work only: the transaction is held while they run.
 */
export class GroupCommitter<DB> {
  private readonly batcher: Batcher<Pending<DB>>;
  /** Commits done whose durability is still being confirmed (see `durable`). */
  private readonly confirming = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: GroupCommitOptions = {},
  ) {
    // one transaction at a time: SQLite has one writer
    this.batcher = new Batcher((batch) => this.commitBatch(batch), {
      maxInFlight: 1,
      maxBatch: options.maxBatch,
      deadlineMs: options.deadlineMs,
      expire: (unit, waitedMs) =>
        unit.reject(
          new StorageUnavailable(
            `The database is too busy: the write waited ${Math.round(waitedMs)} ms without starting; retry later`,
            retryAfterS(this.batcher),
          ),
        ),
    });
  }

  /** Sizes of the last batches, for tests and benchmarks. */
  get batchSizes(): readonly number[] {
    return this.batcher.batchSizes;
  }

  run<T>(work: Work<DB, T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.batcher.add({ work, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Resolves once everything queued, meanwhile too, is committed (or failed) and confirmed. */
  async flush(): Promise<void> {
    await this.batcher.drain();
    await Promise.all(this.confirming);
  }

  private async commitBatch(batch: Pending<DB>[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    let trx: ControlledTransaction<DB>;
    try {
      // A ROLLBACK that failed earlier would make every BEGIN from now on fail: try again first.
      // (Should someone else's transaction be under way instead, this waits for it to end and
      // then fails harmlessly: only the committer starts transactions on SQLite.)
      if (this.options.inTransaction?.()) await sql`rollback`.execute(this.db).catch(() => undefined);
      trx = await this.db.startTransaction().execute();
    } catch (error) {
      for (const unit of batch) unit.reject(error);
      return;
    }
    try {
      for (const unit of batch) {
        outcomes.push(
          batch.length === 1 ? { ok: true, value: await unit.work(trx) } : await this.inSavepoint(trx, unit),
        );
        // A unit that went on after an error of SQLite's may have written outside the transaction
        // (autocommit): that much cannot be undone, but nothing more is written.
        if (this.transactionLost())
          throw new StorageUnavailable('The database rolled the transaction back; retry later');
      }
      await trx.commit().execute();
    } catch (error) {
      // SQLite may already have rolled back (SQLITE_FULL, SQLITE_IOERR at COMMIT): then this
      // ROLLBACK fails ("no transaction is active") and only gives the connection back.
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      for (const unit of batch) unit.reject(error);
      return;
    }
    const answer = () =>
      batch.forEach((unit, i) => {
        const outcome = outcomes[i];
        if (outcome?.ok) unit.resolve(outcome.value);
        else unit.reject(outcome ? outcome.error : new Error('unit did not run'));
      });
    if (!this.options.durable) return answer();
    // The next batch may commit while this one's sync is under way: the event loop and
    // the writer are free during the sync, and one sync can cover several commits.
    const confirmed = this.options.durable().then(answer, (error: unknown) => {
      for (const unit of batch) unit.reject(error);
    });
    this.confirming.add(confirmed);
    void confirmed.finally(() => this.confirming.delete(confirmed));
  }

  /** Runs one unit of a shared transaction: a failure undoes that unit alone, when it can. */
  private async inSavepoint(
    trx: Transaction<DB>,
    unit: Pending<DB>,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
    await sql`savepoint unit`.execute(trx);
    try {
      const value = await unit.work(trx);
      await sql`release savepoint unit`.execute(trx);
      return { ok: true, value };
    } catch (error) {
      // The whole transaction is gone (the units before this one with it): the batch fails
      // with this error. Without the probe, the ROLLBACK TO failing ("no such savepoint") tells.
      if (this.transactionLost()) throw error;
      try {
        await sql`rollback to savepoint unit`.execute(trx);
        await sql`release savepoint unit`.execute(trx);
      } catch {
        throw error;
      }
      return { ok: false, error };
    }
  }

  private transactionLost(): boolean {
    return this.options.inTransaction !== undefined && !this.options.inTransaction();
  }
}
