import { readFile } from 'node:fs/promises';
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
import { createLiveForm, dashboardNoise, signUpInPage } from '../support/dashboard.js';

/**
 * The builder's Languages tab (issue 22 item 6, API.md §13) with the keyboard: German added, the
 * title and a label translated beside the form's own (what is missing counted), the preview in
 * German, published, the hosted page with ?lang=de in German; German exported as JSON and that
 * file imported into another form (a file chooser is the browser's own dialog: the file is
 * handed to the input as a person would pick it); a file of the wrong shape refused. Axe-clean.
 */

const noise = dashboardNoise((problem) => /status of 400|^400 for .*\/forms\//.test(problem));

describe('the builder’s Languages tab in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const FIELDS = [
    { id: 'name', type: 'text', label: 'Your name', required: true },
    {
      id: 'day',
      type: 'select',
      label: 'Which day',
      options: [
        { value: 'fri', label: 'Friday' },
        { value: 'sun', label: 'Sunday' },
      ],
    },
  ];

  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      const label = element.labels?.[0]?.textContent;
      return `${element.tagName.toLowerCase()}:${element.getAttribute('aria-label') || label || element.textContent.trim()}`;
    });
  async function tabTo(page: Page, target: string) {
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      seen.push(await focused(page));
      if (seen.at(-1) === target) return;
    }
    throw new Error(`Tab never reached ${target}: ${seen.join(', ')}`);
  }
  async function openLanguages(page: Page, id: string) {
    await page.goto(`${server.url}/app/forms/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit “Feedback”' }).waitFor();
    await page.getByRole('tab', { name: 'Build' }).focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => focused(page)).toBe('button:Languages');
    await page.getByRole('heading', { level: 2, name: 'Languages' }).waitFor();
  }
  async function publish(page: Page) {
    await page
      .getByRole('region', { name: 'Save and publish' })
      .getByRole('button', { name: 'Publish changes' })
      .focus();
    await page.keyboard.press('Enter');
  }

  it('adds German, translates the title and a label, previews and publishes it; exports and imports it', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'languages');
      const id = await createLiveForm(server, token, { fields: FIELDS });
      await openLanguages(page, id);

      // German from the shipped languages, chosen by its first letter; focus goes to its first text
      await page.locator('#language-add').focus();
      await page.keyboard.press('g');
      await expect(page.locator('#language-add').inputValue()).resolves.toBe('de');
      await tabTo(page, 'button:Add language');
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('input:Title');
      await page.getByRole('heading', { level: 2, name: 'Texts in German (de)' }).waitFor();
      const languages = page.getByRole('list', { name: 'Languages of the form' });
      expect(await languages.textContent()).toContain('5 of 5 missing');
      await page.keyboard.type('Sommerfest');
      await tabTo(page, 'input:“Your name”: label');
      await page.keyboard.type('Ihr Name');
      expect(await languages.textContent()).toContain('3 of 5 missing');
      // each beside the form's own text (which describes it); an untranslated one marked
      const day = page.locator('#translation-fields-day-label');
      expect(await day.getAttribute('aria-describedby')).toBe(
        'translation-fields-day-label-own translation-fields-day-label-missing',
      );
      expect(await page.locator('#translation-fields-day-label-own').textContent()).toBe(
        'English (en): Which day',
      );
      expect(await page.locator('#translation-fields-day-label-missing').textContent()).toBe('missing');
      expect(await page.locator('#translation-title-missing').count()).toBe(0);
      // the preview shows the form in German
      const preview = page.frameLocator('.builder__preview iframe');
      await preview.getByText('Sommerfest').first().waitFor();
      await preview.getByText('Ihr Name').first().waitFor();
      // and Intake's own words in German too: its catalogue loaded for the preview alone
      await expect.poll(() => preview.locator('html').getAttribute('lang')).toBe('de');
      await preview
        .locator('button[type=submit]')
        .filter({ hasText: /^(Weiter|Absenden)$/ })
        .first()
        .waitFor();
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const width of [1280, 320]) {
          await page.setViewportSize({ width, height: 900 });
          await page.getByRole('heading', { level: 2, name: 'Languages' }).evaluate((element) => {
            element.scrollIntoView({ block: 'start' });
            (globalThis as any).scrollBy(0, -120);
          });
          expect(await scrollsHorizontally(page)).toBe(false);
          await screenshot(page, `builder-translations-${width}-${scheme}`, { fullPage: false });
          await expectNoAxeViolations(page);
        }
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 800 });

      await publish(page);
      await page.getByText(/^Published: respondents now get version 2/).waitFor();
      const read = await server.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(read.body.translations).toEqual({
        de: { title: 'Sommerfest', fields: { name: { label: 'Ihr Name' } } },
      });
      const visitor = await openPage(browser, `${server.url}/f/${id}?lang=de`);
      const german = await visitor.page.locator('main').textContent();
      expect(german).toContain('Sommerfest');
      expect(german).toContain('Ihr Name');
      await visitor.close();

      // export: a download of {de: {…}}
      await page.getByRole('button', { name: 'Export German (de) (JSON)' }).focus();
      const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
      expect(download.suggestedFilename()).toBe(`${id}.de.json`);
      const file = await readFile((await download.path()) ?? '', 'utf8');
      expect(JSON.parse(file)).toEqual({
        de: { title: 'Sommerfest', fields: { name: { label: 'Ihr Name' } } },
      });

      // imported into another form: its texts filled, saved as they are
      const other = await createLiveForm(server, token, { fields: FIELDS });
      await openLanguages(page, other);
      await page.locator('#language-import').setInputFiles({
        name: 'bad.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"de": {"title": 3}}'),
      });
      await page.getByText('bad.json: de: title is not text').waitFor();
      // a file of the right shape the server refuses (English is this form's own language): its reason shown
      await page.locator('#language-import').setInputFiles({
        name: 'english.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"en": {"title": "Feedback again"}}'),
      });
      await page.getByText('Imported English (en): save to keep it.').waitFor();
      await publish(page);
      const refusal = page.getByRole('alert').filter({ hasText: 'The translations were not saved' });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('English (en): "en" is the form\'s own language');
      await page.getByRole('button', { name: 'Remove English (en)' }).focus();
      await page.keyboard.press('Enter');
      await page.locator('#language-import').setInputFiles({
        name: `${id}.de.json`,
        mimeType: 'application/json',
        buffer: Buffer.from(file),
      });
      await page.getByText('Imported German (de): save to keep it.').waitFor();
      await expect(page.locator('#translation-title').inputValue()).resolves.toBe('Sommerfest');
      await expect(page.locator('#translation-fields-name-label').inputValue()).resolves.toBe('Ihr Name');
      await expectNoAxeViolations(page);
      await publish(page);
      await page.getByText(/^Published: respondents now get version 2/).waitFor();
      const copied = await server.request({ method: 'GET', url: `/forms/${other}`, auth: token });
      expect(copied.body.translations).toEqual(read.body.translations);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('takes a tag typed in, written as the server writes it, and removes a language', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'tags');
      const id = await createLiveForm(server, token, { fields: FIELDS });
      await openLanguages(page, id);
      await page.locator('#language-add').selectOption('other');
      await page.locator('#language-tag').focus();
      await page.keyboard.type('pt-br');
      await tabTo(page, 'button:Add language');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 2, name: 'Texts in Brazilian Portuguese (pt-BR)' }).waitFor();
      await page.keyboard.type('Festa');
      await page.getByRole('button', { name: 'Remove Brazilian Portuguese (pt-BR)' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('select:Add a language');
      expect(await page.getByRole('list', { name: 'Languages of the form' }).count()).toBe(0);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
