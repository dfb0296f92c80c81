import { type Kysely, sql, type Transaction } from 'kysely';
import { Batcher } from '../batcher.js';

type Work<DB, T> = (trx: Transaction<DB>) => Promise<T>;

interface Pending<DB> {
  work: Work<DB, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: units of write work that arrive while the previous commit is under way
 * (or within the same turn of the event loop) share one transaction and one fsync.
 * Each unit runs inside its own savepoint, so a unit that fails rolls back alone and
 * rejects alone; the others commit. No caller is answered before its commit is durable.
 *
 * Units must do database work only: the transaction is held while they run.
 */
export class GroupCommitter<DB> {
  private readonly batcher: Batcher<Pending<DB>>;
  /** Commits done whose durability is still being confirmed (see `durable`). */
  private readonly confirming = new Set<Promise<void>>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: {
      maxBatch?: number;
      /**
       * Makes what was committed so far durable, off the event loop; callers are answered
       * only after it resolves. Without it, the commit itself must be durable.
       */
      durable?: () => Promise<void>;
    } = {},
  ) {
    // one transaction at a time: SQLite has one writer
    this.batcher = new Batcher((batch) => this.commitBatch(batch), {
      maxInFlight: 1,
      maxBatch: options.maxBatch,
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

  /** Resolves once everything queued so far is committed (or failed) and confirmed. */
  async flush(): Promise<void> {
    await this.batcher.flush();
    await Promise.all(this.confirming);
  }

  private async commitBatch(batch: Pending<DB>[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const unit of batch) {
          if (batch.length === 1) {
            outcomes.push({ ok: true, value: await unit.work(trx) });
            continue;
          }
          await sql`savepoint unit`.execute(trx);
          try {
            const value = await unit.work(trx);
            await sql`release savepoint unit`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to savepoint unit`.execute(trx);
            await sql`release savepoint unit`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed (or a lone unit threw): nothing of the batch is durable.
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
}
