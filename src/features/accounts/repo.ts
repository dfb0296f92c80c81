import { executeNameable } from '../../platform/db/cached-statement.js';
import type { Db, Trx } from '../../platform/db/database.js';
import type { Role } from '../../platform/roles.js';

export interface StoredUser {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: string;
}

const userColumns = ['id', 'email', 'password_hash as passwordHash', 'created_at as createdAt'] as const;

export function findUserByEmail(db: Db, emailKey: string): Promise<StoredUser | undefined> {
  return db.selectFrom('users').select(userColumns).where('email_key', '=', emailKey).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<StoredUser | undefined> {
  return db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

/** `emailKey`: the address lower-cased, unique (addresses compare case-insensitively, API.md §2). */
export async function insertUser(trx: Trx, user: StoredUser, emailKey: string): Promise<void> {
  await trx
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email,
      email_key: emailKey,
      password_hash: user.passwordHash,
      created_at: user.createdAt,
    })
    .execute();
}

export interface StoredSession {
  /** SHA-256 of the token: the token itself is only ever the client's. */
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

export async function insertSession(db: Db | Trx, session: StoredSession): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      created_at: session.createdAt,
      expires_at: session.expiresAt,
    })
    .execute();
}

/**
 * The session with this token hash, unless it has expired (a logged-out one is gone), with its
 * user's membership of `workspaceId` (of their personal workspace when undefined) read in the
 * same query: the hot path pays no second one, and nothing is cached that a role change or a
 * removal could outlive (API.md §14). `workspaceId`/`role` are null when they are no member.
 */
export function findLiveSessionMembership(
  db: Db,
  tokenHash: string,
  now: string,
  workspaceId: string | undefined,
): Promise<{ userId: string; workspaceId: string | null; role: Role | null } | undefined> {
  const query = db
    .selectFrom('sessions as s')
    .leftJoin('workspace_members as m', (join) => {
      const member = join.onRef('m.user_id', '=', 's.user_id');
      return workspaceId !== undefined
        ? member.on('m.workspace_id', '=', workspaceId)
        : member.on(({ exists, selectFrom }) =>
            exists(
              selectFrom('workspaces as w')
                .select('w.id')
                .whereRef('w.id', '=', 'm.workspace_id')
                .where('w.personal', '=', 1),
            ),
          );
    })
    .select(['s.user_id as userId', 'm.workspace_id as workspaceId', 'm.role as role'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now);
  // every authenticated read asks it: prepared by name on PostgreSQL once it runs often
  return executeNameable(db, query).then(({ rows }) => rows[0]);
}

export async function deleteSession(db: Db | Trx, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Expired sessions are dead already; this only keeps the table small. */
export async function deleteExpiredSessions(db: Db | Trx, userId: string, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
}

export async function updatePasswordHash(db: Db | Trx, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

/** Revokes every session of the user but `keep` (the one in use), or every one when `keep` is undefined. */
export async function deleteOtherSessions(
  db: Db | Trx,
  userId: string,
  keep: string | undefined,
): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep !== undefined) query = query.where('token_hash', '<>', keep);
  await query.execute();
}

export interface StoredPasswordReset {
  /** SHA-256 of the token mailed: the token itself is only ever in the mail. */
  tokenHash: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
}

export async function insertPasswordReset(db: Db | Trx, reset: StoredPasswordReset): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({
      token_hash: reset.tokenHash,
      user_id: reset.userId,
      created_at: reset.createdAt,
      expires_at: reset.expiresAt,
    })
    .execute();
}

/**
 * Uses a reset token: deletes its row and answers whose it was, unless it is unknown, used
 * (deleted) or expired. One delete, so of two confirmations at once only one gets the user.
 */
/** The user a live reset token belongs to, without taking it (`takePasswordReset` does, in the transaction). */
export async function findPasswordResetUser(
  db: Db,
  tokenHash: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('password_resets')
    .select('user_id as userId')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.userId;
}

export async function takePasswordReset(
  trx: Trx,
  tokenHash: string,
  now: string,
): Promise<{ userId: string } | undefined> {
  const row = await trx
    .selectFrom('password_resets')
    .select('user_id as userId')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const deleted = await trx
    .deleteFrom('password_resets')
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n ? row : undefined;
}

/** Every reset link of the user stops working (the password changed, or one link was used). */
export async function deletePasswordResets(db: Db | Trx, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

/** A user's reset links past their hour: dead already; this only keeps the table small. */
export async function deleteExpiredPasswordResets(db: Db | Trx, userId: string, now: string): Promise<void> {
  await db
    .deleteFrom('password_resets')
    .where('user_id', '=', userId)
    .where('expires_at', '<=', now)
    .execute();
}
