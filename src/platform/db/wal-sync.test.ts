import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WalSync } from './wal-sync.js';

describe('WalSync', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('coalesces callers that arrive during a flush into one more flush, never into the one under way', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-wal-'));
    dirs.push(dir);
    const file = path.join(dir, 'db-wal');
    fs.writeFileSync(file, 'x');
    const wal = WalSync.open(file);
    const flushes: string[] = [];
    const original = fs.fdatasync;
    // count the flushes that reach the file system
    const counted = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      flushes.push('flush');
      original(fd, callback);
    }) as typeof fs.fdatasync;
    fs.fdatasync = counted;
    try {
      const first = wal.sync();
      // these arrive while the first flush runs: they must wait for a second one
      const [a, b, c] = [wal.sync(), wal.sync(), wal.sync()];
      expect(a).toBe(b);
      expect(b).toBe(c);
      expect(a).not.toBe(first);
      await Promise.all([first, a, b, c]);
      expect(flushes).toHaveLength(2);
      // idle again: a new caller starts a flush of its own
      await wal.sync();
      expect(flushes).toHaveLength(3);
    } finally {
      fs.fdatasync = original;
      wal.close();
    }
  });

  it('reports a failed flush to its callers', async () => {
    const wal = new WalSync(2 ** 30);
    await expect(wal.sync()).rejects.toThrow();
  });
});
