import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Action, environmentMismatch, manageDenial } from '../../platform/access.js';
import { actorOf, recordAudit } from '../../platform/audit.js';
import { requireAuthenticated } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { decodeCursor, toPage } from '../../platform/cursor.js';
import { parseBound } from '../../platform/http/bounds.js';
import { PUBLIC_ROUTE } from '../../platform/http/cors.js';
import { emptyBodyIsNone } from '../../platform/http/empty-body.js';
import { plainJsonWhenSuccessful } from '../../platform/http/plain-json.js';
import {
  EXTRA_REQUEST_MEDIA,
  HtmlPage,
  ListOf,
  noBody,
  problems,
  problemsOrPages,
  type ResponseHeader,
  respond,
  SECURITY,
} from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import { badRequest, notFound, unauthorized } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { findUserById } from '../accounts/repo.js';
import { parseEnvironmentName } from '../environments/names.js';
import { FILE_RESPONSES, sendFile } from '../files/delivery.js';
import { findFile, type StoredFile } from '../files/repo.js';
import { assertUploadSize } from '../files/routes.js';
import type { FileService } from '../files/service.js';
import { managedOrThrow } from '../forms/access.js';
import { findForm, findFormCached } from '../forms/repo.js';
import { requestedLanguageOf } from '../forms/translations.js';
import { addressBookOf } from './address-claims.js';
import { formPasswordOf } from './controls.js';
import { EXPORT_CONTENT, exportFormatOf, sendResponsesExport } from './exports.js';
import { acceptFormPosts, FORM_POST_MEDIA, type FormPostPages, formPost } from './form-posts.js';
import { fileIdentities, idempotencyOf } from './idempotency.js';
import { registerLegacyResponsesRoute } from './legacy-routes.js';
import type { FileTaker } from './post-body.js';
import { presentSubmission, presentSubmissions } from './presenter.js';
import { registerReplyRoute } from './reply-routes.js';
import {
  deleteSubmission,
  findSubmission,
  findSubmissionById,
  insertNote,
  listSubmissionsWithNotes,
  notesOf,
  type StoredSubmission,
  type SubmissionFilter,
} from './repo.js';
import { setFlagAudited, writeResponseChange } from './response-events.js';
import {
  OptionalScope,
  ResponsesQuery,
  type ResponsesQueryInput,
  SubmissionIdParams,
  SubmissionOut,
  SubmitBody,
  SubmitResult,
} from './schemas.js';
import type { SubmissionService } from './service.js';

