import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../platform/db/dialect.js';
import { ListOf, problems, Timestamp } from '../../platform/http/schemas.js';
import { conflict } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { environmentNotFound, isDefaultEnvironment, parseEnvironmentName } from './names.js';
import {
  countEnvironmentContents,
  deleteEnvironment,
  environmentExists,
  insertEnvironment,
  listEnvironments,
} from './repo.js';

const Environment = Type.Object({ name: Type.String(), isDefault: Type.Boolean(), createdAt: Timestamp });

const present = (row: { name: string; created_at: string }) => ({
  name: row.name,
  isDefault: isDefaultEnvironment(row.name),
  createdAt: row.created_at,
});

function notEmpty(name: string, contents: { forms: number; keys: number }) {
  return conflict(
    `The environment "${name}" still holds ${contents.forms} form(s) and ${contents.keys} API key(s): delete them first`,
    'environment_not_empty',
    { extensions: { forms: contents.forms, keys: contents.keys } },
  );
}

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
          response: { 200: ListOf(Environment), ...problems(401, 403) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const rows = await listEnvironments(database.db, userId);
        return { data: rows.map(present), nextCursor: null };
      },
    );

    app.post(
      '/environments',
      {
        config: { environmentNameMember: 'name' },
        schema: {
          tags,
          summary: 'Create an environment',
          body: Type.Object({ name: Type.String() }, { additionalProperties: false }),
          response: { 201: Environment, ...problems(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const { userId } = requireSession(request);
        const name = parseEnvironmentName(request.body.name, true);
        const createdAt = nowIso();
        try {
          await database.transaction((trx) => insertEnvironment(trx, userId, name, createdAt));
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict(`The environment "${name}" already exists`);
          throw error;
        }
        return reply.status(201).send({ name, isDefault: false, createdAt });
      },
    );

    app.delete(
      '/environments/:name',
      {
        config: { environmentNameMember: 'name' },
        schema: {
          tags,
          summary: 'Delete an empty environment',
          params: Type.Object({ name: Type.String() }),
          response: { 204: Type.Null(), ...problems(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { userId } = requireSession(request);
        const name = parseEnvironmentName(request.params.name, true);
        const remove = database.transaction(async (trx) => {
          if (!(await environmentExists(trx, userId, name))) throw environmentNotFound(name);
          if (isDefaultEnvironment(name)) {
            throw conflict(`"${name}" is a default environment: development and production always exist`);
          }
          const contents = await countEnvironmentContents(trx, userId, name);
          if (contents.forms > 0 || contents.keys > 0) throw notEmpty(name, contents);
          await deleteEnvironment(trx, userId, name);
        });
        await remove.catch(async (error: unknown) => {
          // a form or key was created in the environment while it was being deleted
          if (!isForeignKeyViolation(error)) throw error;
          throw notEmpty(name, await countEnvironmentContents(database.db, userId, name));
        });
        return reply.status(204).send(null);
      },
    );
  };
