import type { Db, Trx } from '../../platform/db/database.js';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: string;
}

export function findUserByEmail(db: Db, emailKey: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'created_at'])
    .where('email_key', '=', emailKey)
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertUser(trx: Trx, user: UserRow & { email_key: string }): Promise<void> {
  await trx.insertInto('users').values(user).execute();
}

export async function insertSession(
  db: Db | Trx,
  session: { token_hash: string; user_id: string; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('sessions').values(session).execute();
}

export async function deleteSession(db: Db | Trx, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

/** Expired sessions are dead already; this only keeps the table small. */
export async function deleteExpiredSessions(db: Db | Trx, userId: string, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_at', '<=', now).execute();
}
