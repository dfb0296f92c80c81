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
 * The builder's file field (API.md §12, §11.3), used as a person uses it, with the keyboard
 * alone: "File upload" picked in the Add field palette, then its rules on its card: files per
 * answer, the largest file in megabytes, the accepted types ticked from presets and typed by
 * hand; only the members a file field takes are offered, and "More options" says what each way
 * of keeping personal data means for a file. Saved, then read back through the API; a logic
 * condition on the field offers only "has no file" and "has a file", and no spam rule reads it;
 * axe in light and dark at 1280 and 320 CSS pixels.
 */

const MB = 1024 * 1024;
const noise = dashboardNoise();

describe('the builder’s file field in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const field = (page: Page, n: number) => page.getByRole('group', { name: new RegExp(`^Field ${n}:`) });
  /** What has focus: its tag and its accessible name as a test reads it (aria-label, else its label's words, else its text). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const document = (globalThis as any).document;
      const element = document.activeElement;
      const label = element.labels?.[0]?.textContent;
      return `${element.tagName.toLowerCase()}:${element.getAttribute('aria-label') || label || element.textContent.trim()}`;
    });
  async function tabTo(page: Page, target: string, key = 'Tab') {
    const seen: string[] = [];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press(key);
      seen.push(await focused(page));
      if (seen.at(-1) === target) return;
    }
    throw new Error(`${key} never reached ${target}: ${seen.join(', ')}`);
  }
  const chosenText = (select: ReturnType<Page['getByLabel']>) =>
    select.evaluate((element: any) => element.selectedOptions[0].text as string);

  /** A new form, then "Add field" → "File upload" with the keyboard, labelled `label`. */
  async function newFormWithFileField(page: Page, label: string) {
    await page.getByRole('button', { name: 'New form' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
    await page.locator('#add-field').focus();
    await page.keyboard.press('Enter');
    const palette = page.getByRole('dialog', { name: 'Add a field' });
    await palette.waitFor();
    expect(await palette.getByRole('button', { name: 'File upload' }).getAttribute('aria-describedby')).toBe(
      'palette-file-about',
    );
    for (let i = 0; i < 14 && (await focused(page)) !== 'button:File upload'; i++)
      await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('button:File upload');
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden' });
    await expect.poll(() => focused(page)).toBe('input:Label');
    await page.keyboard.type(label);
  }

  it('sets a file field’s rules with the keyboard alone, offers only what a file takes, and saves them', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'files');
      await newFormWithFileField(page, 'Your CV');
      const card = field(page, 1);
      expect(await chosenText(card.getByLabel('Type', { exact: true }))).toBe('File upload');

      // files per answer: one at first, then up to three with the arrows
      const count = card.getByLabel('Files per answer');
      expect(await chosenText(count)).toBe('One file');
      await tabTo(page, 'select:Files per answer');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => chosenText(count)).toBe('Up to 3 files');

      // the largest file in megabytes: blank is 10 MB; what is no size is said beside the box
      await tabTo(page, 'input:Largest file (MB)');
      await page.keyboard.type('0');
      await card.getByText('Type a size above 0 MB').waitFor();
      expect(await card.getByLabel('Largest file (MB)').getAttribute('aria-invalid')).toBe('true');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('2.5');
      await card.getByText('Type a size above 0 MB').waitFor({ state: 'detached' });

      // accepted types: PDF and Images ticked with the space bar; Documents holds PDF whole
      await tabTo(page, 'input:PDF');
      await page.keyboard.press('Space');
      await tabTo(page, 'input:Images');
      await page.keyboard.press('Space');
      const documents = card.getByRole('checkbox', { name: 'Documents (PDF, Word, text)' });
      await tabTo(page, 'input:Documents (PDF, Word, text)');
      await page.keyboard.press('Space');
      const pdf = card.getByRole('checkbox', { name: 'PDF', exact: true });
      await expect.poll(() => pdf.isDisabled()).toBe(true);
      expect(await pdf.isChecked()).toBe(true);
      expect(await card.getByText('(in Documents)').count()).toBe(1);
      // Documents unticked: PDF goes with it (it was within it)
      await page.keyboard.press('Space');
      await expect.poll(() => documents.isChecked()).toBe(false);
      expect(await pdf.isChecked()).toBe(false);
      await tabTo(page, 'input:PDF', 'Shift+Tab');
      await page.keyboard.press('Space');

      // other types typed by hand: a bare word is an extension; what is no type is named
      await tabTo(page, 'input:Other types');
      await page.keyboard.type('heic, image/');
      await card.getByText('“image/” is neither an extension like .heic nor a type like image/png').waitFor();
      for (let i = 0; i < 'image/'.length; i++) await page.keyboard.press('Backspace');
      await page.keyboard.type('application/zip');
      await card.locator('.error').waitFor({ state: 'detached' });

      // nothing a file field does not take: no placeholder, no lengths or pattern, no options
      await card.locator('summary').focus();
      await page.keyboard.press('Enter');
      await card.getByLabel('Field id').waitFor();
      for (const absent of ['Placeholder', 'Fewest characters', 'Most characters', 'Pattern', 'Smallest'])
        expect(await card.getByLabel(absent).count(), absent).toBe(0);
      expect(await card.getByRole('button', { name: 'Add option' }).count()).toBe(0);
      // what each way of keeping personal data means for a file, tied to the choice
      const pii = card.getByLabel('Personal data');
      expect(await pii.getAttribute('aria-describedby')).toContain('-pii-hint');
      await card.getByText(/For a file: masked keeps the file but hides its name/).waitFor();
      await pii.focus();
      for (let i = 0; i < 6 && (await chosenText(pii)) !== 'Personal: encrypted'; i++)
        await page.keyboard.press('ArrowDown');
      expect(await chosenText(pii)).toBe('Personal: encrypted');

      await card.evaluate((element: any) => {
        element.scrollIntoView({ block: 'start' });
        // below the sticky Save bar
        (globalThis as any).scrollBy(0, -110);
      });
      await screenshot(page, 'builder-file-field-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Save', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Saved.').waitFor();
      const formId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const stored = (await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token })).body;
      expect(stored.fields).toEqual([
        {
          id: 'your_cv',
          type: 'file',
          label: 'Your CV',
          maxFiles: 3,
          maxFileSize: 2.5 * MB,
          accept: ['image/*', '.pdf', 'application/pdf', '.heic', 'application/zip'],
          pii: true,
          piiMode: 'encrypted',
        },
      ]);

      // read again from the server: the card shows what was stored
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      expect(await chosenText(field(page, 1).getByLabel('Files per answer'))).toBe('Up to 3 files');
      expect(await field(page, 1).getByLabel('Largest file (MB)').inputValue()).toBe('2.5');
      expect(await field(page, 1).getByLabel('Other types').inputValue()).toBe('.heic, application/zip');
      expect(await field(page, 1).getByRole('checkbox', { name: 'Images' }).isChecked()).toBe(true);

      // a condition on a file field: there or not, nothing to type
      await page.getByRole('button', { name: 'Add rule' }).click();
      const condition = page.getByRole('group', { name: 'Condition 1 of rule 1' });
      const test = condition.getByLabel('Test', { exact: true });
      expect(
        await test.evaluate((select: any) => [...select.options].map((option: any) => option.text)),
      ).toEqual(['has no file', 'has a file']);
      expect(await condition.getByRole('textbox').count()).toBe(0);
      // a spam rule reads an answer as text: a form of files alone has none to add
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByRole('tabpanel', { name: 'Settings' }).getByLabel('CAPTCHA').waitFor();
      expect(await page.getByRole('button', { name: 'Add spam rule' }).count()).toBe(0);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('changing a text field to a file field leaves its text rules behind, so the save is taken', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'files-type');
      await page.getByRole('button', { name: 'New form' }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      await page.locator('#add-field').click();
      await page
        .getByRole('dialog', { name: 'Add a field' })
        .getByRole('button', { name: 'Short text' })
        .click();
      const card = field(page, 1);
      await card.locator('summary').click();
      await card.getByLabel('Placeholder (example text in the empty box)').fill('A link');
      await card.getByLabel('Most characters').fill('80');
      await card.getByLabel('Type', { exact: true }).selectOption({ label: 'File upload' });
      await card.getByLabel('Files per answer').waitFor();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      const formId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const stored = (await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token })).body;
      expect(stored.fields).toEqual([{ id: 'question_1', type: 'file', label: 'Question 1' }]);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 320]) {
      it(`has no axe violation with a file field open${width === 320 ? ', and fits 320 CSS pixels' : ''} (${colorScheme})`, async () => {
        const view = await openPage(browser, `${server.url}/app/signup`, { colorScheme, width });
        const { page } = view;
        try {
          await signUpInPage(page, server, `files-${width}-${colorScheme}`);
          await newFormWithFileField(page, 'Photos of the damage');
          const card = field(page, 1);
          await card.getByRole('checkbox', { name: 'Documents (PDF, Word, text)' }).check();
          await card.getByLabel('Other types').fill('heic, nope/');
          await card.locator('summary').click();
          await card.evaluate((element: any) => {
            element.scrollIntoView({ block: 'start' });
            (globalThis as any).scrollBy(0, -110);
          });
          await screenshot(page, `builder-file-field-${width}-${colorScheme}`, { fullPage: false });
          expect(await scrollsHorizontally(page)).toBe(false);
          await expectNoAxeViolations(page);
          expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
        } finally {
          await view.close();
        }
      });
    }
  }
});
