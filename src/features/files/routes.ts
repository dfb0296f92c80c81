import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { isStorageUnavailable, unavailableProblem } from '../../platform/db/unavailable.js';
import { PUBLIC_ROUTE } from '../../platform/http/cors.js';
import { EXTRA_REQUEST_MEDIA, problems, respond, SECURITY, Timestamp } from '../../platform/http/schemas.js';
import { badRequest, notFound, Problem } from '../../platform/problem.js';
import { createRateLimiter, rateLimitHeaders } from '../../platform/rate-limit.js';
import { assertMaySubmit, formNotFound } from '../forms/access.js';
import { findFormCached } from '../forms/repo.js';
import { FILE_RESPONSES, sendFile } from './delivery.js';
import {
  bodyArrivedWhole,
  clientGone,
  cutShort,
  MultipartWatch,
  refusedMidBody,
  watchedPart,
} from './multipart-body.js';
import { findLinkedFile } from './repo.js';
import type { FileService } from './service.js';

/**
 * POST /forms/{id}/uploads (the first of two steps for JSON clients and page scripts, API.md
 * §12) and GET /files/{token} (the signed links). Who may upload to a form is who may submit
 * to it; uploads have a rate limit of their own, wider than the submissions' (a submission
 * may carry up to 20 files a field), counted per client address or per key's user.
 */

