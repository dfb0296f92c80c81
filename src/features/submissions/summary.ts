import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireSessionOrSecretKey } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { EnvironmentQuery, ListOf, problems, SECURITY, Timestamp } from '../../platform/http/schemas.js';
import { parseEnvironmentName } from '../environments/names.js';
import { assertReachesEnvironment } from '../environments/repo.js';
import { summaryOf } from './counters.js';

/**
 * What the dashboard's list of forms shows beside each (API.md §11.3): how many submissions a
 * form holds, how many of them are unread, and when the last came, for every form of an
 * environment at once. The inbox's own statuses (accepted and flagged; quarantined ones are
 * apart), all time, read from each form's counters (counters.ts): one row per form. Session or
 * secret key of the environment, like GET /responses.
 */

export const SummaryItem = Type.Object({
  formId: Type.String(),
  submissions: Type.Integer({ minimum: 0 }),
  unread: Type.Integer({ minimum: 0 }),
  lastSubmissionAt: Type.Union([Timestamp, Type.Null()]),
});

export const summaryRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/responses/summary',
      {
        schema: {
          tags: ['submissions'],
          summary:
            "Each form's submission count, unread count and last submission time in an environment (forms with none are left out)",
          operationId: 'summarizeResponses',
          security: SECURITY.sessionOrSecretKey,
          querystring: Type.Object({ environment: Type.Optional(EnvironmentQuery) }),
          // a list like every other (API.md §1), in one page: one entry per form with submissions
          response: { 200: ListOf(SummaryItem), ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const principal = requireSessionOrSecretKey(request);
        const environment = parseEnvironmentName(request.query.environment, true);
        await assertReachesEnvironment(database.db, principal, environment);
        return { data: await summaryOf(database.db, principal.workspaceId, environment), nextCursor: null };
      },
    );
  };
