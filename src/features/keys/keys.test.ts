import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import {
  createEnvironment,
  createForm,
  createKey,
  signup,
  type TestUser,
} from '../../../test/support/factories.js';

/** API.md §4: API keys. */

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

const KINDS = [
  { kind: 'secret', path: '/keys/secrets', prefix: 'sk_live_', dashed: 'sk-live-' },
  { kind: 'publishable', path: '/keys/publishable', prefix: 'pk_live_', dashed: 'pk-live-' },
] as const;

describe('API keys (API.md §4)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const listKeys = (user: TestUser, environment = 'development') =>
    t.request({ method: 'GET', url: `/keys?environment=${environment}`, auth: user.token });
  const listForms = (headers: Record<string, string>, environment = 'development') =>
    t.request({ method: 'GET', url: `/forms?environment=${environment}`, headers });
  const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });

  describe.each(KINDS)('POST $path', ({ kind, path, prefix }) => {
    it(`answers 201 {id, kind:"${kind}", environment, key, last4, createdAt}`, async () => {
      const user = await signup(t);
      const before = Date.now();
      const response = await t.request({
        method: 'POST',
        url: `${path}?environment=development`,
        auth: user.token,
      });
      expect(response.status, response.text).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^key_[A-Za-z0-9]+$/),
        kind,
        environment: 'development',
        key: expect.any(String),
        last4: expect.any(String),
        createdAt: expect.stringMatching(ISO_MS),
      });
      const { key, last4, createdAt } = response.body;
      expect(key.startsWith(prefix)).toBe(true);
      // at least 256 bits after the prefix (43 characters of base64url)
      expect(key.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(last4).toHaveLength(4);
      expect(last4).toBe(key.slice(-4));
      expect(Date.parse(createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(createdAt)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it('creates keys in the environment asked for, each one different', async () => {
      const user = await signup(t);
      await createEnvironment(t, user, 'staging');
      const seen = new Set<string>();
      for (const environment of ['development', 'production', 'staging', 'staging']) {
        const response = await t.request({
          method: 'POST',
          url: `${path}?environment=${environment}`,
          auth: user.token,
        });
        expect(response.status).toBe(201);
        expect(response.body.environment).toBe(environment);
        expect(response.body.kind).toBe(kind);
        seen.add(response.body.key);
        seen.add(response.body.id);
      }
      expect(seen.size).toBe(8);
    });

    it('is 400 invalid_environment without an environment, or with an empty one', async () => {
      const user = await signup(t);
      for (const url of [path, `${path}?environment=`]) {
        const response = await t.request({ method: 'POST', url, auth: user.token });
        expectProblem(response, 400, 'invalid_environment');
        expect(response.body.suggestions).toEqual(['development', 'production']);
      }
    });

    it.each(['Development', 'has%20space', 'a'.repeat(51), 'caf%C3%A9'])(
      'is 400 invalid_environment for environment=%s',
      async (environment) => {
        const user = await signup(t);
        const response = await t.request({
          method: 'POST',
          url: `${path}?environment=${environment}`,
          auth: user.token,
        });
        expectProblem(response, 400, 'invalid_environment');
        expect(response.body.suggestions).toEqual(['development', 'production']);
      },
    );

    it('is 404 environment_not_found for an environment the user has not created', async () => {
      const user = await signup(t);
      const other = await signup(t);
      await createEnvironment(t, other, 'staging');
      const response = await t.request({
        method: 'POST',
        url: `${path}?environment=staging`,
        auth: user.token,
      });
      expectProblem(response, 404, 'environment_not_found');
      expect(response.body.detail).toMatch(/create the environment first/i);
      const rows = await t.app.intake.database.db
        .selectFrom('api_keys')
        .select('id')
        .where('workspace_id', '=', user.workspaceId)
        .execute();
      expect(rows).toEqual([]);
    });
  });

  describe('GET /keys', () => {
    it('lists the keys of the environment without the keys themselves', async () => {
      const user = await signup(t);
      const secret = await createKey(t, user, 'secret');
      const publishable = await createKey(t, user, 'publishable');
      const production = await createKey(t, user, 'secret', 'production');
      const stranger = await signup(t);
      const strangers = await createKey(t, stranger, 'secret');

      const response = await listKeys(user);
      expect(response.status).toBe(200);
      expect(response.body.nextCursor).toBeNull();
      expect(response.body.data).toHaveLength(2);
      expect(response.body.data).toEqual(
        expect.arrayContaining([
          {
            id: secret.id,
            kind: 'secret',
            environment: 'development',
            last4: secret.key.slice(-4),
            createdAt: expect.stringMatching(ISO_MS),
            lastUsedAt: null,
          },
          {
            id: publishable.id,
            kind: 'publishable',
            environment: 'development',
            last4: publishable.key.slice(-4),
            createdAt: expect.stringMatching(ISO_MS),
            lastUsedAt: null,
          },
        ]),
      );
      for (const item of response.body.data) expect(item).not.toHaveProperty('key');
      for (const key of [secret, publishable, production, strangers]) {
        expect(response.text).not.toContain(key.key.slice(8));
      }
      expect(response.text).not.toContain(strangers.id);

      const prod = await listKeys(user, 'production');
      expect(prod.status).toBe(200);
      expect(prod.body.data.map((item: { id: string }) => item.id)).toEqual([production.id]);
      expect(prod.text).not.toContain(production.key.slice(8));
    });

    it('lists an empty environment as an empty list', async () => {
      const user = await signup(t);
      const response = await listKeys(user, 'production');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: [], nextCursor: null });
    });

    it.each([
      ['missing', '/keys', 400, 'invalid_environment'],
      ['empty', '/keys?environment=', 400, 'invalid_environment'],
      ['invalid', '/keys?environment=Prod', 400, 'invalid_environment'],
      ['unknown', '/keys?environment=staging', 404, 'environment_not_found'],
    ])('is %s environment -> %i %s', async (_name, url, status, code) => {
      const user = await signup(t);
      expectProblem(await t.request({ method: 'GET', url, auth: user.token }), status, code);
    });
  });

  describe('storage', () => {
    it.each(KINDS)('stores a $kind key only as the SHA-256 hex of the key', async ({ kind }) => {
      const user = await signup(t);
      const created = await createKey(t, user, kind);
      const { db } = t.app.intake.database;
      const row = await db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(row.key_hash).toBe(sha256(created.key));
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.last4).toBe(created.key.slice(-4));
      for (const value of Object.values(row)) {
        if (typeof value === 'string') expect(value).not.toContain(created.key.slice(8, 20));
      }
      // nowhere else either, in any spelling
      const dump = await dumpDatabase(t);
      expect(dump).toContain(sha256(created.key));
      expect(dump).not.toContain(created.key.slice(8));
      expect(dump).not.toContain(created.key.slice(8, 30));
    });
  });

  describe('authenticating with a key', () => {
    /** A user with a draft form in development: only the owner's credentials can see it. */
    async function userWithDraft() {
      const user = await signup(t);
      const form = await createForm(t, user.token);
      expect(form.status).toBe('draft');
      return { user, form };
    }

    it('an anonymous list does not show the draft (so the checks below prove the key worked)', async () => {
      const { form } = await userWithDraft();
      const response = await listForms({});
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(form.id);
    });

    it.each([
      ['Authorization, sk_live_', (key: string) => bearer(key)],
      ['Authorization, sk-live-', (key: string) => bearer(`sk-live-${key.slice(8)}`)],
      ['X-API-Key, sk_live_', (key: string) => ({ 'x-api-key': key })],
      ['X-API-Key, sk-live-', (key: string) => ({ 'x-api-key': `sk-live-${key.slice(8)}` })],
    ])(
      'a secret key authenticates (%s) and sees the full forms of its environment',
      async (_name, headers) => {
        const { user, form } = await userWithDraft();
        const key = await createKey(t, user, 'secret');
        const response = await listForms(headers(key.key));
        expect(response.status, response.text).toBe(200);
        expect(response.body.data).toHaveLength(1);
        expect(response.body.data[0]).toMatchObject({ id: form.id, userId: user.id, status: 'draft' });
      },
    );

    it.each([
      ['Authorization, pk_live_', (key: string) => bearer(key)],
      ['Authorization, pk-live-', (key: string) => bearer(`pk-live-${key.slice(8)}`)],
      ['X-API-Key, pk_live_', (key: string) => ({ 'x-api-key': key })],
      ['X-Publishable-Key, pk_live_', (key: string) => ({ 'x-publishable-key': key })],
      ['X-Publishable-Key, pk-live-', (key: string) => ({ 'x-publishable-key': `pk-live-${key.slice(8)}` })],
    ])(
      'a publishable key authenticates (%s) and sees public views of its environment',
      async (_name, headers) => {
        const { user, form } = await userWithDraft();
        const key = await createKey(t, user, 'publishable');
        const response = await listForms(headers(key.key));
        expect(response.status, response.text).toBe(200);
        expect(response.body.data).toHaveLength(1);
        expect(response.body.data[0].id).toBe(form.id);
        expect(response.body.data[0]).not.toHaveProperty('userId');
      },
    );

    it('refuses a secret key (or a session token) in X-Publishable-Key, the header browsers send: 401', async () => {
      const user = await signup(t);
      const secret = await createKey(t, user, 'secret');
      expectProblem(await listForms({ 'x-publishable-key': secret.key }), 401, 'unauthorized');
      expectProblem(await listForms({ 'x-publishable-key': user.token }), 401, 'unauthorized');
    });

    it.each(KINDS)(
      'a $kind key is 401 with the other kind’s prefix, or altered',
      async ({ kind, prefix }) => {
        const user = await signup(t);
        const key = await createKey(t, user, kind);
        const otherPrefix = prefix === 'sk_live_' ? 'pk_live_' : 'sk_live_';
        const altered = `${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`;
        for (const credential of [
          `${otherPrefix}${key.key.slice(8)}`,
          altered,
          key.key.slice(8),
          `${key.key}x`,
        ]) {
          expectProblem(await listForms(bearer(credential)), 401, 'unauthorized');
        }
        expectProblem(await listForms({ 'x-api-key': altered }), 401, 'unauthorized');
        // X-API-Key takes keys only: the account's session token there is refused, said so
        const refused = await listForms({ 'x-api-key': user.token });
        expectProblem(refused, 401, 'unauthorized');
        expect(refused.body.detail).toContain('Authorization: Bearer');
        expect((await listForms(bearer(user.token))).status).toBe(200);
        // one credential a request: a bad key beside a good one is not left unjudged
        for (const headers of <Array<Record<string, string>>>[
          { ...bearer(key.key), 'x-api-key': altered },
          { ...bearer(user.token), 'x-api-key': key.key },
          { 'x-api-key': key.key, 'x-publishable-key': altered },
        ]) {
          const twice = await listForms(headers);
          expectProblem(twice, 400, 'invalid_parameter');
          expect(twice.body.detail).toContain('one credential');
        }
        // the same key in two headers is one credential
        expect((await listForms({ ...bearer(key.key), 'x-api-key': key.key })).status).toBe(200);
        // the real key still works
        expect((await listForms(bearer(key.key))).status).toBe(200);
      },
    );

    it.each(KINDS)('sets lastUsedAt of a $kind key once it is used', async ({ kind }) => {
      const user = await signup(t);
      const key = await createKey(t, user, kind);
      const unused = await listKeys(user);
      expect(unused.body.data[0].lastUsedAt).toBeNull();

      const before = Date.now();
      expect((await listForms(bearer(key.key))).status).toBe(200);
      // recorded off the request path: wait for it
      const used = await vi.waitFor(
        async () => {
          const response = await listKeys(user);
          const item = response.body.data.find((k: { id: string }) => k.id === key.id);
          expect(item.lastUsedAt).not.toBeNull();
          return item;
        },
        { timeout: 5000, interval: 50 },
      );
      expect(used.lastUsedAt).toMatch(ISO_MS);
      expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(used.lastUsedAt)).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it.each(KINDS)(
      'a $kind key of development is 403 forbidden on ?environment=production',
      async ({ kind, dashed }) => {
        const user = await signup(t);
        await createForm(t, user.token, { environment: 'production' });
        const key = await createKey(t, user, kind, 'development');
        expectProblem(await listForms(bearer(key.key), 'production'), 403, 'forbidden');
        expectProblem(
          await listForms(bearer(`${dashed}${key.key.slice(8)}`), 'production'),
          403,
          'forbidden',
        );
        expectProblem(await listForms({ 'x-api-key': key.key }, 'production'), 403, 'forbidden');
        // and on an environment of the same user the key has nothing to do with
        await createEnvironment(t, user, 'staging');
        expectProblem(await listForms(bearer(key.key), 'staging'), 403, 'forbidden');
      },
    );

    it('a key of production works on production and not on development', async () => {
      const user = await signup(t);
      const prodForm = await createForm(t, user.token, { environment: 'production' });
      const key = await createKey(t, user, 'secret', 'production');
      const response = await listForms(bearer(key.key), 'production');
      expect(response.status).toBe(200);
      expect(response.body.data.map((form: { id: string }) => form.id)).toEqual([prodForm.id]);
      expectProblem(await listForms(bearer(key.key), 'development'), 403, 'forbidden');
    });

    it('a key sees only its own user’s forms, even in an environment of the same name', async () => {
      const alice = await userWithDraft();
      const bob = await userWithDraft();
      const key = await createKey(t, alice.user, 'secret');
      const response = await listForms(bearer(key.key));
      expect(response.status).toBe(200);
      expect(response.body.data.map((form: { id: string }) => form.id)).toEqual([alice.form.id]);
      expect(response.text).not.toContain(bob.form.id);
    });
  });

  describe.each(KINDS)('DELETE $path/{keyId}', ({ kind, path, dashed }) => {
    const otherPath = path === '/keys/secrets' ? '/keys/publishable' : '/keys/secrets';

    it('answers 204 and takes effect at once: the next request with the key is 401', async () => {
      const user = await signup(t);
      const key = await createKey(t, user, kind);
      const keep = await createKey(t, user, kind);
      expect((await listForms(bearer(key.key))).status).toBe(200);

      const response = await t.request({ method: 'DELETE', url: `${path}/${key.id}`, auth: user.token });
      expect(response.status).toBe(204);
      expect(response.text).toBe('');

      expectProblem(await listForms(bearer(key.key)), 401, 'unauthorized');
      expectProblem(await listForms(bearer(`${dashed}${key.key.slice(8)}`)), 401, 'unauthorized');
      expectProblem(await listForms({ 'x-api-key': key.key }), 401, 'unauthorized');
      if (kind === 'publishable') {
        expectProblem(await listForms({ 'x-publishable-key': key.key }), 401, 'unauthorized');
      }
      // gone from the list, from the database; the other key is untouched
      const list = await listKeys(user);
      expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([keep.id]);
      const rows = await t.app.intake.database.db
        .selectFrom('api_keys')
        .select('id')
        .where('id', '=', key.id)
        .execute();
      expect(rows).toEqual([]);
      expect((await listForms(bearer(keep.key))).status).toBe(200);

      // deleting again is 404
      expectProblem(
        await t.request({ method: 'DELETE', url: `${path}/${key.id}`, auth: user.token }),
        404,
        'not_found',
      );
    });

    it('is 404 not_found for another user’s key, which keeps working', async () => {
      const owner = await signup(t);
      const other = await signup(t);
      const key = await createKey(t, owner, kind);
      const response = await t.request({ method: 'DELETE', url: `${path}/${key.id}`, auth: other.token });
      expectProblem(response, 404, 'not_found');
      expect((await listForms(bearer(key.key))).status).toBe(200);
      expect((await listKeys(owner)).body.data.map((item: { id: string }) => item.id)).toEqual([key.id]);
    });

    it(`is 404 not_found for a key of the other kind through ${path}`, async () => {
      const user = await signup(t);
      const otherKind = kind === 'secret' ? 'publishable' : 'secret';
      const key = await createKey(t, user, otherKind);
      const response = await t.request({ method: 'DELETE', url: `${path}/${key.id}`, auth: user.token });
      expectProblem(response, 404, 'not_found');
      expect((await listForms(bearer(key.key))).status).toBe(200);
      // through its own path it goes
      expect(
        (await t.request({ method: 'DELETE', url: `${otherPath}/${key.id}`, auth: user.token })).status,
      ).toBe(204);
    });

    it('is 404 not_found for an unknown key id', async () => {
      const user = await signup(t);
      for (const id of ['key_doesnotexist', 'nothing']) {
        expectProblem(
          await t.request({ method: 'DELETE', url: `${path}/${id}`, auth: user.token }),
          404,
          'not_found',
        );
      }
    });
  });

  describe('credentials for key management', () => {
    async function endpoints() {
      const user = await signup(t);
      const victim = await createKey(t, user, 'secret');
      const victimPk = await createKey(t, user, 'publishable');
      return {
        user,
        victim,
        requests: [
          { method: 'GET', url: '/keys?environment=development' },
          { method: 'POST', url: '/keys/secrets?environment=development' },
          { method: 'POST', url: '/keys/publishable?environment=development' },
          { method: 'DELETE', url: `/keys/secrets/${victim.id}` },
          { method: 'DELETE', url: `/keys/publishable/${victimPk.id}` },
        ] as const,
      };
    }

    it('every key endpoint is 401 unauthorized without a credential or with an unknown one', async () => {
      const { requests, user } = await endpoints();
      for (const request of requests) {
        expectProblem(await t.request(request), 401, 'unauthorized');
        expectProblem(await t.request({ ...request, auth: 'sk_live_unknown' }), 401, 'unauthorized');
        expectProblem(await t.request({ ...request, auth: 'no-such-session' }), 401, 'unauthorized');
      }
      expect((await listKeys(user)).body.data).toHaveLength(2);
    });

    it.each(KINDS)('every key endpoint is 403 forbidden with a $kind key', async ({ kind }) => {
      const { requests, user, victim } = await endpoints();
      const key = await createKey(t, user, kind);
      for (const request of requests) {
        expectProblem(await t.request({ ...request, auth: key.key }), 403, 'forbidden');
        expectProblem(await t.request({ ...request, headers: { 'x-api-key': key.key } }), 403, 'forbidden');
      }
      // nothing was created or deleted
      expect((await listKeys(user)).body.data).toHaveLength(3);
      expect((await listForms(bearer(victim.key))).status).toBe(200);
    });
  });
});
