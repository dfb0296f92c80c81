import type { Browser, Page } from 'playwright-core';
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
import { createLiveForm, dashboardNoise, signUpInPage } from '../support/dashboard.js';
import { createForm, signup, type TestUser } from '../support/factories.js';
import { startSmtpServer, type TestSmtpServer } from '../support/mail.js';

/**
 * Saved progress (API.md §15) in Chromium, with JavaScript off and on: a respondent answers two
 * questions, presses "Save and continue later", reads the link (and that it was mailed), and
 * opens it in another browser (another device: no cookie) at the first unanswered question,
 * then sends; the owner finds one response under the partial's id. The page with the button and
 * the saved page are axe-clean, light and dark, and fit 320 CSS pixels.
 */

const FIELDS = [
  { id: 'email', type: 'email', label: 'Your e-mail', required: true },
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'company', type: 'text', label: 'Your company' },
  { id: 'topic', type: 'select', label: 'What is it about?', required: true, options: ['Sales', 'Support'] },
  { id: 'message', type: 'textarea', label: 'Your message' },
];

describe('saving answers to continue later, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;

  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    [server, browser] = await Promise.all([
      startWebServer({ rateLimitPublic: 1_000_000, smtpUrl: smtp.url }),
      launchBrowser(),
    ]);
    user = await signup(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  /** The resume link mailed to `address` (the latest), as the respondent's mail program shows it. */
  async function mailedLink(address: string): Promise<string> {
    const mails = (await smtp.waitFor((all) => all.some((mail) => mail.rcptTo.includes(address)))).filter(
      (mail) => mail.rcptTo.includes(address),
    );
    expect(mails.at(-1)?.subject).toBe('Continue “Ask us anything”');
    return /http:\/\/\S+\/f\/\S+\?resume=[A-Za-z0-9_-]{43}/.exec(mails.at(-1)?.text ?? '')?.[0] ?? '';
  }

  const responses = async (formId: string, status?: string) => {
    const answer = await server.request({
      method: 'GET',
      url: `/responses?form_id=${formId}&environment=development${status ? `&status=${status}` : ''}`,
      auth: user.token,
    });
    return (answer.body as { data: Array<{ id: string; status: string; answers: Record<string, unknown> }> })
      .data;
  };

  /** Answers the page's question (a text box) and goes on with Next. */
  async function answerAndNext(page: Page, label: string, value: string) {
    await page.getByLabel(label).fill(value);
    await posting(page, () => page.getByRole('button', { name: 'Next' }).click());
  }

  it.each([false, true])(
    'fills three of five questions, saves, and finishes from the mailed link in another browser: one response (JavaScript %s)',
    async (javaScriptEnabled) => {
      const form = await createForm(server, user.token, {
        title: 'Ask us anything',
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'one-by-one', submitLabel: 'Send' },
      });
      const address = `ada-${javaScriptEnabled ? 'js' : 'plain'}@example.com`;
      const first = await openPage(browser, `${server.url}/f/${form.id}`, { javaScriptEnabled });
      let shown = '';
      try {
        const { page } = first;
        await answerAndNext(page, 'Your e-mail', address);
        await answerAndNext(page, 'Your name', 'Ada');
        await page.getByLabel('Your company').fill('Analytical Engines');
        // after Next and Back, by the keyboard too: Tab reaches it, Enter presses it
        await page.getByRole('button', { name: 'Back' }).focus();
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => (globalThis as any).document.activeElement?.textContent);
        expect(focused).toBe('Save and continue later');
        await posting(page, () => page.keyboard.press('Enter'));
        expect(await page.title()).toBe('Your answers are saved – Ask us anything');
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
          'Your answers are saved',
        );
        await expect(page.getByText(`We have sent it to ${address} too.`).isVisible()).resolves.toBe(true);
        shown = String(await page.locator('.saved-link a').getAttribute('href'));
        expect(shown).toMatch(
          new RegExp(`^http://127\\.0\\.0\\.1:\\d+/f/${form.id}\\?resume=[A-Za-z0-9_-]{43}$`),
        );
        expect(first.problems).toEqual([]);
      } finally {
        await first.close();
      }
      const link = await mailedLink(address);
      expect(link).toBe(shown);
      const [partial] = await responses(form.id, 'partial');
      expect(partial?.answers).toEqual({ email: address, name: 'Ada', company: 'Analytical Engines' });

      // another browser, no cookie: the mailed link opens the form at the first unanswered question
      const other = await openPage(browser, link, { javaScriptEnabled });
      try {
        const { page } = other;
        expect(await page.title()).toBe('Question 4 of 5 – Ask us anything');
        await page.getByLabel('Sales').check();
        await posting(page, () => page.getByRole('button', { name: 'Next' }).click());
        // Back keeps what was saved
        await posting(page, () => page.getByRole('button', { name: 'Back' }).click());
        await expect(page.getByLabel('Sales').isChecked()).resolves.toBe(true);
        await posting(page, () => page.getByRole('button', { name: 'Next' }).click());
        await page.getByLabel('Your message').fill('Hello');
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');
        expect(other.problems).toEqual([]);
      } finally {
        await other.close();
      }
      // one response, not two: the partial became it, under its id
      expect(await responses(form.id, 'partial')).toEqual([]);
      expect(await responses(form.id)).toEqual([
        expect.objectContaining({
          id: partial?.id,
          status: 'accepted',
          answers: {
            email: address,
            name: 'Ada',
            company: 'Analytical Engines',
            topic: 'Sales',
            message: 'Hello',
          },
        }),
      ]);
    },
  );

  it.each(['light', 'dark'] as const)(
    'has no axe violation on a page with the button and on the saved page, and fits 320 px (%s)',
    async (colorScheme) => {
      const form = await createForm(server, user.token, {
        title: 'Ask us anything',
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'one-by-one' },
      });
      for (const width of [1280, 320]) {
        const view = await openPage(browser, `${server.url}/f/${form.id}`, { colorScheme, width });
        try {
          const { page } = view;
          await answerAndNext(page, 'Your e-mail', 'grace@example.com');
          await expectNoAxeViolations(page);
          expect(await scrollsHorizontally(page)).toBe(false);
          await screenshot(page, `hosted-save-later-question-${colorScheme}-${width}`);
          await posting(page, () => page.getByRole('button', { name: 'Save and continue later' }).click());
          await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
            'Your answers are saved',
          );
          await expectNoAxeViolations(page);
          expect(await scrollsHorizontally(page)).toBe(false);
          await screenshot(page, `hosted-saved-${colorScheme}-${width}`);
          expect(view.problems).toEqual([]);
        } finally {
          await view.close();
        }
      }
    },
  );

  it.each([
    [1280, 'light'],
    [320, 'dark'],
  ] as const)(
    'lists answers on their way under the inbox’s In progress, apart from the rest (%i px, %s)',
    async (width, colorScheme) => {
      const view = await openPage(browser, `${server.url}/app/login`, { width, colorScheme });
      const { page } = view;
      try {
        const { token } = await signUpInPage(page, server, 'progress');
        const formId = await createLiveForm(server, token, {
          ui: { layout: 'one-by-one' },
          fields: FIELDS.slice(1),
        });
        // a respondent answers the first question and leaves: a partial, posted as the page posts it
        const first = await server.request({ method: 'GET', url: `/f/${formId}` });
        const session = /name="_session" value="([^"]+)"/.exec(first.text)?.[1] ?? '';
        const step = await server.request({
          method: 'POST',
          url: `/f/${formId}`,
          body: new URLSearchParams({
            _question: 'name',
            _session: session,
            name: 'Grace',
            _action: 'next',
          }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(step.status).toBe(200);
        await page.goto(`${server.url}/app/forms/${formId}/inbox`);
        await page.getByRole('heading', { level: 1, name: 'Inbox: Feedback' }).waitFor();
        await page.getByText('No responses here yet').waitFor();
        if (width < 600) await page.locator('summary', { hasText: 'Filters' }).click();
        await page.getByLabel('Show').selectOption({ label: 'In progress (saved, not sent)' });
        const row = page.locator('.inbox__row').first();
        await expect.poll(() => row.textContent()).toContain('In progress');
        expect(await row.textContent()).not.toContain('Unread');
        await row.getByRole('button').click();
        await page.getByText('Grace').first().waitFor();
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
        await screenshot(page, `dashboard-inbox-in-progress-${width}-${colorScheme}`);
        expect(view.problems.filter((problem) => !dashboardNoise()(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );
});
