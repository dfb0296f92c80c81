import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { EICAR, type FakeClamd, startFakeClamd, unreachableClamdUrl } from '../../../test/support/clamd.js';
import { isStorageUnavailable, StorageUnavailable } from '../db/unavailable.js';
import { ClamdScanner, ScannerUnavailable } from './clamd.js';

const MiB = 1024 * 1024;

let clamd: FakeClamd | undefined;
afterEach(async () => {
  await clamd?.close();
  clamd = undefined;
});

/** `count` chunks of `size` bytes, made as they are read. */
function chunks(count: number, size = 64 * 1024, fill = 1): Readable {
  let made = 0;
  return new Readable({
    read() {
      this.push(made++ < count ? Buffer.alloc(size, fill) : null);
    },
  });
}

/** A sink that hashes what reaches it: what the store would have received. */
function hashingSink() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback();
    },
  });
  return { stream, result: () => ({ sha256: hash.digest('hex'), bytes }) };
}

describe('clamd scanner', () => {
  it('finds a clean file clean, scanning it as it streams through to the store unchanged', async () => {
    clamd = await startFakeClamd();
    const { stream, verdict } = new ClamdScanner(clamd.url).scanThrough();
    const sink = hashingSink();
    await pipeline(chunks(48), stream, sink.stream);
    await expect(verdict).resolves.toEqual({ infected: false });
    const expected = createHash('sha256');
    for (let i = 0; i < 48; i++) expected.update(Buffer.alloc(64 * 1024, 1));
    expect(sink.result()).toEqual({ sha256: expected.digest('hex'), bytes: 3 * MiB });
    expect(clamd.scans).toEqual([{ bytes: 3 * MiB, answer: 'stream: OK' }]);
  });

  it('finds the EICAR test file, also split across chunks', async () => {
    clamd = await startFakeClamd();
    const scan = new ClamdScanner(clamd.url).createScan();
    await scan.write(Buffer.from(`%PDF-1.4 ${EICAR.slice(0, 20)}`));
    await scan.write(Buffer.from(''));
    await scan.write(Buffer.from(EICAR.slice(20)));
    await expect(scan.end()).resolves.toEqual({ infected: true, signature: 'Eicar-Test-Signature' });
  });

  it('answers an unreachable clamd with ScannerUnavailable, a 503 like the storage’s', async () => {
    const scan = new ClamdScanner(await unreachableClamdUrl()).createScan();
    const error = await scan
      .write(Buffer.from('x'))
      .then(() => scan.end())
      .then(
        () => new Error('scanned without clamd'),
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(ScannerUnavailable);
    expect(error).toBeInstanceOf(StorageUnavailable);
    expect(isStorageUnavailable(error)).toBe(true);
    expect((error as ScannerUnavailable).message).toMatch(
      /clamd at 127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\)/,
    );
    expect((error as ScannerUnavailable).retryAfterS).toBeGreaterThan(0);
  });

  it('gives up on a clamd slow to answer after the timeout', async () => {
    clamd = await startFakeClamd({ answerDelayMs: 5_000 });
    const scan = new ClamdScanner(clamd.url, { timeoutMs: 200 }).createScan();
    await scan.write(Buffer.from('a file'));
    const started = Date.now();
    await expect(scan.end()).rejects.toThrow(/gave no verdict in 200 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives up on a clamd that stops reading the file after the timeout', async () => {
    clamd = await startFakeClamd({ stallWhileReceiving: true });
    const scan = new ClamdScanner(clamd.url, { timeoutMs: 300 }).createScan();
    const fill = Buffer.alloc(MiB, 3);
    // Loopback buffers take a few MiB before a write has to wait: enough is sent to fill them.
    const sending = (async () => {
      for (let i = 0; i < 256; i++) await scan.write(fill);
    })();
    await expect(sending).rejects.toThrow(/did not take the file in 300 ms/);
    await expect(sending).rejects.toBeInstanceOf(ScannerUnavailable);
  });

  it('names StreamMaxLength when clamd refuses a file as too large', async () => {
    clamd = await startFakeClamd({ streamMaxLength: 100 * 1024 });
    const { stream, verdict } = new ClamdScanner(clamd.url).scanThrough();
    const outcome = pipeline(chunks(32, 16 * 1024), stream, hashingSink().stream).then(() => verdict);
    await expect(outcome).rejects.toBeInstanceOf(ScannerUnavailable);
    await expect(outcome).rejects.toThrow(/StreamMaxLength/);
  });

  it('settles the verdict when the upload fails first, and reports no unhandled rejection', async () => {
    clamd = await startFakeClamd();
    const { stream, verdict } = new ClamdScanner(clamd.url).scanThrough();
    const failure = new Error('the client went away');
    const source = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(failure);
      },
    });
    await expect(pipeline(source, stream, hashingSink().stream)).rejects.toBe(failure);
    await expect(verdict).rejects.toBe(failure);
    expect(clamd.scans).toEqual([]);
  });

  it('answers PING', async () => {
    clamd = await startFakeClamd();
    await expect(new ClamdScanner(clamd.url).ping()).resolves.toBeUndefined();
    await expect(new ClamdScanner(await unreachableClamdUrl()).ping()).rejects.toBeInstanceOf(
      ScannerUnavailable,
    );
  });

  it('takes only tcp:// URLs', () => {
    expect(() => new ClamdScanner('http://127.0.0.1:3310')).toThrow(/tcp:\/\/host:port/);
  });
});
