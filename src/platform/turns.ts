/**
 * Work on one key done one at a time in this process, in the order it was asked for: the next
 * starts when the last has settled, whatever its outcome. For writes that check a version they
 * read first (a form's PUT): this process's requests then never make each other retry, however
 * many arrive at once (20 concurrent PUTs of one form on PostgreSQL: about half gave up after
 * their retries, measured). Other processes still race; their writes keep the version check.
 */
export class Turns {
  private readonly last = new Map<string, Promise<unknown>>();

  take<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.last.get(key) ?? Promise.resolve();
    const turn = before.then(work);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.last.set(key, settled);
    // the key forgotten once no turn waits behind this one
    void settled.then(() => {
      if (this.last.get(key) === settled) this.last.delete(key);
    });
    return turn;
  }

  /** Keys with a turn under way or waiting (tests). */
  get busy(): number {
    return this.last.size;
  }
}
