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

/**
 * Safe editing in the builder (issue 25, API.md §5.5), as a person uses it in Chromium: a live
 * form's edits kept in its working copy (the public page unchanged) until "Publish changes";
 * Discard; unsaved edits guarded when leaving through the header's "Forms", the browser's Back
 * and closing the tab; the sticky bar in sight wherever the page is scrolled, at 320 px too; the
 * keyboard alone; no axe violation, light and dark.
 */

const PASSWORD = 'correct horse battery';

/** Chromium logs the 401 of GET /auth/me for an ended session, and requests a page left had under way. */
const expected = (problem: string) =>
  (/auth\/me/.test(problem) && /401/.test(problem)) || problem.includes('net::ERR_ABORTED');

describe('safe editing in the builder', () => {
  let server: WebServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  let counter = 0;
  /** Signs up in the page and makes a live form through the API; the page is left on its builder. */
  async function liveFormIn(page: Page): Promise<{ id: string; token: string }> {
    const email = `safe${++counter}-${Date.now()}@example.com`;
    await page.goto(`${server.url}/app/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
    const login = await server.request({
      method: 'POST',
      url: '/auth/login',
      body: { email, password: PASSWORD },
    });
    const token: string = login.body.token;
    const created = await server.request({
      method: 'POST',
      url: '/forms',
      auth: token,
      body: {
        title: 'Event registration',
        environment: 'development',
        status: 'live',
        fields: Array.from({ length: 8 }, (_, i) => ({
          id: `q${i + 1}`,
          type: 'text',
          label: `Question ${i + 1}`,
        })),
      },
    });
    const id: string = created.body.id;
    await page.goto(`${server.url}/app/forms/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Edit “Event registration”' }).waitFor();
    return { id, token };
  }

  const bar = (page: Page) => page.getByRole('region', { name: 'Save and publish' });
  const state = (page: Page) => bar(page).getByRole('status');
  const title = (page: Page) => page.getByLabel('Title', { exact: true });
  const publicTitle = async (id: string) => {
    const page = await server.request({ method: 'GET', url: `/f/${id}` });
    return /<h1[^>]*>([^<]*)<\/h1>/.exec(page.text)?.[1];
  };

  it("keeps a live form's change in its working copy until “Publish changes”", async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { id, token } = await liveFormIn(page);
      await expect(state(page).textContent()).resolves.toBe('Published');
      await title(page).fill('Summer party registration');
      await expect(state(page).textContent()).resolves.toBe('Unsaved changes');
      await bar(page).getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText(/^Saved as unpublished changes/).waitFor();
      await expect(state(page).textContent()).resolves.toBe('Unpublished changes');
      await screenshot(page, 'builder-unpublished-changes-1280-light', { fullPage: false });

      // respondents still get the published form; the owner's API read says a copy waits
      expect(await publicTitle(id)).toBe('Event registration');
      const read = await server.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(read.body).toMatchObject({ title: 'Event registration', version: 1, hasDraft: true });

      // back later: the builder opens on the working copy
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Edit “Summer party registration”' }).waitFor();
      await expect(state(page).textContent()).resolves.toBe('Unpublished changes');

      await bar(page).getByRole('button', { name: 'Publish changes' }).click();
      await page.getByText('Published: respondents now get version 2.').waitFor();
      await expect(state(page).textContent()).resolves.toBe('Published');
      expect(await publicTitle(id)).toBe('Summer party registration');
      const copy = await server.request({ method: 'GET', url: `/forms/${id}/draft`, auth: token });
      expect(copy.status).toBe(404);
      expect(view.problems.filter((problem) => !expected(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('discards the unpublished changes: the builder shows the published form again', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { id, token } = await liveFormIn(page);
      await title(page).fill('Not this one');
      await bar(page).getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => state(page).textContent()).toBe('Unpublished changes');
      await bar(page).getByRole('button', { name: 'Discard unpublished changes' }).click();
      await bar(page).getByRole('button', { name: 'Discard changes' }).click();
      await page.getByText('Changes discarded: this is the published form again.').waitFor();
      await expect(title(page).inputValue()).resolves.toBe('Event registration');
      await expect(state(page).textContent()).resolves.toBe('Published');
      expect((await server.request({ method: 'GET', url: `/forms/${id}/draft`, auth: token })).status).toBe(
        404,
      );
      expect(await publicTitle(id)).toBe('Event registration');
      expect(view.problems.filter((problem) => !expected(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('changes a published form’s status alone: unpublished and made live again, its copy still waiting', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { id, token } = await liveFormIn(page);
      await title(page).fill('Next year');
      await bar(page).getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => state(page).textContent()).toBe('Unpublished changes');
      await page.getByRole('button', { name: 'Unpublish', exact: true }).click();
      await page.getByText('Now draft.').waitFor();
      expect((await server.request({ method: 'GET', url: `/f/${id}` })).status).toBe(404);
      await page.getByRole('button', { name: 'Make live' }).click();
      await page.getByText('Now live.').waitFor();
      const read = await server.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(read.body).toMatchObject({ status: 'live', title: 'Event registration', hasDraft: true });
      await expect(state(page).textContent()).resolves.toBe('Unpublished changes');
      await expect(title(page).inputValue()).resolves.toBe('Next year');
      expect(view.problems.filter((problem) => !expected(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('asks before unsaved edits are left: the header’s “Forms”, Back, and closing the tab', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { id } = await liveFormIn(page);
      // nothing typed: no question
      await page.getByRole('link', { name: 'Forms', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
      // back in the builder by its link, inside the app: Back below is the app's own history
      await page.getByRole('link', { name: 'Event registration', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Edit “Event registration”' }).waitFor();
      await title(page).fill('Half-typed');

      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.getByRole('link', { name: 'Forms', exact: true }).click();
      await expect
        .poll(() => asked)
        .toEqual(['You have unsaved changes to this form. Leave without saving them?']);
      // stayed: the builder and what was typed
      expect(new URL(page.url()).pathname).toBe(`/app/forms/${id}`);
      await expect(title(page).inputValue()).resolves.toBe('Half-typed');

      // Back, declined: still here
      page.once('dialog', (dialog) => void dialog.dismiss());
      await page.goBack();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/app/forms/${id}`);
      await expect(title(page).inputValue()).resolves.toBe('Half-typed');

      // closing the tab: the browser's own "Leave site?"
      const unload = new Promise<string>((resolve) => {
        page.once('dialog', (dialog) => {
          resolve(dialog.type());
          void dialog.dismiss();
        });
      });
      await page.close({ runBeforeUnload: true });
      await expect(unload).resolves.toBe('beforeunload');

      // accepted: the list, and the edit gone with it
      const again = await view.context.newPage();
      await again.goto(`${server.url}/app/forms/${id}`);
      await title(again).fill('Dropped');
      again.once('dialog', (dialog) => void dialog.accept());
      await again.getByRole('link', { name: 'Forms', exact: true }).click();
      await again.getByRole('heading', { level: 1, name: 'Forms' }).waitFor();
      expect(await publicTitle(id)).toBe('Event registration');
      expect(view.problems.filter((problem) => !expected(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('is saved and published with the keyboard alone', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    const focused = () =>
      page.evaluate(() => {
        const element = (globalThis as any).document.activeElement;
        return `${element.tagName.toLowerCase()}:${element.getAttribute('aria-label') || element.id || element.textContent.trim()}`;
      });
    const tabTo = async (target: string, key = 'Tab') => {
      const seen: string[] = [];
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press(key);
        seen.push(await focused());
        if (seen.at(-1) === target) return;
      }
      throw new Error(`Tab never reached ${target}: ${seen.join(', ')}`);
    };
    try {
      const { id } = await liveFormIn(page);
      await tabTo('input:form-title');
      await page.keyboard.press('Control+a');
      await page.keyboard.type('Typed, not clicked');
      await tabTo('button:Save', 'Shift+Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => state(page).textContent()).toBe('Unpublished changes');
      expect(await publicTitle(id)).toBe('Event registration');
      await tabTo('button:Publish changes');
      await page.keyboard.press('Enter');
      await page.getByText('Published: respondents now get version 2.').waitFor();
      expect(await publicTitle(id)).toBe('Typed, not clicked');
      expect(view.problems.filter((problem) => !expected(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  for (const [width, colorScheme] of [
    [1280, 'light'],
    [1280, 'dark'],
    [320, 'light'],
    [320, 'dark'],
  ] as const) {
    it(`keeps the bar in sight when scrolled, with no axe violation (${width} px, ${colorScheme})`, async () => {
      const view = await openPage(browser, `${server.url}/app/login`, { colorScheme, width });
      const { page } = view;
      try {
        await liveFormIn(page);
        await title(page).fill('Event registration 2027');
        await page.evaluate(() =>
          (globalThis as any).scrollTo(0, (globalThis as any).document.body.scrollHeight),
        );
        const box = await bar(page).boundingBox();
        expect(box).not.toBeNull();
        // stuck to the top of the viewport, whole
        expect(box?.y).toBeGreaterThanOrEqual(0);
        expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(800);
        expect(await page.evaluate(() => (globalThis as any).scrollY)).toBeGreaterThan(200);
        await expect(bar(page).getByRole('button', { name: 'Save', exact: true }).isVisible()).resolves.toBe(
          true,
        );
        await expect(state(page).textContent()).resolves.toBe('Unsaved changes');
        await screenshot(page, `builder-save-bar-scrolled-${width}-${colorScheme}`, { fullPage: false });
        expect(await scrollsHorizontally(page)).toBe(false);
        await expectNoAxeViolations(page);
        expect(view.problems.filter((problem) => !expected(problem))).toEqual([]);
      } finally {
        // the edit is left unsaved on purpose: closing the context runs no beforeunload
        await view.close();
      }
    });
  }
});
