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
 * The builder organised (issue 25, item 6, and item 4's builder part), used as a person uses it:
 * "Add field" opens a palette of types (Esc closes it, focus comes back; the arrows go from type
 * to type), a field's rarely used rules wait under "More options", a choice's options are rows
 * with add, move and remove buttons that keep focus in hand, Build/Design/Settings/Share are
 * tabs with the arrow keys; field ids are made from labels until the id is edited or the form
 * was published; e-mail and phone fields start as personal data. A seven-question form built
 * with the keyboard alone, then read back through the API; axe in light and dark; 320 px.
 */

const noise = dashboardNoise((problem) => /^400 for|status of 400/.test(problem));

describe('the organised builder in Chromium', () => {
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
      const labelledBy = element.getAttribute('aria-labelledby');
      const label = labelledBy
        ? document.getElementById(labelledBy)?.textContent
        : element.labels?.[0]?.textContent;
      return `${element.tagName.toLowerCase()}:${element.getAttribute('aria-label') || label || element.textContent.trim()}`;
    });
  async function tabTo(page: Page, target: string, key = 'Tab') {
    const seen: string[] = [];
    for (let i = 0; i < 80; i++) {
      await page.keyboard.press(key);
      seen.push(await focused(page));
      if (seen.at(-1) === target) return;
    }
    throw new Error(`${key} never reached ${target}: ${seen.join(', ')}`);
  }
  /** With the keyboard: "Add field", then the arrows down to `type` in the palette, Enter; then the label typed. */
  async function addByKeyboard(page: Page, type: string, label: string) {
    await page.locator('#add-field').focus();
    await page.keyboard.press('Enter');
    const palette = page.getByRole('dialog', { name: 'Add a field' });
    await palette.waitFor();
    for (let i = 0; i < 12 && (await focused(page)) !== `button:${type}`; i++)
      await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe(`button:${type}`);
    await page.keyboard.press('Enter');
    await palette.waitFor({ state: 'hidden' });
    // the new field's label has focus, its words selected: typing replaces them
    await expect.poll(() => focused(page)).toBe('input:Label');
    await page.keyboard.type(label);
  }

  it('builds a seven-question form with the keyboard alone: the palette, option rows, More options, ids from labels', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'organised');
      await page.getByRole('button', { name: 'New form' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      await page.getByLabel('Title', { exact: true }).focus();
      await page.keyboard.press('Control+a');
      await page.keyboard.type('Summer party');

      // the palette: each type by its plain name with a line on it; Esc closes it, focus comes back
      await page.locator('#add-field').focus();
      await page.keyboard.press('Enter');
      const palette = page.getByRole('dialog', { name: 'Add a field' });
      await palette.waitFor();
      expect(await palette.getByRole('button').allInnerTexts()).toHaveLength(13);
      const email = palette.getByRole('button', { name: 'E-mail', exact: true });
      expect(await email.getAttribute('aria-describedby')).toBe('palette-email-about');
      await expect.poll(() => focused(page)).toBe('button:Short text');
      await page.keyboard.press('ArrowUp');
      await expect.poll(() => focused(page)).toBe('button:Hidden');
      await page.keyboard.press('Home');
      await expect.poll(() => focused(page)).toBe('button:Short text');
      await screenshot(page, 'builder-add-field-palette-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await palette.waitFor({ state: 'hidden' });
      await expect.poll(() => focused(page)).toBe('button:Add field');

      await addByKeyboard(page, 'Short text', 'Your name');
      await addByKeyboard(page, 'E-mail', 'Your e-mail');
      await addByKeyboard(page, 'Phone', 'Mobile');
      await addByKeyboard(page, 'Choice', 'Which day');
      await addByKeyboard(page, 'Number', 'Guests');
      await addByKeyboard(page, 'Long text', 'Anything else');
      await addByKeyboard(page, 'Checkbox', 'I agree to the house rules');

      // a choice's options, a row each: added (its words selected), moved, removed, focus kept in hand
      const day = field(page, 4);
      await day.getByLabel('Option 1', { exact: true }).fill('Friday');
      await day.getByLabel('Option 2', { exact: true }).fill('Sunday');
      await day.getByRole('button', { name: 'Add option' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('input:Option 3');
      await page.keyboard.type('Saturday');
      await tabTo(page, 'button:Move option up: Saturday');
      await page.keyboard.press('Enter');
      // moved to the middle: focus stays on its own button
      await expect.poll(() => focused(page)).toBe('button:Move option up: Saturday');
      expect(await day.getByLabel('Option 2', { exact: true }).inputValue()).toBe('Saturday');
      await page.keyboard.press('Enter');
      // now first: its "up" is disabled, so focus is on its "down"
      await expect.poll(() => focused(page)).toBe('button:Move option down: Saturday');
      await day.getByRole('button', { name: 'Add option' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page)).toBe('input:Option 4');
      await page.keyboard.type('Monday');
      await tabTo(page, 'button:Remove option: Monday');
      await page.keyboard.press('Enter');
      // the last row gone: focus on the row before it
      await expect.poll(() => focused(page)).toBe('input:Option 3');
      expect(
        await day
          .locator('.options-editor__rows input')
          .evaluateAll((inputs: any[]) => inputs.map((i) => i.value)),
      ).toEqual(['Saturday', 'Friday', 'Sunday']);

      // More options: closed at first, opened with the keyboard, the id made from the label
      const guests = field(page, 5);
      expect(await guests.getByLabel('Field id').isVisible()).toBe(false);
      await guests.locator('summary').focus();
      await page.keyboard.press('Enter');
      expect(await guests.getByLabel('Field id').inputValue()).toBe('guests');
      // an id edited by hand stays when the label changes
      await guests.getByLabel('Field id').fill('party_size');
      await guests.getByLabel('Label').fill('How many guests?');
      expect(await guests.getByLabel('Field id').inputValue()).toBe('party_size');
      // an e-mail field starts as personal data
      await field(page, 2).locator('summary').click();
      expect(await field(page, 2).getByLabel('Personal data').inputValue()).toBe('default');
      // what a person sees at the choice: its option rows, a card with More options open below
      await day.evaluate((element: any) => {
        element.scrollIntoView({ block: 'start' });
        // below the sticky Save bar
        (globalThis as any).scrollBy(0, -110);
      });
      await screenshot(page, 'builder-build-tab-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Save', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByText('Saved.').waitFor();
      const formId = new URL(page.url()).pathname.split('/').pop() ?? '';
      const stored = (await server.request({ method: 'GET', url: `/forms/${formId}`, auth: token })).body;
      expect(stored.fields.map((f: { id: string }) => f.id)).toEqual([
        'your_name',
        'your_e_mail',
        'mobile',
        'which_day',
        'party_size',
        'anything_else',
        'i_agree_to_the_house_rules',
      ]);
      expect(stored.fields.filter((f: { pii?: boolean }) => f.pii).map((f: { id: string }) => f.id)).toEqual([
        'your_e_mail',
        'mobile',
      ]);
      expect(stored.fields[3].options).toEqual(['Saturday', 'Friday', 'Sunday']);

      // still a draft after saving: the ids go on following their labels
      await field(page, 1).getByLabel('Label').fill('Full name');
      await field(page, 1).locator('summary').click();
      expect(await field(page, 1).getByLabel('Field id').inputValue()).toBe('full_name');
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('keeps a published form’s ids when labels change, and stores an option’s value apart only when asked', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'published');
      const formId = await createLiveForm(server, token, {
        fields: [
          { id: 'your_name', type: 'text', label: 'Your name' },
          { id: 'topic', type: 'select', label: 'Topic', options: ['Sales', 'Support'] },
        ],
      });
      await page.goto(`${server.url}/app/forms/${formId}`);
      await page.getByRole('heading', { level: 1, name: 'Edit “Feedback”' }).waitFor();
      await field(page, 1).getByLabel('Label').fill('Full name');
      await field(page, 1).locator('summary').click();
      // answers are already keyed by it: it stays
      expect(await field(page, 1).getByLabel('Field id').inputValue()).toBe('your_name');
      await field(page, 2).locator('summary').click();
      expect(await field(page, 2).getByLabel('Stored value of “Sales”').inputValue()).toBe('Sales');
      await field(page, 2).getByLabel('Stored value of “Sales”').fill('S');
      await field(page, 2).getByLabel('Option 1', { exact: true }).fill('Sales team');
      // the words changed, the value set apart stayed
      expect(await field(page, 2).getByLabel('Stored value of “Sales team”').inputValue()).toBe('S');
      expect(await field(page, 2).getByLabel('Show the options as').inputValue()).toBe('auto');
      // Enter in an option's words starts the next one below it
      await field(page, 2).getByLabel('Option 1', { exact: true }).press('Enter');
      await expect.poll(() => focused(page)).toBe('input:Option 2');
      await page.keyboard.type('Billing');
      expect(
        await field(page, 2)
          .locator('.options-editor__rows input')
          .evaluateAll((inputs: any[]) => inputs.map((i) => i.value)),
      ).toEqual(['Sales team', 'Billing', 'Support']);
      // a field removed: focus goes to the label of the field that took its place
      await page.getByRole('button', { name: 'Remove: Full name' }).click();
      await expect.poll(() => focused(page)).toBe('input:Label');
      expect(await field(page, 1).getByLabel('Label').inputValue()).toBe('Topic');
      expect(await page.locator('.field-list > li').count()).toBe(1);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('has Build, Design, Settings, Languages and Share as tabs: arrows move, the hash keeps one, a refusal shows its control', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`);
    const { page } = view;
    try {
      await signUpInPage(page, server, 'tabs');
      await page.getByRole('button', { name: 'New form' }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      const tabs = page.getByRole('tablist', { name: 'Parts of the builder' });
      expect(await tabs.getByRole('tab').allInnerTexts()).toEqual([
        'Build',
        'Design',
        'Settings',
        'Languages',
        'Share',
      ]);
      const preview = page.getByRole('complementary', { name: 'Preview' });
      await page.getByRole('tab', { name: 'Build' }).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => focused(page)).toBe('button:Design');
      expect(await page.getByRole('tab', { name: 'Design' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('tabpanel', { name: 'Design' }).getByLabel('Layout').waitFor();
      // the preview stays beside Build and Design
      expect(await preview.isVisible()).toBe(true);
      await screenshot(page, 'builder-design-tab-1280-light', { fullPage: false });
      await page.keyboard.press('ArrowRight');
      await page.getByRole('tabpanel', { name: 'Settings' }).getByLabel('CAPTCHA').waitFor();
      expect(await preview.isVisible()).toBe(false);
      await page.keyboard.press('End');
      await page
        .getByRole('tabpanel', { name: 'Share' })
        .getByRole('heading', { name: 'Share your form' })
        .waitFor();
      expect(new URL(page.url()).hash).toBe('#share');
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      expect(await page.getByRole('tab', { name: 'Share' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('tab', { name: 'Share' }).focus();
      await page.keyboard.press('Home');
      await expect.poll(() => focused(page)).toBe('button:Build');
      // Tab leaves the tab list for the panel: one stop for the whole list
      await page.keyboard.press('Tab');
      await expect.poll(() => focused(page)).toBe('input:Title');

      // a refused id under a closed "More options", saved from another tab: both open on it
      await page.locator('#add-field').click();
      await page
        .getByRole('dialog', { name: 'Add a field' })
        .getByRole('button', { name: 'Short text' })
        .click();
      await field(page, 1).locator('summary').click();
      await field(page, 1).getByLabel('Field id').fill('not valid!');
      await field(page, 1).locator('summary').click();
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('alert').waitFor();
      await expect
        .poll(() => page.getByRole('tab', { name: 'Build' }).getAttribute('aria-selected'))
        .toBe('true');
      await field(page, 1).getByLabel('Field id').waitFor();
      expect(await field(page, 1).getByLabel('Field id').getAttribute('aria-invalid')).toBe('true');
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe violation and fits 320 CSS pixels, the palette and option rows too (${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/app/signup`, { colorScheme, width: 320 });
      const { page } = view;
      try {
        await signUpInPage(page, server, `narrow-${colorScheme}`);
        await page.getByRole('button', { name: 'New form' }).click();
        await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
        await page.locator('#add-field').click();
        await page.getByRole('dialog', { name: 'Add a field' }).waitFor();
        await screenshot(page, `builder-add-field-palette-320-${colorScheme}`, { fullPage: false });
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
        await page
          .getByRole('dialog', { name: 'Add a field' })
          .getByRole('button', { name: 'Choice' })
          .click();
        await field(page, 1).locator('summary').click();
        await field(page, 1).evaluate((element: any) => {
          element.scrollIntoView({ block: 'start' });
          // below the sticky Save bar
          (globalThis as any).scrollBy(0, -110);
        });
        await screenshot(page, `builder-choice-field-320-${colorScheme}`, { fullPage: false });
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
        for (const tab of ['Design', 'Settings', 'Share']) {
          await page.getByRole('tab', { name: tab }).click();
          expect(await scrollsHorizontally(page)).toBe(false);
          await expectNoAxeViolations(page);
        }
        expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    });
  }

  it('looks right on a desktop in dark', async () => {
    const view = await openPage(browser, `${server.url}/app/signup`, { colorScheme: 'dark' });
    const { page } = view;
    try {
      await signUpInPage(page, server, 'dark');
      await page.getByRole('button', { name: 'New form' }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit “Untitled form”' }).waitFor();
      for (const type of ['Short text', 'Choice']) {
        await page.locator('#add-field').click();
        await page.getByRole('dialog', { name: 'Add a field' }).getByRole('button', { name: type }).click();
      }
      await field(page, 2).locator('summary').click();
      await field(page, 2).getByLabel('Option 1', { exact: true }).focus();
      await field(page, 2).evaluate((element: any) => {
        element.scrollIntoView({ block: 'start' });
        // below the sticky Save bar
        (globalThis as any).scrollBy(0, -110);
      });
      await screenshot(page, 'builder-build-tab-1280-dark', { fullPage: false });
      await expectNoAxeViolations(page);
    } finally {
      await view.close();
    }
  });
});
