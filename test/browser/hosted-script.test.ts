import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logic } from '../../src/shared/form.js';
import { visibleAnswers } from '../../src/shared/logic.js';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  refusedPost,
  screenshot,
  startWebServer,
  type View,
  type WebServer,
} from '../support/browser.js';
import { type CaptchaVerifier, startCaptchaVerifier } from '../support/captcha-verifier.js';
import { createForm, signup, type TestUser } from '../support/factories.js';

/**
 * The hosted page with its script on (API.md §11.1): no page loads, conditional fields shown and
 * hidden live, answers checked before they are sent (no request when they fail), focus on the
 * error summary, on each question's control (the first at load, on a desktop) and on the thank-you heading, the `start` event sent
 * by the page, ui.redirectUrl followed, and a CAPTCHA's widget (a stand-in for its provider's
 * script, this machine reaching no provider) rendered at load and on a page swapped in, its
 * token verified by a loopback verifier. The same pages without JavaScript: hosted-form.test.ts.
 */

/** A provider's script as the page meets it: a global with render(), and the widgets at load rendered into a hidden token input. */
const standIn = (global: string, className: string, input: string) => `
  window.${global} = {
    render(element) {
      const token = document.createElement('input');
      token.type = 'hidden';
      token.name = '${input}';
      token.value = 'pass~' + Math.random().toString(36).slice(2);
      element.append(token);
      element.append('Verified: you are not a robot');
    },
  };
  for (const element of document.querySelectorAll('.${className}')) window.${global}.render(element);
`;

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true, minLength: 2 },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  {
    id: 'topic',
    type: 'select',
    label: 'Topic',
    required: true,
    options: [
      { value: 'sales', label: 'Sales' },
      { value: 'support', label: 'Support' },
    ],
  },
  { id: 'order', type: 'text', label: 'Order number', required: true, help: 'Printed on your receipt' },
  { id: 'agree', type: 'checkbox', label: 'I agree to be contacted', required: true },
];
const LOGIC = { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] };

