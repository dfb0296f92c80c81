import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { formBody, signup, type TestUser } from '../../../test/support/factories.js';
import {
  expectFieldError,
  formsApi,
  type PublicFormPage,
  type PublicFormView,
} from '../../../test/support/forms.js';

/**
 * API.md §15, the `access` member of a form: its rules at save (every problem at once), the
 * write-only password (stored hashed, read back as hasPassword, kept when a PUT leaves it out,
 * removed by null; never in any output), and what the public view says of it.
 */

const PASSWORD = 'open sesame 42';
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe('a form’s access member', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
  });
  afterAll(() => t.close());

  const { get, post, put } = formsApi(() => t);

  async function storedDefinition(id: string): Promise<string> {
    const row = await t.app.intake.database.db
      .selectFrom('forms')
      .select('definition')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.definition;
  }

  describe('rules at save', () => {
    it('refuses closesAt before (or at) opensAt, and every other problem with it, storing nothing', async () => {
      const response = await post(
        formBody({
          access: {
            opensAt: '2026-12-01T10:00:00Z',
            closesAt: '2026-11-30T10:00:00Z',
            oncePer: 'email',
            maxSubmissions: 0,
          },
        }),
        owner.token,
      );
      expectProblem(response, 400, 'invalid_form');
      expectFieldError(response, 'access.maxSubmissions');
      // the shape error does not hide the rules beyond it: both are reported together
      const same = await post(
        formBody({
          access: { opensAt: '2026-12-01T10:00:00Z', closesAt: '2026-12-01T10:00:00Z', oncePer: 'email' },
        }),
        owner.token,
      );
      expectProblem(same, 400, 'invalid_form');
      expectFieldError(same, 'access.closesAt', 'invalid');
      expectFieldError(same, 'access.emailField', 'required');
      const listed = await t.request({
        method: 'GET',
        url: '/forms?environment=development',
        auth: owner.token,
      });
      expect(listed.body.data).toEqual([]);
    });

    it('refuses an emailField that is unknown, not an email field, optional, or hidden by the logic', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ access: { oncePer: 'email', emailField: 'nope' } }, 'unknown_field'],
        [{ access: { oncePer: 'email', emailField: 'name' } }, 'invalid'],
        [
          {
            fields: [{ id: 'email', type: 'email', label: 'E-mail' }],
            access: { oncePer: 'email', emailField: 'email' },
          },
          'invalid',
        ],
        [
          {
            fields: [
              { id: 'name', type: 'text', label: 'Name' },
              { id: 'email', type: 'email', label: 'E-mail', required: true },
            ],
            logic: { rules: [{ when: { field: 'name', op: 'isNotEmpty' }, show: ['email'] }] },
            access: { oncePer: 'email', emailField: 'email' },
          },
          'invalid',
        ],
      ];
      for (const [overrides, code] of cases) {
        const response = await post(formBody(overrides), owner.token);
        expectProblem(response, 400, 'invalid_form');
        expectFieldError(response, 'access.emailField', code);
      }
    });

    it('refuses a non-integer limit, an unknown oncePer, a time that is not a date-time, and unknown members', async () => {
      for (const access of [
        { maxSubmissions: 2.5 },
        { maxSubmissions: -1 },
        { oncePer: 'ip' },
        { opensAt: 'tomorrow' },
        { password: '' },
        { secret: 'x' },
        'yes',
        [],
      ]) {
        const response = await post(formBody({ access }), owner.token);
        expectProblem(response, 400, 'invalid_form');
      }
    });
  });

  describe('the write-only password', () => {
    it('is stored as a scrypt hash, read back as hasPassword, and in no output at all', async () => {
      const created = await post(
        formBody({ status: 'live', access: { password: PASSWORD, closedMessage: 'See you' } }),
        owner.token,
      );
      expect(created.status).toBe(201);
      expect(created.body.access).toEqual({ closedMessage: 'See you', hasPassword: true });
      const id: string = created.body.id;
      const stored = await storedDefinition(id);
      expect(stored).not.toContain(PASSWORD);
      expect(JSON.parse(stored).access.passwordHash).toMatch(/^scrypt\$/);
      const hash: string = JSON.parse(stored).access.passwordHash;

      const draft = await t.request({
        method: 'PUT',
        url: `/forms/${id}/draft`,
        auth: owner.token,
        body: { title: 'Working copy' },
      });
      expect(draft.status).toBe(200);
      const outputs = [
        created,
        await get(`/forms/${id}`, owner.token),
        await get('/forms?environment=development', owner.token),
        await get(`/forms/${id}`),
        await get<PublicFormView>(`/v1/forms/${id}/public`),
        await get('/forms?environment=development'),
        draft,
        await get(`/forms/${id}/draft`, owner.token),
      ];
      for (const response of outputs) {
        expect(response.status).toBeLessThan(300);
        expect(response.text).not.toContain(PASSWORD);
        expect(response.text).not.toContain(hash);
        expect(response.text).not.toContain('passwordHash');
      }
      expect((await get<PublicFormView>(`/v1/forms/${id}/public`)).body.access).toEqual({
        open: true,
        closedMessage: 'See you',
        passwordRequired: true,
      });
      expect(draft.body.access.hasPassword).toBe(true);
    });

    it('stays when a PUT leaves it out (the form read and sent back), and goes with password: null', async () => {
      const created = await post(formBody({ access: { password: PASSWORD } }), owner.token);
      const id: string = created.body.id;
      const hash = JSON.parse(await storedDefinition(id)).access.passwordHash;
      // the owner's view sent back as it is: hasPassword is ignored, the password kept
      const read = await get(`/forms/${id}`, owner.token);
      const sentBack = await put(
        id,
        { ...read.body, access: { ...read.body.access, maxSubmissions: 5 } },
        owner.token,
      );
      expect(sentBack.status).toBe(200);
      expect(sentBack.body.access).toEqual({ maxSubmissions: 5, hasPassword: true });
      expect(JSON.parse(await storedDefinition(id)).access.passwordHash).toBe(hash);
      // a member other than access changed: the password stays too
      expect((await put(id, { title: 'Renamed' }, owner.token)).body.access?.hasPassword).toBe(true);
      // a new one replaces it
      const changed = await put(id, { access: { password: 'another one' } }, owner.token);
      expect(changed.body.access).toEqual({ hasPassword: true });
      expect(JSON.parse(await storedDefinition(id)).access.passwordHash).not.toBe(hash);
      // null removes it, the other rules kept
      const removed = await put(id, { access: { maxSubmissions: 3, password: null } }, owner.token);
      expect(removed.body.access).toEqual({ maxSubmissions: 3, hasPassword: false });
      expect(JSON.parse(await storedDefinition(id)).access.passwordHash).toBeUndefined();
      // access: null removes every rule
      const cleared = await put(id, { access: null }, owner.token);
      expect(cleared.body.access).toBeNull();
    });

    it('is not carried by a copy: the form read and posted again (another environment) has none', async () => {
      const created = await post(
        formBody({ access: { password: PASSWORD, maxSubmissions: 9 } }),
        owner.token,
      );
      const read = await get(`/forms/${created.body.id}`, owner.token);
      const { id: _id, environment: _environment, userId: _user, ...rest } = read.body;
      const copy = await post({ ...rest, environment: 'production' }, owner.token);
      expect(copy.status).toBe(201);
      expect(copy.body.access).toEqual({ maxSubmissions: 9, hasPassword: false });
    });

    it('is kept by a working copy and published with it', async () => {
      const created = await post(formBody({ status: 'live', access: { password: PASSWORD } }), owner.token);
      const id: string = created.body.id;
      const hash = JSON.parse(await storedDefinition(id)).access.passwordHash;
      const read = await get(`/forms/${id}`, owner.token);
      const saved = await t.request({
        method: 'PUT',
        url: `/forms/${id}/draft`,
        auth: owner.token,
        body: { ...read.body, title: 'Edited' },
      });
      expect(saved.body.access.hasPassword).toBe(true);
      const published = await t.request({
        method: 'POST',
        url: `/forms/${id}/draft/publish`,
        auth: owner.token,
        headers: { 'if-match': `"${read.body.version}"` },
      });
      expect(published.status).toBe(200);
      expect(published.body.access.hasPassword).toBe(true);
      expect(JSON.parse(await storedDefinition(id)).access.passwordHash).toBe(hash);
    });
  });

  describe('the public view', () => {
    it('says open or not and why, by the clock at request time, with the closed message in the asked language', async () => {
      const base = {
        status: 'live',
        translations: { de: { closedMessage: 'Geschlossen, danke' } },
      };
      const future = await post(
        formBody({ ...base, access: { opensAt: at(HOUR), closedMessage: 'Not yet' } }),
        owner.token,
      );
      const past = await post(
        formBody({ ...base, access: { closesAt: at(-HOUR), closedMessage: 'Over' } }),
        owner.token,
      );
      const open = await post(
        formBody({ ...base, access: { opensAt: at(-HOUR), closesAt: at(HOUR) } }),
        owner.token,
      );
      const view = async (id: string, lang?: string) =>
        (await get<PublicFormView>(`/v1/forms/${id}/public${lang ? `?lang=${lang}` : ''}`)).body.access;
      expect(await view(future.body.id)).toMatchObject({
        open: false,
        closedReason: 'not_yet_open',
        closedMessage: 'Not yet',
        passwordRequired: false,
      });
      expect(await view(past.body.id)).toMatchObject({
        open: false,
        closedReason: 'closed',
        closedMessage: 'Over',
      });
      expect(await view(past.body.id, 'de')).toMatchObject({ closedMessage: 'Geschlossen, danke' });
      const opened = await view(open.body.id);
      expect(opened.open).toBe(true);
      expect(opened.closedReason).toBeUndefined();
      // a closed form's view is another representation: its tag says so
      expect((await get<PublicFormView>(`/v1/forms/${past.body.id}/public`)).headers.etag).toBe('"1-closed"');
      expect((await get<PublicFormView>(`/v1/forms/${open.body.id}/public`)).headers.etag).toBe('"1"');
    });

    it('says full once maxSubmissions accepted submissions exist', async () => {
      const created = await post(formBody({ status: 'live', access: { maxSubmissions: 1 } }), owner.token);
      const id: string = created.body.id;
      expect((await get<PublicFormView>(`/v1/forms/${id}/public`)).body.access.open).toBe(true);
      const submitted = await t.request({
        method: 'POST',
        url: `/forms/${id}/submit`,
        body: { answers: { name: 'Ada', email: 'ada@example.com' } },
      });
      expect(submitted.status).toBe(201);
      const public1 = await get<PublicFormView>(`/v1/forms/${id}/public`);
      expect(public1.body.access).toMatchObject({ open: false, closedReason: 'full' });
      expect(public1.headers.etag).toBe('"1-full"');
      const listed = await get<PublicFormPage>('/forms?environment=development');
      expect(listed.body.data.find((form) => form.id === id)?.access.closedReason).toBe('full');
    });
  });
});
