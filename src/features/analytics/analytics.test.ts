import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import {
  createEnvironment,
  createForm,
  createKey,
  signup,
  type TestUser,
  workspaceOfForm,
} from '../../../test/support/factories.js';
import { newId } from '../../platform/ids.js';

/**
 * API.md §8: views and starts reported to POST /v1/forms/{id}/events (public, once per
 * session, rate-limited), and GET /analytics (totals, per form, per UTC day) with its
 * legacy twin; also the legacy GET /environments/{environment}/responses.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(() => t.close());

const session = () => `s-${randomBytes(8).toString('hex')}`;

interface Form {
  id: string;
  userId: string;
  environment: string;
  title: string;
}

/** A user with an environment of their own name (so nothing else lives in it). */
async function ownerWithEnvironment(): Promise<{ user: TestUser; env: string }> {
  const user = await signup(t);
  const env = `env-${randomBytes(4).toString('hex')}`;
  await createEnvironment(t, user, env);
  return { user, env };
}

function liveForm(user: TestUser, overrides: Record<string, unknown> = {}): Promise<Form> {
  return createForm(t, user.token, { status: 'live', ...overrides });
}

function sendEvent(
  formId: string,
  body: unknown,
  options: { auth?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return t.request({ method: 'POST', url: `/v1/forms/${formId}/events`, body, ...options });
}

/** An event stored straight into the database, at the time the test needs. */
async function insertEvent(form: Form, type: 'view' | 'start', createdAt: string, sessionId = session()) {
  await t.app.intake.database.db
    .insertInto('form_events')
    .values({
      form_id: form.id,
      type,
      session_id: sessionId,
      workspace_id: await workspaceOfForm(t, form.id),
      environment: form.environment,
      created_at: createdAt,
    })
    .execute();
}

/** A submission stored straight into the database, at the time the test needs. */
async function insertSubmission(
  form: Form,
  createdAt: string,
  status: 'accepted' | 'flagged' | 'quarantined' = 'accepted',
) {
  await t.app.intake.database.db
    .insertInto('submissions')
    .values({
      id: newId('sub'),
      workspace_id: await workspaceOfForm(t, form.id),
      environment: form.environment,
      form_id: form.id,
      form_version: 1,
      answers: JSON.stringify({ name: 'Row' }),
      session_id: null,
      status,
      read: 0,
      starred: 0,
      created_at: createdAt,
    })
    .execute();
}

async function storedEvents(formId: string) {
  return t.app.intake.database.db
    .selectFrom('form_events')
    .selectAll()
    .where('form_id', '=', formId)
    .orderBy('type')
    .orderBy('session_id')
    .execute();
}

function getAnalytics(
  auth: string | undefined,
  query: Record<string, string | undefined>,
): Promise<Response> {
  return t.request({
    method: 'GET',
    url: `/analytics?${new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined))}`,
    auth,
  });
}

/** A successful GET /analytics body. */
async function analyticsOf(auth: string, query: Record<string, string | undefined>): Promise<any> {
  const response = await getAnalytics(auth, query);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const ZERO = { views: 0, starts: 0, submissions: 0, flagged: 0, quarantined: 0, completionRate: null };

// --- POST /v1/forms/{id}/events ---------------------------------------------------------

describe('POST /v1/forms/{id}/events', () => {
  it('answers 202 with no body and stores the event under the form, its owner and environment', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const sessionId = session();
    const response = await sendEvent(form.id, { type: 'view', sessionId });
    expect(response.status, response.text).toBe(202);
    expect(response.text).toBe('');
    const rows = await storedEvents(form.id);
    expect(rows).toEqual([
      {
        form_id: form.id,
        type: 'view',
        session_id: sessionId,
        workspace_id: user.workspaceId,
        environment: 'development',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    ]);
  });

  it('counts each type once per session and form; repeats answer 202 and change nothing', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const other = await liveForm(user);
    const [a, b] = [session(), session()];
    for (const body of [
      { type: 'view', sessionId: a },
      { type: 'view', sessionId: a },
      { type: 'start', sessionId: a },
      { type: 'start', sessionId: a },
      { type: 'view', sessionId: b },
    ]) {
      expect((await sendEvent(form.id, body)).status).toBe(202);
    }
    expect((await sendEvent(other.id, { type: 'view', sessionId: a })).status).toBe(202);
    const first = await storedEvents(form.id);
    expect(first.map((row) => [row.type, row.session_id])).toEqual(
      [
        ['start', a],
        ['view', a],
        ['view', b],
      ].sort(),
    );
    // the first report's time is kept
    const again = await sendEvent(form.id, { type: 'view', sessionId: a });
    expect(again.status).toBe(202);
    expect(await storedEvents(form.id)).toEqual(first);
    expect(await storedEvents(other.id)).toHaveLength(1);
  });

  it('counts concurrent duplicates once', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const sessionId = session();
    const responses = await Promise.all(
      Array.from({ length: 25 }, () => sendEvent(form.id, { type: 'start', sessionId })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(25).fill(202));
    expect(await storedEvents(form.id)).toHaveLength(1);
    const body = await analyticsOf(user.token, { environment: 'development', form_id: form.id });
    expect(body.totals.starts).toBe(1);
  });

  it.each([
    { name: 'an empty object', body: {}, fields: ['type', 'sessionId'] },
    { name: 'an unknown type', body: { type: 'click', sessionId: 'abc' }, fields: ['type'] },
    { name: 'an empty sessionId', body: { type: 'view', sessionId: '' }, fields: ['sessionId'] },
    {
      name: 'a 129-character sessionId',
      body: { type: 'view', sessionId: 'x'.repeat(129) },
      fields: ['sessionId'],
    },
    { name: 'a sessionId with a space', body: { type: 'view', sessionId: 'a b' }, fields: ['sessionId'] },
    {
      name: 'a sessionId with a line break',
      body: { type: 'view', sessionId: 'a\nb' },
      fields: ['sessionId'],
    },
    { name: 'a non-ASCII sessionId', body: { type: 'view', sessionId: 'sessión' }, fields: ['sessionId'] },
    { name: 'a numeric sessionId', body: { type: 'view', sessionId: 42 }, fields: ['sessionId'] },
    { name: 'an unknown member', body: { type: 'view', sessionId: 'abc', at: 1 }, fields: ['at'] },
    { name: 'a JSON array', body: [], fields: ['(body)'] },
  ])('refuses $name: 400 validation_failed naming $fields, nothing stored', async ({ body, fields }) => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await sendEvent(form.id, body);
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual(
      expect.arrayContaining(fields),
    );
    expect(await storedEvents(form.id)).toEqual([]);
  });

  it('words the refusal of an unknown type as it always has (const, then anyOf)', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await sendEvent(form.id, { type: 'click', sessionId: 'abc' });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors.map((e: { field: string; code: string }) => [e.field, e.code])).toEqual([
      ['type', 'const'],
      ['type', 'anyOf'],
    ]);
  });

  it('accepts a 128-character sessionId of visible ASCII', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const sessionId = `${'~!'.repeat(63)}Az`;
    expect((await sendEvent(form.id, { type: 'view', sessionId })).status).toBe(202);
    expect((await storedEvents(form.id)).map((row) => row.session_id)).toEqual([sessionId]);
  });

  it('refuses malformed JSON (400 invalid_json) and JSON sent as text/plain (415)', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    expectProblem(await sendEvent(form.id, '{"type":'), 400, 'invalid_json');
    const plain = await sendEvent(form.id, JSON.stringify({ type: 'view', sessionId: 'abc' }), {
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect(await storedEvents(form.id)).toEqual([]);
  });

  it('answers 404 not_found for an unknown form', async () => {
    expectProblem(await sendEvent(`nope-${session()}`, { type: 'view', sessionId: 'abc' }), 404, 'not_found');
  });

  describe('who may report (as who may submit, API.md §6.1)', () => {
    let owner: TestUser;
    let stranger: TestUser;
    const keys: Record<string, string> = {};
    beforeAll(async () => {
      owner = await signup(t);
      stranger = await signup(t);
      keys.publishable = (await createKey(t, owner, 'publishable')).key;
      keys.secret = (await createKey(t, owner, 'secret')).key;
      keys.production = (await createKey(t, owner, 'secret', 'production')).key;
      keys.stranger = (await createKey(t, stranger, 'publishable')).key;
    });

    it.each([
      { status: 'live', caller: 'anonymous', expected: 202 },
      { status: 'live', caller: 'publishable', expected: 202 },
      { status: 'live', caller: 'secret', expected: 202 },
      { status: 'live', caller: 'owner session', expected: 403, code: 'forbidden' },
      { status: 'live', caller: 'production', expected: 403, code: 'forbidden' },
      { status: 'live', caller: 'stranger', expected: 403, code: 'forbidden' },
      { status: 'live', caller: 'unknown key', expected: 401, code: 'unauthorized' },
      { status: 'active', caller: 'anonymous', expected: 404, code: 'not_found' },
      { status: 'active', caller: 'publishable', expected: 202 },
      { status: 'draft', caller: 'anonymous', expected: 404, code: 'not_found' },
      { status: 'draft', caller: 'publishable', expected: 403, code: 'forbidden' },
      { status: 'draft', caller: 'secret', expected: 202 },
      { status: 'disabled', caller: 'anonymous', expected: 403, code: 'form_closed' },
      { status: 'archived', caller: 'secret', expected: 403, code: 'form_closed' },
    ] as const)('$status form, $caller -> $expected', async ({ status, caller, expected, ...rest }) => {
      const form = await createForm(t, owner.token, { status });
      const auth =
        caller === 'anonymous'
          ? undefined
          : caller === 'owner session'
            ? owner.token
            : caller === 'unknown key'
              ? `pk_live_${randomBytes(24).toString('hex')}`
              : keys[caller];
      const response = await sendEvent(form.id, { type: 'view', sessionId: session() }, { auth });
      if (expected === 202) {
        expect(response.status, response.text).toBe(202);
      } else {
        expectProblem(response, expected, (rest as { code: string }).code);
      }
      expect(await storedEvents(form.id)).toHaveLength(expected === 202 ? 1 : 0);
    });
  });

  it('is open to any origin (CORS preflight)', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: `/v1/forms/${form.id}/events`,
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://shop.example');
  });

  it('deleting the form deletes its events', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    expect((await sendEvent(form.id, { type: 'view', sessionId: session() })).status).toBe(202);
    const removal = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: user.token });
    expect(removal.status).toBe(204);
    expect(await storedEvents(form.id)).toEqual([]);
  });
});

