import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { newId } from '../../platform/ids.js';

/**
 * API.md §6.2: the owner's inbox. Who may read and change submissions, the list (shape,
 * order, limit, keyset pagination stable while submissions arrive, filters), single reads,
 * read/unread, star, notes and delete.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(async () => {
  await t.close();
});

const SUBMISSION_KEYS = [
  'answers',
  'createdAt',
  'environment',
  'formId',
  'id',
  'notes',
  'read',
  'sessionId',
  'starred',
  'status',
].sort();

type Status = 'accepted' | 'flagged' | 'quarantined';

interface Owner {
  user: TestUser;
  form: any;
}

async function liveForm(user: TestUser, overrides: Record<string, unknown> = {}): Promise<any> {
  return createForm(t, user.token, { status: 'live', ...overrides });
}

async function owner(overrides: Record<string, unknown> = {}): Promise<Owner> {
  const user = await signup(t);
  return { user, form: await liveForm(user, overrides) };
}

let counter = 0;
const answersFor = (label = `Person ${++counter}`) => ({ name: label, email: `p${counter}@example.com` });

/** One anonymous submission through the API; its id. */
async function submitOne(
  form: any,
  body: Record<string, unknown> = { answers: answersFor() },
): Promise<string> {
  const response = await t.request({ method: 'POST', url: `/forms/${form.id}/submit`, body });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

/** A submission written straight into the database, with the creation time (and id) the test needs. */
async function insertRow(
  form: any,
  row: {
    createdAt: string;
    id?: string;
    status?: Status;
    read?: boolean;
    starred?: boolean;
    answers?: Record<string, unknown>;
  },
): Promise<string> {
  const id = row.id ?? newId('sub');
  await t.app.intake.database.db
    .insertInto('submissions')
    .values({
      id,
      user_id: form.userId,
      environment: form.environment,
      form_id: form.id,
      form_version: form.version,
      answers: JSON.stringify(row.answers ?? { name: `Row ${id}` }),
      session_id: null,
      status: row.status ?? 'accepted',
      read: row.read ? 1 : 0,
      starred: row.starred ? 1 : 0,
      created_at: row.createdAt,
    })
    .execute();
  return id;
}

function listUrl(form: any, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ form_id: form.id, environment: form.environment, ...query });
  return `/responses?${params}`;
}

async function list(auth: string, form: any, query: Record<string, string> = {}): Promise<Response> {
  return t.request({ method: 'GET', url: listUrl(form, query), auth });
}

/** The ids of a successful list. */
async function listIds(auth: string, form: any, query: Record<string, string> = {}): Promise<string[]> {
  const response = await list(auth, form, query);
  expect(response.status, response.text).toBe(200);
  return response.body.data.map((item: any) => item.id);
}

/** Every page of a list, following nextCursor. */
async function allPages(auth: string, form: any, query: Record<string, string> = {}): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const response = await list(auth, form, cursor ? { ...query, cursor } : query);
    expect(response.status, response.text).toBe(200);
    pages.push(response.body.data.map((item: any) => item.id));
    cursor = response.body.nextCursor;
    expect(pages.length).toBeLessThan(1000);
  } while (cursor !== null);
  return pages;
}

async function readOne(auth: string, form: any, id: string): Promise<Response> {
  return t.request({
    method: 'GET',
    url: `/responses/${id}?form_id=${form.id}&environment=${form.environment}`,
    auth,
  });
}

/** The stored row, read behind the API's back. */
async function storedRow(id: string) {
  return t.app.intake.database.db
    .selectFrom('submissions')
    .select(['id', 'read', 'starred'])
    .where('id', '=', id)
    .executeTakeFirst();
}

async function noteCount(id: string): Promise<number> {
  const rows = await t.app.intake.database.db
    .selectFrom('submission_notes')
    .select('id')
    .where('submission_id', '=', id)
    .execute();
  return rows.length;
}

/** Newest first: createdAt desc, then id desc. */
const newestFirst = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }) =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

// --- who may do what -------------------------------------------------------------------------

type Endpoint = 'list' | 'get' | 'read' | 'star' | 'notes' | 'delete';
const ENDPOINTS: Endpoint[] = ['list', 'get', 'read', 'star', 'notes', 'delete'];

function call(
  endpoint: Endpoint,
  auth: string | undefined,
  form: any,
  id: string,
  query = `form_id=${form.id}&environment=${form.environment}`,
): Promise<Response> {
  switch (endpoint) {
    case 'list':
      return t.request({ method: 'GET', url: `/responses?${query}`, auth });
    case 'get':
      return t.request({ method: 'GET', url: `/responses/${id}?${query}`, auth });
    case 'read':
      return t.request({ method: 'POST', url: `/responses/${id}/read?${query}`, auth });
    case 'star':
      return t.request({
        method: 'POST',
        url: `/responses/${id}/star?${query}`,
        auth,
        body: { starred: true },
      });
    case 'notes':
      return t.request({
        method: 'POST',
        url: `/responses/${id}/notes?${query}`,
        auth,
        body: { text: 'a note' },
      });
    case 'delete':
      return t.request({ method: 'DELETE', url: `/responses/${id}?${query}`, auth });
  }
}

