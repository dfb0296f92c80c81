import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../platform/context.js';
import { StorageUnavailable, unavailableProblem } from '../../platform/db/unavailable.js';
import { sendProblem } from '../../platform/errors.js';
import { problems, SECURITY } from '../../platform/http/schemas.js';

export const healthRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/health',
      {
        schema: {
          tags: ['operations'],
          summary: '200 when the database answers, else 503',
          operationId: 'getHealth',
          security: SECURITY.none,
          response: {
            200: Type.Object({ status: Type.Literal('ok'), database: Type.String() }),
            ...problems(503),
          },
        },
      },
      async (_request, reply) => {
        if (await database.ping()) return { status: 'ok' as const, database: database.engine };
        return sendProblem(reply, unavailableProblem(new StorageUnavailable('The database does not answer')));
      },
    );
  };
