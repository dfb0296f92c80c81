import { createHmac } from 'node:crypto';
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
import { type ReceivedWebhook, startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * A form's webhooks in the dashboard (API.md §7, §11.3; issue 13), as a person uses it: one added
 * with a generated secret and tested (the loopback receiver gets a `webhook.test` whose signature
 * the secret shown in the page verifies); a receiver that first fails, its failed attempts shown,
 * then redelivered; edit, remove the secret, disable, delete after confirming; adding and testing
 * with the keyboard alone at 320 CSS pixels in the dark. Each step is read back from the server
 * (the test app lets webhooks reach loopback addresses: it is not in production mode).
 */

/** As long as the page's own waits (openPage): a delivery and the view's next look take their time on a busy machine. */
const WAIT = { timeout: 15_000 };

/** The refusal the test provokes on purpose (a URL that is not http), which Chromium logs. */
const noise = dashboardNoise((problem) => /\/webhooks\/whk_/.test(problem) && /\b400\b/.test(problem));

interface StoredWebhook {
  id: string;
  url: string;
  event: string;
  format: string;
  enabled: boolean;
  hasSecret: boolean;
}

interface StoredDelivery {
  id: string;
  eventId: string;
  event: string;
  status: string;
  redeliveryOf: string | null;
  attempts: Array<{ statusCode: number | null }>;
}

/** The §7 signature of a delivery: `v1,` base64 HMAC-SHA256 of "{id}.{timestamp}.{body}", keyed by the whsec_ secret's base64. */
function expectSigned(hit: ReceivedWebhook, secret: string) {
  const id = String(hit.headers['webhook-id']);
  const timestamp = String(hit.headers['webhook-timestamp']);
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  expect(key.length).toBe(24);
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${hit.body}`).digest('base64');
  expect(hit.headers['webhook-signature']).toBe(`v1,${mac}`);
}

describe('the webhooks view in Chromium', () => {
  let server: WebServer;
  let browser: Browser;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startWebServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  }

  /** Signs up in the page and makes a live form through the API; reads its webhooks and deliveries back. */
  async function withForm(page: Page) {
    const { token } = await signUpInPage(page, server, 'hooks');
    const formId = await createLiveForm(server, token, {
      fields: [{ id: 'message', type: 'textarea', label: 'Message' }],
    });
    const hooks = async () =>
      (await server.request({ method: 'GET', url: `/webhooks?form_id=${formId}`, auth: token })).body
        .data as StoredWebhook[];
    const deliveries = async (webhookId: string) =>
      (await server.request({ method: 'GET', url: `/webhooks/${webhookId}/deliveries`, auth: token })).body
        .data as StoredDelivery[];
    return { token, formId, hooks, deliveries };
  }

  /** Presses Tab (or Shift+Tab) until the focused control's name (its label, aria-label or text) is `name`. */
  async function tabTo(page: Page, name: string, key: 'Tab' | 'Shift+Tab' = 'Tab') {
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element) return '';
        const labels = (element as HTMLInputElement).labels;
        return (
          element.getAttribute('aria-label') ??
          labels?.[0]?.textContent ??
          element.textContent ??
          ''
        ).trim();
      });
    for (let presses = 0; presses < 80; presses++) {
      await page.keyboard.press(key);
      if ((await focused()) === name) return;
    }
    throw new Error(`${key} never reached “${name}” (last: “${await focused()}”)`);
  }

  it('adds a webhook with a generated secret, tests it, and redelivers what a failing receiver refused', async () => {
    const view = await openPage(browser, `${server.url}/app/login`);
    const { page } = view;
    try {
      const { formId, hooks, deliveries } = await withForm(page);
      await page.reload();
      await page.getByRole('link', { name: 'Webhooks: Feedback' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks: Feedback' }).waitFor();
      await page.getByText('No webhooks yet.').waitFor();
      const add = page.getByRole('region', { name: 'Add a webhook' });

      // 1. a receiver that answers 200, and a secret generated in the page
      const good = await receiver(() => 200);
      const goodUrl = `${good.url}/hooks/good`;
      await add.getByLabel('URL').fill(goodUrl);
      expect(await add.getByLabel('Event').inputValue()).toBe('response.created');
      expect(await add.getByLabel('Format').inputValue()).toBe('legacy');
      await add.getByRole('button', { name: 'Generate a secret' }).click();
      const secretBox = add.getByRole('textbox', { name: 'Secret' });
      await expect.poll(() => secretBox.inputValue(), WAIT).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      const secret = await secretBox.inputValue();
      await add.getByRole('button', { name: 'Add webhook' }).click();
      // shown once more to copy, the form emptied for the next one
      await add.getByText('Webhook added').waitFor();
      await expect.poll(() => add.locator('code.secret').textContent(), WAIT).toBe(secret);
      await expect.poll(() => secretBox.inputValue(), WAIT).toBe('');
      await expect
        .poll(
          async () => (await hooks()).map((h) => [h.url, h.event, h.format, h.enabled, h.hasSecret]),
          WAIT,
        )
        .toEqual([[goodUrl, 'response.created', 'legacy', true, true]]);
      const goodHook = (await hooks())[0] as StoredWebhook;
      const goodCard = page.getByRole('article', { name: goodUrl });
      await goodCard.getByText('Set: deliveries are signed').waitFor();
      await goodCard.getByText('No deliveries yet').waitFor();

      await page.getByRole('button', { name: `Send test: ${goodUrl}` }).click();
      await good.waitFor(() => good.on('/hooks/good').length === 1, 10_000, 'the test event');
      const [hit] = good.on('/hooks/good') as [ReceivedWebhook];
      expect(JSON.parse(hit.body)).toMatchObject({ event: 'webhook.test', data: { webhookId: goodHook.id } });
      expectSigned(hit, secret);
      // the view follows the delivery by itself, to delivered, with its one attempt
      const goodAttempts = goodCard.getByRole('table', { name: /^Attempts of webhook\.test of / });
      await expect.poll(() => goodAttempts.getByRole('row').count(), WAIT).toBe(2);
      expect(await goodAttempts.getByRole('row').nth(1).textContent()).toMatch(/^1.*answered 200 OK\d+ ms$/);
      await expect
        .poll(() => goodCard.getByRole('listitem').first().textContent(), WAIT)
        .toMatch(/^webhook\.testDelivered/);
      await expect
        .poll(async () => (await deliveries(goodHook.id)).map((d) => [d.event, d.status, d.eventId]), WAIT)
        .toEqual([['webhook.test', 'succeeded', hit.headers['webhook-id']]]);

      // an event the view did not start (a response sent to the form) is shown on "Refresh"
      const sent = await server.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body: { answers: { message: 'Hello' } },
      });
      expect(sent.status, sent.text).toBe(201);
      await good.waitFor(() => good.on('/hooks/good').length === 2, 10_000, 'the response.created event');
      await expect
        .poll(async () => (await deliveries(goodHook.id)).map((d) => [d.event, d.status]), WAIT)
        .toEqual([
          ['response.created', 'succeeded'],
          ['webhook.test', 'succeeded'],
        ]);
      await page.getByRole('button', { name: `Refresh deliveries: ${goodUrl}` }).click();
      await expect
        .poll(() => goodCard.getByRole('listitem').first().textContent(), WAIT)
        .toMatch(/^response\.createdDelivered/);
      await goodCard.getByRole('button', { name: /^Redeliver: response\.created of / }).waitFor();

      // 2. a receiver that fails until told otherwise: the failed attempt shown, then redelivered
      let failing = true;
      const flaky = await receiver(() => (failing ? 500 : 200));
      const flakyUrl = `${flaky.url}/hooks/flaky`;
      await add.getByLabel('URL').fill(flakyUrl);
      await add.getByRole('button', { name: 'Add webhook' }).click();
      const flakyCard = page.getByRole('article', { name: flakyUrl });
      await flakyCard.waitFor();
      await expect
        .poll(async () => (await hooks()).map((h) => [h.url, h.hasSecret]), WAIT)
        .toEqual([
          [flakyUrl, false],
          [goodUrl, true],
        ]);
      const flakyHook = (await hooks())[0] as StoredWebhook;
      // a response to the form (a test is never retried: issue 25)
      const answered = await server.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body: { answers: { message: 'Again' } },
      });
      expect(answered.status, answered.text).toBe(201);
      await flaky.waitFor(() => flaky.received.length >= 1, 10_000, 'the first attempt');
      await page.getByRole('button', { name: `Refresh deliveries: ${flakyUrl}` }).click();
      const firstAttempts = flakyCard
        .getByRole('listitem')
        .filter({ hasNotText: 'Sent again by request' })
        .getByRole('table', { name: /^Attempts of response\.created of / });
      await expect
        .poll(() => firstAttempts.getByRole('row').nth(1).textContent(), WAIT)
        .toMatch(/^1.*answered 500 Internal Server Error/);
      const [original] = await deliveries(flakyHook.id);
      expect(original?.attempts[0]?.statusCode).toBe(500);
      expect(original?.status).toBe('pending');
      // tried again on the §7 schedule (about 5 s later): the view looks again by itself, untouched
      await flakyCard.getByText(/^Next attempt at /).waitFor();
      await expect
        .poll(() => firstAttempts.getByRole('row').nth(2).textContent(), WAIT)
        .toMatch(/^2.*answered 500/);
      expect(flaky.received.length).toBe(2);

      failing = false;
      await flakyCard.getByRole('button', { name: /^Redeliver: response\.created of / }).click();
      await flaky.waitFor(
        () => flaky.received.some((request) => request.status === 200),
        10_000,
        'the redelivery',
      );
      // the same event again: the same webhook-id
      const eventIds = new Set(flaky.received.map((request) => request.headers['webhook-id']));
      expect([...eventIds]).toEqual([original?.eventId]);
      const redelivered = flakyCard.getByRole('listitem').filter({ hasText: 'Sent again by request' });
      await expect.poll(() => redelivered.textContent(), WAIT).toMatch(/^response\.createdDelivered/);
      await expect
        .poll(() => redelivered.getByRole('row').nth(1).textContent(), WAIT)
        .toMatch(/^1.*answered 200 OK/);
      await expect
        .poll(
          async () =>
            (await deliveries(flakyHook.id))
              .filter((d) => d.redeliveryOf === original?.id)
              .map((d) => [d.eventId, d.status, d.attempts.map((a) => a.statusCode)]),
          WAIT,
        )
        .toEqual([[original?.eventId, 'succeeded', [200]]]);
      // the failed attempt stays listed on the original
      expect(await firstAttempts.getByRole('row').nth(1).textContent()).toMatch(/^1.*answered 500/);

      await screenshot(page, 'dashboard-webhooks-1280-light');
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('edits a webhook (a refusal shown by its field), removes its secret, disables it and deletes it after confirming', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { colorScheme: 'dark' });
    const { page } = view;
    try {
      const { token, formId, hooks } = await withForm(page);
      const created = await server.request({
        method: 'POST',
        url: '/webhooks',
        auth: token,
        body: {
          formId,
          event: 'response.created',
          url: 'https://hooks.example.com/intake',
          secret: 'whsec_dGhlIHNlY3JldCB0aGF0IG11c3Qgc3RheSBoaWRkZW4=',
        },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      await page.goto(`${server.url}/app/forms/${formId}/webhooks`);
      await page.getByRole('heading', { level: 1, name: 'Webhooks: Feedback' }).waitFor();
      const card = page.getByRole('article', { name: 'https://hooks.example.com/intake' });
      await card.waitFor();

      // the server's refusal, next to the field it names
      await page.getByRole('button', { name: 'Edit: https://hooks.example.com/intake' }).click();
      const url = card.getByLabel('URL');
      await expect.poll(() => url.evaluate((element) => element === document.activeElement), WAIT).toBe(true);
      await url.fill('ftp://hooks.example.com/intake');
      await card.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => url.getAttribute('aria-invalid'), WAIT).toBe('true');
      await card.getByText('must be an absolute http:// or https:// URL').waitFor();
      expect((await hooks())[0]?.url).toBe('https://hooks.example.com/intake');

      await url.fill('https://hooks.example.com/changed');
      await card.getByLabel('Event').selectOption('form.updated');
      await card.getByLabel('Format').selectOption('otel');
      await card.getByRole('button', { name: 'Save changes' }).click();
      const changed = page.getByRole('article', { name: 'https://hooks.example.com/changed' });
      await changed.waitFor();
      // a blank secret keeps the current one
      await expect
        .poll(async () => (await hooks()).map((h) => [h.url, h.event, h.format, h.hasSecret]), WAIT)
        .toEqual([['https://hooks.example.com/changed', 'form.updated', 'otel', true]]);
      await changed.getByText('OpenTelemetry logs', { exact: true }).waitFor();

      await page.getByRole('button', { name: 'Edit: https://hooks.example.com/changed' }).click();
      await changed.getByLabel('Remove the secret').check();
      await changed.getByRole('button', { name: 'Save changes' }).click();
      await changed.getByText('None: deliveries are not signed').waitFor();
      await expect.poll(async () => (await hooks())[0]?.hasSecret, WAIT).toBe(false);

      await page.getByRole('button', { name: 'Disable: https://hooks.example.com/changed' }).click();
      await page.getByRole('button', { name: 'Enable: https://hooks.example.com/changed' }).waitFor();
      await expect.poll(async () => (await hooks())[0]?.enabled, WAIT).toBe(false);
      await expect
        .poll(
          () => page.getByRole('button', { name: 'Send test: https://hooks.example.com/changed' }).count(),
          WAIT,
        )
        .toBe(0);
      await expectNoAxeViolations(page);

      // asked first, kept once, then deleted
      await page.getByRole('button', { name: 'Delete: https://hooks.example.com/changed' }).click();
      await changed.getByRole('button', { name: 'Keep it' }).click();
      await page.getByRole('button', { name: 'Delete: https://hooks.example.com/changed' }).waitFor();
      expect((await hooks()).length).toBe(1);
      await page.getByRole('button', { name: 'Delete: https://hooks.example.com/changed' }).click();
      await changed.getByRole('button', { name: 'Delete webhook' }).click();
      await page.getByText('No webhooks yet.').waitFor();
      const gone = await server.request({ method: 'GET', url: `/webhooks/${id}`, auth: token });
      expect(gone.status).toBe(404);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });

  it('adds a webhook and sends a test from the keyboard alone, and fits 320 CSS pixels in the dark', async () => {
    const view = await openPage(browser, `${server.url}/app/login`, { width: 320, colorScheme: 'dark' });
    const { page } = view;
    try {
      const { formId, hooks, deliveries } = await withForm(page);
      const good = await receiver(() => 200);
      // a long address: it wraps, never widens the page
      const longUrl = `${good.url}/hooks/a-rather-long-path/that-must-wrap-at-320-css-pixels?token=abcdefghijklmnopqrstuvwxyz0123456789`;
      await page.goto(`${server.url}/app/forms/${formId}/webhooks`);
      await page.getByRole('heading', { level: 1, name: 'Webhooks: Feedback' }).waitFor();
      await page.getByText('No webhooks yet.').waitFor();

      await tabTo(page, 'URL');
      await page.keyboard.type(longUrl);
      await tabTo(page, 'Generate a secret');
      await page.keyboard.press('Space');
      const secretBox = page.getByRole('region', { name: 'Add a webhook' }).getByRole('textbox', {
        name: 'Secret',
      });
      await expect.poll(() => secretBox.inputValue(), WAIT).toMatch(/^whsec_/);
      const secret = await secretBox.inputValue();
      await tabTo(page, 'Add webhook');
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await hooks()).map((h) => [h.url, h.hasSecret]), WAIT)
        .toEqual([[longUrl, true]]);
      const hook = (await hooks())[0] as StoredWebhook;

      // the new webhook comes before the form that added it
      await tabTo(page, `Send test: ${longUrl}`, 'Shift+Tab');
      await page.keyboard.press('Enter');
      await good.waitFor(() => good.received.length === 1, 10_000, 'the test event');
      expectSigned(good.received[0] as ReceivedWebhook, secret);
      const card = page.getByRole('article', { name: longUrl });
      await expect
        .poll(() => card.getByRole('listitem').first().textContent(), WAIT)
        .toMatch(/^webhook\.testDelivered/);
      await expect.poll(async () => (await deliveries(hook.id))[0]?.status, WAIT).toBe('succeeded');

      await screenshot(page, 'dashboard-webhooks-320-dark');
      expect(await scrollsHorizontally(page)).toBe(false);
      await expectNoAxeViolations(page);
      expect(view.problems.filter((problem) => !noise(problem))).toEqual([]);
    } finally {
      await view.close();
    }
  });
});
