import type { Browser, Locator, Page } from 'playwright-core';
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
 * Logic conditions that follow their field's type (issue 25, API.md §5.4), as a form's owner
 * builds them: a checkbox's "is ticked" (no value to type), a choice's options from a list, a
 * number and a date in their own inputs, a list of values one box each (a comma inside one), a
 * stored rule that can never match flagged until it is fixed, a test that no longer fits after
 * its field changed type flagged too. Saved, published, and the dependent question shown on the
 * live page when the box is ticked. Keyboard, axe light and dark, 320 px.
 */

describe('logic conditions in the builder, in Chromium', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const noise = dashboardNoise();
  const bar = (page: Page) => page.getByRole('region', { name: 'Save and publish' });
  const rule = (page: Page, n: number) => page.getByRole('group', { name: `Rule ${n}`, exact: true });
  const condition = (page: Page, n: number, of = 1) =>
    page.getByRole('group', { name: `Condition ${n} of rule ${of}` });
  const optionsOf = (select: Locator) =>
    select.locator('option').evaluateAll((options) => options.map((option) => option.textContent));

  /** A form made through the API, opened in the builder. */
  async function formIn(page: Page, token: string, members: Record<string, unknown>): Promise<string> {
    const created = await server.request({
      method: 'POST',
      url: '/forms',
      auth: token,
      body: { title: 'Event registration', environment: 'development', ...members },
    });
    if (created.status !== 201) throw new Error(`${created.status} ${created.text}`);
    await page.goto(`${server.url}/app/forms/${created.body.id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit “Event registration”' }).waitFor();
    return created.body.id;
  }
  /** Rule n at the top of the window, under the sticky bar: what the screenshots show. */
  const showLogic = (page: Page, n = 1) =>
    rule(page, n).evaluate((element: any) => {
      const top = element.getBoundingClientRect().top + (globalThis as any).scrollY - 80;
      (globalThis as any).scrollTo(0, top);
    });
  const storedLogic = async (id: string, token: string) =>
    (await server.request({ method: 'GET', url: `/forms/${id}`, auth: token })).body.logic;

  it('builds "is ticked" on a checkbox, publishes, and the live page shows the dependent question when the box is ticked', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'logic');
      const id = await formIn(page, token, {
        ui: { layout: 'classic' },
        fields: [
          { id: 'name', type: 'text', label: 'Your name' },
          { id: 'parking', type: 'checkbox', label: 'I need a parking space' },
          { id: 'plate', type: 'text', label: 'Car registration' },
        ],
      });
      await page.getByRole('button', { name: 'Add rule' }).click();
      await rule(page, 1).getByLabel('Field', { exact: true }).selectOption({ label: 'Car registration' });
      await condition(page, 1).getByLabel('Answer to').selectOption({ label: 'I need a parking space' });
      // a checkbox's two tests, and nothing to type
      const test = condition(page, 1).getByLabel('Test');
      await expect(optionsOf(test)).resolves.toEqual(['is ticked', 'is not ticked']);
      await expect(condition(page, 1).getByRole('textbox').count()).resolves.toBe(0);
      await expect(condition(page, 1).locator('select').count()).resolves.toBe(2);
      // by keyboard: the arrows move between the two tests
      await test.focus();
      await page.keyboard.press('ArrowDown');
      await expect
        .poll(() => test.evaluate((select: any) => select.selectedOptions[0].text))
        .toBe('is not ticked');
      await page.keyboard.press('ArrowUp');
      await expect
        .poll(() => test.evaluate((select: any) => select.selectedOptions[0].text))
        .toBe('is ticked');
      await expect(rule(page, 1).locator('.condition__problem').count()).resolves.toBe(0);
      await showLogic(page);
      await screenshot(page, 'builder-logic-checkbox-1280-light', { fullPage: false });

      await bar(page).getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      expect(await storedLogic(id, token)).toEqual({
        rules: [{ when: { field: 'parking', op: 'equals', value: true }, show: ['plate'] }],
      });
      await bar(page).getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByText('Saved, and now live.').waitFor();

      // the live page: the question waits for the box, and comes with it
      const live = await view.context.newPage();
      await live.goto(`${server.url}/f/${id}`);
      const plate = live.getByLabel('Car registration');
      await expect(plate.isVisible()).resolves.toBe(false);
      await live.getByLabel('I need a parking space').check();
      await plate.waitFor({ state: 'visible' });
      await live.getByLabel('I need a parking space').uncheck();
      await plate.waitFor({ state: 'hidden' });
      await live.getByLabel('I need a parking space').check();
      await live.getByLabel('Your name').fill('Ada');
      await plate.fill('AB12 CDE');
      await posting(live, () => live.getByRole('button', { name: 'Submit' }).click());
      await expect(live.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');
      const responses = await server.request({
        method: 'GET',
        url: `/responses?form_id=${id}&environment=development`,
        auth: token,
      });
      expect(responses.body.data[0].answers).toEqual({ name: 'Ada', parking: true, plate: 'AB12 CDE' });
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('offers a choice’s options, a number and a date input, and a list whose values may hold a comma', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'logic');
      const id = await formIn(page, token, {
        fields: [
          {
            id: 'ticket',
            type: 'select',
            label: 'Ticket',
            options: [{ value: 'day', label: 'Day pass' }, 'week'],
          },
          { id: 'guests', type: 'number', label: 'Guests' },
          { id: 'arrival', type: 'date', label: 'Arrival' },
          { id: 'city', type: 'text', label: 'City' },
          { id: 'notes', type: 'textarea', label: 'Anything else?' },
        ],
      });
      const addRule = async (n: number, field: string) => {
        await page.getByRole('button', { name: 'Add rule' }).click();
        await rule(page, n).getByLabel('Field', { exact: true }).selectOption({ label: 'Anything else?' });
        await condition(page, 1, n).getByLabel('Answer to').selectOption({ label: field });
        return condition(page, 1, n);
      };

      const ticket = await addRule(1, 'Ticket');
      await expect(optionsOf(ticket.getByLabel('Test'))).resolves.toEqual([
        'is',
        'is not',
        'is one of',
        'is blank',
        'is answered',
      ]);
      // its options by their labels, stored by their values
      await expect(optionsOf(ticket.getByLabel('Option'))).resolves.toEqual([
        'Choose an option…',
        'Day pass',
        'week',
      ]);
      await expect(ticket.getByText('Choose one of its options.').isVisible()).resolves.toBe(true);
      await ticket.getByLabel('Option').selectOption({ label: 'Day pass' });

      const guests = await addRule(2, 'Guests');
      await guests.getByLabel('Test').selectOption({ label: 'is more than' });
      await expect(guests.getByLabel('Number').getAttribute('type')).resolves.toBe('number');
      await guests.getByLabel('Number').fill('4');

      const arrival = await addRule(3, 'Arrival');
      await expect(optionsOf(arrival.getByLabel('Test'))).resolves.toContain('is before');
      await arrival.getByLabel('Test').selectOption({ label: 'is before' });
      await expect(arrival.getByLabel('Date').getAttribute('type')).resolves.toBe('date');
      await arrival.getByLabel('Date').fill('2026-12-24');

      const city = await addRule(4, 'City');
      await expect(optionsOf(city.getByLabel('Test'))).resolves.not.toContain('is more than');
      await city.getByLabel('Test').selectOption({ label: 'is one of' });
      await city.getByLabel('Value 1').fill('Paris, France');
      // by keyboard: "Add a value" puts the cursor in the new box
      await city.getByRole('button', { name: 'Add a value' }).focus();
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.id))
        .toMatch(/value-1$/);
      await page.keyboard.type('Lyon');

      const tickets = await addRule(5, 'Ticket');
      await tickets.getByLabel('Test').selectOption({ label: 'is one of' });
      await tickets.getByRole('checkbox', { name: 'Day pass' }).check();
      await tickets.getByRole('checkbox', { name: 'week' }).check();

      await expect(page.locator('.condition__problem').count()).resolves.toBe(0);
      await showLogic(page, 4);
      await screenshot(page, 'builder-logic-types-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);
      await bar(page).getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      const whens = (await storedLogic(id, token)).rules.map((saved: { when: unknown }) => saved.when);
      expect(whens).toEqual([
        { field: 'ticket', op: 'equals', value: 'day' },
        { field: 'guests', op: 'gt', value: 4 },
        { field: 'arrival', op: 'lt', value: '2026-12-24' },
        { field: 'city', op: 'in', value: ['Paris, France', 'Lyon'] },
        { field: 'ticket', op: 'in', value: ['day', 'week'] },
      ]);

      // read back as saved, the comma still inside its value
      await page.reload();
      await expect(condition(page, 1, 4).getByLabel('Value 1').inputValue()).resolves.toBe('Paris, France');

      // the field's type changed: its test no longer fits, and says so
      const guestsCard = page.getByRole('group', { name: /^Field 2:/ });
      await guestsCard.getByLabel('Type').selectOption({ label: 'Short text' });
      const flagged = condition(page, 1, 2);
      await expect(flagged.locator('.condition__problem').textContent()).resolves.toBe(
        '“Guests” is a text, which this test does not apply to: choose another test.',
      );
      await expect(flagged.getByLabel('Test').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('flags a stored rule that can never match, and its fix saves', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { token } = await signUpInPage(page, server, 'logic');
      const created = await server.request({
        method: 'POST',
        url: '/forms',
        auth: token,
        body: {
          title: 'Event registration',
          environment: 'development',
          fields: [
            { id: 'parking', type: 'checkbox', label: 'I need a parking space' },
            { id: 'plate', type: 'text', label: 'Car registration' },
          ],
          logic: { rules: [{ when: { field: 'parking', op: 'equals', value: true }, show: ['plate'] }] },
        },
      });
      const id: string = created.body.id;
      // as a builder before issue 25 saved it: "yes", which a ticked box (true) never equals
      const db = server.app.intake.database.db;
      const row = await db
        .selectFrom('forms')
        .select('definition')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const definition = JSON.parse(row.definition);
      definition.logic.rules[0].when.value = 'yes';
      await db
        .updateTable('forms')
        .set({ definition: JSON.stringify(definition) })
        .where('id', '=', id)
        .execute();

      await page.goto(`${server.url}/app/forms/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Edit “Event registration”' }).waitFor();
      const problem = condition(page, 1).locator('.condition__problem');
      await expect(problem.textContent()).resolves.toBe(
        '“I need a parking space” is a checkbox: a ticked box is true, so “yes” never matches. Choose “is ticked” or “is not ticked”.',
      );
      const test = condition(page, 1).getByLabel('Test');
      await expect(test.getAttribute('aria-invalid')).resolves.toBe('true');
      // the message is the control's description, read with it
      await expect(test.getAttribute('aria-describedby')).resolves.toBe(await problem.getAttribute('id'));
      await expect(test.evaluate((select: any) => select.selectedOptions[0].text)).resolves.toBe(
        'is “yes” (never matches)',
      );
      await showLogic(page);
      await screenshot(page, 'builder-logic-flagged-1280-light', { fullPage: false });
      await expectNoAxeViolations(page);

      await test.selectOption({ label: 'is ticked' });
      await expect(problem.count()).resolves.toBe(0);
      await bar(page).getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved.').waitFor();
      expect((await storedLogic(id, token)).rules[0].when).toEqual({
        field: 'parking',
        op: 'equals',
        value: true,
      });
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`has no axe violation and fits 320 CSS pixels with every kind of condition (${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/app/login`, { colorScheme, width: 320 });
      const { page } = view;
      try {
        const { token } = await signUpInPage(page, server, 'logic');
        await formIn(page, token, {
          fields: [
            { id: 'parking', type: 'checkbox', label: 'I need a parking space' },
            { id: 'ticket', type: 'select', label: 'Ticket', multiple: true, options: ['day', 'week'] },
            { id: 'city', type: 'text', label: 'City' },
            { id: 'plate', type: 'text', label: 'Car registration' },
          ],
          logic: {
            rules: [
              {
                when: {
                  any: [
                    { field: 'parking', op: 'equals', value: true },
                    { field: 'ticket', op: 'in', value: ['day'] },
                    { field: 'city', op: 'in', value: ['Paris, France', 'Lyon'] },
                  ],
                },
                show: ['plate'],
              },
            ],
          },
        });
        await expect(condition(page, 3).getByLabel('Value 1').inputValue()).resolves.toBe('Paris, France');
        await showLogic(page);
        await screenshot(page, `builder-logic-320-${colorScheme}`, { fullPage: false });
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
        // and on a desktop, the field, its test and its value side by side
        await page.setViewportSize({ width: 1280, height: 800 });
        await showLogic(page);
        await screenshot(page, `builder-logic-1280-${colorScheme}`, { fullPage: false });
        expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    });
  }
});
