import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from './hashing.js';
import { badRequest, forbidden, notFound, unauthorized } from './problem.js';
import type { Role } from './roles.js';

export const KEY_KINDS = ['secret', 'publishable'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** How a session token arrived: in `Authorization: Bearer`, or in the dashboard's HttpOnly cookie. */
export type SessionVia = 'bearer' | 'cookie';

/**
 * The workspace a session acts in on this request (API.md §14), and the member's role there:
 * read with the session on every request, so a role change or a removal holds from the next one.
 */
export interface Acting {
  workspaceId: string;
  role: Role;
}

export type Principal = (
  | ({ kind: 'session'; via: 'bearer'; userId: string; tokenHash: string } & Acting)
  /** A cookie session also carries its CSRF token (`GET /auth/me` hands it back to the dashboard). */
  | ({ kind: 'session'; via: 'cookie'; userId: string; tokenHash: string; csrfToken: string } & Acting)
  /** `userId`: who made the key; it acts in its environment's workspace, never another. */
  | { kind: KeyKind; userId: string; workspaceId: string; environment: string; keyId: string }
) & {
  /** The client address the credential came from (`request.ip`): what the audit log records. */
  ip: string;
};

/** What a key resolves to: its workspace and the one environment it works in (and who made it). */
export interface KeyGrant {
  userId: string;
  workspaceId: string;
  environment: string;
  keyId: string;
}

/**
 * What a session resolves to: its user, and their membership of the workspace the request
 * names (their personal one when it names none); null when they are no member of it.
 */
export interface SessionGrant {
  userId: string;
  membership: Acting | null;
}

export const WORKSPACE_HEADER = 'x-intake-workspace';
export const WORKSPACE_QUERY = 'workspace';
/** A workspace id as `newId('wsp')` makes them. */
const WORKSPACE_ID = /^wsp_[0-9a-z]{26}$/;

/**
 * How credentials become principals. The platform parses headers and cookies and applies the
 * rules (CSRF, origin, 401 for a bad credential); the features that own the tables look the
 * credentials up (`features/keys/credentials.ts`, `features/accounts/credentials.ts`).
 */
export interface CredentialResolvers {
  /** The key of that kind whose `sk_live_…`/`pk_live_…` spelling is given; null when unknown or deleted. */
  resolveKey(kind: KeyKind, canonicalKey: string, log: FastifyBaseLogger): Promise<KeyGrant | null>;
  /**
   * The live session with this token hash, with its user's membership of `workspaceId` (of their
   * personal workspace when undefined), read together; null when unknown, expired or logged out.
   */
  resolveSession(tokenHash: string, workspaceId?: string): Promise<SessionGrant | null>;
}

export interface AuthenticationOptions extends CredentialResolvers {
  /** The session cookie is `Secure` (HTTPS only): on in production mode, the default (off only with `NODE_ENV=development`). */
  secureCookie: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling: null when no credential was sent (an invalid one is a 401). */
    principal: Principal | null;
  }
  interface FastifyReply {
    /** Hands the browser the session token as the HttpOnly session cookie, expiring with the session. */
    setSessionCookie(token: string, expiresAt: string): FastifyReply;
    /** Tells the browser to forget the session cookie. */
    clearSessionCookie(): FastifyReply;
  }
  interface FastifyContextConfig {
    /**
     * The session cookie is not read on this route (sign-up, log-in, pages served to browsers):
     * neither does it authenticate there, nor can a stale one turn the request into a 401.
     */
    ignoreSessionCookie?: boolean;
  }
}

/** Route config of a route that takes no session cookie (see `ignoreSessionCookie`). */
export const NO_SESSION_COOKIE = { ignoreSessionCookie: true } as const;

export const SESSION_COOKIE = 'intake_session';

