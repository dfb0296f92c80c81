import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startWebServer, type WebServer } from '../support/browser.js';

/**
 * Issue 19: /docs is served under a strict policy of its own (no inline script, nothing from
 * elsewhere, no framing). Swagger UI must still work under it: the document read and drawn, with
 * no CSP violation, console error or failed request.
 */
describe('/docs in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws the API under its policy, with no violation', async () => {
    const view = await openPage(browser, `${server.url}/docs/`);
    try {
      expect(view.response?.headers()['content-security-policy']).toContain("script-src 'self'");
      // the operations are drawn from /docs/json, fetched by Swagger UI's own script
      await view.page.locator('.opblock-summary-path', { hasText: '/auth/login' }).first().waitFor();
      await view.page.locator('.info .title').waitFor();
      // an operation opened: its schemas and examples drawn too
      await view.page.locator('.opblock-summary', { hasText: '/auth/login' }).first().click();
      await view.page.locator('.opblock-body').first().waitFor();
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('refuses to be framed, even by a page of its own origin', async () => {
    // same origin, so that the frame's document could be read had it loaded
    const view = await openPage(browser, `${server.url}/health`);
    try {
      const framed = await view.page.evaluate(async (src) => {
        const frame = document.createElement('iframe');
        frame.src = src;
        document.body.append(frame);
        await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
        try {
          return Boolean(frame.contentDocument?.querySelector('#swagger-ui'));
        } catch {
          return false;
        }
      }, `${server.url}/docs/`);
      expect(framed).toBe(false);
    } finally {
      await view.close();
    }
  });
});
