import type { Browser, Page } from 'playwright-core';
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
import { dashboardNoise, PASSWORD, signUpInPage } from '../support/dashboard.js';

/**
 * A first run that leads somewhere, and webhooks that say what happened (issue 25 items 7 and 9),
 * as a person uses them: /app for a newcomer, the templates of an empty forms list, a template
 * published and its Share panel (link copied, QR code named, every snippet shown; the pop-up
 * snippet working on another page), "Send test" to a host that does not exist, the failing
 * webhook amber and marked in the forms list. Keyboard only, axe in light and dark, 320 px.
 */

const WAIT = { timeout: 15_000 };
const noise = dashboardNoise();

/** Tabs (or Shift+Tabs) until the focused element's name is `name`. */
async function tabTo(page: Page, name: string | RegExp, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return '';
      const labels = (element as HTMLInputElement).labels;
      return (
        element.getAttribute('aria-label') ??
        labels?.[0]?.textContent ??
        element.textContent ??
        ''
      ).trim();
    });
  for (let presses = 0; presses < 120; presses++) {
    await page.keyboard.press(key);
    const now = await focused();
    if (typeof name === 'string' ? now === name : name.test(now)) return;
  }
  throw new Error(`${key} never reached “${name}” (last: “${await focused()}”)`);
}

