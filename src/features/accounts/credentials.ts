import type { CredentialResolvers } from '../../platform/auth.js';
import type { Database } from '../../platform/db/database.js';
import { nowIso } from '../../platform/time.js';
import { findLiveSession } from './repo.js';

/** Sessions as credentials (handed to the platform's authentication): found by token hash, unexpired. */
export function sessionCredentials(database: Database): Pick<CredentialResolvers, 'resolveSession'> {
  return {
    async resolveSession(tokenHash: string) {
      const session = await findLiveSession(database.db, tokenHash, nowIso());
      return session ?? null;
    },
  };
}