const RATE_LIMIT: ResponseHeader[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

const IdempotencyHeaders = Type.Object({
  'Idempotency-Key': Type.Optional(
    Type.String({
      description:
        'Makes retries safe: the same key and body within 24 h answers the first result and stores nothing new (1 to 255 printable ASCII characters)',
    }),
  ),
  'X-Idempotency-Key': Type.Optional(Type.String({ description: 'The same as Idempotency-Key' })),
  'X-Form-Password': Type.Optional(
    Type.String({
      description:
        'The form’s password (API.md §15 access.password): missing or wrong is 401 password_required; a secret key needs none',
    }),
  ),
});

function requireParameter(value: string | undefined, name: string): string {
  if (value === undefined || value === '') {
    throw badRequest('invalid_parameter', `The query parameter ${name} is required`, {
      errors: [{ field: name, code: 'required', message: 'is required' }],
    });
  }
  return value;
}

export const submissionRoutes =
  (
    context: AppContext,
    submissions: SubmissionService,
    extra: {
      mailer?: Mailer;
      formPostPages: FormPostPages;
      files: FileService;
      fileSweep: { nudge(): void };
    },
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { database, envelope } = context;
    const tags = ['submissions'];

    // HTML form posts (urlencoded, multipart) are parsed for the submit route alone: a scope of its own.
    // Files a form post carries, taken into storage while the body is read (features/files),
    // thrown away again when the submission is refused; the rate limit counted at the first file.
    const taken = new WeakMap<
      FastifyRequest,
      { files: StoredFile[]; counted: Record<string, string> | undefined }
    >();
    const takeFile: FileTaker = async (request, fieldName, fileName, stream) => {
      const { id } = request.params as { id: string };
      const form = await submissions.formFor(request.principal, id);
      const field = form.definition.fields.find((candidate) => candidate.id === fieldName);
      if (field?.type !== 'file') return undefined;
      const state = taken.get(request) ?? { files: [], counted: undefined };
      taken.set(request, state);
      state.counted ??= await submissions.countAttempt(request.principal, request.ip);
      if (state.files.length === 0) assertUploadSize(request, context.config.uploadMaxBytes);
      const file = await extra.files.take(form, field, fileName, stream);
      state.files.push(file);
      return file.uploadId;
    };
    // only what no submission took: a 503 may come after its submission was stored (its files attached)
    const discardTaken = async (request: FastifyRequest) => {
      await extra.files.discardUnused(taken.get(request)?.files ?? []);
    };

    await app.register(async (scope) => {
      await acceptFormPosts(scope, extra.formPostPages, {
        take: takeFile,
        maxBytes: context.config.uploadMaxBytes,
      });
      scope.addHook('onError', async (request) => discardTaken(request));
      scope.withTypeProvider<TypeBoxTypeProvider>().post(
        '/forms/:id/submit',
        {
          config: PUBLIC_ROUTE,
          schema: {
            tags,
            summary: 'Submit answers to a form (anonymous to live forms; with a key to live, active, draft)',
            description:
              'JSON, or a plain HTML form post (`application/x-www-form-urlencoded`, `multipart/form-data`): each form field is an answer. A form post is answered for a browser (a 303 to `_redirect` or `ui.redirectUrl`, else an HTML page, errors too) unless its Accept prefers JSON.',
            operationId: 'submitForm',
            security: SECURITY.public,
            params: Type.Object({ id: Type.String({ maxLength: 200 }) }),
            headers: IdempotencyHeaders,
            body: SubmitBody,
            [EXTRA_REQUEST_MEDIA]: FORM_POST_MEDIA,
            response: {
              201: respond(
                'Stored (or the first result of this Idempotency-Key); a form post gets the thank-you page',
                { 'application/json': SubmitResult, 'text/html': HtmlPage },
                RATE_LIMIT,
              ),
              303: noBody('A form post with `_redirect` or `ui.redirectUrl`: stored; go to that page', [
                'Location',
                ...RATE_LIMIT,
              ]),
              ...problemsOrPages(400, 401, 403, 404, 409, 413, 429),
              // 401 password_required, 403 form_closed, 409 already_submitted: API.md §15
            },
          },
        },
        async (request, reply) => {
          const { principal } = request;
          const form = await submissions.formFor(principal, request.params.id);
          reply.headers(
            taken.get(request)?.counted ?? (await submissions.countAttempt(principal, request.ip)),
          );
          // an HTML form post, read against the form's fields (undefined for JSON)
          const post = formPost(request, form, extra.formPostPages);
          const { answers, sessionId, captchaToken } = post?.body ?? request.body;
          const result = await submissions.submit({
            form,
            principal,
            answers,
            sessionId,
            captchaToken,
            remoteIp: request.ip,
            // a post's files count by their bytes: the same post sent again makes new uploads of them
            idempotency: idempotencyOf(request, fileIdentities(taken.get(request)?.files ?? [])),
            // the language the client showed the form in, as it asks for its errors' words (API.md §13)
            language: requestedLanguageOf(form.definition, request),
            password: formPasswordOf(request.headers['x-form-password']),
          });
          // the first result of an Idempotency-Key again: this request's own files were not used
          await extra.files.discardUnused(taken.get(request)?.files ?? []);
          return post ? post.respond(reply, result) : reply.status(201).send(result);
        },
      );
    });

    /** The form named by `form_id`, checked against the caller and `environment`. */
    async function managedForm(
      request: FastifyRequest,
      formId: string,
      environment: string | undefined,
      action: Action,
    ) {
      const principal = requireAuthenticated(request);
      // The workspace and environment of a form never change: the cached copy decides access as well as a fresh one.
      const form = managedOrThrow(
        principal,
        await findFormCached(database.db, formId),
        formId,
        action,
        environment,
      );
      return { principal, form };
    }

    /** The submission `id` and its form, for the routes whose only required scope is the id. */
    async function managedSubmission(
      request: FastifyRequest,
      id: string,
      scope: { form_id?: string; environment?: string },
      action: Action,
    ) {
      const principal = requireAuthenticated(request);
      const environment = parseEnvironmentName(scope.environment, false);
      const submission = scope.form_id
        ? await findSubmission(database.db, scope.form_id, id)
        : await findSubmissionById(database.db, id);
      if (!submission) {
        // an unknown form named in form_id is a 404 too; nothing tells the two apart
        throw notFound(`No submission ${id}`);
      }
      const form = await findForm(database.db, submission.formId);
      if (!form) throw notFound(`No submission ${id}`);
      const denial = manageDenial(principal, form, action) ?? environmentMismatch(form, environment);
      if (denial) throw denial;
      return { principal, form, submission };
    }

    async function present(submission: StoredSubmission) {
      return presentSubmission(
        submission,
        await notesOf(database.db, [submission.id]),
        envelope,
        extra.files,
      );
    }

    app.get(
      '/responses',
      {
        schema: {
          tags,
          summary:
            "List a form's submissions, newest first (format=csv|xlsx|ndjson: all of them as a download)",
          operationId: 'listResponses',
          security: SECURITY.sessionOrSecretKey,
          querystring: ResponsesQuery,
          response: {
            200: respond(
              'A page of submissions; with format=csv, xlsx or ndjson every matching one, as that file',
              { 'application/json': ListOf(SubmissionOut), ...EXPORT_CONTENT },
              ['Content-Disposition'],
            ),
            ...problems(400, 401, 403, 404),
          },
        },
        // free-form answers: JSON.stringify writes them faster, with less garbage (plain-json.ts)
        preSerialization: plainJsonWhenSuccessful,
      },
      async (request, reply) => listResponses(request, reply, request.query),
    );

    /** GET /responses; the legacy GET /environments/{environment}/responses answers with it too. */
    async function listResponses(request: FastifyRequest, reply: FastifyReply, query: ResponsesQueryInput) {
      requireAuthenticated(request); // a missing credential is 401 before any parameter is judged
      const environment = parseEnvironmentName(query.environment, true);
      const formId = requireParameter(query.form_id, 'form_id');
      const format = exportFormatOf(query);
      const { form } = await managedForm(request, formId, environment, 'read');
      const filter: SubmissionFilter = {
        formId: form.id,
        statuses: query.status ? [query.status] : ['accepted', 'flagged'],
        from: parseBound(query.from, 'from'),
        to: parseBound(query.to, 'to'),
        starred: query.starred,
        read: query.read,
      };
      if (format) {
        return sendResponsesExport(
          reply,
          { db: database.db, envelope, files: extra.files },
          form,
          filter,
          format,
          query,
        );
      }
      const limit = query.limit ?? 50;
      const { submissions, notes } = await listSubmissionsWithNotes(database.db, filter, {
        limit,
        after: decodeCursor(query.cursor),
      });
      const page = toPage(submissions, limit);
      return {
        data: await presentSubmissions(page.rows, notes, envelope, extra.files),
        nextCursor: page.nextCursor,
      };
    }
    registerLegacyResponsesRoute(app, {
      list: listResponses,
      querystring: ResponsesQuery,
      item: SubmissionOut,
      exports: EXPORT_CONTENT,
      tags,
    });

    app.get(
      '/responses/:id',
      {
        schema: {
          tags,
          summary: 'Read one submission',
          operationId: 'getResponse',
          security: SECURITY.sessionOrSecretKey,
          params: SubmissionIdParams,
          querystring: OptionalScope,
          response: { 200: SubmissionOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        requireAuthenticated(request);
        const environment = parseEnvironmentName(request.query.environment, true);
        const formId = requireParameter(request.query.form_id, 'form_id');
        const { submission } = await managedSubmission(
          request,
          request.params.id,
          {
            form_id: formId,
            environment,
          },
          'read',
        );
        return present(submission);
      },
    );

    app.post(
      '/responses/:id/read',
      {
        schema: {
          tags,
          summary: 'Mark a submission read (body {read:false} marks it unread)',
          operationId: 'markResponseRead',
          security: SECURITY.sessionOrSecretKey,
          params: SubmissionIdParams,
          querystring: OptionalScope,
          body: Type.Union([
            Type.Object({ read: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
            Type.Null(),
          ]),
          response: { 200: SubmissionOut, ...problems(400, 401, 403, 404) },
        },
        // The body is optional: an empty one sent with a JSON content type counts as none.
        ...emptyBodyIsNone,
      },
      async (request) => {
        const { principal, submission } = await managedSubmission(
          request,
          request.params.id,
          request.query,
          'triage',
        );
        const read = request.body?.read ?? true;
        const view = await present({ ...submission, read });
        const change =
          read === submission.read ? undefined : { event: 'response.updated' as const, data: view };
        await writeResponseChange(context, submission, change, (trx) =>
          setFlagAudited(trx, principal, submission, 'read', read),
        );
        return view;
      },
    );

    app.post(
      '/responses/:id/star',
      {
        schema: {
          tags,
          summary: 'Star or unstar a submission',
          operationId: 'starResponse',
          security: SECURITY.sessionOrSecretKey,
          params: SubmissionIdParams,
          querystring: OptionalScope,
          body: Type.Object({ starred: Type.Boolean() }, { additionalProperties: false }),
          response: { 200: SubmissionOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { principal, submission } = await managedSubmission(
          request,
          request.params.id,
          request.query,
          'triage',
        );
        const { starred } = request.body;
        const view = await present({ ...submission, starred });
        const change =
          starred === submission.starred ? undefined : { event: 'response.updated' as const, data: view };
        await writeResponseChange(context, submission, change, (trx) =>
          setFlagAudited(trx, principal, submission, 'starred', starred),
        );
        return view;
      },
    );

    app.post(
      '/responses/:id/notes',
      {
        schema: {
          tags,
          summary: 'Add a note to a submission',
          operationId: 'addResponseNote',
          security: SECURITY.sessionOrSecretKey,
          params: SubmissionIdParams,
          querystring: OptionalScope,
          body: Type.Object(
            { text: Type.String({ minLength: 1, maxLength: 10_000 }) },
            { additionalProperties: false },
          ),
          response: { 200: SubmissionOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { principal, submission } = await managedSubmission(
          request,
          request.params.id,
          request.query,
          'triage',
        );
        if (request.body.text.trim() === '') {
          throw badRequest('validation_failed', 'A note needs some text', {
            errors: [{ field: 'text', code: 'minLength', message: 'must not be blank' }],
          });
        }
        const author = await findUserById(database.db, principal.userId);
        if (!author) throw unauthorized('The account behind this credential is gone');
        const note = {
          id: newId('note'),
          submissionId: submission.id,
          text: request.body.text,
          createdAt: nowIso(),
          author: {
            userId: author.id,
            email: author.email,
            keyId: principal.kind === 'session' ? null : principal.keyId,
          },
        };
        const notes = await notesOf(database.db, [submission.id]);
        const view = await presentSubmission(submission, [...notes, note], envelope, extra.files);
        await writeResponseChange(
          context,
          submission,
          { event: 'response.updated', data: view },
          async (trx) => {
            await insertNote(trx, note);
            await recordAudit(trx, {
              workspaceId: submission.workspaceId,
              actor: actorOf(principal),
              action: 'response.note_added',
              target: { type: 'response', id: submission.id },
            });
          },
        );
        return view;
      },
    );

    app.delete(
      '/responses/:id',
      {
        schema: {
          tags,
          summary: 'Delete a submission',
          operationId: 'deleteResponse',
          security: SECURITY.sessionOrSecretKey,
          params: SubmissionIdParams,
          querystring: OptionalScope,
          response: { 204: noBody('Deleted'), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { principal, submission } = await managedSubmission(
          request,
          request.params.id,
          request.query,
          'manageForms',
        );
        await writeResponseChange(context, submission, { event: 'response.deleted' }, async (trx) => {
          await deleteSubmission(trx, addressBookOf(context.database), submission);
          await recordAudit(trx, {
            workspaceId: submission.workspaceId,
            actor: actorOf(principal),
            action: 'response.deleted',
            target: { type: 'response', id: submission.id },
          });
        });
        // its files go with it: the sweep removes the bytes of files whose submission is gone
        extra.fileSweep.nudge();
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/responses/:id/files/:fileId',
      {
        schema: {
          tags,
          summary: 'Download a file of a submission',
          description:
            'The bytes as they were sent (decrypted when stored encrypted), as an attachment under the original name and the type read from the bytes, with `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. One byte range (`Range`) is honoured for files not stored encrypted.',
          operationId: 'getResponseFile',
          security: SECURITY.sessionOrSecretKey,
          params: Type.Object({
            id: Type.String({ maxLength: 200 }),
            fileId: Type.String({ maxLength: 200 }),
          }),
          querystring: OptionalScope,
          response: {
            ...FILE_RESPONSES,
            ...problems(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const { submission } = await managedSubmission(request, request.params.id, request.query, 'read');
        const file = await findFile(database.db, request.params.fileId);
        if (!file || file.submissionId !== submission.id || file.state !== 'attached') {
          throw notFound(`No file ${request.params.fileId} in submission ${submission.id}`);
        }
        return sendFile(extra.files, file, request, reply);
      },
    );

    // POST /responses/:id/reply (reply-routes.ts), where there is a mail transport
    if (extra.mailer) registerReplyRoute(app, { context, mailer: extra.mailer, managedSubmission, tags });
  };
