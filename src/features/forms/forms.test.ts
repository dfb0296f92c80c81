import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import {
  createEnvironment,
  createForm,
  createKey,
  formBody,
  signup,
  type TestUser,
} from '../../../test/support/factories.js';

/** API.md §5: the form endpoints (create, read, list, public view, update, delete, legacy list). */

const STATUSES = ['draft', 'live', 'active', 'disabled', 'archived'] as const;
const FULL_KEYS = [
  'autoResponse',
  'createdAt',
  'environment',
  'fields',
  'id',
  'logic',
  'notifications',
  'retention',
  'spamProtection',
  'status',
  'storage',
  'title',
  'ui',
  'updatedAt',
  'userId',
  'version',
  'webhooks',
];
const PUBLIC_KEYS = [
  'environment',
  'fields',
  'id',
  'logic',
  'spamProtection',
  'status',
  'title',
  'ui',
  'version',
];
const DEFAULT_UI = { theme: 'auto', progress: 'steps', layout: 'one-by-one' };
const DEFAULT_STORAGE = { mode: 'owner', pii: 'plain' };
const CAPTCHA_SECRET = 'captcha-secret-0123456789';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const uniqueName = (prefix: string) => `${prefix}-${randomBytes(5).toString('hex')}`;
const keysOf = (value: object) => Object.keys(value).sort();

function expectFieldError(response: Response, field: string, code?: string): void {
  expect(response.body.errors).toEqual(
    expect.arrayContaining([expect.objectContaining(code ? { field, code } : { field })]),
  );
}

function expectPublicView(view: any): void {
  expect(keysOf(view)).toEqual(PUBLIC_KEYS);
  expect(keysOf(view.spamProtection)).toEqual(['captcha', 'honeypot']);
  for (const field of view.fields) {
    expect(field).not.toHaveProperty('pii');
    expect(field).not.toHaveProperty('piiMode');
  }
}

/** A form with every configuration member set, to see what each view shows. */
const richForm = (overrides: Record<string, unknown> = {}) => ({
  fields: [
    { id: 'name', type: 'text', label: 'Name', required: true, maxLength: 100, placeholder: 'Ada' },
    { id: 'email', type: 'email', label: 'E-mail', required: true, pii: true, piiMode: 'hashed' },
    {
      id: 'topic',
      type: 'select',
      label: 'Topic',
      options: ['sales', { value: 'support', label: 'Support' }],
    },
    { id: 'budget', type: 'number', label: 'Budget', min: 0, max: 1000, integer: true },
  ],
  ui: { theme: 'dark', progress: 'bar', layout: 'classic', submitLabel: 'Send' },
  storage: { mode: 'owner', pii: 'masked' },
  logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'sales' }, show: ['budget'] }] },
  retention: { days: 30 },
  notifications: { email: { enabled: true, to: ['owner@example.com'] } },
  autoResponse: { enabled: true, emailField: 'email', subject: 'Thanks {{name}}', body: 'We got it.' },
  spamProtection: {
    honeypot: { field: 'website' },
    captcha: { provider: 'turnstile', siteKey: 'site-key-1', secret: CAPTCHA_SECRET },
    rules: [{ field: 'name', op: 'contains', value: 'viagra' }],
    action: 'flag',
  },
  ...overrides,
});

