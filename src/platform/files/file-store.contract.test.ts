import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateMultipartUploadCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../../../test/support/s3-server.js';
import { isStorageUnavailable, StorageUnavailable } from '../db/unavailable.js';
import { FileMissing, type FileStore, FileStoreUnavailable } from './file-store.js';
import { asUnavailable, LocalFileStore } from './local-store.js';
import { S3FileStore } from './s3-store.js';

/**
 * The promises every FileStore keeps (file-store.ts), checked the same way on local disk and on
 * an S3-protocol server (s3rver, over HTTP, through the AWS SDK as in production).
 */

const MiB = 1024 * 1024;
const BLOCK = 64 * 1024;

/** Block `index` of the generated content: a SHA-256 repeated, so any byte can be recomputed for ranges. */
function block(index: number): Buffer {
  const digest = createHash('sha256').update(`block-${index}`).digest();
  return Buffer.alloc(BLOCK, digest);
}

/** Bytes `start`..`end` (inclusive) of the generated content. */
function expectedBytes(start: number, end: number): Buffer {
  const parts: Buffer[] = [];
  for (let index = Math.floor(start / BLOCK); index * BLOCK <= end; index++) parts.push(block(index));
  const first = Math.floor(start / BLOCK) * BLOCK;
  return Buffer.concat(parts).subarray(start - first, end - first + 1);
}

/**
 * `size` bytes made block by block as they are read (never held whole), optionally failing with
 * `failWith` once `failAfter` bytes were given; `digest()` is the SHA-256 of what was given.
 */
function generated(size: number, options: { failAfter?: number; failWith?: Error; delayMs?: number } = {}) {
  const hash = createHash('sha256');
  let given = 0;
  let index = 0;
  const stream = new Readable({
    read() {
      const next = () => {
        if (options.failAfter !== undefined && given >= options.failAfter) {
          return stream.destroy(options.failWith ?? new Error('the source failed'));
        }
        if (given >= size) return stream.push(null);
        const chunk = block(index++).subarray(0, Math.min(BLOCK, size - given));
        given += chunk.length;
        hash.update(chunk);
        stream.push(chunk);
      };
      if (options.delayMs) setTimeout(next, options.delayMs);
      else next();
    },
  });
  return { stream, digest: () => hash.digest('hex'), given: () => given };
}

