import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { NO_SESSION_COOKIE, requireSession } from '../../platform/auth.js';
import type { AppContext } from '../../platform/context.js';
import { sha256Hex } from '../../platform/hashing.js';
import { linkOrigin } from '../../platform/http/link-origin.js';
import { noBody, problems, SECURITY } from '../../platform/http/schemas.js';
import { randomToken } from '../../platform/ids.js';
import { emailMessage } from '../../platform/mail-outbox.js';
import { appendToOutbox } from '../../platform/outbox.js';
import { badRequest, unauthorized } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import type { CredentialLimits } from './limits.js';
import { ACCESS_LISTED_AT_MOST, type AccountAccessLister, passwordChangedMessage } from './notices.js';
import {
  deleteExpiredPasswordResets,
  deleteOtherSessions,
  deletePasswordResets,
  findPasswordResetUser,
  findUserByEmail,
  findUserById,
  insertPasswordReset,
  takePasswordReset,
  updatePasswordHash,
} from './repo.js';
import { PasswordChange, PasswordReset, PasswordResetConfirm } from './schemas.js';

/** How long a reset link works (API.md §2: one hour). */
export const RESET_TTL_MS = 60 * 60 * 1000;

/**
 * Passwords (API.md §2): change one (the current one needed; the user's other sessions
 * revoked), and reset a forgotten one by e-mail. A reset request always answers 202, known
 * address or not, and is rate-limited like log-in; the mail, written to the outbox in the
 * token's own transaction, holds a link to `/app/reset?token=…` whose token is single-use,
 * good for an hour and stored as a hash. Confirming sets the password and revokes every session.
 * Either way of setting a password mails the owner the API keys and webhooks that outlive it
 * (notices.ts), in the password's own transaction.
 */
