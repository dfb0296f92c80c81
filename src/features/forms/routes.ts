import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { environmentMismatch } from '../../platform/access.js';
import { type Principal, requireSessionOrSecretKey } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { decodeCursor, toPage } from '../../platform/cursor.js';
import { PUBLIC_ROUTE } from '../../platform/http/cors.js';
import { answerInPlainJson } from '../../platform/http/plain-json.js';
import {
  EnvironmentQuery,
  ListOf,
  noBody,
  problems,
  SECURITY,
  StringEnum,
  withHeaders,
} from '../../platform/http/schemas.js';
import { validatorCompiler } from '../../platform/http/validation.js';
import { appendVary } from '../../platform/http/vary.js';
import { Problem } from '../../platform/problem.js';
import { chooseLanguage } from '../../shared/i18n/negotiate.js';
import { parseEnvironmentName } from '../environments/names.js';
import { assertReachesEnvironment } from '../environments/repo.js';
import { listWebhooksOfForms } from '../webhooks/repo.js';
import { formNotFound, readView } from './access.js';
import { closedReasonOf } from './access-rules.js';
import { createForm, deleteFormById, etagOf, etagWithDraft, matchesTag, updateFormById } from './commands.js';
import { type AccessState, presentForm, presentPublicForm } from './presenter.js';
import { acceptedCount, acceptedCounts, findForm, listForms, type StoredForm } from './repo.js';
import {
  CreateFormBody,
  FORM_STATUSES,
  FormOrPublicOut,
  FormOut,
  type FormStatus,
  PublicFormOut,
  UpdateFormBody,
} from './schemas.js';
import { languagesOf } from './translations.js';
import { formsWithWorkingCopies } from './working-copy-repo.js';

const FormIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const OptionalEnvironment = Type.Object({ environment: Type.Optional(EnvironmentQuery) });
const ListQuery = Type.Object({
  environment: Type.Optional(EnvironmentQuery),
  status: Type.Optional(StringEnum(FORM_STATUSES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
});

const IfNoneMatch = Type.Object({
  'If-None-Match': Type.Optional(
    Type.String({
      description: 'An ETag of the form: while it is current the answer is 304, without a body',
    }),
  ),
});
const NotModified = noBody('Not modified: the version in If-None-Match is current', ['ETag']);

/** Form bodies are checked by the form definition validator, which lists every problem as invalid_form. */
const bodyValidatedInHandler = {
  config: { formDefinitionBody: true },
  validatorCompiler: ((context) =>
    context.httpPart === 'body' ? () => true : validatorCompiler(context)) satisfies typeof validatorCompiler,
};

/** A form's representation depends on who asks: with which credential, the dashboard's cookie included. */
const CREDENTIAL_HEADERS = ['Authorization', 'X-API-Key', 'X-Publishable-Key', 'Cookie'];

/**
 * Answers that depend on the caller are theirs alone: `Vary` keeps a browser's cache from
 * handing the owner's view to the next person (the cookie gone after log-out, another user), and
 * `private` keeps shared caches from storing it at all (they may store a cookie request's answer).
 */
function callerDependent(reply: FastifyReply, principal: Principal | null): FastifyReply {
  appendVary(reply, ...CREDENTIAL_HEADERS);
  return principal === null ? reply : reply.header('cache-control', 'private');
}

/**
 * What features above forms hear of (handed down by app.ts), once a form's deletion has committed:
 * its files are swept, and what this process holds of its `oncePer` claims in memory let go.
 */
export interface FormHooks {
  afterDelete?: (formId: string) => void;
}

export const formRoutes =
  (context: AppContext, hooks: FormHooks = {}): FastifyPluginAsyncTypebox =>
  async (app) => {
    // a form's answers: JSON.stringify, not the schema's compiled unions (plain-json.ts)
    answerInPlainJson(app);
    const { database } = context;
    const tags = ['forms'];

    async function presentOne(form: StoredForm) {
      const [webhooks, withCopies] = await Promise.all([
        listWebhooksOfForms(database.db, [form.id]),
        formsWithWorkingCopies(database.db, [form.id]),
      ]);
      return presentForm(form, webhooks, withCopies.has(form.id));
    }

    /** Full views of these forms, their webhooks fetched in one query. */
    async function presentFull(forms: StoredForm[]) {
      const ids = forms.map((form) => form.id);
      const [webhooks, withCopies] = await Promise.all([
        listWebhooksOfForms(database.db, ids),
        formsWithWorkingCopies(database.db, ids),
      ]);
      return forms.map((form) =>
        presentForm(
          form,
          webhooks.filter((webhook) => webhook.formId === form.id),
          withCopies.has(form.id),
        ),
      );
    }

    /** A closed reason in an entity tag (letters, digits and hyphens). */
    const tagOf = (reason: string) => reason.replaceAll('_', '-');

    /** The moment and, for a form with a limit, its count: what the public view's `access` is judged by. */
    async function accessStateOf(
      form: StoredForm,
    ): Promise<Required<Pick<AccessState, 'now'>> & AccessState> {
      const now = Date.now();
      if (form.definition.access?.maxSubmissions === undefined) return { now };
      return { now, accepted: await acceptedCount(database.db, form.id) };
    }

    /** Public views of a page of forms, the counts of those with a limit read in one query. */
    async function presentPublicPage(forms: StoredForm[]) {
      const now = Date.now();
      const limited = forms.filter((form) => form.definition.access?.maxSubmissions !== undefined);
      const counts = await acceptedCounts(
        database.db,
        limited.map((form) => form.id),
      );
      return forms.map((form) =>
        presentPublicForm(form, undefined, { now, accepted: counts.get(form.id) ?? 0 }),
      );
    }

    async function loadForm(id: string): Promise<StoredForm> {
      const form = await findForm(database.db, id);
      if (!form) throw formNotFound(id);
      return form;
    }

    function listStatuses(principal: Principal | null, asked: FormStatus | undefined): readonly FormStatus[] {
      if (principal === null) return asked === undefined || asked === 'live' ? ['live'] : [];
      if (asked) return [asked];
      return FORM_STATUSES.filter((status) => status !== 'archived');
    }

    async function listHandler(
      request: FastifyRequest,
      query: { environment?: string; status?: FormStatus; limit?: number; cursor?: string },
    ) {
      const environment = parseEnvironmentName(query.environment, true);
      const principal = request.principal;
      if (principal) await assertReachesEnvironment(database.db, principal, environment);
      const limit = query.limit ?? 50;
      const rows = await listForms(database.db, {
        environment,
        statuses: listStatuses(principal, query.status),
        limit,
        after: decodeCursor(query.cursor),
        workspaceId: principal?.workspaceId,
      });
      const page = toPage(rows, limit);
      const full = principal !== null && principal.kind !== 'publishable';
      return {
        data: full ? await presentFull(page.rows) : await presentPublicPage(page.rows),
        nextCursor: page.nextCursor,
      };
    }

    app.post(
      '/forms',
      {
        ...bodyValidatedInHandler,
        schema: {
          tags,
          summary: 'Create a form',
          operationId: 'createForm',
          security: SECURITY.sessionOrSecretKey,
          body: CreateFormBody,
          response: {
            201: withHeaders(FormOut, ['ETag', 'Location'], 'The form created'),
            ...problems(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const { form, view } = await createForm(context, requireSessionOrSecretKey(request), request.body);
        return reply
          .status(201)
          .header('etag', etagOf(form.version))
          .header('location', `/forms/${encodeURIComponent(form.id)}`)
          .send(view);
      },
    );

    app.get(
      '/forms',
      {
        schema: {
          tags,
          summary: 'List forms of an environment (anonymous: the live ones, in their public view)',
          operationId: 'listForms',
          security: SECURITY.optional,
          querystring: ListQuery,
          response: { 200: ListOf(FormOrPublicOut), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        callerDependent(reply, request.principal);
        return listHandler(request, request.query);
      },
    );

    app.get(
      '/environments/:environment/forms',
      {
        schema: {
          tags,
          deprecated: true,
          summary: 'Deprecated: use GET /forms?environment=',
          operationId: 'listEnvironmentForms',
          security: SECURITY.optional,
          params: Type.Object({ environment: Type.String() }),
          querystring: Type.Omit(ListQuery, ['environment']),
          response: {
            200: withHeaders(
              ListOf(FormOrPublicOut),
              ['Deprecation', 'Link'],
              'The forms, as GET /forms lists them',
            ),
            ...problems(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const environment = request.params.environment;
        const successor = `/forms?environment=${encodeURIComponent(environment)}`;
        reply.header('deprecation', 'true').header('link', `<${successor}>; rel="successor-version"`);
        callerDependent(reply, request.principal);
        return listHandler(request, { ...request.query, environment });
      },
    );

    app.get(
      '/forms/:id',
      {
        schema: {
          tags,
          summary: 'Read a form: in full for its owner, in its public view for anyone if live',
          operationId: 'getForm',
          security: SECURITY.optional,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          headers: IfNoneMatch,
          response: {
            200: withHeaders(FormOrPublicOut, ['ETag'], 'The form, in full or in its public view'),
            304: NotModified,
            ...problems(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        const form = await loadForm(request.params.id);
        const view = readView(request.principal, form);
        if (view instanceof Problem) throw view;
        const mismatch = environmentMismatch(form, environment);
        if (mismatch) throw mismatch;
        // the owner's view says hasDraft, which changes without a new version: so does its tag
        const hasDraft =
          view === 'full' && (await formsWithWorkingCopies(database.db, [form.id])).has(form.id);
        // the public view says whether the form is open now: a closed one is another representation
        const state = view === 'public' ? await accessStateOf(form) : undefined;
        const closed = state && closedReasonOf(form.definition.access, state.now, state.accepted);
        const etag = hasDraft
          ? etagWithDraft(form.version)
          : closed
            ? `"${form.version}-${tagOf(closed)}"`
            : etagOf(form.version);
        callerDependent(reply.header('etag', etag), request.principal);
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined && matchesTag(ifNoneMatch, etag)) {
          return reply.status(304).send(null);
        }
        if (state) return presentPublicForm(form, undefined, state);
        return presentOne(form);
      },
    );

    app.get(
      '/v1/forms/:formId/public',
      {
        config: PUBLIC_ROUTE,
        schema: {
          tags,
          summary: 'The public view of a live form (what a form renderer needs)',
          operationId: 'getPublicForm',
          security: SECURITY.public,
          params: Type.Object({ formId: Type.String({ maxLength: 200 }) }),
          querystring: Type.Object({
            lang: Type.Optional(
              Type.String({
                maxLength: 100,
                description:
                  'One of the form’s languages (API.md §13); else the best match of Accept-Language, else ui.language',
              }),
            ),
          }),
          headers: IfNoneMatch,
          response: {
            200: withHeaders(PublicFormOut, ['ETag'], 'The public view of the form'),
            304: NotModified,
            ...problems(404),
          },
        },
      },
      async (request, reply) => {
        const form = await findForm(database.db, request.params.formId);
        // Not live reads as absent: the public endpoint does not reveal drafts.
        if (!form) throw formNotFound(request.params.formId);
        if (form.status !== 'live') throw formNotFound(form.id);
        const languages = languagesOf(form.definition);
        const language = chooseLanguage(languages, {
          lang: request.query.lang,
          acceptLanguage: request.headers['accept-language'],
        });
        // one view per language, and per state of its access (open, full …): its tag says which
        const state = await accessStateOf(form);
        const closed = closedReasonOf(form.definition.access, state.now, state.accepted);
        const variant = [
          language === languages[0] ? '' : `-${language}`,
          closed ? `-${tagOf(closed)}` : '',
        ].join('');
        const etag = variant === '' ? etagOf(form.version) : `"${form.version}${variant}"`;
        reply.header('etag', etag);
        if (languages.length > 1) appendVary(reply, 'Accept-Language');
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined && matchesTag(ifNoneMatch, etag)) {
          return reply.status(304).send(null);
        }
        return presentPublicForm(form, language, state);
      },
    );

    app.put(
      '/forms/:id',
      {
        ...bodyValidatedInHandler,
        schema: {
          tags,
          summary: 'Update a form: members in the body replace the stored ones',
          operationId: 'updateForm',
          security: SECURITY.sessionOrSecretKey,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          headers: Type.Object({
            'If-Match': Type.Optional(
              Type.String({ description: 'The ETag read: if the form has changed since, the answer is 412' }),
            ),
          }),
          body: UpdateFormBody,
          response: {
            200: withHeaders(FormOut, ['ETag'], 'The form updated'),
            ...problems(400, 401, 403, 404, 412),
          },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        const principal = requireSessionOrSecretKey(request);
        const { form, view } = await updateFormById(context, principal, request.params.id, request.body, {
          environment,
          ifMatch: request.headers['if-match'],
        });
        return reply
          .header('etag', view.hasDraft ? etagWithDraft(form.version) : etagOf(form.version))
          .send(view);
      },
    );

    app.delete(
      '/forms/:id',
      {
        schema: {
          tags,
          summary: 'Delete a form with its submissions and webhooks',
          operationId: 'deleteForm',
          security: SECURITY.sessionOrSecretKey,
          params: FormIdParams,
          querystring: OptionalEnvironment,
          response: { 204: noBody('Deleted'), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        await deleteFormById(context, requireSessionOrSecretKey(request), request.params.id, environment);
        hooks.afterDelete?.(request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
