import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { Readable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { cpuSecondsOf, sampleRss } from './service.js';

/**
 * File uploads (API.md §12, `POST /forms/{id}/uploads`): one large file streamed from a
 * generator, never whole in memory on either side, timed with the service's RSS sampled, and
 * its stored bytes checked against the sha256 computed while sending; and the multipart body
 * of a small upload, built once for autocannon.
 */

export const MB = 1_000_000;
const CHUNK = 1024 * 1024;

/** A boundary random bytes will not hold by chance (70 characters, the most RFC 2046 allows). */
const boundary = () => `----intake-bench-${randomBytes(26).toString('hex')}`;

function framing(fieldId: string, fileName: string, mark: string): { head: Buffer; tail: Buffer } {
  const head =
    `--${mark}\r\nContent-Disposition: form-data; name="field"\r\n\r\n${fieldId}\r\n` +
    `--${mark}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  return { head: Buffer.from(head), tail: Buffer.from(`\r\n--${mark}--\r\n`) };
}

/**
 * Pseudo-random bytes, 1 MiB at a time: AES-128-CTR over zeros (cheap, so the load generator
 * takes little of the CPUs it shares with the service). A new buffer each time: the HTTP client
 * may still hold the last one.
 */
function* pseudoRandom(bytes: number): Generator<Buffer> {
  const cipher = createCipheriv('aes-128-ctr', randomBytes(16), randomBytes(16));
  const zeros = Buffer.alloc(CHUNK);
  for (let left = bytes; left > 0; left -= CHUNK) {
    yield cipher.update(left >= CHUNK ? zeros : zeros.subarray(0, left));
  }
}

/** The multipart body of one upload of `bytes` pseudo-random bytes, whole (for autocannon's small ones). */
export function uploadBody(fieldId: string, bytes: number): { body: Buffer; contentType: string } {
  const mark = boundary();
  const { head, tail } = framing(fieldId, 'one-megabyte.bin', mark);
  return {
    body: Buffer.concat([head, ...pseudoRandom(bytes), tail]),
    contentType: `multipart/form-data; boundary=${mark}`,
  };
}

export interface StreamedUpload {
  status: number;
  body: any;
  bytes: number;
  seconds: number;
  /** Seconds until the last byte was handed to the socket: the rest of `seconds` is the service finishing (fsync, rename, row). */
  sentSeconds: number;
  /** The sha256 of the file's bytes as they were sent. */
  sha256: string;
  rssBaseline: number;
  rssPeak: number;
  /** CPU time the service used during the upload (user + system). */
  serviceCpuSeconds: number;
}

/**
 * One upload of `bytes` pseudo-random bytes to `url`, the body an async iterable (the multipart
 * framing around 1 MiB chunks, hashed as they go), with the service's RSS sampled every 50 ms.
 */
export async function streamUpload(
  url: string,
  fieldId: string,
  bytes: number,
  servicePid: number,
): Promise<StreamedUpload> {
  const mark = boundary();
  const { head, tail } = framing(fieldId, 'one-hundred-megabytes.bin', mark);
  const hash = createHash('sha256');
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    for (const chunk of pseudoRandom(bytes)) {
      hash.update(chunk);
      yield chunk;
    }
    yield tail;
    sentAt = performance.now();
  }
  const cpuBefore = cpuSecondsOf(servicePid);
  const sampler = sampleRss(servicePid, 50);
  const started = performance.now();
  let sentAt = started;
  const response = await undiciRequest(url, {
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${mark}`,
      'content-length': String(head.length + bytes + tail.length),
    },
    // undici sends an async iterable as it is produced (its types name only Readable)
    body: body() as unknown as Readable,
  });
  const text = await response.body.text();
  const seconds = (performance.now() - started) / 1000;
  const { baseline, peak } = sampler();
  const serviceCpuSeconds = cpuSecondsOf(servicePid) - cpuBefore;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text.slice(0, 300);
  }
  return {
    status: response.statusCode,
    body: parsed,
    bytes,
    seconds,
    sentSeconds: (sentAt - started) / 1000,
    sha256: hash.digest('hex'),
    rssBaseline: baseline,
    rssPeak: peak,
    serviceCpuSeconds,
  };
}

/** Streams a download to its end: its status, length and sha256 (the body is not kept). */
export function downloadSha256(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha256: hash.digest('hex') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
