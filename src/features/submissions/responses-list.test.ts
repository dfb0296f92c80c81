import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import {
  newestFirst,
  type Owner,
  responsesApi,
  type Status,
  SUBMISSION_KEYS,
} from '../../../test/support/responses.js';
import { shapesKept, shapesNotCached } from '../../platform/db/cached-statement.js';

/**
 * API.md §6.2: the owner's inbox — the list: its shape, order and limit, keyset pagination stable while
 * submissions arrive, and the filters (from and to, status, starred and read).
 * The others: responses-access, responses-one (shared helpers in test/support/responses.ts).
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(async () => {
  await t.close();
});

const { owner, answersFor, submitOne, list, listIds, allPages, readOne, insertRow } = responsesApi(() => t);

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
      // shown in the form's own language (no Accept-Language, no ?lang=)
      language: 'en',
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
      // shown in the form's own language (no Accept-Language, no ?lang=)
      language: 'en',
      notes: [],
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(oldest!.createdAt <= newest!.createdAt).toBe(true);
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
    const seen: string[] = first.body.data.map((item) => item.id);
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
      seen.push(...page.body.data.map((item) => item.id));
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
    expect(first.body.data.map((item) => item.id)).toEqual(['sub_tie_0005', 'sub_tie_0004', 'sub_tie_0003']);
    // arrives in the same millisecond, with a later id (as the monotonic ids give)
    await insertRow(form, { createdAt, id: 'sub_tie_0099' });
    await insertRow(form, { createdAt: '2026-04-02T12:00:00.001Z' });
    const rest = await allPages(user.token, form, { limit: '3', cursor: first.body.nextCursor! });
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
    expect(response.body.data.map((item) => item.id)).toEqual(byStatus[status]);
    expect(response.body.data.every((item) => item.status === status)).toBe(true);
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
    expect(response.body.data.map((item) => [item.id, item.status])).toEqual([
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

describe('the page statement', () => {
  it('is built by Kysely once per filter shape: every shape asked above ran from its kept text', () => {
    expect([...shapesNotCached()].filter((shape) => shape.startsWith('submissions page'))).toEqual([]);
    // and they are kept: the plain page, the cursor's, the filters' (not run around the cache)
    const kept = shapesKept(t.app.intake.database.db).filter((shape) => shape.startsWith('submissions page'));
    expect(kept.length).toBeGreaterThanOrEqual(4);
    const plain = { statuses: 2, from: false, upTo: false, after: false, starred: false, read: false };
    expect(kept).toContain(`submissions page: ${JSON.stringify(plain)}`);
  });
});
