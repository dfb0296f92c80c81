import { actorOf, recordAudit } from '../../platform/audit.js';
import type { KeyKind, Principal } from '../../platform/auth.js';
import type { Database } from '../../platform/db/database.js';
import { sha256Hex } from '../../platform/hashing.js';
import { newId, randomToken } from '../../platform/ids.js';
import { notFound } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { environmentNotFound } from '../environments/names.js';
import { holdEnvironment } from '../environments/repo.js';
import { deleteKey, insertKey, type StoredKey } from './repo.js';

/** Creating and deleting API keys (API.md §4), for the routes and the pages. */

const PREFIX: Record<KeyKind, string> = { secret: 'sk_live_', publishable: 'pk_live_' };

/**
 * A new key in one of the workspace's environments, made by `userId`: the stored key, and the
 * key itself (shown this once).
 */
export async function createKey(
  database: Database,
  by: Principal,
  kind: KeyKind,
  environment: string,
): Promise<{ stored: StoredKey; key: string }> {
  const { workspaceId, userId } = by;
  const key = `${PREFIX[kind]}${randomToken(32)}`;
  const stored: StoredKey = {
    id: newId('key'),
    workspaceId,
    userId,
    environment,
    kind,
    keyHash: sha256Hex(key),
    last4: key.slice(-4),
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  await database.transaction(async (trx) => {
    if (!(await holdEnvironment(trx, database.engine, workspaceId, environment))) {
      throw environmentNotFound(environment);
    }
    await insertKey(trx, stored);
    await recordAudit(trx, {
      workspaceId,
      actor: actorOf(by),
      action: 'key.created',
      target: { type: 'key', id: stored.id },
    });
  });
  return { stored, key };
}

/** Deletes the workspace's key (effective at once); 404 for another workspace's, or an unknown one. */
export async function deleteKeyById(
  database: Database,
  by: Principal,
  kind: KeyKind,
  id: string,
): Promise<void> {
  const { workspaceId } = by;
  const deleted = await database.transaction(async (trx) => {
    if (!(await deleteKey(trx, workspaceId, kind, id))) return false;
    await recordAudit(trx, {
      workspaceId,
      actor: actorOf(by),
      action: 'key.deleted',
      target: { type: 'key', id },
    });
    return true;
  });
  if (!deleted) throw notFound(`No ${kind} key ${id}`);
}
