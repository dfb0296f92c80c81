import type { CredentialResolvers } from '../../platform/auth.js';
import type { Database } from '../../platform/db/database.js';
import { nowIso } from '../../platform/time.js';
import { findLiveSessionMembership } from './repo.js';

/**
 * Sessions as credentials (handed to the platform's authentication): found by token hash,
 * unexpired, with the user's membership of the workspace the request acts in.
 */
export function sessionCredentials(database: Database): Pick<CredentialResolvers, 'resolveSession'> {
  return {
    async resolveSession(tokenHash: string, workspaceId?: string) {
      const row = await findLiveSessionMembership(database.db, tokenHash, nowIso(), workspaceId);
      if (!row) return null;
      const { userId, workspaceId: id, role } = row;
      return { userId, membership: id !== null && role !== null ? { workspaceId: id, role } : null };
    },
  };
}
