import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requireSessionFor } from '../../platform/access.js';
import type { AppContext } from '../../platform/context.js';
import { ListOf, noBody, problems, SECURITY } from '../../platform/http/schemas.js';
import { createEnvironment, deleteEnvironmentByName } from './commands.js';
import { parseEnvironmentName } from './names.js';
import { presentEnvironment } from './presenter.js';
import { listEnvironments } from './repo.js';
import { CreateEnvironmentBody, EnvironmentNameParams, EnvironmentOut } from './schemas.js';

export const environmentRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['environments'];

    app.get(
      '/environments',
      {
        schema: {
          tags,
          summary: 'List your environments',
          operationId: 'listEnvironments',
          security: SECURITY.session,
          response: { 200: ListOf(EnvironmentOut), ...problems(401, 403) },
        },
      },
      async (request) => {
        const { workspaceId } = requireSessionFor(request, 'read');
        const rows = await listEnvironments(database.db, workspaceId);
        return { data: rows.map(presentEnvironment), nextCursor: null };
      },
    );

    app.post(
      '/environments',
      {
        config: { environmentNameMember: 'name' },
        schema: {
          tags,
          summary: 'Create an environment',
          operationId: 'createEnvironment',
          security: SECURITY.session,
          body: CreateEnvironmentBody,
          response: { 201: EnvironmentOut, ...problems(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const principal = requireSessionFor(request, 'manageAccess');
        const name = parseEnvironmentName(request.body.name, true);
        const created = await createEnvironment(database, principal, name);
        return reply.status(201).send(presentEnvironment(created));
      },
    );

    app.delete(
      '/environments/:name',
      {
        config: { environmentNameMember: 'name' },
        schema: {
          tags,
          summary: 'Delete an empty environment',
          operationId: 'deleteEnvironment',
          security: SECURITY.session,
          params: EnvironmentNameParams,
          response: { 204: noBody('Deleted'), ...problems(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const principal = requireSessionFor(request, 'manageAccess');
        const name = parseEnvironmentName(request.params.name, true);
        await deleteEnvironmentByName(database, principal, name);
        return reply.status(204).send(null);
      },
    );
  };
