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
 * The hosted form (API.md §11.1) in Chromium: the classic layout filled in and sent with
 * JavaScript off (a refused post and its error summary included), with the keyboard alone,
 * accessible (axe-core) on the first page, the page with errors and the thank-you page in light
 * and dark, and no sideways scrolling at 320 CSS pixels.
 */

const FIELDS = [
  {
    id: 'name',
    type: 'text',
    label: 'Your name',
    required: true,
    placeholder: 'Ada Lovelace',
    help: 'As you would like to be addressed',
  },
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
  { id: 'order', type: 'text', label: 'Order number', help: 'Printed on your receipt' },
  {
    id: 'tags',
    type: 'select',
    label: 'Products you use',
    multiple: true,
    options: ['Forms', 'Webhooks', 'Analytics'],
  },
  { id: 'count', type: 'number', label: 'Team size', min: 1, max: 500, integer: true },
  { id: 'day', type: 'date', label: 'Preferred call date' },
  { id: 'site', type: 'url', label: 'Website', placeholder: 'https://' },
  { id: 'phone', type: 'phone', label: 'Phone' },
  { id: 'stars', type: 'rating', label: 'How likely are you to recommend us?', required: true },
  { id: 'message', type: 'textarea', label: 'Message', maxLength: 2000 },
  { id: 'agree', type: 'checkbox', label: 'I agree to be contacted about this request', required: true },
  { id: 'source', type: 'hidden', label: 'Source' },
];

