import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { csrfTokenFor, NO_SESSION_COOKIE, requireSession, sessionCookieHash } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/dialect.js';
import { sha256Hex } from '../../platform/hashing.js';
import { noBody, problems, SECURITY, withHeaders } from '../../platform/http/schemas.js';
import { newId, randomToken } from '../../platform/ids.js';
import { conflict, unauthorized } from '../../platform/problem.js';
import { addDays, nowIso } from '../../platform/time.js';
import { createPersonalWorkspace } from '../workspaces/commands.js';
import type { CredentialLimits } from './limits.js';
import { presentUser } from './presenter.js';
import {
  deleteExpiredSessions,
  deleteSession,
  findUserByEmail,
  findUserById,
  insertSession,
  insertUser,
  type StoredSession,
  type StoredUser,
} from './repo.js';
import { Credentials, CurrentUserOut, LoginCredentials, SessionGrant } from './schemas.js';

export const accountRoutes =
  ({ config, database, passwords }: AppContext, limits: CredentialLimits): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['accounts'];

    /** A new session: the token for the client, the row (holding only its hash) for the database. */
    function newSession(userId: string) {
      const token = randomToken(32);
      const createdAt = nowIso();
      const expiresAt = addDays(createdAt, config.sessionTtlDays);
      const row: StoredSession = { tokenHash: sha256Hex(token), userId, createdAt, expiresAt };
      return { token, expiresAt, row };
    }

    /**
     * The session a new cookie session replaces (`cookie: true` with the browser's old cookie):
     * ended in the new one's transaction, as the browser will no longer hold it.
     */
    const replacedBy = (request: FastifyRequest, cookie: boolean | undefined) =>
      cookie ? sessionCookieHash(request) : undefined;

    /**
     * What the client is handed for a new session: the token in the body, or, for a browser
     * (`cookie: true`), the token in the session cookie and the CSRF token in the body.
     */
    function grant(reply: FastifyReply, session: ReturnType<typeof newSession>, cookie: boolean | undefined) {
      if (!cookie) return { token: session.token, expiresAt: session.expiresAt };
      reply.setSessionCookie(session.token, session.expiresAt).header('cache-control', 'no-store');
      return { csrfToken: csrfTokenFor(session.token), expiresAt: session.expiresAt };
    }

    app.post(
      '/auth/signup',
      {
        schema: {
          tags,
          summary: 'Create an account (and its development and production environments)',
          operationId: 'signUp',
          security: SECURITY.none,
          body: Credentials,
          response: {
            201: withHeaders(SessionGrant, ['Set-Cookie'], 'Signed up and in'),
            ...problems(400, 409, 429),
          },
        },
        // takes no credential: a browser's stale session cookie does not stand in the way
        config: NO_SESSION_COOKIE,
      },
      async (request, reply) => {
        const emailKey = request.body.email.toLowerCase();
        await limits.attempt(request.ip);
        const passwordHash = await passwords.hash(request.body.password);
        const user: StoredUser = {
          id: newId('usr'),
          email: request.body.email,
          passwordHash,
          createdAt: nowIso(),
        };
        const session = newSession(user.id);
        const replaced = replacedBy(request, request.body.cookie);
        try {
          await database.transaction(async (trx) => {
            await insertUser(trx, user, emailKey);
            await createPersonalWorkspace(trx, user.id, user.createdAt);
            await insertSession(trx, session.row);
            if (replaced) await deleteSession(trx, replaced);
          });
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict('An account with this e-mail address already exists');
          throw error;
        }
        return reply
          .status(201)
          .send({ user: presentUser(user), ...grant(reply, session, request.body.cookie) });
      },
    );

    app.post(
      '/auth/login',
      {
        schema: {
          tags,
          summary: 'Exchange e-mail and password for a session token (or a session cookie)',
          operationId: 'logIn',
          security: SECURITY.none,
          body: LoginCredentials,
          response: {
            200: withHeaders(SessionGrant, ['Set-Cookie'], 'Signed in'),
            ...problems(400, 401, 429),
          },
        },
        config: NO_SESSION_COOKIE,
      },
      async (request, reply) => {
        const emailKey = request.body.email.toLowerCase();
        // Guessing is slowed per client address and per targeted account (limits.ts).
        await limits.beforeLogIn(emailKey, request.ip);
        const user = await findUserByEmail(database.db, emailKey);
        // Verify against a decoy when the account is unknown: both answers take as long.
        const valid = await passwords.verify(
          request.body.password,
          user?.passwordHash ?? (await passwords.decoyHash()),
        );
        if (!user || !valid) {
          await limits.logInFailed(emailKey, request.ip);
          throw unauthorized('The e-mail address or the password is wrong');
        }
        const session = newSession(user.id);
        const replaced = replacedBy(request, request.body.cookie);
        await database.transaction(async (trx) => {
          await deleteExpiredSessions(trx, user.id, session.row.createdAt);
          await insertSession(trx, session.row);
          if (replaced) await deleteSession(trx, replaced);
        });
        return { user: presentUser(user), ...grant(reply, session, request.body.cookie) };
      },
    );

    app.post(
      '/auth/logout',
      {
        schema: {
          tags,
          summary: 'Revoke the session in use (a cookie session: and clear the cookie)',
          operationId: 'logOut',
          security: SECURITY.session,
          response: { 204: noBody('Signed out', ['Set-Cookie']), ...problems(401, 403) },
        },
      },
      async (request, reply) => {
        const session = requireSession(request);
        await database.transaction((trx) => deleteSession(trx, session.tokenHash));
        if (session.via === 'cookie') reply.clearSessionCookie();
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/auth/me',
      {
        schema: {
          tags,
          summary: 'The signed-in user (and, with the session cookie, its CSRF token)',
          operationId: 'getCurrentUser',
          security: SECURITY.session,
          response: {
            200: CurrentUserOut,
            ...problems(401, 403),
          },
        },
      },
      async (request, reply) => {
        const session = requireSession(request);
        const user = await findUserById(database.db, session.userId);
        if (!user) throw unauthorized('The session belongs to a deleted account');
        if (session.via === 'bearer') return { user: presentUser(user) };
        // the CSRF token is a secret of this browser: no cache keeps it
        reply.header('cache-control', 'no-store');
        return { user: presentUser(user), csrfToken: session.csrfToken };
      },
    );
  };
