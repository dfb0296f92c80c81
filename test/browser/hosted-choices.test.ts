import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  refusedPost,
  screenshot,
  scrollsHorizontally,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createForm, signup, type TestUser } from '../support/factories.js';

/**
 * Choices on the hosted page (issue 25): up to seven options are tiles, a radio (one answer) or a
 * checkbox (several) each, in a group its label names; more, or the author's "dropdown", is a
 * dropdown (one answer) or a scrolling list of checkboxes (several), never a list box that needs
 * Ctrl. Tapped on a 390 px phone with JavaScript off and on, stored as the options' values;
 * on a phone nothing is focused at load (the keyboard would cover the form), on a desktop the
 * first question is. Plain words when a required choice is left out.
 */

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'Any day'];
const FIELDS = [
  {
    id: 'ticket',
    type: 'select',
    label: 'Ticket',
    required: true,
    options: [
      { value: 'standard', label: 'Standard' },
      { value: 'student', label: 'Student' },
      { value: 'supporter', label: 'Supporter' },
    ],
  },
  {
    id: 'workshops',
    type: 'select',
    label: 'Workshops',
    multiple: true,
    required: true,
    options: ['Design', 'Code', 'Writing'],
  },
  { id: 'day', type: 'select', label: 'Arrival day', options: DAYS },
  { id: 'diet', type: 'select', label: 'Diet', multiple: true, options: ['None', ...DAYS.slice(0, 7)] },
  {
    id: 'size',
    type: 'select',
    label: 'T-shirt size',
    display: 'dropdown',
    options: ['S', 'M', 'L'],
  },
];

describe('choices on the hosted page, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;
  let formId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer({ rateLimitPublic: 1_000_000 }), launchBrowser()]);
    user = await signup(server);
    formId = (
      await createForm(server, user.token, {
        title: 'Register for the meetup',
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'classic', submitLabel: 'Register' },
      })
    ).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const stored = async () =>
    (
      await server.request({
        method: 'GET',
        url: `/responses?form_id=${formId}&environment=development`,
        auth: user.token,
      })
    ).body.data.map((submission: { answers: unknown }) => submission.answers);

  const focusedId = (page: Page) => page.evaluate(() => (globalThis as any).document.activeElement?.id ?? '');

  it('draws each choice as the rule says: tiles, a dropdown, a scrolling list of checkboxes; never a list box', async () => {
    const view = await openPage(browser, `${server.url}/f/${formId}`);
    const { page } = view;
    try {
      const ticket = page.getByRole('group', { name: 'Ticket' });
      expect(await ticket.getByRole('radio').count()).toBe(3);
      expect(await page.getByRole('group', { name: 'Workshops' }).getByRole('checkbox').count()).toBe(3);
      // eight options: a dropdown; the author's "dropdown": a dropdown too
      expect(await page.getByRole('combobox', { name: 'Arrival day' }).count()).toBe(1);
      expect(await page.getByRole('combobox', { name: 'T-shirt size' }).count()).toBe(1);
      // several of eight: checkboxes in a list that scrolls
      const diet = page.getByRole('group', { name: 'Diet' });
      expect(await diet.getByRole('checkbox').count()).toBe(8);
      expect(await page.locator('select[multiple]').count()).toBe(0);
      expect(await page.getByText(/Ctrl/).count()).toBe(0);
      // on a desktop the first question's control has the focus at load
      expect(await focusedId(page)).toBe('field-ticket');
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const javaScriptEnabled of [false, true]) {
    const mode = javaScriptEnabled ? 'on' : 'off';
    it(`is answered by tapping tiles on a 390 px phone, JavaScript ${mode}`, async () => {
      const before = (await stored()).length;
      const view = await openPage(browser, `${server.url}/f/${formId}`, {
        width: 390,
        touch: true,
        javaScriptEnabled,
      });
      const { page } = view;
      try {
        // a phone: nothing focused at load, so no keyboard opens over the form
        expect(await focusedId(page)).toBe('');
        expect(await scrollsHorizontally(page)).toBe(false);
        // a tile is a thumb's target: the whole tile, at least 44 px high
        const tile = page.locator('label.choice', { hasText: 'Student' });
        expect((await tile.boundingBox())?.height).toBeGreaterThanOrEqual(44);
        await screenshot(page, `hosted-choices-phone-js-${mode}`);

        // the tap lands on the tile's text: the label ticks its radio
        // (without the script, the browser itself holds back a post with no ticket: its radios are required)
        if (!javaScriptEnabled) await page.getByText('Student', { exact: true }).tap();
        // Register with no workshop (and, with the script, no ticket): told in plain words
        await posting(page, () => page.getByRole('button', { name: 'Register' }).tap());
        const summary = page.getByRole('region', { name: 'There is a problem' });
        expect(await summary.getByRole('link').allTextContents()).toEqual([
          ...(javaScriptEnabled ? ['Ticket: Choose an answer.'] : []),
          'Workshops: Choose at least one answer.',
        ]);
        expect(await page.locator('#error-workshops').textContent()).toBe(
          'Error: Choose at least one answer.',
        );
        await screenshot(page, `hosted-choices-phone-error-js-${mode}`);

        await page.getByText('Student', { exact: true }).tap();
        await page.getByText('Design', { exact: true }).tap();
        await page.getByText('Writing', { exact: true }).tap();
        await page.getByRole('combobox', { name: 'Arrival day' }).selectOption('Friday');
        await page.getByRole('group', { name: 'Diet' }).getByText('None', { exact: true }).tap();
        expect(await page.getByRole('radio', { name: 'Student' }).isChecked()).toBe(true);
        await posting(page, () => page.getByRole('button', { name: 'Register' }).tap());
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
        const answers = await stored();
        expect(answers).toHaveLength(before + 1);
        expect(answers[0]).toEqual({
          ticket: 'student',
          workshops: ['Design', 'Writing'],
          day: 'Friday',
          diet: ['None'],
        });
        // the refused post's page is answered 400, which the browser logs
        expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    });
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe violation, and fits 320 px, with tiles chosen and with errors (${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/f/${formId}`, { colorScheme, width: 320 });
      const { page } = view;
      try {
        await page.getByRole('radio', { name: 'Supporter' }).check();
        await expectNoAxeViolations(page);
        expect(await scrollsHorizontally(page)).toBe(false);
        await screenshot(page, `hosted-choices-320-${colorScheme}`);
        await posting(page, () => page.getByRole('button', { name: 'Register' }).click());
        await expectNoAxeViolations(page);
        expect(await scrollsHorizontally(page)).toBe(false);
      } finally {
        await view.close();
      }
    });
  }

  it('is answered with the keyboard: arrows choose a tile, Space ticks a box, Tab leaves the group', async () => {
    const view = await openPage(browser, `${server.url}/f/${formId}`);
    const { page } = view;
    try {
      await screenshot(page, 'hosted-choices-desktop');
      expect(await focusedId(page)).toBe('field-ticket');
      await page.keyboard.press('ArrowDown'); // Student
      await page.keyboard.press('Tab'); // the first workshop
      await page.keyboard.press('Space');
      expect(await page.getByRole('radio', { name: 'Student' }).isChecked()).toBe(true);
      expect(await page.getByRole('checkbox', { name: 'Design' }).isChecked()).toBe(true);
    } finally {
      await view.close();
    }
  });
});