/**
 * The cookie's name: with `Secure` (production), `__Host-intake_session`, which browsers accept
 * only when Secure, on `Path=/` and without `Domain`, so that no sibling subdomain can plant a
 * session cookie of its own (an attacker's session, or junk that locks the dashboard out).
 * Plain HTTP (development) cannot carry the prefix.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}
export const CSRF_HEADER = 'x-csrf-token';

/** How `sessionFromCookie` reads the cookie: decorated on the app by `installAuthentication`. */
type CookieSessionResolver = (request: FastifyRequest) => Promise<string | null>;
const COOKIE_SESSION = Symbol('intake.cookieSession');
/** How `sessionCookieHash` reads the cookie (its name depends on `secureCookie`). */
type CookieTokenReader = (request: FastifyRequest) => string | undefined;
const COOKIE_TOKEN = Symbol('intake.cookieToken');

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

/** The headers a credential travels in (API.md §1); a request carries one. */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-publishable-key'] as const;

function readCredential(request: FastifyRequest): string | undefined {
  // Different ones: one would be used and the others never judged, so a revoked key sent beside a
  // good one would never be answered 401 (RFC 6750 §2 refuses more than one way to send a token,
  // 400). The same key in two of them (some clients do) is one credential.
  const sent = CREDENTIAL_HEADERS.flatMap((name) => {
    const value = request.headers[name];
    if (typeof value !== 'string' || value.trim() === '') return [];
    const credential = name === 'authorization' ? value.trim().replace(/^Bearer\s+/i, '') : value.trim();
    return [{ name, credential }];
  });
  if (new Set(sent.map(({ credential }) => credential)).size > 1) {
    throw badRequest(
      'invalid_parameter',
      `A request carries one credential, not several: it sent different ones in ${sent.map(({ name }) => name).join(', ')}; keep one of them`,
    );
  }
  // Each header's own rule holds whichever header is used (the same key may be in two).
  const publishable = headerValue(request, 'x-publishable-key');
  // The header browsers send: a secret key there is a secret leaked into a web page.
  if (publishable !== undefined && parseKey(publishable)?.kind !== 'publishable') {
    throw unauthorized(
      'X-Publishable-Key takes a publishable key (pk_live_…); send other credentials in Authorization',
    );
  }
  const apiKey = headerValue(request, 'x-api-key');
  // API.md §1: keys only. A session token there would be a user's whole account in a header
  // that integrations log and forward as a key.
  if (apiKey !== undefined && parseKey(apiKey) === null) {
    throw unauthorized(
      'X-API-Key takes an API key (sk_live_… or pk_live_…); send a session token as "Authorization: Bearer <token>"',
    );
  }
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <token or key>"');
    return match[1];
  }
  return apiKey ?? publishable;
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const MAX_CREDENTIAL_LENGTH = 512;
const CSRF_CONTEXT = 'intake csrf token v1';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The CSRF token of a cookie session: HMAC-SHA256 keyed with the session token itself.
 *
 * Nothing is stored and no server secret is needed: the server holds the session token on every
 * request that the cookie authenticates (the cookie carries it), so it derives the expected token
 * there and at sign-in, identically on every instance and across restarts. Only the holder of the
 * session token can compute it: the token is a 256-bit random secret that the browser keeps in an
 * HttpOnly cookie (page scripts cannot read it) and the database keeps only as a SHA-256 hash (so a
 * copy of the database does not yield it either). The HMAC is one-way: a leaked CSRF token
 * reveals nothing of the session token. It is tied to the session: a new log-in is a new token,
 * and it dies with its session (logout, expiry, password change).
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update(CSRF_CONTEXT).digest('base64url');
}

/** Constant time, whatever the lengths: both sides are hashed to 32 bytes first. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => hash('sha256', value, 'buffer');
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The service's own origin is the one the browser addressed: the scheme of the connection (or
 * `X-Forwarded-Proto` from a trusted proxy) and the `Host` header (or `X-Forwarded-Host` from a
 * trusted proxy). See docs/decisions.md, "Browser sessions".
 */
function isOwnOrigin(request: FastifyRequest, origin: string): boolean {
  try {
    const own = new URL(`${request.protocol}://${request.host}`).origin;
    return new URL(origin).origin === own;
  } catch {
    // `Origin: null` (sandboxed frames, file: pages) and anything else that is no URL
    return false;
  }
}

