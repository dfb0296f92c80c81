import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  posting,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createForm } from '../support/factories.js';

/**
 * The owner's preview of a draft (API.md §11.1, `/f/{formId}?preview=1`) in Chromium, with the
 * dashboard's session cookie: the banner shown, accessible in light and dark, under the page's
 * CSP; sent, it ends on the thank-you page that says nothing was stored, and nothing is.
 */

describe("the owner's preview in Chromium", () => {
  let server: WebServer;
  let browser: Browser;
  let token: string;
  let cookie: string;
  let formId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
    const email = `preview-${randomBytes(6).toString('hex')}@example.com`;
    const password = 'correct horse battery';
    const signup = await server.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email, password, cookie: true },
    });
    cookie = /intake_session=([^;]+)/.exec(String(signup.headers['set-cookie']))?.[1] ?? '';
    expect(cookie).not.toBe('');
    token = (await server.request({ method: 'POST', url: '/auth/login', body: { email, password } })).body
      .token;
    const form = await createForm(server, token, {
      title: 'A draft to look at',
      status: 'draft',
      ui: { layout: 'classic', description: 'Not published yet.' },
    });
    formId = form.id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows the draft under the banner and stores nothing when it is sent (${colorScheme})`, async () => {
      const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(15_000);
      await context.addCookies([{ name: 'intake_session', value: cookie, url: server.url }]);
      const problems: string[] = [];
      await context.exposeBinding('__reportViolation', (_source, text: string) => {
        problems.push(`CSP violation: ${text}`);
      });
      await context.addInitScript(
        `document.addEventListener('securitypolicyviolation', (event) => window.__reportViolation(event.violatedDirective + ' ' + event.blockedURI));`,
      );
      try {
        const page = await context.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
        const response = await page.goto(`${server.url}/f/${formId}?preview=1`, { waitUntil: 'load' });
        expect(response?.status()).toBe(200);
        await expect(page.locator('.preview-banner').textContent()).resolves.toBe(
          'Preview — submissions are not stored',
        );
        expect(await page.locator('.preview-banner').isVisible()).toBe(true);
        await expectNoAxeViolations(page);

        await page.locator('#field-name').fill('Ada');
        await page.locator('#field-email').fill('ada@example.com');
        // posted by the page's script, answered with the page that replaces this one
        await posting(page, () => page.getByRole('button', { name: 'Submit' }).click());
        expect(page.url()).toBe(`${server.url}/f/${formId}?preview=1`);
        await expect(page.locator('.form-card--done').textContent()).resolves.toContain('was not stored');
        expect(await page.locator('.preview-banner').isVisible()).toBe(true);
        await expectNoAxeViolations(page);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
      const stored = await server.request({
        method: 'GET',
        url: `/responses?form_id=${formId}&environment=development`,
        auth: token,
      });
      expect(stored.body.data).toEqual([]);
    });
  }
});
