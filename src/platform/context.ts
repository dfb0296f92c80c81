import type { Config } from '../config.js';
import type { Database } from './db/database.js';
import type { RateLimitStore } from './rate-limit.js';

/** What every feature is handed when it is registered: explicit, so tests can build it too. */
export interface AppContext {
  config: Config;
  database: Database;
  rateLimitStore: RateLimitStore;
}
