import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  scrollsHorizontally,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createLiveForm, dashboardNoise, signUpInPage } from '../support/dashboard.js';
import { walkHosted } from '../support/hosted-walk.js';

/**
 * The drop-off funnel in the dashboard's analytics (API.md §15, issue 23 item 5), as a person
 * reads it: visitors walk a one-by-one form's hosted page, one of them in Chromium with the page's
 * script, the others without it (two leave at the second question, one
 * skips the optional one and sends the form, one only looks); the funnel and its table show what
 * GET /analytics/drop-off answers, the table reached with the keyboard; a range without visits
 * says so; light and dark, 1280 and 320 CSS pixels, axe on each.
 */

const noise = dashboardNoise();
const DAY_MS = 86_400_000;
const dayBefore = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

interface Question {
  fieldId: string;
  label: string;
  reached: number;
  answered: number;
  leftHere: number;
}

describe('the drop-off funnel in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Signs up in the page, makes a one-by-one form and walks four visitors through its hosted page. */
  async function withVisits(page: Page) {
    const { token } = await signUpInPage(page, server, 'dropoff');
    const formId = await createLiveForm(server, token, {
      fields: [
        { id: 'name', type: 'text', label: 'Your name', required: true },
        {
          id: 'topic',
          type: 'select',
          label: 'What would you like to talk about with our team this week?',
          options: ['sales', 'support'],
        },
        { id: 'email', type: 'email', label: 'E-mail', required: true },
      ],
      ui: { layout: 'one-by-one' },
    });
    // Ann in Chromium, the page's script posting the step by fetch; Bob without it, over HTTP
    const visitor = await openPage(browser, `${server.url}/f/${formId}`);
    try {
      await visitor.page.getByLabel('Your name').fill('Ann');
      await posting(visitor.page, () => visitor.page.getByRole('button', { name: 'Next' }).click());
      await visitor.page.getByText('What would you like to talk about').first().waitFor();
      expect(
        await visitor.page.evaluate(() => (globalThis as any).document.documentElement.className),
      ).toContain('js');
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.close();
    }
    const bob = await walkHosted(server, formId);
    await bob.send({ name: 'Bob' });
    expect(bob.question).toBe('topic');
    const done = await walkHosted(server, formId);
    await done.send({ name: 'Cy' });
    await done.send({ topic: '' });
    await done.send({ email: 'cy@example.com' }, 'submit');
    expect(done.page.text).toContain('Thank you');
    await walkHosted(server, formId);

    const dropOff = async (query = '') => {
      const answer = await server.request({
        method: 'GET',
        url: `/analytics/drop-off?environment=development&form_id=${formId}${query}`,
        auth: token,
      });
      expect(answer.status, answer.text).toBe(200);
      return answer.body as { sessions: number; completed: number; questions: Question[] };
    };
    return { formId, dropOff };
  }

  /** The rows of the "Drop-off per question" table: the question and its three figures. */
  const tableRows = (page: Page) =>
    page
      .getByRole('region', { name: 'Drop-off per question' })
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent ?? '')),
      );
  const asRows = (questions: Question[]) =>
    questions.map((q) => [q.label, String(q.reached), String(q.answered), String(q.leftHere)]);
  const funnel = (page: Page) => page.getByRole('img', { name: /^Bar chart of \d+ questions?/ });

  /** The drop-off section in view, saved as a screenshot of the window when SCREENSHOT_DIR is set. */
  async function picture(page: Page, name: string) {
    const dir = process.env.SCREENSHOT_DIR;
    await page.getByRole('heading', { level: 2, name: 'Drop-off' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => {
      const heading = (globalThis as any).document.getElementById('drop-off-heading');
      heading?.scrollIntoView({ block: 'start' });
    });
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `${name}.png`) });
  }

  async function open(page: Page, formId: string, query = '') {
    await page.goto(`${server.url}/app/analytics?form=${formId}${query}`);
    await page.getByRole('heading', { level: 1, name: 'Analytics: Feedback' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Drop-off' }).waitFor();
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows the funnel and its table with the API's figures, the table reached by the keyboard (${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/app/login`, { colorScheme });
      const { page } = view;
      try {
        const { formId, dropOff } = await withVisits(page);
        const figures = await dropOff();
        expect(figures).toMatchObject({ sessions: 4, completed: 1 });
        expect(asRows(figures.questions)).toEqual([
          ['Your name', '4', '3', '1'],
          ['What would you like to talk about with our team this week?', '3', '0', '2'],
          ['E-mail', '1', '1', '0'],
        ]);

        await open(page, formId);
        await expect.poll(() => tableRows(page)).toEqual(asRows(figures.questions));
        await expect
          .poll(() => funnel(page).getAttribute('aria-label'))
          .toBe(
            'Bar chart of 3 questions, each bar the sessions that reached it: 4 sessions, 1 completed the form. ' +
              'Most left at “What would you like to talk about with our team this week?”: 2. ' +
              'Every question’s figures are in the table “Drop-off per question”.',
          );
        // a bar per question, the longest the first (everyone reached it)
        const widths = await page
          .locator('.drop-off__svg .drop-off__reached')
          .evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('width'))));
        expect(widths).toHaveLength(3);
        expect(widths[0]).toBeGreaterThan(widths[1] ?? Number.POSITIVE_INFINITY);
        expect(widths[1]).toBeGreaterThan(widths[2] ?? Number.POSITIVE_INFINITY);
        expect(await page.locator('.drop-off__svg .drop-off__left').count()).toBe(2);
        await picture(page, `dashboard-drop-off-1280-${colorScheme}`);
        await expectNoAxeViolations(page);

        // the table's scrolling box is reached with Tab
        await page.getByRole('heading', { level: 2, name: 'Drop-off' }).click();
        let reached = false;
        for (let i = 0; i < 10 && !reached; i++) {
          await page.keyboard.press('Tab');
          reached = await page.evaluate(
            () =>
              (globalThis as any).document.activeElement?.getAttribute('aria-label') ===
              'Drop-off per question',
          );
        }
        expect(reached).toBe(true);

        // a range without visits: said, no funnel
        const monthAgo = dayBefore(31);
        await open(page, formId, `&from=${monthAgo}&to=${monthAgo}`);
        await page.getByText('No visits in this range yet').waitFor();
        expect(await funnel(page).count()).toBe(0);
        expect(await dropOff(`&from=${monthAgo}&to=${monthAgo}`)).toMatchObject({ sessions: 0 });
        await expectNoAxeViolations(page);
        expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    });

    it(`fits 320 CSS pixels (${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/app/login`, { width: 320, colorScheme });
      const { page } = view;
      try {
        const { formId, dropOff } = await withVisits(page);
        await open(page, formId);
        await expect.poll(() => tableRows(page)).toEqual(asRows((await dropOff()).questions));
        // drawn at the width it has; the long label cut short in the drawing, whole in the table
        await expect
          .poll(async () => (await funnel(page).boundingBox())?.width ?? 0)
          .toBeLessThanOrEqual(300);
        const labels = await page.locator('.drop-off__svg .drop-off__label').allTextContents();
        expect(labels[1]).toMatch(/^2\. What would you like.*…$/);
        expect(await scrollsHorizontally(page)).toBe(false);
        // the table fits too: its box does not scroll sideways
        const table = page.getByRole('region', { name: 'Drop-off per question' });
        expect(await table.evaluate((box) => box.scrollWidth <= box.clientWidth)).toBe(true);
        await picture(page, `dashboard-drop-off-320-${colorScheme}`);
        await expectNoAxeViolations(page);
        expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    });
  }
});
