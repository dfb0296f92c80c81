import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, recordAudit } from '../../platform/audit.js';
import { requireSessionOrSecretKey } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { decodeCursor, toPage } from '../../platform/cursor.js';
import {
  EnvironmentQuery,
  ListOf,
  noBody,
  problems,
  SECURITY,
  withHeaders,
} from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { badRequest, conflict, type FieldError, notFound } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { parseEnvironmentName } from '../environments/names.js';
import { assertReachesEnvironment } from '../environments/repo.js';
import { managersOnly, type WebhookAccess, webhookNotFound } from './access.js';
import { healthOf } from './health.js';
import { presentWebhookWithHealth } from './presenter.js';
import {
  countFormWebhooks,
  deleteWebhook,
  insertWebhook,
  listWebhooks,
  type StoredWebhook,
  updateWebhook,
  type WebhookChanges,
} from './repo.js';
import { invalidWebhook, secretError, webhookUrlError } from './rules.js';
import { EventSchema, FormatSchema, SecretSchema, UrlSchema, WebhookWithHealthOut } from './schemas.js';
import { ssrfGuardOn } from './ssrf.js';

/** The `/webhooks` resource (API.md §7); deliveries and tests are in delivery-routes.ts. */

/** As many as a form body's `webhooks` member may hold, so that a form read with GET can be sent back. */
export const MAX_WEBHOOKS_PER_FORM = 20;

const WebhookIdParams = Type.Object({ id: Type.String({ maxLength: 200 }) });

const CreateWebhookBody = Type.Object(
  {
    formId: Type.String({ minLength: 1, maxLength: 200 }),
    event: EventSchema,
    url: UrlSchema,
    secret: Type.Optional(SecretSchema),
    format: Type.Optional(FormatSchema),
  },
  { additionalProperties: false },
);

const UpdateWebhookBody = Type.Object(
  {
    event: Type.Optional(EventSchema),
    url: Type.Optional(UrlSchema),
    secret: Type.Optional(
      Type.Union([SecretSchema, Type.Null()], { description: 'A new secret, or null to remove it' }),
    ),
    format: Type.Optional(FormatSchema),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const ListQuery = Type.Object({
  form_id: Type.Optional(Type.String({ maxLength: 200 })),
  environment: Type.Optional(EnvironmentQuery),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ maxLength: 500 })),
  failing: Type.Optional(
    Type.Boolean({
      description:
        'true: only the enabled webhooks whose last delivery attempt failed (what the dashboard marks a form by)',
    }),
  ),
});

