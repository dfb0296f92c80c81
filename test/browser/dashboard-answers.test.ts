import fs from 'node:fs/promises';
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
import { dashboardNoise, signUpInPage } from '../support/dashboard.js';

/**
 * Answers that read like people wrote them (issue 25, items 4 and 10), as a person uses the
 * dashboard: the inbox shows a ticked box as Yes, choices by their labels, dates and ratings in
 * words; its Export downloads a file named after the form, with the questions' labels, a
 * byte-order mark and the notes; on a phone the filters fold so the first response shows, and
 * a response's actions come before its answers; analytics sums up each question with the same
 * figures GET /analytics/questions gives. Keyboard, axe light and dark, 320 CSS pixels.
 */

const noise = dashboardNoise();

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name' },
  {
    id: 'size',
    type: 'select',
    label: 'T-shirt size',
    options: [
      { value: 's', label: 'Small' },
      { value: 'm', label: 'Medium' },
      { value: 'l', label: 'Large' },
    ],
  },
  { id: 'news', type: 'checkbox', label: 'Keep me posted' },
  { id: 'arrival', type: 'date', label: 'Arrival' },
  { id: 'guests', type: 'number', label: 'Guests' },
  { id: 'stars', type: 'rating', label: 'How was it?' },
];

const ANSWERS = [
  { name: 'Zoë', size: 'm', news: true, arrival: '2026-12-01', guests: 2, stars: 5 },
  { name: 'Bob', size: 'm', news: false, guests: 4, stars: 4 },
  { name: 'Ann', size: 's', news: true, guests: 1, stars: 5 },
];

