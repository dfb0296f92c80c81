import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm } from '../../../test/support/factories.js';

/**
 * The owner's preview of a hosted form (API.md §11.1): `/f/{formId}?preview=1` with the
 * dashboard's session cookie shows the form in any status, as it will look, under a banner, and
 * its posts are validated but store nothing and count nothing. Without the owner's cookie
 * session, `preview=1` changes nothing: a form that is not live stays the 404 page.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true, minLength: 2 },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  { id: 'message', type: 'textarea', label: 'Message' },
];
const BANNER = /<p class="preview-banner"><strong>Preview — submissions are not stored<\/strong><\/p>/;

interface CookieUser {
  id: string;
  /** The bearer token (for the API calls of the test itself). */
  token: string;
  /** The `Cookie` header that carries the dashboard's session. */
  cookie: string;
}

/** A user signed up as the dashboard does (`cookie: true`): its session cookie, and a bearer session beside it. */
async function cookieUser(t: TestApp): Promise<CookieUser> {
  const email = `preview-${randomBytes(6).toString('hex')}@example.com`;
  const password = 'correct horse battery';
  const signup = await t.request({
    method: 'POST',
    url: '/auth/signup',
    body: { email, password, cookie: true },
  });
  expect(signup.status, signup.text).toBe(201);
  const lines = [signup.headers['set-cookie'] ?? []].flat();
  const pair = lines
    .map((line) => String(line).split(';')[0])
    .find((part) => part?.includes('intake_session='));
  expect(pair, 'the session cookie').toBeDefined();
  const login = await t.request({ method: 'POST', url: '/auth/login', body: { email, password } });
  expect(login.status, login.text).toBe(200);
  return { id: signup.body.user.id, token: login.body.token, cookie: String(pair) };
}

const carried = (page: Response) =>
  Object.fromEntries(
    [...page.text.matchAll(/<input type="hidden" name="(_[a-z]+)" value="([^"]*)"/g)].map((match) => [
      String(match[1]),
      String(match[2]),
    ]),
  );

