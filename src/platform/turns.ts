/**
 * Work on one key done one at a time in this process, in the order it was asked for: the next
 * starts when the last has settled, whatever its outcome. For writes that check a version they
 * read first (a form's PUT): this process's requests then do not make each other retry, however
 * many arrive at once (20 concurrent PUTs of one form on PostgreSQL: about half gave up after
 * their retries, measured). Other processes still race; their writes keep the version check.
 *
 * At most `maxWaiting` wait on a key: work past that runs at once, beside the queue, relying on
 * the version check like another process's would. So a flood of requests to one key costs them
 * retries, never a line of unbounded length that everyone else waits at the end of.
 */
export class Turns {
  private readonly last = new Map<string, Promise<unknown>>();
  private readonly waiting = new Map<string, number>();

  constructor(private readonly maxWaiting = 16) {}

  take<T>(key: string, work: () => Promise<T>): Promise<T> {
    const count = this.waiting.get(key) ?? 0;
    if (count >= this.maxWaiting) return work();
    this.waiting.set(key, count + 1);
    const before = this.last.get(key) ?? Promise.resolve();
    const turn = before.then(work);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.last.set(key, settled);
    void settled.then(() => {
      const left = (this.waiting.get(key) ?? 1) - 1;
      if (left > 0) this.waiting.set(key, left);
      else this.waiting.delete(key);
      // the key forgotten once no turn waits behind this one
      if (this.last.get(key) === settled) this.last.delete(key);
    });
    return turn;
  }

  /** Keys with a turn under way or waiting (tests). */
  get busy(): number {
    return this.last.size;
  }
}
