import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { RequestOptions, Response, TestApp } from './app.js';
import { expectProblem } from './assertions.js';
import { createEnvironment, createKey, signup, type TestUser } from './factories.js';

/**
 * Who may call what, as tables: one set of callers (credentials of every kind) built once per app,
 * the answers they get, and a runner that turns rows ({ name, request, expected per caller }) into
 * one test per row and caller. Used by test/authorization-matrix.test.ts (every endpoint), and by the
 * feature files that check their own resources (responses-access, webhooks-access).
 *
 * The owner is also signed in as a browser is (API.md §11.3): the session cookie, sent with its
 * CSRF token or without. Rows do not spell those two callers out: by default they answer
 * `as owner session` (see `expectedOf`), except that without the token every POST, PUT, PATCH and
 * DELETE is 403 `forbidden` (refused before the route runs, so nothing changes).
 */

/** Every caller, in the order the tests run. */
export const CALLERS = [
  'anonymous',
  'other user session',
  'publishable key (same env)',
  'secret key (same env)',
  'secret key (other env)',
  "other user's secret key",
  'deleted key',
  /** A key-shaped credential (`sk_live_…`) that no key has: looked up as a key. */
  'unknown token',
  /** Any other credential that is no session: looked up as a session token. */
  'unknown session token',
  'owner session',
  'owner cookie + CSRF',
  'owner cookie without CSRF',
] as const;
export type Caller = (typeof CALLERS)[number];

/** The browser callers: the owner's session in the cookie, with or without its CSRF token. */
export const COOKIE_CALLERS = ['owner cookie + CSRF', 'owner cookie without CSRF'] as const;
export type CookieCaller = (typeof COOKIE_CALLERS)[number];
/** The callers each row lists; the cookie callers' answers follow from the owner session's. */
export type ListedCaller = Exclude<Caller, CookieCaller>;
export const LISTED_CALLERS = CALLERS.filter(
  (caller): caller is ListedCaller => !(COOKIE_CALLERS as readonly string[]).includes(caller),
);
/** Whoever is neither the owner's session nor a secret key of the owner's environment. */
export type Stranger = Exclude<ListedCaller, 'owner session' | 'secret key (same env)'>;

/** What a caller adds to a request: a bearer token or key (`auth`), or headers of its own (the cookie). */
export interface Credential {
  auth?: string;
  headers?: Record<string, string>;
}

/**
 * The callers, on one app: an owner with a `staging` environment (besides `development` and
 * `production`), a publishable and a secret key of the owner's `development`, a secret key of the
 * owner's `staging`, another user with a secret key of their own `development`, a deleted key, unknown
 * credentials, and the owner signed in with the session cookie (and its CSRF token).
 */
export interface Callers {
  owner: TestUser;
  other: TestUser;
  keys: {
    publishable: { id: string; key: string };
    secret: { id: string; key: string };
    secretStaging: { id: string; key: string };
    otherSecret: { id: string; key: string };
    deleted: { id: string; key: string };
  };
  /** The owner's browser session: the `intake_session` cookie and the CSRF token log-in handed back. */
  cookie: { header: string; csrfToken: string };
  /** What each caller adds to a request. */
  credentials: Record<Caller, Credential>;
}

export async function buildCallers(t: TestApp): Promise<Callers> {
  const owner = await signup(t);
  const other = await signup(t);
  await createEnvironment(t, owner, 'staging');
  const publishable = await createKey(t, owner, 'publishable', 'development');
  const secret = await createKey(t, owner, 'secret', 'development');
  const secretStaging = await createKey(t, owner, 'secret', 'staging');
  const otherSecret = await createKey(t, other, 'secret', 'development');
  const deleted = await createKey(t, owner, 'secret', 'development');
  const removal = await t.request({
    method: 'DELETE',
    url: `/keys/secrets/${deleted.id}`,
    auth: owner.token,
  });
  if (removal.status !== 204) throw new Error(`key deletion failed: ${removal.status} ${removal.text}`);
  // the owner signed in to the dashboard: the session cookie and its CSRF token
  const browser = await t.request({
    method: 'POST',
    url: '/auth/login',
    body: { email: owner.email, password: owner.password, cookie: true },
  });
  const session = /^intake_session=([^;]+)/.exec(String(browser.headers['set-cookie']))?.[1];
  const csrfToken: unknown = browser.body?.csrfToken;
  if (browser.status !== 200 || !session || typeof csrfToken !== 'string')
    throw new Error(`cookie login failed: ${browser.status} ${browser.text}`);
  const cookie = { header: `intake_session=${session}`, csrfToken };
  return {
    owner,
    other,
    keys: { publishable, secret, secretStaging, otherSecret, deleted },
    cookie,
    credentials: {
      anonymous: {},
      'other user session': { auth: other.token },
      'publishable key (same env)': { auth: publishable.key },
      'secret key (same env)': { auth: secret.key },
      'secret key (other env)': { auth: secretStaging.key },
      "other user's secret key": { auth: otherSecret.key },
      'deleted key': { auth: deleted.key },
      'unknown token': { auth: `sk_live_${randomBytes(32).toString('base64url')}` },
      'unknown session token': { auth: randomBytes(32).toString('base64url') },
      'owner session': { auth: owner.token },
      'owner cookie + CSRF': { headers: { cookie: cookie.header, 'x-csrf-token': cookie.csrfToken } },
      'owner cookie without CSRF': { headers: { cookie: cookie.header } },
    },
  };
}

