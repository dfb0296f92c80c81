import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createForm, signup, type TestUser } from '../support/factories.js';

/**
 * API.md §15 in Chromium with JavaScript off: the closed page of a form past its closing time
 * (light and dark, 320 CSS pixels), and the password page: refused, then unlocked with the
 * keyboard alone, the form answered behind it; axe-core finds nothing on any of them.
 */

const PASSWORD = 'staff only 2026';
const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
];
/** What Chromium reports of a page answered 401 (a wrong password): expected, nothing else is. */
const refusedPassword = (problem: string) => /status of 401/.test(problem);

describe('the closed and password pages in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
    user = await signup(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it.each(['light', 'dark'] as const)(
    'shows the closed page (%s), accessible, at 320 px',
    async (colorScheme) => {
      const form = await createForm(server, user.token, {
        title: 'Volunteer sign-up',
        status: 'live',
        fields: FIELDS,
        access: {
          closesAt: new Date(Date.now() - 60_000).toISOString(),
          closedMessage: 'Sign-up has ended. Thank you to the 120 people who joined!',
        },
      });
      // without JavaScript as a respondent may have it; axe-core needs it on to run (the page is the same)
      for (const [width, javaScriptEnabled] of [
        [1280, false],
        [320, false],
        [1280, true],
        [320, true],
      ] as const) {
        const view = await openPage(browser, `${server.url}/f/${form.id}`, {
          colorScheme,
          width,
          javaScriptEnabled,
        });
        try {
          expect(view.response?.status()).toBe(200);
          expect(await view.page.title()).toBe('This form is closed – Volunteer sign-up');
          await expect(view.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
            'This form is closed',
          );
          await expect(view.page.getByText('Sign-up has ended.').isVisible()).resolves.toBe(true);
          expect(await view.page.locator('form').count()).toBe(0);
          if (javaScriptEnabled) await expectNoAxeViolations(view.page);
          expect(await scrollsHorizontally(view.page)).toBe(false);
          await screenshot(
            view.page,
            `hosted-closed-${colorScheme}-${width}${javaScriptEnabled ? '-js' : ''}`,
          );
          expect(view.problems).toEqual([]);
        } finally {
          await view.close();
        }
      }
    },
  );

  it.each(['light', 'dark'] as const)(
    'after an answer by keyboard, shows "already answered" with the owner’s closedMessage (%s), accessible, at 320 px',
    async (colorScheme) => {
      const form = await createForm(server, user.token, {
        title: 'Summer meetup',
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'classic' },
        access: { oncePer: 'browser', closedMessage: 'Questions? Write to events@example.com.' },
      });
      const view = await openPage(browser, `${server.url}/f/${form.id}`, { colorScheme, width: 320 });
      const { page } = view;
      try {
        // the keyboard alone: into the first field, type, Tab on, type, Enter sends
        const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.id as string);
        for (let i = 0; i < 10 && !(await focused())?.includes('name'); i++) await page.keyboard.press('Tab');
        await page.keyboard.type('Ada');
        await page.keyboard.press('Tab');
        await page.keyboard.type('ada@example.com');
        await posting(page, () => page.keyboard.press('Enter'));
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');

        await page.goto(`${server.url}/f/${form.id}`);
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          'You have already answered',
        );
        await expect(
          page.getByText('This form takes one response per person, and yours has been received.').isVisible(),
        ).resolves.toBe(true);
        await expect(page.getByText('Questions? Write to events@example.com.').isVisible()).resolves.toBe(
          true,
        );
        expect(await page.locator('form').count()).toBe(0);
        await expectNoAxeViolations(page);
        expect(await scrollsHorizontally(page)).toBe(false);
        await screenshot(page, `hosted-answered-${colorScheme}-320`);
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('asks for the password without JavaScript, says a wrong one, unlocks with the right one by keyboard', async () => {
    const form = await createForm(server, user.token, {
      title: 'Staff survey',
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      access: { password: PASSWORD },
    });
    const view = await openPage(browser, `${server.url}/f/${form.id}`, { javaScriptEnabled: false });
    const { page } = view;
    try {
      expect(await page.title()).toBe('Password required – Staff survey');
      await screenshot(page, 'hosted-password');

      // a wrong one, typed and sent with the keyboard: the page again, the field marked, its message tied to it, focused
      const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.id as string);
      for (let i = 0; i < 10 && (await focused()) !== 'intake-password'; i++)
        await page.keyboard.press('Tab');
      expect(await focused()).toBe('intake-password');
      await page.keyboard.type('wrong guess');
      await posting(page, () => page.keyboard.press('Enter'));
      expect(await page.title()).toBe('Error: Password required – Staff survey');
      const field = page.getByLabel('Password');
      await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(field.getAttribute('aria-describedby')).resolves.toBe('intake-password-error');
      await expect(page.getByText('That password is not right.').isVisible()).resolves.toBe(true);
      expect(await focused()).toBe('intake-password');
      expect(await scrollsHorizontally(page)).toBe(false);

      // the right one, into the focused field: the form, then the thank-you page
      await page.keyboard.type(PASSWORD);
      await posting(page, () => page.keyboard.press('Enter'));
      expect(await page.title()).toBe('Staff survey');
      await page.getByLabel('Your name').fill('Ada');
      await page.getByLabel('E-mail').fill('ada@example.com');
      await posting(page, () => page.getByRole('button', { name: 'Submit' }).click());
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');
      const stored = await server.request({
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development`,
        auth: user.token,
      });
      expect(stored.body.data).toHaveLength(1);
      expect(view.problems.filter((problem) => !refusedPassword(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('has no axe violation on the password page and on its refusal', async () => {
    const form = await createForm(server, user.token, {
      title: 'Staff survey',
      status: 'live',
      fields: FIELDS,
      access: { password: PASSWORD },
    });
    const view = await openPage(browser, `${server.url}/f/${form.id}`, { width: 320 });
    try {
      await expectNoAxeViolations(view.page);
      expect(await scrollsHorizontally(view.page)).toBe(false);
      await view.page.getByLabel('Password').fill('wrong');
      await Promise.all([
        view.page.waitForEvent('framenavigated'),
        view.page.getByRole('button', { name: 'Open the form' }).click(),
      ]);
      await view.page.waitForLoadState('load');
      await expect(view.page.getByText('That password is not right.').isVisible()).resolves.toBe(true);
      await expectNoAxeViolations(view.page);
      expect(await scrollsHorizontally(view.page)).toBe(false);
      expect(view.problems.filter((problem) => !refusedPassword(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('keeps the password page working with JavaScript on', async () => {
    const form = await createForm(server, user.token, {
      title: 'Board vote',
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      access: { password: PASSWORD },
    });
    const view = await openPage(browser, `${server.url}/f/${form.id}`);
    try {
      await view.page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([
        view.page.waitForURL(`${server.url}/f/${form.id}`),
        view.page.getByRole('button', { name: 'Open the form' }).click(),
      ]);
      await view.page.waitForLoadState('load');
      await expect(view.page.getByLabel('Your name').isVisible()).resolves.toBe(true);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
