import type { KeyKind } from '../../platform/auth.js';
import type { Db, Trx } from '../../platform/db/database.js';

export interface KeyRow {
  id: string;
  user_id: string;
  environment: string;
  kind: KeyKind;
  key_hash: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
}

export async function insertKey(trx: Trx, row: KeyRow): Promise<void> {
  await trx.insertInto('api_keys').values(row).execute();
}

export function listKeys(db: Db, userId: string, environment: string): Promise<KeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('environment', '=', environment)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes the user's key of that kind; false when there was none (another user's id included). */
export async function deleteKey(db: Db | Trx, userId: string, kind: KeyKind, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
