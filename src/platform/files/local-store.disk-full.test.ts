import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { FileMissing, FileStoreUnavailable } from './file-store.js';
import { LocalFileStore } from './local-store.js';

/**
 * A real full disk under the local store: a 1 MiB tmpfs, which only root can mount (CI runs as
 * root). Apart from the contract test because it runs `mount`, a program of the system around
 * the service (vitest.config.ts puts it in the process project). The mapping of each disk error
 * is checked without a disk in file-store.contract.test.ts.
 */
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-full-disk-'));
const mounted = (() => {
  if (process.getuid?.() !== 0 || process.platform !== 'linux') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

afterAll(() => {
  if (mounted) execFileSync('umount', [mountPoint], { stdio: 'ignore' });
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

describe('local store on a full disk', () => {
  it.skipIf(!mounted)(
    'answers FileStoreUnavailable, leaves no temporary file, and stores again once there is room',
    async () => {
      const store = new LocalFileStore(mountPoint);
      const fourMiB = Readable.from(Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024, 7)));
      await expect(store.put('full/fil_1', fourMiB)).rejects.toBeInstanceOf(FileStoreUnavailable);
      expect(fs.readdirSync(path.join(mountPoint, '.partial'))).toEqual([]);
      await expect(store.get('full/fil_1')).rejects.toBeInstanceOf(FileMissing);
      // "Not now", not "never": a file that fits is stored.
      await store.put('small/fil_1', Readable.from([Buffer.from('fits')]));
      const back: Buffer[] = [];
      for await (const chunk of await store.get('small/fil_1')) back.push(chunk as Buffer);
      expect(Buffer.concat(back).toString()).toBe('fits');
    },
  );
});
