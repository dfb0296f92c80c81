import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { ENTRIES, loadWebAssets } from '../assets.js';

/**
 * Embedding (API.md §11.2): `/f/{formId}?embed=1` is the page without its chrome, framable by
 * `ui.embedOrigins` (any site without it), with the frame script; every page that follows stays
 * embedded; `/embed.js` is served to any site, small, cached for an hour with an ETag.
 */

const directives = (page: Response) =>
  new Map(
    String(page.headers['content-security-policy'])
      .split('; ')
      .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
  );
const hidden = (page: Response, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page.text)?.[1] ?? '';
const post = (t: TestApp, url: string, fields: Record<string, string>) =>
  t.request({
    method: 'POST',
    url,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

describe('the embedded hosted form', () => {
  let t: TestApp;
  let user: TestUser;
  let open: { id: string };
  let listed: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
    open = await createForm(t, user.token, { status: 'live', ui: { layout: 'classic' } });
    listed = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic', embedOrigins: ['https://example.com', 'http://localhost:8080'] },
    });
  });
  afterAll(() => t.close());

  it('is framable by any site without ui.embedOrigins, without its chrome, with the frame script', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${open.id}?embed=1` });
    expect(page.status).toBe(200);
    expect(directives(page).get('frame-ancestors')).toEqual(['*']);
    expect(directives(page).get('script-src')).toEqual(["'self'"]);
    expect(page.headers['x-frame-options']).toBeUndefined();
    expect(page.text).toContain('<html lang="en" dir="ltr" class="embedded">');
    expect(page.text).not.toContain('hosted__footer');
    expect(page.text).toContain(`data-intake-embed="${open.id}"`);
    expect(page.text).toMatch(/<script type="module" src="\/assets\/page-[\w-]{8}\.js"><\/script>/);
    // the form posts to the embedded page again
    expect(page.text).toContain(`action="/f/${open.id}?embed=1"`);
  });

  it('stays unframable, with its chrome, outside ?embed=1', async () => {
    for (const url of [`/f/${open.id}`, `/f/${listed.id}`, `/f/${open.id}?embed=0`]) {
      const page = await t.request({ method: 'GET', url });
      expect(directives(page).get('frame-ancestors')).toEqual(["'none'"]);
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.text).toContain('hosted__footer');
      expect(page.text).not.toContain('data-intake-embed');
      expect(page.text).not.toContain('embedded');
    }
  });

  it('is framable by the origins of ui.embedOrigins only, and by none when the list is empty', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${listed.id}?embed=1` });
    expect(directives(page).get('frame-ancestors')).toEqual(['https://example.com', 'http://localhost:8080']);
    expect(page.headers['x-frame-options']).toBeUndefined();
    const closed = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic', embedOrigins: [] },
    });
    const none = await t.request({ method: 'GET', url: `/f/${closed.id}?embed=1` });
    expect(directives(none).get('frame-ancestors')).toEqual(["'none'"]);
    expect(none.headers['x-frame-options']).toBe('DENY');
  });

  it('stays embedded across a refused post and the thank-you page, which names the submission', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${listed.id}?embed=1` });
    const carried = { _session: hidden(page, '_session'), _idempotency: hidden(page, '_idempotency') };
    const refused = await post(t, `/f/${listed.id}?embed=1`, { ...carried, name: 'Ada', email: 'nope' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('There is a problem');
    expect(refused.text).toContain(`action="/f/${listed.id}?embed=1"`);
    expect(refused.text).not.toContain('hosted__footer');
    // browsers refuse autofocus in another origin's frame: the frame script focuses the summary
    expect(refused.text).toContain(
      '<section class="error-summary" tabindex="-1" aria-labelledby="summary-title">',
    );
    expect(directives(refused).get('frame-ancestors')).toEqual([
      'https://example.com',
      'http://localhost:8080',
    ]);

    const thanks = await post(t, `/f/${listed.id}?embed=1`, {
      ...carried,
      name: 'Ada',
      email: 'ada@example.com',
    });
    expect(thanks.status).toBe(200);
    expect(thanks.text).toContain('<h1 class="form-title">Thank you</h1>');
    expect(thanks.text).not.toContain('hosted__footer');
    expect(thanks.text).toMatch(/<script type="module" src="\/assets\/page-[\w-]{8}\.js"><\/script>/);
    expect(directives(thanks).get('frame-ancestors')).toEqual([
      'https://example.com',
      'http://localhost:8080',
    ]);
    const stored = await t.request({
      method: 'GET',
      url: `/responses?form_id=${listed.id}&environment=development`,
      auth: user.token,
    });
    const [submission] = stored.body.data as Array<{ id: string }>;
    expect(thanks.text).toContain(`data-submission-id="${submission?.id}"`);

    // the same post outside the frame: the plain thank-you page, no id in it
    const plain = await t.request({ method: 'GET', url: `/f/${listed.id}` });
    const done = await post(t, `/f/${listed.id}`, {
      _session: hidden(plain, '_session'),
      _idempotency: hidden(plain, '_idempotency'),
      name: 'Bob',
      email: 'bob@example.com',
    });
    expect(done.text).toContain('hosted__footer');
    expect(done.text).not.toContain('data-submission-id');
    expect(done.headers['x-frame-options']).toBe('DENY');
  });

  it('keeps a one-by-one form embedded from question to question', async () => {
    const steps = await createForm(t, user.token, { status: 'live', ui: { layout: 'one-by-one' } });
    const first = await t.request({ method: 'GET', url: `/f/${steps.id}?embed=1` });
    expect(first.text).toContain(`action="/f/${steps.id}?embed=1"`);
    const second = await post(t, `/f/${steps.id}?embed=1`, {
      _session: hidden(first, '_session'),
      _idempotency: hidden(first, '_idempotency'),
      _question: 'name',
      _action: 'next',
      name: 'Ada',
    });
    expect(second.status).toBe(200);
    expect(second.text).toContain('<title>Question 2 of 4');
    expect(second.text).toContain(`action="/f/${steps.id}?embed=1"`);
    expect(second.text).toContain('class="embedded"');
    expect(directives(second).get('frame-ancestors')).toEqual(['*']);
  });
});

describe('GET /embed.js', () => {
  const assets = loadWebAssets();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is served to any site: JavaScript, cached for an hour with an ETag, cross-origin, compressed', async () => {
    const script = await t.request({ method: 'GET', url: '/embed.js' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=3600');
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.headers['content-encoding']).toBeUndefined();
    expect(script.headers['set-cookie']).toBeUndefined();
    expect(script.text).toContain('data-intake-form');
    const etag = String(script.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);

    const gzip = await t.request({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toBe('Accept-Encoding');
    const br = await t.request({
      method: 'GET',
      url: '/embed.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    const onlyIdentity = await t.request({
      method: 'GET',
      url: '/embed.js',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    });
    expect(onlyIdentity.headers['content-encoding']).toBeUndefined();

    const again = await t.request({ method: 'GET', url: '/embed.js', headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const head = await t.request({ method: 'HEAD', url: '/embed.js' });
    expect(head.status).toBe(200);
  });

  it('keeps embed.js within 3 kB gzip and the page script within 8 kB (the real build)', () => {
    const dir = assets.dir ?? '';
    const embed = gzipSize(path.join(dir, assets.url(ENTRIES.embed) ?? ''));
    const script = gzipSize(path.join(dir, assets.entry(ENTRIES.page).script ?? ''));
    console.info(`embed.js ${embed} B, page script ${script} B (gzip -9)`);
    expect(embed).toBeLessThanOrEqual(3000);
    expect(script).toBeLessThanOrEqual(8000);
    // the page script is one file: the one the page loads besides its CSS
    expect(assets.entry(ENTRIES.page).preloads).toEqual([]);
  });
});