export const passwordRoutes =
  (
    { config, database, envelope, outbox, passwords }: AppContext,
    limits: CredentialLimits,
    accessOf: AccountAccessLister,
  ): FastifyPluginAsyncTypebox =>
  async (app) => {
    const tags = ['accounts'];

    /**
     * The mail telling the owner their password was set, listing the API keys and webhooks that
     * outlive it (notices.ts), ready for the outbox. One more entry than is listed is read, so
     * that the mail can say there are more.
     */
    async function passwordChangedNotice(
      user: { id: string; email: string },
      how: 'changed' | 'reset',
      request: FastifyRequest,
    ) {
      const access = await accessOf(database.db, user.id, ACCESS_LISTED_AT_MOST + 1);
      const message = passwordChangedMessage({
        to: user.email,
        how,
        at: nowIso(),
        access,
        base: linkOrigin(request, config),
      });
      return emailMessage(envelope, message, { purpose: 'password-changed', userId: user.id });
    }

    app.post(
      '/auth/password',
      {
        schema: {
          tags,
          summary: 'Change the password (the current one needed); every other session is revoked',
          operationId: 'changePassword',
          security: SECURITY.session,
          body: PasswordChange,
          response: { 204: noBody('Changed'), ...problems(400, 401, 403, 429) },
        },
      },
      async (request, reply) => {
        const session = requireSession(request);
        // a stolen session guessing the password is slowed like a log-in
        await limits.passwordChangesByUser.consume(session.userId);
        const user = await findUserById(database.db, session.userId);
        if (!user) throw unauthorized('The session belongs to a deleted account');
        if (!(await passwords.verify(request.body.currentPassword, user.passwordHash)))
          throw unauthorized('The current password is wrong');
        const passwordHash = await passwords.hash(request.body.newPassword);
        const notice = await passwordChangedNotice(user, 'changed', request);
        await database.transaction(async (trx) => {
          await updatePasswordHash(trx, user.id, passwordHash);
          await deleteOtherSessions(trx, user.id, session.tokenHash);
          // a reset link asked for before the change would undo it
          await deletePasswordResets(trx, user.id);
          await appendToOutbox(trx, [notice]);
        });
        outbox.nudge();
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/auth/password-reset',
      {
        schema: {
          tags,
          summary: 'Mail a link to set a new password (202 whether or not the address is known)',
          operationId: 'requestPasswordReset',
          security: SECURITY.none,
          body: PasswordReset,
          response: {
            // no body at all (not even `null`)
            202: Type.Unsafe<void>(noBody('Asked for: a link is mailed if the address has an account')),
            ...problems(400, 429),
          },
        },
        config: NO_SESSION_COOKIE,
      },
      async (request, reply) => {
        const emailKey = request.body.email.trim().toLowerCase();
        await limits.attempt(request.ip);
        await limits.resetRequestsByAccount.consume(emailKey);
        const base = linkBase(request, config, request.log);
        // Answered before any work that depends on the account, so that the answer's time does
        // not tell a known address from an unknown one; the work (a lookup, the token, the mail
        // written to the outbox) follows. A failure there is logged: the person asks again.
        reply.status(202).send();
        try {
          await mailResetLink(emailKey, base);
        } catch (error) {
          request.log.error({ err: error }, 'a password-reset link could not be prepared');
        }
        return reply;
      },
    );

    /** The reset link for the account of `emailKey`, if there is one: a new token, and its mail through the outbox. */
    async function mailResetLink(emailKey: string, base: string | undefined): Promise<void> {
      const user = await findUserByEmail(database.db, emailKey);
      if (!user || !base) return;
      try {
        await limits.resetMailsByAccount.consume(user.id);
      } catch {
        return; // enough mails for this hour: the ones sent still work
      }
      const token = randomToken(32);
      const createdAt = nowIso();
      const expiresAt = new Date(Date.parse(createdAt) + RESET_TTL_MS).toISOString();
      const link = `${base}/app/reset?token=${encodeURIComponent(token)}`;
      const message = await emailMessage(
        envelope,
        {
          to: user.email,
          subject: 'Reset your Intake password',
          text: [
            'Someone (we hope you) asked to set a new password for your Intake account.',
            '',
            `Set a new password: ${link}`,
            '',
            'The link works once, for one hour. If you did not ask, ignore this mail: your password stays as it is.',
          ].join('\n'),
          headers: { 'Auto-Submitted': 'auto-generated' },
        },
        { purpose: 'password-reset', userId: user.id },
      );
      await database.transaction(async (trx) => {
        await deleteExpiredPasswordResets(trx, user.id, createdAt);
        await insertPasswordReset(trx, {
          tokenHash: sha256Hex(token),
          userId: user.id,
          createdAt,
          expiresAt,
        });
        await appendToOutbox(trx, [message], createdAt);
      });
      outbox.nudge();
    }

    app.post(
      '/auth/password-reset/confirm',
      {
        schema: {
          tags,
          summary: "Set a new password with a reset link's token; every session is revoked",
          operationId: 'confirmPasswordReset',
          security: SECURITY.none,
          body: PasswordResetConfirm,
          response: { 204: noBody('Set: log in with the new password'), ...problems(400, 429) },
        },
        config: NO_SESSION_COOKIE,
      },
      async (request, reply) => {
        await limits.attempt(request.ip);
        const invalid = () =>
          badRequest(
            'invalid_token',
            'This reset link is unknown, used already or expired: ask for a new one',
          );
        const tokenHash = sha256Hex(request.body.token);
        // The account is looked up first, so that its mail is ready (encrypted) before the
        // transaction, which then takes the token only if it is still that account's.
        const userId = await findPasswordResetUser(database.db, tokenHash, nowIso());
        const user = userId === undefined ? undefined : await findUserById(database.db, userId);
        if (!user) throw invalid();
        const passwordHash = await passwords.hash(request.body.password);
        const notice = await passwordChangedNotice(user, 'reset', request);
        const used = await database.transaction(async (trx) => {
          const reset = await takePasswordReset(trx, tokenHash, nowIso());
          if (reset?.userId !== user.id) return false;
          await updatePasswordHash(trx, user.id, passwordHash);
          await deleteOtherSessions(trx, user.id, undefined);
          await deletePasswordResets(trx, user.id);
          await appendToOutbox(trx, [notice]);
          return true;
        });
        if (!used) throw invalid();
        outbox.nudge();
        return reply.status(204).send(null);
      },
    );
  };

/**
 * Where a reset link leads: `PUBLIC_URL`; without it, the origin the request came to, but only
 * when that is this machine itself (`platform/http/link-origin.ts`). A link built from any Host header would let
 * whoever asks for a reset choose the site the victim's token is sent to: without PUBLIC_URL,
 * such a request mails nothing, and says why in the log.
 */
function linkBase(
  request: FastifyRequest,
  config: AppContext['config'],
  log: FastifyBaseLogger,
): string | undefined {
  const base = linkOrigin(request, config);
  if (base === undefined)
    log.warn(
      { host: request.host },
      'a password reset was asked for, but PUBLIC_URL is not set: no link is mailed',
    );
  return base;
}
