import fs from 'node:fs';

/**
 * Makes SQLite's committed transactions durable off the event loop. With
 * `synchronous=FULL` SQLite calls fdatasync on the WAL inside COMMIT, and better-sqlite3
 * runs COMMIT on the main thread, so every commit stopped the whole service for the length
 * of a disk flush. Instead the database runs with `synchronous=NORMAL` (COMMIT writes the
 * WAL frames but does not flush them) and the group committer answers no caller before
 * this fdatasync of the WAL, run in libuv's thread pool, has covered its commit: the same
 * flush of the same file that FULL would have done, in the same order relative to the
 * answer. Checkpoints still flush the WAL before copying it into the database file.
 *
 * Flushes are coalesced: callers that arrive while one is under way share the next one
 * (a flush that started before their commit cannot cover it).
 */
export class WalSync {
  private current: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(private readonly fd: number) {}

  static open(walFile: string): WalSync {
    return new WalSync(fs.openSync(walFile, 'r'));
  }

  /** Resolves once everything written to the WAL before this call is on stable storage. */
  sync(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.current) return this.start();
    const queued = this.current
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  close(): void {
    fs.closeSync(this.fd);
  }

  private start(): Promise<void> {
    const flush = new Promise<void>((resolve, reject) => {
      fs.fdatasync(this.fd, (error) => (error ? reject(error) : resolve()));
    }).finally(() => {
      if (this.current === flush) this.current = undefined;
    });
    this.current = flush;
    return flush;
  }
}
