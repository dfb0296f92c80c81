import { hkdfSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { ClamdScanner } from '../../platform/files/clamd.js';
import { createFileStore } from '../../platform/files/index.js';
import { FileLinks } from './links.js';
import { fileRoutes } from './routes.js';
import { FileService } from './service.js';
import { FileSweep } from './sweep.js';

export { FileService } from './service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The files feature's service and sweep, for the entry point's checks and tests. */
    intakeFiles: Files;
  }
}

export interface FilesOptions {
  /** The master key, from which the signed links' key is derived (the same on every instance sharing it). */
  masterKey: Buffer;
  /** How often the sweep runs (tests shorten it); default hourly. */
  sweepIntervalMs?: number;
}

/** What the features above get: the service, and the sweep to nudge after deleting submissions. */
export interface Files {
  service: FileService;
  sweep: FileSweep;
}

/**
 * Files (API.md §12): the store (local disk or S3), the upload route and the signed links,
 * the sweep of what nothing uses any more. Hands back the service the submit path and the
 * pages take files through.
 */
export async function registerFiles(
  app: FastifyInstance,
  context: AppContext,
  options: FilesOptions,
): Promise<Files> {
  const { config } = context;
  const store = await createFileStore(config);
  const linkKey = Buffer.from(
    hkdfSync('sha256', options.masterKey, Buffer.alloc(0), 'intake file links v1', 32),
  );
  // PUBLIC_URL, else the address this process listens on (what a webhook receiver or a mail
  // reader on the same network can follow), else a path alone (not listening: tests that inject)
  const publicOrigin = config.publicUrl?.replace(/\/+$/, '');
  const origin = () => {
    if (publicOrigin) return publicOrigin;
    const address = app.server.address();
    if (address === null || typeof address === 'string') return '';
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`;
  };
  const links = new FileLinks(linkKey, config.fileLinkTtlS, origin);
  const scanner = config.clamdUrl ? new ClamdScanner(config.clamdUrl) : undefined;
  const service = new FileService(context, store, links, scanner && (() => scanner.createScan()));
  await app.register(fileRoutes(context, service));
  const sweep = new FileSweep(context.database, store, {
    logger: app.log,
    intervalMs: options.sweepIntervalMs,
  });
  app.addHook('onReady', async () => sweep.start());
  app.addHook('onClose', async () => {
    await sweep.stop();
    await store.close();
  });
  const files = { service, sweep };
  app.decorate('intakeFiles', files);
  return files;
}