async function sha256Of(stream: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hex: hash.digest('hex'), bytes };
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What each store's test needs beyond the interface: what interrupted writes left, and a way to leave one. */
interface Harness {
  store: FileStore;
  /** Temporary files (local) or unfinished multipart uploads (S3) left now. */
  leftovers(): Promise<string[]>;
  /** Leaves what a crash mid-write leaves. */
  abandonWrite(key: string): Promise<void>;
  /** Makes every leftover look `ms` older. */
  backdateLeftovers(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function localHarness(): Promise<Harness> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-files-'));
  const partial = path.join(root, '.partial');
  const leftovers = async () => (fs.existsSync(partial) ? fs.readdirSync(partial) : []);
  return {
    store: new LocalFileStore(root),
    leftovers,
    abandonWrite: async () => {
      fs.mkdirSync(partial, { recursive: true });
      fs.writeFileSync(path.join(partial, `crashed-${Date.now()}`), 'half a file');
    },
    backdateLeftovers: async (ms) => {
      for (const name of await leftovers()) {
        const when = new Date(Date.now() - ms);
        fs.utimesSync(path.join(partial, name), when, when);
      }
    },
    close: async () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

function s3StoreOn(server: TestS3Server, prefix: string): Promise<S3FileStore> {
  return S3FileStore.open({
    bucket: server.bucket,
    prefix,
    endpoint: server.endpoint,
    region: server.region,
    credentials: server.credentials,
  });
}

async function s3Harness(): Promise<Harness> {
  const server = await startS3Server();
  const prefix = 'intake/';
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: server.credentials,
  });
  return {
    store: await s3StoreOn(server, prefix),
    leftovers: async () =>
      (await server.unfinishedUploads())
        .filter((upload) => upload.key.startsWith(prefix))
        .map((upload) => `${upload.key} ${upload.uploadId}`),
    abandonWrite: async (key) => {
      await client.send(new CreateMultipartUploadCommand({ Bucket: server.bucket, Key: prefix + key }));
    },
    backdateLeftovers: (ms) => server.backdateUnfinishedUploads(ms),
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
}

describe.each([
  ['local disk', localHarness],
  ['S3 (s3rver)', s3Harness],
])('FileStore contract: %s', (_name, makeHarness) => {
  let harness: Harness;
  let store: FileStore;
  beforeAll(async () => {
    harness = await makeHarness();
    store = harness.store;
  });
  afterAll(async () => {
    await store?.close();
    await harness?.close();
  });
  afterEach(async () => {
    expect(await harness.leftovers()).toEqual([]);
  });

  it('stores a 20 MB stream and gives back the same bytes, read as they arrive', async () => {
    const size = 20 * MiB + 12_345;
    const source = generated(size);
    await store.put('sub_contract/fil_big', source.stream);
    const back = await sha256Of(await store.get('sub_contract/fil_big'));
    expect(back).toEqual({ hex: source.digest(), bytes: size });
  });

  it('gives byte ranges, inclusive, also across a multipart part boundary and past the end', async () => {
    const size = 6 * MiB;
    await store.put('ranges/fil_1', generated(size).stream);
    const ranges = [
      { start: 0, end: 0 },
      { start: 10, end: 19 },
      { start: 5 * MiB - 3, end: 5 * MiB + 3 },
      { start: size - 5, end: size - 1 },
    ];
    for (const range of ranges) {
      expect(
        (await readAll(await store.get('ranges/fil_1', range))).equals(expectedBytes(range.start, range.end)),
      ).toBe(true);
    }
    // An end past the object's end gives what there is, as an HTTP range does.
    expect(
      (await readAll(await store.get('ranges/fil_1', { start: size - 2, end: size + 100 }))).length,
    ).toBe(2);
  });

  it('stores an empty file', async () => {
    await store.put('empty/fil_0', Readable.from([]));
    expect((await readAll(await store.get('empty/fil_0'))).length).toBe(0);
  });

  it('replaces what a key held', async () => {
    await store.put('replaced/fil_1', Readable.from([Buffer.from('first')]));
    await store.put('replaced/fil_1', Readable.from([Buffer.from('second')]));
    expect((await readAll(await store.get('replaced/fil_1'))).toString()).toBe('second');
  });

  it('throws FileMissing from get itself for an absent key, and deletes an absent key quietly', async () => {
    const missing = store.get('nothing/here');
    await expect(missing).rejects.toBeInstanceOf(FileMissing);
    await expect(missing).rejects.toMatchObject({ key: 'nothing/here' });
    await expect(store.delete('nothing/here')).resolves.toBeUndefined();
  });

  it('deletes: the key is missing afterwards', async () => {
    await store.put('deleted/fil_1', Readable.from([Buffer.from('bytes')]));
    await store.delete('deleted/fil_1');
    await expect(store.get('deleted/fil_1')).rejects.toBeInstanceOf(FileMissing);
    await store.delete('deleted/fil_1');
  });

  it('shows nothing under the key until the write is complete', async () => {
    const source = new Readable({ read() {} });
    const writing = store.put('inflight/fil_1', source);
    source.push(Buffer.alloc(6 * MiB, 1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(store.get('inflight/fil_1')).rejects.toBeInstanceOf(FileMissing);
    source.push(Buffer.alloc(1000, 2));
    source.push(null);
    await writing;
    expect((await sha256Of(await store.get('inflight/fil_1'))).bytes).toBe(6 * MiB + 1000);
  });

  it('rejects with the source’s own error when it fails half-way, and leaves nothing behind', async () => {
    const failure = new Error('the client went away');
    const source = generated(20 * MiB, { failAfter: 12 * MiB, failWith: failure });
    await expect(store.put('failed/fil_1', source.stream)).rejects.toBe(failure);
    expect(source.given()).toBeGreaterThanOrEqual(12 * MiB);
    await expect(store.get('failed/fil_1')).rejects.toBeInstanceOf(FileMissing);
    // afterEach: no temporary file, no unfinished multipart upload
  });

  it('rejects with the source’s error when it fails before the first part is full', async () => {
    const failure = new Error('early');
    await expect(
      store.put('failed/fil_2', generated(MiB, { failAfter: 100_000, failWith: failure }).stream),
    ).rejects.toBe(failure);
    await expect(store.get('failed/fil_2')).rejects.toBeInstanceOf(FileMissing);
  });

  it('stops when its signal aborts, rejecting with the reason and leaving nothing', async () => {
    const controller = new AbortController();
    const source = generated(40 * MiB, { delayMs: 1 });
    const writing = store.put('aborted/fil_1', source.stream, { signal: controller.signal });
    // Past the first part (5 MiB), so that on S3 a multipart upload exists and must be aborted.
    await expect.poll(() => source.given(), { timeout: 20_000 }).toBeGreaterThan(7 * MiB);
    const reason = new Error('request closed');
    controller.abort(reason);
    await expect(writing).rejects.toBe(reason);
    expect(source.stream.destroyed).toBe(true);
    await expect(store.get('aborted/fil_1')).rejects.toBeInstanceOf(FileMissing);
  });

  it('refuses to start with a signal already aborted', async () => {
    const reason = new Error('gone already');
    await expect(
      store.put('aborted/fil_2', Readable.from([Buffer.from('x')]), { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    await expect(store.get('aborted/fil_2')).rejects.toBeInstanceOf(FileMissing);
  });

  it('refuses keys that are not [a-z0-9_-] segments joined by / (a programming error)', async () => {
    const invalid = [
      '',
      '../escape',
      'a/../../b',
      '/absolute',
      'a//b',
      'a/',
      'Upper',
      'dot.ted',
      'back\\slash',
      '.partial/x',
    ];
    for (const key of invalid) {
      const refused = expect.objectContaining({ message: expect.stringMatching(/invalid file storage key/) });
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toEqual(refused);
      await expect(store.get(key)).rejects.toEqual(refused);
      await expect(store.delete(key)).rejects.toEqual(refused);
      await expect(store.get(key)).rejects.not.toBeInstanceOf(FileMissing);
    }
    await expect(store.get('ok/key', { start: 5, end: 2 })).rejects.toThrow(/invalid byte range/);
  });

  it('sweeps what interrupted writes left once they are old enough, and nothing younger', async () => {
    await harness.abandonWrite('sub_crashed/fil_1');
    expect(await harness.leftovers()).toHaveLength(1);
    expect(await store.sweepPartial(60_000)).toBe(0);
    expect(await harness.leftovers()).toHaveLength(1);
    await harness.backdateLeftovers(120_000);
    expect(await store.sweepPartial(60_000)).toBe(1);
    expect(await store.sweepPartial(60_000)).toBe(0);
  });
});

describe('S3 store: an S3 that is down', () => {
  let server: TestS3Server;
  let store: S3FileStore;
  beforeAll(async () => {
    server = await startS3Server();
    store = await s3StoreOn(server, '');
    await store.put('kept/fil_1', Readable.from([Buffer.from('kept')]));
    await server.stop();
  });
  afterAll(async () => {
    await store?.close();
    await server?.close();
  });

  it('answers every operation with FileStoreUnavailable (a 503), and the process goes on', async () => {
    const operations: [string, () => Promise<unknown>][] = [
      ['put', () => store.put('down/fil_1', generated(6 * MiB).stream)],
      ['small put', () => store.put('down/fil_2', Readable.from([Buffer.from('x')]))],
      ['get', () => store.get('kept/fil_1')],
      ['delete', () => store.delete('kept/fil_1')],
      ['sweepPartial', () => store.sweepPartial(0)],
    ];
    for (const [name, operation] of operations) {
      const error = await operation().then(
        () => new Error(`${name} succeeded`),
        (thrown: unknown) => thrown,
      );
      expect(error, name).toBeInstanceOf(FileStoreUnavailable);
      expect(error, name).toBeInstanceOf(StorageUnavailable);
      expect(isStorageUnavailable(error), name).toBe(true);
      expect((error as FileStoreUnavailable).message, name).toMatch(/S3 file storage cannot serve now/);
    }
  });

  it('keeps a source it failed to store from hanging: the source is destroyed', async () => {
    const source = generated(6 * MiB);
    await expect(store.put('down/fil_3', source.stream)).rejects.toBeInstanceOf(FileStoreUnavailable);
    expect(source.stream.destroyed).toBe(true);
  });
});

describe('local store: a disk that cannot take the file', () => {
  it('maps full, over-quota, failing, read-only disks and lack of descriptors to FileStoreUnavailable', () => {
    for (const code of ['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EMFILE', 'ENFILE']) {
      const mapped = asUnavailable(Object.assign(new Error(code), { code }));
      expect(mapped, code).toBeInstanceOf(FileStoreUnavailable);
      expect((mapped as FileStoreUnavailable).retryAfterS).toBeGreaterThan(0);
    }
    const other = Object.assign(new Error('permission'), { code: 'EACCES' });
    expect(asUnavailable(other)).toBe(other);
  });
});
