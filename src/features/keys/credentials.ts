import type { FastifyBaseLogger } from 'fastify';
import type { CredentialResolvers, KeyGrant, KeyKind } from '../../platform/auth.js';
import type { Database } from '../../platform/db/database.js';
import { sha256Hex } from '../../platform/hashing.js';
import { nowIso } from '../../platform/time.js';
import { findKeyByHash, recordKeyUse } from './repo.js';

const LAST_USED_PRECISION_MS = 60_000;

/**
 * API keys as credentials (handed to the platform's authentication): a key is found by the
 * SHA-256 of its `sk_live_…`/`pk_live_…` spelling, and must be of the kind its prefix says.
 */
export function keyCredentials(database: Database): Pick<CredentialResolvers, 'resolveKey'> {
  return {
    async resolveKey(kind: KeyKind, canonicalKey: string, log: FastifyBaseLogger): Promise<KeyGrant | null> {
      const key = await findKeyByHash(database.db, sha256Hex(canonicalKey));
      if (!key || key.kind !== kind) return null;
      const now = nowIso();
      if (!key.lastUsedAt || Date.parse(now) - Date.parse(key.lastUsedAt) > LAST_USED_PRECISION_MS) {
        // Kept to the minute, and off the request path: a lost update only makes it older.
        recordKeyUse(database.db, key.id, now).catch((error: unknown) =>
          log.warn({ err: error }, 'could not record key use'),
        );
      }
      return {
        userId: key.userId,
        workspaceId: key.workspaceId,
        environment: key.environment,
        keyId: key.id,
      };
    },
  };
}