/** A request as the caller sends it: its credential added to the request's own headers. */
export function withCredential(request: RowRequest, credential: Credential): RequestOptions {
  return { ...request, auth: credential.auth, headers: { ...request.headers, ...credential.headers } };
}

// --- expected answers ---------------------------------------------------------------

/** One expected answer: the status, and the problem's `code` when it is a refusal. */
export interface Expected {
  status: number;
  code?: string;
}

export const UNAUTHORIZED: Expected = { status: 401, code: 'unauthorized' };
export const FORBIDDEN: Expected = { status: 403, code: 'forbidden' };
export const NOT_OWNER: Expected = { status: 403, code: 'not_owner' };
export const NOT_FOUND: Expected = { status: 404, code: 'not_found' };
export const ENV_NOT_FOUND: Expected = { status: 404, code: 'environment_not_found' };
export const OK: Expected = { status: 200 };
export const CREATED: Expected = { status: 201 };
export const ACCEPTED: Expected = { status: 202 };
export const NO_CONTENT: Expected = { status: 204 };

/** Unknown and deleted credentials are refused on every route, even public ones. */
export const INVALID_CREDENTIALS = {
  'deleted key': UNAUTHORIZED,
  'unknown token': UNAUTHORIZED,
  'unknown session token': UNAUTHORIZED,
} as const;

/** Environments and keys are managed with a session only: every valid key is refused. */
export const ANY_KEY_FORBIDDEN = {
  'publishable key (same env)': FORBIDDEN,
  'secret key (same env)': FORBIDDEN,
  'secret key (other env)': FORBIDDEN,
  "other user's secret key": FORBIDDEN,
} as const;

/**
 * The answers of everyone but the owner for a form, or anything managed like its form (its
 * webhooks, its submissions; API.md §1): no credential or a bad one is 401; another user's session
 * is 403 `not_owner` (not a 404 that hides it); a publishable key, or a secret key of another
 * environment or account, 403 `forbidden`.
 */
export const DENIED_TO_STRANGERS: Record<Stranger, Expected> = {
  anonymous: UNAUTHORIZED,
  'other user session': NOT_OWNER,
  'publishable key (same env)': FORBIDDEN,
  'secret key (other env)': FORBIDDEN,
  "other user's secret key": FORBIDDEN,
  ...INVALID_CREDENTIALS,
} as const;

/** A form, or what is managed like it: the owner's session or a secret key of its environment, no one else. */
export function managedLikeItsForm(success: Expected): Record<ListedCaller, Expected> {
  return { ...DENIED_TO_STRANGERS, 'secret key (same env)': success, 'owner session': success };
}

/** Environments and keys: a session (the owner's, or another user's on their own), never a key. */
export function sessionOnly(owner: Expected, other: Expected): Record<ListedCaller, Expected> {
  return {
    anonymous: UNAUTHORIZED,
    'other user session': other,
    ...ANY_KEY_FORBIDDEN,
    ...INVALID_CREDENTIALS,
    'owner session': owner,
  };
}

/**
 * The rule of the cookie callers on most routes: they answer as the owner's session does, except
 * that without the CSRF token a POST, PUT, PATCH or DELETE is 403 `forbidden`.
 */
export const AS_OWNER_SESSION = 'as owner session';

/** Public routes never read the session cookie (API.md §1 CORS: keys, not cookies): the browser is anonymous there. */
export function cookieIgnored(anonymous: Expected): Record<CookieCaller, Expected> {
  return { 'owner cookie + CSRF': anonymous, 'owner cookie without CSRF': anonymous };
}

// --- rows and the runner --------------------------------------------------------------

export const STATE_CHANGING = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** A row's request, less the credential (the runner adds the caller's). */
export type RowRequest = Omit<RequestOptions, 'auth'>;

/**
 * One row: a request, named after it (`METHOD /path …`), and the answer of every caller.
 * `W` is the file's world (its callers and whatever else it built); `R` a fresh resource per test.
 */
