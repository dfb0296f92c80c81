import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { environmentMismatch } from '../../platform/access.js';
import { type Principal, requireSessionOrSecretKey } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { decodeCursor, toPage } from '../../platform/cursor.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { PUBLIC_ROUTE } from '../../platform/http/cors.js';
import { EnvironmentQuery, ListOf, problems, StringEnum } from '../../platform/http/schemas.js';
import { validatorCompiler } from '../../platform/http/validation.js';
import { appendVary } from '../../platform/http/vary.js';
import { newId } from '../../platform/ids.js';
import { badRequest, conflict, forbidden, Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { environmentNotFound, parseEnvironmentName } from '../environments/names.js';
import { assertReachesEnvironment, holdEnvironment } from '../environments/repo.js';
import { enqueueWebhookEvents, type WebhookEvent } from '../webhooks/events.js';
import { listWebhooksOfForms, replaceFormWebhooks, type WebhookRow } from '../webhooks/repo.js';
import { ssrfGuardOn } from '../webhooks/ssrf.js';
import { formNotFound, managedOrThrow, readView } from './access.js';
import { parseCreateInput, parseUpdateInput } from './definition.js';
import { presentForm, presentPublicForm } from './presenter.js';
import { deleteForm, findForm, insertForm, listForms, type StoredForm, updateForm } from './repo.js';
import {
  CreateFormBody,
  FORM_STATUSES,
  FormOrPublicOut,
  FormOut,
  type FormStatus,
  PublicFormOut,
  UpdateFormBody,
} from './schemas.js';
import { assertWebhookMember, webhookRowsFor } from './webhooks-member.js';

const FormIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const OptionalEnvironment = Type.Object({ environment: Type.Optional(EnvironmentQuery) });
const ListQuery = Type.Object({
  environment: Type.Optional(EnvironmentQuery),
  status: Type.Optional(StringEnum(FORM_STATUSES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
});

/** Form bodies are checked by the form definition validator, which lists every problem as invalid_form. */
const bodyValidatedInHandler = {
  config: { formDefinitionBody: true },
  validatorCompiler: ((context) =>
    context.httpPart === 'body' ? () => true : validatorCompiler(context)) satisfies typeof validatorCompiler,
};

const etagOf = (version: number) => `"${version}"`;
/** A form's representation depends on who asks. */
const CREDENTIAL_HEADERS = ['Authorization', 'X-API-Key', 'X-Publishable-Key'];

/**
 * A form.* event: its data is the form as its owner reads it (GET /forms/{id}), without its
 * `webhooks` member: a receiver is a third party, and other webhooks' URLs often carry
 * tokens (chat and automation services put them in the path).
 */
function formEvent(
  event: 'form.created' | 'form.updated' | 'form.deleted',
  form: StoredForm,
  view: ReturnType<typeof presentForm>,
): WebhookEvent {
  return {
    event,
    formId: form.id,
    userId: form.userId,
    environment: form.environment,
    occurredAt: event === 'form.deleted' ? nowIso() : form.updatedAt,
    data: withoutWebhooks(view),
  };
}

function withoutWebhooks(view: ReturnType<typeof presentForm>): Record<string, unknown> {
  const { webhooks: _webhooks, ...data } = view;
  return data;
}

/** `If-Match`: `*`, or a list of entity tags of which one must be the current version. */
function matchesVersion(header: string, version: number): boolean {
  if (header.trim() === '*') return true;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etagOf(version) || tag === String(version));
}

export const formRoutes =
  ({ config, database, envelope, outbox }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['forms'];
    const webhookGuard = ssrfGuardOn(config);
    const encrypt = (plaintext: string) => envelope.encrypt(plaintext);

    async function presentOne(form: StoredForm) {
      return presentForm(form, await listWebhooksOfForms(database.db, [form.id]));
    }

    /** Full views of these forms, their webhooks fetched in one query. */
    async function presentFull(forms: StoredForm[]) {
      const webhooks = await listWebhooksOfForms(
        database.db,
        forms.map((form) => form.id),
      );
      return forms.map((form) =>
        presentForm(
          form,
          webhooks.filter((row) => row.form_id === form.id),
        ),
      );
    }

    async function loadForm(id: string): Promise<StoredForm> {
      const form = await findForm(database.db, id);
      if (!form) throw formNotFound(id);
      return form;
    }

    async function loadWritableForm(request: FastifyRequest, id: string, environment: string | undefined) {
      return managedOrThrow(request.principal, await findForm(database.db, id), id, environment);
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
        userId: principal?.userId,
      });
      const page = toPage(rows, limit);
      const full = principal !== null && principal.kind !== 'publishable';
      return {
        data: full ? await presentFull(page.rows) : page.rows.map(presentPublicForm),
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
          body: CreateFormBody,
          response: { 201: FormOut, ...problems(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const principal = requireSessionOrSecretKey(request);
        const body: unknown = request.body;
        // A missing environment is invalid_environment, like an invalid name (with the suggestions).
        if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
          parseEnvironmentName(
            (body as { environment?: unknown }).environment,
            true,
            'the body member environment',
          );
        }
        const input = await parseCreateInput(body, encrypt);
        if (principal.kind === 'secret' && principal.environment !== input.environment) {
          throw forbidden(
            `This secret key belongs to the environment "${principal.environment}", not "${input.environment}"`,
          );
        }
        const now = nowIso();
        const form: StoredForm = {
          id: input.id ?? newId('frm'),
          userId: principal.userId,
          environment: input.environment,
          title: input.title,
          status: input.status,
          version: 1,
          definition: input.definition,
          createdAt: now,
          updatedAt: now,
        };
        await assertWebhookMember(input.webhooks ?? [], [], webhookGuard);
        const webhooks = await webhookRowsFor(form, input.webhooks ?? [], [], envelope, now);
        const view = presentForm(form, webhooks);
        let queued = 0;
        try {
          await database.transaction(async (trx) => {
            if (!(await holdEnvironment(trx, database.engine, principal.userId, form.environment))) {
              throw environmentNotFound(form.environment);
            }
            await insertForm(trx, form);
            if (webhooks.length === 0) return;
            await replaceFormWebhooks(trx, form.id, webhooks);
            // only the webhooks created with the form can have subscribed to its creation
            queued = await enqueueWebhookEvents(trx, envelope, [formEvent('form.created', form, view)]);
          });
        } catch (error) {
          if (isUniqueViolation(error))
            throw conflict(`The form id "${form.id}" is taken; choose another or leave id out`);
          throw error;
        }
        if (queued > 0) outbox.nudge();
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
          querystring: ListQuery,
          response: { 200: ListOf(FormOrPublicOut), ...problems(400, 401, 403) },
        },
      },
      async (request) => listHandler(request, request.query),
    );

    app.get(
      '/environments/:environment/forms',
      {
        schema: {
          tags,
          deprecated: true,
          summary: 'Deprecated: use GET /forms?environment=',
          params: Type.Object({ environment: Type.String() }),
          querystring: Type.Omit(ListQuery, ['environment']),
          response: { 200: ListOf(FormOrPublicOut), ...problems(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const environment = request.params.environment;
        const successor = `/forms?environment=${encodeURIComponent(environment)}`;
        reply.header('deprecation', 'true').header('link', `<${successor}>; rel="successor-version"`);
        return listHandler(request, { ...request.query, environment });
      },
    );

    app.get(
      '/forms/:id',
      {
        schema: {
          tags,
          summary: 'Read a form: in full for its owner, in its public view for anyone if live',
          params: FormIdParams,
          querystring: OptionalEnvironment,
          response: { 200: FormOrPublicOut, 304: Type.Null(), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        const form = await loadForm(request.params.id);
        const view = readView(request.principal, form);
        if (view instanceof Problem) throw view;
        const mismatch = environmentMismatch(form, environment);
        if (mismatch) throw mismatch;
        appendVary(reply.header('etag', etagOf(form.version)), ...CREDENTIAL_HEADERS);
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined && matchesVersion(ifNoneMatch, form.version)) {
          return reply.status(304).send(null);
        }
        if (view === 'public') return presentPublicForm(form);
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
          params: Type.Object({ formId: Type.String({ maxLength: 200 }) }),
          response: { 200: PublicFormOut, 304: Type.Null(), ...problems(404) },
        },
      },
      async (request, reply) => {
        const form = await findForm(database.db, request.params.formId);
        // Not live reads as absent: the public endpoint does not reveal drafts.
        if (!form) throw formNotFound(request.params.formId);
        if (form.status !== 'live') throw formNotFound(form.id);
        reply.header('etag', etagOf(form.version));
        const ifNoneMatch = request.headers['if-none-match'];
        if (ifNoneMatch !== undefined && matchesVersion(ifNoneMatch, form.version)) {
          return reply.status(304).send(null);
        }
        return presentPublicForm(form);
      },
    );

    app.put(
      '/forms/:id',
      {
        ...bodyValidatedInHandler,
        schema: {
          tags,
          summary: 'Update a form: members in the body replace the stored ones',
          params: FormIdParams,
          querystring: OptionalEnvironment,
          body: UpdateFormBody,
          response: { 200: FormOut, ...problems(400, 401, 403, 404, 412) },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        requireSessionOrSecretKey(request);
        const ifMatch = request.headers['if-match'];
        const body: unknown = request.body;
        checkImmutableMembers(body, request.params.id);

        // Re-read and retry when a concurrent update wins the race (the version moved).
        for (let attempt = 0; ; attempt++) {
          const stored = await loadWritableForm(request, request.params.id, environment);
          immutableMismatch(body, stored);
          if (ifMatch !== undefined && !matchesVersion(ifMatch, stored.version)) {
            throw new Problem(
              412,
              'version_conflict',
              `The form is at version ${stored.version}, not the one in If-Match (${ifMatch}); read it again and retry`,
            );
          }
          const draft = await parseUpdateInput(body, stored, encrypt);
          const next: StoredForm = {
            ...stored,
            title: draft.title,
            status: draft.status,
            definition: draft.definition,
            version: stored.version + 1,
            updatedAt: nowIso(),
          };
          let webhooks: WebhookRow[] | undefined;
          if (draft.webhooks) {
            const existing = await listWebhooksOfForms(database.db, [next.id]);
            await assertWebhookMember(draft.webhooks, existing, webhookGuard);
            webhooks = await webhookRowsFor(next, draft.webhooks, existing, envelope, next.updatedAt);
          }
          const updated = await database.transaction(async (trx) => {
            if (!(await updateForm(trx, next, stored.version))) return undefined;
            if (webhooks) await replaceFormWebhooks(trx, next.id, webhooks);
            const view = presentForm(next, webhooks ?? (await listWebhooksOfForms(trx, [next.id])));
            const queued = await enqueueWebhookEvents(trx, envelope, [formEvent('form.updated', next, view)]);
            return { view, queued };
          });
          if (updated) {
            if (updated.queued > 0) outbox.nudge();
            return reply.header('etag', etagOf(next.version)).send(updated.view);
          }
          if (ifMatch !== undefined || attempt >= 5) {
            throw new Problem(
              412,
              'version_conflict',
              'The form was changed by another request; read it again and retry',
            );
          }
        }
      },
    );

    app.delete(
      '/forms/:id',
      {
        schema: {
          tags,
          summary: 'Delete a form with its submissions and webhooks',
          params: FormIdParams,
          querystring: OptionalEnvironment,
          response: { 204: Type.Null(), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const environment = parseEnvironmentName(request.query.environment, false);
        requireSessionOrSecretKey(request);
        const form = await loadWritableForm(request, request.params.id, environment);
        const queued = await database.transaction(async (trx) => {
          // the form as it is now (a PUT may have landed since it was read), and still there
          const current = await findForm(trx, form.id);
          if (!current) throw formNotFound(form.id);
          const view = presentForm(current, await listWebhooksOfForms(trx, [form.id]));
          // before the delete: its webhooks go with the form, the queued deliveries do not
          const count = await enqueueWebhookEvents(trx, envelope, [formEvent('form.deleted', current, view)]);
          await deleteForm(trx, form.id);
          return count;
        });
        if (queued > 0) outbox.nudge();
        return reply.status(204).send(null);
      },
    );
  };

/** `id` in a PUT body must name the form being updated. */
function checkImmutableMembers(body: unknown, id: string): void {
  if (typeof body !== 'object' || body === null) return;
  const given = (body as { id?: unknown }).id;
  if (given !== undefined && given !== id) {
    throw immutable(
      'id',
      `The id of a form cannot change (body says ${JSON.stringify(given)}, path says "${id}")`,
    );
  }
}

/** `environment` and `userId` may be sent back as they are, never changed. */
function immutableMismatch(body: unknown, stored: StoredForm): void {
  if (typeof body !== 'object' || body === null) return;
  const { environment, userId } = body as { environment?: unknown; userId?: unknown };
  if (environment !== undefined && environment !== stored.environment) {
    throw immutable(
      'environment',
      `A form's environment cannot change (it is "${stored.environment}"); to migrate, create a copy in the other environment`,
    );
  }
  if (userId !== undefined && userId !== stored.userId) {
    throw immutable('userId', "A form's owner cannot change");
  }
}

const immutable = (field: string, detail: string) =>
  badRequest('immutable_member', detail, {
    errors: [{ field, code: 'immutable', message: 'cannot be changed' }],
  });
