import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createEnvironment, createKey, formBody, signup } from '../../../test/support/factories.js';
import {
  createForm,
  DEFAULT_STORAGE,
  DEFAULT_UI,
  expectFieldError,
  type FormPage,
  FULL_KEYS,
  formsApi,
  keysOf,
  richForm,
  STATUSES,
  uniqueName,
} from '../../../test/support/forms.js';

/**
 * API.md §5: the form endpoints — creating a form (POST /forms).
 * The others: forms-read, forms-update, forms-captcha-copy (shared helpers in test/support/forms.ts).
 */

describe('forms endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const { get, post, del, userWithUniqueEnvironment } = formsApi(() => t);

  describe('POST /forms', () => {
    it('creates a form: 201, ETag "1", Location, defaults and server-set members', async () => {
      const user = await signup(t);
      const response = await post(formBody(), user.token);
      expect(response.status).toBe(201);
      const form = response.body;
      expect(response.headers.etag).toBe('"1"');
      expect(response.headers.location).toBe(`/forms/${form.id}`);
      expect(keysOf(form)).toEqual(FULL_KEYS);
      expect(form.id).toMatch(/^frm_contact-us-[0-9a-hjkmnp-tv-z]{8}$/);
      expect(form).toMatchObject({
        title: 'Contact us',
        environment: 'development',
        status: 'draft',
        version: 1,
        userId: user.id,
        fields: formBody().fields,
        ui: DEFAULT_UI,
        storage: DEFAULT_STORAGE,
        logic: { rules: [] },
        retention: null,
        webhooks: [],
        notifications: null,
        autoResponse: null,
        spamProtection: null,
      });
      expect(form.createdAt).toMatch(ISO_MS);
      expect(form.updatedAt).toBe(form.createdAt);
      expect(Math.abs(Date.parse(form.createdAt) - Date.now())).toBeLessThan(60_000);

      const read = await get(response.headers.location as string, user.token);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(form);
    });

    it('gives every form an id of its own', async () => {
      const user = await signup(t);
      const a = await createForm(t, user.token);
      const b = await createForm(t, user.token);
      expect(a.id).not.toBe(b.id);
    });

    it('ignores server-set members in the body (version, userId, createdAt, updatedAt)', async () => {
      const user = await signup(t);
      const other = await signup(t);
      const response = await post(
        formBody({
          version: 42,
          userId: other.id,
          createdAt: '2000-01-01T00:00:00.000Z',
          updatedAt: '2000-01-02T00:00:00.000Z',
        }),
        user.token,
      );
      expect(response.status).toBe(201);
      expect(response.body.version).toBe(1);
      expect(response.body.userId).toBe(user.id);
      expect(response.body.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      expect(response.body.updatedAt).toBe(response.body.createdAt);
      // the other user does not own it
      expectProblem(await del(response.body.id, other.token), 403, 'not_owner');
    });

    it('keeps every configuration member it is given, free ui members included', async () => {
      const user = await signup(t);
      const body = formBody(richForm());
      const response = await post(body, user.token);
      expect(response.status).toBe(201);
      const { captcha, ...spam } = body.spamProtection as { captcha: { provider: string; siteKey: string } };
      expect(response.body).toMatchObject({
        fields: body.fields,
        ui: body.ui,
        storage: body.storage,
        logic: body.logic,
        retention: body.retention,
        notifications: body.notifications,
        autoResponse: body.autoResponse,
        spamProtection: { ...spam, captcha: { provider: captcha.provider, siteKey: captcha.siteKey } },
      });
    });

    it('fills ui and storage members left out with their defaults', async () => {
      const user = await signup(t);
      const form = await createForm(t, user.token, { ui: { theme: 'light' }, storage: { pii: 'hashed' } });
      expect(form.ui).toEqual({ ...DEFAULT_UI, theme: 'light' });
      expect(form.storage).toEqual({ mode: 'owner', pii: 'hashed' });
    });

    it('treats null configuration members as not set', async () => {
      const user = await signup(t);
      const form = await createForm(t, user.token, {
        logic: null,
        retention: null,
        notifications: null,
        autoResponse: null,
        spamProtection: null,
      });
      expect(form).toMatchObject({
        logic: { rules: [] },
        retention: null,
        notifications: null,
        autoResponse: null,
        spamProtection: null,
      });
    });

    it.each(STATUSES)('accepts status %s on create', async (status) => {
      const user = await signup(t);
      const response = await post(formBody({ status }), user.token);
      expect(response.status).toBe(201);
      expect(response.body.status).toBe(status);
      expect((await get(`/forms/${response.body.id}`, user.token)).body.status).toBe(status);
    });

    it('refuses an unknown status with invalid_form', async () => {
      const user = await signup(t);
      const response = await post(formBody({ status: 'published' }), user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'status');
    });

    describe('client-chosen id', () => {
      // Each id is used once in this file (one database per file), so none is taken already.
      it.each([
        ['one character', 'Q'],
        ['letters, digits, _ and -', 'Contact_Form-2026'],
        ['64 characters', 'x'.repeat(64)],
      ])('takes an id of %s', async (_name, id) => {
        const user = await signup(t);
        const response = await post(formBody({ id }), user.token);
        expect(response.status).toBe(201);
        expect(response.body.id).toBe(id);
        expect(response.headers.location).toBe(`/forms/${id}`);
        expect((await get(`/forms/${id}`, user.token)).body.id).toBe(id);
      });

      it('takes a unique id and serves the form under it', async () => {
        const user = await signup(t);
        const id = uniqueName('signup_form');
        const response = await post(formBody({ id }), user.token);
        expect(response.status).toBe(201);
        expect(response.body.id).toBe(id);
        expect(response.headers.location).toBe(`/forms/${id}`);
        const read = await get(`/forms/${id}`, user.token);
        expect(read.status).toBe(200);
        expect(read.body.id).toBe(id);
      });

      it('refuses an id the same user already took: 409 conflict, the first form untouched', async () => {
        const user = await signup(t);
        const id = uniqueName('taken');
        await createForm(t, user.token, { id, title: 'First' });
        const response = await post(formBody({ id, title: 'Second' }), user.token);
        expectProblem(response, 409, 'conflict');
        const read = await get(`/forms/${id}`, user.token);
        expect(read.body.title).toBe('First');
        expect(read.body.version).toBe(1);
      });

      it('refuses an id another user took: ids are unique across the service', async () => {
        const owner = await signup(t);
        const other = await signup(t);
        const id = uniqueName('shared');
        await createForm(t, owner.token, { id, title: 'Mine' });
        const response = await post(
          formBody({ id, title: 'Theirs', environment: 'production' }),
          other.token,
        );
        expectProblem(response, 409, 'conflict');
        expect(JSON.stringify(response.body)).not.toContain(owner.id);
        const read = await get(`/forms/${id}`, owner.token);
        expect(read.body).toMatchObject({ title: 'Mine', userId: owner.id, environment: 'development' });
      });

      it.each([
        ['empty', ''],
        ['with a space', 'my form'],
        ['with a slash', 'a/b'],
        ['with a dot', 'a.b'],
        ['non-ASCII', 'formulär'],
        ['65 characters', 'x'.repeat(65)],
      ])('refuses an id %s: 400 invalid_form naming id', async (_name, id) => {
        const user = await signup(t);
        const response = await post(formBody({ id }), user.token);
        expectProblem(response, 400, 'invalid_form');
        expectFieldError(response, 'id');
        const list = await get<FormPage>('/forms?environment=development', user.token);
        expect(list.body.data).toEqual([]);
      });

      it('refuses an id that is not a string', async () => {
        const user = await signup(t);
        const response = await post(formBody({ id: 12345 }), user.token);
        expectProblem(response, 400, 'invalid_form');
        expectFieldError(response, 'id');
      });
    });

    describe('required members', () => {
      it.each(['title', 'fields'])(
        'refuses a body without %s: 400 invalid_form naming it',
        async (member) => {
          const user = await signup(t);
          const { [member]: _dropped, ...body } = formBody();
          const response = await post(body, user.token);
          expectProblem(response, 400, 'invalid_form');
          expectFieldError(response, member, 'required');
        },
      );

      it('lists both title and fields when both are missing', async () => {
        const user = await signup(t);
        const response = await post({ environment: 'development' }, user.token);
        expectProblem(response, 400, 'invalid_form');
        expectFieldError(response, 'title', 'required');
        expectFieldError(response, 'fields', 'required');
      });

      it('refuses a body without environment: 400 invalid_environment with the suggestions', async () => {
        const user = await signup(t);
        const { environment: _dropped, ...body } = formBody();
        const response = await post(body, user.token);
        expectProblem(response, 400, 'invalid_environment');
        expect(response.body.suggestions).toEqual(['development', 'production']);
      });

      it.each([
        ['a JSON array', []],
        ['a string', '"form"'],
        ['null', 'null'],
      ])('refuses a body that is %s', async (_name, body) => {
        const user = await signup(t);
        const response = await post(body, user.token);
        expect(response.status).toBe(400);
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(['invalid_form', 'validation_failed', 'invalid_json']).toContain(response.body.code);
      });
    });

    describe('environment', () => {
      it.each([
        ['uppercase', 'Production'],
        ['with a space', 'my env'],
        ['with a dot', 'dev.1'],
        ['51 characters', 'e'.repeat(51)],
        ['empty', ''],
        ['not a string', 42],
      ])('refuses an environment name %s: 400 invalid_environment', async (_name, environment) => {
        const user = await signup(t);
        const response = await post(formBody({ environment }), user.token);
        expectProblem(response, 400, 'invalid_environment');
        expect(response.body.suggestions).toEqual(['development', 'production']);
        expect(response.body.detail).toMatch(/development/);
      });

      it('refuses an environment the user has not created: 404 environment_not_found', async () => {
        const user = await signup(t);
        const response = await post(formBody({ environment: 'staging' }), user.token);
        expectProblem(response, 404, 'environment_not_found');
        expect(response.body.detail).toMatch(/create the environment first/);
      });

      it("refuses another user's environment: environments are per user", async () => {
        const { env } = await userWithUniqueEnvironment();
        const user = await signup(t);
        expectProblem(await post(formBody({ environment: env }), user.token), 404, 'environment_not_found');
      });

      it('creates forms in an environment once it exists, and in production', async () => {
        const user = await signup(t);
        await createEnvironment(t, user, 'staging');
        const staging = await post(formBody({ environment: 'staging' }), user.token);
        expect(staging.status).toBe(201);
        expect(staging.body.environment).toBe('staging');
        const production = await post(formBody({ environment: 'production' }), user.token);
        expect(production.status).toBe(201);
        expect(production.body.environment).toBe('production');
      });
    });

    describe('credentials', () => {
      it('refuses an anonymous create: 401', async () => {
        expectProblem(await post(formBody()), 401, 'unauthorized');
      });

      it('accepts a secret key of the body environment, the form belonging to the key owner', async () => {
        const user = await signup(t);
        const secret = await createKey(t, user, 'secret', 'production');
        const response = await post(formBody({ environment: 'production' }), secret.key);
        expect(response.status).toBe(201);
        expect(response.body.userId).toBe(user.id);
        expect((await get(`/forms/${response.body.id}`, user.token)).status).toBe(200);
      });

      it('refuses a secret key of another environment: 403 forbidden', async () => {
        const user = await signup(t);
        const secret = await createKey(t, user, 'secret', 'production');
        expectProblem(await post(formBody({ environment: 'development' }), secret.key), 403, 'forbidden');
      });

      it('refuses a publishable key: 403 forbidden', async () => {
        const user = await signup(t);
        const publishable = await createKey(t, user, 'publishable', 'development');
        expectProblem(await post(formBody(), publishable.key), 403, 'forbidden');
      });
    });
  });
});
