import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { waitFor } from '../../../test/support/poll.js';
import {
  type ReceivedWebhook,
  startReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.js';
import { attemptSummary } from './verdict.js';

/**
 * Webhooks that say what happened (issue 25 item 9): "Send test" answers with its verdict in
 * words (POST /webhooks/{id}/test?wait=true), a test is never retried, every attempt carries
 * its summary, and a webhook's health (failing, with its next retry) is in its read form and
 * filters the environment's list (GET /webhooks?environment=E&failing=true).
 */

const RETRY_DELAYS_MS = [300, 300, 300];

/** `/status/500-200/…` answers 500, then 200. */
function answerFor(request: ReceivedWebhook, count: number) {
  const statuses = /^\/status\/([\d-]+)\//.exec(request.path)?.[1]?.split('-').map(Number);
  return statuses ? (statuses[Math.min(count, statuses.length) - 1] ?? 200) : 200;
}

let receiver: WebhookReceiver;
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  receiver = await startReceiver(answerFor);
  t = await createTestApp(
    {},
    { outbox: { pollMs: 30, retryDelaysMs: RETRY_DELAYS_MS }, webhookTimeoutMs: 1000 },
  );
  owner = await signup(t);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const unique = () => randomBytes(5).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const host = () => new URL(receiver.url).host;

async function formWithWebhook(url: string, environment = 'development') {
  const form = await createForm(t, owner.token, { status: 'live', environment });
  const created = await t.request({
    method: 'POST',
    url: '/webhooks',
    auth: owner.token,
    body: { formId: form.id, event: 'response.created', url },
  });
  expect(created.status, created.text).toBe(201);
  return { form, hook: created.body };
}

const sendTest = (id: string, query = '?wait=true') =>
  t.request({ method: 'POST', url: `/webhooks/${id}/test${query}`, auth: owner.token });

const read = async (id: string) =>
  (await t.request({ method: 'GET', url: `/webhooks/${id}`, auth: owner.token })).body;

describe('the verdict of an attempt in words', () => {
  it.each([
    [{ statusCode: 200, error: null }, 'hooks.example.com answered 200 OK'],
    [{ statusCode: 404, error: null }, 'hooks.example.com answered 404 Not Found'],
    [
      { statusCode: 301, error: null },
      'hooks.example.com answered 301 Moved Permanently: redirects are not followed, so give the address it leads to',
    ],
    [
      { statusCode: 410, error: null },
      'hooks.example.com answered 410 Gone, so the webhook was switched off',
    ],
    [
      { statusCode: null, error: 'ENOTFOUND: getaddrinfo ENOTFOUND hooks.example.com' },
      'hooks.example.com could not be found (no such host name)',
    ],
    [
      { statusCode: null, error: 'connect ECONNREFUSED 203.0.113.9:443' },
      'hooks.example.com refused the connection (nothing is listening there)',
    ],
    [
      { statusCode: null, error: 'no answer within 10000 ms' },
      'hooks.example.com did not answer within 10 seconds',
    ],
    [
      { statusCode: null, error: 'UND_ERR_CONNECT_TIMEOUT: Connect Timeout Error' },
      'hooks.example.com could not be reached in time',
    ],
    [
      {
        statusCode: null,
        error: 'EFORBIDDENADDRESS: hooks.example.com resolves to a loopback, private or reserved address',
      },
      'hooks.example.com is a private or internal address, which webhooks may not reach',
    ],
    [
      { statusCode: null, error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate' },
      'the secure connection to hooks.example.com failed: its certificate is not trusted (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
    ],
    [
      { statusCode: null, error: 'not sent: the webhook is disabled' },
      'not sent: the webhook is switched off',
    ],
    [{ statusCode: null, error: 'something new' }, 'something new'],
  ])('%j: %s', (attempt, words) => {
    expect(attemptSummary(attempt, 'https://hooks.example.com/intake')).toBe(words);
  });
});

describe('Send test', () => {
  it('with wait=true answers once tried: an unresolvable host is "could not be found", failed, never retried', async () => {
    const { hook } = await formWithWebhook(`http://hooks-${unique()}.example.invalid/intake`);
    const response = await sendTest(hook.id);
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({ event: 'webhook.test', status: 'failed', nextAttemptAt: null });
    expect(response.body.attempts).toHaveLength(1);
    expect(response.body.attempts[0]).toMatchObject({
      attempt: 1,
      statusCode: null,
      summary: `${new URL(hook.url).host} could not be found (no such host name)`,
    });
    expect(response.body.attempts[0].error).toMatch(/ENOTFOUND/);
    // past every retry delay: still the one attempt
    await sleep(RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 200));
    const listed = await t.request({
      method: 'GET',
      url: `/webhooks/${hook.id}/deliveries`,
      auth: owner.token,
    });
    expect(listed.body.data[0].attempts).toHaveLength(1);
  });

  it('a receiver answering 500 then 200 is tried once for a test: its 500 is the verdict', async () => {
    const path = `/status/500-200/${unique()}`;
    const { hook } = await formWithWebhook(`${receiver.url}${path}`);
    const response = await sendTest(hook.id);
    expect(response.body.status).toBe('failed');
    expect(response.body.attempts.map((attempt: { summary: string }) => attempt.summary)).toEqual([
      `${host()} answered 500 Internal Server Error`,
    ]);
    await sleep((RETRY_DELAYS_MS[0] ?? 0) + 300);
    expect(receiver.on(path)).toHaveLength(1);
  });

  it('a working receiver: succeeded, "answered 200 OK"', async () => {
    const { hook } = await formWithWebhook(`${receiver.url}/ok/${unique()}`);
    const response = await sendTest(hook.id);
    expect(response.body).toMatchObject({
      status: 'succeeded',
      attempts: [{ statusCode: 200, summary: `${host()} answered 200 OK` }],
    });
  });

  it('without wait answers at once with the delivery pending, as before', async () => {
    const { hook } = await formWithWebhook(`${receiver.url}/ok/${unique()}`);
    const response = await sendTest(hook.id, '');
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ status: 'pending', attempts: [] });
  });

  it('refuses a wait that is not a boolean', async () => {
    const { hook } = await formWithWebhook(`${receiver.url}/ok/${unique()}`);
    expectProblem(await sendTest(hook.id, '?wait=soon'), 400, 'invalid_parameter');
  });
});

