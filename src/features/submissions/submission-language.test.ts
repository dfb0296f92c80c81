import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { startReceiver, type WebhookReceiver } from '../../../test/support/webhook-receiver.js';

/**
 * API.md §13: a submission stores `language`, the one its form was shown in — the hosted page's
 * (`?lang=`, `Accept-Language`, the form's own), or for the API the best of `?lang=` and
 * `Accept-Language` among the form's languages — and shows it in responses, CSV (a `language`
 * column after `starred`) and webhooks.
 */

const FIELDS = [{ id: 'name', type: 'text', label: 'Your name', required: true }];
const TRANSLATIONS = {
  de: { title: 'Kontakt', fields: { name: { label: 'Ihr Name' } } },
  ar: { title: 'اتصل' },
};

let t: TestApp;
let user: TestUser;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await createTestApp({}, { outbox: { pollMs: 30 } });
  user = await signup(t);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function liveForm(ui: Record<string, unknown> = {}) {
  return createForm(t, user.token, { status: 'live', fields: FIELDS, translations: TRANSLATIONS, ui });
}

async function apiSubmit(formId: string, query = '', headers: Record<string, string> = {}) {
  const response = await t.request({
    method: 'POST',
    url: `/forms/${formId}/submit${query}`,
    body: { answers: { name: 'Ada' } },
    headers,
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id as string;
}

async function languageOf(formId: string, id: string) {
  const response = await t.request({
    method: 'GET',
    url: `/responses/${id}?form_id=${formId}&environment=development`,
    auth: user.token,
  });
  expect(response.status).toBe(200);
  return response.body.language;
}

describe('the language a submission stores (API.md §13)', () => {
  it.each([
    ['nothing asked', '', {}, 'en'],
    ['?lang= of one of its languages', '?lang=de', {}, 'de'],
    ['?lang= in another letter case', '?lang=AR', {}, 'ar'],
    ['?lang= of a language it lacks', '?lang=fr', {}, 'en'],
    ['?lang= that is no tag', '?lang=xx-invalid!', {}, 'en'],
    ['Accept-Language', '', { 'accept-language': 'fr, de-CH;q=0.8, en;q=0.5' }, 'de'],
    ['?lang= over Accept-Language', '?lang=ar', { 'accept-language': 'de' }, 'ar'],
  ])('through the API, %s', async (_name, query, headers, expected) => {
    const form = await liveForm();
    const id = await apiSubmit(form.id, query, headers);
    expect(await languageOf(form.id, id)).toBe(expected);
  });

  it('is the form’s own language when it is not English and nothing is asked', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { language: 'fr' },
      translations: { de: { title: 'Kontakt' } },
    });
    const id = await apiSubmit(form.id);
    expect(await languageOf(form.id, id)).toBe('fr');
  });

  it('is the hosted page’s language for a post of the page', async () => {
    const form = await liveForm();
    const page = await t.request({ method: 'GET', url: `/f/${form.id}?lang=de` });
    expect(page.status).toBe(200);
    const hidden = Object.fromEntries(
      [...page.text.matchAll(/<input type="hidden" name="(_[^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    const posted = await t.request({
      method: 'POST',
      url: `/f/${form.id}?lang=de`,
      body: new URLSearchParams({ ...hidden, name: 'Ada' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.status, posted.text).toBe(200);
    const list = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development`,
      auth: user.token,
    });
    expect(list.body.data.map((submission: { language: string }) => submission.language)).toEqual(['de']);
  });

  it('is a column after starred in the CSV export', async () => {
    const form = await liveForm();
    await apiSubmit(form.id, '?lang=ar');
    await apiSubmit(form.id);
    const csv = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&format=csv`,
      auth: user.token,
    });
    expect(csv.status).toBe(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('"id","createdAt","status","read","starred","language","name"');
    expect(lines.slice(1).map((line) => line.split(',')[5])).toEqual(['"en"', '"ar"']);
  });

  it('is in the response.created webhook', async () => {
    const form = await liveForm();
    const hook = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: user.token,
      body: { formId: form.id, url: receiver.url, event: 'response.created' },
    });
    expect(hook.status, hook.text).toBe(201);
    await apiSubmit(form.id, '', { 'accept-language': 'de' });
    await expect.poll(() => receiver.received.length).toBeGreaterThan(0);
    const delivered = JSON.parse(receiver.received[0]?.body ?? '{}');
    expect(delivered.data.language).toBe('de');
  });
});