describe("the owner's preview of a hosted form (?preview=1)", () => {
  let t: TestApp;
  let owner: CookieUser;
  let other: CookieUser;
  let draft: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    [owner, other] = [await cookieUser(t), await cookieUser(t)];
    draft = await createForm(t, owner.token, {
      title: 'Not yet <published>',
      status: 'draft',
      fields: FIELDS,
      ui: { layout: 'classic', submitLabel: 'Send it', redirectUrl: 'https://example.com/thanks' },
      spamProtection: { honeypot: { field: 'website_hp' }, action: 'reject' },
    });
  });
  afterAll(() => t.close());

  const get = (url: string, cookie?: string) =>
    t.request({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  const post = (url: string, fields: Record<string, string>, cookie?: string) =>
    t.request({
      method: 'POST',
      url,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    });

  /** What the owner's API reads of a form: its stored responses and its analytics totals. */
  const stored = async (formId: string) => {
    const responses = await t.request({
      method: 'GET',
      url: `/responses?form_id=${formId}&environment=development`,
      auth: owner.token,
    });
    const analytics = await t.request({
      method: 'GET',
      url: `/analytics?environment=development&form_id=${formId}`,
      auth: owner.token,
    });
    const { views, starts, submissions } = analytics.body.totals;
    return { responses: responses.body.data.length as number, views, starts, submissions };
  };

  it('shows the owner a form in any status, as it will look, under the banner; never kept, never indexed', async () => {
    for (const status of ['draft', 'active', 'disabled', 'archived', 'live']) {
      const form = await createForm(t, owner.token, { status, fields: FIELDS, ui: { layout: 'classic' } });
      const page = await get(`/f/${form.id}?preview=1`, owner.cookie);
      expect(page.status, status).toBe(200);
      expect(page.headers['content-type'], status).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control'], status).toBe('no-store');
      expect(page.headers['x-robots-tag'], status).toBe('noindex');
      expect(page.headers['set-cookie'], status).toBeUndefined();
      expect(page.text, status).toMatch(BANNER);
      // the page as it will look: the live page's, with the banner above it
      expect(page.text, status).toContain('<h1 class="form-title">Contact us</h1>');
      expect(page.text, status).toContain('id="field-email"');
      expect(page.text, status).toMatch(
        new RegExp(`<form class="form" method="post" action="/f/${form.id}\\?preview=1"[^>]*>`),
      );
    }
    const page = await get(`/f/${draft.id}?preview=1`, owner.cookie);
    expect(page.text).toContain('<h1 class="form-title">Not yet &lt;published></h1>');
    expect(page.text).toContain('Send it');
    // the preview is no view
    expect(await stored(draft.id)).toEqual({ responses: 0, views: 0, starts: 0, submissions: 0 });
  });

  it("answers the 404 page to no cookie, another user's, an invalid one, and a bearer token alone", async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { cookie: other.cookie },
      { cookie: 'intake_session=not-a-session' },
      { cookie: `${owner.cookie}x` },
      { authorization: `Bearer ${owner.token}` },
    ];
    for (const headers of cases) {
      const label = JSON.stringify(headers);
      const page = await t.request({ method: 'GET', url: `/f/${draft.id}?preview=1`, headers });
      expect(page.status, label).toBe(404);
      expect(page.headers['content-type'], label).toBe('text/html; charset=utf-8');
      expect(page.text, label).toContain('Page not found');
      expect(page.text, label).not.toContain('Not yet');
      // a stale cookie is no 401 here, and is left alone
      expect(page.headers['set-cookie'], label).toBeUndefined();
    }
    // a post too: nothing of the draft shows, nothing is stored
    const refused = await post(`/f/${draft.id}?preview=1`, { name: 'Ada' }, other.cookie);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('Not yet');
    // without preview=1 the owner's cookie shows no draft either
    expect((await get(`/f/${draft.id}`, owner.cookie)).status).toBe(404);
  });

  it('is the live page itself to anyone but the owner: no banner, its form posting without preview=1, a view counted', async () => {
    const live = await createForm(t, owner.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    for (const cookie of [undefined, other.cookie]) {
      const page = await get(`/f/${live.id}?preview=1`, cookie);
      expect(page.status).toBe(200);
      expect(page.text).not.toMatch(BANNER);
      expect(page.text).toMatch(new RegExp(`<form class="form" method="post" action="/f/${live.id}"[^>]*>`));
      expect(page.headers['x-robots-tag']).toBeUndefined();
    }
    expect((await stored(live.id)).views).toBe(2);
  });

  it('shows an invalid post again with the error summary and the answers, under the banner', async () => {
    const page = await get(`/f/${draft.id}?preview=1`, owner.cookie);
    const response = await post(
      `/f/${draft.id}?preview=1`,
      { ...carried(page), name: 'A', email: 'not an address' },
      owner.cookie,
    );
    expect(response.status).toBe(400);
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.text).toMatch(BANNER);
    expect(response.text).toContain('<title>Error: Not yet &lt;published></title>');
    expect(response.text).toContain('There is a problem');
    expect(response.text).toContain('<a href="#field-name">');
    expect(response.text).toContain('<a href="#field-email">');
    expect(response.text).toContain('value="not an address"');
    expect(response.text).toContain(`action="/f/${draft.id}?preview=1"`);
    expect(await stored(draft.id)).toEqual({ responses: 0, views: 0, starts: 0, submissions: 0 });
  });

  it('ends a valid post on the thank-you page, which says nothing was stored: nothing stored, nothing counted', async () => {
    const page = await get(`/f/${draft.id}?preview=1`, owner.cookie);
    const response = await post(
      `/f/${draft.id}?preview=1`,
      { ...carried(page), name: 'Ada', email: 'ada@example.com', website_hp: '' },
      owner.cookie,
    );
    // the thank-you page, not the 303 to ui.redirectUrl (which it names)
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.text).toMatch(BANNER);
    expect(response.text).toContain('<h1 class="form-title">Thank you</h1>');
    expect(response.text).toContain('was not stored');
    expect(response.text).toContain('https://example.com/thanks');
    expect(await stored(draft.id)).toEqual({ responses: 0, views: 0, starts: 0, submissions: 0 });
  });

  it('takes the owner through a one-by-one form page by page, embedded too, storing nothing at the end', async () => {
    const form = await createForm(t, owner.token, {
      status: 'draft',
      fields: FIELDS,
      ui: { layout: 'one-by-one' },
    });
    const url = `/f/${form.id}?embed=1&preview=1`;
    const first = await get(url, owner.cookie);
    expect(first.status).toBe(200);
    expect(first.text).toMatch(BANNER);
    expect(first.text).toContain('<title>Question 1 of 3 – Contact us</title>');
    expect(first.text).toContain(`action="/f/${form.id}?embed=1&amp;preview=1"`);
    expect(first.text).toContain('data-intake-embed');
    let page = first;
    for (const [question, answer] of [
      ['name', 'Ada'],
      ['email', 'ada@example.com'],
      ['message', 'Hello'],
    ] as const) {
      const fields = Object.fromEntries(
        [...page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((match) => [
          String(match[1]),
          String(match[2]),
        ]),
      );
      page = await post(
        url,
        { ...fields, [question]: answer, _action: question === 'message' ? 'submit' : 'next' },
        owner.cookie,
      );
      expect(page.status, question).toBe(200);
      expect(page.text, question).toMatch(BANNER);
    }
    expect(page.text).toContain('was not stored');
    // no submission for the frame script to announce
    expect(page.text).not.toContain('data-submission-id');
    expect(await stored(form.id)).toEqual({ responses: 0, views: 0, starts: 0, submissions: 0 });
  });
});
