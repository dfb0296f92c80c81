import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FileMissing } from '../../platform/files/file-store.js';
import { respond } from '../../platform/http/schemas.js';
import { notFound } from '../../platform/problem.js';
import type { StoredFile } from './repo.js';
import type { FileService } from './service.js';

/**
 * A stored file sent to whoever may have it (the owner's route, a signed link): always as an
 * attachment (never shown by the browser as a page of this origin), under the type read from
 * its bytes, with `nosniff` and a `sandbox` policy, so that an HTML or SVG file with script in
 * it is never run here, even when opened on its own. A single byte range is honoured for
 * files stored plain (resuming a large download); encrypted files are sent whole.
 */

/** `Content-Disposition: attachment` with the original name (RFC 6266: an ASCII fallback and `filename*`). */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined; // several ranges or nonsense: the whole file
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

export async function sendFile(
  files: FileService,
  file: StoredFile,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  reply
    .header('content-disposition', attachmentHeader(await files.downloadName(file)))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cache-control', 'private, no-store')
    .header('etag', `"${file.sha256}"`);
  const plain = file.encryption === null;
  if (plain) reply.header('accept-ranges', 'bytes');
  const range = plain ? parseRange(request.headers.range, file.size) : undefined;
  if (range === 'unsatisfiable') {
    return reply.status(416).header('content-range', `bytes */${file.size}`).type(file.type).send('');
  }
  let stream: Awaited<ReturnType<FileService['open']>>;
  try {
    stream = await files.open(file, range);
  } catch (error) {
    if (error instanceof FileMissing) throw notFound('The file is no longer stored');
    throw error;
  }
  if (range) {
    reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', String(range.end - range.start + 1));
  } else {
    reply.header('content-length', String(file.size));
  }
  return reply.type(file.type).send(stream);
}

const fileBytes = () =>
  ({ '*/*': Type.String({ format: 'binary', description: 'Under the type read from its bytes' }) }) as const;

/** What `sendFile` answers, for a route's schema: the whole file, or the one range asked for. */
export const FILE_RESPONSES = {
  200: respond('The file', fileBytes(), ['Content-Disposition']),
  206: respond('The byte range asked for', fileBytes(), ['Content-Disposition']),
};
