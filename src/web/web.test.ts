import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { Problem } from '../platform/problem.js';
import { loadWebAssets } from './assets.js';
import { installPageErrors } from './pages.js';

const directives = (policy: string) =>
  new Map(policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));

describe('the web shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('says when the request carries no live session, so the client asks GET /auth/me nothing', async () => {
    const marked = (text: string) => text.includes('data-session="none"');
    expect(marked((await t.request({ method: 'GET', url: '/app/forms' })).text)).toBe(true);
    const ended = await t.request({
      method: 'GET',
      url: '/app',
      headers: { cookie: 'intake_session=ended' },
    });
    expect(marked(ended.text)).toBe(true);
    const signup = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email: `shell-${Date.now()}@example.com`, password: 'correct horse battery', cookie: true },
    });
    expect(signup.status, signup.text).toBe(201);
    const cookie = [signup.headers['set-cookie'] ?? []]
      .flat()
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(cookie).toContain('intake_session=');
    const live = await t.request({ method: 'GET', url: '/app', headers: { cookie } });
    expect(live.status).toBe(200);
    expect(marked(live.text)).toBe(false);
  });

  it('serves /app as an HTML shell that loads the built client, under a strict CSP', async () => {
    const response = await t.request({ method: 'GET', url: '/app' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    // it says whether this request had a live session: never kept for another
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    const policy = directives(String(response.headers['content-security-policy']));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('style-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(String(response.headers['content-security-policy'])).not.toMatch(/unsafe/);

    expect(response.text).toMatch(/^<!doctype html><html lang="en">/);
    const client = loadWebAssets().entry('dashboard/main.tsx');
    expect(client.script).toMatch(/^\/assets\/dashboard-[\w-]{8}\.js$/);
    expect(response.text).toContain(`<script type="module" src="${client.script}"></script>`);
    for (const style of client.styles)
      expect(response.text).toContain(`<link rel="stylesheet" href="${style}"/>`);
    // no inline script or style: nothing the CSP would have to allow
    expect(response.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/);
  });

  it('serves the same shell for every path below /app (the client routes), and to HEAD', async () => {
    const shell = await t.request({ method: 'GET', url: '/app' });
    for (const url of ['/app/', '/app/forms/frm_1/inbox', '/app/x/y?z=1']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.status, url).toBe(200);
      expect(response.text, url).toBe(shell.text);
    }
    const head = await t.request({ method: 'HEAD', url: '/app/x' });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves the shell and its assets whatever session cookie comes along (a stale one is not a 401)', async () => {
    const cookie = 'intake_session=stale-or-logged-out-token';
    const shell = await t.request({ method: 'GET', url: '/app/forms', headers: { cookie } });
    expect(shell.status).toBe(200);
    expect(shell.headers['set-cookie']).toBeUndefined();
    const script = /<script type="module" src="([^"]+)"/.exec(shell.text)?.[1];
    expect(script).toBeDefined();
    const asset = await t.request({ method: 'GET', url: String(script), headers: { cookie } });
    expect(asset.status).toBe(200);
    // a page path that matches nothing stays the 404 page, an unknown API path the 404 problem
    const missing = await t.request({ method: 'GET', url: '/f/nope', headers: { cookie } });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await t.request({ method: 'GET', url: '/v1/nothing', headers: { cookie } })).status).toBe(404);
    // the API still refuses it
    const me = await t.request({ method: 'GET', url: '/auth/me', headers: { cookie } });
    expect(me.status).toBe(401);
  });

  it('answers a page path that matches nothing with an HTML 404 page, and the API with its problem', async () => {
    for (const url of ['/f/nope', '/f', '/f/nope/more?x=1', '/assets/nope.js', '/assets/']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.status, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.text, url).toContain('<h1>Page not found</h1>');
    }
    for (const url of ['/v1/whatever', '/fx', '/application']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.status, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('application/problem+json; charset=utf-8');
      expect(response.body, url).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('answers another method on a page with an HTML 405 naming the allowed ones', async () => {
    const response = await t.request({ method: 'POST', url: '/app/x', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('<h1>Method not allowed</h1>');
  });

  describe('the built assets under /assets/', () => {
    const script = () => String(loadWebAssets().entry('dashboard/main.tsx').script);

    it.each([
      ['br', 'br'],
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      ['', undefined],
    ])('Accept-Encoding %j gets %s', async (acceptEncoding, encoding) => {
      const response = await t.app.inject({ url: script(), headers: { 'accept-encoding': acceptEncoding } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toBe('accept-encoding');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers.etag).toBeTruthy();
    });

    it('serves what was built, byte for byte, and 304 to a matching If-None-Match', async () => {
      const plain = await t.app.inject({ url: script() });
      expect(plain.body).toContain('Loading the dashboard');
      const again = await t.app.inject({
        url: script(),
        headers: { 'if-none-match': String(plain.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
      const css = await t.app.inject({ url: loadWebAssets().entry('styles/base.css').styles[0] ?? '' });
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      const icon = await t.app.inject({ url: loadWebAssets().url('icon.svg') ?? '' });
      expect(icon.headers['content-type']).toBe('image/svg+xml');
    });

    it('never serves the compressed twins by name, the manifest, or anything outside', async () => {
      for (const url of [
        `${script()}.br`,
        `${script()}.gz`,
        '/assets/../.vite/manifest.json',
        '/assets/%2e%2e/.vite/manifest.json',
        '/assets/%2e%2e/%2e%2e/package.json',
      ]) {
        const response = await t.app.inject({ url });
        expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(response.body, url).not.toMatch(/"file"|"name": "intake"|Loading the dashboard/);
      }
    });
  });
});

describe('errors on a page', () => {
  // A scope of pages of its own, with routes that fail, as a hosted form's might.
  const app = Fastify({ logger: false, genReqId: () => 'req-1' });
  beforeAll(async () => {
    await app.register(
      async (scope) => {
        installPageErrors(scope, { assets: loadWebAssets(), production: true, branding: true });
        scope.get('/boom', async () => {
          throw new Error('SELECT secret FROM users');
        });
        scope.get('/down', async () => {
          throw new Problem(503, 'service_unavailable', 'The database is unavailable', {
            headers: { 'retry-after': '1' },
          });
        });
        scope.get('/bad', async () => {
          throw new Problem(400, 'invalid_parameter', 'The id <script>alert(1)</script> is malformed');
        });
      },
      { prefix: '/f' },
    );
    await app.ready();
  });
  afterAll(async () => app.close());

  it('turns an unexpected error into a 500 page with a reference, and nothing of the error', async () => {
    const response = await app.inject({ url: '/f/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.body).toContain('<h1>Something went wrong</h1>');
    expect(response.body).toContain('Reference: <code>req-1</code>');
    expect(response.body).not.toContain('secret');
  });

  it('keeps a problem’s status and headers (503 with Retry-After)', async () => {
    const response = await app.inject({ url: '/f/down' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.body).toContain('<h1>Intake is unavailable for a moment</h1>');
  });

  it('shows a client error’s detail, escaped', async () => {
    const response = await app.inject({ url: '/f/bad' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('<h1>Invalid parameter</h1>');
    expect(response.body).toContain('The id &lt;script>alert(1)&lt;/script> is malformed');
    expect(response.body).not.toContain('<script>alert');
  });
});