describe('forms endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const get = (url: string, auth?: string, headers?: Record<string, string>) =>
    t.request({ method: 'GET', url, auth, headers });
  const post = (body: unknown, auth?: string) => t.request({ method: 'POST', url: '/forms', auth, body });
  const put = (id: string, body: unknown, auth?: string, headers?: Record<string, string>, query = '') =>
    t.request({ method: 'PUT', url: `/forms/${id}${query}`, auth, body, headers });
  const del = (id: string, auth?: string, query = '') =>
    t.request({ method: 'DELETE', url: `/forms/${id}${query}`, auth });

  /** A user with an environment of a unique name, so that anonymous (all-users) lists see only this test's forms. */
  async function userWithUniqueEnvironment(): Promise<{ user: TestUser; env: string }> {
    const user = await signup(t);
    const env = uniqueName('env');
    await createEnvironment(t, user, env);
    return { user, env };
  }

  /** Creates forms one after another, a few ms apart so that each has its own createdAt. */
  async function createSeries(auth: string, count: number, overrides: Record<string, unknown> = {}) {
    const forms: any[] = [];
    for (let i = 0; i < count; i++) {
      forms.push(await createForm(t, auth, { title: `Form ${i}`, ...overrides }));
      await sleep(3);
    }
    return forms;
  }

  describe('POST /forms', () => {
    it('creates a form: 201, ETag "1", Location, defaults and server-set members', async () => {
      const user = await signup(t);
      const response = await post(formBody(), user.token);
      expect(response.status).toBe(201);
      const form = response.body;
      expect(response.headers.etag).toBe('"1"');
      expect(response.headers.location).toBe(`/forms/${form.id}`);
      expect(keysOf(form)).toEqual(FULL_KEYS);
      expect(form.id).toMatch(/^frm_[A-Za-z0-9]+$/);
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
      const { captcha, ...spam } = (body.spamProtection as any) ?? {};
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
        const list = await get('/forms?environment=development', user.token);
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

  describe('GET /forms/{id}', () => {
    it('gives the owner the full form with every member and the ETag', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm());
      const response = await get(`/forms/${created.id}`, user.token);
      expect(response.status).toBe(200);
      expect(keysOf(response.body)).toEqual(FULL_KEYS);
      expect(response.body).toEqual(created);
      expect(response.headers.etag).toBe('"1"');
      expect(response.body.fields[1]).toMatchObject({ pii: true, piiMode: 'hashed' });
      expect(response.body.spamProtection.captcha).toEqual({
        provider: 'turnstile',
        siteKey: 'site-key-1',
        hasSecret: true,
      });
      expect(response.text).not.toContain(CAPTCHA_SECRET);
    });

    it('gives anyone else the public view of a live form: exact members, no handling', async () => {
      const owner = await signup(t);
      const other = await signup(t);
      const created = await createForm(t, owner.token, richForm({ status: 'live' }));
      for (const auth of [undefined, other.token]) {
        const response = await get(`/forms/${created.id}`, auth);
        expect(response.status).toBe(200);
        expectPublicView(response.body);
        expect(response.body).toEqual({
          id: created.id,
          title: created.title,
          environment: 'development',
          status: 'live',
          version: 1,
          fields: created.fields.map(({ pii: _p, piiMode: _m, ...field }: any) => field),
          ui: created.ui,
          logic: created.logic,
          spamProtection: {
            honeypot: { field: 'website' },
            captcha: { provider: 'turnstile', siteKey: 'site-key-1' },
          },
        });
        for (const hidden of [owner.id, CAPTCHA_SECRET, 'owner@example.com', 'viagra', 'hashed', 'masked']) {
          expect(response.text).not.toContain(hidden);
        }
        expect(response.headers.etag).toBe('"1"');
      }
    });

    it('gives a public view with null honeypot and captcha when the form has no spam protection', async () => {
      const owner = await signup(t);
      const created = await createForm(t, owner.token, { status: 'live' });
      const response = await get(`/forms/${created.id}`);
      expect(response.status).toBe(200);
      expectPublicView(response.body);
      expect(response.body.spamProtection).toEqual({ honeypot: null, captcha: null });
    });

    it.each(STATUSES.filter((s) => s !== 'live'))(
      'hides a %s form: anonymous 404 not_found, another user 403 not_owner',
      async (status) => {
        const owner = await signup(t);
        const other = await signup(t);
        const created = await createForm(t, owner.token, { status });
        expectProblem(await get(`/forms/${created.id}`), 404, 'not_found');
        const response = await get(`/forms/${created.id}`, other.token);
        expectProblem(response, 403, 'not_owner');
        expect(response.text).not.toContain('Contact us');
        expect((await get(`/forms/${created.id}`, owner.token)).status).toBe(200);
      },
    );

    it('answers 404 not_found for an unknown form, to anyone', async () => {
      const user = await signup(t);
      expectProblem(await get('/forms/frm_doesnotexist'), 404, 'not_found');
      expectProblem(await get('/forms/frm_doesnotexist', user.token), 404, 'not_found');
    });

    describe('keys', () => {
      it('gives a secret key of the form environment the full form', async () => {
        const user = await signup(t);
        const secret = await createKey(t, user, 'secret', 'development');
        const created = await createForm(t, user.token, richForm());
        const response = await get(`/forms/${created.id}`, secret.key);
        expect(response.status).toBe(200);
        expect(response.body).toEqual(created);
      });

      it('gives a publishable key of the form environment the public view, whatever the status', async () => {
        const user = await signup(t);
        const publishable = await createKey(t, user, 'publishable', 'development');
        const created = await createForm(t, user.token, richForm({ status: 'draft' }));
        const response = await get(`/forms/${created.id}`, publishable.key);
        expect(response.status).toBe(200);
        expectPublicView(response.body);
        expect(response.body.status).toBe('draft');
      });

      it('refuses keys of another environment or another user: 403 forbidden, even for a live form', async () => {
        const user = await signup(t);
        const other = await signup(t);
        const created = await createForm(t, user.token, { status: 'live' });
        const keys = [
          await createKey(t, user, 'secret', 'production'),
          await createKey(t, user, 'publishable', 'production'),
          await createKey(t, other, 'secret', 'development'),
          await createKey(t, other, 'publishable', 'development'),
        ];
        for (const key of keys) expectProblem(await get(`/forms/${created.id}`, key.key), 403, 'forbidden');
      });
    });

    describe('ETag and If-None-Match', () => {
      it('answers 304 with no body to If-None-Match with the current ETag', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const response = await get(`/forms/${created.id}`, user.token, { 'if-none-match': '"1"' });
        expect(response.status).toBe(304);
        expect(response.text).toBe('');
        expect(response.headers.etag).toBe('"1"');
      });

      it('answers 200 to a stale If-None-Match, and 304 for the public view too', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token, { status: 'live' });
        expect((await put(created.id, { title: 'Renamed' }, user.token)).status).toBe(200);
        const stale = await get(`/forms/${created.id}`, user.token, { 'if-none-match': '"1"' });
        expect(stale.status).toBe(200);
        expect(stale.headers.etag).toBe('"2"');
        expect(stale.body.title).toBe('Renamed');
        const anonymous = await get(`/forms/${created.id}`, undefined, { 'if-none-match': '"2"' });
        expect(anonymous.status).toBe(304);
      });
    });

    describe('?environment=', () => {
      it('answers normally when it names the form environment', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const response = await get(`/forms/${created.id}?environment=development`, user.token);
        expect(response.status).toBe(200);
        expect(response.body.id).toBe(created.id);
      });

      it('answers 403 form_not_in_environment when it names another environment', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token, { status: 'live' });
        expectProblem(
          await get(`/forms/${created.id}?environment=production`, user.token),
          403,
          'form_not_in_environment',
        );
        expectProblem(
          await get(`/forms/${created.id}?environment=production`),
          403,
          'form_not_in_environment',
        );
      });

      it('still answers 404 to anonymous for a form that is not live', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token, { status: 'draft' });
        expectProblem(await get(`/forms/${created.id}?environment=production`), 404, 'not_found');
      });

      it.each(['Production', 'a b', 'e'.repeat(51)])(
        'refuses an invalid name (%s): 400 invalid_environment',
        async (name) => {
          const user = await signup(t);
          const created = await createForm(t, user.token);
          const response = await get(
            `/forms/${created.id}?environment=${encodeURIComponent(name)}`,
            user.token,
          );
          expectProblem(response, 400, 'invalid_environment');
          expect(response.body.suggestions).toEqual(['development', 'production']);
        },
      );
    });
  });

  describe('GET /v1/forms/{id}/public', () => {
    it('serves the public view of a live form with its ETag, and 304 for If-None-Match', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm({ status: 'live' }));
      const response = await get(`/v1/forms/${created.id}/public`);
      expect(response.status).toBe(200);
      expectPublicView(response.body);
      expect(response.body).toEqual((await get(`/forms/${created.id}`)).body);
      expect(response.text).not.toContain(CAPTCHA_SECRET);
      expect(response.text).not.toContain(user.id);
      expect(response.headers.etag).toBe('"1"');
      const cached = await get(`/v1/forms/${created.id}/public`, undefined, { 'if-none-match': '"1"' });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
    });

    it.each(STATUSES.filter((s) => s !== 'live'))('answers 404 not_found for a %s form', async (status) => {
      const user = await signup(t);
      const created = await createForm(t, user.token, { status });
      expectProblem(await get(`/v1/forms/${created.id}/public`), 404, 'not_found');
    });

    it('stops serving a form once it is no longer live, and serves it again once it is', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, { status: 'live' });
      expect((await get(`/v1/forms/${created.id}/public`)).status).toBe(200);
      expect((await put(created.id, { status: 'disabled' }, user.token)).status).toBe(200);
      expectProblem(await get(`/v1/forms/${created.id}/public`), 404, 'not_found');
      expect((await put(created.id, { status: 'live' }, user.token)).status).toBe(200);
      const again = await get(`/v1/forms/${created.id}/public`);
      expect(again.status).toBe(200);
      expect(again.body.version).toBe(3);
    });

    it('answers 404 not_found for an unknown form', async () => {
      expectProblem(await get('/v1/forms/frm_nope/public'), 404, 'not_found');
    });
  });

  describe('GET /forms?environment=', () => {
    it("lists the caller's forms newest first, in full", async () => {
      const user = await signup(t);
      const created = await createSeries(user.token, 4);
      const response = await get('/forms?environment=development', user.token);
      expect(response.status).toBe(200);
      expect(keysOf(response.body)).toEqual(['data', 'nextCursor']);
      expect(response.body.data.map((f: any) => f.id)).toEqual(created.map((f) => f.id).reverse());
      expect(response.body.nextCursor).toBeNull();
      for (const form of response.body.data) expect(keysOf(form)).toEqual(FULL_KEYS);
      expect(response.body.data[0]).toEqual(created[3]);
    });

    it('is 404 environment_not_found for a well-formed environment the caller has not created', async () => {
      const user = await signup(t);
      const response = await get('/forms?environment=staging', user.token);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('environment_not_found');
      expect(response.body.detail).toMatch(/create the environment first/);
      // anonymous lists span every user's environments of that name: nothing to create, so an empty list
      const anonymous = await get(`/forms?environment=${uniqueName('env')}`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toEqual({ data: [], nextCursor: null });
    });

    it('pages through 7 forms with limit 3: 3 + 3 + 1, no gaps, no duplicates', async () => {
      const user = await signup(t);
      const created = await createSeries(user.token, 7);
      const expected = created.map((f) => f.id).reverse();
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
        const response = await get(`/forms?environment=development&limit=3${query}`, user.token);
        expect(response.status).toBe(200);
        pages.push(response.body.data.map((f: any) => f.id));
        cursor = response.body.nextCursor;
        expect(pages.length).toBeLessThanOrEqual(3);
      } while (cursor);
      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(expected);
      expect(new Set(pages.flat()).size).toBe(7);
    });

    it('keeps the pages after a cursor stable while new forms are added', async () => {
      const user = await signup(t);
      const created = await createSeries(user.token, 4);
      const first = await get('/forms?environment=development&limit=2', user.token);
      await createSeries(user.token, 2);
      const second = await get(
        `/forms?environment=development&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
        user.token,
      );
      expect(second.body.data.map((f: any) => f.id)).toEqual([created[1].id, created[0].id]);
      expect(second.body.nextCursor).toBeNull();
    });

    it('gives no cursor when the last page is exactly full', async () => {
      const user = await signup(t);
      await createSeries(user.token, 3);
      const response = await get('/forms?environment=development&limit=3', user.token);
      expect(response.body.data).toHaveLength(3);
      expect(response.body.nextCursor).toBeNull();
    });

    it('returns at most 50 forms without a limit, and up to 100 with limit=100', async () => {
      const user = await signup(t);
      for (let i = 0; i < 51; i++) await createForm(t, user.token, { title: `Bulk ${i}` });
      const byDefault = await get('/forms?environment=development', user.token);
      expect(byDefault.body.data).toHaveLength(50);
      expect(typeof byDefault.body.nextCursor).toBe('string');
      const rest = await get(
        `/forms?environment=development&cursor=${encodeURIComponent(byDefault.body.nextCursor)}`,
        user.token,
      );
      expect(rest.body.data).toHaveLength(1);
      const all = await get('/forms?environment=development&limit=100', user.token);
      expect(all.body.data).toHaveLength(51);
      expect(all.body.nextCursor).toBeNull();
    });

    it.each(['0', '101', 'abc', '-1', '1.5', ''])(
      'refuses limit=%s: 400 invalid_parameter',
      async (limit) => {
        const user = await signup(t);
        const response = await get(`/forms?environment=development&limit=${limit}`, user.token);
        expectProblem(response, 400, 'invalid_parameter');
        expectFieldError(response, 'limit');
      },
    );

    it.each([
      ['garbage', 'not-a-cursor!!'],
      ['base64 of a non-array', Buffer.from('{"a":1}').toString('base64url')],
      ['base64 of a short array', Buffer.from('["x"]').toString('base64url')],
      [
        'a position with a NUL',
        Buffer.from('["2026-11-21T10:02:06.123Z\\u0000","frm_x"]').toString('base64url'),
      ],
      ['an id with a NUL', Buffer.from('["2026-11-21T10:02:06.123Z","frm_x\\u0000"]').toString('base64url')],
      ['a position that is no timestamp', Buffer.from('["yesterday","frm_x"]').toString('base64url')],
      [
        'an id with a quote',
        Buffer.from(`["2026-11-21T10:02:06.123Z","x' or '1'='1"]`).toString('base64url'),
      ],
    ])('refuses a cursor that is %s: 400 invalid_parameter', async (_name, cursor) => {
      const user = await signup(t);
      const response = await get(
        `/forms?environment=development&cursor=${encodeURIComponent(cursor)}`,
        user.token,
      );
      expectProblem(response, 400, 'invalid_parameter');
    });

    it('leaves archived forms out unless status=archived is asked for', async () => {
      const user = await signup(t);
      const forms: Record<string, any> = {};
      for (const status of STATUSES) forms[status] = await createForm(t, user.token, { status });
      const all = await get('/forms?environment=development', user.token);
      const ids = all.body.data.map((f: any) => f.id);
      expect(ids).toHaveLength(4);
      expect(ids).not.toContain(forms.archived.id);
      const archived = await get('/forms?environment=development&status=archived', user.token);
      expect(archived.body.data.map((f: any) => f.id)).toEqual([forms.archived.id]);
    });

    it.each(STATUSES)('filters by status=%s', async (status) => {
      const user = await signup(t);
      const forms: Record<string, any> = {};
      for (const s of STATUSES) forms[s] = await createForm(t, user.token, { status: s });
      const response = await get(`/forms?environment=development&status=${status}`, user.token);
      expect(response.status).toBe(200);
      expect(response.body.data.map((f: any) => f.id)).toEqual([forms[status].id]);
    });

    it('refuses an unknown status: 400 invalid_parameter', async () => {
      const user = await signup(t);
      expectProblem(
        await get('/forms?environment=development&status=published', user.token),
        400,
        'invalid_parameter',
      );
    });

    it('refuses a missing environment: 400 invalid_environment with the suggestions', async () => {
      const user = await signup(t);
      for (const auth of [user.token, undefined]) {
        const response = await get('/forms', auth);
        expectProblem(response, 400, 'invalid_environment');
        expect(response.body.suggestions).toEqual(['development', 'production']);
      }
    });

    it.each(['Development', 'a b', 'e'.repeat(51)])(
      'refuses an invalid environment (%s): 400 invalid_environment',
      async (name) => {
        const user = await signup(t);
        expectProblem(
          await get(`/forms?environment=${encodeURIComponent(name)}`, user.token),
          400,
          'invalid_environment',
        );
      },
    );

    it("lists only the caller's forms of that environment", async () => {
      const user = await signup(t);
      const other = await signup(t);
      const mine = await createForm(t, user.token, { status: 'live' });
      await createForm(t, user.token, { environment: 'production' });
      await createForm(t, other.token, { status: 'live' });
      const response = await get('/forms?environment=development', user.token);
      expect(response.body.data.map((f: any) => f.id)).toEqual([mine.id]);
      const production = await get('/forms?environment=production', user.token);
      expect(production.body.data).toHaveLength(1);
      expect(production.body.data[0].environment).toBe('production');
    });

    describe('anonymous', () => {
      it('sees the public view of live forms only, of every user with that environment name', async () => {
        const env = uniqueName('pub');
        const first = await signup(t);
        const second = await signup(t);
        await createEnvironment(t, first, env);
        await createEnvironment(t, second, env);
        const live = [
          await createForm(t, first.token, richForm({ environment: env, status: 'live' })),
          await createForm(t, second.token, { environment: env, status: 'live' }),
        ];
        for (const status of STATUSES.filter((s) => s !== 'live')) {
          await createForm(t, first.token, { environment: env, status });
        }
        const response = await get(`/forms?environment=${env}`);
        expect(response.status).toBe(200);
        expect(response.body.data.map((f: any) => f.id).sort()).toEqual(live.map((f) => f.id).sort());
        for (const form of response.body.data) expectPublicView(form);
        expect(response.text).not.toContain(CAPTCHA_SECRET);
        expect(response.text).not.toContain(first.id);
      });

      it.each(['draft', 'active', 'disabled', 'archived'])('sees nothing with status=%s', async (status) => {
        const { user, env } = await userWithUniqueEnvironment();
        await createForm(t, user.token, { environment: env, status });
        await createForm(t, user.token, { environment: env, status: 'live' });
        const response = await get(`/forms?environment=${env}&status=${status}`);
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual([]);
      });

      it('pages through live forms with the same cursors', async () => {
        const { user, env } = await userWithUniqueEnvironment();
        const created = await createSeries(user.token, 5, { environment: env, status: 'live' });
        const first = await get(`/forms?environment=${env}&limit=3`);
        const second = await get(
          `/forms?environment=${env}&limit=3&cursor=${encodeURIComponent(first.body.nextCursor)}`,
        );
        expect([...first.body.data, ...second.body.data].map((f: any) => f.id)).toEqual(
          created.map((f) => f.id).reverse(),
        );
        expect(second.body.nextCursor).toBeNull();
      });
    });

    describe('keys', () => {
      it('gives a secret key the full forms of its environment', async () => {
        const user = await signup(t);
        const secret = await createKey(t, user, 'secret', 'production');
        const form = await createForm(t, user.token, { environment: 'production' });
        await createForm(t, user.token, { environment: 'development' });
        const response = await get('/forms?environment=production', secret.key);
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual([form]);
      });

      it('gives a publishable key the public views of its environment', async () => {
        const user = await signup(t);
        const publishable = await createKey(t, user, 'publishable', 'development');
        const form = await createForm(t, user.token, richForm());
        const response = await get('/forms?environment=development', publishable.key);
        expect(response.status).toBe(200);
        expect(response.body.data.map((f: any) => f.id)).toEqual([form.id]);
        expectPublicView(response.body.data[0]);
      });

      it('refuses a key of another environment: 403 forbidden', async () => {
        const user = await signup(t);
        const secret = await createKey(t, user, 'secret', 'production');
        const publishable = await createKey(t, user, 'publishable', 'production');
        expectProblem(await get('/forms?environment=development', secret.key), 403, 'forbidden');
        expectProblem(await get('/forms?environment=development', publishable.key), 403, 'forbidden');
      });
    });
  });

  describe('GET /environments/{environment}/forms (legacy)', () => {
    it('answers like GET /forms?environment=, with Deprecation and a successor Link', async () => {
      const { user, env } = await userWithUniqueEnvironment();
      await createSeries(user.token, 3, { environment: env });
      const legacy = await get(`/environments/${env}/forms`, user.token);
      const successor = await get(`/forms?environment=${env}`, user.token);
      expect(legacy.status).toBe(200);
      expect(legacy.body).toEqual(successor.body);
      expect(legacy.body.data).toHaveLength(3);
      expect(legacy.headers.deprecation).toBe('true');
      expect(legacy.headers.link).toBe(`</forms?environment=${env}>; rel="successor-version"`);
      expect(successor.headers.deprecation).toBeUndefined();
    });

    it('takes status, limit and cursor like its successor', async () => {
      const { user, env } = await userWithUniqueEnvironment();
      const created = await createSeries(user.token, 5, { environment: env });
      await createForm(t, user.token, { environment: env, status: 'archived' });
      const first = await get(`/environments/${env}/forms?limit=2`, user.token);
      expect(first.body.data.map((f: any) => f.id)).toEqual([created[4].id, created[3].id]);
      const second = await get(
        `/environments/${env}/forms?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
        user.token,
      );
      expect(second.body.data.map((f: any) => f.id)).toEqual([created[2].id, created[1].id]);
      const archived = await get(`/environments/${env}/forms?status=archived`, user.token);
      expect(archived.body.data).toHaveLength(1);
      expect(archived.body.data[0].status).toBe('archived');
      expectProblem(await get(`/environments/${env}/forms?limit=0`, user.token), 400, 'invalid_parameter');
    });

    it('gives anonymous callers the same public list as its successor', async () => {
      const { user, env } = await userWithUniqueEnvironment();
      await createForm(t, user.token, { environment: env, status: 'live' });
      await createForm(t, user.token, { environment: env, status: 'draft' });
      const legacy = await get(`/environments/${env}/forms`);
      expect(legacy.status).toBe(200);
      expect(legacy.body).toEqual((await get(`/forms?environment=${env}`)).body);
      expect(legacy.body.data).toHaveLength(1);
      expectPublicView(legacy.body.data[0]);
      expect(legacy.headers.deprecation).toBe('true');
    });

    it('refuses an invalid environment name: 400 invalid_environment', async () => {
      const user = await signup(t);
      expectProblem(await get('/environments/Not%20Valid/forms', user.token), 400, 'invalid_environment');
    });
  });

  describe('PUT /forms/{id}', () => {
    it('merges: members in the body replace the stored ones, the others keep their value', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm());
      await sleep(5);
      const response = await put(created.id, { title: 'New title' }, user.token);
      expect(response.status).toBe(200);
      expect(response.headers.etag).toBe('"2"');
      const { title: _t, version: _v, updatedAt: _u, ...unchanged } = created;
      expect(response.body).toMatchObject({ ...unchanged, title: 'New title', version: 2 });
      expect(response.body.createdAt).toBe(created.createdAt);
      expect(response.body.updatedAt).toMatch(ISO_MS);
      expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      const read = await get(`/forms/${created.id}`, user.token);
      expect(read.body).toEqual(response.body);
      expect(read.headers.etag).toBe('"2"');
    });

    it('replaces a configuration member as a whole and keeps the rest', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm());
      const fields = [...created.fields, { id: 'phone', type: 'phone', label: 'Phone' }];
      const response = await put(
        created.id,
        { fields, retention: { days: 90 }, notifications: null, ui: { theme: 'light' } },
        user.token,
      );
      expect(response.status).toBe(200);
      expect(response.body.fields).toEqual(fields);
      expect(response.body.retention).toEqual({ days: 90 });
      expect(response.body.notifications).toBeNull();
      expect(response.body.ui).toEqual({ ...DEFAULT_UI, theme: 'light' });
      expect(response.body.logic).toEqual(created.logic);
      expect(response.body.autoResponse).toEqual(created.autoResponse);
      expect(response.body.storage).toEqual(created.storage);
      expect(response.body.title).toBe(created.title);
    });

    it('increments the version by one on every update, with a new ETag and updatedAt each time', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      let previous = created.updatedAt;
      for (const version of [2, 3, 4]) {
        await sleep(3);
        const response = await put(created.id, { title: `Version ${version}` }, user.token);
        expect(response.status).toBe(200);
        expect(response.body.version).toBe(version);
        expect(response.headers.etag).toBe(`"${version}"`);
        expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.parse(previous));
        previous = response.body.updatedAt;
      }
      expect((await get(`/forms/${created.id}`, user.token)).body.version).toBe(4);
    });

    it('counts an update that changes nothing as a new version', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      const response = await put(created.id, {}, user.token);
      expect(response.status).toBe(200);
      expect(response.body.version).toBe(2);
    });

    it.each(STATUSES)('sets status %s', async (status) => {
      const user = await signup(t);
      const created = await createForm(t, user.token, { status: status === 'draft' ? 'live' : 'draft' });
      const response = await put(created.id, { status }, user.token);
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(status);
      expect((await get(`/forms/${created.id}`, user.token)).body.status).toBe(status);
    });

    it('takes back the whole body it served: GET then PUT works', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm());
      const read = await get(`/forms/${created.id}`, user.token);
      const response = await put(created.id, { ...read.body, title: 'Round trip' }, user.token);
      expect(response.status).toBe(200);
      const { title: _t, version: _v, updatedAt: _u, ...rest } = read.body;
      expect(response.body).toMatchObject({ ...rest, title: 'Round trip', version: 2 });
      expect(response.body.spamProtection.captcha.hasSecret).toBe(true);
    });

    it('ignores version, createdAt and updatedAt in the body', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      const response = await put(
        created.id,
        {
          title: 'Changed',
          version: 99,
          createdAt: '2000-01-01T00:00:00.000Z',
          updatedAt: '2000-01-01T00:00:00.000Z',
        },
        user.token,
      );
      expect(response.status).toBe(200);
      expect(response.body.version).toBe(2);
      expect(response.body.createdAt).toBe(created.createdAt);
      expect(response.body.updatedAt).not.toBe('2000-01-01T00:00:00.000Z');
      expect(response.headers.etag).toBe('"2"');
    });

    describe('immutable members', () => {
      it.each([
        ['environment', { environment: 'production' }],
        ['userId', { userId: 'usr_someoneelse' }],
        ['id', { id: 'another-id' }],
      ])('refuses a change of %s: 400 immutable_member, nothing changes', async (member, change) => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const response = await put(created.id, { title: 'Should not stick', ...change }, user.token);
        expectProblem(response, 400, 'immutable_member');
        expectFieldError(response, member);
        const read = await get(`/forms/${created.id}`, user.token);
        expect(read.body).toEqual(created);
      });

      it('accepts environment, userId and id sent back unchanged', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const response = await put(
          created.id,
          { id: created.id, environment: 'development', userId: user.id, title: 'Same members' },
          user.token,
        );
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ environment: 'development', userId: user.id, version: 2 });
      });
    });

    describe('If-Match', () => {
      it('refuses a stale version: 412 version_conflict, nothing changes', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        expect((await put(created.id, { title: 'Second' }, user.token)).status).toBe(200);
        const response = await put(created.id, { title: 'Lost update' }, user.token, { 'if-match': '"1"' });
        expectProblem(response, 412, 'version_conflict');
        const read = await get(`/forms/${created.id}`, user.token);
        expect(read.body).toMatchObject({ title: 'Second', version: 2 });
      });

      it('accepts the current version', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const response = await put(created.id, { title: 'Guarded' }, user.token, { 'if-match': '"1"' });
        expect(response.status).toBe(200);
        expect(response.body.version).toBe(2);
        const next = await put(created.id, { title: 'Guarded again' }, user.token, {
          'if-match': response.headers.etag as string,
        });
        expect(next.status).toBe(200);
        expect(next.body.version).toBe(3);
      });

      it('lets exactly one of two concurrent updates from the same version win', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const responses = await Promise.all(
          ['A', 'B', 'C'].map((name) => put(created.id, { title: name }, user.token, { 'if-match': '"1"' })),
        );
        const statuses = responses.map((r) => r.status).sort();
        expect(statuses).toEqual([200, 412, 412]);
        const winner = responses.find((r) => r.status === 200) as Response;
        const read = await get(`/forms/${created.id}`, user.token);
        expect(read.body).toMatchObject({ title: winner.body.title, version: 2 });
      });
    });

    it('applies concurrent updates without If-Match one after another, each with its own version', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      const responses = await Promise.all(
        [1, 2, 3, 4, 5].map((n) => put(created.id, { title: `Concurrent ${n}` }, user.token)),
      );
      expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(responses.map((r) => r.body.version).sort()).toEqual([2, 3, 4, 5, 6]);
      expect((await get(`/forms/${created.id}`, user.token)).body.version).toBe(6);
    });

    it('refuses an invalid body: 400 invalid_form, and the stored form stays as it was', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      const response = await put(
        created.id,
        { title: '', fields: [{ id: 'a', type: 'nope', label: 'A' }], retention: { days: 0 } },
        user.token,
      );
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'title');
      expectFieldError(response, 'fields[0].type');
      expectFieldError(response, 'retention.days');
      const read = await get(`/forms/${created.id}`, user.token);
      expect(read.body).toEqual(created);
      expect(read.headers.etag).toBe('"1"');
    });

    it('checks the merged form: removing a field that a logic rule names is invalid_form', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm());
      const fields = created.fields.filter((f: any) => f.id !== 'budget');
      const response = await put(created.id, { fields }, user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'logic.rules[0].show[0]', 'unknown_field');
      expect((await get(`/forms/${created.id}`, user.token)).body.version).toBe(1);
    });

    it('refuses an unknown member: 400 invalid_form', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      const response = await put(created.id, { colour: 'red' }, user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'colour', 'unknown_member');
    });

    it('answers 404 not_found for an unknown form', async () => {
      const user = await signup(t);
      expectProblem(await put('frm_doesnotexist', { title: 'x' }, user.token), 404, 'not_found');
    });

    describe('who may update', () => {
      it("refuses another user's session: 403 not_owner, even for a live form", async () => {
        const owner = await signup(t);
        const other = await signup(t);
        const created = await createForm(t, owner.token, { status: 'live' });
        expectProblem(await put(created.id, { title: 'Hijack' }, other.token), 403, 'not_owner');
        expect((await get(`/forms/${created.id}`, owner.token)).body.title).toBe(created.title);
      });

      it('refuses anonymous callers: 401', async () => {
        const owner = await signup(t);
        const created = await createForm(t, owner.token, { status: 'live' });
        expectProblem(await put(created.id, { title: 'Anon' }), 401, 'unauthorized');
      });

      it('refuses a publishable key and keys of another environment: 403 forbidden', async () => {
        const owner = await signup(t);
        const created = await createForm(t, owner.token);
        for (const key of [
          await createKey(t, owner, 'publishable', 'development'),
          await createKey(t, owner, 'secret', 'production'),
        ]) {
          expectProblem(await put(created.id, { title: 'Key' }, key.key), 403, 'forbidden');
        }
        expect((await get(`/forms/${created.id}`, owner.token)).body.version).toBe(1);
      });

      it('accepts a secret key of the form environment', async () => {
        const owner = await signup(t);
        const secret = await createKey(t, owner, 'secret', 'development');
        const created = await createForm(t, owner.token);
        const response = await put(created.id, { title: 'By key' }, secret.key);
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ title: 'By key', userId: owner.id, version: 2 });
      });
    });

    describe('?environment=', () => {
      it('accepts the form environment and refuses another: 403 form_not_in_environment', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        const ok = await put(
          created.id,
          { title: 'Here' },
          user.token,
          undefined,
          '?environment=development',
        );
        expect(ok.status).toBe(200);
        expectProblem(
          await put(created.id, { title: 'There' }, user.token, undefined, '?environment=production'),
          403,
          'form_not_in_environment',
        );
        expect((await get(`/forms/${created.id}`, user.token)).body.title).toBe('Here');
      });

      it('refuses an invalid name: 400 invalid_environment', async () => {
        const user = await signup(t);
        const created = await createForm(t, user.token);
        expectProblem(
          await put(created.id, { title: 'x' }, user.token, undefined, '?environment=Bad%20Name'),
          400,
          'invalid_environment',
        );
      });
    });
  });

  describe('DELETE /forms/{id}', () => {
    it('deletes: 204 with no body, then the form is gone everywhere', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, { status: 'live' });
      const response = await del(created.id, user.token);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expectProblem(await get(`/forms/${created.id}`, user.token), 404, 'not_found');
      expectProblem(await get(`/forms/${created.id}`), 404, 'not_found');
      expectProblem(await get(`/v1/forms/${created.id}/public`), 404, 'not_found');
      expectProblem(await put(created.id, { title: 'Back?' }, user.token), 404, 'not_found');
      expectProblem(await del(created.id, user.token), 404, 'not_found');
      expect((await get('/forms?environment=development', user.token)).body.data).toEqual([]);
    });

    it('deletes only the form named', async () => {
      const user = await signup(t);
      const [keep, drop] = await createSeries(user.token, 2);
      expect((await del(drop.id, user.token)).status).toBe(204);
      expect((await get('/forms?environment=development', user.token)).body.data).toEqual([keep]);
    });

    it('answers 404 not_found for an unknown form', async () => {
      const user = await signup(t);
      expectProblem(await del('frm_doesnotexist', user.token), 404, 'not_found');
    });

    it("refuses another user's session (403 not_owner), anonymous (401) and a publishable key (403)", async () => {
      const owner = await signup(t);
      const other = await signup(t);
      const publishable = await createKey(t, owner, 'publishable', 'development');
      const otherEnvSecret = await createKey(t, owner, 'secret', 'production');
      const created = await createForm(t, owner.token, { status: 'live' });
      expectProblem(await del(created.id, other.token), 403, 'not_owner');
      expectProblem(await del(created.id), 401, 'unauthorized');
      expectProblem(await del(created.id, publishable.key), 403, 'forbidden');
      expectProblem(await del(created.id, otherEnvSecret.key), 403, 'forbidden');
      expect((await get(`/forms/${created.id}`, owner.token)).status).toBe(200);
    });

    it('accepts a secret key of the form environment', async () => {
      const owner = await signup(t);
      const secret = await createKey(t, owner, 'secret', 'development');
      const created = await createForm(t, owner.token);
      expect((await del(created.id, secret.key)).status).toBe(204);
      expectProblem(await get(`/forms/${created.id}`, owner.token), 404, 'not_found');
    });

    it('refuses ?environment= naming another environment: 403 form_not_in_environment', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token);
      expectProblem(
        await del(created.id, user.token, '?environment=production'),
        403,
        'form_not_in_environment',
      );
      expectProblem(await del(created.id, user.token, '?environment=BAD'), 400, 'invalid_environment');
      expect((await get(`/forms/${created.id}`, user.token)).status).toBe(200);
      expect((await del(created.id, user.token, '?environment=development')).status).toBe(204);
    });
  });

  describe('CAPTCHA secret (write-only)', () => {
    const withCaptcha = (captcha: Record<string, unknown>) => ({
      spamProtection: {
        captcha: { provider: 'turnstile', siteKey: 'site-key-1', ...captcha },
        action: 'reject',
      },
    });

    async function storedDefinition(id: string): Promise<string> {
      const row = await t.app.intake.database.db
        .selectFrom('forms')
        .select('definition')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return typeof row.definition === 'string' ? row.definition : JSON.stringify(row.definition);
    }

    /** The stored secret, decrypted: it is kept envelope-encrypted, never in plain. */
    async function storedSecret(id: string): Promise<string> {
      const definition = JSON.parse(await storedDefinition(id));
      const ciphertext: string = definition.spamProtection.captcha.secret;
      expect(ciphertext).toMatch(/^enc:v1:local:/);
      return t.app.intake.envelope.decrypt(ciphertext);
    }

    it('shows hasSecret: true and never the secret, on create, read and list', async () => {
      const user = await signup(t);
      const created = await post(formBody(withCaptcha({ secret: CAPTCHA_SECRET })), user.token);
      expect(created.status).toBe(201);
      const responses = [
        created,
        await get(`/forms/${created.body.id}`, user.token),
        await get('/forms?environment=development', user.token),
      ];
      for (const response of responses) {
        expect(response.text).not.toContain(CAPTCHA_SECRET);
        expect(response.text).not.toMatch(/"secret"/);
      }
      expect(created.body.spamProtection.captcha).toEqual({
        provider: 'turnstile',
        siteKey: 'site-key-1',
        hasSecret: true,
      });
      expect(await storedDefinition(created.body.id)).not.toContain(CAPTCHA_SECRET);
      expect(await storedSecret(created.body.id)).toBe(CAPTCHA_SECRET);
    });

    it('keeps the stored secret on a PUT that leaves it out but keeps provider and site key', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ minScore: 0.5, hasSecret: true }), user.token);
      expect(response.status).toBe(200);
      expect(response.body.spamProtection.captcha).toEqual({
        provider: 'turnstile',
        siteKey: 'site-key-1',
        minScore: 0.5,
        hasSecret: true,
      });
      expect(await storedSecret(created.id)).toBe(CAPTCHA_SECRET);
      // and on a PUT that does not touch spamProtection at all
      expect(
        (await put(created.id, { title: 'Other' }, user.token)).body.spamProtection.captcha.hasSecret,
      ).toBe(true);
      expect(await storedSecret(created.id)).toBe(CAPTCHA_SECRET);
    });

    it('refuses a new site key without a secret (a secret belongs to one site key)', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ siteKey: 'site-key-2' }), user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'spamProtection.captcha.secret', 'required');
      expect(await storedSecret(created.id)).toBe(CAPTCHA_SECRET);
    });

    it('replaces the secret when a new one is sent', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ secret: 'brand-new-secret' }), user.token);
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('brand-new-secret');
      const stored = await storedDefinition(created.id);
      expect(stored).not.toContain('brand-new-secret');
      expect(stored).not.toContain(CAPTCHA_SECRET);
      expect(await storedSecret(created.id)).toBe('brand-new-secret');
    });

    it('refuses a change of provider without a secret: 400 invalid_form, nothing changes', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, withCaptcha({ provider: 'hcaptcha' }), user.token);
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'spamProtection.captcha.secret', 'required');
      const read = await get(`/forms/${created.id}`, user.token);
      expect(read.body.spamProtection.captcha.provider).toBe('turnstile');
      expect(read.body.version).toBe(1);
    });

    it('accepts a change of provider with a new secret', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(
        created.id,
        withCaptcha({ provider: 'recaptcha', secret: 'recaptcha-secret', minScore: 0.7 }),
        user.token,
      );
      expect(response.status).toBe(200);
      expect(response.body.spamProtection.captcha).toMatchObject({ provider: 'recaptcha', hasSecret: true });
    });

    it('drops the captcha with spamProtection: null', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, withCaptcha({ secret: CAPTCHA_SECRET }));
      const response = await put(created.id, { spamProtection: null }, user.token);
      expect(response.status).toBe(200);
      expect(response.body.spamProtection).toBeNull();
      expect(await storedDefinition(created.id)).not.toContain(CAPTCHA_SECRET);
    });
  });

  describe('copying a form to another environment', () => {
    it('GET, change environment, drop id, POST: 201 in the other environment, the original untouched', async () => {
      const user = await signup(t);
      const original = await createForm(t, user.token, richForm({ spamProtection: null, status: 'live' }));
      await put(original.id, { title: 'Edited once' }, user.token);
      const read = await get(`/forms/${original.id}`, user.token);
      const { id: _id, ...copyBody } = read.body;
      const response = await post({ ...copyBody, environment: 'production' }, user.token);
      expect(response.status).toBe(201);
      const copy = response.body;
      expect(copy.id).not.toBe(original.id);
      expect(copy).toMatchObject({
        environment: 'production',
        version: 1,
        userId: user.id,
        title: 'Edited once',
      });
      for (const member of [
        'fields',
        'ui',
        'storage',
        'logic',
        'retention',
        'notifications',
        'autoResponse',
      ]) {
        expect(copy[member]).toEqual(read.body[member]);
      }
      expect(copy.createdAt).not.toBe(read.body.createdAt);
      expect((await get(`/forms/${original.id}`, user.token)).body).toEqual(read.body);
      const production = await get('/forms?environment=production', user.token);
      expect(production.body.data.map((f: any) => f.id)).toEqual([copy.id]);
    });

    it('cannot move a form by PUT: immutable_member', async () => {
      const user = await signup(t);
      const original = await createForm(t, user.token);
      expectProblem(
        await put(original.id, { environment: 'production' }, user.token),
        400,
        'immutable_member',
      );
    });
  });
});
