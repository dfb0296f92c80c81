import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type WebServer,
} from '../support/browser.js';

/**
 * The web shell end to end in Chromium: the server renders /app, the browser loads the
 * Vite-built client under the page's own CSP, and the client renders the dashboard.
 */
describe('the dashboard shell in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(['light', 'dark'] as const)(
    'runs the client at /app (%s): no axe violation, console error or CSP violation',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/app`, { colorScheme });
      try {
        // Only the client renders this heading (signed out, /app leads to log-in): the server's shell says "Loading the dashboard…".
        await view.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
        expect(await view.page.title()).toBe('Log in – Intake');
        const background = await view.page.evaluate(
          () => (globalThis as any).getComputedStyle((globalThis as any).document.body).backgroundColor,
        );
        expect(background).toBe(colorScheme === 'dark' ? 'rgb(21, 22, 26)' : 'rgb(255, 255, 255)');
        await screenshot(view.page, `app-${colorScheme}`);
        await expectNoAxeViolations(view.page);
        // nothing failed: signed out, the shell says so and the client asks GET /auth/me nothing
        // (its 401 was logged by Chromium as a failed load; view.problems holds every 4xx)
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it.each(['light', 'dark'] as const)(
    'fits 320 CSS pixels without scrolling sideways (%s)',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/app`, { width: 320, colorScheme });
      try {
        await view.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
        await screenshot(view.page, `app-320-${colorScheme}`);
        expect(await scrollsHorizontally(view.page)).toBe(false);
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('serves the shell for any path below /app (the client routes)', async () => {
    const view = await openPage(browser, `${server.url}/app/x/y?z=1`);
    try {
      await view.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('says "Loading" and why JavaScript is needed when it is off', async () => {
    const view = await openPage(browser, `${server.url}/app`, { javaScriptEnabled: false });
    try {
      await expect(view.page.getByRole('status').textContent()).resolves.toBe('Loading the dashboard…');
      expect(await view.page.locator('main').textContent()).toContain('The dashboard needs JavaScript');
    } finally {
      await view.close();
    }
  });

  it.each(['light', 'dark'] as const)(
    'shows an HTML 404 page for an unknown page path (%s), accessible too',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/nope`, { colorScheme });
      try {
        expect(view.response?.status()).toBe(404);
        expect(view.response?.headers()['content-type']).toMatch(/^text\/html/);
        await expect(view.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          'Page not found',
        );
        await screenshot(view.page, `not-found-${colorScheme}`);
        await expectNoAxeViolations(view.page);
        // Chromium reports the document's own 404 in the console; nothing else may go wrong.
        expect(view.problems.filter((problem) => !/status of 404/.test(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('catches what it looks for (the checks themselves): a refused inline script, an unlabelled field', async () => {
    const view = await openPage(browser, `${server.url}/app`);
    try {
      await view.page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await view.page.evaluate(() => {
        const document = (globalThis as any).document;
        const script = document.createElement('script');
        script.textContent = 'document.title = "injected"';
        document.body.append(script, document.createElement('input'));
      });
      await expect.poll(() => view.problems.join('\n')).toMatch(/CSP violation: script-src/);
      expect(await view.page.title()).toBe('Log in – Intake');
      await expect(expectNoAxeViolations(view.page)).rejects.toThrow(
        /^axe found 1 violation\(s\)[\s\S]*label/,
      );
    } finally {
      await view.close();
    }
  });

  it('loads the fingerprinted client compressed and cached for good', async () => {
    const view = await openPage(browser, `${server.url}/app`);
    try {
      const script = await view.page.locator('script[type="module"]').getAttribute('src');
      expect(script).toMatch(/^\/assets\/dashboard-[A-Za-z0-9_-]{8}\.js$/);
      // Chromium asks for br only over HTTPS: here it gets gzip; a client that asks for br gets br.
      const inBrowser = await view.page.request.get(`${server.url}${script}`);
      expect(inBrowser.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      const br = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(br.status).toBe(200);
      expect(br.headers.get('content-encoding')).toBe('br');
      expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(br.headers.get('content-type')).toMatch(/javascript/);
      expect(await br.text()).toContain('Loading the dashboard');
    } finally {
      await view.close();
    }
  });
});
