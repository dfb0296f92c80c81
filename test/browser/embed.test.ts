import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectNoAxeViolations,
  launchBrowser,
  openPage,
  posting,
  refusedPost,
  screenshot,
  startWebServer,
  type WebServer,
} from '../support/browser.js';
import { createForm, signup, type TestUser } from '../support/factories.js';

/**
 * Embedding (API.md §11.2) in Chromium: a page of another origin (a second server on another
 * loopback port) loads `/embed.js`, whose frame takes its content's height, is filled in and
 * sent, and tells the page (`intake:ready`, `intake:submitted` on the div); a form whose
 * `ui.embedOrigins` leaves that origin out is refused by the browser; the embedded page itself
 * is accessible in light and dark.
 */

interface HostServer {
  url: string;
  close(): Promise<void>;
}

/** Another origin's page: `/?form={id}` holds the div and loads Intake's embed.js; its events are kept in `window.intakeEvents`. */
async function startHostServer(intake: string): Promise<HostServer> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    const formId = url.searchParams.get('form') ?? '';
    const late = url.searchParams.has('late');
    const none = url.searchParams.has('none');
    const div = `<div data-intake-form="${encodeURIComponent(formId)}"></div>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A shop</title></head>
<body><main><h1>Contact the shop</h1>${late ? '<div id="slot"></div>' : none ? '' : div}</main>
<script>
window.intakeEvents = [];
const watch = (div) => ['intake:ready', 'intake:submitted'].forEach((type) =>
  div.addEventListener(type, (event) => window.intakeEvents.push({ type, detail: event.detail })));
${none ? '' : late ? `setTimeout(() => { const slot = document.getElementById('slot'); slot.innerHTML = '${div}'; watch(slot.firstChild); }, 300);` : `watch(document.querySelector('[data-intake-form]'));`}
</script>
<script src="${intake}/embed.js" async></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

type IntakeEvent = { type: string; detail: { formId: string; submissionId?: string } };
const events = (page: Page) => page.evaluate(() => (globalThis as any).intakeEvents as IntakeEvent[]);
const waitForEvent = (page: Page, type: string) =>
  page.waitForFunction(
    (wanted) => ((globalThis as any).intakeEvents as IntakeEvent[]).some((event) => event.type === wanted),
    type,
  );

/** The frame's size and its document's: an inner scrollbar would mean a scrollHeight beyond the frame's height. */
async function frameSizes(page: Page, frame: Frame) {
  const outer = await page.evaluate(() => (globalThis as any).document.querySelector('iframe').clientHeight);
  const inner = await frame.evaluate(() => (globalThis as any).document.documentElement.scrollHeight);
  return { outer: outer as number, inner: inner as number };
}

describe('an Intake form embedded in another site', () => {
  let server: WebServer;
  let host: HostServer;
  let browser: Browser;
  let user: TestUser;
  let formId: string;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
    host = await startHostServer(server.url);
    user = await signup(server);
    const form = await createForm(server, user.token, {
      title: 'Ask the shop',
      status: 'live',
      fields: [
        { id: 'name', type: 'text', label: 'Your name', required: true },
        { id: 'email', type: 'email', label: 'E-mail', required: true },
        { id: 'message', type: 'textarea', label: 'Message', help: 'What would you like to know?' },
        { id: 'stars', type: 'rating', label: 'How did you find us?' },
      ],
      ui: { layout: 'classic', description: 'We answer within a day.', submitLabel: 'Send' },
    });
    formId = form.id;
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
    await server?.close();
  });

  const stored = async (id: string) =>
    (
      await server.request({
        method: 'GET',
        url: `/responses?form_id=${id}&environment=development`,
        auth: user.token,
      })
    ).body.data as Array<{ id: string; answers: Record<string, unknown> }>;

  it('becomes a frame of its content’s height, is filled in and sent, and tells the page', async () => {
    const view = await openPage(browser, `${host.url}/?form=${formId}`);
    const { page } = view;
    try {
      await waitForEvent(page, 'intake:ready');
      const iframe = page.locator('iframe');
      expect(await iframe.getAttribute('src')).toBe(`${server.url}/f/${formId}?embed=1`);
      expect(await iframe.getAttribute('loading')).toBe('lazy');
      expect(await iframe.getAttribute('title')).toBe('Ask the shop');
      const frame = (await (await iframe.elementHandle())?.contentFrame()) as Frame;
      expect(frame).toBeTruthy();
      // resized to its content: taller than a frame's default 150 px, no inner scrollbar
      await expect.poll(async () => (await frameSizes(page, frame)).outer).toBeGreaterThan(150);
      await expect
        .poll(async () => {
          const { outer, inner } = await frameSizes(page, frame);
          return inner <= outer + 1;
        })
        .toBe(true);
      // the page without its chrome: no footer, the host page's background around the card
      expect(await frame.locator('.hosted__footer').count()).toBe(0);
      await screenshot(page, 'embed-form');
      // the host page with the frame in it: the frame is named (its title), nothing else is wrong
      await expectNoAxeViolations(page);

      await frame.getByLabel('Your name').fill('Ada Lovelace');
      await frame.getByLabel('E-mail').fill('ada@localhost'); // the browser takes it, the server does not
      await frame.getByLabel('Message').fill('Do you ship to Mars?');
      await frame
        .getByRole('group', { name: 'How did you find us?' })
        .getByLabel('5', { exact: true })
        .check();
      await frame.getByRole('button', { name: 'Send' }).click();
      // the page with errors, still embedded (the frame's title follows its page), answers kept
      await expect.poll(() => iframe.getAttribute('title')).toBe('Error: Ask the shop');
      const refused = page.frames().find((candidate) => candidate.url().includes(`/f/${formId}`)) as Frame;
      expect(refused.url()).toBe(`${server.url}/f/${formId}?embed=1`);
      await expect(
        refused
          .getByRole('link', { name: 'E-mail: Enter an e-mail address like name@example.com.' })
          .isVisible(),
      ).resolves.toBe(true);
      expect(await refused.locator('.hosted__footer').count()).toBe(0);
      // focused by the frame script (browsers refuse autofocus in a cross-origin frame)
      expect(await refused.evaluate(() => (globalThis as any).document.activeElement?.className)).toBe(
        'error-summary',
      );
      await expect(refused.getByLabel('Message').inputValue()).resolves.toBe('Do you ship to Mars?');
      await refused.getByLabel('E-mail').fill('ada@example.com');
      await refused.getByRole('button', { name: 'Send' }).click();
      await waitForEvent(page, 'intake:submitted');
      const submitted = (await events(page)).filter((event) => event.type === 'intake:submitted');
      const [submission, ...others] = await stored(formId);
      expect(others).toEqual([]);
      expect(submission?.answers).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        message: 'Do you ship to Mars?',
        stars: 5,
      });
      expect(submitted).toEqual([
        { type: 'intake:submitted', detail: { formId, submissionId: submission?.id } },
      ]);
      expect((await events(page)).filter((event) => event.type === 'intake:ready')).toEqual([
        { type: 'intake:ready', detail: { formId } },
      ]);
      // the thank-you page, in a frame of its own (shorter) height
      const thanks = page.frames().find((candidate) => candidate.url().includes(`/f/${formId}`)) as Frame;
      await expect(thanks.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');
      await expect
        .poll(async () => {
          const { outer, inner } = await frameSizes(page, thanks);
          return outer > 150 && inner <= outer + 1 && Math.abs(inner - outer) <= 1;
        })
        .toBe(true);
      await screenshot(page, 'embed-thanks');
      // Chromium reports the 400 document of the refused post in the console; nothing else may go wrong
      expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('embeds a div added after the page loaded', async () => {
    const view = await openPage(browser, `${host.url}/?form=${formId}&late`);
    try {
      await waitForEvent(view.page, 'intake:ready');
      expect(await view.page.locator('iframe').count()).toBe(1);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('does nothing, and throws nothing, on a page without a form', async () => {
    const view = await openPage(browser, `${host.url}/?none`);
    try {
      await view.page.waitForFunction(() =>
        (globalThis as any).document.querySelector('script[src$="/embed.js"]'),
      );
      await view.page.waitForLoadState('networkidle');
      expect(await view.page.locator('iframe').count()).toBe(0);
      expect(view.problems).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('is refused by the browser when ui.embedOrigins leaves the page’s origin out', async () => {
    const closed = await createForm(server, user.token, {
      title: 'Only on example.com',
      status: 'live',
      ui: { layout: 'classic', embedOrigins: ['https://example.com'] },
    });
    const view = await openPage(browser, `${host.url}/?form=${closed.id}`);
    const { page } = view;
    try {
      // Chromium says why in the console, and shows its error page in the frame instead of the form
      await expect.poll(() => view.problems.some((problem) => /frame-ancestors/.test(problem))).toBe(true);
      const frame = await (await page.locator('iframe').elementHandle())?.contentFrame();
      const hasForm = await frame
        ?.evaluate(() => (globalThis as any).document.querySelector('form') !== null)
        .catch(() => false);
      expect(hasForm ?? false).toBe(false);
      expect(await events(page)).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it.each(['light', 'dark'] as const)(
    'has no axe violation as an embedded page, its page with errors and its thank-you page (%s)',
    async (colorScheme) => {
      const view = await openPage(browser, `${server.url}/f/${formId}?embed=1`, { colorScheme });
      const { page } = view;
      try {
        await expectNoAxeViolations(page);
        await screenshot(page, `embed-page-${colorScheme}`);
        await page.getByLabel('Your name').fill('Ada');
        await page.getByLabel('E-mail').fill('ada@localhost'); // the server refuses it
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        await page
          .getByRole('link', { name: 'E-mail: Enter an e-mail address like name@example.com.' })
          .waitFor();
        await expectNoAxeViolations(page);
        await page.getByLabel('E-mail').fill('ada@example.com');
        await posting(page, () => page.getByRole('button', { name: 'Send' }).click());
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Thank you');
        await expectNoAxeViolations(page);
        expect(view.problems.filter((problem) => !refusedPost(problem))).toEqual([]);
      } finally {
        await view.close();
      }
    },
  );

  it('sends the host page, not the frame, to ui.redirectUrl, once it has told of the submission', async () => {
    const target = `${host.url}/?none&thanks`;
    const form = await createForm(server, user.token, {
      title: 'Leads somewhere',
      status: 'live',
      fields: [{ id: 'name', type: 'text', label: 'Your name', required: true }],
      ui: { layout: 'classic', redirectUrl: target },
    });
    const view = await openPage(browser, `${host.url}/?form=${form.id}`);
    const { page } = view;
    try {
      await waitForEvent(page, 'intake:ready');
      const frame = page.frameLocator('iframe');
      await frame.getByLabel('Your name').fill('Ada');
      // the host page records the submission as it happens, in storage that outlives its navigation
      await page.evaluate(() => {
        const document = (globalThis as any).document;
        document.querySelector('[data-intake-form]').addEventListener('intake:submitted', (event: any) => {
          (globalThis as any).sessionStorage.setItem('submitted', event.detail.submissionId);
        });
      });
      await Promise.all([page.waitForURL(target), frame.getByRole('button', { name: 'Submit' }).click()]);
      const [submission] = await stored(form.id);
      expect(submission?.answers).toEqual({ name: 'Ada' });
      expect(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('submitted'))).toBe(
        submission?.id,
      );
    } finally {
      await view.close();
    }
  });
});
