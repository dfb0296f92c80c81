import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  refusedPost,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createForm, signup } from '../support/factories.js';

/**
 * A classic page's progress bar (`ui.progress: "bar"`, API.md §11.1) in Chromium: a
 * progressbar of the questions answered among those shown, counted after a refused post
 * without JavaScript, and live as they are answered with it (a question the logic shows counted in).
 */

let server: WebServer;
let browser: Browser;
let formId: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  const user = await signup(server);
  const form = await createForm(server, user.token, {
    title: 'Book a demo',
    status: 'live',
    fields: [
      { id: 'name', type: 'text', label: 'Your name', required: true },
      { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
      { id: 'order', type: 'text', label: 'Order number' },
      { id: 'phone', type: 'phone', label: 'Phone', required: true },
    ],
    logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] },
    ui: { layout: 'classic', progress: 'bar' },
  });
  formId = form.id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The progressbar's name and value, as assistive technology reads them. */
async function progress(page: import('playwright-core').Page) {
  const bar = page.getByRole('progressbar');
  return { name: await bar.getAttribute('aria-label'), value: await bar.getAttribute('value') };
}

describe('a classic page’s progress bar', () => {
  it('counts the answers a refused post kept (JavaScript off)', async () => {
    const view = await openPage(browser, `${server.url}/f/${formId}`, { javaScriptEnabled: false });
    const { page } = view;
    try {
      expect(await progress(page)).toEqual({ name: '0 of 3 questions answered', value: '0' });
      await page.getByLabel('Your name').fill('Ada');
      await page.getByRole('radio', { name: 'support' }).check();
      // a phone number the browser lets through and the server refuses
      await page.getByLabel('Phone').fill('call me');
      await posting(page, () => page.getByRole('button', { name: 'Submit' }).click());
      // the page again: the order question shown now, the refused phone number kept (and counted)
      expect(await page.locator('.error-summary').count()).toBe(1);
      expect(await progress(page)).toEqual({ name: '3 of 4 questions answered', value: '3' });
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('follows the answers as they are given (JavaScript on)', async () => {
    const view = await openPage(browser, `${server.url}/f/${formId}`);
    const { page } = view;
    try {
      expect(await progress(page)).toEqual({ name: '0 of 3 questions answered', value: '0' });
      await page.getByLabel('Your name').fill('Ada');
      await expect.poll(() => progress(page)).toEqual({ name: '1 of 3 questions answered', value: '1' });
      await page.getByRole('radio', { name: 'support' }).check();
      await expect.poll(() => progress(page)).toEqual({ name: '2 of 4 questions answered', value: '2' });
      await page.getByLabel('Order number').fill('A-1');
      await page.getByRole('radio', { name: 'sales' }).check();
      // the order question hidden again: its answer no longer counts
      await expect.poll(() => progress(page)).toEqual({ name: '2 of 3 questions answered', value: '2' });
      await page.getByLabel('Your name').fill('');
      await expect.poll(() => progress(page)).toEqual({ name: '1 of 3 questions answered', value: '1' });
      // axe runs here, with the page's script on: axe's own timers do not run in a page without
      // JavaScript, and the bar is the same markup the server sends either way
      await expectNoAxeViolations(page);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
