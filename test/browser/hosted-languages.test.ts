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
import { createForm, signup } from '../support/factories.js';

/**
 * A form in several languages in Chromium (API.md §13): German, Arabic and Japanese pages pass
 * axe in both colour schemes and both layouts, a refused post and the thanks included; the
 * longest German words fit 320 px with JavaScript off and on; the page script's checks say the
 * same words as the server (JavaScript off) for the same answers.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true, minLength: 2 },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  { id: 'topic', type: 'select', label: 'Topic', required: true, options: ['sales', 'support'] },
  { id: 'agree', type: 'checkbox', label: 'I agree', required: true },
  { id: 'phone', type: 'phone', label: 'Phone' },
];

const TRANSLATIONS = {
  de: {
    title: 'Haftpflichtversicherungsanfrage',
    description: 'Rechtsschutzversicherungsgesellschaften beantworten Ihre Donaudampfschifffahrtsfragen.',
    submitLabel: 'Anfrageformularübermittlung',
    fields: {
      name: {
        label: 'Vollständiger Versicherungsnehmername',
        help: 'Grundstücksverkehrsgenehmigungszuständigkeit',
      },
      email: { label: 'E-Mail-Kommunikationsadresse' },
      topic: {
        label: 'Themenbereich',
        options: { sales: 'Kraftfahrzeughaftpflichtversicherung', support: 'Kundendienstunterstützung' },
      },
      agree: { label: 'Datenschutzgrundverordnungseinwilligungserklärung' },
      phone: { label: 'Telefonnummer' },
    },
  },
  ar: {
    title: 'طلب تأمين',
    fields: {
      name: { label: 'اسمك' },
      email: { label: 'البريد الإلكتروني' },
      topic: { label: 'الموضوع', options: { sales: 'المبيعات', support: 'الدعم' } },
      agree: { label: 'أوافق' },
      phone: { label: 'الهاتف' },
    },
  },
  ja: {
    title: '保険のお問い合わせ',
    fields: {
      name: { label: 'お名前' },
      email: { label: 'メールアドレス' },
      topic: { label: 'トピック', options: { sales: '営業', support: 'サポート' } },
      agree: { label: '同意します' },
      phone: { label: '電話番号' },
    },
  },
};

let server: WebServer;
let browser: Browser;
let classicId: string;
let stepsId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  const user = await signup(server);
  const make = async (layout: string) =>
    (
      await createForm(server, user.token, {
        title: 'Insurance enquiry',
        status: 'live',
        fields: FIELDS,
        ui: { layout },
        translations: TRANSLATIONS,
      })
    ).id as string;
  [classicId, stepsId] = [await make('classic'), await make('one-by-one')];
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The error summary's lines, as the page shows them. */
const summaryOf = (page: Page) => page.locator('.error-summary li').allTextContents();

/**
 * Answers the browser lets through and the server (or the page script) refuses: a phone number
 * of words, and the checkbox left unticked on a page whose script is off… which the browser
 * itself would stop; so it is ticked, and the phone number is the one error.
 */
async function answerBadly(page: Page, lang: keyof typeof TRANSLATIONS) {
  const texts = TRANSLATIONS[lang].fields;
  await page.getByLabel(texts.name.label).fill('Ada');
  await page.getByLabel(texts.email.label).fill('ada@example.com');
  await page.getByRole('radio', { name: texts.topic.options.sales }).check();
  await page.getByLabel(texts.agree.label).check();
  await page.getByLabel(texts.phone.label).fill('call me maybe');
}

