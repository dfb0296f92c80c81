import type { Config } from '../config.js';
import type { Envelope } from './crypto/envelope.js';
import type { Database } from './db/database.js';
import type { PasswordHasher } from './hashing.js';
import type { FrontDoor } from './http/front-door.js';
import type { Mailer } from './mail.js';
import type { OutboxWorker } from './outbox.js';
import type { RateLimitStore } from './rate-limit.js';

/** What every feature is handed when it is registered: explicit, so tests can build it too. */
export interface AppContext {
  config: Config;
  database: Database;
  rateLimitStore: RateLimitStore;
  /** Encrypts secrets (and, later, PII) under data keys from the key-management provider. */
  envelope: Envelope;
  /** The outbox worker: features register their message handlers and nudge it after a commit that appended rows. */
  outbox: OutboxWorker;
  /** Sends e-mail (SMTP, or `.eml` files): features send through the outbox, or at once for a reply. */
  mailer: Mailer;
  /** Hashes and checks account passwords (scrypt). */
  passwords: PasswordHasher;
  /** Requests answered before Fastify routes them: the hosted page's replays (web/hosted/replays.ts). */
  frontDoor: FrontDoor;
}