/** The submission is exactly as it was created: unread, not starred, no notes, still there. */
async function expectUntouched(id: string): Promise<void> {
  expect(await storedRow(id)).toEqual({ id, read: 0, starred: 0 });
  expect(await noteCount(id)).toBe(0);
}

function expectSuccess(endpoint: Endpoint, response: Response, id: string): void {
  if (endpoint === 'delete') {
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');
    return;
  }
  expect(response.status, response.text).toBe(200);
  if (endpoint === 'list') expect(response.body.data.map((item: any) => item.id)).toContain(id);
  else expect(response.body.id).toBe(id);
}

describe('who may read and change submissions', () => {
  let a: Owner;
  let b: Owner;
  let aSecret: string;
  let aSecretProduction: string;
  let aPublishable: string;
  let bSecret: string;
  const SECRET_ANSWER = 'Ada the secret submitter';

  beforeAll(async () => {
    a = await owner();
    b = await owner();
    aSecret = (await createKey(t, a.user, 'secret')).key;
    aSecretProduction = (await createKey(t, a.user, 'secret', 'production')).key;
    aPublishable = (await createKey(t, a.user, 'publishable')).key;
    bSecret = (await createKey(t, b.user, 'secret')).key;
  });

  const fresh = () => submitOne(a.form, { answers: { name: SECRET_ANSWER, email: 'ada@example.com' } });

  const denials: Array<[string, () => string | undefined, number, string]> = [
    ['no credential', () => undefined, 401, 'unauthorized'],
    ['an unknown token', () => 'not-a-real-token-0123456789', 401, 'unauthorized'],
    ['an unknown secret key', () => 'sk_live_000000000000000000000000000000000000', 401, 'unauthorized'],
    ["another user's session", () => b.user.token, 403, 'not_owner'],
    ["a publishable key of the form's environment", () => aPublishable, 403, 'forbidden'],
    ["the owner's secret key of another environment", () => aSecretProduction, 403, 'forbidden'],
    ["another user's secret key", () => bSecret, 403, 'forbidden'],
  ];

  describe.each(ENDPOINTS)('%s', (endpoint) => {
    it.each(denials)('%s → %i %s, and nothing changes or leaks', async (_name, auth, status, code) => {
      const id = await fresh();
      const response = await call(endpoint, auth(), a.form, id);
      expectProblem(response, status, code);
      expect(response.text).not.toContain(SECRET_ANSWER);
      expect(response.text).not.toContain('ada@example.com');
      await expectUntouched(id);
    });

    it("the owner's session may", async () => {
      const id = await fresh();
      expectSuccess(endpoint, await call(endpoint, a.user.token, a.form, id), id);
    });

    it("a secret key of the form's environment may", async () => {
      const id = await fresh();
      expectSuccess(endpoint, await call(endpoint, aSecret, a.form, id), id);
    });

    it('an unknown form → 404 not_found', async () => {
      const id = await fresh();
      const response = await call(
        endpoint,
        a.user.token,
        a.form,
        id,
        'form_id=frm_nope&environment=development',
      );
      expectProblem(response, 404, 'not_found');
      await expectUntouched(id);
    });

    it('a form of another environment than `environment` → 403 form_not_in_environment', async () => {
      const id = await fresh();
      const response = await call(
        endpoint,
        a.user.token,
        a.form,
        id,
        `form_id=${a.form.id}&environment=production`,
      );
      expectProblem(response, 403, 'form_not_in_environment');
      await expectUntouched(id);
    });

    it('an invalid environment name → 400 invalid_environment', async () => {
      const id = await fresh();
      const response = await call(
        endpoint,
        a.user.token,
        a.form,
        id,
        `form_id=${a.form.id}&environment=Not%20Valid`,
      );
      expectProblem(response, 400, 'invalid_environment');
      await expectUntouched(id);
    });
  });

  describe.each(['get', 'read', 'star', 'notes', 'delete'] as const)('%s of one submission', (endpoint) => {
    it('an unknown submission → 404 not_found', async () => {
      expectProblem(await call(endpoint, a.user.token, a.form, 'sub_doesnotexist'), 404, 'not_found');
      expectProblem(await call(endpoint, aSecret, a.form, 'sub_doesnotexist'), 404, 'not_found');
    });

    it("another user's submission named with the caller's own form → 404, unchanged", async () => {
      const id = await fresh();
      const response = await call(endpoint, b.user.token, b.form, id);
      expectProblem(response, 404, 'not_found');
      expect(response.text).not.toContain(SECRET_ANSWER);
      await expectUntouched(id);
    });

    it("a submission of the owner's other form named with form_id of this one → 404", async () => {
      const other = await liveForm(a.user);
      const id = await fresh();
      const response = await call(endpoint, a.user.token, other, id);
      expectProblem(response, 404, 'not_found');
      await expectUntouched(id);
    });
  });

  describe.each(['read', 'star', 'notes', 'delete'] as const)('%s without a scope', (endpoint) => {
    it('the owner may name the submission by id alone', async () => {
      const id = await fresh();
      expectSuccess(endpoint, await call(endpoint, a.user.token, a.form, id, ''), id);
    });

    it('a right environment alone is accepted, a wrong one is 403 form_not_in_environment', async () => {
      const id = await fresh();
      expectProblem(
        await call(endpoint, a.user.token, a.form, id, 'environment=production'),
        403,
        'form_not_in_environment',
      );
      await expectUntouched(id);
      expectSuccess(endpoint, await call(endpoint, a.user.token, a.form, id, 'environment=development'), id);
    });

    it.each<[string, () => string | undefined, number, string]>([
      ["another user's session", () => b.user.token, 403, 'not_owner'],
      ["another user's secret key", () => bSecret, 403, 'forbidden'],
      ['a publishable key', () => aPublishable, 403, 'forbidden'],
      ['no credential', () => undefined, 401, 'unauthorized'],
    ])('guessing the id with %s → %i %s, unchanged', async (_name, auth, status, code) => {
      const id = await fresh();
      const response = await call(endpoint, auth(), a.form, id, '');
      expectProblem(response, status, code);
      expect(response.text).not.toContain(SECRET_ANSWER);
      await expectUntouched(id);
    });
  });

  it.each([
    ['form_id missing', (form: any) => `environment=${form.environment}`, 'invalid_parameter'],
    ['form_id empty', (form: any) => `form_id=&environment=${form.environment}`, 'invalid_parameter'],
    ['environment missing', (form: any) => `form_id=${form.id}`, 'invalid_environment'],
    ['environment empty', (form: any) => `form_id=${form.id}&environment=`, 'invalid_environment'],
    [
      'format=xml',
      (form: any) => `form_id=${form.id}&environment=${form.environment}&format=xml`,
      'invalid_parameter',
    ],
    [
      'format=json',
      (form: any) => `form_id=${form.id}&environment=${form.environment}&format=json`,
      'invalid_parameter',
    ],
  ])('list with %s → 400 %s', async (_name, query, code) => {
    const response = await t.request({
      method: 'GET',
      url: `/responses?${query(a.form)}`,
      auth: a.user.token,
    });
    expectProblem(response, 400, code);
  });

  it.each([
    ['form_id missing', (form: any) => `environment=${form.environment}`, 'invalid_parameter'],
    ['environment missing', (form: any) => `form_id=${form.id}`, 'invalid_environment'],
  ])('single read with %s → 400 %s', async (_name, query, code) => {
    const id = await fresh();
    const response = await t.request({
      method: 'GET',
      url: `/responses/${id}?${query(a.form)}`,
      auth: a.user.token,
    });
    expectProblem(response, 400, code);
  });

  it("one user's list never shows another user's submissions", async () => {
    const aId = await fresh();
    const bId = await submitOne(b.form);
    const aIds = await listIds(a.user.token, a.form);
    const bIds = await listIds(b.user.token, b.form);
    expect(aIds).toContain(aId);
    expect(aIds).not.toContain(bId);
    expect(bIds).toEqual([bId]);
  });
});