export const UploadOut = Type.Object(
  {
    uploadId: Type.String({ pattern: '^upl_' }),
    name: Type.String(),
    type: Type.String({ description: 'The type read from the bytes' }),
    size: Type.Integer({ minimum: 1 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    expiresAt: Timestamp,
  },
  { additionalProperties: false },
);

const UploadMedia = {
  'multipart/form-data': {
    schema: {
      type: 'object',
      required: ['field', 'file'],
      properties: {
        field: { type: 'string', description: 'The id of the file field (this part first)' },
        file: { type: 'string', format: 'binary', description: 'The file (one)' },
      },
    },
  },
};

const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

/** 413 when the request says it is larger than UPLOAD_MAX_BYTES (a lying length is caught while reading). */
export function assertUploadSize(request: FastifyRequest, maxBytes: number): void {
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes) {
    throw new Problem(
      413,
      'payload_too_large',
      `The body is larger than the limit of ${maxBytes} bytes (UPLOAD_MAX_BYTES)`,
    );
  }
}

/** The multipart parser's own words for a body cut short or malformed (they come without a code). */
const MALFORMED = /terminated early|unexpected end|malformed|boundary/i;

/** A multipart stream's own failures (cut short, malformed) as the client's 400, its limits as 413. */
export function multipartProblem(error: unknown, maxBytes: number): Problem | undefined {
  if (error instanceof Problem) return error;
  const status = (error as { statusCode?: number }).statusCode;
  const code = (error as { code?: string }).code;
  if (
    status === 413 ||
    code === 'FST_REQ_FILE_TOO_LARGE' ||
    code === 'FST_PARTS_LIMIT' ||
    code === 'FST_FILES_LIMIT'
  ) {
    return new Problem(
      413,
      'payload_too_large',
      `The body is larger than the limit of ${maxBytes} bytes (UPLOAD_MAX_BYTES), or has too many parts`,
    );
  }
  if (
    (typeof code === 'string' && code.startsWith('FST_')) ||
    (code === undefined && MALFORMED.test((error as Error).message ?? ''))
  ) {
    return badRequest('validation_failed', `The multipart body is malformed: ${(error as Error).message}`, {
      errors: [{ field: '(body)', code: 'malformed', message: 'is not a well-formed multipart body' }],
    });
  }
  return undefined;
}

export const fileRoutes =
  (context: AppContext, files: FileService): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { config, database } = context;
    const anonymous = createRateLimiter(context.rateLimitStore, {
      name: 'upload-ip',
      points: config.rateLimitPublic * 10,
      windowSeconds: 60,
    });
    const keyed = createRateLimiter(context.rateLimitStore, {
      name: 'upload-user',
      points: config.rateLimitAuthenticated * 10,
      windowSeconds: 60,
    });

    await app.register(async (scope) => {
      await scope.register(multipart, {
        limits: {
          fieldSize: 1024,
          fields: 4,
          // two: a second file is the route's own 400 ("send one file"), not the parser's 413
          files: 2,
          parts: 5,
          fileSize: config.uploadMaxBytes,
          headerPairs: 100,
        },
      });
      scope.withTypeProvider<TypeBoxTypeProvider>().post(
        '/forms/:id/uploads',
        {
          config: PUBLIC_ROUTE,
          schema: {
            tags: ['files'],
            summary: 'Upload one file for a file field (then submit its uploadId as the answer)',
            description:
              'Multipart: a part `field` naming the file field, then one part `file`. Whoever may submit to the form may upload to it. The file is judged by its bytes (size, `accept`, scanning) as it streams in. The upload id is good for one submission within 24 hours; an upload never used is deleted.',
            operationId: 'uploadFile',
            security: SECURITY.public,
            params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
            [EXTRA_REQUEST_MEDIA]: UploadMedia,
            response: {
              201: respond(
                'Stored and judged: submit `uploadId` as (one of) the field’s answer',
                { 'application/json': UploadOut },
                RATE_LIMIT,
              ),
              ...problems(400, 401, 403, 404, 413, 415, 429, 503),
            },
          },
        },
        async (request, reply) => {
          const { principal } = request;
          const form = await findFormCached(database.db, request.params.id);
          if (!form) throw formNotFound(request.params.id);
          assertMaySubmit(principal, form);
          const state = principal
            ? await keyed.consume(principal.userId)
            : await anonymous.consume(request.ip);
          reply.headers(rateLimitHeaders(state));
          assertUploadSize(request, config.uploadMaxBytes);
          if (!request.isMultipart()) {
            throw new Problem(
              415,
              'unsupported_media_type',
              'Send the file as multipart/form-data: a part `field`, then a part `file`',
            );
          }
          let fieldId: string | undefined;
          let stored: Awaited<ReturnType<FileService['take']>> | undefined;
          const aborted = new AbortController();
          request.raw.once('close', () => {
            if (clientGone(request.raw)) aborted.abort(new Error('the client went away'));
          });
          let watch: MultipartWatch | undefined;
          try {
            const parts = request.parts()[Symbol.asyncIterator]();
            // the first step pipes the request into the parser: the watch sees the same bytes from the first
            const first = parts.next();
            watch = new MultipartWatch(request.raw);
            for (let next = await first; !next.done; next = await parts.next()) {
              const part = next.value;
              if (part.type === 'field') {
                if (part.fieldname === 'field' && typeof part.value === 'string') fieldId = part.value;
                continue;
              }
              if (part.fieldname !== 'file' || stored) {
                part.file.resume();
                throw badRequest('validation_failed', 'Send one file, in a part named `file`', {
                  errors: [
                    {
                      field: part.fieldname || '(part)',
                      code: 'unknown_part',
                      message: 'is not a part this route takes: send `field`, then one `file`',
                    },
                  ],
                });
              }
              if (fieldId === undefined) {
                part.file.resume();
                throw badRequest(
                  'validation_failed',
                  'Name the file field in a part `field` before the part `file`',
                  {
                    errors: [
                      {
                        field: 'field',
                        code: 'required',
                        message: 'must come before the file and name a file field',
                      },
                    ],
                  },
                );
              }
              const source = watchedPart(part.file);
              const field = files.fileField(form, fieldId);
              stored = await files.take(form, field, part.filename, source, aborted.signal);
              if (part.file.truncated) {
                throw multipartProblem({ code: 'FST_REQ_FILE_TOO_LARGE' }, config.uploadMaxBytes);
              }
            }
            // nothing is acknowledged of a body that never came whole (a client gone, a lying length)
            if (!(await bodyArrivedWhole(request.raw, watch))) throw cutShort();
          } catch (error) {
            if (stored) await files.discard([stored]);
            // the client went away: its answer is never read, and nothing of it is an error of ours
            if (aborted.signal.aborted) throw cutShort();
            const problem =
              multipartProblem(error, config.uploadMaxBytes) ??
              (isStorageUnavailable(error) ? unavailableProblem(error) : undefined) ??
              // the part ended before its bytes did: the parser stopped at a body cut short
              ((error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE' && !watch?.closed
                ? cutShort()
                : undefined);
            if (problem) throw refusedMidBody(request, problem);
            // an error of ours (a 500): the connection is closed after it too
            if (!request.raw.complete && !request.raw.readableEnded) {
              request.raw.unpipe();
              reply.header('connection', 'close');
            }
            throw error;
          } finally {
            watch?.stop();
          }
          if (!stored) {
            throw badRequest('validation_failed', 'The body holds no file', {
              errors: [
                {
                  field: 'file',
                  code: 'required',
                  message: 'is missing: send the file in a part named `file`',
                },
              ],
            });
          }
          return reply.status(201).send({
            uploadId: stored.uploadId,
            name: stored.name,
            type: stored.type,
            size: stored.size,
            sha256: stored.sha256,
            expiresAt: stored.expiresAt ?? new Date().toISOString(),
          });
        },
      );
    });

    app.get(
      '/files/:token',
      {
        config: PUBLIC_ROUTE,
        schema: {
          tags: ['files'],
          summary: 'A file by its signed link (no credential; the link expires)',
          description:
            'The links that responses, CSV, webhooks and notification mail carry (`url`). Sent as an attachment under the type read from its bytes, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. An expired or altered link is 404.',
          operationId: 'getFileByLink',
          security: SECURITY.none,
          // as long as the router lets a parameter be (app.ts): any token it passes is a link or an altered one, 404
          params: Type.Object({ token: Type.String({ maxLength: 2048 }) }),
          response: {
            ...FILE_RESPONSES,
            ...problems(404, 503),
          },
        },
      },
      async (request, reply) => {
        const fileId = files.links.verify(request.params.token);
        // its submission or form deleted: dead at once, before the sweep removes the bytes
        const file = fileId ? await findLinkedFile(database.db, fileId) : undefined;
        if (!file) throw notFound('No such file, or its link has expired');
        return sendFile(files, file, request, reply);
      },
    );
  };