export interface AuthRow<W extends Callers, R = undefined, E extends Expected = Expected> {
  name: string;
  /** A fresh resource for each test of the row (a form, key, webhook or submission to act on). */
  prepare?: (world: W) => Promise<R>;
  request: (world: W, resource: R, caller: Caller) => RowRequest;
  expected: Record<ListedCaller, E>;
  /** The cookie callers: `as owner session` (the default), or their own answers (a route that ignores the cookie). */
  cookie?: typeof AS_OWNER_SESSION | Record<CookieCaller, E>;
  /** After the shared checks: did the change happen exactly when the answer says it did, did nothing leak? */
  verify?: (world: W, resource: R, response: Response, caller: Caller, expected: E) => Promise<void> | void;
}

/** Every row is named after its request: `METHOD /path …`. */
export const methodOf = (row: { name: string }) => row.name.split(' ', 1)[0] as string;

/** A row's expected answer for a caller: the cookie callers' follow from the owner session's (`as owner session`). */
export function expectedOf<E extends Expected>(row: AuthRow<any, any, E>, caller: Caller): E | Expected {
  if (caller !== 'owner cookie + CSRF' && caller !== 'owner cookie without CSRF') return row.expected[caller];
  if (row.cookie !== undefined && row.cookie !== AS_OWNER_SESSION) return row.cookie[caller];
  // without the token, a change is refused before the route even runs
  if (caller === 'owner cookie without CSRF' && (STATE_CHANGING as readonly string[]).includes(methodOf(row)))
    return FORBIDDEN;
  return row.expected['owner session'];
}

/** The owner's session, whichever way it travels. */
export const isOwnerSession = (caller: Caller) =>
  caller === 'owner session' || caller === 'owner cookie + CSRF' || caller === 'owner cookie without CSRF';

/** The account a successful caller acts for (undefined for the callers that are nobody). */
export function userOf(world: Callers, caller: Caller): string | undefined {
  if (caller === 'other user session' || caller === "other user's secret key") return world.other.id;
  if (caller === 'anonymous' || caller in INVALID_CREDENTIALS) return undefined;
  return world.owner.id;
}

/** The workspace the caller acts in: the personal one of the user whose credential it is. */
export function workspaceOf(world: Callers, caller: Caller): string | undefined {
  if (caller === 'other user session' || caller === "other user's secret key") return world.other.workspaceId;
  if (caller === 'anonymous' || caller in INVALID_CREDENTIALS) return undefined;
  return world.owner.workspaceId;
}

/** A success (2xx): the row's verify usually asks this of the expected answer. */
export const succeeds = (expected: Expected) => expected.status >= 200 && expected.status < 300;

/**
 * The status and code of an answer: a refusal is an RFC 9457 problem with that code (`expectProblem`),
 * anything else has the status and no code.
 */
export function expectAnswer(response: Response, expected: Expected): void {
  if (expected.code !== undefined) {
    expectProblem(response, expected.status, expected.code);
    return;
  }
  expect({ status: response.status, code: response.body?.code }, response.text).toEqual({
    status: expected.status,
    code: undefined,
  });
}

export interface AuthMatrixSpec<W extends Callers, E extends Expected> {
  /** The file's app and world, read when a test runs (both are built in the file's beforeAll). */
  app: () => TestApp;
  world: () => W;
  rows: AuthRow<W, any, E>[];
  /** Checks of the file's own beyond status and code, on every answer (the matrix's form views). */
  check?: (world: W, response: Response, expected: E | Expected) => void;
}

/**
 * One test that the table is whole (every row lists every caller, every row is named after a method),
 * then one test per row and caller: prepare, send the request with the caller's credential, check the
 * method sent is the row's, the status and code (`expectAnswer`), the file's `check`, the row's `verify`.
 * Call it inside a describe.
 */
export function authMatrix<W extends Callers, E extends Expected>(spec: AuthMatrixSpec<W, E>): void {
  const { rows } = spec;
  it('every row lists every caller, and is named after its method', () => {
    for (const row of rows) {
      expect(Object.keys(row.expected).sort(), row.name).toEqual([...LISTED_CALLERS].sort());
      // the cookie callers' answers are read from the method in the row's name
      expect(['GET', ...STATE_CHANGING], row.name).toContain(methodOf(row));
    }
  });

  for (const row of rows) {
    for (const caller of CALLERS) {
      // a row that misses a caller still gets its test (failing), besides the whole-table check above
      const expected: E | Expected | undefined = expectedOf(row, caller);
      const answer = expected ? `${expected.status} ${expected.code ?? ''}`.trimEnd() : 'no answer listed';
      it(`${row.name} as ${caller} → ${answer}`, async () => {
        if (!expected) throw new Error(`${row.name}: no answer listed for ${caller}`);
        const world = spec.world();
        const resource = row.prepare ? await row.prepare(world) : undefined;
        const request = row.request(world, resource, caller);
        // the method in the row's name is the method sent
        expect(request.method).toBe(methodOf(row));
        const response = await spec.app().request(withCredential(request, world.credentials[caller]));
        expectAnswer(response, expected);
        spec.check?.(world, response, expected);
        await row.verify?.(world, resource, response, caller, expected as E);
      });
    }
  }
}