// --- the list ----------------------------------------------------------------------------------

describe('the list', () => {
  it('shows each submission in full, newest first', async () => {
    const { user, form } = await owner();
    const first = await submitOne(form, {
      answers: { name: 'First', email: 'first@example.com', topic: 'sales' },
      sessionId: 'session-1',
    });
    const second = await submitOne(form, {
      answers: { name: 'Second', email: 'second@example.com', message: 'Hello' },
    });
    const response = await list(user.token, form);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'nextCursor']);
    expect(response.body.nextCursor).toBeNull();
    const [newest, oldest] = response.body.data;
    expect(response.body.data).toHaveLength(2);
    for (const item of response.body.data) expect(Object.keys(item).sort()).toEqual(SUBMISSION_KEYS);
    expect(newest).toEqual({
      id: second,
      formId: form.id,
      environment: 'development',
      answers: { name: 'Second', email: 'second@example.com', message: 'Hello' },
      sessionId: null,
      status: 'accepted',
      read: false,
      starred: false,
      notes: [],
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(oldest).toEqual({
      id: first,
      formId: form.id,
      environment: 'development',
      answers: { name: 'First', email: 'first@example.com', topic: 'sales' },
      sessionId: 'session-1',
      status: 'accepted',
      read: false,
      starred: false,
      notes: [],
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(oldest.createdAt <= newest.createdAt).toBe(true);
  });

  it('orders by createdAt desc, then id desc', async () => {
    const { user, form } = await owner();
    const rows = [
      { createdAt: '2026-05-01T10:00:00.000Z', id: 'sub_order_0003' },
      { createdAt: '2026-05-01T10:00:00.000Z', id: 'sub_order_0001' },
      { createdAt: '2026-05-01T10:00:00.000Z', id: 'sub_order_0002' },
      { createdAt: '2026-05-01T09:59:59.999Z', id: 'sub_order_0009' },
      { createdAt: '2026-05-01T10:00:00.001Z', id: 'sub_order_0000' },
      { createdAt: '2025-12-31T23:59:59.999Z', id: 'sub_order_0005' },
    ];
    for (const row of rows) await insertRow(form, row);
    expect(await listIds(user.token, form)).toEqual([
      'sub_order_0000',
      'sub_order_0003',
      'sub_order_0002',
      'sub_order_0001',
      'sub_order_0009',
      'sub_order_0005',
    ]);
    // the same order across pages of one
    expect((await allPages(user.token, form, { limit: '1' })).flat()).toEqual(
      [...rows].sort(newestFirst).map((row) => row.id),
    );
  });

  it('an empty inbox is an empty list', async () => {
    const { user, form } = await owner();
    const response = await list(user.token, form);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], nextCursor: null });
  });

  describe('limit', () => {
    let o: Owner;
    beforeAll(async () => {
      o = await owner();
      const base = Date.parse('2026-06-01T00:00:00.000Z');
      for (let i = 0; i < 101; i++)
        await insertRow(o.form, { createdAt: new Date(base + i * 1000).toISOString() });
    });

    it('defaults to 50', async () => {
      const response = await list(o.user.token, o.form);
      expect(response.body.data).toHaveLength(50);
      expect(response.body.nextCursor).toEqual(expect.any(String));
    });

    it.each([1, 2, 50, 99, 100])('limit=%i gives that many', async (limit) => {
      const response = await list(o.user.token, o.form, { limit: String(limit) });
      expect(response.status).toBe(200);
      expect(response.body.data).toHaveLength(limit);
      expect(response.body.nextCursor).toEqual(expect.any(String));
    });

    it.each(['0', '101', 'abc', '-1', '1.5', '', '1e3'])(
      'limit=%s → 400 invalid_parameter',
      async (limit) => {
        expectProblem(await list(o.user.token, o.form, { limit }), 400, 'invalid_parameter');
      },
    );

    it.each(['garbage', 'eyJub3QiOiJ0aGlzIn0', '!!!'])(
      'cursor=%s → 400 invalid_parameter',
      async (cursor) => {
        expectProblem(await list(o.user.token, o.form, { cursor }), 400, 'invalid_parameter');
      },
    );

    it('the last page has nextCursor null', async () => {
      const pages = await allPages(o.user.token, o.form, { limit: '50' });
      expect(pages.map((page) => page.length)).toEqual([50, 50, 1]);
      expect(new Set(pages.flat()).size).toBe(101);
    });

    it('a page that ends exactly at the last row says so (no empty page after it)', async () => {
      const { user, form } = await owner();
      for (let i = 0; i < 4; i++) await insertRow(form, { createdAt: `2026-06-02T00:00:0${i}.000Z` });
      expect((await allPages(user.token, form, { limit: '2' })).map((page) => page.length)).toEqual([2, 2]);
      expect((await allPages(user.token, form, { limit: '4' })).map((page) => page.length)).toEqual([4]);
    });
  });
});

