import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createKey, signup } from '../../../test/support/factories.js';

/** API.md §2: accounts and sessions. */

const DAY_MS = 86_400_000;

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
const uniqueEmail = (tag = 'user') => `${tag}-${randomBytes(6).toString('hex')}@example.com`;

function expectFieldError(response: Response, field: string): void {
  expect(response.body.errors).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ field, code: expect.any(String), message: expect.any(String) }),
    ]),
  );
}

describe('accounts and sessions (API.md §2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signupRequest = (body: unknown, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url: '/auth/signup', body, headers });
  const loginRequest = (body: unknown, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url: '/auth/login', body, headers });
  const me = (token?: string) => t.request({ method: 'GET', url: '/auth/me', auth: token });

  describe('POST /auth/signup', () => {
    it('answers 201 with {user:{id,email,createdAt}, token, expiresAt}', async () => {
      const email = uniqueEmail();
      const before = Date.now();
      const response = await signupRequest({ email, password: 'correct horse battery' });
      const after = Date.now();

      expect(response.status, response.text).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        user: { id: expect.stringMatching(/^usr_[A-Za-z0-9]+$/), email, createdAt: expect.any(String) },
        token: expect.any(String),
        expiresAt: expect.any(String),
      });
      const { user, token, expiresAt } = response.body;
      expect(user.createdAt).toMatch(ISO_MS);
      expect(expiresAt).toMatch(ISO_MS);
      const created = Date.parse(user.createdAt);
      expect(created).toBeGreaterThanOrEqual(before - 1000);
      expect(created).toBeLessThanOrEqual(after + 1000);
      // sessions expire after 30 days by default
      expect(Date.parse(expiresAt) - created).toBeGreaterThan(30 * DAY_MS - 60_000);
      expect(Date.parse(expiresAt) - created).toBeLessThan(30 * DAY_MS + 60_000);
      // at least 256 bits of randomness: 43 characters of base64url or 64 of hex
      expect(token.length).toBeGreaterThanOrEqual(43);
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    });

    it('signs the new user in: the token works on /auth/me', async () => {
      const response = await signupRequest({ email: uniqueEmail(), password: 'correct horse battery' });
      expect(response.status).toBe(201);
      const whoami = await me(response.body.token);
      expect(whoami.status).toBe(200);
      expect(whoami.body).toEqual({ user: response.body.user });
    });

    it('gives each user a different id and token', async () => {
      const a = await signupRequest({ email: uniqueEmail(), password: 'correct horse battery' });
      const b = await signupRequest({ email: uniqueEmail(), password: 'correct horse battery' });
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(a.body.user.id).not.toBe(b.body.user.id);
      expect(a.body.token).not.toBe(b.body.token);
    });

    it('creates the environments development and production for the user', async () => {
      const user = await signup(t);
      const response = await t.request({ method: 'GET', url: '/environments', auth: user.token });
      expect(response.status).toBe(200);
      expect(response.body.nextCursor).toBeNull();
      expect(response.body.data).toHaveLength(2);
      expect(response.body.data).toEqual(
        expect.arrayContaining([
          { name: 'development', isDefault: true, createdAt: expect.stringMatching(ISO_MS) },
          { name: 'production', isDefault: true, createdAt: expect.stringMatching(ISO_MS) },
        ]),
      );
      // and keys can be made in both at once
      await expect(createKey(t, user, 'secret', 'development')).resolves.toBeDefined();
      await expect(createKey(t, user, 'secret', 'production')).resolves.toBeDefined();
    });

    it.each([
      ['the same address', (email: string) => email],
      ['the address in upper case', (email: string) => email.toUpperCase()],
      [
        'the address in mixed case',
        (email: string) => email.replace(/^u/, 'U').replace('example', 'ExAmPlE'),
      ],
    ])('refuses a second account with %s: 409 conflict', async (_name, variant) => {
      const email = uniqueEmail();
      const first = await signupRequest({ email, password: 'correct horse battery' });
      expect(first.status).toBe(201);

      const second = await signupRequest({ email: variant(email), password: 'another password' });
      expectProblem(second, 409, 'conflict');
      // the first account is untouched: its password still works, the other does not
      const login = await loginRequest({ email, password: 'correct horse battery' });
      expect(login.status).toBe(200);
      expect(login.body.user.id).toBe(first.body.user.id);
      expectProblem(await loginRequest({ email, password: 'another password' }), 401, 'unauthorized');
    });

    it('lets exactly one of several concurrent signups of one address (any case) through', async () => {
      const email = uniqueEmail('race');
      const variants = [email, email.toUpperCase(), email, email.replace('race', 'RACE'), email];
      const responses = await Promise.all(
        variants.map((variant) => signupRequest({ email: variant, password: 'correct horse battery' })),
      );
      const created = responses.filter((response) => response.status === 201);
      expect(created).toHaveLength(1);
      for (const response of responses.filter((r) => r.status !== 201))
        expectProblem(response, 409, 'conflict');

      const { db } = t.app.intake.database;
      const users = await db.selectFrom('users').select('id').where('email_key', '=', email).execute();
      expect(users.map((row) => row.id)).toEqual([created[0]?.body.user.id]);
      // the winner got its two environments, and nothing else was left behind
      const environments = await db
        .selectFrom('environments as e')
        .innerJoin('workspace_members as m', 'm.workspace_id', 'e.workspace_id')
        .select('e.name')
        .where('m.user_id', '=', created[0]?.body.user.id)
        .execute();
      expect(environments.map((row) => row.name).sort()).toEqual(['development', 'production']);
    });

    it('lets concurrent signups of different addresses all through, beside a refused duplicate', async () => {
      const taken = (await signup(t)).email;
      const emails = [uniqueEmail(), uniqueEmail(), taken, uniqueEmail()];
      const responses = await Promise.all(
        emails.map((email) => signupRequest({ email, password: 'correct horse battery' })),
      );
      expect(responses.map((response) => response.status)).toEqual([201, 201, 409, 201]);
      for (const [i, response] of responses.entries()) {
        if (i === 2) continue;
        const whoami = await me(response.body.token);
        expect(whoami.body.user.email).toBe(emails[i]);
        const environments = await t.request({
          method: 'GET',
          url: '/environments',
          auth: response.body.token,
        });
        expect(environments.body.data).toHaveLength(2);
      }
    });

    it.each([
      ['7 characters', 'a'.repeat(7)],
      ['257 characters', 'a'.repeat(257)],
      ['empty', ''],
      ['a number', 12345678],
      ['null', null],
    ])('refuses a password of %s: 400 validation_failed naming password', async (_name, password) => {
      const email = uniqueEmail();
      const response = await signupRequest({ email, password });
      expectProblem(response, 400, 'validation_failed');
      expectFieldError(response, 'password');
      // no account was made: the address is still free
      const retry = await signupRequest({ email, password: 'now a good one' });
      expect(retry.status).toBe(201);
    });

    it.each([
      ['8 characters', 'b'.repeat(8)],
      ['256 characters', 'c'.repeat(256)],
      ['unicode', 'pässwörd-🔑-日本'],
    ])('accepts a password of %s, and logs in with it', async (_name, password) => {
      const email = uniqueEmail();
      const response = await signupRequest({ email, password });
      expect(response.status, response.text).toBe(201);
      const login = await loginRequest({ email, password });
      expect(login.status).toBe(200);
      expect(login.body.user.id).toBe(response.body.user.id);
    });

    it.each([
      ['no @', 'not-an-email'],
      ['no local part', '@example.com'],
      ['no domain', 'someone@'],
      ['a space', 'some one@example.com'],
      ['empty', ''],
      ['a number', 42],
      ['an object', { address: 'a@example.com' }],
      ['over 254 characters', `${'a'.repeat(250)}@example.com`],
    ])('refuses an e-mail address with %s: 400 validation_failed naming email', async (_name, email) => {
      const response = await signupRequest({ email, password: 'correct horse battery' });
      expectProblem(response, 400, 'validation_failed');
      expectFieldError(response, 'email');
    });

    it('lists every failing member of the body', async () => {
      const response = await signupRequest({ email: 'nope', password: 'short' });
      expectProblem(response, 400, 'validation_failed');
      expectFieldError(response, 'email');
      expectFieldError(response, 'password');

      const empty = await signupRequest({});
      expectProblem(empty, 400, 'validation_failed');
      expectFieldError(empty, 'email');
      expectFieldError(empty, 'password');
    });

    it('refuses unknown members, malformed JSON and a missing body', async () => {
      const extra = await signupRequest({
        email: uniqueEmail(),
        password: 'correct horse battery',
        admin: true,
      });
      expectProblem(extra, 400, 'validation_failed');
      expectFieldError(extra, 'admin');

      expectProblem(await signupRequest('{"email": "a@example.com",'), 400, 'invalid_json');
      const noBody = await t.request({ method: 'POST', url: '/auth/signup' });
      expect(noBody.status).toBe(400);
      expect(noBody.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(['validation_failed', 'invalid_json']).toContain(noBody.body.code);
    });

    it('stores the password as a salted scrypt hash, never in plain', async () => {
      const password = 'correct horse battery';
      const a = await signup(t, { password });
      const b = await signup(t, { password });
      const rows = await t.app.intake.database.db
        .selectFrom('users')
        .select(['id', 'password_hash'])
        .where('id', 'in', [a.id, b.id])
        .execute();
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row.password_hash).toMatch(/^scrypt\$/);
        expect(row.password_hash).not.toContain(password);
        expect(row.password_hash).not.toContain(Buffer.from(password).toString('base64'));
        expect(row.password_hash).not.toContain(sha256(password));
      }
      // a salt of its own: the same password gives different hashes
      expect(rows[0]?.password_hash).not.toBe(rows[1]?.password_hash);
      const dump = await dumpDatabase(t);
      expect(dump).not.toContain(password);
    });
  });

  describe('POST /auth/login', () => {
    it('answers 200 with {user, token, expiresAt}: a new session beside the old one', async () => {
      const user = await signup(t);
      const before = Date.now();
      const response = await loginRequest({ email: user.email, password: user.password });
      expect(response.status, response.text).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        user: { id: user.id, email: user.email, createdAt: expect.stringMatching(ISO_MS) },
        token: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/),
        expiresAt: expect.stringMatching(ISO_MS),
      });
      const expires = Date.parse(response.body.expiresAt);
      expect(expires - before).toBeGreaterThan(30 * DAY_MS - 60_000);
      expect(expires - before).toBeLessThan(30 * DAY_MS + 60_000);
      expect(response.body.token).not.toBe(user.token);

      // both sessions work
      expect((await me(response.body.token)).body.user.id).toBe(user.id);
      expect((await me(user.token)).body.user.id).toBe(user.id);
    });

    it('compares the e-mail address case-insensitively', async () => {
      const email = `Mixed.Case-${randomBytes(4).toString('hex')}@Example.COM`;
      const created = await signupRequest({ email, password: 'correct horse battery' });
      expect(created.status).toBe(201);
      for (const variant of [email, email.toLowerCase(), email.toUpperCase()]) {
        const response = await loginRequest({ email: variant, password: 'correct horse battery' });
        expect(response.status, variant).toBe(200);
        expect(response.body.user.id).toBe(created.body.user.id);
      }
    });

    it('gives the same 401 for a wrong password and for an unknown e-mail address', async () => {
      const user = await signup(t);
      const wrongPassword = await loginRequest({ email: user.email, password: 'not the password' });
      const unknownEmail = await loginRequest({ email: uniqueEmail('nobody'), password: user.password });
      expectProblem(wrongPassword, 401, 'unauthorized');
      expectProblem(unknownEmail, 401, 'unauthorized');
      expect(wrongPassword.body).toEqual(unknownEmail.body);
      expect(wrongPassword.text).toBe(unknownEmail.text);
      expect(wrongPassword.text).not.toContain(user.email);
    });

    it('does not accept the password in another case, nor the password hash', async () => {
      const user = await signup(t, { password: 'Correct Horse Battery' });
      expectProblem(
        await loginRequest({ email: user.email, password: 'correct horse battery' }),
        401,
        'unauthorized',
      );
      const row = await t.app.intake.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expectProblem(
        await loginRequest({ email: user.email, password: row.password_hash.slice(0, 256) }),
        401,
        'unauthorized',
      );
    });

    it.each([
      ['no body members', {}],
      ['no password', { email: 'a@example.com' }],
      ['no e-mail', { password: 'correct horse battery' }],
      ['a non-string password', { email: 'a@example.com', password: 12345678 }],
      ['an unknown member', { email: 'a@example.com', password: 'correct horse battery', remember: true }],
    ])('refuses a body with %s: 400 validation_failed', async (_name, body) => {
      expectProblem(await loginRequest(body), 400, 'validation_failed');
    });
  });

  describe('POST /auth/logout', () => {
    it('answers 204 and revokes the token: /auth/me with it is then 401', async () => {
      const user = await signup(t);
      const response = await t.request({ method: 'POST', url: '/auth/logout', auth: user.token });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');

      expectProblem(await me(user.token), 401, 'unauthorized');
      expectProblem(
        await t.request({ method: 'POST', url: '/auth/logout', auth: user.token }),
        401,
        'unauthorized',
      );
      expectProblem(
        await t.request({ method: 'GET', url: '/environments', auth: user.token }),
        401,
        'unauthorized',
      );
      const rows = await t.app.intake.database.db
        .selectFrom('sessions')
        .select('token_hash')
        .where('token_hash', '=', sha256(user.token))
        .execute();
      expect(rows).toEqual([]);
    });

    it('revokes only the session it is called with', async () => {
      const user = await signup(t);
      const other = await loginRequest({ email: user.email, password: user.password });
      expect(other.status).toBe(200);
      expect((await t.request({ method: 'POST', url: '/auth/logout', auth: user.token })).status).toBe(204);
      const whoami = await me(other.body.token);
      expect(whoami.status).toBe(200);
      expect(whoami.body.user.id).toBe(user.id);
      // and logging in again gives a working session
      const again = await loginRequest({ email: user.email, password: user.password });
      expect((await me(again.body.token)).status).toBe(200);
    });

    it('is 401 without a credential', async () => {
      expectProblem(await t.request({ method: 'POST', url: '/auth/logout' }), 401, 'unauthorized');
    });

    it('is 403 forbidden with an API key, which stays valid', async () => {
      const user = await signup(t);
      const key = await createKey(t, user, 'secret');
      expectProblem(
        await t.request({ method: 'POST', url: '/auth/logout', auth: key.key }),
        403,
        'forbidden',
      );
      const list = await t.request({ method: 'GET', url: '/forms?environment=development', auth: key.key });
      expect(list.status).toBe(200);
      expect((await me(user.token)).status).toBe(200);
    });
  });

  describe('GET /auth/me', () => {
    it('answers 200 {user} for the session user', async () => {
      const created = await signupRequest({ email: uniqueEmail(), password: 'correct horse battery' });
      const response = await me(created.body.token);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({ user: created.body.user });
      expect(response.body.user.createdAt).toMatch(ISO_MS);
    });

    it.each([
      ['no credential', {}],
      ['an unknown token', { authorization: `Bearer ${randomBytes(32).toString('base64url')}` }],
      ['an empty bearer', { authorization: 'Bearer ' }],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['an unknown secret key', { authorization: `Bearer sk_live_${randomBytes(32).toString('base64url')}` }],
      ['an unknown key in X-API-Key', { 'x-api-key': `sk_live_${randomBytes(32).toString('base64url')}` }],
    ])('is 401 unauthorized with %s', async (_name, headers) => {
      const response = await t.request({ method: 'GET', url: '/auth/me', headers });
      expectProblem(response, 401, 'unauthorized');
    });

    it.each(['secret', 'publishable'] as const)('is 403 forbidden with a %s key', async (kind) => {
      const user = await signup(t);
      const key = await createKey(t, user, kind);
      expectProblem(await me(key.key), 403, 'forbidden');
    });

    it('never treats a bad token as anonymous, even where anonymous callers are allowed', async () => {
      const anonymous = await t.request({ method: 'GET', url: '/forms?environment=development' });
      expect(anonymous.status).toBe(200);
      const bad = await t.request({
        method: 'GET',
        url: '/forms?environment=development',
        auth: randomBytes(32).toString('base64url'),
      });
      expectProblem(bad, 401, 'unauthorized');
    });
  });

  describe('session storage and expiry', () => {
    it('stores the token only as its SHA-256 hex in sessions.token_hash', async () => {
      const user = await signup(t);
      const login = await loginRequest({ email: user.email, password: user.password });
      const { db } = t.app.intake.database;
      const rows = await db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', user.id)
        .orderBy('created_at')
        .execute();
      expect(rows.map((row) => row.token_hash).sort()).toEqual(
        [sha256(user.token), sha256(login.body.token)].sort(),
      );
      for (const row of rows) expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      const loginRow = rows.find((row) => row.token_hash === sha256(login.body.token));
      expect(loginRow?.expires_at).toBe(login.body.expiresAt);

      const dump = await dumpDatabase(t);
      expect(dump).toContain(sha256(user.token));
      expect(dump).not.toContain(user.token);
      expect(dump).not.toContain(login.body.token);
    });

    it('refuses an expired session with 401, and a fresh login still works', async () => {
      const user = await signup(t);
      const { db } = t.app.intake.database;
      expect((await me(user.token)).status).toBe(200);

      const result = await db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('token_hash', '=', sha256(user.token))
        .executeTakeFirst();
      expect(Number(result.numUpdatedRows)).toBe(1);

      expectProblem(await me(user.token), 401, 'unauthorized');
      expectProblem(
        await t.request({ method: 'GET', url: '/environments', auth: user.token }),
        401,
        'unauthorized',
      );
      const login = await loginRequest({ email: user.email, password: user.password });
      expect(login.status).toBe(200);
      expect((await me(login.body.token)).status).toBe(200);
    });

    it('still accepts a session that expires in the future', async () => {
      const user = await signup(t);
      await t.app.intake.database.db
        .updateTable('sessions')
        .set({ expires_at: new Date(Date.now() + 60_000).toISOString() })
        .where('token_hash', '=', sha256(user.token))
        .execute();
      expect((await me(user.token)).status).toBe(200);
    });
  });
});