describe('POST /v1/forms/{id}/events rate limit (per client IP)', () => {
  let limited: TestApp;
  let formId: string;
  const ip = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
  const post = (address: string, sessionId = session()) =>
    limited.request({
      method: 'POST',
      url: `/v1/forms/${formId}/events`,
      body: { type: 'view', sessionId },
      headers: { 'x-forwarded-for': address },
    });

  beforeAll(async () => {
    limited = await createTestApp({ rateLimitPublic: 3, trustProxy: 1 });
    const user = await signup(limited);
    formId = (await createForm(limited, user.token, { status: 'live' })).id;
  });
  afterAll(() => limited.close());

  it('takes RATE_LIMIT_PUBLIC a minute; then 429 rate_limited with Retry-After and RateLimit-*', async () => {
    const address = ip();
    for (const remaining of [2, 1, 0]) {
      const response = await post(address);
      expect(response.status, response.text).toBe(202);
      expect(response.headers['ratelimit-limit']).toBe('3');
      expect(response.headers['ratelimit-remaining']).toBe(String(remaining));
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
    }
    const refused = await post(address);
    expectProblem(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`).toBe(true);
    expect(refused.headers['ratelimit-limit']).toBe('3');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe(String(retryAfter));
    const rows = await limited.app.intake.database.db
      .selectFrom('form_events')
      .select('session_id')
      .where('form_id', '=', formId)
      .execute();
    expect(rows).toHaveLength(3);
    // another address has its own budget
    const elsewhere = await post(ip());
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.headers['ratelimit-remaining']).toBe('2');
  });

  it('counts repeats of an already counted session too (each request costs)', async () => {
    const address = ip();
    const sessionId = session();
    for (let i = 0; i < 3; i++) expect((await post(address, sessionId)).status).toBe(202);
    expectProblem(await post(address, sessionId), 429, 'rate_limited');
  });

  it('is counted apart from submissions: events do not use up the submit budget', async () => {
    const address = ip();
    for (let i = 0; i < 3; i++) expect((await post(address)).status).toBe(202);
    const submit = await limited.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { name: 'Ada', email: 'ada@example.com' } },
      headers: { 'x-forwarded-for': address },
    });
    expect(submit.status, submit.text).toBe(201);
  });
});

// --- GET /analytics ------------------------------------------------------------------------

describe('GET /analytics', () => {
  describe('who may read', () => {
    let owner: TestUser;
    let stranger: TestUser;
    let form: Form;
    let strangerForm: Form;
    const keys: Record<string, string> = {};
    beforeAll(async () => {
      owner = await signup(t);
      stranger = await signup(t);
      form = await liveForm(owner);
      strangerForm = await liveForm(stranger);
      keys.publishable = (await createKey(t, owner, 'publishable')).key;
      keys.secret = (await createKey(t, owner, 'secret')).key;
      keys.production = (await createKey(t, owner, 'secret', 'production')).key;
      keys.stranger = (await createKey(t, stranger, 'secret')).key;
    });

    const credential = (caller: string) =>
      ({
        anonymous: undefined,
        'owner session': owner.token,
        'stranger session': stranger.token,
        'unknown token': `sk_live_${randomBytes(24).toString('hex')}`,
      })[caller] ?? keys[caller];

    it.each([
      { caller: 'anonymous', status: 401, code: 'unauthorized' },
      { caller: 'unknown token', status: 401, code: 'unauthorized' },
      { caller: 'publishable', status: 403, code: 'forbidden' },
      { caller: 'production', status: 403, code: 'forbidden' },
      { caller: 'secret', status: 200 },
      { caller: 'owner session', status: 200 },
    ])('?environment=development as $caller -> $status', async ({ caller, status, code }) => {
      const response = await getAnalytics(credential(caller), { environment: 'development' });
      if (code) expectProblem(response, status, code);
      else {
        expect(response.status, response.text).toBe(200);
        expect(response.body.forms.map((f: any) => f.formId)).toEqual([form.id]);
      }
    });

    it.each([
      { caller: 'anonymous', status: 401, code: 'unauthorized' },
      { caller: 'publishable', status: 403, code: 'forbidden' },
      { caller: 'production', status: 403, code: 'forbidden' },
      { caller: 'stranger session', status: 403, code: 'not_owner' },
      { caller: 'stranger', status: 403, code: 'forbidden' },
      { caller: 'secret', status: 200 },
      { caller: 'owner session', status: 200 },
    ])("&form_id=<the owner's form> as $caller -> $status", async ({ caller, status, code }) => {
      const response = await getAnalytics(credential(caller), {
        environment: 'development',
        form_id: form.id,
      });
      if (code) expectProblem(response, status, code);
      else expect(response.body.forms.map((f: any) => f.formId)).toEqual([form.id]);
      // nothing of the counts in a refusal
      if (code) expect(response.body).not.toHaveProperty('totals');
    });

    it('another user, in an environment of the same name, sees only their own forms', async () => {
      const theirs = await analyticsOf(stranger.token, { environment: 'development' });
      expect(theirs.forms.map((f: any) => f.formId)).toEqual([strangerForm.id]);
      const viaKey = await analyticsOf(keys.stranger as string, { environment: 'development' });
      expect(viaKey).toEqual(theirs);
    });

    it('a secret key of the environment gets what the owner gets', async () => {
      const query = { environment: 'development', from: '2025-01-01', to: '2025-01-31' };
      expect(await analyticsOf(keys.secret as string, query)).toEqual(await analyticsOf(owner.token, query));
    });

    it.each([
      { name: 'missing', query: {} },
      { name: 'empty', query: { environment: '' } },
      { name: 'invalid', query: { environment: 'Not Valid' } },
      { name: 'too long', query: { environment: 'e'.repeat(51) } },
    ])('environment $name: 400 invalid_environment with the suggestions', async ({ query }) => {
      const response = await getAnalytics(owner.token, query);
      expectProblem(response, 400, 'invalid_environment');
      expect(response.body.suggestions).toEqual(['development', 'production']);
    });

    it('an environment the user has not created: 404 environment_not_found', async () => {
      expectProblem(
        await getAnalytics(owner.token, { environment: 'nowhere' }),
        404,
        'environment_not_found',
      );
    });

    it('an unknown form_id: 404 not_found; a form of another environment: 403 form_not_in_environment', async () => {
      expectProblem(
        await getAnalytics(owner.token, { environment: 'development', form_id: `nope-${session()}` }),
        404,
        'not_found',
      );
      expectProblem(
        await getAnalytics(owner.token, { environment: 'production', form_id: form.id }),
        403,
        'form_not_in_environment',
      );
    });
  });

  describe('counts', () => {
    let owner: TestUser;
    let env: string;
    let a: Form;
    let b: Form;
    let c: Form;
    const range = { from: '2025-03-01', to: '2025-03-05' };

    beforeAll(async () => {
      ({ user: owner, env } = await ownerWithEnvironment());
      a = await liveForm(owner, { environment: env, title: 'Form A' });
      // every status counts: a draft and an archived form are listed too
      b = await createForm(t, owner.token, { environment: env, title: 'Form B', status: 'draft' });
      c = await createForm(t, owner.token, { environment: env, title: 'Form C', status: 'archived' });
      // form A
      await insertEvent(a, 'view', '2025-02-28T23:59:59.999Z'); // before the range
      await insertEvent(a, 'view', '2025-03-01T00:00:00.000Z'); // its first moment
      await insertEvent(a, 'view', '2025-03-01T10:00:00.000Z');
      await insertEvent(a, 'start', '2025-03-01T00:05:00.000Z');
      await insertEvent(a, 'view', '2025-03-03T12:00:00.000Z');
      await insertEvent(a, 'start', '2025-03-03T13:00:00.000Z');
      await insertEvent(a, 'view', '2025-03-06T00:00:00.000Z'); // after the range
      await insertSubmission(a, '2025-02-28T23:59:59.999Z');
      await insertSubmission(a, '2025-03-01T00:10:00.000Z', 'accepted');
      await insertSubmission(a, '2025-03-03T14:00:00.000Z', 'flagged');
      await insertSubmission(a, '2025-03-03T15:00:00.000Z', 'quarantined');
      await insertSubmission(a, '2025-03-05T23:59:59.999Z', 'accepted'); // its last moment
      await insertSubmission(a, '2025-03-06T00:00:00.000Z');
      // form B: events only
      await insertEvent(b, 'view', '2025-03-02T08:00:00.000Z');
      await insertEvent(b, 'start', '2025-03-02T08:01:00.000Z');
      await insertEvent(b, 'view', '2025-03-05T09:00:00.000Z');
      // form C: nothing at all
    });

    const formA = {
      formId: '',
      title: 'Form A',
      views: 3,
      starts: 2,
      submissions: 2 + 1,
      flagged: 1,
      quarantined: 1,
      completionRate: 1.5,
    };

    it('totals, every form (with zeros) and every day of the range (with zeros)', async () => {
      const body = await analyticsOf(owner.token, { environment: env, ...range });
      expect(body).toEqual({
        environment: env,
        from: '2025-03-01T00:00:00.000Z',
        to: '2025-03-05T23:59:59.999Z',
        totals: {
          views: 5,
          starts: 3,
          submissions: 3,
          flagged: 1,
          quarantined: 1,
          completionRate: 1,
          storageBytes: 0,
        },
        forms: [
          { formId: c.id, title: 'Form C', ...ZERO },
          { formId: b.id, title: 'Form B', ...ZERO, views: 2, starts: 1, completionRate: 0 },
          { ...formA, formId: a.id },
        ],
        daily: [
          { date: '2025-03-01', views: 2, starts: 1, submissions: 1 },
          { date: '2025-03-02', views: 1, starts: 1, submissions: 0 },
          { date: '2025-03-03', views: 1, starts: 1, submissions: 1 },
          { date: '2025-03-04', views: 0, starts: 0, submissions: 0 },
          { date: '2025-03-05', views: 1, starts: 0, submissions: 1 },
        ],
      });
    });

    it('form_id narrows everything to that form', async () => {
      const body = await analyticsOf(owner.token, { environment: env, form_id: b.id, ...range });
      expect(body.forms).toEqual([
        { formId: b.id, title: 'Form B', ...ZERO, views: 2, starts: 1, completionRate: 0 },
      ]);
      expect(body.totals).toEqual({ ...ZERO, views: 2, starts: 1, completionRate: 0, storageBytes: 0 });
      expect(body.daily.map((d: any) => d.views)).toEqual([0, 1, 0, 0, 1]);
    });

    it('bounds are inclusive to the millisecond; a date-time bound keeps its time', async () => {
      const body = await analyticsOf(owner.token, {
        environment: env,
        form_id: a.id,
        from: '2025-03-01T00:00:00.001Z',
        to: '2025-03-05T23:59:59.998Z',
      });
      expect(body.from).toBe('2025-03-01T00:00:00.001Z');
      expect(body.to).toBe('2025-03-05T23:59:59.998Z');
      expect(body.totals).toMatchObject({ views: 2, starts: 2, submissions: 2 });
      expect(body.daily).toHaveLength(5);
      const wide = await analyticsOf(owner.token, {
        environment: env,
        form_id: a.id,
        from: '2025-02-28T23:59:59.999Z',
        to: '2025-03-06T00:00:00.000Z',
      });
      expect(wide.totals).toMatchObject({ views: 5, starts: 2, submissions: 5 });
      expect(wide.daily.map((d: any) => d.date)).toEqual([
        '2025-02-28',
        '2025-03-01',
        '2025-03-02',
        '2025-03-03',
        '2025-03-04',
        '2025-03-05',
        '2025-03-06',
      ]);
      expect(wide.daily[0]).toEqual({ date: '2025-02-28', views: 1, starts: 0, submissions: 1 });
    });

    it('an offset in a bound is read as such: days stay UTC days', async () => {
      const body = await analyticsOf(owner.token, {
        environment: env,
        form_id: a.id,
        from: '2025-03-03T09:00:00+02:00',
        to: '2025-03-03T10:00:00-05:00',
      });
      expect(body.from).toBe('2025-03-03T07:00:00.000Z');
      expect(body.to).toBe('2025-03-03T15:00:00.000Z');
      expect(body.daily).toEqual([{ date: '2025-03-03', views: 1, starts: 1, submissions: 1 }]);
      expect(body.totals).toMatchObject({ flagged: 1, quarantined: 1 });
    });

    it('a one-day range, and a range without activity', async () => {
      const one = await analyticsOf(owner.token, { environment: env, from: '2025-03-04', to: '2025-03-04' });
      expect(one.daily).toEqual([{ date: '2025-03-04', views: 0, starts: 0, submissions: 0 }]);
      expect(one.totals).toEqual({ ...ZERO, storageBytes: 0 });
      expect(one.forms).toHaveLength(3);
    });

    it('the legacy GET /environments/{environment}/analytics answers the same, deprecated', async () => {
      const query = new URLSearchParams({ ...range, form_id: a.id });
      const legacy = await t.request({
        method: 'GET',
        url: `/environments/${env}/analytics?${query}`,
        auth: owner.token,
      });
      expect(legacy.status, legacy.text).toBe(200);
      expect(legacy.body).toEqual(
        await analyticsOf(owner.token, { environment: env, ...range, form_id: a.id }),
      );
      expect(legacy.headers.deprecation).toBe('true');
      expect(legacy.headers.link).toBe(`</analytics?environment=${env}>; rel="successor-version"`);
      const successor = await getAnalytics(owner.token, { environment: env });
      expect(successor.headers.deprecation).toBeUndefined();
    });
  });

  describe('completionRate: submissions per start, null without starts', () => {
    it.each([
      { starts: 0, submissions: 0, rate: null },
      { starts: 0, submissions: 2, rate: null },
      { starts: 4, submissions: 0, rate: 0 },
      { starts: 4, submissions: 3, rate: 0.75 },
      { starts: 3, submissions: 2, rate: 0.6667 },
      { starts: 3, submissions: 1, rate: 0.3333 },
      { starts: 2, submissions: 4, rate: 2 },
    ])('$submissions submissions, $starts starts -> $rate', async ({ starts, submissions, rate }) => {
      const { user, env } = await ownerWithEnvironment();
      const form = await liveForm(user, { environment: env });
      for (let i = 0; i < starts; i++) await insertEvent(form, 'start', '2025-06-10T10:00:00.000Z');
      for (let i = 0; i < submissions; i++) await insertSubmission(form, '2025-06-10T11:00:00.000Z');
      // quarantined submissions are not completions
      await insertSubmission(form, '2025-06-10T12:00:00.000Z', 'quarantined');
      const body = await analyticsOf(user.token, { environment: env, from: '2025-06-10', to: '2025-06-10' });
      expect(body.totals.completionRate).toBe(rate);
      expect(body.forms[0].completionRate).toBe(rate);
    });
  });

  describe('the range', () => {
    let owner: TestUser;
    beforeAll(async () => {
      owner = await signup(t);
    });

    it('defaults to the last 30 UTC days, today included, and counts what the API recorded today', async () => {
      const form = await liveForm(owner);
      const sessionId = session();
      expect((await sendEvent(form.id, { type: 'view', sessionId })).status).toBe(202);
      expect((await sendEvent(form.id, { type: 'start', sessionId })).status).toBe(202);
      const submit = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        body: { answers: { name: 'Ada', email: 'ada@example.com' }, sessionId },
      });
      expect(submit.status, submit.text).toBe(201);
      const body = await analyticsOf(owner.token, { environment: 'development' });
      const today = new Date().toISOString().slice(0, 10);
      expect(body.to).toBe(`${today}T23:59:59.999Z`);
      const first = new Date(Date.parse(today) - 29 * 86_400_000).toISOString().slice(0, 10);
      expect(body.from).toBe(`${first}T00:00:00.000Z`);
      expect(body.daily).toHaveLength(30);
      expect(body.daily[0].date).toBe(first);
      expect(body.daily[29]).toEqual({ date: today, views: 1, starts: 1, submissions: 1 });
      expect(body.totals).toEqual({
        views: 1,
        starts: 1,
        submissions: 1,
        flagged: 0,
        quarantined: 0,
        completionRate: 1,
        storageBytes: 0,
      });
    });

    it('only to: the 30 days up to it; only from: from it to the end of today', async () => {
      const onlyTo = await analyticsOf(owner.token, { environment: 'development', to: '2024-03-01' });
      expect([onlyTo.from, onlyTo.to]).toEqual(['2024-02-01T00:00:00.000Z', '2024-03-01T23:59:59.999Z']);
      expect(onlyTo.daily).toHaveLength(30);
      const from = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
      const onlyFrom = await analyticsOf(owner.token, { environment: 'development', from });
      expect(onlyFrom.from).toBe(`${from}T00:00:00.000Z`);
      expect(onlyFrom.to).toBe(`${new Date().toISOString().slice(0, 10)}T23:59:59.999Z`);
      expect(onlyFrom.daily).toHaveLength(6);
    });

    it('takes up to 366 days', async () => {
      const body = await analyticsOf(owner.token, {
        environment: 'development',
        from: '2024-01-01',
        to: '2024-12-31',
      });
      expect(body.daily).toHaveLength(366);
      expect(body.daily.at(-1).date).toBe('2024-12-31');
    });

    it.each([
      { name: 'from after to', query: { from: '2025-03-02', to: '2025-03-01' } },
      {
        name: 'from after to by a millisecond',
        query: { from: '2025-03-01T00:00:00.001Z', to: '2025-03-01T00:00:00.000Z' },
      },
      { name: '367 days', query: { from: '2024-01-01', to: '2025-01-01' } },
      { name: 'only an old from', query: { from: '2001-01-01' } },
    ])('$name: 400 invalid_parameter naming from and to', async ({ query }) => {
      const response = await getAnalytics(owner.token, { environment: 'development', ...query });
      expectProblem(response, 400, 'invalid_parameter');
      expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['from', 'to']);
    });

    it.each([
      { field: 'from', value: 'yesterday' },
      { field: 'from', value: '2025-02-30' },
      { field: 'to', value: '2025-03-01T24:00:00Z' },
      { field: 'to', value: '2025-13-01' },
      { field: 'to', value: '2'.repeat(41) },
    ])('$field=$value: 400 invalid_parameter naming $field', async ({ field, value }) => {
      const response = await getAnalytics(owner.token, { environment: 'development', [field]: value });
      expectProblem(response, 400, 'invalid_parameter');
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  });

  describe('a form that stores nothing (storage.mode "none")', () => {
    it('counts its submissions all the same, accepted and flagged, on their day; a replay once', async () => {
      const { user: owner, env } = await ownerWithEnvironment();
      const form = await liveForm(owner, {
        environment: env,
        title: 'Forwarded',
        storage: { mode: 'none' },
        spamProtection: {
          rules: [{ field: 'name', op: 'contains', value: 'flag-me' }],
          action: 'flag',
        },
      });
      const submit = async (name: string) => {
        const response = await t.request({
          method: 'POST',
          url: `/forms/${form.id}/submit`,
          body: { answers: { name, email: 'a@example.com' } },
        });
        expect(response.status, response.text).toBe(201);
        return response.body as { id: string; status: string };
      };
      await submit('Ada');
      const again = await submit('Bob');
      expect((await submit('flag-me')).status).toBe('flagged');
      expect(await sendEvent(form.id, { type: 'start', sessionId: session() })).toMatchObject({
        status: 202,
      });
      // nothing of them is stored as a submission
      const rows = await t.app.intake.database.db
        .selectFrom('submissions')
        .select('id')
        .where('form_id', '=', form.id)
        .execute();
      expect(rows).toEqual([]);
      const body = await analyticsOf(owner.token, { environment: env, form_id: form.id });
      expect(body.forms).toEqual([
        {
          formId: form.id,
          title: 'Forwarded',
          views: 0,
          starts: 1,
          submissions: 3,
          flagged: 1,
          quarantined: 0,
          completionRate: 3,
        },
      ]);
      expect(body.daily.at(-1)).toMatchObject({ submissions: 3 });
      // an idempotent retry is no new submission
      const retried = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        headers: { 'idempotency-key': 'forwarded-1' },
        body: { answers: { name: 'Cy', email: 'a@example.com' } },
      });
      const replay = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        headers: { 'idempotency-key': 'forwarded-1' },
        body: { answers: { name: 'Cy', email: 'a@example.com' } },
      });
      expect(replay.body.id).toBe(retried.body.id);
      expect(again.id).not.toBe(retried.body.id);
      const after = await analyticsOf(owner.token, { environment: env, form_id: form.id });
      expect(after.totals.submissions).toBe(4);
    });
  });

  describe('isolation', () => {
    it("never shows another user's forms, events or submissions, nor another environment's", async () => {
      const { user: owner, env } = await ownerWithEnvironment();
      const other = await signup(t);
      await createEnvironment(t, other, env);
      const mine = await liveForm(owner, { environment: env, title: 'Mine' });
      const myDevelopment = await liveForm(owner, { title: 'My development form' });
      const theirs = await liveForm(other, { environment: env, title: 'Theirs' });
      for (const form of [mine, myDevelopment, theirs]) {
        await insertEvent(form, 'view', '2025-04-02T10:00:00.000Z');
        await insertEvent(form, 'start', '2025-04-02T10:00:00.000Z');
        await insertSubmission(form, '2025-04-02T11:00:00.000Z');
      }
      await insertEvent(theirs, 'view', '2025-04-02T10:00:00.000Z');
      const range = { from: '2025-04-01', to: '2025-04-03' };
      const one = { views: 1, starts: 1, submissions: 1, flagged: 0, quarantined: 0, completionRate: 1 };

      const body = await analyticsOf(owner.token, { environment: env, ...range });
      expect(body.forms).toEqual([{ formId: mine.id, title: 'Mine', ...one }]);
      expect(body.totals).toEqual({ ...one, storageBytes: 0 });
      expect(body.daily[1]).toEqual({ date: '2025-04-02', views: 1, starts: 1, submissions: 1 });
      expect(JSON.stringify(body)).not.toContain(theirs.id);

      const theirBody = await analyticsOf(other.token, { environment: env, ...range });
      expect(theirBody.forms).toEqual([
        { formId: theirs.id, title: 'Theirs', ...one, views: 2, completionRate: 1 },
      ]);

      const development = await analyticsOf(owner.token, { environment: 'development', ...range });
      expect(development.forms.map((f: any) => f.formId)).toEqual([myDevelopment.id]);
      expect(development.totals).toEqual({ ...one, storageBytes: 0 });
    });
  });
});

// --- GET /environments/{environment}/responses (legacy) ----------------------------------------

describe('GET /environments/{environment}/responses (legacy)', () => {
  let owner: TestUser;
  let form: Form;
  beforeAll(async () => {
    owner = await signup(t);
    form = await liveForm(owner);
    for (const day of ['01', '02', '03']) await insertSubmission(form, `2025-05-${day}T10:00:00.000Z`);
    await insertSubmission(form, '2025-05-04T10:00:00.000Z', 'quarantined');
  });

  const get = (url: string, auth: string | undefined = owner.token) =>
    t.request({ method: 'GET', url, auth });

  it('answers like GET /responses?form_id=&environment=, with Deprecation and a successor Link', async () => {
    const legacy = await get(`/environments/development/responses?form_id=${form.id}`);
    const successor = await get(`/responses?form_id=${form.id}&environment=development`);
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.body).toEqual(successor.body);
    expect(legacy.body.data).toHaveLength(3);
    expect(legacy.headers.deprecation).toBe('true');
    expect(legacy.headers.link).toBe(
      `</responses?environment=development&form_id=${form.id}>; rel="successor-version"`,
    );
    expect(successor.headers.deprecation).toBeUndefined();
  });

  it('takes the same filters, pages and CSV', async () => {
    const page = await get(`/environments/development/responses?form_id=${form.id}&limit=2`);
    expect(page.body.data).toHaveLength(2);
    const next = await get(
      `/environments/development/responses?form_id=${form.id}&limit=2&cursor=${encodeURIComponent(page.body.nextCursor)}`,
    );
    expect(next.body).toEqual(
      (
        await get(
          `/responses?form_id=${form.id}&environment=development&limit=2&cursor=${encodeURIComponent(page.body.nextCursor)}`,
        )
      ).body,
    );
    const quarantined = await get(
      `/environments/development/responses?form_id=${form.id}&status=quarantined`,
    );
    expect(quarantined.body.data).toHaveLength(1);
    const csv = await get(`/environments/development/responses?form_id=${form.id}&format=csv&to=2025-05-02`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers.deprecation).toBe('true');
    expect(csv.text).toBe(
      (await get(`/responses?form_id=${form.id}&environment=development&format=csv&to=2025-05-02`)).text,
    );
    expect(csv.text.trim().split('\r\n')).toHaveLength(3);
  });

  it.each([
    {
      name: 'no credential',
      url: () => `/environments/development/responses?form_id=${form.id}`,
      anonymous: true,
      status: 401,
      code: 'unauthorized',
    },
    {
      name: 'no form_id',
      url: () => '/environments/development/responses',
      status: 400,
      code: 'invalid_parameter',
    },
    {
      name: 'an invalid environment',
      url: () => `/environments/Nope!/responses?form_id=${form.id}`,
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'another environment',
      url: () => `/environments/production/responses?form_id=${form.id}`,
      status: 403,
      code: 'form_not_in_environment',
    },
    {
      name: 'an unknown form',
      url: () => '/environments/development/responses?form_id=nope-x',
      status: 404,
      code: 'not_found',
    },
    {
      name: 'a bad limit',
      url: () => `/environments/development/responses?form_id=${form.id}&limit=0`,
      status: 400,
      code: 'invalid_parameter',
    },
  ])('$name: $status $code, as its successor', async ({ url, anonymous, status, code }) => {
    const response = await t.request({
      method: 'GET',
      url: url(),
      auth: anonymous ? undefined : owner.token,
    });
    expectProblem(response, status, code);
  });

  it("another user's session: 403 not_owner", async () => {
    const stranger = await signup(t);
    expectProblem(
      await get(`/environments/development/responses?form_id=${form.id}`, stranger.token),
      403,
      'not_owner',
    );
  });
});