describe('the first run and sharing in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('/app for a newcomer says what Intake is and offers Sign up first; the empty list offers templates (keyboard only)', async () => {
    const view = await openPage(browser, `${server.url}/app`);
    const { page } = view;
    try {
      await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await page.getByText(/^Intake collects the answers to your forms on your own server/).waitFor();
      await screenshot(page, 'first-run-app-newcomer-1280-light');
      await expectNoAxeViolations(page);
      // Sign up comes before the log-in form
      await tabTo(page, 'Sign up');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
      await tabTo(page, 'Email');
      await page.keyboard.type(`newcomer-${Date.now()}@example.com`);
      await tabTo(page, 'Password');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();

      // the environments explained once, the templates open while there is no form
      const explained = page.getByRole('heading', { name: 'Environments keep tests apart' });
      await explained.waitFor();
      const start = page.getByRole('region', { name: 'Start your first form' });
      for (const name of [
        'Blank form',
        'Contact form',
        'Event registration',
        'Feedback',
        'Job application',
        'Newsletter sign-up',
      ])
        await start.getByRole('button', { name, exact: true }).waitFor();
      await screenshot(page, 'first-run-templates-1280-light');
      await expectNoAxeViolations(page);
      await tabTo(page, 'Got it');
      await page.keyboard.press('Enter');
      await expect.poll(() => explained.count(), WAIT).toBe(0);
      await page.reload();
      await page.getByRole('region', { name: 'Start your first form' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Environments keep tests apart' }).count()).toBe(0);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it.each(['light', 'dark'] as const)(
    'the templates fit 320 CSS pixels (%s), no axe violation',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/app/login`, { width: 320, colorScheme });
      const { page } = view;
      try {
        await signUpInPage(page, server, 'narrow');
        await page.getByRole('region', { name: 'Start your first form' }).waitFor();
        await screenshot(page, `first-run-templates-320-${colorScheme}`);
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
      } finally {
        await view.close();
      }
    },
  );

  it('a template makes a form; its first Publish opens the Share panel: link copied, QR code named, every snippet in full', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page, context } = view;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    try {
      const { token } = await signUpInPage(page, server, 'share');
      await page.getByRole('region', { name: 'Start your first form' }).waitFor();
      await tabTo(page, 'Event registration');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/app\/forms\/frm_event-registration-[0-9a-z]{8}/, WAIT);
      const formId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
      const stored = await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token });
      expect(stored.body.fields.map((field: { id: string }) => field.id)).toEqual([
        'full_name',
        'email',
        'phone',
        'attendance',
        'guests',
        'dietary',
        'dietary_details',
      ]);
      expect(stored.body.logic.rules).toHaveLength(2);

      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      const heading = page.getByRole('heading', { level: 2, name: 'Your form is live: share it' });
      await heading.waitFor(WAIT);
      await expect
        .poll(() => heading.evaluate((element) => element === document.activeElement), WAIT)
        .toBe(true);
      expect(new URL(page.url()).hash).toBe('#share');
      const live = await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token });
      expect(live.body.status).toBe('live');

      const link = `${server.url}/f/${formId}`;
      expect(await page.getByLabel('Link to your form').inputValue()).toBe(link);
      await tabTo(page, 'Copy link');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Copied' }).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

      const qr = page.getByRole('img', { name: `QR code that opens ${link}` });
      await qr.waitFor();
      await expect
        .poll(() => qr.evaluate((image) => (image as HTMLImageElement).naturalWidth), WAIT)
        .toBeGreaterThan(0);
      const svg = await page.request.get(`${server.url}/forms/${formId}/qr.svg`);
      expect(await svg.text()).toContain(`<title id="qr-title">QR code that opens ${link}</title>`);

      const snippet = (name: string) => page.getByRole('textbox', { name, exact: true }).inputValue();
      expect(await snippet('Inline frame')).toBe(
        `<div data-intake-form="${formId}" data-intake-title="Event registration"></div>\n<script src="${server.url}/embed.js" async></script>`,
      );
      expect(await snippet('Pop-up')).toContain(`<button type="button" data-intake-popup="${formId}"`);
      expect(await snippet('Full page')).toContain(
        `<iframe src="${server.url}/f/${formId}?embed=1" title="Event registration">`,
      );
      expect(await snippet('Frame without a script')).toContain(`src="${server.url}/f/${formId}?embed=1"`);

      await screenshot(page, 'share-panel-1280-light');
      await expectNoAxeViolations(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'share-panel-1280-dark');
      await expectNoAxeViolations(page);
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await scrollsHorizontally(page)).toBe(false);
      await screenshot(page, 'share-panel-320-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, 'share-panel-320-light');
      await expectNoAxeViolations(page);

      // the pop-up snippet on another page: its button opens the form in a dialog, Escape closes it
      const host = await context.newPage();
      await host.setContent(
        `<!doctype html><html lang="en"><title>Host</title><main>${await snippet('Pop-up')}</main></html>`,
      );
      await host.getByRole('button', { name: 'Event registration' }).focus();
      await host.keyboard.press('Enter');
      const dialog = host.getByRole('dialog', { name: 'Event registration' });
      await dialog.waitFor(WAIT);
      await dialog.locator('iframe').waitFor();
      await host.keyboard.press('Escape');
      await expect.poll(() => dialog.count(), WAIT).toBe(0);
      expect(await host.evaluate(() => document.activeElement?.textContent)).toBe('Event registration');
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('Send test to a host that does not exist says so in words; the failing webhook is amber and marked in the forms list', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { width: 320, colorScheme: 'dark' });
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'hooks');
      const form = await server.request({
        method: 'POST',
        url: '/forms',
        auth: token,
        body: {
          title: 'Orders',
          environment: 'development',
          status: 'live',
          fields: [{ id: 'name', type: 'text', label: 'Name' }],
        },
      });
      const host = `hooks-${Date.now()}.example.invalid`;
      const url = `https://${host}/intake`;
      const created = await server.request({
        method: 'POST',
        url: '/webhooks',
        auth: token,
        body: { formId: form.body.id, event: 'response.created', url },
      });
      expect(created.status, created.text).toBe(201);

      await page.goto(`${server.url}/app/forms/${form.body.id}/webhooks`);
      const card = page.getByRole('article', { name: url });
      await card.waitFor();
      await card.getByText('Nothing sent yet.').waitFor();
      await tabTo(page, `Send test: ${url}`);
      await page.keyboard.press('Enter');
      await card
        .getByText(`Failed: ${host} could not be found (no such host name)`, { exact: true })
        .waitFor(WAIT);
      await card.getByText(/^Failing: the last attempt .* failed: .*could not be found/).waitFor(WAIT);
      await card.getByText('No retry is due', { exact: false }).waitFor();
      expect(await page.locator('.hook').first().getAttribute('class')).toContain('hook--failing');
      await screenshot(page, 'webhook-failing-320-dark');
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);

      // one attempt, never retried
      const deliveries = await server.request({
        method: 'GET',
        url: `/webhooks/${created.body.id}/deliveries`,
        auth: token,
      });
      expect(deliveries.body.data).toMatchObject([
        { event: 'webhook.test', status: 'failed', attempts: [{ attempt: 1 }] },
      ]);

      await page.goto(`${server.url}/app`);
      // named with its form's title (a hidden span after the visible words)
      const mark = page.getByRole('link', { name: /^A webhook is failing\W+Orders$/ });
      await mark.waitFor(WAIT);
      await screenshot(page, 'forms-list-webhook-failing-320-dark');
      await expectNoAxeViolations(page);
      await page.emulateMedia({ colorScheme: 'light' });
      await expectNoAxeViolations(page);
      await mark.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('article', { name: url }).waitFor();
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
