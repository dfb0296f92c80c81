import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import type { StoredForm } from '../../features/forms/repo.js';
import { SplicedBody } from '../../platform/http/spliced-body.js';
import { HOLES, type KeptPage } from './kept-pages.js';
import { PageReplays } from './replays.js';

/**
 * The first page answered again before routing (replays.ts, issue 24): the same answer as the
 * route's but for each response's own values, its view recorded, and never where the route
 * would have answered otherwise (another request, a changed form, response controls, request
 * logging on, a closing service). Over a real socket: `inject` goes past the server's listener.
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body, gunzipped when it came gzipped. */
  html: string;
}

/** A request with exactly these headers (and Host), nothing else added. */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        const gzipped = response.headers['content-encoding'] === 'gzip' && body.length > 0;
        const html = (gzipped ? gunzipSync(body) : body).toString();
        resolve({ status: response.statusCode ?? 0, headers: response.headers, html });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** What every response of a page shares: its own values taken out. */
const shared = (html: string) =>
  html.replace(/name="(_session|_idempotency)" value="[^"]*"/g, 'name="$1" value=""');
const carried = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

/** The headers a response shares with the others of its page (not its request id or date). */
function sharedHeaders(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  const { 'x-request-id': _id, date: _date, 'content-length': _length, ...rest } = headers;
  return rest;
}

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'E-mail' },
];
const GZIP = { 'accept-encoding': 'gzip, deflate, br' };