describe('keyset pagination', () => {
  it('walks every submission once, in order, for every page size', async () => {
    const { user, form } = await owner();
    const base = Date.parse('2026-04-01T08:00:00.000Z');
    const rows: Array<{ createdAt: string; id: string }> = [];
    for (let i = 0; i < 23; i++) {
      // runs of equal timestamps, so pages also break inside a tie
      const createdAt = new Date(base + Math.floor(i / 4) * 1000).toISOString();
      rows.push({ createdAt, id: await insertRow(form, { createdAt }) });
    }
    const expected = [...rows].sort(newestFirst).map((row) => row.id);
    for (const limit of [1, 3, 4, 5, 22, 23, 100]) {
      const pages = await allPages(user.token, form, { limit: String(limit) });
      expect(pages.flat(), `limit ${limit}`).toEqual(expected);
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    }
  });

  it('is stable while submissions arrive: the pages after the first hold exactly the original set', async () => {
    const { user, form } = await owner();
    const original: string[] = [];
    for (let i = 0; i < 17; i++) original.push(await submitOne(form));

    const first = await list(user.token, form, { limit: '5' });
    expect(first.status).toBe(200);
    const seen: string[] = first.body.data.map((item: any) => item.id);
    let cursor: string | null = first.body.nextCursor;
    const arrivals: string[] = [];
    while (cursor !== null) {
      // new submissions arrive while the next page is read
      const [page, ...arrived] = await Promise.all([
        list(user.token, form, { limit: '5', cursor }),
        submitOne(form),
        submitOne(form),
        submitOne(form),
      ]);
      arrivals.push(...(arrived as string[]));
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((item: any) => item.id));
      cursor = page.body.nextCursor;
    }
    expect(seen).toHaveLength(original.length);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...original].reverse());
    // the arrivals were stored, and a new walk starts with them
    const all = (await allPages(user.token, form, { limit: '100' })).flat();
    expect(all).toHaveLength(original.length + arrivals.length);
    expect(new Set(all.slice(0, arrivals.length))).toEqual(new Set(arrivals));
  });

  it('a row that arrives with the timestamp of the cursor sorts before it and never shows up later', async () => {
    const { user, form } = await owner();
    const createdAt = '2026-04-02T12:00:00.000Z';
    for (let i = 0; i < 6; i++)
      await insertRow(form, { createdAt, id: `sub_tie_${String(i).padStart(4, '0')}` });
    const first = await list(user.token, form, { limit: '3' });
    expect(first.body.data.map((item: any) => item.id)).toEqual([
      'sub_tie_0005',
      'sub_tie_0004',
      'sub_tie_0003',
    ]);
    // arrives in the same millisecond, with a later id (as the monotonic ids give)
    await insertRow(form, { createdAt, id: 'sub_tie_0099' });
    await insertRow(form, { createdAt: '2026-04-02T12:00:00.001Z' });
    const rest = await allPages(user.token, form, { limit: '3', cursor: first.body.nextCursor });
    expect(rest.flat()).toEqual(['sub_tie_0002', 'sub_tie_0001', 'sub_tie_0000']);
  });
});