/**
 * Resolves the caller once per request, before the body is parsed. An unknown, revoked
 * or expired credential is a 401 on every route, never silently anonymous.
 *
 * An explicit credential (Authorization, X-API-Key, X-Publishable-Key) wins: the cookie is then
 * not read at all. Otherwise the session cookie authenticates, on the routes that do not ignore it
 * (public routes, sign-up and log-in do), under the rules of API.md §11.3: never with another
 * `Origin` (403, any method), and a state-changing method needs the session's CSRF token in
 * `X-CSRF-Token` (403) — refused here, before the body is even read, so nothing changes.
 */
export async function installAuthentication(
  app: FastifyInstance,
  options: AuthenticationOptions,
): Promise<void> {
  const { resolveKey, resolveSession, secureCookie } = options;
  // Parsing only when the cookie is wanted (below), not on every request: hook false.
  await app.register(fastifyCookie, { hook: false });
  const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookie } as const;
  const cookieName = sessionCookieName(secureCookie);

  app.decorateRequest('principal', null);
  app.decorateReply('setSessionCookie', function (this: FastifyReply, token: string, expiresAt: string) {
    return this.setCookie(cookieName, token, { ...cookieOptions, expires: new Date(expiresAt) });
  });
  app.decorateReply('clearSessionCookie', function (this: FastifyReply) {
    return this.clearCookie(cookieName, cookieOptions);
  });

  const cookieToken: CookieTokenReader = (request) => {
    const header = request.headers.cookie;
    if (header === undefined) return undefined;
    const token = app.parseCookie(header)[cookieName];
    if (token === undefined || token === '' || token.length > MAX_CREDENTIAL_LENGTH) return undefined;
    return token;
  };
  app.decorate(COOKIE_TOKEN, cookieToken);
  const cookieSession: CookieSessionResolver = async (request) => {
    const token = cookieToken(request);
    if (token === undefined) return null;
    return (await resolveSession(sha256Hex(token)))?.userId ?? null;
  };
  app.decorate(COOKIE_SESSION, cookieSession);

  app.addHook('onRequest', async (request, reply) => {
    const credential = readCredential(request);
    if (credential !== undefined) {
      request.principal = await resolveCredential(request, credential, requestedWorkspace(request));
      return;
    }
    const config = request.routeOptions.config;
    // nor on a path that matches no route: it is a 404 page or problem, whoever asks
    if (config?.public === true || config?.ignoreSessionCookie === true || request.is404) return;
    const header = request.headers.cookie;
    if (header === undefined) return;
    const token = app.parseCookie(header)[cookieName];
    if (token === undefined || token === '') return;

    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(request, origin)) {
      throw forbidden(
        `The session cookie is accepted only from this service's own pages, not from the origin ${JSON.stringify(origin.slice(0, 200))}; other sites send a bearer token or a key`,
      );
    }
    const workspace = requestedWorkspace(request);
    const session =
      token.length > MAX_CREDENTIAL_LENGTH ? null : await resolveSession(sha256Hex(token), workspace);
    if (!session) {
      reply.clearSessionCookie();
      throw unauthorized('The session cookie is not valid (unknown, expired or logged out): log in again');
    }
    const csrfToken = csrfTokenFor(token);
    if (STATE_CHANGING.has(request.method)) {
      const sent = headerValue(request, CSRF_HEADER);
      if (sent === undefined) {
        throw forbidden(
          'A request authenticated by the session cookie that changes something needs the X-CSRF-Token header (the csrfToken of log-in or GET /auth/me)',
        );
      }
      if (!sameSecret(sent, csrfToken)) {
        throw forbidden(
          'The X-CSRF-Token header does not match the session: fetch it again from GET /auth/me',
        );
      }
    }
    request.principal = {
      kind: 'session',
      via: 'cookie',
      userId: session.userId,
      tokenHash: sha256Hex(token),
      csrfToken,
      ...acting(session, workspace),
      ip: request.ip,
    };
  });

  async function resolveCredential(
    request: FastifyRequest,
    credential: string,
    workspace: string | undefined,
  ): Promise<Principal> {
    if (credential.length > MAX_CREDENTIAL_LENGTH) throw unauthorized('The credential is not valid');
    const key = parseKey(credential);
    if (key) {
      const grant = await resolveKey(key.kind, key.canonical, request.log);
      if (!grant) throw unauthorized('The API key is not valid (unknown or deleted)');
      if (workspace !== undefined && workspace !== grant.workspaceId) {
        throw forbidden('An API key works in its own workspace only: it cannot name another');
      }
      return { kind: key.kind, ...grant, ip: request.ip };
    }
    const tokenHash = sha256Hex(credential);
    const session = await resolveSession(tokenHash, workspace);
    if (!session) throw unauthorized('The session token is not valid (unknown, expired or logged out)');
    return {
      kind: 'session',
      via: 'bearer',
      userId: session.userId,
      tokenHash,
      ...acting(session, workspace),
      ip: request.ip,
    };
  }
}

