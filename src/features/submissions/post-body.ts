import type { Readable } from 'node:stream';
import type { FastifyError, FastifyRequest } from 'fastify';
import { isStorageUnavailable, unavailableProblem } from '../../platform/db/unavailable.js';
import { badRequest, Problem } from '../../platform/problem.js';
import {
  bodyArrivedWhole,
  clientGone,
  cutShort,
  MultipartWatch,
  refusedMidBody,
  watchedPart,
} from '../files/multipart-body.js';

/**
 * The body of a browser's form post, read into fields: urlencoded (as @fastify/formbody parsed
 * it) or multipart, streamed part by part with its files handed to storage as they come. Used by
 * the submit route's form posts (form-posts.ts) and by the hosted pages, which read their own.
 */

export type Fields = Record<string, unknown>;

/** `a=1&a=2` and `a[]=1` make arrays; the object has no prototype, so no name can reach one. */
function addField(fields: Fields, rawName: string, value: unknown): void {
  const list = rawName.endsWith('[]') && rawName.length > 2;
  const name = list ? rawName.slice(0, -2) : rawName;
  const existing = fields[name];
  if (existing === undefined) fields[name] = list ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else fields[name] = [existing, value];
}

/**
 * The fields of a urlencoded body as @fastify/formbody parsed it, read as a form post is read
 * here: repeated names, and `name[]`, make arrays. For the hosted pages, which read their own posts.
 */
export function formFields(body: unknown): Fields {
  const fields: Fields = Object.create(null);
  if (body === null || typeof body !== 'object') return fields;
  for (const [name, value] of Object.entries(body as Fields)) {
    for (const item of Array.isArray(value) ? value : [value]) addField(fields, name, item);
  }
  return fields;
}

const tooLarge = () =>
  new Problem(
    413,
    'payload_too_large',
    'The body (or a file in it) is larger than the limit (1 MiB of fields; UPLOAD_MAX_BYTES of files)',
  );

/**
 * Takes one file part of a form post into storage as an upload (features/files), for the field
 * the part is named after: its upload id, or undefined when the form has no file field of that
 * name (the part is then refused like any stray file).
 */
export type FileTaker = (
  request: FastifyRequest,
  fieldName: string,
  fileName: string,
  stream: Readable,
) => Promise<string | undefined | null>;

const unnamedPart = () =>
  badRequest('validation_failed', 'A part of the multipart body has no name', {
    errors: [
      { field: '(part)', code: 'unnamed_part', message: 'has no name: each part is named by its field' },
    ],
  });

/**
 * A multipart form post's fields, its files taken by `takeFile` (whose `null` means: read, and no
 * answer); a body over `maxBodyBytes` (UPLOAD_MAX_BYTES, however it comes: one file, many, or a
 * chunked body of no declared length) is 413.
 */
export async function readMultipartPost(
  request: FastifyRequest,
  limit: number,
  takeFile: FileTaker | undefined,
  maxBodyBytes?: number,
): Promise<Fields> {
  const fields: Fields = Object.create(null);
  const raw = request.raw;
  let size = 0;
  // the whole body counted as it arrives: the file part under way is cut off as soon as it is over
  let over = false;
  let current: Readable | undefined;
  let watch: MultipartWatch | undefined;
  try {
    const parts = request
      .parts({ limits: { fieldSize: limit, fields: 1000, parts: 1000 } })
      [Symbol.asyncIterator]();
    // the first step pipes the request into the parser: the watch sees the same bytes from the first
    const first = parts.next();
    watch = new MultipartWatch(raw, (received) => {
      if (maxBodyBytes === undefined || over || received <= maxBodyBytes) return;
      over = true;
      current?.destroy(tooLarge());
    });
    for (let next = await first; !next.done; next = await parts.next()) {
      const part = next.value;
      if (over) {
        if (part.type === 'file') part.file.resume();
        throw tooLarge();
      }
      if (part.type === 'file') {
        // a file input left empty is posted as a part with no name and no bytes: no answer
        if (part.filename === '') {
          part.file.resume();
          continue;
        }
        if (!part.fieldname) {
          part.file.resume();
          throw unnamedPart();
        }
        current = watchedPart(part.file);
        const uploadId = takeFile
          ? await takeFile(request, part.fieldname, part.filename, current)
          : undefined;
        current = undefined;
        if (over) throw tooLarge();
        if (uploadId === undefined) {
          part.file.resume(); // let the rest of the body flow past
          throw badRequest('validation_failed', 'This form takes no file under that name', {
            errors: [
              {
                field: part.fieldname,
                code: 'file_not_accepted',
                message: 'is a file, and this form has no file question of that name',
              },
            ],
          });
        }
        if (part.file.truncated) throw tooLarge();
        if (uploadId !== null) addField(fields, part.fieldname, uploadId);
        continue;
      }
      if (!part.fieldname) throw unnamedPart();
      if (part.valueTruncated || part.fieldnameTruncated) throw tooLarge();
      const text = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      size += Buffer.byteLength(part.fieldname) + Buffer.byteLength(text ?? '');
      if (size > limit) throw tooLarge();
      addField(fields, part.fieldname, part.value);
    }
    if (over) throw tooLarge();
    // nothing is acted on of a body that never came whole (a client gone, a lying length)
    if (!(await bodyArrivedWhole(raw, watch))) throw cutShort();
  } catch (error) {
    // the client went away: its answer is never read, and nothing of it is an error of ours
    if (clientGone(raw)) throw cutShort();
    throw refusedMidBody(request, multipartError(error, over));
  } finally {
    watch?.stop();
  }
  return fields;
}

/** What ended the reading of a multipart body, as the problem to answer. */
function multipartError(error: unknown, over: boolean): Problem {
  if (error instanceof Problem) return error;
  if (over) return tooLarge();
  const status = (error as FastifyError).statusCode;
  if (status === 413 || (error as FastifyError).code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (isStorageUnavailable(error)) return unavailableProblem(error);
  return badRequest('validation_failed', `The multipart body is malformed: ${(error as Error).message}`, {
    errors: [{ field: '(body)', code: 'malformed', message: 'is not a well-formed multipart body' }],
  });
}
