import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { HOLES, KeptPages } from './kept-pages.js';

/**
 * The first page kept (kept-pages.ts): rendered once per form version, language and frame, each
 * response with a session id and idempotency key of its own, gzip when asked, and never a page
 * that a change of the form has made stale.
 */

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await signup(t);
});
afterAll(async () => {
  await t.close();
});

const page = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

/** A page's hidden controls, by name (the first of each). */
function hiddenInputs(html: string): Record<string, string | undefined> {
  const inputs: Record<string, string | undefined> = {};
  for (const [input] of html.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name && !(name in inputs)) inputs[name] = /value="([^"]*)"/.exec(input)?.[1] ?? '';
  }
  return inputs;
}

/** The page with its own values taken out: what every response of it shares. */
const shared = (html: string) =>
  html.replace(/name="(_session|_idempotency)" value="[^"]*"/g, 'name="$1" value=""');

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'E-mail' },
];

describe('the first page, kept', () => {
  it('gives each response a session and an idempotency key of its own, the rest the same bytes', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    const responses = await Promise.all([1, 2, 3].map(() => page(`/f/${form.id}`)));
    const carried = responses.map((response) => hiddenInputs(response.body));
    const sessions = new Set(carried.map((inputs) => inputs._session));
    const keys = new Set(carried.map((inputs) => inputs._idempotency));
    expect(sessions.size).toBe(3);
    expect(keys.size).toBe(3);
    for (const value of [...sessions, ...keys]) expect(value).toMatch(/^[0-9a-f]{12}[A-Za-z0-9_-]{22}$/);
    expect(new Set(responses.map((response) => shared(response.body))).size).toBe(1);
    for (const response of responses) {
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(response.headers.etag).toBeUndefined();
    }
  });

  it('is gzipped for a client that takes it: the same page, a fraction of the bytes', async () => {
    const fields = Array.from({ length: 20 }, (_, index) => ({
      id: `q${index}`,
      type: 'text',
      label: `Question ${index}`,
    }));
    const form = await createForm(t, user.token, {
      status: 'live',
      fields,
      ui: { layout: 'classic', accentColor: '#0a7ea4' },
    });
    const plain = await page(`/f/${form.id}`, { 'accept-encoding': 'identity' });
    const zipped = await page(`/f/${form.id}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    const unzipped = gunzipSync(zipped.rawPayload).toString();
    expect(shared(unzipped)).toBe(shared(plain.body));
    expect(hiddenInputs(unzipped)._session).not.toBe(hiddenInputs(plain.body)._session);
    // nearly as small as the whole page gzipped at once (what follows a hole cannot refer back past it)
    expect(zipped.rawPayload.length).toBeLessThan(gzipSync(plain.rawPayload, { level: 9 }).length * 1.1);
    expect(Number(zipped.headers['content-length'])).toBe(zipped.rawPayload.length);
    // the accent's style, allowed by its hash, is the same in both
    expect(unzipped).toContain('<style>:root{--custom-accent:#0a7ea4}</style>');
    expect(zipped.headers['content-security-policy']).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/]{43}='/);
  });

  it('is made again once the form changes, and kept apart per language, frame and first question', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      title: 'Before',
      fields: FIELDS,
      ui: { layout: 'one-by-one' },
      translations: {
        fr: { title: 'Avant', fields: { name: { label: 'Votre nom' }, email: { label: 'Courriel' } } },
      },
    });
    expect((await page(`/f/${form.id}`)).body).toContain('Before');
    const french = await page(`/f/${form.id}?lang=fr`);
    expect(french.body).toContain('Avant');
    expect(french.body).toContain('Votre nom');
    const framed = await page(`/f/${form.id}?embed=1`);
    expect(framed.body).toContain(`data-intake-embed="${form.id}"`);
    expect(framed.body).toContain(`action="/f/${form.id}?embed=1`);
    expect((await page(`/f/${form.id}`)).body).not.toContain('data-intake-embed');

    const changed = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: {
        title: 'After',
        status: 'live',
        fields: [{ id: 'first', type: 'text', label: 'A new first question' }, ...FIELDS],
        ui: { layout: 'one-by-one' },
      },
    });
    expect(changed.status, changed.text).toBe(200);
    const after = await page(`/f/${form.id}`);
    expect(after.body).toContain('After');
    expect(after.body).toContain('A new first question');
    expect(after.body).not.toContain('Before');
  });

  it('is not what a link with answers or the owner’s preview gets', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [...FIELDS, { id: 'source', type: 'hidden', label: 'Source' }],
      ui: { layout: 'classic' },
    });
    await page(`/f/${form.id}`);
    const withAnswer = await page(`/f/${form.id}?source=newsletter`);
    expect(hiddenInputs(withAnswer.body).source).toBe('newsletter');
    expect((await page(`/f/${form.id}`)).body).not.toContain('newsletter');
  });
});

describe('a page that cannot be kept', () => {
  it('is sent as rendered, with its values put in, each time (a render without both holes)', async () => {
    const app = Fastify();
    const kept = new KeptPages();
    let renders = 0;
    let requests = 0;
    app.get('/', (_request, reply) =>
      kept.send(
        reply,
        'one',
        () => {
          renders += 1;
          return { html: `<p>${HOLES.sessionId}</p>`, policy: {} };
        },
        { sessionId: `s${++requests}`, idempotencyKey: 'k' },
      ),
    );
    const first = await app.inject({ method: 'GET', url: '/' });
    const second = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(first.body).toBe('<p>s1</p>');
    expect(second.body).toBe('<p>s2</p>');
    expect(second.headers['content-encoding']).toBeUndefined();
    expect(first.headers['cache-control']).toBe('no-store');
    expect(renders).toBe(3);
    await app.close();
  });
});
