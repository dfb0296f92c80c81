import { performance } from 'node:perf_hooks';

/** How many of the last batches' durations `estimatedWaitMs` averages. */
const DURATIONS_KEPT = 20;

export interface BatcherOptions<T> {
  maxInFlight?: number;
  maxBatch?: number;
  /**
   * An item that has waited longer than this, still queued, is handed to `expire` instead of
   * to a batch: when its batch is cut, or by a timer when no batch is cut meanwhile (batches
   * in hand that take long). Items already in a batch are never expired.
   */
  deadlineMs?: number;
  expire?: (item: T, waitedMs: number) => void;
  /**
   * A batch is cut this long after the first of its items arrived, not in the turn it arrived
   * in: fewer and larger batches, for work no one waits on (the hosted page's views).
   */
  lingerMs?: number;
}

/**
 * Cuts what arrives into batches: items queued in the same turn of the event loop, or while
 * earlier batches are being handled, are handed over together (up to `maxBatch`), with at
 * most `maxInFlight` batches in hand at once. The group committer and the submission
 * writer are built on it; `handle` settles each item of its batch itself and must not throw.
 */
export class Batcher<T> {
  /** Oldest first: the overdue ones are always at the head. `seq` counts every item added. */
  private queue: Array<{ item: T; at: number; seq: number }> = [];
  private added = 0;
  private inFlight = 0;
  /** The first `seq` of each batch in hand (`flush` waits for those before its mark). */
  private readonly inHand = new Set<number>();
  private scheduled = false;
  /** The timer of a lingering batch (`lingerMs`), which `flush` cuts short. */
  private lingering: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  /** Called whenever items leave the queue or a batch is done: each `flush` checks its mark. */
  private readonly waiting: Array<() => void> = [];
  /** How long the last batches took to handle, in ms. */
  private readonly durations: number[] = [];
  /** Sizes of the last batches, for tests and the benchmark. */
  readonly batchSizes: number[] = [];

  constructor(
    private readonly handle: (batch: T[]) => Promise<void>,
    private readonly options: BatcherOptions<T> = {},
  ) {}

  /** Items queued and not yet in a batch. */
  get pending(): number {
    return this.queue.length;
  }

  add(item: T): void {
    this.queue.push({ item, at: performance.now(), seq: ++this.added });
    this.schedule();
    this.scheduleSweep();
  }

  /**
   * How long the items queued now would take to be handled: full batches (the queue is long
   * when it matters), each taking as long as the last ones did on average. Not a rate measured
   * over time, which the small batches before a surge would make far too slow. Undefined
   * before the first batch is handled.
   */
  estimatedWaitMs(): number | undefined {
    if (this.durations.length === 0) return undefined;
    const average = this.durations.reduce((sum, ms) => sum + ms, 0) / this.durations.length;
    const rounds =
      Math.ceil(this.queue.length / (this.options.maxBatch ?? 500)) / (this.options.maxInFlight ?? 1);
    return rounds * average;
  }

  /**
   * Resolves once every item queued so far has been handled (or expired); items queued after
   * the call are not waited for, so a steady stream of them never holds it up. A lingering batch
   * is cut at once.
   */
  async flush(): Promise<void> {
    const mark = this.added;
    this.cutLingering();
    const done = () => {
      const head = this.queue[0];
      if (head && head.seq <= mark) return false;
      for (const first of this.inHand) if (first <= mark) return false;
      return true;
    };
    while (!done()) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /**
   * Resolves once nothing is queued or in hand, items added meanwhile included: what a close
   * waits for before what the batches write to goes away. A lingering batch is cut at once.
   */
  async drain(): Promise<void> {
    this.cutLingering();
    while (this.queue.length > 0 || this.inFlight > 0 || this.scheduled) {
      this.cutLingering();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private cutLingering(): void {
    if (!this.lingering) return;
    clearTimeout(this.lingering);
    this.lingering = undefined;
    setImmediate(() => this.cut());
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= (this.options.maxInFlight ?? 1)) return;
    this.scheduled = true;
    // setImmediate rather than a microtask: requests whose bytes arrived in the same turn
    // of the event loop are parsed and queued before the batch is cut.
    if (this.options.lingerMs === undefined) setImmediate(() => this.cut());
    else
      this.lingering = setTimeout(() => {
        this.lingering = undefined;
        this.cut();
      }, this.options.lingerMs);
  }

  private cut(): void {
    this.scheduled = false;
    this.expireOverdue();
    const entries = this.queue.splice(0, this.options.maxBatch ?? 500);
    const first = entries[0]?.seq;
    if (first === undefined) {
      this.wake();
      return;
    }
    const batch = entries.map((entry) => entry.item);
    this.batchSizes.push(batch.length);
    if (this.batchSizes.length > 100) this.batchSizes.shift();
    this.inFlight += 1;
    this.inHand.add(first);
    const start = performance.now();
    void this.handle(batch).finally(() => {
      this.inFlight -= 1;
      this.inHand.delete(first);
      this.durations.push(performance.now() - start);
      if (this.durations.length > DURATIONS_KEPT) this.durations.shift();
      if (this.queue.length > 0) this.schedule();
      this.wake();
    });
  }

  private expireOverdue(): void {
    const { deadlineMs, expire } = this.options;
    if (deadlineMs === undefined || !expire) return;
    const now = performance.now();
    let overdue = 0;
    while (overdue < this.queue.length && now - (this.queue[overdue]?.at ?? now) > deadlineMs) overdue += 1;
    for (const entry of this.queue.splice(0, overdue)) expire(entry.item, now - entry.at);
    if (overdue > 0) this.wake();
  }

  /** One timer at a time, set for the moment the oldest queued item runs out. */
  private scheduleSweep(): void {
    const { deadlineMs, expire } = this.options;
    const oldest = this.queue[0];
    if (this.sweep || deadlineMs === undefined || !expire || !oldest) return;
    const delay = Math.max(0, oldest.at + deadlineMs - performance.now()) + 1;
    this.sweep = setTimeout(() => {
      this.sweep = undefined;
      this.expireOverdue();
      this.scheduleSweep();
    }, delay);
    // an expiry alone is no reason to keep the process running
    this.sweep.unref();
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/**
 * Seconds a refused client should wait: the time the queue would take to drain, at least
 * 1 s, at most a minute; 1 s when there is nothing to estimate it by yet.
 */
export function retryAfterS(batcher: Pick<Batcher<unknown>, 'estimatedWaitMs'>): number {
  const waitMs = batcher.estimatedWaitMs() ?? 0;
  return Math.min(60, Math.max(1, Math.ceil(waitMs / 1000)));
}
