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

/**
 * The dashboard's analytics (API.md §8, §11.3; issue 13), as a person uses it: a visitor views,
 * starts and submits a form on its hosted page; the figures of all forms, of the form's own row,
 * of today's row in the daily table and the chart follow, and equal what GET /analytics answers
 * for the same query; a range without that day shows zeros; a range backwards is explained and
 * not sent; another environment drops the form; the form and a preset range chosen with the keys
 * alone; light and dark, and 320 CSS pixels.
 */

const noise = dashboardNoise();
const DAY_MS = 86_400_000;
/** A UTC day (the API's days), `days` before today. */
const dayBefore = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);

interface Totals {
  views: number;
  starts: number;
  submissions: number;
  flagged: number;
  quarantined: number;
  completionRate: number | null;
  storageBytes: number;
}

/** The figures as the API's totals are, in the page's words (each figure's `<data value>`). */
const asShown = (totals: Totals) => ({
  Views: String(totals.views),
  Starts: String(totals.starts),
  Submissions: String(totals.submissions),
  Flagged: String(totals.flagged),
  Quarantined: String(totals.quarantined),
  'Completion rate': totals.completionRate === null ? '' : String(totals.completionRate),
  'Files kept': String(totals.storageBytes),
});

describe('analytics in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /**
   * Signs up in the page and makes a live form through the API; a visitor (a browser context
   * of its own) opens its hosted page (a view), types (a start) and submits (a submission).
   */
  async function withVisit(page: Page, { quietForm = false } = {}) {
    const { token } = await signUpInPage(page, server, 'stats');
    const formId = await createLiveForm(server, token, {
      fields: [{ id: 'name', type: 'text', label: 'Your name' }],
    });
    // a form nobody started: its completion rate is a dash, "none: no starts" to a screen reader
    if (quietForm)
      await createLiveForm(server, token, {
        title: 'Quiet',
        fields: [{ id: 'q', type: 'text', label: 'Q' }],
      });
    const visitor = await openPage(browser, `${server.url}/f/${formId}`);
    try {
      // the page's script reports the start at the first input
      const started = visitor.page.waitForResponse((answer) =>
        answer.url().endsWith(`/v1/forms/${formId}/events`),
      );
      await visitor.page.getByLabel('Your name').pressSequentially('Ada');
      expect((await started).status()).toBe(202);
      await posting(visitor.page, () => visitor.page.getByRole('button', { name: 'Submit' }).click());
      await visitor.page.getByRole('heading', { level: 1, name: /thank/i }).waitFor();
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.close();
    }
    /** GET /analytics as the API answers it, for a query string. */
    const analytics = async (query: string) => {
      const answer = await server.request({ method: 'GET', url: `/analytics?${query}`, auth: token });
      expect(answer.status).toBe(200);
      return answer.body as { totals: Totals; forms: Array<{ formId: string; title: string }> };
    };
    return { formId, analytics };
  }

  /** The figures the page shows, by their terms: each one's machine-readable value. */
  const figures = (page: Page) =>
    page
      .locator('.stats .stat')
      .evaluateAll((stats) =>
        Object.fromEntries(
          stats.map((stat) => [
            stat.querySelector('dt')?.textContent ?? '',
            (stat.querySelector('data') as { value?: string } | null)?.value ?? '?',
          ]),
        ),
      );
  /** The words shown for one figure ("Completion rate" → "100%"). */
  const shownFigure = (page: Page, term: string) =>
    page
      .locator('.stat')
      .filter({ has: page.getByRole('term').filter({ hasText: term }) })
      .locator('dd')
      .textContent();
  /** A row of a table (a region named `table`), found by its header cell, as the texts of its other cells. */
  const row = (page: Page, table: string, name: string | RegExp) =>
    page
      .getByRole('region', { name: table })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name }) })
      .getByRole('cell')
      .allTextContents();
  const today = () => new Date().toISOString().slice(0, 10);
  /** Today's row of the daily table: its header holds `<time datetime=today>`. */
  const todayRow = (page: Page) =>
    page
      .getByRole('region', { name: 'Daily figures' })
      .getByRole('row')
      .filter({ has: page.locator(`time[datetime="${today()}"]`) })
      .getByRole('cell')
      .allTextContents();
  const heading = (page: Page, name: string) =>
    page.getByRole('heading', { level: 1, name, exact: true }).waitFor();

  it('shows a visit’s view, start and submission for all forms and for the form, then a range without them, then another environment', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { formId, analytics } = await withVisit(page);
      const asked: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/analytics') asked.push(request.url());
      });

      // all forms: the environment's totals, the form's row, today's row, the chart
      await page
        .getByRole('navigation', { name: 'Dashboard' })
        .getByRole('link', { name: 'Analytics' })
        .click();
      await heading(page, 'Analytics');
      await page.getByText(/^In the development environment\./).waitFor();
      await expect.poll(() => page.getByLabel('Form', { exact: true }).inputValue()).toBe('');
      await expect.poll(() => figures(page)).toMatchObject({ Views: '1', Starts: '1', Submissions: '1' });
      expect(await figures(page)).toEqual(asShown((await analytics('environment=development')).totals));
      expect(await shownFigure(page, 'Completion rate')).toBe('100%');
      await expect
        .poll(() => row(page, 'Figures per form', 'Feedback'))
        .toEqual(['1', '1', '1', '0', '0', '100%']);
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      const chart = page.getByRole('img', { name: /^Line chart of views, starts and submissions per day/ });
      await expect
        .poll(() => chart.getAttribute('aria-label'))
        .toContain('1 view, 1 start and 1 submission in all');
      // without a range in the address, the API's default one is shown: the last 30 days
      await expect.poll(() => page.getByLabel('To', { exact: true }).inputValue()).toBe(today());
      expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe(dayBefore(29));
      expect(await page.getByRole('button', { name: 'Last 30 days' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await screenshot(page, 'dashboard-analytics-1280-light');
      await expectNoAxeViolations(page);

      // the form's own figures, by its row's link
      await page
        .getByRole('region', { name: 'Figures per form' })
        .getByRole('link', { name: 'Feedback' })
        .click();
      await heading(page, 'Analytics: Feedback');
      await expect.poll(() => new URL(page.url()).searchParams.get('form')).toBe(formId);
      await expect.poll(() => page.getByLabel('Form', { exact: true }).inputValue()).toBe(formId);
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      expect(await figures(page)).toEqual(
        asShown((await analytics(`environment=development&form_id=${formId}`)).totals),
      );
      expect(await page.getByRole('region', { name: 'Figures per form' }).count()).toBe(0);
      // back and forward: all forms, then the form again
      await page.goBack();
      await heading(page, 'Analytics');
      await expect.poll(() => page.getByLabel('Form', { exact: true }).inputValue()).toBe('');
      await page.goForward();
      await heading(page, 'Analytics: Feedback');

      // from the forms list
      await page.getByRole('link', { name: 'Forms', exact: true }).click();
      await heading(page, 'Forms');
      await page.getByRole('link', { name: 'Analytics: Feedback' }).click();
      await heading(page, 'Analytics: Feedback');
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      expect(await figures(page)).toEqual(
        asShown((await analytics(`environment=development&form_id=${formId}`)).totals),
      );

      // a range a month ago: zeros, as the API counts them for the same query
      const monthAgo = dayBefore(31);
      await page.getByLabel('From', { exact: true }).fill(monthAgo);
      await page.getByLabel('To', { exact: true }).fill(monthAgo);
      await expect.poll(() => new URL(page.url()).searchParams.get('to')).toBe(monthAgo);
      expect(new URL(page.url()).searchParams.get('from')).toBe(monthAgo);
      await page.getByText('No views yet in this range').waitFor();
      await expect.poll(() => figures(page)).toMatchObject({ Views: '0', Starts: '0', Submissions: '0' });
      const old = await analytics(
        `environment=development&form_id=${formId}&from=${monthAgo}&to=${monthAgo}`,
      );
      expect(await figures(page)).toEqual(asShown(old.totals));
      // a dash, said as "none" to a screen reader
      expect(await shownFigure(page, 'Completion rate')).toBe('–none: no starts');
      expect(await page.getByRole('img', { name: /^Line chart/ }).count()).toBe(0);
      await expectNoAxeViolations(page);

      // backwards: explained, not asked for
      const before = dayBefore(32);
      await page.getByLabel('To', { exact: true }).fill(before);
      await page.getByText('“To” is before “From”.').waitFor();
      expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await expect.poll(() => page.locator('.stats').count()).toBe(0);
      // a round trip later, still nothing sent for it
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      expect(asked.filter((url) => url.includes(`to=${before}`))).toEqual([]);
      await page.getByRole('button', { name: 'Last 7 days' }).click();
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      expect(new URL(page.url()).searchParams.get('from')).toBe(dayBefore(6));

      // production: the form is not there, and nothing happened there
      await page.getByLabel('Environment').selectOption('production');
      await page.getByText(/^In the production environment\./).waitFor();
      await page.getByText('“Feedback” is not in the production environment').waitFor();
      await heading(page, 'Analytics');
      await expect.poll(() => new URL(page.url()).searchParams.get('form')).toBe(null);
      await page.getByText('No forms in production yet').waitFor();
      await expect
        .poll(() => page.getByLabel('Form', { exact: true }).locator('option').allTextContents())
        .toEqual(['All forms']);
      const range = `from=${dayBefore(6)}&to=${today()}`;
      const production = await analytics(`environment=production&${range}`);
      await expect.poll(() => figures(page)).toEqual(asShown(production.totals));
      expect(production.totals).toMatchObject({ views: 0, starts: 0, submissions: 0 });
      expect(production.forms).toEqual([]);
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  /** Presses Tab (or Shift+Tab) until the focused element is `selector` (at most 40 times). */
  async function tabTo(page: Page, selector: string, backwards = false) {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
      if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
    }
    throw new Error(`Tab never reached ${selector}`);
  }
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');

  it('chooses the form, a preset range and a form’s link with the keyboard alone, in the dark', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { colorScheme: 'dark' });
    const { page } = view;
    try {
      const { formId, analytics } = await withVisit(page);
      await page.goto(`${server.url}/app/analytics`);
      await heading(page, 'Analytics');
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);

      await tabTo(page, '#analytics-form');
      await page.keyboard.press('ArrowDown');
      await heading(page, 'Analytics: Feedback');
      await expect.poll(() => new URL(page.url()).searchParams.get('form')).toBe(formId);

      await tabTo(page, '.analytics__presets button:first-of-type');
      expect(await focused(page)).toBe('Last 7 days');
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('from')).toBe(dayBefore(6));
      expect(new URL(page.url()).searchParams.get('to')).toBe(today());
      await expect
        .poll(() => page.getByRole('button', { name: 'Last 7 days' }).getAttribute('aria-pressed'))
        .toBe('true');
      await expect.poll(() => page.getByLabel('From', { exact: true }).inputValue()).toBe(dayBefore(6));
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      const week = await analytics(
        `environment=development&form_id=${formId}&from=${dayBefore(6)}&to=${today()}`,
      );
      expect(await figures(page)).toEqual(asShown(week.totals));
      await expectNoAxeViolations(page);

      // back to all forms, and into the form by its row's link: focus lands on the heading
      await tabTo(page, '#analytics-form', true);
      await page.keyboard.press('ArrowUp');
      await heading(page, 'Analytics');
      await expect
        .poll(() => row(page, 'Figures per form', 'Feedback'))
        .toEqual(['1', '1', '1', '0', '0', '100%']);
      await tabTo(page, '[aria-label="Figures per form"] a');
      await page.keyboard.press('Enter');
      await heading(page, 'Analytics: Feedback');
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
      // the range went along
      expect(new URL(page.url()).searchParams.get('from')).toBe(dayBefore(6));
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('fits 320 CSS pixels in the dark, chart and tables included', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { width: 320, colorScheme: 'dark' });
    const { page } = view;
    try {
      const { formId } = await withVisit(page, { quietForm: true });
      await page.goto(`${server.url}/app/analytics`);
      await heading(page, 'Analytics');
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      await expect
        .poll(() => row(page, 'Figures per form', 'Feedback'))
        .toEqual(['1', '1', '1', '0', '0', '100%']);
      await expect
        .poll(() => row(page, 'Figures per form', 'Quiet'))
        .toEqual(['0', '0', '0', '0', '0', '–none: no starts']);
      const chart = page.getByRole('img', { name: /^Line chart/ });
      // the chart is drawn at the width it has, not wider
      await expect.poll(async () => (await chart.boundingBox())?.width ?? 0).toBeLessThanOrEqual(300);
      expect(await scrollsHorizontally(page)).toBe(false);
      await screenshot(page, 'dashboard-analytics-320-dark');
      await expectNoAxeViolations(page);

      // a link to a form of another environment than the switcher's: the switcher follows the form
      await page.getByLabel('Environment').selectOption('production');
      await page.getByText('No forms in production yet').waitFor();
      await page.goto(`${server.url}/app/analytics?form=${formId}`);
      await heading(page, 'Analytics: Feedback');
      await expect.poll(() => page.getByLabel('Environment').inputValue()).toBe('development');
      await page.getByText(/^Switched to the development environment, where “Feedback” is\.$/).waitFor();
      await expect.poll(() => todayRow(page)).toEqual(['1', '1', '1']);
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