describe('the hosted form in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  let user: TestUser;
  let formId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
    user = await signup(server);
    const form = await createForm(server, user.token, {
      title: 'Talk to our team',
      status: 'live',
      fields: FIELDS,
      logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] },
      ui: {
        layout: 'classic',
        description: 'Tell us what you need and we will get back to you within one working day.',
        submitLabel: 'Send request',
        successMessage: 'Thanks — we will be in touch soon.',
      },
      spamProtection: { honeypot: { field: 'website_hp' }, action: 'reject' },
    });
    formId = form.id;
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
    ).body.data as Array<{ answers: Record<string, unknown> }>;

  const background = (page: Page) =>
    page.evaluate(() => {
      const document = (globalThis as any).document;
      return (globalThis as any).getComputedStyle(document.querySelector('.form-card'))
        .backgroundColor as string;
    });

  /**
   * Fills the form in with a phone number the browser lets through and the server refuses, checks
   * the page with errors, corrects it and sends it: `check` runs on the first page, the page with
   * errors and the thank-you page.
   */
  async function complete(page: Page, check: (step: 'form' | 'error' | 'thanks') => Promise<void>) {
    const before = (await stored()).length;
    expect(await page.title()).toBe('Talk to our team');
    await check('form');

    // a required field's label text is its label exactly (the mark beside it, aria-hidden)
    await page.getByLabel('Your name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('E-mail', { exact: true }).fill('ada@example.com');
    // choices of a few options are tiles: a radio or a checkbox each, in a group the label names
    await page.getByRole('group', { name: 'Topic' }).getByRole('radio', { name: 'Support' }).check();
    await page.getByLabel('Order number').fill('A-1042');
    const products = page.getByRole('group', { name: 'Products you use' });
    await products.getByRole('checkbox', { name: 'Forms' }).check();
    await products.getByRole('checkbox', { name: 'Analytics' }).check();
    await page.getByLabel('Team size').fill('12');
    await page.getByLabel('Phone').fill('call me maybe'); // the browser lets it through, the server does not
    await page
      .getByRole('group', { name: 'How likely are you to recommend us?' })
      .getByLabel('4', { exact: true })
      .check();
    await page.getByLabel('Message').fill('We would like a demo.');
    await page.getByLabel('I agree to be contacted about this request').check();
    await posting(page, () => page.getByRole('button', { name: 'Send request' }).click());

    // the same page, with the summary at the top, focused, linking to the field
    expect(await page.title()).toBe('Error: Talk to our team');
    const summary = page.getByRole('region', { name: 'There is a problem' });
    await expect(summary.isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.className)).toBe(
      'error-summary',
    );
    const link = summary.getByRole('link', {
      name: 'Phone: Enter a phone number using digits, like +1 555 010 0199.',
    });
    expect(await link.getAttribute('href')).toBe('#field-phone');
    await expect(page.getByLabel('Phone').getAttribute('aria-invalid')).resolves.toBe('true');
    // every answer kept
    await expect(page.getByLabel('Your name').inputValue()).resolves.toBe('Ada Lovelace');
    await expect(page.getByRole('radio', { name: 'Support' }).isChecked()).resolves.toBe(true);
    await expect(products.getByRole('checkbox', { name: 'Analytics' }).isChecked()).resolves.toBe(true);
    await expect(products.getByRole('checkbox', { name: 'Webhooks' }).isChecked()).resolves.toBe(false);
    await expect(page.getByLabel('Message').inputValue()).resolves.toBe('We would like a demo.');
    await expect(page.getByLabel('4', { exact: true }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('I agree to be contacted about this request').isChecked()).resolves.toBe(
      true,
    );
    await check('error');
    expect(await stored()).toHaveLength(before);

    // following the link moves to the field
    await link.click();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('field-phone');
    await page.getByLabel('Phone').fill('+44 20 7946 0000');
    await posting(page, () => page.getByRole('button', { name: 'Send request' }).click());
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Thanks — we will be in touch soon.',
    );
    await check('thanks');

    const answers = (await stored()).map((submission) => submission.answers);
    expect(answers).toHaveLength(before + 1);
    expect(answers[0]).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      topic: 'support',
      order: 'A-1042',
      tags: ['Forms', 'Analytics'],
      count: 12,
      phone: '+44 20 7946 0000',
      stars: 4,
      message: 'We would like a demo.',
      agree: true,
      source: 'browser-test',
    });
  }

  it.each(['light', 'dark'] as const)(
    'is completed with JavaScript off (%s): a refused post shows its error summary, then the thank-you page',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/${formId}?source=browser-test`, {
        colorScheme,
        javaScriptEnabled: false,
      });
      try {
        expect(view.response?.status()).toBe(200);
        expect(await background(view.page)).toBe(
          colorScheme === 'dark' ? 'rgb(0, 0, 0)' : 'rgb(255, 255, 255)',
        );
        await complete(view.page, (step) => screenshot(view.page, `hosted-${step}-${colorScheme}`));
        // Chromium reports the 400 document in the console; nothing else may go wrong
        expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  // axe-core runs in the page, so with JavaScript on (the page itself has no script: it is the same page)
  it.each(['light', 'dark'] as const)(
    'has no axe violation on the first page, the page with errors and the thank-you page (%s)',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/${formId}?source=browser-test`, { colorScheme });
      try {
        await complete(view.page, () => expectNoAxeViolations(view.page));
        expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('is completed with the keyboard alone (Tab, typing, Space, arrows, Enter), never reaching the honeypot', async () => {
    const before = (await stored()).length;
    const view = await openPage(browser, `${server.url}/f/${formId}`);
    const { page } = view;
    const focused = () =>
      page.evaluate(() => {
        const element = (globalThis as any).document.activeElement;
        return `${element?.tagName.toLowerCase()}:${element?.getAttribute('name') ?? element?.textContent}`;
      });
    try {
      const visited: string[] = [];
      const tabTo = async (target: string) => {
        for (let i = 0; i < 40; i++) {
          await page.keyboard.press('Tab');
          const now = await focused();
          visited.push(now);
          if (now === target) return;
        }
        throw new Error(`Tab never reached ${target}: ${visited.join(', ')}`);
      };
      // with the script, on a desktop, the first question has the focus at load
      if ((await focused()) !== 'input:name') await tabTo('input:name');
      await page.keyboard.type('Grace Hopper');
      await tabTo('input:email');
      await screenshot(page, 'hosted-keyboard-focus-input');
      await page.keyboard.type('grace@example.com');
      await tabTo('input:topic');
      await page.keyboard.press('Space'); // the first tile, "Sales"
      await tabTo('input:stars');
      await page.keyboard.press('ArrowRight'); // the first radio is chosen as the group gets focus by arrow: 2
      await page.keyboard.press('ArrowRight'); // 3
      await screenshot(page, 'hosted-keyboard-focus-rating');
      await tabTo('input:agree');
      await page.keyboard.press('Space');
      await tabTo('button:Send request');
      expect(visited.some((name) => name.includes('website_hp'))).toBe(false);
      await posting(page, () => page.keyboard.press('Enter'));
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
        'Thanks — we will be in touch soon.',
      );
      const [latest] = await stored();
      expect(await stored()).toHaveLength(before + 1);
      expect(latest?.answers).toMatchObject({
        name: 'Grace Hopper',
        email: 'grace@example.com',
        topic: 'sales',
        agree: true,
      });
      expect(latest?.answers.stars).toBeGreaterThanOrEqual(2);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it.each(['light', 'dark'] as const)(
    'fits 320 CSS pixels without scrolling sideways (%s)',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/${formId}`, {
        width: 320,
        colorScheme,
        javaScriptEnabled: false,
      });
      const { page } = view;
      try {
        await screenshot(page, `hosted-320-${colorScheme}`);
        expect(await scrollsHorizontally(page)).toBe(false);
        await page.getByLabel('E-mail').fill('someone@example.com');
        await page.getByLabel('Your name').fill('A name long enough to wrap on a narrow screen, surely');
        await page.getByLabel('I agree to be contacted about this request').check();
        await page
          .getByRole('group', { name: 'How likely are you to recommend us?' })
          .getByLabel('5', { exact: true })
          .check();
        await page.getByRole('radio', { name: 'Sales' }).check();
        await page.getByLabel('Phone').fill('nope');
        await posting(page, () => page.getByRole('button', { name: 'Send request' }).click());
        await page.getByRole('region', { name: 'There is a problem' }).waitFor();
        await screenshot(page, `hosted-320-error-${colorScheme}`);
        expect(await scrollsHorizontally(page)).toBe(false);
      } finally {
        await view.close();
      }
    },
  );

  it('honours ui.theme, ui.accentColor, ui.language (rtl) under its CSP', async () => {
    const form = await createForm(server, user.token, {
      title: 'استطلاع',
      status: 'live',
      fields: [
        { id: 'name', type: 'text', label: 'الاسم', required: true },
        { id: 'stars', type: 'rating', label: 'التقييم' },
      ],
      ui: { layout: 'classic', theme: 'dark', accentColor: '#9ecbff', language: 'ar', submitLabel: 'إرسال' },
    });
    // a light system preference: the form's theme wins
    const view = await openPage(browser, `${server.url}/f/${form.id}`, { colorScheme: 'light' });
    const { page } = view;
    try {
      expect(await background(page)).toBe('rgb(0, 0, 0)');
      const button = await page.getByRole('button', { name: 'إرسال' }).evaluate((element) => {
        const style = (globalThis as any).getComputedStyle(element);
        return { background: style.backgroundColor as string, color: style.color as string };
      });
      expect(button).toEqual({ background: 'rgb(158, 203, 255)', color: 'rgb(0, 0, 0)' });
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.dir)).toBe('rtl');
      await screenshot(page, 'hosted-rtl-dark-accent');
      await expectNoAxeViolations(page);
      const narrow = await openPage(browser, `${server.url}/f/${form.id}`, { width: 320 });
      try {
        expect(await scrollsHorizontally(narrow.page)).toBe(false);
      } finally {
        await narrow.close();
      }
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  describe('one question a page (ui.layout one-by-one)', () => {
    let stepsId: string;
    beforeAll(async () => {
      const form = await createForm(server, user.token, {
        title: 'Book a demo',
        status: 'live',
        fields: [
          { id: 'name', type: 'text', label: 'Your name', required: true },
          {
            id: 'topic',
            type: 'select',
            label: 'What is it about?',
            required: true,
            options: [
              { value: 'sales', label: 'Sales' },
              { value: 'support', label: 'Support' },
            ],
          },
          {
            id: 'order',
            type: 'text',
            label: 'Order number',
            required: true,
            help: 'Printed on your receipt',
          },
          { id: 'stars', type: 'rating', label: 'How was your last visit?' },
          { id: 'email', type: 'email', label: 'E-mail', required: true },
        ],
        logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] },
        ui: {
          layout: 'one-by-one',
          progress: 'bar',
          submitLabel: 'Book it',
          description: 'Four or five short questions.',
        },
      });
      stepsId = form.id;
    });

    const answersOf = async (formId: string) =>
      (
        await server.request({
          method: 'GET',
          url: `/responses?form_id=${formId}&environment=development`,
          auth: user.token,
        })
      ).body.data.map((submission: { answers: unknown }) => submission.answers);

    async function walk(page: Page, check: (step: string) => Promise<void>) {
      const next = () => posting(page, () => page.getByRole('button', { name: 'Next', exact: true }).click());
      const back = () => posting(page, () => page.getByRole('button', { name: 'Back', exact: true }).click());
      const before = (await answersOf(stepsId)).length;
      expect(await page.title()).toBe('Question 1 of 4 – Book a demo');
      await expect(
        page.getByRole('progressbar', { name: 'Question 1 of 4' }).getAttribute('value'),
      ).resolves.toBe('1');
      await check('question');
      await page.getByLabel('Your name').fill('Ada');
      await next();
      expect(await page.title()).toBe('Question 2 of 4 – Book a demo');
      await page.getByRole('radio', { name: 'Support' }).check();
      await next();
      // the order question appears: five questions now
      expect(await page.title()).toBe('Question 3 of 5 – Book a demo');
      // Back never validates (the order number is required, and empty)
      await back();
      expect(await page.title()).toBe('Question 2 of 5 – Book a demo');
      await expect(page.getByRole('radio', { name: 'Support' }).isChecked()).resolves.toBe(true);
      await next();
      await page.getByLabel('Order number').fill('A-1');
      await next();
      expect(await page.title()).toBe('Question 4 of 5 – Book a demo');
      await page
        .getByRole('group', { name: 'How was your last visit?' })
        .getByLabel('5', { exact: true })
        .check();
      await next();
      expect(await page.title()).toBe('Question 5 of 5 – Book a demo');
      await page.getByLabel('E-mail').fill('ada@localhost'); // the browser takes it; the server wants a dot in the domain
      await posting(page, () => page.getByRole('button', { name: 'Book it' }).click());
      expect(await page.title()).toBe('Error: Question 5 of 5 – Book a demo');
      await expect(
        page
          .getByRole('link', { name: 'E-mail: Enter an e-mail address like name@example.com.' })
          .isVisible(),
      ).resolves.toBe(true);
      await check('question-error');
      expect(await answersOf(stepsId)).toHaveLength(before);
      await page.getByLabel('E-mail').fill('ada@example.com');
      await posting(page, () => page.getByRole('button', { name: 'Book it' }).click());
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');
      const stored = await answersOf(stepsId);
      expect(stored).toHaveLength(before + 1);
      expect(stored[0]).toEqual({
        name: 'Ada',
        topic: 'support',
        order: 'A-1',
        stars: 5,
        email: 'ada@example.com',
      });
    }

    it.each(['light', 'dark'] as const)(
      'is completed with JavaScript off, page by page (%s)',
      async (colorScheme) => {
        const view = await openPage(browser, `${server.url}/f/${stepsId}`, {
          colorScheme,
          javaScriptEnabled: false,
        });
        try {
          await walk(view.page, (step) => screenshot(view.page, `hosted-steps-${step}-${colorScheme}`));
          expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
        } finally {
          await view.close();
        }
      },
    );

    it.each(['light', 'dark'] as const)(
      'has no axe violation on a question page or one with errors (%s)',
      async (colorScheme) => {
        const view = await openPage(browser, `${server.url}/f/${stepsId}`, { colorScheme });
        try {
          await walk(view.page, () => expectNoAxeViolations(view.page));
        } finally {
          await view.close();
        }
      },
    );

    it.each(['light', 'dark'] as const)('fits 320 CSS pixels (%s)', async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/${stepsId}`, {
        width: 320,
        javaScriptEnabled: false,
        colorScheme,
      });
      try {
        await screenshot(view.page, `hosted-steps-320-${colorScheme}`);
        expect(await scrollsHorizontally(view.page)).toBe(false);
      } finally {
        await view.close();
      }
    });
  });
});