describe('German, Arabic and Japanese pages', () => {
  it.each([
    ['de', 'ltr', 'light'],
    ['ar', 'rtl', 'dark'],
    ['ja', 'ltr', 'light'],
    ['de', 'ltr', 'dark'],
  ] as const)('%s (%s, %s): axe clean, the form and its refused post', async (lang, dir, colorScheme) => {
    // axe runs in the page, so with its script on; what it checks is the server's HTML
    const view = await openPage(browser, `${server.url}/f/${classicId}?lang=${lang}`, { colorScheme });
    const { page } = view;
    try {
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      expect(await page.locator('html').getAttribute('dir')).toBe(dir);
      await expectNoAxeViolations(page);
      await answerBadly(page, lang);
      await posting(page, () => page.getByRole('button', { name: submitLabelOf(lang) }).click());
      expect((await summaryOf(page)).length).toBe(1);
      expect(await page.locator('html').getAttribute('lang')).toBe(lang);
      await expectNoAxeViolations(page);
      await screenshot(page, `hosted-${lang}-refused-1280-${colorScheme}`);
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it.each(['de', 'ar', 'ja'] as const)(
    '%s: axe clean one question a page with JavaScript on, to the thanks',
    async (lang) => {
      const view = await openPage(browser, `${server.url}/f/${stepsId}?lang=${lang}`);
      const { page } = view;
      const texts = TRANSLATIONS[lang].fields;
      try {
        await expectNoAxeViolations(page);
        await page.getByLabel(texts.name.label).fill('Ada');
        await posting(page, () => page.locator('button[value=next]').click());
        await page.getByLabel(texts.email.label).fill('ada@example.com');
        await posting(page, () => page.locator('button[value=next]').click());
        await page.getByRole('radio', { name: texts.topic.options.support }).check();
        await posting(page, () => page.locator('button[value=next]').click());
        await page.getByLabel(texts.agree.label).check();
        await posting(page, () => page.locator('button[value=next]').click());
        await page.getByLabel(texts.phone.label).fill('+49 30 1234567');
        await posting(page, () => page.locator('button[value=submit]').click());
        await expect.poll(() => page.locator('h1').textContent()).toBeTruthy();
        expect(await page.locator('html').getAttribute('lang')).toBe(lang);
        await expectNoAxeViolations(page);
        expect(view.problems).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );
});

function submitLabelOf(lang: keyof typeof TRANSLATIONS): string {
  const own = (TRANSLATIONS[lang] as { submitLabel?: string }).submitLabel;
  return own ?? { de: 'Absenden', ar: 'إرسال', ja: '送信' }[lang];
}

describe('320 px with the longest German words', () => {
  it.each([
    ['JavaScript off', false],
    ['JavaScript on', true],
  ])('nothing scrolls sideways, %s, the refused page included', async (_name, javaScriptEnabled) => {
    const view = await openPage(browser, `${server.url}/f/${classicId}?lang=de`, {
      width: 320,
      javaScriptEnabled,
    });
    const { page } = view;
    try {
      expect(await scrollsHorizontally(page)).toBe(false);
      await answerBadly(page, 'de');
      await posting(page, () => page.getByRole('button', { name: submitLabelOf('de') }).click());
      expect((await summaryOf(page)).length).toBe(1);
      expect(await scrollsHorizontally(page)).toBe(false);
      if (!javaScriptEnabled) await screenshot(page, 'hosted-de-refused-320-light');
    } finally {
      await view.close();
    }
  });

  it('one question a page: nothing scrolls sideways', async () => {
    const view = await openPage(browser, `${server.url}/f/${stepsId}?lang=de`, { width: 320 });
    try {
      expect(await scrollsHorizontally(view.page)).toBe(false);
      await screenshot(view.page, 'hosted-de-one-by-one-320-light');
    } finally {
      await view.close();
    }
  });
});

describe('the page script and the server say the same', () => {
  it.each(['de', 'ar', 'ja'] as const)('%s: the same error summary for the same answers', async (lang) => {
    const said: string[][] = [];
    for (const javaScriptEnabled of [false, true]) {
      const view = await openPage(browser, `${server.url}/f/${classicId}?lang=${lang}`, {
        javaScriptEnabled,
      });
      const { page } = view;
      try {
        await answerBadly(page, lang);
        await posting(page, () => page.getByRole('button', { name: submitLabelOf(lang) }).click());
        await expect.poll(() => summaryOf(page).then((lines) => lines.length)).toBe(1);
        said.push(await summaryOf(page));
      } finally {
        await view.close();
      }
    }
    const [byServer, byScript] = said;
    expect(byScript).toEqual(byServer);
    expect(byServer?.[0]).toContain(TRANSLATIONS[lang].fields.phone.label);
    // and not in English
    expect(JSON.stringify(byScript)).not.toMatch(/phone number/i);
  });
});
