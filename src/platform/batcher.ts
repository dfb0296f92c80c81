/**
 * Cuts what arrives into batches: items queued in the same turn of the event loop, or while
 * earlier batches are being handled, are handed over together (up to `maxBatch`), with at
 * most `maxInFlight` batches in hand at once. The group committer and the submission
 * writer are built on it; `handle` settles each item of its batch itself and must not throw.
 */
export class Batcher<T> {
  private queue: T[] = [];
  private inFlight = 0;
  private scheduled = false;
  private readonly idle: Array<() => void> = [];
  /** Sizes of the last batches, for tests and the benchmark. */
  readonly batchSizes: number[] = [];

  constructor(
    private readonly handle: (batch: T[]) => Promise<void>,
    private readonly options: { maxInFlight?: number; maxBatch?: number } = {},
  ) {}

  add(item: T): void {
    this.queue.push(item);
    this.schedule();
  }

  /** Resolves once every item queued so far has been handled. */
  async flush(): Promise<void> {
    while (this.queue.length > 0 || this.inFlight > 0 || this.scheduled) {
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= (this.options.maxInFlight ?? 1)) return;
    this.scheduled = true;
    // setImmediate rather than a microtask: requests whose bytes arrived in the same turn
    // of the event loop are parsed and queued before the batch is cut.
    setImmediate(() => {
      this.scheduled = false;
      const batch = this.queue.splice(0, this.options.maxBatch ?? 500);
      if (batch.length === 0) return this.wakeIdle();
      this.batchSizes.push(batch.length);
      if (this.batchSizes.length > 100) this.batchSizes.shift();
      this.inFlight += 1;
      void this.handle(batch).finally(() => {
        this.inFlight -= 1;
        if (this.queue.length > 0) this.schedule();
        else this.wakeIdle();
      });
    });
  }

  private wakeIdle(): void {
    if (this.queue.length > 0 || this.inFlight > 0 || this.scheduled) return;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