describe("a webhook's health", () => {
  it('is untried before anything is sent, working after a 2xx, failing after a failed test (no retry due)', async () => {
    const { hook } = await formWithWebhook(`${receiver.url}/status/200-404/${unique()}`);
    expect(hook.health).toEqual({
      state: 'untried',
      lastAttemptAt: null,
      lastOutcome: null,
      nextRetryAt: null,
    });
    expect((await read(hook.id)).health.state).toBe('untried');
    await sendTest(hook.id);
    expect((await read(hook.id)).health).toMatchObject({
      state: 'working',
      lastAttemptAt: expect.stringMatching(ISO_MS),
      lastOutcome: `${host()} answered 200 OK`,
      nextRetryAt: null,
    });
    await sendTest(hook.id);
    expect((await read(hook.id)).health).toMatchObject({
      state: 'failing',
      lastOutcome: `${host()} answered 404 Not Found`,
      nextRetryAt: null,
    });
  });

  it('a failing response.created delivery: failing with the time of its next retry, then working once it gets through', async () => {
    const { form, hook } = await formWithWebhook(`${receiver.url}/status/503-200/${unique()}`);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(submitted.status, submitted.text).toBe(201);
    const failing = await waitFor(
      async () => {
        const health = (await read(hook.id)).health;
        // the retry's time is set by the worker a moment after the attempt is recorded
        return health.nextRetryAt !== null && health;
      },
      { timeoutMs: 5000, intervalMs: 20, what: 'the first attempt' },
    );
    expect(failing).toMatchObject({
      state: 'failing',
      lastOutcome: `${host()} answered 503 Service Unavailable`,
    });
    expect(failing.nextRetryAt).toMatch(ISO_MS);
    expect(Date.parse(failing.nextRetryAt)).toBeGreaterThan(Date.parse(failing.lastAttemptAt));
    await waitFor(async () => (await read(hook.id)).health.state === 'working', {
      timeoutMs: 5000,
      what: 'the retry to get through',
    });
  });

  it('GET /webhooks?environment=E&failing=true lists only the enabled webhooks whose last attempt failed, with their health', async () => {
    const environment = `health-${unique()}`;
    await t.request({ method: 'POST', url: '/environments', auth: owner.token, body: { name: environment } });
    const broken = await formWithWebhook(`${receiver.url}/status/500/${unique()}`, environment);
    const fine = await formWithWebhook(`${receiver.url}/ok/${unique()}`, environment);
    const switchedOff = await formWithWebhook(`${receiver.url}/status/500/${unique()}`, environment);
    const untried = await formWithWebhook(`${receiver.url}/ok/${unique()}`, environment);
    for (const { hook } of [broken, fine, switchedOff]) await sendTest(hook.id);
    await t.request({
      method: 'PATCH',
      url: `/webhooks/${switchedOff.hook.id}`,
      auth: owner.token,
      body: { enabled: false },
    });

    const failing = await t.request({
      method: 'GET',
      url: `/webhooks?environment=${environment}&failing=true`,
      auth: owner.token,
    });
    expect(failing.status, failing.text).toBe(200);
    expect(failing.body.data.map((webhook: { formId: string }) => webhook.formId)).toEqual([broken.form.id]);
    expect(failing.body.data[0].health).toMatchObject({
      state: 'failing',
      lastOutcome: `${host()} answered 500 Internal Server Error`,
    });

    const all = await t.request({
      method: 'GET',
      url: `/webhooks?environment=${environment}`,
      auth: owner.token,
    });
    const states = Object.fromEntries(
      all.body.data.map((webhook: { formId: string; health: { state: string } }) => [
        webhook.formId,
        webhook.health.state,
      ]),
    );
    expect(states).toEqual({
      [broken.form.id]: 'failing',
      [fine.form.id]: 'working',
      [switchedOff.form.id]: 'failing',
      [untried.form.id]: 'untried',
    });
  });

  it('refuses a failing filter that is not a boolean', async () => {
    expectProblem(
      await t.request({
        method: 'GET',
        url: '/webhooks?environment=development&failing=maybe',
        auth: owner.token,
      }),
      400,
      'invalid_parameter',
    );
  });
});
