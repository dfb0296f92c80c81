import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import {
  createEnvironment,
  createForm,
  createKey,
  signup,
  type TestUser,
} from '../../../test/support/factories.js';

/** API.md §3: environments. */

function expectInvalidEnvironment(response: Response): void {
  expectProblem(response, 400, 'invalid_environment');
  expect(response.body.suggestions).toEqual(['development', 'production']);
  expect(response.body.detail).toContain('development');
  expect(response.body.detail).toContain('production');
}

describe('environments (API.md §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const list = (user: TestUser) => t.request({ method: 'GET', url: '/environments', auth: user.token });
  const create = (user: TestUser, body: unknown) =>
    t.request({ method: 'POST', url: '/environments', auth: user.token, body });
  const remove = (user: TestUser, name: string) =>
    t.request({ method: 'DELETE', url: `/environments/${encodeURIComponent(name)}`, auth: user.token });
  const names = async (user: TestUser): Promise<string[]> => {
    const response = await list(user);
    expect(response.status).toBe(200);
    return response.body.data.map((environment: { name: string }) => environment.name).sort();
  };

  describe('GET /environments', () => {
    it('lists the two defaults of a new user', async () => {
      const user = await signup(t);
      const response = await list(user);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body.nextCursor).toBeNull();
      expect(response.body.data).toHaveLength(2);
      expect(response.body.data).toEqual(
        expect.arrayContaining([
          { name: 'development', isDefault: true, createdAt: expect.stringMatching(ISO_MS) },
          { name: 'production', isDefault: true, createdAt: expect.stringMatching(ISO_MS) },
        ]),
      );
    });

    it('lists created environments beside the defaults, with isDefault false', async () => {
      const user = await signup(t);
      const created = await create(user, { name: 'staging' });
      expect(created.status).toBe(201);
      const response = await list(user);
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(3);
      expect(response.body.data).toContainEqual(created.body);
      expect(response.body.data).toContainEqual({
        name: 'staging',
        isDefault: false,
        createdAt: expect.stringMatching(ISO_MS),
      });
      expect(await names(user)).toEqual(['development', 'production', 'staging']);
    });
  });

  describe('POST /environments', () => {
    it('answers 201 {name, isDefault:false, createdAt}', async () => {
      const user = await signup(t);
      const before = Date.now();
      const response = await create(user, { name: 'staging' });
      expect(response.status, response.text).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({ name: 'staging', isDefault: false, createdAt: expect.any(String) });
      expect(response.body.createdAt).toMatch(ISO_MS);
      const created = Date.parse(response.body.createdAt);
      expect(created).toBeGreaterThanOrEqual(before - 1000);
      expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    });

    it.each([
      ['50 characters', 'a'.repeat(50)],
      ['one character', 'x'],
      ['digits, hyphens and underscores', 'qa_2-b'],
      ['only digits', '2026'],
      ['leading hyphen', '-preview'],
    ])('accepts a name of %s, usable at once', async (_name, name) => {
      const user = await signup(t);
      const response = await create(user, { name });
      expect(response.status, response.text).toBe(201);
      expect(response.body.name).toBe(name);
      expect(await names(user)).toContain(name);
      // the environment is real: keys can be created in it
      const key = await t.request({
        method: 'POST',
        url: `/keys/secrets?environment=${name}`,
        auth: user.token,
      });
      expect(key.status).toBe(201);
    });

    it.each([
      ['uppercase', 'Staging'],
      ['all uppercase', 'PROD'],
      ['a space', 'my env'],
      ['a leading space', ' staging'],
      ['51 characters', 'a'.repeat(51)],
      ['empty', ''],
      ['unicode letters', 'café'],
      ['unicode digits', '٣٤'],
      ['an emoji', 'env🙂'],
      ['a dot', 'staging.eu'],
      ['a slash', 'a/b'],
      ['a newline', 'staging\n'],
    ])('refuses a name with %s: 400 invalid_environment with suggestions', async (_name, name) => {
      const user = await signup(t);
      const response = await create(user, { name });
      expectInvalidEnvironment(response);
      expect(await names(user)).toEqual(['development', 'production']);
    });

    it.each([
      ['no name', {}],
      ['a numeric name', { name: 42 }],
      ['a null name', { name: null }],
      ['an unknown member', { name: 'staging', isDefault: true }],
    ])('refuses a body with %s: 400 validation_failed', async (_name, body) => {
      const user = await signup(t);
      expectProblem(await create(user, body), 400, 'validation_failed');
      expect(await names(user)).toEqual(['development', 'production']);
    });

    it('refuses an existing name: 409 conflict', async () => {
      const user = await signup(t);
      expect((await create(user, { name: 'staging' })).status).toBe(201);
      expectProblem(await create(user, { name: 'staging' }), 409, 'conflict');
      expect(await names(user)).toEqual(['development', 'production', 'staging']);
    });

    it('lets exactly one of several concurrent creations of one name through', async () => {
      const user = await signup(t);
      const responses = await Promise.all(Array.from({ length: 5 }, () => create(user, { name: 'racing' })));
      expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
      for (const response of responses.filter((r) => r.status !== 201))
        expectProblem(response, 409, 'conflict');
      expect(await names(user)).toEqual(['development', 'production', 'racing']);
    });

    it.each(['development', 'production'])('refuses the default name %s: 409 conflict', async (name) => {
      const user = await signup(t);
      expectProblem(await create(user, { name }), 409, 'conflict');
      const response = await list(user);
      expect(response.body.data).toHaveLength(2);
      expect(response.body.data).toContainEqual(expect.objectContaining({ name, isDefault: true }));
    });
  });

  describe('per-user isolation', () => {
    it('lets two users both have staging, neither seeing the other’s', async () => {
      const alice = await signup(t);
      const bob = await signup(t);
      expect((await create(alice, { name: 'staging' })).status).toBe(201);
      expect((await create(bob, { name: 'staging' })).status).toBe(201);
      expect((await create(alice, { name: 'only-alice' })).status).toBe(201);

      expect(await names(alice)).toEqual(['development', 'only-alice', 'production', 'staging']);
      expect(await names(bob)).toEqual(['development', 'production', 'staging']);
      // bob cannot reach alice's environment at all
      expectProblem(await remove(bob, 'only-alice'), 404, 'environment_not_found');
      const key = await t.request({
        method: 'POST',
        url: '/keys/secrets?environment=only-alice',
        auth: bob.token,
      });
      expectProblem(key, 404, 'environment_not_found');
      expect(await names(alice)).toContain('only-alice');
    });

    it('deleting one user’s staging leaves the other’s', async () => {
      const alice = await signup(t);
      const bob = await signup(t);
      await createEnvironment(t, alice, 'staging');
      await createEnvironment(t, bob, 'staging');
      // bob's staging holds a form and a key: that must not block alice
      await createForm(t, bob.token, { environment: 'staging' });
      const bobKey = await createKey(t, bob, 'secret', 'staging');

      const response = await remove(alice, 'staging');
      expect(response.status, response.text).toBe(204);
      expect(await names(alice)).toEqual(['development', 'production']);
      expect(await names(bob)).toEqual(['development', 'production', 'staging']);

      // bob's form and key still live in it
      const forms = await t.request({ method: 'GET', url: '/forms?environment=staging', auth: bobKey.key });
      expect(forms.status).toBe(200);
      expect(forms.body.data).toHaveLength(1);
      const bobDelete = await remove(bob, 'staging');
      expectProblem(bobDelete, 409, 'environment_not_empty');
      expect(bobDelete.body).toMatchObject({ forms: 1, keys: 1 });

      // and alice can create it again
      expect((await create(alice, { name: 'staging' })).status).toBe(201);
    });
  });

  describe('DELETE /environments/{name}', () => {
    it('answers 204 and removes the environment', async () => {
      const user = await signup(t);
      await createEnvironment(t, user, 'preview');
      const response = await remove(user, 'preview');
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(await names(user)).toEqual(['development', 'production']);

      // it is gone: keys cannot be made in it, deleting again is 404
      const key = await t.request({
        method: 'POST',
        url: '/keys/secrets?environment=preview',
        auth: user.token,
      });
      expectProblem(key, 404, 'environment_not_found');
      expectProblem(await remove(user, 'preview'), 404, 'environment_not_found');
      const rows = await t.app.intake.database.db
        .selectFrom('environments')
        .select('name')
        .where('workspace_id', '=', user.workspaceId)
        .execute();
      expect(rows.map((row) => row.name).sort()).toEqual(['development', 'production']);
    });

    it('is 404 environment_not_found for an environment the user does not have', async () => {
      const user = await signup(t);
      const response = await remove(user, 'never-made');
      expectProblem(response, 404, 'environment_not_found');
      expect(response.body.detail).toMatch(/does not exist/i);
      expect(response.body.detail).toMatch(/create the environment first/i);
    });

    it.each([
      ['uppercase', 'Staging'],
      ['51 characters', 'a'.repeat(51)],
      ['unicode', 'café'],
      ['a space', 'my env'],
    ])('is 400 invalid_environment for a name with %s', async (_name, name) => {
      const user = await signup(t);
      expectInvalidEnvironment(await remove(user, name));
    });

    it.each(['development', 'production'])('refuses the default %s: 409 conflict', async (name) => {
      const user = await signup(t);
      const response = await remove(user, name);
      expectProblem(response, 409, 'conflict');
      expect(await names(user)).toEqual(['development', 'production']);
    });

    it('refuses a default environment with 409 conflict even when it holds forms and keys', async () => {
      const user = await signup(t);
      await createForm(t, user.token, { environment: 'production' });
      await createKey(t, user, 'secret', 'production');
      expectProblem(await remove(user, 'production'), 409, 'conflict');
    });

    it('refuses a non-empty environment: 409 environment_not_empty naming the counts, then deletes it once emptied', async () => {
      const user = await signup(t);
      await createEnvironment(t, user, 'busy');
      const formA = await createForm(t, user.token, { environment: 'busy' });
      const formB = await createForm(t, user.token, { environment: 'busy', title: 'Second' });
      const secret = await createKey(t, user, 'secret', 'busy');
      const publishable = await createKey(t, user, 'publishable', 'busy');
      const third = await createKey(t, user, 'publishable', 'busy');
      // content of other environments does not count
      await createForm(t, user.token, { environment: 'development' });
      await createKey(t, user, 'secret', 'development');

      let response = await remove(user, 'busy');
      expectProblem(response, 409, 'environment_not_empty');
      expect(response.body).toMatchObject({ forms: 2, keys: 3 });
      expect(response.body.detail).toMatch(/\b2 form/);
      expect(response.body.detail).toMatch(/\b3 (API )?key/);
      expect(await names(user)).toContain('busy');

      for (const form of [formA, formB]) {
        const deleted = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: user.token });
        expect(deleted.status).toBe(204);
      }
      response = await remove(user, 'busy');
      expectProblem(response, 409, 'environment_not_empty');
      expect(response.body).toMatchObject({ forms: 0, keys: 3 });
      expect(response.body.detail).toMatch(/\b0 form/);
      expect(response.body.detail).toMatch(/\b3 (API )?key/);

      const deletions = [
        `/keys/secrets/${secret.id}`,
        `/keys/publishable/${publishable.id}`,
        `/keys/publishable/${third.id}`,
      ];
      for (const url of deletions) {
        expect((await t.request({ method: 'DELETE', url, auth: user.token })).status).toBe(204);
      }
      response = await remove(user, 'busy');
      expect(response.status, response.text).toBe(204);
      expect(await names(user)).toEqual(['development', 'production']);
    });

    it('counts forms alone, and keys alone', async () => {
      const user = await signup(t);
      await createEnvironment(t, user, 'forms-only');
      await createEnvironment(t, user, 'keys-only');
      await createForm(t, user.token, { environment: 'forms-only' });
      await createKey(t, user, 'publishable', 'keys-only');

      const formsOnly = await remove(user, 'forms-only');
      expectProblem(formsOnly, 409, 'environment_not_empty');
      expect(formsOnly.body).toMatchObject({ forms: 1, keys: 0 });

      const keysOnly = await remove(user, 'keys-only');
      expectProblem(keysOnly, 409, 'environment_not_empty');
      expect(keysOnly.body).toMatchObject({ forms: 0, keys: 1 });
    });
  });

  describe('deleting while something is created in the environment', () => {
    it('never answers 5xx and never leaves a form or key without its environment', async () => {
      const user = await signup(t);
      for (let round = 0; round < 25; round++) {
        const name = `race-${round}`;
        await createEnvironment(t, user, name);
        const [removed, key, form] = await Promise.all([
          t.request({ method: 'DELETE', url: `/environments/${name}`, auth: user.token }),
          t.request({ method: 'POST', url: `/keys/secrets?environment=${name}`, auth: user.token }),
          t.request({
            method: 'POST',
            url: '/forms',
            auth: user.token,
            body: { title: 'Race', environment: name, fields: [] },
          }),
        ]);
        expect([removed.status, key.status, form.status].every((status) => status < 500)).toBe(true);
        if (removed.status === 204) {
          // gone first: both creations found no environment
          expect([key.status, form.status]).toEqual([404, 404]);
          expect([key.body.code, form.body.code]).toEqual(['environment_not_found', 'environment_not_found']);
        } else {
          expectProblem(removed, 409, 'environment_not_empty');
          expect(key.status === 201 || form.status === 201).toBe(true);
          expect(removed.body.forms + removed.body.keys).toBeGreaterThan(0);
        }
      }
      const { db } = t.app.intake.database;
      const orphans = await db
        .selectFrom('forms')
        .leftJoin('environments', (join) =>
          join
            .onRef('environments.workspace_id', '=', 'forms.workspace_id')
            .onRef('environments.name', '=', 'forms.environment'),
        )
        .select('forms.id')
        .where('forms.workspace_id', '=', user.workspaceId)
        .where('environments.name', 'is', null)
        .execute();
      expect(orphans).toEqual([]);
    });
  });

  describe('credentials', () => {
    const endpoints = [
      ['GET /environments', 'GET', '/environments', undefined],
      ['POST /environments', 'POST', '/environments', { name: 'from-a-key' }],
      ['DELETE /environments/{name}', 'DELETE', '/environments/victim', undefined],
    ] as const;

    it.each(endpoints)('%s is 401 unauthorized without a credential', async (_name, method, url, body) => {
      expectProblem(await t.request({ method, url, body }), 401, 'unauthorized');
    });

    it.each(endpoints)('%s is 401 unauthorized with an unknown token', async (_name, method, url, body) => {
      expectProblem(
        await t.request({ method, url, body, auth: 'not-a-real-session-token' }),
        401,
        'unauthorized',
      );
    });

    describe.each(['secret', 'publishable'] as const)('with a %s key', (kind) => {
      it.each(endpoints)('%s is 403 forbidden', async (_name, method, url, body) => {
        const user = await signup(t);
        await createEnvironment(t, user, 'victim');
        const key = await createKey(t, user, kind);
        expectProblem(await t.request({ method, url, body, auth: key.key }), 403, 'forbidden');
        expect(await names(user)).toEqual(['development', 'production', 'victim']);
      });

      it('is 403 forbidden through X-API-Key too', async () => {
        const user = await signup(t);
        const key = await createKey(t, user, kind);
        const response = await t.request({
          method: 'GET',
          url: '/environments',
          headers: { 'x-api-key': key.key },
        });
        expectProblem(response, 403, 'forbidden');
      });
    });
  });
});