/**
 * The workspace a request names (`X-Intake-Workspace` or `?workspace=`, API.md §14), taken out
 * of the query so that no route's own query schema sees it; undefined when it names none, a
 * 404 when the id is malformed.
 */
function requestedWorkspace(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  // Named but empty, in either place, is a 404 like any id that names no workspace: acting in the
  // caller's personal workspace instead would put writes where the caller did not mean them.
  const header = request.headers[WORKSPACE_HEADER];
  let named: unknown = typeof header === 'string' ? header.trim() : undefined;
  if (query && typeof query === 'object' && Object.hasOwn(query, WORKSPACE_QUERY)) {
    const fromQuery = query[WORKSPACE_QUERY];
    delete query[WORKSPACE_QUERY];
    named ??= fromQuery;
  }
  if (named === undefined) return undefined;
  if (typeof named !== 'string' || !WORKSPACE_ID.test(named)) {
    throw notFound('No such workspace: a workspace id looks like wsp_ followed by 26 letters and digits');
  }
  return named;
}

function acting(session: SessionGrant, workspace: string | undefined): Acting {
  if (!session.membership) {
    throw forbidden(
      workspace === undefined
        ? 'This account has no personal workspace'
        : `You are not a member of the workspace ${workspace}`,
    );
  }
  return session.membership;
}

/**
 * Whether the request surely carries no live session: no session cookie, or one the session store
 * does not know (ended, logged out). Undefined when the store could not say (it failed: logged).
 * For the dashboard's shell, which tells its client not to ask; it decides nothing else.
 */
export async function surelySignedOut(request: FastifyRequest): Promise<boolean | undefined> {
  try {
    return (await request.server.getDecorator<CookieSessionResolver>(COOKIE_SESSION)(request)) === null;
  } catch (error) {
    request.log.warn({ err: error }, 'the session cookie could not be read');
    return undefined;
  }
}

/**
 * The user whose live session the request's session cookie holds, or null (no cookie, an unknown,
 * expired or logged-out session, or the session store failing: logged). For a page that reads
 * the cookie on its own terms on a route that ignores it (`ignoreSessionCookie`): the owner's
 * preview of a hosted form (API.md §11.1, `?preview=1`). It applies none of the cookie's rules
 * (Origin, CSRF), so it must decide nothing that changes anything; it never throws, never
 * answers 401 and never clears the cookie.
 */
export async function sessionFromCookie(request: FastifyRequest): Promise<string | null> {
  try {
    return await request.server.getDecorator<CookieSessionResolver>(COOKIE_SESSION)(request);
  } catch (error) {
    request.log.warn({ err: error }, 'the session cookie could not be read');
    return null;
  }
}

/**
 * The token hash of the session cookie the request carries, live or not, whoever's: for a
 * sign-up or log-in that sets a new cookie, to end the session of the one it replaces (the
 * browser will no longer hold it, and it would otherwise stay valid until it expires).
 */
export function sessionCookieHash(request: FastifyRequest): string | undefined {
  const token = request.server.getDecorator<CookieTokenReader>(COOKIE_TOKEN)(request);
  return token === undefined ? undefined : sha256Hex(token);
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