// --- filters -----------------------------------------------------------------------------------

describe('from and to', () => {
  let o: Owner;
  const at: Record<string, string> = {};
  const TIMES = {
    feb28End: '2026-02-28T23:59:59.999Z',
    mar1Start: '2026-03-01T00:00:00.000Z',
    mar1Noon: '2026-03-01T12:00:00.000Z',
    mar1NoonAndABit: '2026-03-01T12:00:00.500Z',
    mar1End: '2026-03-01T23:59:59.999Z',
    mar2Start: '2026-03-02T00:00:00.000Z',
  };

  beforeAll(async () => {
    o = await owner();
    for (const [name, createdAt] of Object.entries(TIMES)) at[name] = await insertRow(o.form, { createdAt });
  });

  const ids = (...names: Array<keyof typeof TIMES>) =>
    names
      .map((name) => ({ id: at[name] as string, createdAt: TIMES[name] }))
      .sort(newestFirst)
      .map((r) => r.id);

  it.each([
    [{ from: '2026-03-01', to: '2026-03-01' }, ['mar1Start', 'mar1Noon', 'mar1NoonAndABit', 'mar1End']],
    [{ to: '2026-03-01' }, ['feb28End', 'mar1Start', 'mar1Noon', 'mar1NoonAndABit', 'mar1End']],
    [{ to: '2026-02-28' }, ['feb28End']],
    [{ from: '2026-03-02' }, ['mar2Start']],
    [{ from: '2026-03-03' }, []],
    [{ from: '2026-03-01T12:00:00.000Z' }, ['mar1Noon', 'mar1NoonAndABit', 'mar1End', 'mar2Start']],
    [{ from: '2026-03-01T12:00:00.001Z' }, ['mar1NoonAndABit', 'mar1End', 'mar2Start']],
    [{ to: '2026-03-01T12:00:00.000Z' }, ['feb28End', 'mar1Start', 'mar1Noon']],
    [{ to: '2026-03-01T12:00:00Z' }, ['feb28End', 'mar1Start', 'mar1Noon']],
    [{ from: '2026-03-01T12:00:00Z', to: '2026-03-01T12:00:00.000Z' }, ['mar1Noon']],
    [
      { from: '2026-03-01T13:00:00+01:00', to: '2026-03-01T13:00:00.500+01:00' },
      ['mar1Noon', 'mar1NoonAndABit'],
    ],
    [
      { from: '2026-03-01T00:00:00.000Z', to: '2026-03-01T23:59:59.999Z' },
      ['mar1Start', 'mar1Noon', 'mar1NoonAndABit', 'mar1End'],
    ],
    [{ from: '2026-03-01T23:59:59.999Z', to: '2026-03-02T00:00:00Z' }, ['mar1End', 'mar2Start']],
    [{ from: '2026-03-02', to: '2026-03-01' }, []],
  ] as const)('%o', async (query, names) => {
    expect(await listIds(o.user.token, o.form, query)).toEqual(ids(...names));
  });

  it('a date-time without an offset is UTC, whatever the time zone of the server', async () => {
    const previous = process.env.TZ;
    process.env.TZ = 'Asia/Tokyo';
    try {
      expect(new Date(2026, 0, 1).getTimezoneOffset()).toBe(-540);
      expect(
        await listIds(o.user.token, o.form, { from: '2026-03-01T12:00:00', to: '2026-03-01T12:00' }),
      ).toEqual(ids('mar1Noon'));
      expect(await listIds(o.user.token, o.form, { to: '2026-03-01' })).toEqual(
        ids('feb28End', 'mar1Start', 'mar1Noon', 'mar1NoonAndABit', 'mar1End'),
      );
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it('pagination keeps the bounds', async () => {
    const pages = await allPages(o.user.token, o.form, { from: '2026-03-01', to: '2026-03-01', limit: '1' });
    expect(pages.flat()).toEqual(ids('mar1Start', 'mar1Noon', 'mar1NoonAndABit', 'mar1End'));
  });

  it.each([
    ['from', 'yesterday'],
    ['from', '2026-13-01'],
    ['from', '2026-02-30'],
    ['to', '2026-02-29'],
    ['from', '2026-3-1'],
    ['to', '2026-03-01T25:00:00Z'],
    ['to', '2026-03-01T12:60:00Z'],
    ['to', '2026-03-01T12:00:00 garbage'],
    ['from', '12345'],
    ['from', '2026-03-01T'],
    ['to', '01/03/2026'],
    ['to', 'Sun, 01 Mar 2026 12:00:00 GMT'],
  ])('%s=%s → 400 invalid_parameter', async (name, value) => {
    const response = await list(o.user.token, o.form, { [name]: value });
    expectProblem(response, 400, 'invalid_parameter');
    expect(response.body.errors).toEqual([expect.objectContaining({ field: name })]);
  });
});

describe('status', () => {
  let o: Owner;
  const byStatus: Record<Status, string[]> = { accepted: [], flagged: [], quarantined: [] };

  beforeAll(async () => {
    o = await owner();
    const base = Date.parse('2026-07-01T00:00:00.000Z');
    const statuses: Status[] = [
      'accepted',
      'quarantined',
      'flagged',
      'accepted',
      'quarantined',
      'flagged',
      'accepted',
    ];
    for (const [i, status] of statuses.entries()) {
      byStatus[status].unshift(
        await insertRow(o.form, { createdAt: new Date(base + i * 60_000).toISOString(), status }),
      );
    }
  });

  it('the default list leaves quarantined submissions out', async () => {
    const ids = await listIds(o.user.token, o.form);
    expect(new Set(ids)).toEqual(new Set([...byStatus.accepted, ...byStatus.flagged]));
    for (const id of byStatus.quarantined) expect(ids).not.toContain(id);
  });

  it.each(['accepted', 'flagged', 'quarantined'] as const)('status=%s shows only those', async (status) => {
    const response = await list(o.user.token, o.form, { status });
    expect(response.body.data.map((item: any) => item.id)).toEqual(byStatus[status]);
    expect(response.body.data.every((item: any) => item.status === status)).toBe(true);
  });

  it('a quarantined submission is readable by itself', async () => {
    const id = byStatus.quarantined[0] as string;
    const response = await readOne(o.user.token, o.form, id);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('quarantined');
  });

  it.each(['spam', 'ACCEPTED', ''])('status=%s → 400 invalid_parameter', async (status) => {
    expectProblem(await list(o.user.token, o.form, { status }), 400, 'invalid_parameter');
  });

  it('spam quarantined by the submit path is left out by default and shown with status=quarantined', async () => {
    const { user, form } = await owner({
      spamProtection: { honeypot: { field: 'website' }, action: 'quarantine' },
    });
    const good = await submitOne(form);
    const spam = await submitOne(form, { answers: { ...answersFor(), website: 'http://spam.example' } });
    expect(await listIds(user.token, form)).toEqual([good]);
    expect(await listIds(user.token, form, { status: 'quarantined' })).toEqual([spam]);
  });

  it('flagged spam is in the default list', async () => {
    const { user, form } = await owner({
      spamProtection: { honeypot: { field: 'website' }, action: 'flag' },
    });
    const good = await submitOne(form);
    const spam = await submitOne(form, { answers: { ...answersFor(), website: 'http://spam.example' } });
    const response = await list(user.token, form);
    expect(response.body.data.map((item: any) => [item.id, item.status])).toEqual([
      [spam, 'flagged'],
      [good, 'accepted'],
    ]);
  });
});

describe('starred and read', () => {
  let o: Owner;
  const ids: Record<'plain' | 'starred' | 'read' | 'both', string> = {
    plain: '',
    starred: '',
    read: '',
    both: '',
  };

  beforeAll(async () => {
    o = await owner();
    for (const name of ['plain', 'starred', 'read', 'both'] as const) ids[name] = await submitOne(o.form);
    const post = (id: string, action: string, body?: unknown) =>
      t.request({ method: 'POST', url: `/responses/${id}/${action}`, auth: o.user.token, body });
    expect((await post(ids.starred, 'star', { starred: true })).status).toBe(200);
    expect((await post(ids.read, 'read')).status).toBe(200);
    expect((await post(ids.both, 'star', { starred: true })).status).toBe(200);
    expect((await post(ids.both, 'read')).status).toBe(200);
  });

  const newest = (...names: Array<keyof typeof ids>) =>
    (['both', 'read', 'starred', 'plain'] as const)
      .filter((name) => names.includes(name))
      .map((name) => ids[name]);

  it.each([
    [{}, ['plain', 'starred', 'read', 'both']],
    [{ starred: 'true' }, ['starred', 'both']],
    [{ starred: 'false' }, ['plain', 'read']],
    [{ read: 'true' }, ['read', 'both']],
    [{ read: 'false' }, ['plain', 'starred']],
    [{ starred: 'true', read: 'false' }, ['starred']],
    [{ starred: 'false', read: 'false' }, ['plain']],
    [{ starred: 'true', read: 'true' }, ['both']],
  ] as Array<[Record<string, string>, Array<keyof typeof ids>]>)('%o', async (query, names) => {
    expect(await listIds(o.user.token, o.form, query)).toEqual(newest(...names));
  });

  it.each([
    ['starred', 'yes'],
    ['starred', '2'],
    ['read', 'maybe'],
  ])('%s=%s → 400 invalid_parameter', async (name, value) => {
    expectProblem(await list(o.user.token, o.form, { [name]: value }), 400, 'invalid_parameter');
  });
});

// --- one submission -----------------------------------------------------------------------------

describe('one submission', () => {
  it('reads the same submission the list shows', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form, {
      answers: { name: 'Solo', email: 'solo@example.com' },
      sessionId: 's-9',
    });
    const single = await readOne(user.token, form, id);
    expect(single.status).toBe(200);
    expect(Object.keys(single.body).sort()).toEqual(SUBMISSION_KEYS);
    const listed = (await list(user.token, form)).body.data[0];
    expect(single.body).toEqual(listed);
    expect(single.body).toMatchObject({
      id,
      formId: form.id,
      environment: 'development',
      answers: { name: 'Solo', email: 'solo@example.com' },
      sessionId: 's-9',
      status: 'accepted',
    });
  });

  it('read: no body marks it read, {read:false} unread, {read:true} read again', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const post = (body?: unknown, headers?: Record<string, string>) =>
      t.request({ method: 'POST', url: `/responses/${id}/read`, auth: user.token, body, headers });

    const marked = await post();
    expect(marked.status, marked.text).toBe(200);
    expect(marked.body).toMatchObject({ id, read: true, starred: false });
    expect((await readOne(user.token, form, id)).body.read).toBe(true);

    const unread = await post({ read: false });
    expect(unread.status).toBe(200);
    expect(unread.body.read).toBe(false);
    expect((await readOne(user.token, form, id)).body.read).toBe(false);

    expect((await post({})).body.read).toBe(true);
    expect((await post({ read: false })).body.read).toBe(false);
    expect((await post({ read: true })).body.read).toBe(true);
    expect(await storedRow(id)).toEqual({ id, read: 1, starred: 0 });
  });

  it('read: an empty body sent as JSON counts as no body', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const response = await t.request({
      method: 'POST',
      url: `/responses/${id}/read`,
      auth: user.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.read).toBe(true);
  });

  it.each([[{ read: 'no' }], [{ read: 0 }], [{ unread: true }], [[]], ['"x"']])(
    'read with body %j → 400 validation_failed',
    async (body) => {
      const { user, form } = await owner();
      const id = await submitOne(form);
      const response = await t.request({
        method: 'POST',
        url: `/responses/${id}/read`,
        auth: user.token,
        body,
      });
      expectProblem(response, 400, 'validation_failed');
      await expectUntouched(id);
    },
  );

  it('star: {starred:true} stars, {starred:false} unstars', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const star = (starred: boolean) =>
      t.request({ method: 'POST', url: `/responses/${id}/star`, auth: user.token, body: { starred } });
    const starred = await star(true);
    expect(starred.status).toBe(200);
    expect(starred.body).toMatchObject({ id, starred: true, read: false });
    expect((await readOne(user.token, form, id)).body.starred).toBe(true);
    expect((await star(true)).body.starred).toBe(true);
    const unstarred = await star(false);
    expect(unstarred.body.starred).toBe(false);
    expect((await readOne(user.token, form, id)).body.starred).toBe(false);
  });

  it.each([[{}], [{ starred: 'true' }], [{ starred: 1 }], [{ starred: true, extra: 1 }], [undefined]])(
    'star with body %j → 400 validation_failed',
    async (body) => {
      const { user, form } = await owner();
      const id = await submitOne(form);
      const response = await t.request({
        method: 'POST',
        url: `/responses/${id}/star`,
        auth: user.token,
        body,
      });
      expectProblem(response, 400, 'validation_failed');
      await expectUntouched(id);
    },
  );

  it('notes: kept in order, shown in the single read and in the list', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const other = await submitOne(form);
    const texts = ['First call: no answer', 'Second call', 'x', 'Émilie 😀 — « ok »', 'fifth'];
    let last: Response | undefined;
    for (const text of texts) {
      last = await t.request({
        method: 'POST',
        url: `/responses/${id}/notes`,
        auth: user.token,
        body: { text },
      });
      expect(last.status, last.text).toBe(200);
    }
    expect(last?.body.id).toBe(id);
    expect(last?.body.notes.map((note: any) => note.text)).toEqual(texts);
    for (const note of last?.body.notes ?? []) {
      expect(Object.keys(note).sort()).toEqual(['createdAt', 'id', 'text']);
      expect(note.createdAt).toMatch(ISO_MS);
    }
    expect(new Set(last?.body.notes.map((note: any) => note.id)).size).toBe(texts.length);

    const single = await readOne(user.token, form, id);
    expect(single.body.notes).toEqual(last?.body.notes);
    const listed = (await list(user.token, form)).body.data;
    expect(listed.find((item: any) => item.id === id).notes).toEqual(last?.body.notes);
    expect(listed.find((item: any) => item.id === other).notes).toEqual([]);
  });

  it('notes: the first note comes back in the answer of the POST', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const response = await t.request({
      method: 'POST',
      url: `/responses/${id}/notes`,
      auth: user.token,
      body: { text: 'only' },
    });
    expect(response.body.notes).toEqual([
      { id: expect.any(String), text: 'only', createdAt: expect.stringMatching(ISO_MS) },
    ]);
  });

  it('notes: 10000 characters are accepted', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const text = 'n'.repeat(10_000);
    const response = await t.request({
      method: 'POST',
      url: `/responses/${id}/notes`,
      auth: user.token,
      body: { text },
    });
    expect(response.status).toBe(200);
    expect(response.body.notes[0].text).toBe(text);
  });

  it.each([
    ['empty', { text: '' }],
    ['blank', { text: '   ' }],
    ['only line breaks and tabs', { text: '\n\t\r\n' }],
    ['10001 characters', { text: 'n'.repeat(10_001) }],
    ['not a string', { text: 5 }],
    ['missing', {}],
    ['an unknown member', { text: 'ok', pinned: true }],
  ])('notes: %s → 400 validation_failed, nothing stored', async (_name, body) => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const response = await t.request({
      method: 'POST',
      url: `/responses/${id}/notes`,
      auth: user.token,
      body,
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: expect.any(String) })]),
    );
    expect(await noteCount(id)).toBe(0);
  });

  it('delete: 204, then 404 everywhere, and its notes go with it', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    const kept = await submitOne(form);
    await t.request({
      method: 'POST',
      url: `/responses/${id}/notes`,
      auth: user.token,
      body: { text: 'bye' },
    });
    expect(await noteCount(id)).toBe(1);

    const deleted = await t.request({ method: 'DELETE', url: `/responses/${id}`, auth: user.token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await storedRow(id)).toBeUndefined();
    expect(await noteCount(id)).toBe(0);

    expectProblem(await readOne(user.token, form, id), 404, 'not_found');
    expectProblem(
      await t.request({ method: 'DELETE', url: `/responses/${id}`, auth: user.token }),
      404,
      'not_found',
    );
    expectProblem(
      await t.request({ method: 'POST', url: `/responses/${id}/read`, auth: user.token }),
      404,
      'not_found',
    );
    expect(await listIds(user.token, form)).toEqual([kept]);
  });

  it('delete with a scope checks it', async () => {
    const { user, form } = await owner();
    const id = await submitOne(form);
    expectProblem(
      await t.request({
        method: 'DELETE',
        url: `/responses/${id}?form_id=${form.id}&environment=production`,
        auth: user.token,
      }),
      403,
      'form_not_in_environment',
    );
    expect(await storedRow(id)).toBeDefined();
    const deleted = await t.request({
      method: 'DELETE',
      url: `/responses/${id}?form_id=${form.id}&environment=development`,
      auth: user.token,
    });
    expect(deleted.status).toBe(204);
    expect(await storedRow(id)).toBeUndefined();
  });

  it('a secret key of a non-default environment manages that environment only', async () => {
    const user = await signup(t);
    const created = await t.request({
      method: 'POST',
      url: '/environments',
      auth: user.token,
      body: { name: 'staging' },
    });
    expect(created.status).toBe(201);
    const form = await createForm(t, user.token, { status: 'live', environment: 'staging' });
    const id = await submitOne(form);
    const staging = (await createKey(t, user, 'secret', 'staging')).key;
    const development = (await createKey(t, user, 'secret', 'development')).key;
    expect(await listIds(staging, form)).toEqual([id]);
    expectProblem(await list(development, form), 403, 'forbidden');
    expectProblem(
      await list(user.token, form, { environment: 'development' }),
      403,
      'form_not_in_environment',
    );
    const starred = await t.request({
      method: 'POST',
      url: `/responses/${id}/star`,
      auth: staging,
      body: { starred: true },
    });
    expect(starred.body.starred).toBe(true);
  });
});
