import { Readable, Transform } from 'node:stream';
import type { ListMultipartUploadsCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { isStorageUnavailable } from '../db/unavailable.js';
import { FileMissing, type FileStore, FileStoreUnavailable } from './file-store.js';
import { assertValidKey, assertValidRange } from './keys.js';

export interface S3FileStoreOptions {
  bucket: string;
  /** Prepended to every key: empty, or ending in `/` (config.ts makes it so). */
  prefix: string;
  /** Any S3-compatible endpoint; absent means AWS's own for the region. */
  endpoint?: string | undefined;
  region: string;
  /** Given by tests; otherwise the SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Bytes per multipart part (S3's minimum, 5 MiB, unless given). */
  partSize?: number;
}

/**
 * A multipart part is buffered whole before it is sent, and `QUEUE_SIZE` parts are in flight at
 * once while the next one fills: an upload holds about (QUEUE_SIZE + 1) × partSize bytes, 15 MiB,
 * whatever the file's size. S3's smallest part (5 MiB) keeps that low; 10,000 parts of it are
 * still far beyond FILE_MAX_BYTES.
 */
const DEFAULT_PART_SIZE = 5 * 1024 * 1024;

/**
 * The AWS SDK, loaded when an S3 store is opened. Imported statically, the bundle's top-level
 * imports would load its ~30 modules at every start (measured: +6 MiB of idle RSS), also on
 * instances that keep their files on disk.
 */
type Sdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/lib-storage'), 'Upload'>;

async function loadSdk(): Promise<Sdk> {
  const [client, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return { ...client, Upload: storage.Upload };
}
const QUEUE_SIZE = 2;

/** S3 error names that mean "not now" rather than "never": throttling and the service's own trouble. */
const UNAVAILABLE_NAMES = new Set([
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
  'RequestTimeout',
  'RequestTimeTooSkewed',
  'TimeoutError',
  'ThrottlingException',
]);

/**
 * Files in an S3-compatible bucket (API.md §12), under `FILE_STORAGE`'s prefix.
 *
 * `put` streams through a multipart upload (lib-storage's `Upload`; a file smaller than a part
 * is one PutObject): the object appears under its key only when the upload is completed, so a
 * failed or abandoned write is never visible. A failed one is aborted before `put` rejects; what a
 * crash leaves (an upload never completed nor aborted) is found by `sweepPartial`.
 */
export class S3FileStore implements FileStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;

  static async open(options: S3FileStoreOptions): Promise<S3FileStore> {
    return new S3FileStore(options, await loadSdk());
  }

  private constructor(
    options: S3FileStoreOptions,
    private readonly sdk: Sdk,
  ) {
    const { S3Client } = sdk;
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // A store that does not answer is an outage to report (503), not a request to wait on:
      // connecting is bounded, and so is the wait for an answer (a part is at most partSize bytes).
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000, throwOnRequestTimeout: true },
      // Other S3-compatible stores do not all know the SDK's newer default checksums (aws-chunked
      // bodies with trailing CRCs): sent only where the operation requires one, as before 2025.
      ...(options.endpoint
        ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }
        : {}),
    });
  }

  async put(key: string, source: Readable, options: { signal?: AbortSignal } = {}): Promise<void> {
    assertValidKey(key);
    const { signal } = options;
    signal?.throwIfAborted();
    const objectKey = this.prefix + key;
    let sourceError: unknown;
    const onSourceError = (error: unknown) => {
      sourceError ??= error;
    };
    source.once('error', onSourceError);
    // Aborting ends the source rather than calling Upload.abort(): abort() rejects done() at once
    // but leaves the parts in flight and the multipart upload behind, whereas a failing source
    // makes Upload wait for its parts, abort the multipart upload, and only then reject.
    const onAbort = () => source.destroy(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const upload = new this.sdk.Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: objectKey, Body: source },
        partSize: this.partSize,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      await upload.done();
      // An abort after the last byte was read may come as the object is completed: it is removed.
      if (signal?.aborted) {
        await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      }
    } catch (error) {
      if (!source.destroyed) source.destroy();
      if (signal?.aborted) throw signal.reason;
      if (sourceError !== undefined) throw sourceError;
      throw asUnavailable(error, `writing ${objectKey}`);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      source.off('error', onSourceError);
    }
    if (signal?.aborted) throw signal.reason;
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertValidKey(key);
    assertValidRange(range);
    try {
      const response = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const body = response.Body;
      if (!(body instanceof Readable)) throw new Error('S3 GetObject answered without a stream');
      return range ? cutToRange(body, response.ContentRange, range) : body;
    } catch (error) {
      if (isMissing(error)) throw new FileMissing(key);
      // A range starting past the end: no bytes, as a file read past its end gives none.
      if (errorName(error) === 'InvalidRange') return Readable.from([]);
      throw asUnavailable(error, `reading ${this.prefix + key}`);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(
        new this.sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }),
      );
    } catch (error) {
      // S3 answers 204 for an absent key; some compatible stores say 404.
      if (isMissing(error)) return;
      throw asUnavailable(error, `deleting ${this.prefix + key}`);
    }
  }

  async sweepPartial(olderThanMs: number): Promise<number> {
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    try {
      for (;;) {
        const page: ListMultipartUploadsCommandOutput = await this.client.send(
          new this.sdk.ListMultipartUploadsCommand({
            Bucket: this.bucket,
            Prefix: this.prefix,
            KeyMarker: keyMarker,
            UploadIdMarker: uploadIdMarker,
          }),
        );
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId) continue;
          // A write in progress is young; one older than the cutoff was left by a crash.
          if (upload.Initiated && upload.Initiated.getTime() > cutoff) continue;
          try {
            await this.client.send(
              new this.sdk.AbortMultipartUploadCommand({
                Bucket: this.bucket,
                Key: upload.Key,
                UploadId: upload.UploadId,
              }),
            );
            removed++;
          } catch (error) {
            if (errorName(error) !== 'NoSuchUpload') throw error; // completed or aborted meanwhile
          }
        }
        if (!page.IsTruncated) return removed;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    } catch (error) {
      throw asUnavailable(error, 'sweeping unfinished uploads');
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/**
 * HTTP lets a server ignore Range (a 200 with the whole object), and S3-compatible servers differ
 * at the edges (s3rver answers `bytes=0-0` with every byte): the body is cut to the range asked
 * for, from where its Content-Range says it starts (the object's start without one).
 */
function cutToRange(
  body: Readable,
  contentRange: string | undefined,
  range: { start: number; end: number },
): Readable {
  const given = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const bodyStart = given ? Number(given[1]) : 0;
  const bodyEnd = given ? Number(given[2]) : Number.POSITIVE_INFINITY;
  if (bodyStart === range.start && bodyEnd <= range.end) return body;
  if (bodyStart > range.start) {
    body.destroy();
    throw new Error(`S3 answered bytes from ${bodyStart} for a range from ${range.start}`);
  }
  let skip = range.start - bodyStart;
  let left = range.end - range.start + 1;
  const cut = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (left === 0) return callback(); // what was already on its way when the answer was cut
      let piece = chunk;
      if (skip > 0) {
        const skipped = Math.min(skip, piece.length);
        piece = piece.subarray(skipped);
        skip -= skipped;
      }
      if (left > 0 && piece.length > 0) {
        const kept = piece.subarray(0, left);
        left -= kept.length;
        this.push(kept);
      }
      // Everything asked for is out: the rest of the answer is not read.
      if (left === 0) {
        this.push(null);
        body.destroy();
      }
      callback();
    },
  });
  body.on('error', (error) => cut.destroy(error));
  return body.pipe(cut);
}

function errorName(error: unknown): string | undefined {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : undefined;
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  return errorName(error) === 'NoSuchKey' || errorName(error) === 'NotFound' || httpStatus(error) === 404;
}

/**
 * The store's "not now": a connection refused or dropped (Node's codes, as `isStorageUnavailable`
 * knows them), a timeout, throttling, or any 5xx. Anything else (a missing bucket, refused
 * credentials) is a misconfiguration, passed on as a 500 for the logs.
 */
function asUnavailable(error: unknown, doing: string): unknown {
  if (error instanceof FileStoreUnavailable) return error;
  const status = httpStatus(error);
  const name = errorName(error);
  const serverTrouble = status !== undefined && status >= 500;
  if (serverTrouble || (name && UNAVAILABLE_NAMES.has(name)) || isStorageUnavailable(error)) {
    const what = name && name !== 'Error' ? name : ((error as { code?: string }).code ?? 'unreachable');
    return new FileStoreUnavailable(`S3 file storage cannot serve now (${doing}: ${what})`, 5, error);
  }
  return error;
}
