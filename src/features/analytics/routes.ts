import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { requireAuthenticated } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { PUBLIC_ROUTE } from '../../platform/http/cors.js';
import { noBody, problems, SECURITY, withHeaders } from '../../platform/http/schemas.js';
import { badRequest, forbidden } from '../../platform/problem.js';
import { parseEnvironmentName } from '../environments/names.js';
import { assertReachesEnvironment } from '../environments/repo.js';
import { storageUsed } from '../files/repo.js';
import { managedOrThrow } from '../forms/access.js';
import { findForm } from '../forms/repo.js';
import { answerStats } from '../submissions/answer-stats.js';
import type { EventRecorder } from './commands.js';
import { dropOff } from './drop-off.js';
import { presentAnalytics } from './presenter.js';
import { parseRange } from './range.js';
import { countsByFormAndDay, formsInScope } from './repo.js';
import {
  AnalyticsOut,
  AnalyticsQuery,
  DropOffOut,
  DropOffQuery,
  EventBody,
  QuestionsOut,
  QuestionsQuery,
} from './schemas.js';

/**
 * API.md §8: views and starts reported by form pages (public, counted once per session),
 * and the owner's counts of an environment (session or a secret key of it).
 */
export const analyticsRoutes =
  ({ database }: AppContext, events: EventRecorder): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['analytics'];

    app.post(
      '/v1/forms/:formId/events',
      {
        config: PUBLIC_ROUTE,
        schema: {
          tags,
          summary:
            'Report a view or a start of a form (counted once per session; whoever may submit may report)',
          operationId: 'recordFormEvent',
          security: SECURITY.public,
          params: Type.Object({ formId: Type.String({ maxLength: 200 }) }),
          body: EventBody,
          response: {
            // no body: browsers send these as beacons and read nothing back
            202: Type.Unsafe<void>(
              noBody('Recorded (or already counted for this session); no body', [
                'RateLimit-Limit',
                'RateLimit-Remaining',
                'RateLimit-Reset',
              ]),
            ),
            ...problems(400, 401, 403, 404, 429),
          },
        },
      },
      async (request, reply) => {
        const form = await events.formFor(request.principal, request.params.formId);
        reply.headers(await events.countAttempt(request.ip));
        await events.record(form, request.body.type, request.body.sessionId);
        return reply.status(202).send();
      },
    );

    /** Who may read figures, as GET /analytics says: a session or a secret key reaching the environment. */
    async function reader(request: FastifyRequest, environmentName: string | undefined) {
      const principal = requireAuthenticated(request); // 401 before any parameter is judged
      const environment = parseEnvironmentName(environmentName, true);
      if (principal.kind === 'publishable') {
        throw forbidden(
          'A publishable key can only read forms and submit to them; use a secret key or a session',
        );
      }
      await assertReachesEnvironment(database.db, principal, environment);
      return { principal, environment };
    }

    /** One form's figures (questions, drop-off): `form_id` required, the range, the form read as GET /analytics reads it. */
    async function oneForm(request: FastifyRequest, query: Static<typeof QuestionsQuery>) {
      const { principal, environment } = await reader(request, query.environment);
      const formId = query.form_id;
      if (formId === undefined || formId === '') {
        throw badRequest('invalid_parameter', 'The query parameter form_id is required', {
          errors: [{ field: 'form_id', code: 'required', message: 'is required' }],
        });
      }
      const range = parseRange(query.from, query.to);
      const form = managedOrThrow(
        principal,
        await findForm(database.db, formId),
        formId,
        'read',
        environment,
      );
      return { form, range };
    }

    async function analytics(request: FastifyRequest, query: Static<typeof AnalyticsQuery>) {
      const { principal, environment } = await reader(request, query.environment);
      const range = parseRange(query.from, query.to);
      if (query.form_id !== undefined) {
        managedOrThrow(
          principal,
          await findForm(database.db, query.form_id),
          query.form_id,
          'read',
          environment,
        );
      }
      const scope = { workspaceId: principal.workspaceId, environment, formId: query.form_id, ...range };
      await events.flush(); // this instance's views queued behind their pages, counted too
      // forms first: counts of a form created in between are then left out rather than half shown
      const forms = await formsInScope(database.db, scope);
      const counts = await countsByFormAndDay(database.db, scope);
      const storageBytes = await storageUsed(database.db, principal.workspaceId, environment, query.form_id);
      return presentAnalytics(environment, range, forms, counts, storageBytes);
    }

    app.get(
      '/analytics',
      {
        schema: {
          tags,
          summary: "Views, starts and submissions of an environment's forms: totals, per form, per UTC day",
          operationId: 'getAnalytics',
          security: SECURITY.sessionOrSecretKey,
          querystring: AnalyticsQuery,
          response: { 200: AnalyticsOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => analytics(request, request.query),
    );

    app.get(
      '/analytics/questions',
      {
        schema: {
          tags,
          summary:
            "What a form's answers say, per question: option counts, a number's figures, how many answered",
          description:
            "Per field in the form's order (API.md §8): `options` with their counts for select and checkbox, `mean`, `median`, `min`, `max` and `distribution` for number and rating, only `answered` for the others (their text stays in the inbox). Accepted and flagged responses in the range; quarantined ones are left out. A field kept masked, hashed, encrypted or dropped shows `withheld` and no values. Counted in one pass over the responses, in chunks.",
          operationId: 'getQuestionAnalytics',
          security: SECURITY.sessionOrSecretKey,
          querystring: QuestionsQuery,
          response: { 200: QuestionsOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { form, range } = await oneForm(request, request.query);
        const stats = await answerStats(database.db, form.definition, { formId: form.id, ...range });
        return { formId: form.id, from: range.from, to: range.to, ...stats };
      },
    );

    app.get(
      '/analytics/drop-off',
      {
        schema: {
          tags,
          summary:
            "Where a form's visitors gave up: per question, sessions that reached, answered and left it",
          description:
            "Per question in the form's page order (API.md §15), each session counted once: `reached`, `answered` and `leftHere` (did not complete the form, and this was the furthest question reached). A one-by-one form counts the hosted page's steps and its views (a view without a page sent reached the first question); a classic form, its views and the submissions of their sessions. The range and the access rules as on GET /analytics/questions.",
          operationId: 'getDropOff',
          security: SECURITY.sessionOrSecretKey,
          querystring: DropOffQuery,
          response: { 200: DropOffOut, ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { form, range } = await oneForm(request, request.query);
        await events.flush(); // this instance's views queued behind their pages, counted too
        const figures = await dropOff(database.db, form, range);
        return { formId: form.id, from: range.from, to: range.to, ...figures };
      },
    );

    app.get(
      '/environments/:environment/analytics',
      {
        schema: {
          tags,
          deprecated: true,
          summary: 'Deprecated: use GET /analytics?environment=',
          operationId: 'getEnvironmentAnalytics',
          security: SECURITY.sessionOrSecretKey,
          params: Type.Object({ environment: Type.String() }),
          querystring: Type.Omit(AnalyticsQuery, ['environment']),
          response: {
            200: withHeaders(
              AnalyticsOut,
              ['Deprecation', 'Link'],
              'The counts, as GET /analytics gives them',
            ),
            ...problems(400, 401, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const environment = request.params.environment;
        const successor = `/analytics?environment=${encodeURIComponent(environment)}`;
        reply.header('deprecation', 'true').header('link', `<${successor}>; rel="successor-version"`);
        return analytics(request, { ...request.query, environment });
      },
    );
  };