export const webhookRoutes =
  ({ config, database, envelope }: AppContext, access: WebhookAccess): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['webhooks'];
    const guard = ssrfGuardOn(config);

    /** The problems of the url and secret being written, all at once; 400 when there are any. */
    async function assertWritable(
      input: { url?: string; secret?: string | null },
      previous: StoredWebhook | undefined,
    ): Promise<void> {
      const errors: FieldError[] = [];
      if (input.url !== undefined) {
        const urlError = await webhookUrlError(input.url, previous, guard);
        if (urlError) errors.push(urlError);
      }
      if (typeof input.secret === 'string') {
        const problem = secretError(input.secret);
        if (problem) errors.push(problem);
      }
      if (errors.length > 0) throw invalidWebhook(errors);
    }

    app.post(
      '/webhooks',
      {
        ...managersOnly,
        schema: {
          tags,
          summary: "Register a webhook on one of a form's events",
          operationId: 'createWebhook',
          security: SECURITY.sessionOrSecretKey,
          body: CreateWebhookBody,
          response: {
            201: withHeaders(WebhookWithHealthOut, ['Location'], 'The webhook registered'),
            ...problems(400, 401, 403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const principal = requireSessionOrSecretKey(request);
        const body = request.body;
        const form = await access.managedForm(database.db, principal, body.formId, 'manageForms');
        await assertWritable(body, undefined);
        const row: StoredWebhook = {
          id: newId('whk'),
          workspaceId: form.workspaceId,
          environment: form.environment,
          formId: form.id,
          event: body.event,
          url: body.url,
          secretCiphertext: body.secret === undefined ? null : await envelope.encrypt(body.secret),
          format: body.format ?? 'legacy',
          enabled: true,
          createdAt: nowIso(),
        };
        await database.transaction(async (trx) => {
          // The form row locked first: concurrent creations count one after the other, so the limit holds.
          if (!(await access.forms.lock(trx, form.id))) throw notFound(`No form ${form.id}`);
          if ((await countFormWebhooks(trx, form.id)) >= MAX_WEBHOOKS_PER_FORM) {
            throw conflict(
              `The form ${form.id} has ${MAX_WEBHOOKS_PER_FORM} webhooks, the most a form may have; delete one first`,
            );
          }
          await insertWebhook(trx, row);
          await recordAudit(trx, {
            workspaceId: row.workspaceId,
            actor: actorOf(principal),
            action: 'webhook.created',
            target: { type: 'webhook', id: row.id },
          });
        });
        return reply
          .status(201)
          .header('location', `/webhooks/${encodeURIComponent(row.id)}`)
          .send(presentWebhookWithHealth(row));
      },
    );

    app.get(
      '/webhooks',
      {
        ...managersOnly,
        schema: {
          tags,
          summary: "List webhooks: one form's (form_id) or every one of an environment (environment)",
          operationId: 'listWebhooks',
          security: SECURITY.sessionOrSecretKey,
          querystring: ListQuery,
          response: { 200: ListOf(WebhookWithHealthOut), ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const principal = requireSessionOrSecretKey(request);
        const query = request.query;
        const environment = parseEnvironmentName(query.environment, false);
        const formId = query.form_id === '' ? undefined : query.form_id;
        if (formId === undefined && environment === undefined) {
          throw badRequest('invalid_parameter', 'Name a form (form_id) or an environment (environment)', {
            errors: [
              { field: 'form_id', code: 'required', message: 'is required unless environment is given' },
              { field: 'environment', code: 'required', message: 'is required unless form_id is given' },
            ],
          });
        }
        let scope: { formId: string } | { environment: string };
        if (formId !== undefined) {
          const form = await access.managedForm(database.db, principal, formId, 'read', environment);
          scope = { formId: form.id };
        } else {
          const name = environment as string;
          await assertReachesEnvironment(database.db, principal, name);
          scope = { environment: name };
        }
        const limit = query.limit ?? 50;
        const rows = await listWebhooks(database.db, {
          workspaceId: principal.workspaceId,
          scope,
          limit,
          after: decodeCursor(query.cursor),
          failingOnly: query.failing === true,
        });
        const page = toPage(
          rows.map((row) => ({ row, createdAt: row.createdAt, id: row.id })),
          limit,
        );
        const health = await healthOf(
          database.db,
          page.rows.map(({ row }) => row),
        );
        return {
          data: page.rows.map(({ row }) => presentWebhookWithHealth(row, health.get(row.id))),
          nextCursor: page.nextCursor,
        };
      },
    );

    app.get(
      '/webhooks/:id',
      {
        ...managersOnly,
        schema: {
          tags,
          summary: 'Read a webhook (never its secret: hasSecret says whether it has one)',
          operationId: 'getWebhook',
          security: SECURITY.sessionOrSecretKey,
          params: WebhookIdParams,
          response: { 200: WebhookWithHealthOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { webhook } = await access.managedWebhook(
          database.db,
          requireSessionOrSecretKey(request),
          request.params.id,
          'read',
        );
        return presentWebhookWithHealth(webhook, (await healthOf(database.db, [webhook])).get(webhook.id));
      },
    );

    app.patch(
      '/webhooks/:id',
      {
        ...managersOnly,
        schema: {
          tags,
          summary: 'Change a webhook: the members given replace the stored ones (secret: null removes it)',
          operationId: 'updateWebhook',
          security: SECURITY.sessionOrSecretKey,
          params: WebhookIdParams,
          body: UpdateWebhookBody,
          response: { 200: WebhookWithHealthOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const principal = requireSessionOrSecretKey(request);
        const { webhook } = await access.managedWebhook(
          database.db,
          principal,
          request.params.id,
          'manageForms',
        );
        const body = request.body;
        await assertWritable(body, webhook);
        const changes: WebhookChanges = {};
        if (body.event !== undefined) changes.event = body.event;
        if (body.url !== undefined) changes.url = body.url;
        if (body.format !== undefined) changes.format = body.format;
        if (body.enabled !== undefined) changes.enabled = body.enabled;
        if (body.secret !== undefined) {
          changes.secretCiphertext = body.secret === null ? null : await envelope.encrypt(body.secret);
        }
        const updated = await database.transaction(async (trx) => {
          if (!(await updateWebhook(trx, webhook.id, changes))) return false;
          await recordAudit(trx, {
            workspaceId: webhook.workspaceId,
            actor: actorOf(principal),
            action: 'webhook.updated',
            target: { type: 'webhook', id: webhook.id },
          });
          return true;
        });
        if (!updated) throw webhookNotFound(webhook.id);
        const changed = { ...webhook, ...changes };
        return presentWebhookWithHealth(changed, (await healthOf(database.db, [changed])).get(webhook.id));
      },
    );

    app.delete(
      '/webhooks/:id',
      {
        ...managersOnly,
        schema: {
          tags,
          summary: 'Delete a webhook',
          operationId: 'deleteWebhook',
          security: SECURITY.sessionOrSecretKey,
          params: WebhookIdParams,
          response: { 204: noBody('Deleted'), ...problems(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const principal = requireSessionOrSecretKey(request);
        const { webhook } = await access.managedWebhook(
          database.db,
          principal,
          request.params.id,
          'manageForms',
        );
        const deleted = await database.transaction(async (trx) => {
          if (!(await deleteWebhook(trx, webhook.id))) return false;
          await recordAudit(trx, {
            workspaceId: webhook.workspaceId,
            actor: actorOf(principal),
            action: 'webhook.deleted',
            target: { type: 'webhook', id: webhook.id },
          });
          return true;
        });
        if (!deleted) throw webhookNotFound(webhook.id);
        return reply.status(204).send(null);
      },
    );
  };
