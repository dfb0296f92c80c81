import type { Browser, FrameLocator, Page } from 'playwright-core';
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
import { dashboardNoise, signUpInPage } from '../support/dashboard.js';

/**
 * The builder's preview as a person tries it (issue 25, item 2): the hosted page's own script
 * runs in the frame, so Next, Back, the logic and the checks work as on the live page, with the
 * same "Question n of m" (only the questions the logic shows are counted); the form tried is the
 * one being edited, saved or not; nothing is posted to the server and nothing stored; the
 * preview shows the question whose card the owner is working in.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true, minLength: 2 },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  {
    id: 'ticket',
    type: 'select',
    label: 'Ticket',
    required: true,
    options: [
      { value: 'standard', label: 'Standard' },
      { value: 'student', label: 'Student' },
    ],
  },
  { id: 'student_id', type: 'text', label: 'Student card number', required: true },
  { id: 'workshops', type: 'select', label: 'Workshops', multiple: true, options: ['Design', 'Code'] },
  { id: 'comments', type: 'textarea', label: 'Anything else?' },
  { id: 'agree', type: 'checkbox', label: 'I agree that my details are stored', required: true },
];
const LOGIC = {
  rules: [{ when: { field: 'ticket', op: 'equals', value: 'student' }, show: ['student_id'] }],
};

describe("the builder's preview in Chromium", () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const progress = (frame: FrameLocator | Page) => frame.locator('.progress').textContent();
  const field = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Field ${n}:`) });

  it('is tried like the live page: Next, Back, a logic rule, a check in plain words, the same "Question 2 of 6"; nothing posted, nothing stored', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/f/'))
        posts.push(request.url());
    });
    try {
      const { token } = await signUpInPage(page, server, 'preview');
      const created = await server.request({
        method: 'POST',
        url: '/forms',
        auth: token,
        body: {
          title: 'Meetup registration',
          environment: 'development',
          status: 'live',
          fields: FIELDS,
          logic: LOGIC,
          ui: { layout: 'one-by-one', submitLabel: 'Register' },
        },
      });
      expect(created.status, created.text).toBe(201);
      const formId = created.body.id as string;

      await page.goto(`${server.url}/app/forms/${formId}`);
      await page.getByRole('heading', { level: 1, name: 'Edit “Meetup registration”' }).waitFor();
      const preview = page.frameLocator('iframe.preview');
      // the page's own script runs in the frame
      await expect.poll(() => preview.locator('html').getAttribute('class')).toContain('js');
      // the live page counts the questions the logic shows: the student card number is not, yet
      expect(await progress(preview)).toBe('Question 1 of 6');

      // Next with no name: the page's own check, in the validator's plain words, no post
      await preview.getByRole('button', { name: 'Next' }).click();
      await expect
        .poll(() =>
          preview.getByRole('region', { name: 'There is a problem' }).getByRole('link').allTextContents(),
        )
        .toEqual(['Your name: Answer this question.']);
      await preview.getByLabel('Your name').fill('A');
      await preview.getByRole('button', { name: 'Next' }).click();
      await expect
        .poll(() => preview.locator('#error-name').textContent())
        .toBe('Error: Enter at least 2 characters.');
      await preview.getByLabel('Your name').fill('Ada');
      await preview.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => progress(preview)).toBe('Question 2 of 6');
      // focus on the question's control, as on the live page
      await expect
        .poll(() => preview.locator('body').evaluate(() => (globalThis as any).document.activeElement?.id))
        .toBe('field-email');

      // the live page says the same after its first Next
      const live = await openPage(browser, `${server.url}/f/${formId}`);
      try {
        expect(await progress(live.page)).toBe('Question 1 of 6');
        await live.page.getByLabel('Your name').fill('Ada');
        await posting(live.page, () => live.page.getByRole('button', { name: 'Next' }).click());
        expect(await progress(live.page)).toBe(await progress(preview));
      } finally {
        await live.close();
      }

      await preview.getByLabel('E-mail').fill('ada@example.com');
      await preview.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => progress(preview)).toBe('Question 3 of 6');
      // the logic: a student is asked for the card number, one question more
      await preview.getByText('Student', { exact: true }).click();
      await preview.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => progress(preview)).toBe('Question 4 of 7');
      expect(await preview.getByLabel('Student card number').count()).toBe(1);
      await page.locator('iframe.preview').scrollIntoViewIfNeeded();
      await screenshot(page, 'builder-preview-midway-light', { fullPage: false });
      await expectNoAxeViolations(page);
      // Back keeps the answer given
      await preview.getByRole('button', { name: 'Back' }).click();
      await expect.poll(() => progress(preview)).toBe('Question 3 of 7');
      expect(await preview.getByRole('radio', { name: 'Student' }).isChecked()).toBe(true);
      await preview.getByText('Standard', { exact: true }).click();
      await preview.getByRole('button', { name: 'Next' }).click();
      // standard: no card number
      await expect.poll(() => progress(preview)).toBe('Question 4 of 6');
      expect(await preview.getByRole('group', { name: 'Workshops' }).count()).toBe(1);

      // an edit not saved yet shows at once, where the walk stands
      await field(page, 5).getByLabel('Label').fill('Which workshops?');
      await expect.poll(() => preview.getByRole('group', { name: 'Which workshops?' }).count()).toBe(1);
      expect(await progress(preview)).toBe('Question 4 of 6');

      // working in another field's card: the preview shows that question
      await field(page, 7).getByLabel('Label').click();
      await expect.poll(() => preview.getByLabel('I agree that my details are stored').count()).toBe(1);
      expect(await progress(preview)).toBe('Question 6 of 6');
      await preview.getByRole('button', { name: 'Register' }).click();
      await expect
        .poll(() => preview.locator('#error-agree').textContent())
        .toBe('Error: Tick this box to continue.');
      await preview.getByLabel('I agree that my details are stored').check();
      await preview.getByRole('button', { name: 'Register' }).click();
      await expect.poll(() => preview.locator('h1').textContent()).toBe('Thank you');
      expect(await preview.locator('.form-description').textContent()).toContain('was not stored');

      // start again: the first question
      await page.getByRole('button', { name: 'Start again' }).click();
      await expect.poll(() => progress(preview)).toBe('Question 1 of 6');

      expect(posts).toEqual([]);
      const responses = await server.request({
        method: 'GET',
        url: `/responses?form_id=${formId}&environment=development`,
        auth: token,
      });
      expect(responses.body.data).toEqual([]);
      expect(view.problems.filter((problem) => !dashboardNoise()(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows a classic form scrolled to the field being edited, accessible, fitting 320 px (${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/app/signup`, { colorScheme });
      const { page } = view;
      try {
        const { token } = await signUpInPage(page, server, 'preview');
        const created = await server.request({
          method: 'POST',
          url: '/forms',
          auth: token,
          body: {
            title: 'Meetup registration',
            environment: 'development',
            status: 'draft',
            fields: FIELDS,
            logic: LOGIC,
            ui: { layout: 'classic' },
          },
        });
        await page.goto(`${server.url}/app/forms/${created.body.id}`);
        const preview = page.frameLocator('iframe.preview');
        await expect.poll(() => preview.locator('html').getAttribute('class')).toContain('js');
        // the live logic of the classic page: the card number shows for a student only
        expect(await preview.getByLabel('Student card number').isVisible()).toBe(false);
        await preview.getByText('Student', { exact: true }).click();
        await expect.poll(() => preview.getByLabel('Student card number').isVisible()).toBe(true);
        // the last card: the frame scrolls to its question
        const scrolled = () => preview.locator('body').evaluate(() => (globalThis as any).scrollY as number);
        expect(await scrolled()).toBe(0);
        await field(page, 7).getByLabel('Label').click();
        await expect.poll(scrolled).toBeGreaterThan(100);
        await page.locator('iframe.preview').scrollIntoViewIfNeeded();
        await screenshot(page, `builder-preview-classic-${colorScheme}`, { fullPage: false });
        await expectNoAxeViolations(page);

        await page.setViewportSize({ width: 320, height: 800 });
        expect(await scrollsHorizontally(page)).toBe(false);
        await page.locator('iframe.preview').scrollIntoViewIfNeeded();
        await screenshot(page, `builder-preview-320-${colorScheme}`, { fullPage: false });
        expect(view.problems.filter((problem) => !dashboardNoise()(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    });
  }
});
