import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createForm, createKey, formBody, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * API.md §11.3 (first bullet): the dashboard's browser session. `cookie: true` on sign-up and
 * log-in sets an HttpOnly session cookie and answers a CSRF token; a request the cookie
 * authenticates must come from the service's own origin, and change nothing without the token.
 */

const COOKIE = 'intake_session';
const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const uniqueEmail = () => `browser-${randomBytes(6).toString('hex')}@example.com`;
const unique = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
/** The origin of the requests inject() makes (Host: localhost:80, plain HTTP). */
const OWN_ORIGIN = 'http://localhost';

interface BrowserSession {
  user: { id: string; email: string; createdAt: string };
  /** The session token, as the cookie holds it. */
  cookie: string;
  csrfToken: string;
  expiresAt: string;
  /** The Set-Cookie header that carried it. */
  setCookie: string;
}

function setCookieOf(response: Response): string[] {
  const header = response.headers['set-cookie'];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [header];
}

/** The Set-Cookie line of the session cookie, split into its value and attributes. */
function sessionCookieOf(
  response: Response,
  name = COOKIE,
): {
  line: string;
  value: string;
  attributes: Map<string, string>;
} {
  const lines = setCookieOf(response).filter((line) => line.startsWith(`${name}=`));
  expect(lines, `one session cookie in ${JSON.stringify(response.headers['set-cookie'])}`).toHaveLength(1);
  const line = lines[0] as string;
  const [pair, ...rest] = line.split(';').map((part) => part.trim());
  const attributes = new Map<string, string>();
  for (const attribute of rest) {
    const [name, ...value] = attribute.split('=');
    attributes.set((name as string).toLowerCase(), value.join('='));
  }
  return { line, value: (pair as string).slice(name.length + 1), attributes };
}

