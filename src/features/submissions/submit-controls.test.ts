import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem, storedCount } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { countAcceptedSoFar } from '../../platform/db/migrations/015-response-controls.js';
import { PASSWORD_GUESSES } from './controls.js';

/**
 * API.md §15 on the submit path: opening and closing by the clock at request time,
 * `maxSubmissions` exact under concurrent submissions (counted in the write's own transaction),
 * one submission per e-mail address (a keyed hash, whatever the field's PII mode; races), and the
 * password in X-Form-Password. The hosted page's side: web/hosted/access-pages.test.ts; several
 * instances on one PostgreSQL database: controls-instances.test.ts.
 */

const HOUR = 3_600_000;
const PASSWORD = 'let me in 7';

describe('response controls on the submit path', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000, trustProxy: 1 });
    owner = await signup(t);
  });
  afterAll(() => t.close());
  afterEach(() => {
    vi.useRealTimers();
  });

  const fields = (piiMode?: string) => [
    { id: 'name', type: 'text', label: 'Name' },
    {
      id: 'email',
      type: 'email',
      label: 'E-mail',
      required: true,
      ...(piiMode ? { pii: true, piiMode } : {}),
    },
  ];

  const liveForm = (access: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
    createForm(t, owner.token, { status: 'live', fields: fields(), access, ...overrides });

  const submit = (formId: string, email = 'ada@example.com', headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { name: 'Ada', email } },
      headers,
    });

  const statuses = (responses: Response[]) =>
    responses.reduce<Record<string, number>>((counts, response) => {
      const name = response.status === 201 ? '201' : `${response.status} ${response.body?.code}`;
      counts[name] = (counts[name] ?? 0) + 1;
      return counts;
    }, {});

  describe('opening and closing by the clock', () => {
    it('refuses before opensAt and from closesAt on (403 form_closed), takes answers between, with no job to run', async () => {
      const opensAt = Date.now() + HOUR;
      const closesAt = opensAt + HOUR;
      const form = await liveForm({
        opensAt: new Date(opensAt).toISOString(),
        closesAt: new Date(closesAt).toISOString(),
      });
      // only Date is moved: the clock the request is judged by
      vi.useFakeTimers({ toFake: ['Date'], now: opensAt - 1 });
      const early = await submit(form.id);
      expectProblem(early, 403, 'form_closed');
      expect(early.body.reason).toBe('not_yet_open');
      vi.setSystemTime(opensAt);
      expect((await submit(form.id)).status).toBe(201);
      vi.setSystemTime(closesAt - 1);
      expect((await submit(form.id)).status).toBe(201);
      vi.setSystemTime(closesAt);
      const late = await submit(form.id);
      expectProblem(late, 403, 'form_closed');
      expect(late.body.reason).toBe('closed');
      vi.useRealTimers();
      expect(await storedCount(t, form.id)).toBe(2);
    });
  });

  describe('maxSubmissions', () => {
    it('accepts exactly 10 of 50 concurrent submissions and answers the other 40 form_closed', async () => {
      const form = await liveForm({ maxSubmissions: 10 });
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) => submit(form.id, `person${i}@example.com`)),
      );
      expect(statuses(responses)).toEqual({ '201': 10, '403 form_closed': 40 });
      expect(await storedCount(t, form.id)).toBe(10);
      // and once full, a later one is refused before any work is done
      expectProblem(await submit(form.id, 'late@example.com'), 403, 'form_closed');
    });

    it('counts accepted submissions only, and a deleted one frees its place', async () => {
      const form = await liveForm({ maxSubmissions: 1 });
      const first = await submit(form.id);
      expect(first.status).toBe(201);
      expectProblem(await submit(form.id, 'bob@example.com'), 403, 'form_closed');
      const deleted = await t.request({
        method: 'DELETE',
        url: `/responses/${first.body.id}?form_id=${form.id}&environment=development`,
        auth: owner.token,
      });
      expect(deleted.status).toBe(204);
      expect((await submit(form.id, 'bob@example.com')).status).toBe(201);
      expectProblem(await submit(form.id, 'carol@example.com'), 403, 'form_closed');
    });

    it('refuses a flagged submission (which the limit does not count) as soon as the form is full', async () => {
      const form = await liveForm(
        { maxSubmissions: 1 },
        { spamProtection: { action: 'flag', rules: [{ field: 'name', op: 'contains', value: 'spam' }] } },
      );
      const flagged = () =>
        t.request({
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: { name: 'spam offer', email: 'spam@example.com' } },
        });
      // before it is full, a flagged one is stored (and takes no place)
      const early = await flagged();
      expect(early.status, early.text).toBe(201);
      expect(early.body.status).toBe('flagged');
      expect((await submit(form.id)).status).toBe(201);
      // at once, not a second later (the check had seen the form with room a moment before)
      expectProblem(await flagged(), 403, 'form_closed');
      expectProblem(await submit(form.id, 'bob@example.com'), 403, 'form_closed');
      expect(await storedCount(t, form.id)).toBe(2);
    });

    it('counts what came before a limit set later, kept and not kept alike', async () => {
      for (const storage of [{ mode: 'owner' }, { mode: 'none' }]) {
        const form = await createForm(t, owner.token, { status: 'live', fields: fields(), storage });
        const before = await Promise.all(
          Array.from({ length: 3 }, (_, i) => submit(form.id, `b${i}@example.com`)),
        );
        expect(statuses(before)).toEqual({ '201': 3 });
        const limited = await t.request({
          method: 'PUT',
          url: `/forms/${form.id}`,
          auth: owner.token,
          body: {
            title: 'Limited',
            status: 'live',
            fields: fields(),
            storage,
            access: { maxSubmissions: 4 },
          },
        });
        expect(limited.status, limited.text).toBe(200);
        const after = await Promise.all(
          Array.from({ length: 3 }, (_, i) => submit(form.id, `a${i}@example.com`)),
        );
        expect(statuses(after)).toEqual({ '201': 1, '403 form_closed': 2 });
      }
    });

    it('counts a form that keeps no submissions too', async () => {
      const form = await liveForm({ maxSubmissions: 2 }, { storage: { mode: 'none' } });
      const responses = await Promise.all(
        Array.from({ length: 5 }, (_, i) => submit(form.id, `n${i}@example.com`)),
      );
      expect(statuses(responses)).toEqual({ '201': 2, '403 form_closed': 3 });
    });
  });

  describe('one submission per e-mail address', () => {
    for (const piiMode of [undefined, 'hashed', 'encrypted', 'dropped', 'masked']) {
      it(`refuses a second from one address, compared case-insensitively (field ${piiMode ?? 'plain'})`, async () => {
        const form = await createForm(t, owner.token, {
          status: 'live',
          fields: fields(piiMode),
          access: { oncePer: 'email', emailField: 'email' },
        });
        const address = `Ada.Lovelace.${piiMode ?? 'plain'}@Example.com`;
        expect((await submit(form.id, address)).status).toBe(201);
        const again = await submit(form.id, address.toUpperCase());
        expectProblem(again, 409, 'already_submitted');
        expect((await submit(form.id, 'grace@example.com')).status).toBe(201);
        expect(await storedCount(t, form.id)).toBe(2);
        // compared by a keyed hash: the address is not what is stored beside the submission
        const dump = await dumpDatabase(t);
        // on SQLite a claim waits in the log until its merge (address-claims.ts): read both
        const { db } = t.app.intake.database;
        const rows = await db
          .selectFrom('response_addresses')
          .selectAll()
          .where('form_id', '=', form.id)
          .unionAll(db.selectFrom('response_address_log').selectAll().where('form_id', '=', form.id))
          .execute();
        expect(rows).toHaveLength(2);
        for (const row of rows) expect(row.address_hash).not.toMatch(/@|lovelace/i);
        if (piiMode === 'hashed' || piiMode === 'dropped' || piiMode === 'encrypted')
          expect(dump.toLowerCase()).not.toContain(address.toLowerCase());
      });
    }

    it('takes one of concurrent submissions from one address: one 201, the others 409', async () => {
      const form = await liveForm({ oncePer: 'email', emailField: 'email' });
      const pair = await Promise.all([
        submit(form.id, 'race@example.com'),
        submit(form.id, 'RACE@example.com'),
      ]);
      expect(statuses(pair)).toEqual({ '201': 1, '409 already_submitted': 1 });
      const many = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          submit(form.id, i % 2 === 0 ? 'twin@example.com' : 'Twin@Example.com'),
        ),
      );
      expect(statuses(many)).toEqual({ '201': 1, '409 already_submitted': 19 });
      expect(await storedCount(t, form.id)).toBe(2);
    });

    it('a refused address costs no place under maxSubmissions; a deleted response frees its address', async () => {
      const form = await liveForm({ oncePer: 'email', emailField: 'email', maxSubmissions: 2 });
      const first = await submit(form.id, 'one@example.com');
      expectProblem(await submit(form.id, 'one@example.com'), 409, 'already_submitted');
      expect((await submit(form.id, 'two@example.com')).status).toBe(201);
      expectProblem(await submit(form.id, 'three@example.com'), 403, 'form_closed');
      await t.request({
        method: 'DELETE',
        url: `/responses/${first.body.id}?form_id=${form.id}&environment=development`,
        auth: owner.token,
      });
      expect((await submit(form.id, 'one@example.com')).status).toBe(201);
    });
  });

  describe('the password', () => {
    it('is asked for in X-Form-Password: missing or wrong 401 password_required, right 201', async () => {
      const form = await liveForm({ password: PASSWORD });
      expectProblem(await submit(form.id), 401, 'password_required');
      expectProblem(
        await submit(form.id, undefined, { 'x-form-password': 'guess' }),
        401,
        'password_required',
      );
      expect((await submit(form.id, undefined, { 'x-form-password': PASSWORD })).status).toBe(201);
      expect(await storedCount(t, form.id)).toBe(1);
    });

    it('takes a password beyond Latin-1 sent as UTF-8 bytes, and one in Latin-1 as it came', async () => {
      const unicode = await liveForm({ password: 'Grüße ✓ 42' });
      // what a header's UTF-8 bytes look like once Node has read them as Latin-1
      const asBytes = Buffer.from('Grüße ✓ 42', 'utf8').toString('latin1');
      expect((await submit(unicode.id, undefined, { 'x-form-password': asBytes })).status).toBe(201);
      expectProblem(
        await submit(unicode.id, undefined, {
          'x-form-password': Buffer.from('Grüße ✓ 43').toString('latin1'),
        }),
        401,
        'password_required',
      );
      const latin = await liveForm({ password: 'Grüße 42' });
      expect((await submit(latin.id, undefined, { 'x-form-password': 'Grüße 42' })).status).toBe(201);
    });

    it('takes an overlong X-Form-Password for a wrong one, storing nothing', async () => {
      const form = await liveForm({ password: PASSWORD });
      const response = await submit(form.id, undefined, { 'x-form-password': 'x'.repeat(10_000) });
      expectProblem(response, 401, 'password_required');
      expect(await storedCount(t, form.id)).toBe(0);
    });

    it('is not asked of the owner’s secret key; a publishable key needs it', async () => {
      const form = await liveForm({ password: PASSWORD });
      const secret = await createKey(t, owner, 'secret');
      const publishable = await createKey(t, owner, 'publishable');
      expect((await submit(form.id, undefined, { authorization: `Bearer ${secret.key}` })).status).toBe(201);
      expectProblem(
        await submit(form.id, undefined, { authorization: `Bearer ${publishable.key}` }),
        401,
        'password_required',
      );
    });

    it('refuses guessing: after the allowed wrong guesses, 429 even for the right one', async () => {
      const form = await liveForm({ password: PASSWORD });
      const ip = { 'x-forwarded-for': '198.51.100.23' };
      for (let i = 0; i < PASSWORD_GUESSES; i++)
        expectProblem(
          await submit(form.id, undefined, { ...ip, 'x-form-password': `guess ${i}` }),
          401,
          'password_required',
        );
      const limited = await submit(form.id, undefined, { ...ip, 'x-form-password': PASSWORD });
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(await storedCount(t, form.id)).toBe(0);
    });
  });

  describe('migration 015', () => {
    it('starts each form’s count from its accepted submissions stored before', async () => {
      const fresh = await createTestApp({ rateLimitPublic: 1_000_000 });
      try {
        const user = await signup(fresh);
        const form = await createForm(fresh, user.token, { status: 'live', access: { maxSubmissions: 3 } });
        const other = await createForm(fresh, user.token, { status: 'live' });
        const send = (id: string) =>
          fresh.request({
            method: 'POST',
            url: `/forms/${id}/submit`,
            body: { answers: { name: 'Ada', email: 'ada@example.com' } },
          });
        for (const id of [form.id, form.id, form.id, other.id]) expect((await send(id)).status).toBe(201);
        const { db } = fresh.app.intake.database;
        const [flagged] = await db
          .selectFrom('submissions')
          .select('id')
          .where('form_id', '=', form.id)
          .execute();
        await db
          .updateTable('submissions')
          .set({ status: 'flagged' })
          .where('id', '=', flagged?.id ?? '')
          .execute();
        // as before the migration: no counts at all
        await db.deleteFrom('form_counts').execute();
        await countAcceptedSoFar(db as never);
        const counts = await db.selectFrom('form_counts').selectAll().orderBy('accepted').execute();
        expect(counts.map((row) => [row.form_id, Number(row.accepted)])).toEqual([
          [other.id, 1],
          [form.id, 2],
        ]);
        expect((await send(form.id)).status).toBe(201);
        expectProblem(await send(form.id), 403, 'form_closed');
      } finally {
        await fresh.close();
      }
    });
  });
});