describe('login and signup rate limit (rateLimitAuth)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // trustProxy lets each request name its client address in X-Forwarded-For
    t = await createTestApp({ rateLimitAuth: 3, trustProxy: 1 });
  });
  afterAll(() => t.close());

  let ipCounter = 0;
  const freshIp = () => {
    ipCounter += 1;
    return `10.${Math.floor(ipCounter / 250)}.${ipCounter % 250}.7`;
  };
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  async function signupFrom(ip: string) {
    const email = uniqueEmail();
    const password = 'correct horse battery';
    const response = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email, password },
      headers: from(ip),
    });
    expect(response.status, response.text).toBe(201);
    return { credentials: { email, password }, email, id: response.body.user.id as string };
  }

  const login = (body: { email: string; password: string }, ip: string) =>
    t.request({ method: 'POST', url: '/auth/login', body, headers: from(ip) });

  function expectRateLimited(response: Response): void {
    expectProblem(response, 429, 'rate_limited');
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers['ratelimit-limit']).toBe('3');
    expect(response.headers['ratelimit-remaining']).toBe('0');
    const reset = Number(response.headers['ratelimit-reset']);
    expect(Number.isInteger(reset)).toBe(true);
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
  }

  it('limits failed logins per e-mail address: a client that failed waits, whatever its address', async () => {
    const user = await signupFrom(freshIp());
    const guessers = [freshIp(), freshIp(), freshIp()];
    for (const ip of guessers) {
      expectProblem(await login({ email: user.email, password: 'wrong password' }, ip), 401, 'unauthorized');
    }
    // the fourth guess in the minute, from one of those addresses and in another case
    expectRateLimited(
      await login({ email: user.email.toUpperCase(), password: 'wrong password' }, guessers[0] ?? ''),
    );
    // a client that failed is not let in even with the right password while the account is locked
    expectRateLimited(await login(user.credentials, guessers[1] ?? ''));
    // a new guesser has its one try (its password checked), then waits like the others
    const newcomer = freshIp();
    expectProblem(await login({ email: user.email, password: 'wrong again' }, newcomer), 401, 'unauthorized');
    expectRateLimited(await login({ email: user.email, password: 'wrong again' }, newcomer));

    // other accounts are not affected
    const other = await signupFrom(freshIp());
    const response = await login(other.credentials, freshIp());
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(other.id);
  });

  // Issue 19: ten wrong passwords from anywhere locked the owner out, as every attempt counted.
  it('lets the right password in from a client with no recent failure while the account is being guessed at', async () => {
    const user = await signupFrom(freshIp());
    for (let i = 0; i < 5; i++) {
      expectProblem(
        await login({ email: user.email, password: `guess ${i}` }, freshIp()),
        401,
        'unauthorized',
      );
    }
    const owner = await login(user.credentials, freshIp());
    expect(owner.status, owner.text).toBe(200);
    expect(owner.body.user.id).toBe(user.id);
  });

  // Issue 19's review: "no recent failure" alone let every fresh address guess once, and IPv6
  // hands out fresh addresses by the 2^64.
  async function lockedAccount() {
    const user = await signupFrom(freshIp());
    for (let i = 0; i < 3; i++) {
      expectProblem(
        await login({ email: user.email, password: `guess ${i}` }, freshIp()),
        401,
        'unauthorized',
      );
    }
    return user;
  }

  it('counts an IPv6 client by its /64: a locked account gets one guess from the whole block', async () => {
    const user = await lockedAccount();
    ipCounter += 1;
    const block = `2001:db8:${ipCounter.toString(16)}:2`;
    expectProblem(
      await login({ email: user.email, password: 'guess a' }, `${block}::1`),
      401,
      'unauthorized',
    );
    for (const host of ['2', 'ffff:1:2:3', 'a:b:c:d']) {
      const guess = await login(
        { email: user.email, password: `guess ${host}` },
        `${block}:${host.includes(':') ? host : `:${host}`}`,
      );
      expectProblem(guess, 429, 'rate_limited');
    }
  });

  it('gives a burst of parallel guesses from a fresh client one check at a locked account', async () => {
    const user = await lockedAccount();
    const ip = freshIp();
    const answers = await Promise.all(
      [1, 2, 3, 4].map((n) => login({ email: user.email, password: `parallel ${n}` }, ip)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([401, 429, 429, 429]);
  });

  it('checks at most RATE_LIMIT_AUTH passwords a minute from fresh clients at a locked account', async () => {
    const user = await lockedAccount();
    for (let i = 0; i < 3; i++) {
      expectProblem(
        await login({ email: user.email, password: `fresh ${i}` }, freshIp()),
        401,
        'unauthorized',
      );
    }
    // the account's budget of checks is spent: even its own password waits now
    expectRateLimited(await login(user.credentials, freshIp()));
  });

  it('counts failures, not log-ins: the owner may log in more often than RATE_LIMIT_AUTH a minute', async () => {
    const user = await signupFrom(freshIp());
    for (let i = 0; i < 5; i++) expect((await login(user.credentials, freshIp())).status).toBe(200);
  });

  it('limits login attempts per client address, whatever the e-mail address', async () => {
    const user = await signupFrom(freshIp());
    const ip = freshIp();
    for (let i = 0; i < 3; i++) {
      expectProblem(
        await login({ email: uniqueEmail('nobody'), password: 'wrong password' }, ip),
        401,
        'unauthorized',
      );
    }
    // the right credentials from that address wait, the same from another address pass
    expectRateLimited(await login(user.credentials, ip));
    const elsewhere = await login(user.credentials, freshIp());
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.user.id).toBe(user.id);
  });

  // Issue 19: each route built limiters of its own, which in memory (no Redis) counted apart.
  it('counts attempts per client address across log-in, sign-up and the password routes', async () => {
    const ip = freshIp();
    const reset = await t.request({
      method: 'POST',
      url: '/auth/password-reset',
      body: { email: uniqueEmail('nobody') },
      headers: from(ip),
    });
    expect(reset.status).toBe(202);
    const confirm = await t.request({
      method: 'POST',
      url: '/auth/password-reset/confirm',
      body: { token: 'not-a-token', password: 'correct horse battery' },
      headers: from(ip),
    });
    expectProblem(confirm, 400, 'invalid_token');
    await signupFrom(ip);
    expectRateLimited(await login({ email: uniqueEmail('nobody'), password: 'wrong password' }, ip));
  });

  it('counts signups against the client address too', async () => {
    const ip = freshIp();
    for (let i = 0; i < 3; i++) await signupFrom(ip);
    const email = uniqueEmail();
    const limited = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email, password: 'correct horse battery' },
      headers: from(ip),
    });
    expectRateLimited(limited);
    // nothing was created: the address can sign up from elsewhere
    const elsewhere = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email, password: 'correct horse battery' },
      headers: from(freshIp()),
    });
    expect(elsewhere.status).toBe(201);
  });

  it('trusts only the entry the proxy appended: a client cannot spoof its address with its own X-Forwarded-For', async () => {
    const proxyAppended = freshIp();
    for (let i = 0; i < 3; i++) {
      const response = await t.request({
        method: 'POST',
        url: '/auth/login',
        body: { email: uniqueEmail('nobody'), password: 'wrong password' },
        headers: from(`${freshIp()}, ${proxyAppended}`),
      });
      expectProblem(response, 401, 'unauthorized');
    }
    const limited = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email: uniqueEmail('nobody'), password: 'wrong password' },
      headers: from(`${freshIp()}, ${proxyAppended}`),
    });
    expectRateLimited(limited);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is on', async () => {
    const strict = await createTestApp({ rateLimitAuth: 3, trustProxy: false });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await strict.request({
          method: 'POST',
          url: '/auth/login',
          body: { email: uniqueEmail('nobody'), password: 'wrong password' },
          headers: from(freshIp()),
        });
        expectProblem(response, 401, 'unauthorized');
      }
      const limited = await strict.request({
        method: 'POST',
        url: '/auth/login',
        body: { email: uniqueEmail('nobody'), password: 'wrong password' },
        headers: from(freshIp()),
      });
      expectRateLimited(limited);
    } finally {
      await strict.close();
    }
  });
});
