import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from './db/database.js';
import { sha256Hex } from './hashing.js';
import { forbidden, unauthorized } from './problem.js';
import { nowIso } from './time.js';

export type KeyKind = 'secret' | 'publishable';

export type Principal =
  | { kind: 'session'; userId: string; tokenHash: string }
  | { kind: KeyKind; userId: string; environment: string; keyId: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: null when no credential was sent (an invalid one is a 401). */
    principal: Principal | null;
  }
}

const KEY_PREFIXES = new Map<string, KeyKind>([
  ['sk_live_', 'secret'],
  ['sk-live-', 'secret'],
  ['pk_live_', 'publishable'],
  ['pk-live-', 'publishable'],
]);

/** `sk-live-X` and `sk_live_X` name the same key: both are hashed in the `_` spelling. */
export function parseKey(credential: string): { kind: KeyKind; canonical: string } | null {
  const kind = KEY_PREFIXES.get(credential.slice(0, 8));
  if (!kind) return null;
  return { kind, canonical: `${credential.slice(0, 2)}_live_${credential.slice(8)}` };
}

function readCredential(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token or key>"');
    return match[1];
  }
  const apiKey = headerValue(request, 'x-api-key');
  if (apiKey !== undefined) return apiKey;
  const publishable = headerValue(request, 'x-publishable-key');
  // The header browsers send: a secret key there is a secret leaked into a web page.
  if (publishable !== undefined && parseKey(publishable)?.kind !== 'publishable') {
    throw unauthorized(
      'X-Publishable-Key takes a publishable key (pk_live_…); send other credentials in Authorization',
    );
  }
  return publishable;
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const LAST_USED_PRECISION_MS = 60_000;

/**
 * Resolves the caller once per request, before the body is parsed. An unknown, revoked
 * or expired credential is a 401 on every route, never silently anonymous.
 */
export function installAuthentication(app: FastifyInstance, database: Database): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const credential = readCredential(request);
    if (credential === undefined) return;
    if (credential.length > 512) throw unauthorized('The credential is not valid');
    const key = parseKey(credential);
    const now = nowIso();
    if (key) {
      const row = await database.db
        .selectFrom('api_keys')
        .select(['id', 'user_id', 'environment', 'kind', 'last_used_at'])
        .where('key_hash', '=', sha256Hex(key.canonical))
        .executeTakeFirst();
      if (!row || row.kind !== key.kind) throw unauthorized('The API key is not valid (unknown or deleted)');
      request.principal = {
        kind: key.kind,
        userId: row.user_id,
        environment: row.environment,
        keyId: row.id,
      };
      if (!row.last_used_at || Date.parse(now) - Date.parse(row.last_used_at) > LAST_USED_PRECISION_MS) {
        // Kept to the minute, and off the request path: a lost update only makes it older.
        database.db
          .updateTable('api_keys')
          .set({ last_used_at: now })
          .where('id', '=', row.id)
          .execute()
          .catch((error: unknown) => request.log.warn({ err: error }, 'could not record key use'));
      }
      return;
    }
    const tokenHash = sha256Hex(credential);
    const session = await database.db
      .selectFrom('sessions')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!session || session.expires_at <= now) {
      throw unauthorized('The session token is not valid (unknown, expired or logged out)');
    }
    request.principal = { kind: 'session', userId: session.user_id, tokenHash };
  });
}

/** Any credential. */
export function requireAuthenticated(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized('This endpoint needs a session token or an API key');
  return request.principal;
}

export function requireSession(request: FastifyRequest): Extract<Principal, { kind: 'session' }> {
  const principal = requireAuthenticated(request);
  if (principal.kind !== 'session') {
    throw forbidden('This endpoint needs a session token: API keys cannot manage environments and keys');
  }
  return principal;
}

/** A session, or a secret key (which is then bound to its environment). */
export function requireSessionOrSecretKey(request: FastifyRequest): Principal {
  const principal = requireAuthenticated(request);
  if (principal.kind === 'publishable') {
    throw forbidden(
      'A publishable key can only read forms and submit to them; use a secret key or a session',
    );
  }
  return principal;
}
