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
import { createLiveForm, dashboardNoise, signUpInPage } from '../support/dashboard.js';

/**
 * The builder's Responses section (issue 23 item 1, API.md §15 `access`), with the keyboard
 * alone: a close date in the past and a limit saved, the hosted page then closed with the
 * owner's message; a refusal (one response per address by a question not required) shown by the
 * select it names; a password set, the hosted page asking for it, then changed and removed
 * without ever being shown. Axe-clean in light and dark, at 1280 and 320 px.
 */

const noise = dashboardNoise((problem) => /status of 400|^400 for .*\/forms\//.test(problem));

describe('the builder’s Responses section in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const FIELDS = [
    { id: 'name', type: 'text', label: 'Your name' },
    { id: 'email', type: 'email', label: 'Your e-mail' },
  ];

  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      const label = element.labels?.[0]?.textContent;
      return `${element.tagName.toLowerCase()}:${element.getAttribute('aria-label') || label || element.textContent.trim()}`;
    });
  async function tabTo(page: Page, target: string, key = 'Tab') {
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press(key);
      seen.push(await focused(page));
      if (seen.at(-1) === target) return;
    }
    throw new Error(`${key} never reached ${target}: ${seen.join(', ')}`);
  }
  /** The builder of `id`, its Settings tab chosen with the arrow keys. */
  async function openSettings(page: Page, id: string) {
    await page.goto(`${server.url}/app/forms/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit “Feedback”' }).waitFor();
    await page.getByRole('tab', { name: 'Build' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.getByRole('heading', { level: 2, name: 'Responses' }).waitFor();
  }
  async function publish(page: Page) {
    await page
      .getByRole('region', { name: 'Save and publish' })
      .getByRole('button', { name: 'Publish changes' })
      .focus();
    await page.keyboard.press('Enter');
  }
  const hosted = async (id: string) => {
    const visitor = await openPage(browser, `${server.url}/f/${id}`);
    const text = await visitor.page.locator('main').textContent();
    await visitor.close();
    return text;
  };

  it('closes the form at a past date with a limit and a message; a refusal is shown by its select', async () => {
    // a time zone not UTC's: what is typed is New York's time, stored as UTC
    const view = await openPage(browser, `${server.url}/app/signup`, { timezoneId: 'America/New_York' });
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'responses');
      const id = await createLiveForm(server, token, { fields: FIELDS });
      await openSettings(page, id);

      // a date and time typed segment by segment (month, day, year: up to six digits, so → on; hour, minute, AM/PM)
      await page.locator('#access-closes-at').focus();
      await page.keyboard.type('03152026');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('0930A');
      await expect(page.locator('#access-closes-at').inputValue()).resolves.toBe('2026-03-15T09:30');
      // the label names the zone the time is read in
      const label = await page.locator('label[for="access-closes-at"]').textContent();
      expect(label).toMatch(/^Closes at \(your time: America\/New_York, UTC−0[45]:00\)$/);
      await tabTo(page, 'input:Responses it takes, at most');
      await page.keyboard.type('5');
      await tabTo(page, 'textarea:What the page says when it is closed');
      await page.keyboard.type('Registration has ended.');
      await tabTo(page, 'select:One response per');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect(page.locator('#access-once-per').inputValue()).resolves.toBe('email');
      await expect(page.locator('#access-email-field').inputValue()).resolves.toBe('email');

      // the e-mail question is not required: the API refuses, the select says why
      await publish(page);
      await page.locator('#access-email-field-error').waitFor();
      expect(await page.locator('#access-email-field-error').textContent()).toMatch(/must be required/);
      expect(await page.locator('#access-email-field').getAttribute('aria-invalid')).toBe('true');
      await page
        .locator('#access-once-per')
        .evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'builder-responses-panel-refused-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);

      await page.locator('#access-once-per').focus();
      await page.keyboard.press('ArrowUp');
      await expect(page.locator('#access-once-per').inputValue()).resolves.toBe('browser');
      await publish(page);
      await page.getByText(/^Published: respondents now get version 2/).waitFor();

      const read = await server.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(read.body.access).toEqual({
        // 09:30 in New York (daylight saving time from 8 March 2026: UTC−04:00)
        closesAt: '2026-03-15T13:30:00.000Z',
        maxSubmissions: 5,
        closedMessage: 'Registration has ended.',
        oncePer: 'browser',
        hasPassword: false,
      });
      const closed = await hosted(id);
      expect(closed).toContain('This form is closed');
      expect(closed).toContain('Registration has ended.');

      // the section as read back, light and dark, wide and at 320 px
      await page.reload();
      await page.getByRole('heading', { level: 2, name: 'Responses' }).waitFor();
      await expect(page.locator('#access-closes-at').inputValue()).resolves.toBe('2026-03-15T09:30');
      const section = page.locator('section.builder__section', {
        has: page.getByRole('heading', { name: 'Responses' }),
      });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const width of [1280, 320]) {
          await page.setViewportSize({ width, height: 800 });
          // the heading below the save bar that stays in sight
          await section.evaluate((element) => {
            element.scrollIntoView({ block: 'start' });
            (globalThis as any).scrollBy(0, -120);
          });
          expect(await scrollsHorizontally(page)).toBe(false);
          await screenshot(page, `builder-responses-panel-${width}-${scheme}`, { fullPage: false });
          await expectNoAxeViolations(page);
        }
      }
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('sets a password the hosted page asks for, then changes and removes it, never showing it', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'password');
      const id = await createLiveForm(server, token, { fields: FIELDS });
      await openSettings(page, id);
      await page.locator('#access-once-per').focus();
      await tabTo(page, 'input:Password');
      await page.keyboard.type('open sesame');
      await publish(page);
      await page.getByText(/^Published: respondents now get version 2/).waitFor();
      const read = await server.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(read.body.access).toEqual({ hasPassword: true });

      const visitor = await openPage(browser, `${server.url}/f/${id}`);
      expect(await visitor.page.title()).toMatch(/^Password required/);
      await visitor.page.getByLabel('Password').fill('open sesame');
      await visitor.page.keyboard.press('Enter');
      await visitor.page.getByLabel('Your name').waitFor();
      await visitor.close();

      // read back: only "A password is set", with Change and Remove; focus follows each
      await page.reload();
      await page.getByText('A password is set: the page asks for it before the form.').waitFor();
      expect(await page.locator('#access-password').count()).toBe(0);
      await page.locator('#access-once-per').focus();
      await tabTo(page, 'button:Change the password');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('input:New password');
      expect(await page.locator('#access-password').inputValue()).toBe('');
      await tabTo(page, 'button:Keep the current password');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('button:Change the password');
      await tabTo(page, 'button:Remove the password');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('button:Keep the password');
      await expectNoAxeViolations(page);
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('button:Change the password');
      await page
        .locator('#access-once-per')
        .evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await screenshot(page, 'builder-responses-panel-password-set-1280-light', { fullPage: false });
      await tabTo(page, 'button:Remove the password');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('button:Keep the password');
      await publish(page);
      await page.getByText(/^Published: respondents now get version 3/).waitFor();
      const after = await server.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(after.body.access).toBeNull();
      expect(await hosted(id)).toContain('Your name');
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
