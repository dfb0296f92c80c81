import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { decoyPasswordHash, hashPassword, sha256Hex, verifyPassword } from '../../platform/hashing.js';
import { problems, Timestamp } from '../../platform/http/schemas.js';
import { newId, randomToken } from '../../platform/ids.js';
import { conflict, unauthorized } from '../../platform/problem.js';
import { createRateLimiter } from '../../platform/rate-limit.js';
import { addDays, nowIso } from '../../platform/time.js';
import { insertDefaultEnvironments } from '../environments/repo.js';
import {
  deleteExpiredSessions,
  deleteSession,
  findUserByEmail,
  findUserById,
  insertSession,
  insertUser,
} from './repo.js';

const User = Type.Object({ id: Type.String(), email: Type.String(), createdAt: Timestamp });
const SessionGrant = Type.Object({ user: User, token: Type.String(), expiresAt: Timestamp });
const Credentials = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 8, maxLength: 256 }),
  },
  { additionalProperties: false },
);
const LoginCredentials = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Type.String({ maxLength: 256 }) },
  { additionalProperties: false },
);

const presentUser = (row: { id: string; email: string; created_at: string }) => ({
  id: row.id,
  email: row.email,
  createdAt: row.created_at,
});

export const accountRoutes =
  ({ config, database, rateLimitStore }: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['accounts'];
    // Guessing passwords is slowed per client address and per targeted account.
    const byAddress = createRateLimiter(rateLimitStore, {
      name: 'auth-ip',
      points: config.rateLimitAuth,
      windowSeconds: 60,
    });
    const byAccount = createRateLimiter(rateLimitStore, {
      name: 'auth-email',
      points: config.rateLimitAuth,
      windowSeconds: 60,
    });

    /** A new session: the token for the client, the row (holding only its hash) for the database. */
    function newSession(userId: string) {
      const token = randomToken(32);
      const createdAt = nowIso();
      const expiresAt = addDays(createdAt, config.sessionTtlDays);
      const row = {
        token_hash: sha256Hex(token),
        user_id: userId,
        created_at: createdAt,
        expires_at: expiresAt,
      };
      return { grant: { token, expiresAt }, row };
    }

    app.post(
      '/auth/signup',
      {
        schema: {
          tags,
          summary: 'Create an account (and its development and production environments)',
          body: Credentials,
          response: { 201: SessionGrant, ...problems(400, 409, 429) },
        },
      },
      async (request, reply) => {
        const emailKey = request.body.email.toLowerCase();
        await byAddress.consume(request.ip);
        const passwordHash = await hashPassword(request.body.password);
        const user = {
          id: newId('usr'),
          email: request.body.email,
          email_key: emailKey,
          password_hash: passwordHash,
          created_at: nowIso(),
        };
        const session = newSession(user.id);
        try {
          await database.transaction(async (trx) => {
            await insertUser(trx, user);
            await insertDefaultEnvironments(trx, user.id, user.created_at);
            await insertSession(trx, session.row);
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict('An account with this e-mail address already exists');
          throw error;
        }
        return reply.status(201).send({ user: presentUser(user), ...session.grant });
      },
    );

    app.post(
      '/auth/login',
      {
        schema: {
          tags,
          summary: 'Exchange e-mail and password for a session token',
          body: LoginCredentials,
          response: { 200: SessionGrant, ...problems(400, 401, 429) },
        },
      },
      async (request) => {
        const emailKey = request.body.email.toLowerCase();
        await byAddress.consume(request.ip);
        await byAccount.consume(emailKey);
        const user = await findUserByEmail(database.db, emailKey);
        // Verify against a decoy when the account is unknown: both answers take as long.
        const valid = await verifyPassword(
          request.body.password,
          user?.password_hash ?? (await decoyPasswordHash()),
        );
        if (!user || !valid) throw unauthorized('The e-mail address or the password is wrong');
        const session = newSession(user.id);
        await database.transaction(async (trx) => {
          await deleteExpiredSessions(trx, user.id, session.row.created_at);
          await insertSession(trx, session.row);
        });
        return { user: presentUser(user), ...session.grant };
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          tags,
          summary: 'Revoke the session token in use',
          response: { 204: Type.Null(), ...problems(401, 403) },
        },
      },
      async (request, reply) => {
        const { tokenHash } = requireSession(request);
        await database.transaction((trx) => deleteSession(trx, tokenHash));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/auth/me',
      {
        schema: {
          tags,
          summary: 'The signed-in user',
          response: { 200: Type.Object({ user: User }), ...problems(401, 403) },
        },
      },
      async (request) => {
        const { userId } = requireSession(request);
        const user = await findUserById(database.db, userId);
        if (!user) throw unauthorized('The session belongs to a deleted account');
        return { user: presentUser(user) };
      },
    );
  };
