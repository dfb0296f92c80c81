import type { KeyKind } from '../../platform/auth.js';
import type { Db, Trx } from '../../platform/db/database.js';

export interface StoredKey {
  id: string;
  workspaceId: string;
  /** Who made it. */
  userId: string;
  environment: string;
  kind: KeyKind;
  /** SHA-256 of the key's `sk_live_…`/`pk_live_…` spelling: the key itself is never stored. */
  keyHash: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
}

const columns = [
  'id',
  'workspace_id as workspaceId',
  'user_id as userId',
  'environment',
  'kind',
  'key_hash as keyHash',
  'last4',
  'created_at as createdAt',
  'last_used_at as lastUsedAt',
] as const;

export async function insertKey(trx: Trx, key: StoredKey): Promise<void> {
  await trx
    .insertInto('api_keys')
    .values({
      id: key.id,
      workspace_id: key.workspaceId,
      user_id: key.userId,
      environment: key.environment,
      kind: key.kind,
      key_hash: key.keyHash,
      last4: key.last4,
      created_at: key.createdAt,
      last_used_at: key.lastUsedAt,
    })
    .execute();
}

export function listKeys(db: Db, workspaceId: string, environment: string): Promise<StoredKey[]> {
  return db
    .selectFrom('api_keys')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .where('environment', '=', environment)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Every key the user made, in every workspace and environment, oldest first, at most `limit`. */
export function listKeysOfUser(db: Db | Trx, userId: string, limit: number): Promise<StoredKey[]> {
  return db
    .selectFrom('api_keys')
    .select(columns)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export function findKeyByHash(db: Db, keyHash: string): Promise<StoredKey | undefined> {
  return db.selectFrom('api_keys').select(columns).where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function recordKeyUse(db: Db, id: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
}

/** Deletes the workspace's key of that kind; false when there was none (another workspace's id included). */
export async function deleteKey(
  db: Db | Trx,
  workspaceId: string,
  kind: KeyKind,
  id: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('api_keys')
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