async function listening(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

async function viewsOf(t: TestApp, formId: string): Promise<number> {
  const row = await t.app.intake.database.db
    .selectFrom('form_events')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('form_id', '=', formId)
    .where('type', '=', 'view')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Waits for the views stored behind the pages (batched) to reach `count`. */
async function viewsReach(t: TestApp, formId: string, count: number): Promise<number> {
  const deadline = Date.now() + 5000;
  let views = await viewsOf(t, formId);
  while (views < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    views = await viewsOf(t, formId);
  }
  return views;
}

describe('the first page, replayed before routing', () => {
  let t: TestApp;
  let user: TestUser;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
    base = await listening(t);
  });
  afterAll(() => t.close());

  const answered = () => t.app.intake.frontDoor.answered;
  const live = (overrides: Record<string, unknown> = {}) =>
    createForm(t, user.token, { status: 'live', fields: FIELDS, ui: { layout: 'classic' }, ...overrides });

  it('is the route’s answer again, with a session, idempotency key and request id of its own', async () => {
    const form = await live();
    const before = answered();
    const routed = await get(base, `/f/${form.id}`, GZIP);
    expect(answered()).toBe(before);
    const replayed = await Promise.all([1, 2, 3].map(() => get(base, `/f/${form.id}`, GZIP)));
    expect(answered()).toBe(before + 3);

    expect(routed.status).toBe(200);
    expect(routed.headers['content-encoding']).toBe('gzip');
    for (const again of replayed) {
      expect(again.status).toBe(200);
      expect(sharedHeaders(again.headers)).toEqual(sharedHeaders(routed.headers));
      expect(shared(again.html)).toBe(shared(routed.html));
    }
    const all = [routed, ...replayed];
    for (const name of ['_session', '_idempotency']) {
      const values = all.map((answer) => carried(answer.html, name));
      expect(new Set(values).size, name).toBe(4);
      for (const value of values) expect(value).toMatch(/^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/);
    }
    const ids = all.map((answer) => answer.headers['x-request-id']);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    // each page carries the session its view was recorded under
    expect(await viewsReach(t, form.id, 4)).toBe(4);
    const sessions = await t.app.intake.database.db
      .selectFrom('form_events')
      .select('session_id')
      .where('form_id', '=', form.id)
      .execute();
    expect(new Set(sessions.map((row) => row.session_id))).toEqual(
      new Set(all.map((answer) => carried(answer.html, '_session'))),
    );
  });

  it('is kept per encoding and language asked for', async () => {
    const form = await live({
      title: 'Contact',
      translations: { fr: { title: 'Contactez-nous', fields: { name: { label: 'Votre nom' } } } },
    });
    const asked = [
      { 'accept-language': 'fr', ...GZIP },
      { 'accept-language': 'en' },
      { 'accept-language': 'fr' },
    ];
    for (const headers of asked) await get(base, `/f/${form.id}`, headers);
    const before = answered();
    const [frenchGzip, english, french] = await Promise.all(
      asked.map((headers) => get(base, `/f/${form.id}`, headers)),
    );
    expect(answered()).toBe(before + 3);
    expect(frenchGzip?.headers['content-encoding']).toBe('gzip');
    expect(frenchGzip?.html).toContain('Votre nom');
    expect(french?.headers['content-encoding']).toBeUndefined();
    expect(french?.html).toContain('Votre nom');
    expect(english?.html).toContain('Your name');
    expect(english?.html).not.toContain('Votre nom');
  });

  it('is never what a changed form’s reader gets', async () => {
    const form = await live({ title: 'Before' });
    await get(base, `/f/${form.id}`, GZIP);
    expect((await get(base, `/f/${form.id}`, GZIP)).html).toContain('Before');
    const changed = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'After', status: 'live', fields: FIELDS, ui: { layout: 'classic' } },
    });
    expect(changed.status, changed.text).toBe(200);
    const before = answered();
    // routed while the form cache keeps no copy of it: for a few seconds after a change (forms/repo.ts)
    for (let i = 0; i < 3; i++) {
      const after = await get(base, `/f/${form.id}`, GZIP);
      expect(after.html).toContain('After');
      expect(after.html).not.toContain('Before');
    }
    expect(answered()).toBe(before);

    const closed = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'After', status: 'disabled', fields: FIELDS, ui: { layout: 'classic' } },
    });
    expect(closed.status, closed.text).toBe(200);
    expect((await get(base, `/f/${form.id}`, GZIP)).status).toBe(404);
    expect((await get(base, `/f/${form.id}`, GZIP)).status).toBe(404);
  });

  it('is routed again once the form cache’s second is over, then replayed from the form read anew', async () => {
    const form = await live();
    await get(base, `/f/${form.id}`, GZIP);
    const before = answered();
    await get(base, `/f/${form.id}`, GZIP);
    expect(answered()).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get(base, `/f/${form.id}`, GZIP)).status).toBe(200);
    expect(answered(), 'the form is read again by the route').toBe(before + 1);
    expect((await get(base, `/f/${form.id}`, GZIP)).status).toBe(200);
    expect(answered()).toBe(before + 2);
  });

  it('is kept per host and forwarded host and protocol: another of them is routed first', async () => {
    const form = await live();
    await get(base, `/f/${form.id}`, GZIP);
    const before = answered();
    await get(base, `/f/${form.id}`, GZIP);
    expect(answered()).toBe(before + 1);
    const others: Array<Record<string, string>> = [
      { host: 'forms.example.org' },
      { 'x-forwarded-host': 'forms.example.org' },
      { 'x-forwarded-proto': 'https' },
    ];
    for (const other of others) {
      await get(base, `/f/${form.id}`, { ...GZIP, ...other });
      expect(answered(), JSON.stringify(other)).toBe(before + 1);
    }
    await get(base, `/f/${form.id}`, { ...GZIP, host: 'forms.example.org' });
    expect(answered()).toBe(before + 2);
  });

  it('answers no other request: each of these is routed', async () => {
    const form = await live();
    await get(base, `/f/${form.id}`, GZIP);
    const others: Array<[string, Record<string, string>, string?]> = [
      [`/f/${form.id}?lang=fr`, GZIP],
      [`/f/${form.id}?embed=1`, GZIP],
      [`/f/${form.id}/`, GZIP],
      [`/f/${form.id}`, { ...GZIP, cookie: 'intake_resume=whatever' }],
      [`/f/${form.id}`, { ...GZIP, origin: 'https://elsewhere.example' }],
      [`/f/${form.id}`, { ...GZIP, authorization: 'Bearer sk_test_nothing' }],
      [`/f/${form.id}`, { ...GZIP, 'x-request-id': '7b0e1a6e-3f59-4c1a-9a51-6d3f1f0e2c11' }],
      [`/f/${form.id}`, { ...GZIP, 'x-something-new': '1' }],
      [`/f/${form.id}`, GZIP, 'HEAD'],
    ];
    const before = answered();
    for (const [path, headers, method] of others) {
      const answer = await get(base, path, headers, method);
      expect(answer.status, path).toBeLessThan(500);
    }
    expect(answered()).toBe(before);
    // the client's own request id is kept by the route, as on every other path
    const own = await get(base, `/f/${form.id}`, { 'x-request-id': '7b0e1a6e-3f59-4c1a-9a51-6d3f1f0e2c11' });
    expect(own.headers['x-request-id']).toBe('7b0e1a6e-3f59-4c1a-9a51-6d3f1f0e2c11');
  });

  it('never answers for a form with response controls (their gates follow the clock and the counts)', async () => {
    const form = await live({ access: { maxSubmissions: 1000 } });
    const before = answered();
    for (let i = 0; i < 3; i++) expect((await get(base, `/f/${form.id}`, GZIP)).status).toBe(200);
    expect(answered()).toBe(before);
  });

  it('stops once the service closes: the route’s answers then say Connection: close', async () => {
    const form = await live();
    await get(base, `/f/${form.id}`, GZIP);
    const before = answered();
    await get(base, `/f/${form.id}`, GZIP);
    expect(answered()).toBe(before + 1);
    t.app.intake.frontDoor.close();
    await get(base, `/f/${form.id}`, GZIP);
    expect(answered()).toBe(before + 1);
  });
});

