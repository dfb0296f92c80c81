import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { type KeyKind, requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { sha256Hex } from '../../platform/hashing.js';
import { EnvironmentQuery, ListOf, problems, Timestamp } from '../../platform/http/schemas.js';
import { newId, randomToken } from '../../platform/ids.js';
import { notFound } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { environmentNotFound, parseEnvironmentName } from '../environments/names.js';
import { environmentExists, holdEnvironment } from '../environments/repo.js';
import { deleteKey, insertKey, type KeyRow, listKeys } from './repo.js';

const KeyKindSchema = Type.Union([Type.Literal('secret'), Type.Literal('publishable')]);
const KeyInfo = Type.Object({
  id: Type.String(),
  kind: KeyKindSchema,
  environment: Type.String(),
  last4: Type.String(),
  createdAt: Timestamp,
  lastUsedAt: Type.Union([Timestamp, Type.Null()]),
});
const CreatedKey = Type.Object({
  id: Type.String(),
  kind: KeyKindSchema,
  environment: Type.String(),
  key: Type.String({ description: 'The full key: shown this once, stored only as its SHA-256 hash' }),
  last4: Type.String(),
  createdAt: Timestamp,
});
const EnvironmentParam = Type.Object({ environment: Type.Optional(EnvironmentQuery) });

const PREFIX: Record<KeyKind, string> = { secret: 'sk_live_', publishable: 'pk_live_' };

const presentKey = (row: KeyRow) => ({
  id: row.id,
  kind: row.kind,
  environment: row.environment,
  last4: row.last4,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export const keyRoutes =
  ({ database }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['keys'];

    for (const kind of ['secret', 'publishable'] as const) {
      const path = kind === 'secret' ? '/keys/secrets' : '/keys/publishable';

      app.post(
        path,
        {
          schema: {
            tags,
            summary: `Create a ${kind} key in an environment`,
            querystring: EnvironmentParam,
            response: { 201: CreatedKey, ...problems(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          const { userId } = requireSession(request);
          const environment = parseEnvironmentName(request.query.environment, true);
          const key = `${PREFIX[kind]}${randomToken(32)}`;
          const row: KeyRow = {
            id: newId('key'),
            user_id: userId,
            environment,
            kind,
            key_hash: sha256Hex(key),
            last4: key.slice(-4),
            created_at: nowIso(),
            last_used_at: null,
          };
          await database.transaction(async (trx) => {
            if (!(await holdEnvironment(trx, database.engine, userId, environment))) {
              throw environmentNotFound(environment);
            }
            await insertKey(trx, row);
          });
          const { lastUsedAt: _unused, ...info } = presentKey(row);
          return reply.status(201).send({ ...info, key });
        },
      );

      app.delete(
        `${path}/:keyId`,
        {
          schema: {
            tags,
            summary: `Delete a ${kind} key (effective at once)`,
            params: Type.Object({ keyId: Type.String({ maxLength: 100 }) }),
            response: { 204: Type.Null(), ...problems(401, 403, 404) },
          },
        },
        async (request, reply) => {
          const { userId } = requireSession(request);
          const deleted = await database.transaction((trx) =>
            deleteKey(trx, userId, kind, request.params.keyId),
          );
          if (!deleted) throw notFound(`No ${kind} key ${request.params.keyId}`);
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
          querystring: EnvironmentParam,
          response: { 200: ListOf(KeyInfo), ...problems(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const environment = parseEnvironmentName(request.query.environment, true);
        if (!(await environmentExists(database.db, userId, environment)))
          throw environmentNotFound(environment);
        const rows = await listKeys(database.db, userId, environment);
        return { data: rows.map(presentKey), nextCursor: null };
      },
    );
  };