describe('browser sessions: cookie and CSRF token (API.md §11.3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function browserSignup(): Promise<BrowserSession & { password: string }> {
    const password = 'correct horse battery';
    const response = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email: uniqueEmail(), password, cookie: true },
    });
    expect(response.status, response.text).toBe(201);
    const cookie = sessionCookieOf(response);
    return { ...response.body, cookie: cookie.value, setCookie: cookie.line, password };
  }

  async function browserLogin(user: { email: string; password: string }): Promise<BrowserSession> {
    const response = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email: user.email, password: user.password, cookie: true },
    });
    expect(response.status, response.text).toBe(200);
    const cookie = sessionCookieOf(response);
    return { ...response.body, cookie: cookie.value, setCookie: cookie.line };
  }

  /** A request as the dashboard sends it: the cookie, and (unless told otherwise) the CSRF token. */
  function asBrowser(
    session: { cookie: string; csrfToken?: string },
    options: {
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
      url: string;
      body?: unknown;
      headers?: Record<string, string>;
      auth?: string;
    },
  ) {
    const headers: Record<string, string> = { cookie: `${COOKIE}=${session.cookie}`, ...options.headers };
    if (session.csrfToken !== undefined) headers['x-csrf-token'] = session.csrfToken;
    return t.request({
      method: options.method,
      url: options.url,
      body: options.body,
      auth: options.auth,
      headers,
    });
  }

  const environmentsOf = async (userId: string) =>
    (
      await t.app.intake.database.db
        .selectFrom('environments as e')
        .innerJoin('workspace_members as m', 'm.workspace_id', 'e.workspace_id')
        .select('e.name')
        .where('m.user_id', '=', userId)
        .execute()
    ).map((row) => row.name);
  const sessionRow = (token: string) =>
    t.app.intake.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();

  describe('signing in with cookie: true', () => {
    it('sign-up answers 201 {user, csrfToken, expiresAt} and sets the session cookie instead of returning token', async () => {
      const email = uniqueEmail();
      const response = await t.request({
        method: 'POST',
        url: '/auth/signup',
        body: { email, password: 'correct horse battery', cookie: true },
      });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toEqual({
        user: { id: expect.stringMatching(/^usr_/), email, createdAt: expect.stringMatching(ISO_MS) },
        csrfToken: expect.any(String),
        expiresAt: expect.stringMatching(ISO_MS),
      });
      expect(response.body).not.toHaveProperty('token');
      expect(response.headers['cache-control']).toBe('no-store');
      // at least 128 bits: 22 characters of base64url
      expect(response.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{22,}$/);

      const cookie = sessionCookieOf(response);
      expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(cookie.value).not.toBe(response.body.csrfToken);
      // stored only as its hash, for this user, expiring when the answer says
      const row = await sessionRow(cookie.value);
      expect(row).toMatchObject({ user_id: response.body.user.id, expires_at: response.body.expiresAt });
      // signing up signs in: the cookie works at once
      const me = await asBrowser({ cookie: cookie.value }, { method: 'GET', url: '/auth/me' });
      expect(me.status, me.text).toBe(200);
      expect(me.body.user).toEqual(response.body.user);
      // and the user got the default environments
      expect((await environmentsOf(response.body.user.id)).sort()).toEqual(['development', 'production']);
    });

    it('sets the cookie HttpOnly, SameSite=Lax, Path=/, not Secure outside production, expiring with the session', async () => {
      const session = await browserSignup();
      const response = await t.request({
        method: 'POST',
        url: '/auth/login',
        body: { email: session.user.email, password: session.password, cookie: true },
      });
      const { attributes } = sessionCookieOf(response);
      expect(attributes.has('httponly')).toBe(true);
      expect(attributes.get('samesite')?.toLowerCase()).toBe('lax');
      expect(attributes.get('path')).toBe('/');
      expect(attributes.has('secure')).toBe(false);
      expect(attributes.has('domain')).toBe(false);
      // the browser forgets it when the session expires, to the second
      const expires = Date.parse(attributes.get('expires') as string);
      expect(Math.abs(expires - Date.parse(response.body.expiresAt))).toBeLessThan(1000);
    });

    it('log-in answers 200 {user, csrfToken, expiresAt}: a new session with a token of its own', async () => {
      const first = await browserSignup();
      const second = await browserLogin({ email: first.user.email, password: first.password });
      expect(second.user).toEqual(first.user);
      expect(second).not.toHaveProperty('token');
      expect(second.cookie).not.toBe(first.cookie);
      expect(second.csrfToken).not.toBe(first.csrfToken);
      expect(second.expiresAt).toMatch(ISO_MS);
    });

    it.each([
      ['without cookie', {}],
      ['with cookie: false', { cookie: false }],
    ])('answers as before %s: the token in the body, no cookie', async (_name, extra) => {
      const email = uniqueEmail();
      const password = 'correct horse battery';
      const created = await t.request({
        method: 'POST',
        url: '/auth/signup',
        body: { email, password, ...extra },
      });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(['expiresAt', 'token', 'user']);
      expect(setCookieOf(created)).toEqual([]);
      const login = await t.request({
        method: 'POST',
        url: '/auth/login',
        body: { email, password, ...extra },
      });
      expect(login.status).toBe(200);
      expect(Object.keys(login.body).sort()).toEqual(['expiresAt', 'token', 'user']);
      expect(setCookieOf(login)).toEqual([]);
    });

    it('refuses a cookie member that is not a boolean', async () => {
      const response = await t.request({
        method: 'POST',
        url: '/auth/signup',
        body: { email: uniqueEmail(), password: 'correct horse battery', cookie: 'yes' },
      });
      expectProblem(response, 400, 'validation_failed');
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'cookie' })]);
    });

    it('a wrong password sets no cookie', async () => {
      const session = await browserSignup();
      const response = await t.request({
        method: 'POST',
        url: '/auth/login',
        body: { email: session.user.email, password: 'not the password', cookie: true },
      });
      expectProblem(response, 401, 'unauthorized');
      expect(setCookieOf(response)).toEqual([]);
    });

    // Issue 19: the session of a replaced cookie lived on, for as long as it was valid, in no browser.
    it('a log-in with cookie: true ends the session of the cookie it replaces', async () => {
      const first = await browserSignup();
      const login = await asBrowser(first, {
        method: 'POST',
        url: '/auth/login',
        body: { email: first.user.email, password: first.password, cookie: true },
      });
      expect(login.status, login.text).toBe(200);
      const second = sessionCookieOf(login).value;
      expect(second).not.toBe(first.cookie);
      expect(await sessionRow(first.cookie)).toBeUndefined();
      expectProblem(
        await asBrowser({ cookie: first.cookie }, { method: 'GET', url: '/auth/me' }),
        401,
        'unauthorized',
      );
      expect((await asBrowser({ cookie: second }, { method: 'GET', url: '/auth/me' })).status).toBe(200);
    });

    it("ends the replaced session whoever's it was, on sign-up too: the browser no longer holds it", async () => {
      const previous = await browserSignup();
      const other = await browserSignup();
      const login = await asBrowser(previous, {
        method: 'POST',
        url: '/auth/login',
        body: { email: other.user.email, password: other.password, cookie: true },
      });
      expect(login.status, login.text).toBe(200);
      expect(await sessionRow(previous.cookie)).toBeUndefined();
      const replaced = await browserSignup();
      const signupOver = await asBrowser(replaced, {
        method: 'POST',
        url: '/auth/signup',
        body: { email: uniqueEmail(), password: 'correct horse battery', cookie: true },
      });
      expect(signupOver.status, signupOver.text).toBe(201);
      expect(await sessionRow(replaced.cookie)).toBeUndefined();
    });

    it('a failed log-in, or one for a bearer token, leaves the cookie and its session alone', async () => {
      const session = await browserSignup();
      const wrong = await asBrowser(session, {
        method: 'POST',
        url: '/auth/login',
        body: { email: session.user.email, password: 'wrong password', cookie: true },
      });
      expectProblem(wrong, 401, 'unauthorized');
      const bearer = await asBrowser(session, {
        method: 'POST',
        url: '/auth/login',
        body: { email: session.user.email, password: session.password },
      });
      expect(bearer.status, bearer.text).toBe(200);
      expect(await sessionRow(session.cookie)).toBeDefined();
    });

    it('a stale cookie does not stand in the way of logging in or signing up again', async () => {
      const session = await browserSignup();
      const stale = { cookie: randomBytes(32).toString('base64url') };
      const login = await asBrowser(stale, {
        method: 'POST',
        url: '/auth/login',
        body: { email: session.user.email, password: session.password, cookie: true },
      });
      expect(login.status, login.text).toBe(200);
      const signupAgain = await asBrowser(stale, {
        method: 'POST',
        url: '/auth/signup',
        body: { email: uniqueEmail(), password: 'correct horse battery', cookie: true },
        headers: { origin: 'https://elsewhere.example' },
      });
      expect(signupAgain.status, signupAgain.text).toBe(201);
    });
  });

  it('marks the cookie Secure in production (NODE_ENV=production), named __Host- so no subdomain can plant one', async () => {
    const production = await createTestApp({ production: true });
    try {
      const response = await production.request({
        method: 'POST',
        url: '/auth/signup',
        body: { email: uniqueEmail(), password: 'correct horse battery', cookie: true },
      });
      expect(response.status, response.text).toBe(201);
      const { value, attributes } = sessionCookieOf(response, `__Host-${COOKIE}`);
      expect(attributes.has('secure')).toBe(true);
      expect(attributes.has('httponly')).toBe(true);
      expect(attributes.get('samesite')?.toLowerCase()).toBe('lax');
      expect(attributes.get('path')).toBe('/');
      expect(attributes.has('domain')).toBe(false);
      // it is the one read: the unprefixed name is nobody's session there
      const me = await production.request({
        method: 'GET',
        url: '/auth/me',
        headers: { cookie: `__Host-${COOKIE}=${value}` },
      });
      expect(me.status, me.text).toBe(200);
      const unprefixed = await production.request({
        method: 'GET',
        url: '/auth/me',
        headers: { cookie: `${COOKIE}=${value}` },
      });
      expect(unprefixed.status).toBe(401);
    } finally {
      await production.close();
    }
  });

  describe('GET /auth/me', () => {
    it('with the cookie answers {user, csrfToken}: the token of the session', async () => {
      const session = await browserSignup();
      const response = await asBrowser({ cookie: session.cookie }, { method: 'GET', url: '/auth/me' });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({ user: session.user, csrfToken: session.csrfToken });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('with a bearer token stays {user}', async () => {
      const user = await signup(t);
      const response = await t.request({ method: 'GET', url: '/auth/me', auth: user.token });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body)).toEqual(['user']);
    });

    it('each session has its own CSRF token, and one session keeps the same one', async () => {
      const first = await browserSignup();
      const second = await browserLogin({ email: first.user.email, password: first.password });
      const meFirst = await asBrowser({ cookie: first.cookie }, { method: 'GET', url: '/auth/me' });
      const meSecond = await asBrowser({ cookie: second.cookie }, { method: 'GET', url: '/auth/me' });
      expect(meFirst.body.csrfToken).toBe(first.csrfToken);
      expect(meSecond.body.csrfToken).toBe(second.csrfToken);
      expect(first.csrfToken).not.toBe(second.csrfToken);
    });
  });

  describe('X-CSRF-Token on state-changing requests', () => {
    let session: BrowserSession;
    beforeAll(async () => {
      session = await browserSignup();
    });

    it('POST /environments with the token: 201', async () => {
      const name = unique('env');
      const response = await asBrowser(session, { method: 'POST', url: '/environments', body: { name } });
      expect(response.status, response.text).toBe(201);
      expect(await environmentsOf(session.user.id)).toContain(name);
    });

    it.each([
      ['without the token', undefined],
      ['with a wrong token', 'A'.repeat(43)],
      ['with an empty token', ''],
      ['with the session token itself', 'cookie'],
    ])('POST /environments %s: 403 forbidden, nothing created', async (_name, token) => {
      const name = unique('env');
      const csrfToken = token === 'cookie' ? session.cookie : token;
      const response = await asBrowser(
        { cookie: session.cookie, csrfToken },
        { method: 'POST', url: '/environments', body: { name } },
      );
      expectProblem(response, 403, 'forbidden');
      expect(await environmentsOf(session.user.id)).not.toContain(name);
    });

    it("refuses another session's token, even the same user's", async () => {
      const other = await browserLogin({ email: session.user.email, password: 'correct horse battery' });
      const name = unique('env');
      const response = await asBrowser(
        { cookie: session.cookie, csrfToken: other.csrfToken },
        { method: 'POST', url: '/environments', body: { name } },
      );
      expectProblem(response, 403, 'forbidden');
      expect(await environmentsOf(session.user.id)).not.toContain(name);
    });

    it('POST /forms without the token: 403, and the form does not exist afterwards', async () => {
      const id = unique('frm-csrf');
      const response = await asBrowser(
        { cookie: session.cookie },
        { method: 'POST', url: '/forms', body: formBody({ id }) },
      );
      expectProblem(response, 403, 'forbidden');
      const row = await t.app.intake.database.db
        .selectFrom('forms')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row).toBeUndefined();
      // with the token it is made, for the cookie's user
      const made = await asBrowser(session, { method: 'POST', url: '/forms', body: formBody({ id }) });
      expect(made.status, made.text).toBe(201);
      expect(made.body.userId).toBe(session.user.id);
    });

    it('PUT and DELETE /forms/{id} and DELETE /environments/{name} without the token change nothing', async () => {
      const form = await asBrowser(session, { method: 'POST', url: '/forms', body: formBody() });
      expect(form.status).toBe(201);
      const put = await asBrowser(
        { cookie: session.cookie },
        { method: 'PUT', url: `/forms/${form.body.id}`, body: { title: 'Renamed' } },
      );
      expectProblem(put, 403, 'forbidden');
      const del = await asBrowser(
        { cookie: session.cookie },
        { method: 'DELETE', url: `/forms/${form.body.id}` },
      );
      expectProblem(del, 403, 'forbidden');
      const stored = await asBrowser(session, { method: 'GET', url: `/forms/${form.body.id}` });
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ title: 'Contact us', version: 1 });

      const name = unique('keep');
      expect(
        (await asBrowser(session, { method: 'POST', url: '/environments', body: { name } })).status,
      ).toBe(201);
      const dropped = await asBrowser(
        { cookie: session.cookie },
        { method: 'DELETE', url: `/environments/${name}` },
      );
      expectProblem(dropped, 403, 'forbidden');
      expect(await environmentsOf(session.user.id)).toContain(name);
    });

    it('PATCH without the token is refused too: the webhook stays enabled', async () => {
      const form = await asBrowser(session, { method: 'POST', url: '/forms', body: formBody() });
      const webhook = await asBrowser(session, {
        method: 'POST',
        url: '/webhooks',
        body: { formId: form.body.id, event: 'response.created', url: 'https://hooks.example.com/csrf' },
      });
      expect(webhook.status, webhook.text).toBe(201);
      const response = await asBrowser(
        { cookie: session.cookie },
        { method: 'PATCH', url: `/webhooks/${webhook.body.id}`, body: { enabled: false } },
      );
      expectProblem(response, 403, 'forbidden');
      const stored = await asBrowser(session, { method: 'GET', url: `/webhooks/${webhook.body.id}` });
      expect(stored.body.enabled).toBe(true);
    });

    it('is refused before the body is read: a malformed body without the token is 403, not 400', async () => {
      const response = await asBrowser(
        { cookie: session.cookie },
        { method: 'POST', url: '/environments', body: '{"name": ' },
      );
      expectProblem(response, 403, 'forbidden');
      // with the token, the body is what is wrong
      const withToken = await asBrowser(session, { method: 'POST', url: '/environments', body: '{"name": ' });
      expectProblem(withToken, 400, 'invalid_json');
    });

    it('reads need no token', async () => {
      for (const url of [
        '/environments',
        '/keys?environment=development',
        '/forms?environment=development',
      ]) {
        const response = await asBrowser({ cookie: session.cookie }, { method: 'GET', url });
        expect(response.status, `${url}: ${response.text}`).toBe(200);
      }
    });
  });

  describe("a form's answers, which depend on the caller, are the caller's alone", () => {
    it('the owner view read with the cookie varies by Cookie and is private; an anonymous 304 cannot reuse it', async () => {
      const session = await browserSignup();
      const created = await asBrowser(session, {
        method: 'POST',
        url: '/forms',
        body: formBody({ status: 'live' }),
      });
      expect(created.status, created.text).toBe(201);
      const owner = await asBrowser(
        { cookie: session.cookie },
        { method: 'GET', url: `/forms/${created.body.id}` },
      );
      expect(owner.status).toBe(200);
      expect(owner.body.userId).toBe(session.user.id); // the full view
      const vary = String(owner.headers.vary)
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(vary).toEqual(
        expect.arrayContaining(['authorization', 'x-api-key', 'x-publishable-key', 'cookie']),
      );
      expect(owner.headers['cache-control']).toBe('private');
      // anonymous: the public view, shared caches welcome, and still varying by the credential headers
      const anonymous = await t.request({ method: 'GET', url: `/forms/${created.body.id}` });
      expect(anonymous.body.userId).toBeUndefined();
      expect(anonymous.headers['cache-control']).toBeUndefined();
      expect(String(anonymous.headers.vary).toLowerCase()).toContain('cookie');
      for (const url of ['/forms?environment=development', '/environments/development/forms']) {
        const list = await asBrowser({ cookie: session.cookie }, { method: 'GET', url });
        expect(list.status, url).toBe(200);
        expect(String(list.headers.vary).toLowerCase(), url).toContain('cookie');
        expect(list.headers['cache-control'], url).toBe('private');
      }
    });
  });

  /** A bearer session of the same user, for set-up through the API. */
  async function signupBearerOf(session: BrowserSession): Promise<TestUser> {
    const response = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email: session.user.email, password: 'correct horse battery' },
    });
    expect(response.status).toBe(200);
    const workspaces = await t.request({ method: 'GET', url: '/workspaces', auth: response.body.token });
    return {
      id: session.user.id,
      email: session.user.email,
      password: 'correct horse battery',
      token: response.body.token,
      workspaceId: workspaces.body.data[0].id,
    };
  }

  describe('Origin', () => {
    let session: BrowserSession;
    beforeAll(async () => {
      session = await browserSignup();
    });

    it.each([
      'https://evil.example',
      'http://localhost:8080',
      'https://localhost',
      'http://localhost.evil.example',
      'null',
    ])('refuses the cookie with Origin %s: 403 on GET too', async (origin) => {
      const read = await asBrowser(session, { method: 'GET', url: '/environments', headers: { origin } });
      expectProblem(read, 403, 'forbidden');
      const me = await asBrowser(session, { method: 'GET', url: '/auth/me', headers: { origin } });
      expectProblem(me, 403, 'forbidden');
      const name = unique('env');
      const write = await asBrowser(session, {
        method: 'POST',
        url: '/environments',
        body: { name },
        headers: { origin },
      });
      expectProblem(write, 403, 'forbidden');
      expect(await environmentsOf(session.user.id)).not.toContain(name);
    });

    it("accepts the service's own origin, and no Origin at all (a same-origin navigation)", async () => {
      const read = await asBrowser(session, {
        method: 'GET',
        url: '/environments',
        headers: { origin: OWN_ORIGIN },
      });
      expect(read.status, read.text).toBe(200);
      const explicitPort = await asBrowser(session, {
        method: 'GET',
        url: '/environments',
        headers: { origin: `${OWN_ORIGIN}:80` },
      });
      expect(explicitPort.status).toBe(200);
      const name = unique('env');
      const write = await asBrowser(session, {
        method: 'POST',
        url: '/environments',
        body: { name },
        headers: { origin: OWN_ORIGIN },
      });
      expect(write.status, write.text).toBe(201);
      const bare = await asBrowser(session, { method: 'GET', url: '/auth/me' });
      expect(bare.status).toBe(200);
    });

    it('takes the own origin from the Host header', async () => {
      const headers = { host: 'intake.example.com:8443', origin: 'http://intake.example.com:8443' };
      expect((await asBrowser(session, { method: 'GET', url: '/auth/me', headers })).status).toBe(200);
      const elsewhere = { host: 'intake.example.com:8443', origin: 'http://intake.example.com' };
      expectProblem(
        await asBrowser(session, { method: 'GET', url: '/auth/me', headers: elsewhere }),
        403,
        'forbidden',
      );
    });

    it('behind a trusted proxy, takes the scheme (and host) the proxy forwards', async () => {
      const proxied = await createTestApp({ trustProxy: 1 });
      try {
        const created = await proxied.request({
          method: 'POST',
          url: '/auth/signup',
          body: { email: uniqueEmail(), password: 'correct horse battery', cookie: true },
        });
        const cookie = sessionCookieOf(created).value;
        const me = (origin: string) =>
          proxied.request({
            method: 'GET',
            url: '/auth/me',
            headers: {
              cookie: `${COOKIE}=${cookie}`,
              host: 'intake.internal:3000',
              'x-forwarded-host': 'forms.example.com',
              'x-forwarded-proto': 'https',
              'x-forwarded-for': '203.0.113.9',
              origin,
            },
          });
        expect((await me('https://forms.example.com')).status).toBe(200);
        expectProblem(await me('http://forms.example.com'), 403, 'forbidden');
        expectProblem(await me('http://intake.internal:3000'), 403, 'forbidden');
      } finally {
        await proxied.close();
      }
    });
  });

  describe('an explicit credential wins over the cookie', () => {
    it('a bearer token with the cookie: the bearer decides, and needs no CSRF token', async () => {
      const browser = await browserSignup();
      const other = await signup(t);
      const name = unique('env');
      const response = await asBrowser(
        { cookie: browser.cookie },
        { method: 'POST', url: '/environments', body: { name }, auth: other.token },
      );
      expect(response.status, response.text).toBe(201);
      // made for the bearer's user, not the cookie's
      expect(await environmentsOf(other.id)).toContain(name);
      expect(await environmentsOf(browser.user.id)).not.toContain(name);
      const me = await asBrowser(
        { cookie: browser.cookie },
        { method: 'GET', url: '/auth/me', auth: other.token },
      );
      expect(me.body).toEqual({ user: expect.objectContaining({ id: other.id }) });
    });

    it('the cookie is not even read: a foreign Origin or a dead cookie does not matter beside a bearer token', async () => {
      const other = await signup(t);
      const dead = { cookie: randomBytes(32).toString('base64url') };
      const response = await asBrowser(dead, {
        method: 'POST',
        url: '/environments',
        body: { name: unique('env') },
        auth: other.token,
        headers: { origin: 'https://evil.example' },
      });
      expect(response.status, response.text).toBe(201);
      expect(setCookieOf(response)).toEqual([]);
    });

    it('a secret key in X-API-Key with the cookie: the key decides, no CSRF token needed', async () => {
      const browser = await browserSignup();
      const user = await signupBearerOf(browser);
      const key = await createKey(t, user, 'secret', 'development');
      const response = await asBrowser(
        { cookie: browser.cookie },
        { method: 'POST', url: '/forms', body: formBody(), headers: { 'x-api-key': key.key } },
      );
      expect(response.status, response.text).toBe(201);
      // a key cannot manage environments: the cookie does not lend it a session
      const environments = await asBrowser(
        { cookie: browser.cookie, csrfToken: browser.csrfToken },
        {
          method: 'POST',
          url: '/environments',
          body: { name: unique('env') },
          headers: { 'x-api-key': key.key },
        },
      );
      expectProblem(environments, 403, 'forbidden');
    });
  });

  describe('an invalid cookie is a 401, and is cleared', () => {
    it.each([
      ['unknown', () => randomBytes(32).toString('base64url')],
      ['over-long', () => 'a'.repeat(600)],
    ])('an %s cookie: 401 unauthorized on GET and POST, with the cookie cleared', async (_name, make) => {
      const cookie = make();
      for (const method of ['GET', 'POST'] as const) {
        const response = await asBrowser(
          { cookie, csrfToken: 'whatever' },
          { method, url: '/environments', body: method === 'POST' ? { name: 'x' } : undefined },
        );
        expectProblem(response, 401, 'unauthorized');
        const cleared = sessionCookieOf(response);
        expect(cleared.value).toBe('');
        expect(Date.parse(cleared.attributes.get('expires') as string)).toBeLessThanOrEqual(Date.now());
      }
    });

    it('an expired session: 401', async () => {
      const session = await browserSignup();
      await t.app.intake.database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', sha256(session.cookie))
        .execute();
      const response = await asBrowser(session, { method: 'GET', url: '/auth/me' });
      expectProblem(response, 401, 'unauthorized');
    });

    it('an empty cookie is no cookie: anonymous', async () => {
      const response = await t.request({ method: 'GET', url: '/auth/me', headers: { cookie: `${COOKIE}=` } });
      expectProblem(response, 401, 'unauthorized');
      const list = await t.request({
        method: 'GET',
        url: '/forms?environment=development',
        headers: { cookie: `${COOKIE}=; other=1` },
      });
      expect(list.status).toBe(200);
    });
  });

  describe('POST /auth/logout with the cookie', () => {
    it('without the CSRF token: 403, and the session lives on', async () => {
      const session = await browserSignup();
      const response = await asBrowser({ cookie: session.cookie }, { method: 'POST', url: '/auth/logout' });
      expectProblem(response, 403, 'forbidden');
      expect(await sessionRow(session.cookie)).toBeDefined();
      expect((await asBrowser(session, { method: 'GET', url: '/auth/me' })).status).toBe(200);
    });

    it('with the token: 204, the session revoked and the cookie cleared; the cookie is then 401', async () => {
      const session = await browserSignup();
      const response = await asBrowser(session, { method: 'POST', url: '/auth/logout' });
      expect(response.status, response.text).toBe(204);
      const cleared = sessionCookieOf(response);
      expect(cleared.value).toBe('');
      expect(cleared.attributes.get('max-age')).toBe('0');
      expect(Date.parse(cleared.attributes.get('expires') as string)).toBe(0);
      expect(cleared.attributes.get('path')).toBe('/');
      expect(await sessionRow(session.cookie)).toBeUndefined();

      const me = await asBrowser(session, { method: 'GET', url: '/auth/me' });
      expectProblem(me, 401, 'unauthorized');
      const write = await asBrowser(session, {
        method: 'POST',
        url: '/environments',
        body: { name: unique('env') },
      });
      expectProblem(write, 401, 'unauthorized');
    });

    it('a bearer logout clears no cookie', async () => {
      const user = await signup(t);
      const response = await t.request({ method: 'POST', url: '/auth/logout', auth: user.token });
      expect(response.status).toBe(204);
      expect(setCookieOf(response)).toEqual([]);
    });
  });

  describe('routes that never read the cookie', () => {
    it("public routes treat the browser as anonymous: the owner's own form page works with the dashboard cookie", async () => {
      const session = await browserSignup();
      const user = await signupBearerOf(session);
      const form = await createForm(t, user.token, { status: 'live' });
      // no CSRF token, a foreign Origin: neither matters where the cookie is not read
      const headers = { origin: 'https://somewhere.example' };
      const view = await asBrowser(
        { cookie: session.cookie },
        {
          method: 'GET',
          url: `/v1/forms/${form.id}/public`,
          headers,
        },
      );
      expect(view.status, view.text).toBe(200);
      const submit = await asBrowser(
        { cookie: session.cookie },
        {
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: { name: 'Ada', email: 'ada@example.com' } },
          headers,
        },
      );
      expect(submit.status, submit.text).toBe(201);
      // a dead cookie is no 401 there either
      const dead = await asBrowser(
        { cookie: randomBytes(32).toString('base64url') },
        {
          method: 'GET',
          url: `/v1/forms/${form.id}/public`,
        },
      );
      expect(dead.status).toBe(200);
    });
  });

  it('CORS never allows credentials, for the configured origins as for the public endpoints', async () => {
    const withCors = await createTestApp({ corsOrigins: ['https://dash.example'] });
    try {
      for (const url of ['/environments', '/v1/forms/anything/public']) {
        const preflight = await withCors.request({
          method: 'OPTIONS',
          url,
          headers: { origin: 'https://dash.example', 'access-control-request-method': 'GET' },
        });
        expect(preflight.status, url).toBeLessThan(300);
        expect(preflight.headers['access-control-allow-credentials'], url).toBeUndefined();
        const simple = await withCors.request({
          method: 'GET',
          url,
          headers: { origin: 'https://dash.example' },
        });
        expect(simple.headers['access-control-allow-credentials'], url).toBeUndefined();
      }
    } finally {
      await withCors.close();
    }
  });
});