describe('the front door closing with the service', () => {
  it('is closed by the service’s close', async () => {
    const t = await createTestApp();
    expect(t.app.intake.frontDoor.closing).toBe(false);
    await t.close();
    expect(t.app.intake.frontDoor.closing).toBe(true);
  });

  it('lets a replay begun before the close end its connection, as the route’s answers do', async () => {
    const form = { id: 'contact-us', definition: { fields: [] } } as unknown as StoredForm;
    const cut = SplicedBody.cut(`<p>${HOLES.sessionId} ${HOLES.idempotencyKey}</p>`, [
      HOLES.sessionId,
      HOLES.idempotencyKey,
    ]);
    if (!cut) throw new Error('the page has its holes');
    const page: KeptPage = { body: cut.body, holes: cut.holes, policy: {}, csp: "default-src 'self'" };
    let closing = false;
    let viewed: () => void = () => {};
    const replays = new PageReplays({
      current: () => form,
      recordView: () =>
        new Promise<void>((resolve) => {
          viewed = resolve;
        }),
      requestId: () => '00000000-0000-4000-8000-000000000000',
      enabled: true,
      closing: () => closing,
      onError: (error) => {
        throw error;
      },
    });
    const raw = {
      method: 'GET',
      url: '/f/contact-us',
      httpVersionMajor: 1,
      headers: { host: 'forms.example.org', 'accept-encoding': 'identity' },
    } as unknown as IncomingMessage;
    const reply = { getHeaders: () => ({ 'content-type': 'text/html; charset=utf-8', 'x-request-id': 'x' }) };
    replays.remember(
      { raw } as unknown as FastifyRequest,
      reply as unknown as FastifyReply,
      form,
      page,
      false,
    );
    const written: { headers?: string[]; body?: string } = {};
    const response = {
      headersSent: false,
      writeHead: (_status: number, headers: string[]) => {
        written.headers = headers;
      },
      end: (body: Buffer) => {
        written.body = body.toString();
      },
    } as unknown as ServerResponse;
    expect(replays.answer(raw, response, () => expect.fail('routed'))).toBe(true);
    closing = true;
    viewed();
    await vi.waitFor(() => expect(written.body).toMatch(/^<p>[0-9a-f]{12}\S+ [0-9a-f]{12}\S+<\/p>$/));
    expect(written.headers).toEqual([
      'content-type',
      'text/html; charset=utf-8',
      'x-request-id',
      '00000000-0000-4000-8000-000000000000',
      'content-length',
      String(Buffer.byteLength(written.body ?? '')),
      'connection',
      'close',
    ]);
  });
});

describe('replays and the service around them', () => {
  it('are off while every request is logged (LOG_LEVEL info): the route logs, a replay would not', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await createTestApp({}, { logger: { level: 'info', stream } });
    try {
      const user = await signup(t);
      const base = await listening(t);
      const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
      for (let i = 0; i < 3; i++) expect((await get(base, `/f/${form.id}`, GZIP)).status).toBe(200);
      expect(t.app.intake.frontDoor.answered).toBe(0);
      expect(
        lines.filter((line) => line.includes('request completed') && line.includes('"statusCode":200'))
          .length,
      ).toBeGreaterThanOrEqual(3);
    } finally {
      await t.close();
    }
  });

  it('count a view against the address the route would see, behind a trusted proxy', async () => {
    // the page's events: ten an address a minute (ten times RATE_LIMIT_PUBLIC)
    const t = await createTestApp({ trustProxy: 1, rateLimitPublic: 1 });
    try {
      const user = await signup(t);
      const base = await listening(t);
      const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
      const from = (address: string) => ({ ...GZIP, 'x-forwarded-for': address });
      // the route's answer first (one view of 203.0.113.5), then replays
      for (let i = 0; i < 12; i++)
        expect((await get(base, `/f/${form.id}`, from('203.0.113.5'))).status).toBe(200);
      expect(t.app.intake.frontDoor.answered).toBe(11);
      for (let i = 0; i < 2; i++)
        expect((await get(base, `/f/${form.id}`, from('198.51.100.7'))).status).toBe(200);
      // the last two of the first address were over its ten
      expect(await viewsReach(t, form.id, 12)).toBe(12);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await viewsOf(t, form.id)).toBe(12);
    } finally {
      await t.close();
    }
  });
});
