import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.js';
import { logFailure } from '../../platform/db/unavailable.js';
import type { FileStore } from '../../platform/files/file-store.js';
import { deleteFileRows, findSweepable } from './repo.js';

/**
 * The file sweep (API.md §12: "no file outlives its submission after a crash"): at start, then
 * hourly, and soon after anything deletes submissions (`nudge`), it deletes the bytes, then the
 * row, of uploads never used within 24 hours, forwarded files past their links' life, files
 * whose submission or form is gone, and writes a crash cut short; and the store's own leftovers
 * (temporary files, unfinished multipart uploads). Bytes go first: a row outlives its bytes
 * only until the next pass, never the other way round.
 */

export const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** A write still running after this long was cut short by a crash (another instance may be writing a slow one). */
const STALE_WRITE_MS = 6 * 60 * 60 * 1000;
const BATCH = 500;

export class FileSweep {
  private timer: NodeJS.Timeout | undefined;
  private nudged: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;
  /** Before any request of this process: what was being written earlier, this process did not write. */
  private readonly startedAt = Date.now();

  constructor(
    private readonly database: Database,
    private readonly store: FileStore,
    private readonly options: { logger: FastifyBaseLogger; intervalMs?: number },
  ) {}

  start(): void {
    this.stopped = false;
    void this.pass(true);
  }

  /** Runs a pass soon (debounced): submissions were deleted. */
  nudge(): void {
    if (this.stopped || this.nudged) return;
    this.nudged = setTimeout(() => {
      this.nudged = undefined;
      this.runOnce().catch((error: unknown) =>
        logFailure(this.options.logger, error, 'file sweep failed; retrying later'),
      );
    }, 50);
  }

  /** One pass now; resolves with the number of files removed. */
  async runOnce(atStart = false): Promise<number> {
    if (this.running) await this.running.catch(() => 0);
    this.running = this.sweep(atStart);
    try {
      return await this.running;
    } finally {
      this.running = undefined;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.nudged);
    await this.running?.catch(() => 0);
  }

  private async pass(atStart: boolean): Promise<void> {
    try {
      await this.runOnce(atStart);
    } catch (error) {
      logFailure(this.options.logger, error, 'file sweep failed; retrying later');
    }
    if (!this.stopped) {
      this.timer = setTimeout(() => void this.pass(false), this.options.intervalMs ?? SWEEP_INTERVAL_MS);
      this.timer.unref();
    }
  }

  private async sweep(atStart: boolean): Promise<number> {
    // On SQLite this process holds DATA_DIR and its database alone (the DATA_DIR lock): at start,
    // whatever was still being written before it started was cut short by a crash, however
    // recent. Elsewhere (PostgreSQL, a bucket) another instance may be writing: only the old.
    const alone = atStart && this.database.engine === 'sqlite';
    const partialAge =
      alone && this.store.kind === 'local' ? Date.now() - this.startedAt : STALE_WRITE_MS / 6;
    // every pass: a crash's leftovers younger than the age at start are not left for ever
    let removed = await this.store.sweepPartial(partialAge);
    for (;;) {
      if (this.stopped) return removed;
      const now = Date.now();
      const files = await findSweepable(
        this.database.db,
        new Date(now).toISOString(),
        new Date(alone ? this.startedAt : now - STALE_WRITE_MS).toISOString(),
        BATCH,
      );
      const gone: string[] = [];
      for (const file of files) {
        if (file.storageKey) {
          try {
            await this.store.delete(file.storageKey);
          } catch (error) {
            logFailure(
              this.options.logger,
              error,
              'could not delete a stored file; kept for the next sweep',
              {
                fileId: file.id,
              },
            );
            continue;
          }
        }
        gone.push(file.id);
      }
      await deleteFileRows(this.database.db, gone);
      removed += gone.length;
      if (files.length < BATCH || gone.length === 0) return removed;
    }
  }
}
