import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type RequestOptions, type TestApp } from './support/app.js';
import { createForm, createKey, signup } from './support/factories.js';

/** Odd input on the webhook, delivery and analytics routes is a 4xx problem, never a 5xx. */
describe('bad input on webhooks, deliveries and analytics routes', () => {
  let t: TestApp;
  let token: string;
  let secret: string;
  let formId: string;
  let webhookId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t);
    token = user.token;
    secret = (await createKey(t, user, 'secret')).key;
    formId = (await createForm(t, token, { status: 'live' })).id;
    const created = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: token,
      body: { formId, event: 'response.created', url: 'https://hooks.example.com/x' },
    });
    expect(created.status, created.text).toBe(201);
    webhookId = created.body.id;
  });
  afterAll(async () => t.close());

  const cases = (): Array<[string, RequestOptions]> => {
    const w = `/webhooks/${webhookId}`;
    const list: Array<[string, RequestOptions]> = [];
    const add = (name: string, options: Omit<RequestOptions, 'auth'> & { auth?: string }) =>
      list.push([name, { auth: token, ...options }]);
    for (const body of [
      null,
      [],
      'text',
      42,
      { formId: 1 },
      { formId, event: 'response.created', url: 'http://exa mple.com' },
      { formId, event: 'response.created', url: 'http://[::1' },
      { formId, event: 'response.created', url: `https://${'a'.repeat(1990)}.com` },
      { formId, event: 'response.created', url: 'https://x.example.com', secret: 'whsec_!!!' },
      { formId, event: 'response.created', url: 'https://x.example.com', secret: 'whsec_A' },
      { formId, event: 'response.created', url: 'https://x.example.com', format: 'xml' },
      { formId, event: 'webhook.test', url: 'https://x.example.com' },
      { formId: '\u0000', event: 'response.created', url: 'https://x.example.com' },
      { formId: '__proto__', event: 'response.created', url: 'https://x.example.com' },
    ]) {
      add(`POST /webhooks ${JSON.stringify(body)?.slice(0, 60)}`, { method: 'POST', url: '/webhooks', body });
    }
    for (const query of [
      '',
      '?form_id=',
      '?environment=',
      '?environment=BAD',
      '?environment=nope',
      `?form_id=${formId}&environment=production`,
      '?environment=development&cursor=abc',
      '?environment=development&cursor=WyIyMDI2LTAxLTAxVDAwOjAwOjAwLjAwMFoiLDFd',
      '?environment=development&limit=0',
      '?environment=development&limit=abc',
      '?environment=development&limit=1e3',
      '?form_id=%00',
      '?form_id[]=a',
      '?form_id=a&form_id=b',
    ]) {
      add(`GET /webhooks${query}`, { method: 'GET', url: `/webhooks${query}` });
    }
    for (const body of [
      null,
      {},
      { secret: null },
      { url: 'ftp://x' },
      { enabled: 'yes' },
      { event: 'nope' },
      { unknown: 1 },
    ]) {
      add(`PATCH webhook ${JSON.stringify(body)}`, { method: 'PATCH', url: w, body });
    }
    add('PATCH with text body', {
      method: 'PATCH',
      url: w,
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    add('GET webhook %00', { method: 'GET', url: '/webhooks/%00' });
    add('GET webhook long', { method: 'GET', url: `/webhooks/${'x'.repeat(300)}` });
    add('GET deliveries bad cursor', { method: 'GET', url: `${w}/deliveries?cursor=%%%` });
    add('GET deliveries limit', { method: 'GET', url: `${w}/deliveries?limit=-1` });
    add('POST test with JSON garbage', {
      method: 'POST',
      url: `${w}/test`,
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    add('POST test with text body', {
      method: 'POST',
      url: `${w}/test`,
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    add('POST test with JSON array', { method: 'POST', url: `${w}/test`, body: [] });
    add('redeliver unknown', { method: 'POST', url: `${w}/deliveries/dlv_nope/redeliver` });
    add('redeliver of unknown webhook', { method: 'POST', url: '/webhooks/x/deliveries/y/redeliver' });
    add('POST /webhooks with publishable-like secret key', {
      method: 'POST',
      url: '/webhooks',
      auth: secret,
      body: { formId: 'nope', event: 'response.created', url: 'https://x.example.com' },
    });
    for (const body of [
      null,
      {},
      { type: 'view' },
      { type: 'click', sessionId: 's' },
      { type: 'view', sessionId: '' },
      { type: 'view', sessionId: 'é' },
      { type: 'view', sessionId: 'x'.repeat(200) },
      { type: 'view', sessionId: 's', extra: 1 },
    ]) {
      add(`events ${JSON.stringify(body)?.slice(0, 40)}`, {
        method: 'POST',
        url: `/v1/forms/${formId}/events`,
        auth: undefined,
        body,
      });
    }
    add('events to unknown form', {
      method: 'POST',
      url: '/v1/forms/nope/events',
      auth: undefined,
      body: { type: 'view', sessionId: 's' },
    });
    for (const query of [
      '',
      '?environment=',
      '?environment=BAD',
      '?environment=nope',
      '?environment=development&from=2026-02-30',
      '?environment=development&from=2026-13-01',
      '?environment=development&from=0000-01-01T00:00:00%2B01:00&to=0000-01-02',
      '?environment=development&from=9999-12-01&to=9999-12-31T23:00:00-02:00',
      '?environment=development&from=1900-01-01',
      '?environment=development&from=2026-01-02&to=2026-01-01',
      '?environment=development&to=2026-01-01T24:00:00Z',
      '?environment=development&form_id=',
      '?environment=development&form_id=nope',
      `?environment=production&form_id=${formId}`,
      '?environment=development&from=x&to=y',
    ]) {
      add(`GET /analytics${query}`, { method: 'GET', url: `/analytics${query}` });
      // the summary per question and the drop-off take the same query (a form required)
      add(`GET /analytics/questions${query}`, { method: 'GET', url: `/analytics/questions${query}` });
      add(`GET /analytics/drop-off${query}`, { method: 'GET', url: `/analytics/drop-off${query}` });
    }
    add('legacy analytics bad env', { method: 'GET', url: '/environments/BAD%20ENV/analytics' });
    add('legacy analytics %ZZ', { method: 'GET', url: '/environments/%ZZ/analytics' });
    add('legacy responses bad format', {
      method: 'GET',
      url: `/environments/development/responses?form_id=${formId}&format=pdf`,
    });
    add('legacy responses no form', { method: 'GET', url: '/environments/development/responses' });
    add('legacy forms bad env', { method: 'GET', url: '/environments/x%0d%0ay/forms' });
    return list;
  };

  it('answers every odd request with a 4xx problem (or a success), never a 5xx', async () => {
    const failures: string[] = [];
    for (const [name, options] of cases()) {
      const response = await t.request(options);
      if (response.status >= 500)
        failures.push(`${name} → ${response.status} ${response.text.slice(0, 200)}`);
      else if (
        response.status >= 400 &&
        !String(response.headers['content-type']).startsWith('application/problem+json')
      )
        failures.push(`${name} → ${response.status} with ${response.headers['content-type']}`);
    }
    expect(failures).toEqual([]);
  });
});