describe('answers for people, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Signs up in the page; a live form "Café sign-ups" with three responses (the first with a note). */
  async function withResponses(page: Page) {
    const { token } = await signUpInPage(page, server, 'answers');
    const form = await server.request({
      method: 'POST',
      url: '/forms',
      auth: token,
      body: { title: 'Café sign-ups', environment: 'development', status: 'live', fields: FIELDS },
    });
    expect(form.status, form.text).toBe(201);
    const formId = form.body.id as string;
    const ids: string[] = [];
    for (const answers of ANSWERS) {
      const sent = await server.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body: { answers },
      });
      expect(sent.status, sent.text).toBe(201);
      ids.push(sent.body.id);
    }
    const noted = await server.request({
      method: 'POST',
      url: `/responses/${ids[0]}/notes`,
      auth: token,
      body: { text: 'Wants a vegan lunch' },
    });
    expect(noted.status).toBe(200);
    return { token, formId, ids };
  }

  it('shows Yes/No, labels and dates in the inbox, and exports a CSV for a spreadsheet', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { formId, ids } = await withResponses(page);
      await page.goto(`${server.url}/app/forms/${formId}/inbox`);
      await page.getByRole('heading', { level: 1, name: 'Inbox: Café sign-ups' }).waitFor();
      const rows = page.locator('.inbox__row');
      await expect.poll(() => rows.count()).toBe(3);
      // newest first: Ann's row reads as people wrote it
      await expect.poll(() => rows.first().textContent()).toContain('Your name: Ann · T-shirt size: Small');

      // opened with the keyboard: the oldest response (Zoë's), every answer in words
      await rows.last().getByRole('button').focus();
      await page.keyboard.press('Enter');
      const detail = page.getByRole('article');
      await page.getByRole('heading', { level: 2, name: /^Response of / }).waitFor();
      const answers = await detail
        .locator('.answers > div')
        .evaluateAll((items) =>
          items.map((item) => [item.querySelector('dt')?.textContent, item.querySelector('dd')?.textContent]),
        );
      const arrival = new Date('2026-12-01T00:00:00Z').toLocaleDateString(undefined, {
        timeZone: 'UTC',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      });
      expect(answers).toEqual([
        ['Your name', 'Zoë'],
        ['T-shirt size', 'Medium'],
        ['Keep me posted', 'Yes'],
        ['Arrival', arrival],
        ['Guests', '2'],
        ['How was it?', '5 of 5'],
      ]);
      expect(await detail.textContent()).not.toMatch(/\btrue\b|\bfalse\b/);
      // Bob left the box unticked: No
      await rows.nth(1).getByRole('button').click();
      await expect
        .poll(() =>
          detail.locator('.answers > div').filter({ hasText: 'Keep me posted' }).locator('dd').textContent(),
        )
        .toBe('No');
      // the actions come before the answers
      const [actionsTop, answersTop] = await Promise.all([
        detail
          .getByRole('button', { name: /^Mark (un)?read$/ })
          .evaluate((e) => e.getBoundingClientRect().top),
        detail.locator('.answers').evaluate((e) => e.getBoundingClientRect().top),
      ]);
      expect(actionsTop).toBeLessThan(answersTop);

      // Export, reached with the keyboard: a file named after the form and the day
      const exportLink = page.getByRole('link', { name: 'Export CSV' });
      await exportLink.focus();
      const [file] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      const today = new Date().toISOString().slice(0, 10);
      expect(file.suggestedFilename()).toBe(`Café sign-ups ${today}.csv`);
      const bytes = await fs.readFile((await file.path()) as string);
      // a UTF-8 byte-order mark: Excel then reads "Café" and "Zoë" right
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = bytes.subarray(3).toString('utf8').split('\r\n').filter(Boolean);
      const cells = lines.map((line) => line.split(',').map((cell) => cell.replace(/^"(.*)"$/, '$1')));
      expect(cells[0]).toEqual([
        'id',
        'createdAt',
        'status',
        'read',
        'starred',
        'language',
        ...FIELDS.map((field) => field.label),
        'notes',
      ]);
      const zoe = cells.find((row) => row[0] === ids[0]);
      expect(zoe?.[6]).toBe('Zoë');
      expect(zoe?.at(-1)).toBe('Wants a vegan lunch');
      expect(cells.find((row) => row[0] === ids[1])?.at(-1)).toBe('');

      await screenshot(page, 'inbox-answers-1280-light');
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it.each([
    { width: 390, colorScheme: 'light' as const },
    { width: 320, colorScheme: 'dark' as const },
  ])(
    'on a $width px phone ($colorScheme): filters folded, the first response above the fold, actions first',
    async ({ width, colorScheme }) => {
      const view = await openPage(browser, `${server.url}/app/login`, { width, colorScheme });
      const { page } = view;
      try {
        await page.setViewportSize({ width, height: 700 });
        const { formId } = await withResponses(page);
        await page.goto(`${server.url}/app/forms/${formId}/inbox`);
        await page.getByRole('heading', { level: 1, name: 'Inbox: Café sign-ups' }).waitFor();
        const rows = page.locator('.inbox__row');
        await expect.poll(() => rows.count()).toBe(3);
        const filters = page.locator('details.inbox__filter-box');
        expect(await filters.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
        expect(await page.getByLabel('Show', { exact: true }).isVisible()).toBe(false);
        const firstBottom = await rows.first().evaluate((row) => row.getBoundingClientRect().bottom);
        expect(firstBottom).toBeLessThanOrEqual(700);
        await screenshot(page, `inbox-phone-${width}-${colorScheme}`, { fullPage: false });
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);

        // the filters open from the keyboard, and say how many parts are set
        await page.locator('summary', { hasText: 'Filters' }).focus();
        await page.keyboard.press('Enter');
        await page.getByLabel('Show', { exact: true }).selectOption('accepted');
        await page.locator('summary', { hasText: 'Filters (1 set)' }).waitFor();

        // a response opened: read, star, reply and delete before its answers
        await rows.first().getByRole('button').click();
        const detail = page.getByRole('article');
        const tops = await Promise.all(
          [
            detail.getByRole('button', { name: /^Mark (un)?read$/ }),
            detail.getByRole('button', { name: 'Star', exact: true }),
            detail.getByRole('button', { name: 'Delete', exact: true }),
            detail.locator('.answers'),
          ].map((locator) => locator.evaluate((e) => e.getBoundingClientRect().top)),
        );
        expect(Math.max(...tops.slice(0, 3))).toBeLessThan(tops[3] as number);
        expect(await scrollsHorizontally(page)).toBe(false);
        await screenshot(page, `inbox-response-${width}-${colorScheme}`, { fullPage: false });
        await expectNoAxeViolations(page);
        expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it.each([
    { width: 1280, colorScheme: 'light' as const },
    { width: 1280, colorScheme: 'dark' as const },
    { width: 320, colorScheme: 'light' as const },
  ])(
    'sums up each question in analytics with the API’s figures ($width px, $colorScheme)',
    async ({ width, colorScheme }) => {
      const view = await openPage(browser, `${server.url}/app/login`, { width, colorScheme });
      const { page } = view;
      try {
        const { token, formId } = await withResponses(page);
        const api = await server.request({
          method: 'GET',
          url: `/analytics/questions?environment=development&form_id=${formId}`,
          auth: token,
        });
        expect(api.status).toBe(200);
        await page.goto(`${server.url}/app/analytics?form=${formId}`);
        await page.getByRole('heading', { level: 1, name: 'Analytics: Café sign-ups' }).waitFor();
        await page.getByRole('heading', { level: 2, name: 'Per question' }).waitFor();

        /** A question's card: how many answered, its figures, its table's rows (header cell, count). */
        const card = (label: string) =>
          page.getByRole('region', { name: label, exact: true }).evaluate((section) => ({
            answered: section.querySelector('p')?.textContent ?? '',
            figures: Object.fromEntries(
              Array.from(section.querySelectorAll('.question__figures > div')).map((item) => [
                item.querySelector('dt')?.textContent,
                item.querySelector('dd')?.textContent,
              ]),
            ),
            rows: Array.from(section.querySelectorAll('tbody tr')).map((row) => [
              row.querySelector('th')?.textContent,
              row.querySelector('td')?.textContent,
            ]),
          }));
        for (const question of api.body.questions as any[]) {
          const shown = await card(question.label);
          expect(shown.answered).toMatch(
            new RegExp(`^${question.answered} of ${api.body.responses} answered`),
          );
          if (question.options)
            expect(shown.rows).toEqual(question.options.map((o: any) => [o.label, String(o.count)]));
          if (question.distribution) {
            expect(shown.rows.map((row) => row[1])).toEqual(
              question.distribution.map((b: any) => String(b.count)),
            );
            expect(shown.figures).toEqual({
              Mean: new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(question.mean),
              Median: String(question.median),
              Lowest: String(question.min),
              Highest: String(question.max),
            });
          }
          if (question.type === 'text') expect(shown.rows).toEqual([]);
        }
        // what was answered, in people's words
        expect((await card('Keep me posted')).rows).toEqual([
          ['Yes', '2'],
          ['No', '1'],
        ]);
        expect((await card('T-shirt size')).rows).toEqual([
          ['Small', '1'],
          ['Medium', '2'],
          ['Large', '0'],
        ]);
        expect((await card('How was it?')).figures.Median).toBe('5');

        // the keyboard reaches past the summary (nothing in it traps focus)
        await page.getByRole('heading', { level: 2, name: 'Per question' }).scrollIntoViewIfNeeded();
        await screenshot(page, `analytics-per-question-${width}-${colorScheme}`);
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
        expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );
});