describe('the hosted page with its script, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;
  const forms: Record<string, string> = {};

  /** A provider's verify endpoint: tokens that start `pass~` pass. */
  let verifier: CaptchaVerifier;

  beforeAll(async () => {
    verifier = await startCaptchaVerifier((token) => token.startsWith('pass~'));
    const verify = verifier.url;
    [server, browser] = await Promise.all([
      startWebServer({
        rateLimitPublic: 1_000_000,
        captchaVerifyUrls: { turnstile: verify, hcaptcha: verify, recaptcha: verify },
      }),
      launchBrowser(),
    ]);
    user = await signup(server);
    const make = async (name: string, definition: Record<string, unknown>) => {
      forms[name] = (
        await createForm(server, user.token, {
          title: 'Talk to us',
          status: 'live',
          fields: FIELDS,
          ...definition,
        })
      ).id;
    };
    await make('classic', { logic: LOGIC, ui: { layout: 'classic', submitLabel: 'Send' } });
    await make('steps', { logic: LOGIC, ui: { layout: 'one-by-one', submitLabel: 'Send' } });
    await make('redirect', {
      fields: FIELDS.slice(0, 1),
      ui: { layout: 'classic', redirectUrl: `${server.url}/health?from=form` },
    });
    await make('turnstile', {
      fields: FIELDS.slice(0, 1),
      ui: { layout: 'classic' },
      spamProtection: {
        captcha: { provider: 'turnstile', siteKey: 'site', secret: 'secret' },
        action: 'reject',
      },
    });
    await make('hcaptcha', {
      fields: FIELDS.slice(0, 2),
      ui: { layout: 'one-by-one' },
      spamProtection: {
        captcha: { provider: 'hcaptcha', siteKey: 'site', secret: 'secret' },
        action: 'reject',
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await verifier?.close();
  });

  const stored = async (formId: string) =>
    (
      await server.request({
        method: 'GET',
        url: `/responses?form_id=${formId}&environment=development`,
        auth: user.token,
      })
    ).body.data.map((submission: { answers: unknown }) => submission.answers);

  /** The page's documents loaded after the first (none, with the script), and its posts to /f. */
  function watch(view: View) {
    const seen = { documents: 0, posts: 0 };
    // a document loaded (following a link to a field is a navigation too, within the document)
    view.page.on('load', () => {
      seen.documents += 1;
    });
    view.page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/f/')) seen.posts += 1;
    });
    return seen;
  }

  /** The focused control's id and accessible name, as a screen reader would announce it (its label; a radio, its option in the group of the label). */
  const focusedControl = (page: Page) =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      const group = element.closest('fieldset')?.querySelector('legend')?.textContent?.replace(' *', '');
      const label = [...(element.labels ?? [])].map((l: any) => l.textContent.replace(' *', '')).join(' ');
      return group ? `${element.id}: ${group} › ${label}` : `${element.id}: ${label}`;
    });

  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      return `${element.tagName.toLowerCase()}${element.className ? `.${element.className}` : ''}: ${element.textContent.trim()}`;
    });

  it.each(['light', 'dark'] as const)(
    'classic (%s): a conditional field shown and hidden live, answers checked before a post, sent without a page load',
    async (colorScheme) => {
      const before = (await stored(forms.classic ?? '')).length;
      const view = await openPage(browser, `${server.url}/f/${forms.classic}`, { colorScheme });
      const seen = watch(view);
      const { page } = view;
      try {
        const order = page.getByLabel('Order number');
        expect(await order.isVisible()).toBe(false);
        await expectNoAxeViolations(page);
        // the first question's control has the focus at load (a desktop: a fine pointer)
        expect(await focusedControl(page)).toBe('field-name: Your name');
        await page.getByRole('radio', { name: 'Support' }).check();
        expect(await order.isVisible()).toBe(true);
        await order.fill('A-1');
        await page.getByRole('radio', { name: 'Sales' }).check();
        // hidden again, and so neither checked nor sent
        expect(await order.isVisible()).toBe(false);
        expect(await order.isDisabled()).toBe(true);

        // the script's own check: nothing posted, the summary focused, in the server's words
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        expect(seen.posts).toBe(0);
        expect(await page.title()).toBe('Error: Talk to us');
        const summary = page.getByRole('region', { name: 'There is a problem' });
        expect(await focused(page)).toMatch(/^section\.error-summary: There is a problem/);
        expect(await summary.getByRole('link').allTextContents()).toEqual([
          'Your name: Answer this question.',
          'E-mail: Answer this question.',
          'I agree to be contacted: Tick this box to continue.',
        ]);
        await expect(page.getByLabel('Your name').getAttribute('aria-invalid')).resolves.toBe('true');
        await screenshot(page, `hosted-script-check-${colorScheme}`);
        await expectNoAxeViolations(page);
        // the link leads to the field
        // under each question, the message alone, in plain words
        expect(await page.locator('#error-agree').textContent()).toBe('Error: Tick this box to continue.');
        await summary.getByRole('link', { name: 'Your name: Answer this question.' }).click();
        expect(await focused(page)).toMatch(/^input\.control/);

        await page.getByLabel('Your name').fill('A');
        await page.getByLabel('E-mail').fill('ada@localhost'); // the browser takes it, the server does not
        await page.getByLabel('I agree to be contacted').check();
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        expect(seen.posts).toBe(0);
        await expect(
          page.getByRole('link', { name: 'Your name: Enter at least 2 characters.' }).isVisible(),
        ).resolves.toBe(true);

        await page.getByLabel('Your name').fill('Ada');
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        // the server's answer, in place of the page
        expect(seen.posts).toBe(1);
        expect(await page.title()).toBe('Error: Talk to us');
        expect(await focused(page)).toMatch(/^section\.error-summary/);
        await expect(
          page
            .getByRole('link', { name: 'E-mail: Enter an e-mail address like name@example.com.' })
            .isVisible(),
        ).resolves.toBe(true);
        await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Ada');
        // the logic still runs on the page swapped in
        expect(await page.getByLabel('Order number').isVisible()).toBe(false);
        await expectNoAxeViolations(page);

        await page.getByLabel('E-mail').fill('ada@example.com');
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
        expect(await focused(page)).toBe('h1.form-title: Thank you');
        expect(await page.title()).toBe('Response sent – Talk to us');
        await screenshot(page, `hosted-script-thanks-${colorScheme}`);
        await expectNoAxeViolations(page);
        expect(seen).toEqual({ documents: 0, posts: 2 });

        const answers = await stored(forms.classic ?? '');
        expect(answers).toHaveLength(before + 1);
        expect(answers[0]).toEqual({ name: 'Ada', email: 'ada@example.com', topic: 'sales', agree: true });
        expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('counts the view when served and the start at the first answer, once per session', async () => {
    const form = await createForm(server, user.token, { status: 'live', fields: FIELDS.slice(0, 1) });
    const view = await openPage(browser, `${server.url}/f/${form.id}`);
    const counted = async () =>
      (
        await server.request({
          method: 'GET',
          url: `/analytics?environment=development&form_id=${form.id}`,
          auth: user.token,
        })
      ).body.totals;
    try {
      expect(await counted()).toMatchObject({ views: 1, starts: 0 });
      const started = view.page.waitForResponse((answer) =>
        answer.url().endsWith(`/v1/forms/${form.id}/events`),
      );
      await view.page.getByLabel('Your name').pressSequentially('Ada');
      expect((await started).status()).toBe(202);
      await posting(view.page, () => view.page.getByRole('button', { name: 'Submit' }).click());
      expect(await counted()).toMatchObject({ views: 1, starts: 1, submissions: 1 });
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  async function walk(page: Page, seen: { documents: number; posts: number }) {
    const next = () => posting(page, () => page.getByRole('button', { name: 'Next', exact: true }).click());
    const back = () => posting(page, () => page.getByRole('button', { name: 'Back', exact: true }).click());
    expect(await page.title()).toBe('Question 1 of 4 – Talk to us');
    // the script's check: no post
    await next();
    expect(seen.posts).toBe(0);
    expect(await page.title()).toBe('Error: Question 1 of 4 – Talk to us');
    expect(await focused(page)).toMatch(
      /^section\.error-summary: There is a problem\s*Your name: Answer this question\./,
    );
    await page.getByLabel('Your name').fill('Ada');
    await next();
    // the next question, its control focused (named by its label)
    expect(await page.title()).toBe('Question 2 of 4 – Talk to us');
    expect(await focusedControl(page)).toBe('field-email: E-mail');
    await page.getByLabel('E-mail').fill('ada@example.com');
    await next();
    // a choice's first tile focused, in the group its label names
    expect(await focusedControl(page)).toBe('field-topic: Topic › Sales');
    await page.getByRole('radio', { name: 'Sales' }).check();
    await next();
    // sales: the order number is skipped
    expect(await page.title()).toBe('Question 4 of 4 – Talk to us');
    expect(await focusedControl(page)).toBe('field-agree: I agree to be contacted');
    await back();
    expect(await page.title()).toBe('Question 3 of 4 – Talk to us');
    await expect(page.getByRole('radio', { name: 'Sales' }).isChecked()).resolves.toBe(true);
    // the option chosen is the one focused
    expect(await focusedControl(page)).toBe('field-topic: Topic › Sales');
    await page.getByRole('radio', { name: 'Support' }).check();
    await next();
    // support: asked
    expect(await page.title()).toBe('Question 4 of 5 – Talk to us');
    expect(await focusedControl(page)).toBe('field-order: Order number');
    await back(); // never validates
    await next();
    await page.getByLabel('Order number').fill('A-1');
    await next();
    expect(await page.title()).toBe('Question 5 of 5 – Talk to us');
    await page.getByLabel('I agree to be contacted').check();
    await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
    expect(await focused(page)).toBe('h1.form-title: Thank you');
  }

  it.each(['light', 'dark'] as const)(
    'one-by-one (%s): steps without page loads, each question’s control focused, Back keeping answers',
    async (colorScheme) => {
      const before = (await stored(forms.steps ?? '')).length;
      const view = await openPage(browser, `${server.url}/f/${forms.steps}`, { colorScheme });
      const seen = watch(view);
      try {
        await walk(view.page, seen);
        expect(seen.documents).toBe(0);
        await expectNoAxeViolations(view.page);
        const answers = await stored(forms.steps ?? '');
        expect(answers).toHaveLength(before + 1);
        expect(answers[0]).toEqual({
          name: 'Ada',
          email: 'ada@example.com',
          topic: 'support',
          order: 'A-1',
          agree: true,
        });
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('one-by-one with the keyboard alone: what is typed straight after Enter lands in the next question', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.steps}`);
    const { page } = view;
    try {
      // at load (a desktop), the first question's control: typing needs no Tab
      expect(await focusedControl(page)).toBe('field-name: Your name');
      await page.keyboard.type('Grace');
      await posting(page, () => page.keyboard.press('Enter'));
      expect(await focusedControl(page)).toBe('field-email: E-mail');
      await page.keyboard.type('grace@example.com');
      await posting(page, () => page.keyboard.press('Enter'));
      // a choice: its first tile focused, Space chooses it, Enter goes on
      expect(await focusedControl(page)).toBe('field-topic: Topic › Sales');
      await page.keyboard.press('Space');
      await posting(page, () => page.keyboard.press('Enter'));
      expect(await focusedControl(page)).toBe('field-agree: I agree to be contacted');
      // the question's position is heard with its control
      expect(await page.locator('#field-agree').getAttribute('aria-describedby')).toBe('progress');
      await page.keyboard.press('Space');
      await posting(page, () => page.keyboard.press('Enter'));
      expect(await focused(page)).toBe('h1.form-title: Thank you');
      const [latest] = await stored(forms.steps ?? '');
      expect(latest).toEqual({ name: 'Grace', email: 'grace@example.com', topic: 'sales', agree: true });
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('goes to ui.redirectUrl after the post', async () => {
    const view = await openPage(browser, `${server.url}/f/${forms.redirect}`);
    try {
      await view.page.getByLabel('Your name').fill('Ada');
      await Promise.all([
        view.page.waitForURL(`${server.url}/health?from=form`),
        view.page.getByRole('button', { name: 'Submit' }).click(),
      ]);
      expect(await stored(forms.redirect ?? '')).toEqual([{ name: 'Ada' }]);
    } finally {
      await view.close();
    }
  });

  it('hides, on the page, exactly what the server will hide given the post it sends (a chain of rules, answers left in hidden fields)', async () => {
    const logic: Logic = {
      rules: [
        { when: { field: 'a', op: 'equals', value: 'x' }, show: ['b'] },
        { when: { field: 'b', op: 'isNotEmpty' }, hide: ['d'] },
        { when: { field: 'd', op: 'isEmpty' }, hide: ['e'] },
      ],
    };
    const form = await createForm(server, user.token, {
      status: 'live',
      fields: [
        // the author's "dropdown": a select, whatever the count
        { id: 'a', type: 'select', label: 'A', display: 'dropdown', options: ['x', 'z'] },
        { id: 'b', type: 'text', label: 'B' },
        { id: 'd', type: 'text', label: 'D' },
        { id: 'e', type: 'text', label: 'E', required: true },
      ],
      logic,
      ui: { layout: 'classic' },
    });
    const view = await openPage(browser, `${server.url}/f/${form.id}`);
    const { page } = view;
    /** The page's hidden fields, and those the server hides given what the page would post now. */
    const agree = async () => {
      const { shown, posted } = await page.evaluate(() => {
        const document = (globalThis as any).document;
        const formElement = document.querySelector('form[data-form]');
        const data: Record<string, string> = {};
        for (const [name, value] of new (globalThis as any).FormData(formElement)) data[name] = value;
        const fields = [...document.querySelectorAll('.field[data-field]')] as any[];
        return {
          shown: fields.filter((field) => !field.hidden).map((field) => field.dataset.field as string),
          posted: data,
        };
      });
      const { hidden } = visibleAnswers(logic, posted);
      expect(shown.sort()).toEqual(['a', 'b', 'd', 'e'].filter((id) => !hidden.has(id)));
      return shown;
    };
    try {
      await page.getByLabel('A', { exact: true }).selectOption('z');
      await page.getByLabel('D', { exact: true }).fill('d');
      expect(await agree()).toEqual(['a', 'd', 'e']);
      await page.getByLabel('A', { exact: true }).selectOption('x');
      await page.getByLabel('B', { exact: true }).fill('y');
      expect(await agree()).toEqual(['a', 'b']);
      expect(await page.getByRole('textbox', { name: 'E', exact: true }).isVisible()).toBe(false);
      // b hidden again, its answer left in it: d comes back with its answer, and so does e
      await page.getByLabel('A', { exact: true }).selectOption('z');
      expect(await agree()).toEqual(['a', 'd', 'e']);
      // (its label reads "E *": found by its accessible name, which the aria-hidden mark is not part of)
      await page.getByRole('textbox', { name: 'E', exact: true }).fill('e');
      await posting(page, () => page.getByRole('button', { name: 'Submit' }).click());
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
      expect(await stored(form.id)).toEqual([{ a: 'z', d: 'd', e: 'e' }]);
    } finally {
      await view.close();
    }
  });

  it('leaves an answer that is no page of the form (the form closed meanwhile) to the browser to show, as without the script', async () => {
    const form = await createForm(server, user.token, { status: 'live', fields: FIELDS.slice(0, 1) });
    const view = await openPage(browser, `${server.url}/f/${form.id}`);
    const { page } = view;
    try {
      await page.getByLabel('Your name').fill('Ada');
      await server.request({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: user.token,
        body: { status: 'disabled' },
      });
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Submit' }).click()]);
      // the browser's own post of the page, answered with the error page
      expect(await page.getByRole('heading', { level: 1 }).textContent()).not.toBe('Talk to us');
      expect(await page.locator('form[data-form]').count()).toBe(0);
      expect(await stored(form.id)).toEqual([]);
    } finally {
      await view.close();
    }
  });

  describe("a CAPTCHA's widget", () => {
    async function withProvider(url: string, origin: string, script: string) {
      const view = await openPage(browser, 'about:blank');
      await view.context.route(`${origin}/**`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: script }),
      );
      await view.page.goto(url, { waitUntil: 'load' });
      return view;
    }

    it('turnstile on a classic page: rendered at load, its token sent and verified', async () => {
      const view = await withProvider(
        `${server.url}/f/${forms.turnstile}`,
        'https://challenges.cloudflare.com',
        standIn('turnstile', 'cf-turnstile', 'cf-turnstile-response'),
      );
      try {
        await view.page.getByText('Verified: you are not a robot').waitFor();
        await view.page.getByLabel('Your name').fill('Ada');
        await posting(view.page, () => view.page.getByRole('button', { name: 'Submit' }).click());
        expect(await view.page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
        expect(await stored(forms.turnstile ?? '')).toEqual([{ name: 'Ada' }]);
        expect(verifier.verified.at(-1)).toMatch(/^pass~/);
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    });

    it('hCaptcha on a one-by-one form: the widget on the last question, rendered when that page is swapped in', async () => {
      const view = await withProvider(
        `${server.url}/f/${forms.hcaptcha}`,
        'https://js.hcaptcha.com',
        standIn('hcaptcha', 'h-captcha', 'h-captcha-response'),
      );
      try {
        expect(await view.page.locator('[data-captcha]').count()).toBe(0);
        await view.page.getByLabel('Your name').fill('Ada');
        await posting(view.page, () => view.page.getByRole('button', { name: 'Next' }).click());
        await view.page.getByText('Verified: you are not a robot').waitFor();
        await view.page.getByLabel('E-mail').fill('ada@example.com');
        await posting(view.page, () => view.page.getByRole('button', { name: 'Submit' }).click());
        expect(await view.page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
        expect(await stored(forms.hcaptcha ?? '')).toEqual([{ name: 'Ada', email: 'ada@example.com' }]);
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    });
  });
});
