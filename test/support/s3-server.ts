import fs from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * A real S3-protocol server in the test process: s3rver (a dev dependency) on 127.0.0.1, a free
 * port, its objects in a temporary folder, one bucket made at start. The S3 store is tested
 * against it through the AWS SDK as in production, over HTTP, never against a mock of the client.
 *
 * s3rver 3.7 implements multipart uploads but neither ListMultipartUploads nor
 * AbortMultipartUpload, both of which the store relies on (`put` aborting a failed upload,
 * `sweepPartial` finding abandoned ones). They are added here, in front of its router, over its
 * own folder layout (each unfinished upload a folder holding its key and parts).
 */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Multipart uploads started and neither completed nor aborted, as the server holds them. */
  unfinishedUploads(): Promise<{ key: string; uploadId: string; initiated: Date }[]>;
  /** Makes every unfinished upload look `ms` older, for sweepPartial. */
  backdateUnfinishedUploads(ms: number): Promise<void>;
  /** The server goes down (connections refused from now on); its data stays until close(). */
  stop(): Promise<void>;
  /** After stop(): up again, on the same port and over the same data. */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
  run(): Promise<{ address: string; port: number }>;
  httpServer?: Server;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverConstructor;

/** s3rver's own account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'intake-test'): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-s3-'));
  const create = (port: number) =>
    new S3rver({
      address: '127.0.0.1',
      port,
      directory,
      silent: true,
      configureBuckets: [{ name: bucket }],
    });
  let server = create(0);
  const uploadsFolder = () => server.store.getResourcePath(bucket, undefined, 'uploads');

  const unfinishedUploads = async () => {
    let ids: string[];
    try {
      ids = await fs.promises.readdir(uploadsFolder());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const uploads = [];
    for (const uploadId of ids) {
      // s3rver writes the key once, when the upload starts: its time is the upload's start.
      const keyFile = path.join(uploadsFolder(), uploadId, 'key');
      const [key, stats] = await Promise.all([
        fs.promises.readFile(keyFile, 'utf8'),
        fs.promises.stat(keyFile),
      ]);
      uploads.push({ key, uploadId, initiated: stats.mtime });
    }
    return uploads;
  };

  const multipartExtension: Middleware = async (ctx, next) => {
    const [, bucketName, ...keyParts] = ctx.path.split('/').map(decodeURIComponent);
    if (bucketName !== bucket) return next();
    const key = keyParts.join('/');
    if (ctx.method === 'GET' && key === '' && 'uploads' in ctx.query) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const uploads = (await unfinishedUploads()).filter((upload) => upload.key.startsWith(prefix));
      ctx.body = {
        ListMultipartUploadsResult: {
          '@': { xmlns: 'http://s3.amazonaws.com/doc/2006-03-01/' },
          Bucket: bucket,
          Prefix: prefix,
          MaxUploads: 1000,
          IsTruncated: false,
          Upload: uploads.map((upload) => ({
            Key: upload.key,
            UploadId: upload.uploadId,
            Initiated: upload.initiated.toISOString(),
          })),
        },
      };
      return;
    }
    if (ctx.method === 'DELETE' && key !== '' && typeof ctx.query.uploadId === 'string') {
      const uploadId = ctx.query.uploadId;
      const found = (await unfinishedUploads()).find((upload) => upload.uploadId === uploadId);
      if (!found || found.key !== key) {
        ctx.status = 404;
        ctx.body = { Error: { Code: 'NoSuchUpload', Message: 'The specified upload does not exist.' } };
        return;
      }
      await fs.promises.rm(path.join(uploadsFolder(), uploadId), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    return next();
  };
  // Koa composes its middleware when it starts listening: this one goes just before the router (the last).
  const run = async () => {
    server.middleware.splice(server.middleware.length - 1, 0, multipartExtension);
    return server.run();
  };

  const { port } = await run();
  let running = true;
  const stop = async () => {
    if (!running) return;
    running = false;
    // Kept-alive connections from the SDK's agent would hold the server open otherwise.
    server.httpServer?.closeAllConnections();
    await server.close();
  };

  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: 'us-east-1',
    credentials: CREDENTIALS,
    unfinishedUploads,
    backdateUnfinishedUploads: async (ms) => {
      for (const upload of await unfinishedUploads()) {
        const when = new Date(upload.initiated.getTime() - ms);
        await fs.promises.utimes(path.join(uploadsFolder(), upload.uploadId, 'key'), when, when);
      }
    },
    stop,
    restart: async () => {
      if (running) return;
      server = create(port);
      await run();
      running = true;
    },
    close: async () => {
      await stop();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
