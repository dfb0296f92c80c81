import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createKey, signup } from '../../../test/support/factories.js';
import {
  createForm,
  DEFAULT_UI,
  expectFieldError,
  type FormPage,
  formsApi,
  richForm,
  STATUSES,
} from '../../../test/support/forms.js';

/**
 * API.md §5: the form endpoints — changing and deleting a form (PUT, DELETE /forms/{id}).
 * The others: forms-create, forms-read, forms-captcha-copy (shared helpers in test/support/forms.ts).
 */

describe('forms endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const { get, put, del, createSeries } = formsApi(() => t);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  describe('PUT /forms/{id}', () => {
    it('merges: members in the body replace the stored ones, the others keep their value', async () => {
      const user = await signup(t);
      const created = await createForm(t, user.token, richForm());
      // a fixed wait on purpose: past the millisecond of createdAt, so that updatedAt must differ
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
        // a fixed wait on purpose: past the millisecond of the last updatedAt, so that the next must be later
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
      expect(response.body.spamProtection?.captcha?.hasSecret).toBe(true);
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
      // twenty at once: on PostgreSQL about half of them gave up after their retries (412) before
      // the process took a form's writes one at a time
      const count = 20;
      const responses = await Promise.all(
        Array.from({ length: count }, (_, n) => put(created.id, { title: `Concurrent ${n}` }, user.token)),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(count).fill(200));
      expect(responses.map((r) => r.body.version).sort((a, b) => a - b)).toEqual(
        Array.from({ length: count }, (_, n) => n + 2),
      );
      expect((await get(`/forms/${created.id}`, user.token)).body.version).toBe(count + 1);
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
      const fields = created.fields.filter((f) => f.id !== 'budget');
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
      expect((await get<FormPage>('/forms?environment=development', user.token)).body.data).toEqual([]);
    });

    it('deletes only the form named', async () => {
      const user = await signup(t);
      const [keep, drop] = await createSeries(user.token, 2);
      expect((await del(drop!.id, user.token)).status).toBe(204);
      expect((await get<FormPage>('/forms?environment=development', user.token)).body.data).toEqual([keep]);
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
});
