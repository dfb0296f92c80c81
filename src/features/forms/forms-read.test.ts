import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createEnvironment, createKey, signup } from '../../../test/support/factories.js';
import {
  CAPTCHA_SECRET,
  createForm,
  expectFieldError,
  expectPublicView,
  type FormPage,
  type FormView,
  FULL_KEYS,
  formsApi,
  keysOf,
  type PublicFormPage,
  type PublicFormView,
  richForm,
  STATUSES,
  uniqueName,
} from '../../../test/support/forms.js';

/**
 * API.md §5: the form endpoints — reading forms: one (GET /forms/{id}), the public view, the list
 * and the legacy list.
 * The others: forms-create, forms-update, forms-captcha-copy (shared helpers in test/support/forms.ts).
 */

describe('forms endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const { get, put, userWithUniqueEnvironment, createSeries } = formsApi(() => t);

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
      expect(response.body.spamProtection?.captcha).toEqual({
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
        const response = await get<PublicFormView>(`/forms/${created.id}`, auth);
        expect(response.status).toBe(200);
        expectPublicView(response.body);
        expect(response.body).toEqual({
          id: created.id,
          title: created.title,
          environment: 'development',
          status: 'live',
          version: 1,
          fields: created.fields.map(({ pii: _p, piiMode: _m, ...field }) => field),
          ui: created.ui,
          logic: created.logic,
          spamProtection: {
            honeypot: { field: 'website' },
            captcha: { provider: 'turnstile', siteKey: 'site-key-1' },
          },
          access: { open: true, passwordRequired: false },
          language: 'en',
          languages: ['en'],
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
      const response = await get<PublicFormView>(`/forms/${created.id}`);
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
        const response = await get<PublicFormView>(`/forms/${created.id}`, publishable.key);
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
      const response = await get<PublicFormView>(`/v1/forms/${created.id}/public`);
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
      const again = await get<PublicFormView>(`/v1/forms/${created.id}/public`);
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
      const response = await get<FormPage>('/forms?environment=development', user.token);
      expect(response.status).toBe(200);
      expect(keysOf(response.body)).toEqual(['data', 'nextCursor']);
      expect(response.body.data.map((f) => f.id)).toEqual(created.map((f) => f.id).reverse());
      expect(response.body.nextCursor).toBeNull();
      for (const form of response.body.data) expect(keysOf(form)).toEqual(FULL_KEYS);
      expect(response.body.data[0]).toEqual(created[3]);
    });

    it('is 404 environment_not_found for a well-formed environment the caller has not created', async () => {
      const user = await signup(t);
      const response = await get<FormPage>('/forms?environment=staging', user.token);
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('environment_not_found');
      expect(response.body.detail).toMatch(/create the environment first/);
      // anonymous lists span every user's environments of that name: nothing to create, so an empty list
      const anonymous = await get<PublicFormPage>(`/forms?environment=${uniqueName('env')}`);
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
        const response = await get<FormPage>(`/forms?environment=development&limit=3${query}`, user.token);
        expect(response.status).toBe(200);
        pages.push(response.body.data.map((f) => f.id));
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
      const first = await get<FormPage>('/forms?environment=development&limit=2', user.token);
      await createSeries(user.token, 2);
      const second = await get<FormPage>(
        `/forms?environment=development&limit=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`,
        user.token,
      );
      expect(second.body.data.map((f) => f.id)).toEqual([created[1]?.id, created[0]?.id]);
      expect(second.body.nextCursor).toBeNull();
    });

    it('gives no cursor when the last page is exactly full', async () => {
      const user = await signup(t);
      await createSeries(user.token, 3);
      const response = await get<FormPage>('/forms?environment=development&limit=3', user.token);
      expect(response.body.data).toHaveLength(3);
      expect(response.body.nextCursor).toBeNull();
    });

    it('returns at most 50 forms without a limit, and up to 100 with limit=100', async () => {
      const user = await signup(t);
      for (let i = 0; i < 51; i++) await createForm(t, user.token, { title: `Bulk ${i}` });
      const byDefault = await get<FormPage>('/forms?environment=development', user.token);
      expect(byDefault.body.data).toHaveLength(50);
      expect(typeof byDefault.body.nextCursor).toBe('string');
      const rest = await get<FormPage>(
        `/forms?environment=development&cursor=${encodeURIComponent(byDefault.body.nextCursor!)}`,
        user.token,
      );
      expect(rest.body.data).toHaveLength(1);
      const all = await get<FormPage>('/forms?environment=development&limit=100', user.token);
      expect(all.body.data).toHaveLength(51);
      expect(all.body.nextCursor).toBeNull();
    });

    it.each(['0', '101', 'abc', '-1', '1.5', ''])(
      'refuses limit=%s: 400 invalid_parameter',
      async (limit) => {
        const user = await signup(t);
        const response = await get<FormPage>(`/forms?environment=development&limit=${limit}`, user.token);
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
      const forms: Record<string, FormView> = {};
      for (const status of STATUSES) forms[status] = await createForm(t, user.token, { status });
      const all = await get<FormPage>('/forms?environment=development', user.token);
      const ids = all.body.data.map((f) => f.id);
      expect(ids).toHaveLength(4);
      expect(ids).not.toContain(forms.archived!.id);
      const archived = await get<FormPage>('/forms?environment=development&status=archived', user.token);
      expect(archived.body.data.map((f) => f.id)).toEqual([forms.archived!.id]);
    });

    it.each(STATUSES)('filters by status=%s', async (status) => {
      const user = await signup(t);
      const forms: Record<string, FormView> = {};
      for (const s of STATUSES) forms[s] = await createForm(t, user.token, { status: s });
      const response = await get<FormPage>(`/forms?environment=development&status=${status}`, user.token);
      expect(response.status).toBe(200);
      expect(response.body.data.map((f) => f.id)).toEqual([forms[status]!.id]);
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
      const response = await get<FormPage>('/forms?environment=development', user.token);
      expect(response.body.data.map((f) => f.id)).toEqual([mine.id]);
      const production = await get<FormPage>('/forms?environment=production', user.token);
      expect(production.body.data).toHaveLength(1);
      expect(production.body.data[0]?.environment).toBe('production');
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
        const response = await get<PublicFormPage>(`/forms?environment=${env}`);
        expect(response.status).toBe(200);
        expect(response.body.data.map((f) => f.id).sort()).toEqual(live.map((f) => f.id).sort());
        for (const form of response.body.data) expectPublicView(form);
        expect(response.text).not.toContain(CAPTCHA_SECRET);
        expect(response.text).not.toContain(first.id);
      });

      it.each(['draft', 'active', 'disabled', 'archived'])('sees nothing with status=%s', async (status) => {
        const { user, env } = await userWithUniqueEnvironment();
        await createForm(t, user.token, { environment: env, status });
        await createForm(t, user.token, { environment: env, status: 'live' });
        const response = await get<PublicFormPage>(`/forms?environment=${env}&status=${status}`);
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual([]);
      });

      it('pages through live forms with the same cursors', async () => {
        const { user, env } = await userWithUniqueEnvironment();
        const created = await createSeries(user.token, 5, { environment: env, status: 'live' });
        const first = await get<PublicFormPage>(`/forms?environment=${env}&limit=3`);
        const second = await get<PublicFormPage>(
          `/forms?environment=${env}&limit=3&cursor=${encodeURIComponent(first.body.nextCursor!)}`,
        );
        expect([...first.body.data, ...second.body.data].map((f) => f.id)).toEqual(
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
        const response = await get<FormPage>('/forms?environment=production', secret.key);
        expect(response.status).toBe(200);
        expect(response.body.data).toEqual([form]);
      });

      it('gives a publishable key the public views of its environment', async () => {
        const user = await signup(t);
        const publishable = await createKey(t, user, 'publishable', 'development');
        const form = await createForm(t, user.token, richForm());
        const response = await get<PublicFormPage>('/forms?environment=development', publishable.key);
        expect(response.status).toBe(200);
        expect(response.body.data.map((f) => f.id)).toEqual([form.id]);
        expectPublicView(response.body.data[0]!);
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
      const legacy = await get<FormPage>(`/environments/${env}/forms`, user.token);
      const successor = await get<FormPage>(`/forms?environment=${env}`, user.token);
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
      const first = await get<FormPage>(`/environments/${env}/forms?limit=2`, user.token);
      expect(first.body.data.map((f) => f.id)).toEqual([created[4]?.id, created[3]?.id]);
      const second = await get<FormPage>(
        `/environments/${env}/forms?limit=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`,
        user.token,
      );
      expect(second.body.data.map((f) => f.id)).toEqual([created[2]?.id, created[1]?.id]);
      const archived = await get<FormPage>(`/environments/${env}/forms?status=archived`, user.token);
      expect(archived.body.data).toHaveLength(1);
      expect(archived.body.data[0]?.status).toBe('archived');
      expectProblem(await get(`/environments/${env}/forms?limit=0`, user.token), 400, 'invalid_parameter');
    });

    it('gives anonymous callers the same public list as its successor', async () => {
      const { user, env } = await userWithUniqueEnvironment();
      await createForm(t, user.token, { environment: env, status: 'live' });
      await createForm(t, user.token, { environment: env, status: 'draft' });
      const legacy = await get<PublicFormPage>(`/environments/${env}/forms`);
      expect(legacy.status).toBe(200);
      expect(legacy.body).toEqual((await get<PublicFormPage>(`/forms?environment=${env}`)).body);
      expect(legacy.body.data).toHaveLength(1);
      expectPublicView(legacy.body.data[0]!);
      expect(legacy.headers.deprecation).toBe('true');
    });

    it('refuses an invalid environment name: 400 invalid_environment', async () => {
      const user = await signup(t);
      expectProblem(await get('/environments/Not%20Valid/forms', user.token), 400, 'invalid_environment');
    });
  });
});
