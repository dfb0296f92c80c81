import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireSessionFor } from '../../platform/access.js';
import type { AppContext } from '../../platform/context.js';
import { ListOf, noBody, problems, SECURITY } from '../../platform/http/schemas.js';
import { environmentNotFound, parseEnvironmentName } from '../environments/names.js';
import { environmentExists } from '../environments/repo.js';
import { createKey, deleteKeyById } from './commands.js';
import { presentKey } from './presenter.js';
import { listKeys } from './repo.js';
import { CreatedKeyOut, EnvironmentParam, KeyIdParams, KeyOut } from './schemas.js';

export const keyRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['keys'];

    for (const kind of ['secret', 'publishable'] as const) {
      const path = kind === 'secret' ? '/keys/secrets' : '/keys/publishable';
      const name = kind === 'secret' ? 'SecretKey' : 'PublishableKey';

      app.post(
        path,
        {
          schema: {
            tags,
            summary: `Create a ${kind} key in an environment`,
            operationId: `create${name}`,
            security: SECURITY.session,
            querystring: EnvironmentParam,
            response: { 201: CreatedKeyOut, ...problems(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          const principal = requireSessionFor(request, 'manageAccess');
          const environment = parseEnvironmentName(request.query.environment, true);
          const { stored, key } = await createKey(database, principal, kind, environment);
          const { lastUsedAt: _unused, ...info } = presentKey(stored);
          return reply.status(201).send({ ...info, key });
        },
      );

      app.delete(
        `${path}/:keyId`,
        {
          schema: {
            tags,
            summary: `Delete a ${kind} key (effective at once)`,
            operationId: `delete${name}`,
            security: SECURITY.session,
            params: KeyIdParams,
            response: { 204: noBody('Deleted'), ...problems(401, 403, 404) },
          },
        },
        async (request, reply) => {
          const principal = requireSessionFor(request, 'manageAccess');
          await deleteKeyById(database, principal, kind, request.params.keyId);
          return reply.status(204).send(null);
        },
      );
    }

    app.get(
      '/keys',
      {
        schema: {
          tags,
          summary: 'List the keys of an environment (without the keys themselves)',
          operationId: 'listKeys',
          security: SECURITY.session,
          querystring: EnvironmentParam,
          response: { 200: ListOf(KeyOut), ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { workspaceId } = requireSessionFor(request, 'manageAccess');
        const environment = parseEnvironmentName(request.query.environment, true);
        if (!(await environmentExists(database.db, workspaceId, environment)))
          throw environmentNotFound(environment);
        const rows = await listKeys(database.db, workspaceId, environment);
        return { data: rows.map(presentKey), nextCursor: null };
      },
    );
  };
