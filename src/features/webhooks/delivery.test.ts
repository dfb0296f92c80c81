import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { eventually, waitFor } from '../../../test/support/poll.js';
import {
  type ReceivedWebhook,
  startReceiver,
  type WebhookReceiver,
} from '../../../test/support/webhook-receiver.js';
import { newId } from '../../platform/ids.js';
import { nowIso } from '../../platform/time.js';

/**
 * Webhook delivery end to end (API.md §7) against a real HTTP receiver on 127.0.0.1:
 * both payload formats, Standard Webhooks signatures (checked by the `standardwebhooks`
 * package and by hand), retries with a stable webhook-id, 410, giving up, timeouts,
 * disabled and deleted webhooks, the deliveries routes, PII, and the SSRF guard at
 * connect time. Retry delays and the timeout are shortened through build options.
 */

const RETRY_DELAYS_MS = [150, 150, 150];
const TIMEOUT_MS = 400;

/** Answers by path: `/status/500-500-200/…` answers 500, 500, then 200; `/hang/…` never answers. */
function answerFor(request: ReceivedWebhook, count: number) {
  const path = request.path.split('?')[0] ?? '/';
  if (path.startsWith('/hang/')) return 'hang' as const;
  const statuses = /^\/status\/([\d-]+)\//.exec(path)?.[1]?.split('-').map(Number);
  if (statuses) return statuses[Math.min(count, statuses.length) - 1] ?? 200;
  return 200;
}

let receiver: WebhookReceiver;
let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  receiver = await startReceiver(answerFor);
  t = await createTestApp(
    { rateLimitPublic: 1_000_000 },
    { outbox: { pollMs: 30, retryDelaysMs: RETRY_DELAYS_MS }, webhookTimeoutMs: TIMEOUT_MS },
  );
  owner = await signup(t);
  other = await signup(t);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const unique = () => randomBytes(5).toString('hex');
/** Fixed waits only to prove that nothing (more) arrives within a while; anything awaited is polled. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'email', type: 'email', label: 'E-mail', piiMode: 'masked' },
  { id: 'phone', type: 'phone', label: 'Phone', piiMode: 'dropped' },
  { id: 'age', type: 'number', label: 'Age' },
];

async function liveForm(user = owner): Promise<any> {
  return createForm(t, user.token, { status: 'live', fields: FIELDS });
}

async function addWebhook(
  formId: string,
  options: { path?: string; event?: string; secret?: string; format?: string; auth?: string } = {},
): Promise<any> {
  const path = options.path ?? `/hooks/${unique()}`;
  const response = await t.request({
    method: 'POST',
    url: '/webhooks',
    auth: options.auth ?? owner.token,
    body: {
      formId,
      event: options.event ?? 'response.created',
      url: `${receiver.url}${path}`,
      ...(options.secret ? { secret: options.secret } : {}),
      ...(options.format ? { format: options.format } : {}),
    },
  });
  expect(response.status, response.text).toBe(201);
  return { ...response.body, path };
}

async function submit(formId: string, answers: Record<string, unknown>): Promise<any> {
  const response = await t.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

async function deliveries(webhookId: string, query = ''): Promise<any> {
  const response = await t.request({
    method: 'GET',
    url: `/webhooks/${webhookId}/deliveries${query}`,
    auth: owner.token,
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** Waits until the webhook's newest delivery is no longer pending, and returns it. */
async function settled(webhookId: string, timeoutMs = 10_000): Promise<any> {
  return waitFor(
    async () => {
      const [latest] = (await deliveries(webhookId)).data;
      return latest && latest.status !== 'pending' && latest;
    },
    { timeoutMs, intervalMs: 30, what: `the newest delivery of ${webhookId} to settle` },
  );
}

/** A webhook.test event to one webhook (`POST /webhooks/{id}/test`): the quickest way to cause a delivery. */
async function sendTest(webhookId: string): Promise<any> {
  const response = await t.request({ method: 'POST', url: `/webhooks/${webhookId}/test`, auth: owner.token });
  expect(response.status, response.text).toBe(202);
  return response.body;
}

const ANSWERS = { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', age: 36 };

describe('a submission reaches the receiver', () => {
  it('in the legacy format: {id, event, createdAt, formId, environment, data}', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id);
    const submission = await submit(form.id, ANSWERS);
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [request] = receiver.on(hook.path);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('Intake-Webhooks/1.0');
    expect(request?.headers['webhook-id']).toMatch(/^evt_[0-9a-z]{26}$/);
    expect(Number(request?.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    expect(request?.headers['webhook-signature']).toBeUndefined();

    const shown = await t.request({
      method: 'GET',
      url: `/responses/${submission.id}?form_id=${form.id}&environment=development`,
      auth: owner.token,
    });
    const body = JSON.parse(request?.body ?? '');
    expect(body).toEqual({
      id: request?.headers['webhook-id'],
      event: 'response.created',
      createdAt: submission.createdAt,
      formId: form.id,
      environment: 'development',
      data: shown.body,
    });
    // masked stays masked, dropped is absent
    expect(body.data.answers).toEqual({ name: 'Ada Lovelace', email: 'a***@example.com', age: 36 });
    expect(request?.body).not.toContain('ada@example.com');
    expect(request?.body).not.toContain('7946');

    const delivery = await settled(hook.id);
    expect(delivery).toMatchObject({
      webhookId: hook.id,
      eventId: request?.headers['webhook-id'],
      event: 'response.created',
      status: 'succeeded',
      nextAttemptAt: null,
      redeliveryOf: null,
    });
    expect(delivery.attempts).toEqual([
      {
        attempt: 1,
        statusCode: 200,
        error: null,
        summary: `${new URL(receiver.url).host} answered 200 OK`,
        durationMs: expect.any(Number),
        attemptedAt: expect.stringMatching(ISO_MS),
      },
    ]);
  });

  it('in the otel format: an OTLP/JSON logs document with the submission in the body', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { format: 'otel' });
    const submission = await submit(form.id, ANSWERS);
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [request] = receiver.on(hook.path);
    const eventId = request?.headers['webhook-id'];
    const document = JSON.parse(request?.body ?? '');
    const shown = await t.request({
      method: 'GET',
      url: `/responses/${submission.id}?form_id=${form.id}&environment=development`,
      auth: owner.token,
    });

    const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
    expect(document.resourceLogs).toHaveLength(1);
    expect(document.resourceLogs[0].resource.attributes).toEqual([
      str('service.name', 'intake'),
      str('deployment.environment.name', 'development'),
    ]);
    const [scopeLogs] = document.resourceLogs[0].scopeLogs;
    expect(scopeLogs.scope.name).toBe('intake.webhooks');
    expect(scopeLogs.logRecords).toHaveLength(1);
    const [record] = scopeLogs.logRecords;
    expect(record.eventName).toBe('response.created');
    expect(record.timeUnixNano).toBe((BigInt(Date.parse(submission.createdAt)) * 1_000_000n).toString());
    expect(record.observedTimeUnixNano).toMatch(/^\d{19}$/);
    expect(record.severityNumber).toBe(9);
    expect(record.attributes).toEqual([
      str('event.id', eventId as string),
      str('form.id', form.id),
      str('submission.id', submission.id),
      str('webhook.id', hook.id),
      str('deployment.environment.name', 'development'),
    ]);
    const body = Object.fromEntries(
      record.body.kvlistValue.values.map((kv: { key: string; value: unknown }) => [kv.key, kv.value]),
    );
    expect(body.id).toEqual({ stringValue: submission.id });
    expect(body.formId).toEqual({ stringValue: form.id });
    expect(Object.keys(body).sort()).toEqual(Object.keys(shown.body).sort());
    // masked stays masked, dropped is absent, numbers are OTLP intValue strings
    expect(body.answers).toEqual({
      kvlistValue: {
        values: [
          str('name', 'Ada Lovelace'),
          str('email', 'a***@example.com'),
          { key: 'age', value: { intValue: '36' } },
        ],
      },
    });
    expect(request?.body).not.toContain('ada@example.com');
    expect(request?.body).not.toContain('7946');
  });

  it('quarantined submissions emit nothing; flagged ones do', async () => {
    const spamForm = async (action: string) =>
      createForm(t, owner.token, {
        status: 'live',
        fields: FIELDS,
        spamProtection: { honeypot: { field: 'website' }, action },
      });
    const quarantining = await spamForm('quarantine');
    const flagging = await spamForm('flag');
    const quiet = await addWebhook(quarantining.id);
    const loud = await addWebhook(flagging.id);
    for (const form of [quarantining, flagging]) {
      const spam = await t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        body: { answers: { name: 'Bot', website: 'http://spam.example' } },
      });
      expect(spam.status, spam.text).toBe(201);
    }
    await submit(quarantining.id, { name: 'Human' });
    await receiver.waitFor(() => receiver.on(quiet.path).length >= 1 && receiver.on(loud.path).length >= 1);
    // a fixed wait on purpose: time for the quarantined spam to arrive, were it (wrongly) sent
    await sleep(200);
    expect(receiver.on(quiet.path).map((r) => JSON.parse(r.body).data.answers.name)).toEqual(['Human']);
    const [flagged] = receiver.on(loud.path).map((r) => JSON.parse(r.body).data);
    expect(flagged).toMatchObject({ status: 'flagged', answers: { name: 'Bot' } });
  });
});

describe('signatures (Standard Webhooks)', () => {
  it('verify with the standardwebhooks package for a whsec_ secret', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const form = await liveForm();
    const hook = await addWebhook(form.id, { secret });
    await submit(form.id, { name: 'Signed' });
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [request] = receiver.on(hook.path);
    const headers = request?.headers as Record<string, string>;
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    const verified = new Webhook(secret).verify(request?.body ?? '', headers) as any;
    expect(verified.data.answers.name).toBe('Signed');
    // a different secret does not verify
    expect(() =>
      new Webhook(`whsec_${randomBytes(24).toString('base64')}`).verify(request?.body ?? '', headers),
    ).toThrow();
  });

  it('verify by hand for a plain secret (HMAC key = the UTF-8 bytes)', async () => {
    const secret = `plain-${unique()}-sécret`;
    const form = await liveForm();
    const hook = await addWebhook(form.id, { secret, format: 'otel' });
    await submit(form.id, { name: 'Plain' });
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [request] = receiver.on(hook.path);
    const id = request?.headers['webhook-id'];
    const timestamp = request?.headers['webhook-timestamp'];
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8'))
      .update(`${id}.${timestamp}.${request?.body}`, 'utf8')
      .digest('base64');
    expect(request?.headers['webhook-signature']).toBe(`v1,${expected}`);
  });
});

describe('retries', () => {
  it('500, 500, 200: the same webhook-id three times, three attempts recorded, then succeeded', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, {
      path: `/status/500-500-200/${unique()}`,
      secret: 'retry secret',
    });
    await submit(form.id, { name: 'Ada' });
    const delivery = await settled(hook.id);
    const requests = receiver.on(hook.path);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(requests[0]?.headers['webhook-id']).toBe(delivery.eventId);
    // each attempt is signed anew over the same body
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    for (const request of requests) {
      const expected = createHmac('sha256', 'retry secret')
        .update(`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.${request.body}`)
        .digest('base64');
      expect(request.headers['webhook-signature']).toBe(`v1,${expected}`);
    }
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a: any) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, null],
      [2, 500, null],
      [3, 200, null],
    ]);
    // the retries waited (about 150 ms each, ±20 %)
    const gap = (requests[1]?.arrivedAt ?? 0) - (requests[0]?.arrivedAt ?? 0);
    expect(gap).toBeGreaterThanOrEqual(100);
  });

  it('after the last attempt the delivery is failed and nothing more is sent', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { path: `/status/503/${unique()}` });
    await submit(form.id, { name: 'Ada' });
    const delivery = await settled(hook.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 503]);
    // a fixed wait on purpose: past the retry delays, in which no further attempt may come
    await sleep(400);
    expect(receiver.on(hook.path)).toHaveLength(RETRY_DELAYS_MS.length + 1);
  });

  it('a pending delivery shows when it is tried next', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { path: `/status/500-500-500-200/${unique()}` });
    await submit(form.id, { name: 'Ada' });
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    // the first attempt recorded (or, too late, the delivery no longer pending)
    const pending = await waitFor(
      async () => {
        const [latest] = (await deliveries(hook.id)).data;
        return (latest?.attempts.length || latest?.status !== 'pending') && latest;
      },
      { timeoutMs: 2_000, intervalMs: 10, what: 'the first attempt of the delivery' },
    );
    expect(pending.status).toBe('pending');
    expect(pending.nextAttemptAt).toMatch(ISO_MS);
    expect(await settled(hook.id)).toMatchObject({ status: 'succeeded' });
  });

  it('410 disables the webhook: no more attempts, the delivery fails', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { path: `/status/410/${unique()}` });
    await submit(form.id, { name: 'Ada' });
    const delivery = await settled(hook.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([410]);
    const read = await t.request({ method: 'GET', url: `/webhooks/${hook.id}`, auth: owner.token });
    expect(read.body.enabled).toBe(false);
    // the next submission is not even queued, and a test is refused
    await submit(form.id, { name: 'After' });
    expectProblem(
      await t.request({ method: 'POST', url: `/webhooks/${hook.id}/test`, auth: owner.token }),
      409,
      'conflict',
    );
    // a fixed wait on purpose: past the retry delays, in which nothing more may be sent
    await sleep(400);
    expect(receiver.on(hook.path)).toHaveLength(1);
    expect((await deliveries(hook.id)).data).toHaveLength(1);
  });

  it('a receiver that does not answer within the timeout is an attempt with an error', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { path: `/hang/${unique()}` });
    // one attempt is enough here: disable the webhook once the first has been recorded
    await submit(form.id, { name: 'Ada' });
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const first = await waitFor(async () => (await deliveries(hook.id)).data[0]?.attempts[0], {
      timeoutMs: 5_000,
      what: 'the first attempt to be recorded',
    });
    await t.request({
      method: 'PATCH',
      url: `/webhooks/${hook.id}`,
      auth: owner.token,
      body: { enabled: false },
    });
    expect(first).toMatchObject({ attempt: 1, statusCode: null, error: `no answer within ${TIMEOUT_MS} ms` });
    expect(first.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(first.durationMs).toBeLessThan(TIMEOUT_MS + 1000);
  });

  it('a redirect is not followed: 3xx is a failed attempt', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { path: `/status/302-200/${unique()}` });
    await submit(form.id, { name: 'Ada' });
    const delivery = await settled(hook.id);
    expect(delivery.attempts.map((a: any) => a.statusCode)).toEqual([302, 200]);
  });

  it('a connection refused is recorded as the error and retried', async () => {
    const form = await liveForm();
    const closed = await startReceiver();
    const url = `${closed.url}/nobody`;
    await closed.close();
    const created = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: owner.token,
      body: { formId: form.id, event: 'response.created', url },
    });
    expect(created.status).toBe(201);
    await submit(form.id, { name: 'Ada' });
    const delivery = await settled(created.body.id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
    for (const attempt of delivery.attempts) {
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    }
  });
});

describe('which webhooks get what', () => {
  it('a disabled webhook gets nothing, an enabled one of the same form does', async () => {
    const form = await liveForm();
    const off = await addWebhook(form.id);
    const on = await addWebhook(form.id);
    const patched = await t.request({
      method: 'PATCH',
      url: `/webhooks/${off.id}`,
      auth: owner.token,
      body: { enabled: false },
    });
    expect(patched.status).toBe(200);
    await submit(form.id, { name: 'Only one' });
    await receiver.waitFor(() => receiver.on(on.path).length === 1);
    // a fixed wait on purpose: time for the disabled one to hear, were it (wrongly) sent
    await sleep(200);
    expect(receiver.on(off.path)).toHaveLength(0);
    expect((await deliveries(off.id)).data).toHaveLength(0);
  });

  it('one event to two webhooks: the same event id (webhook-id), one delivery each', async () => {
    const form = await liveForm();
    const a = await addWebhook(form.id);
    const b = await addWebhook(form.id, { format: 'otel' });
    await submit(form.id, { name: 'Twice' });
    await receiver.waitFor(() => receiver.on(a.path).length === 1 && receiver.on(b.path).length === 1);
    expect(receiver.on(a.path)[0]?.headers['webhook-id']).toBe(receiver.on(b.path)[0]?.headers['webhook-id']);
  });

  it('a webhook subscribed to another event gets nothing from a submission', async () => {
    const form = await liveForm();
    const updates = await addWebhook(form.id, { event: 'response.deleted' });
    const created = await addWebhook(form.id);
    await submit(form.id, { name: 'Not for you' });
    await receiver.waitFor(() => receiver.on(created.path).length === 1);
    // a fixed wait on purpose: time for the other webhook to hear, were it (wrongly) sent
    await sleep(150);
    expect(receiver.on(updates.path)).toHaveLength(0);
  });

  it('a webhook deleted while its delivery waits for a retry stops it', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, { path: `/status/500-200/${unique()}` });
    await sendTest(hook.id);
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const removed = await t.request({ method: 'DELETE', url: `/webhooks/${hook.id}`, auth: owner.token });
    expect(removed.status).toBe(204);
    // a fixed wait on purpose: past the retry that must not come
    await sleep(600);
    expect(receiver.on(hook.path)).toHaveLength(1);
    const row = await t.app.intake.database.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('webhook_id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
  });

  it('form.deleted still reaches the webhooks the form took with it', async () => {
    const form = await liveForm();
    const hook = await addWebhook(form.id, {
      event: 'form.deleted',
      secret: 'whsec_c2VjcmV0LWtleS1mb3ItZGVsZXRl',
    });
    const removed = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: owner.token });
    expect(removed.status).toBe(204);
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [request] = receiver.on(hook.path);
    const body = new Webhook('whsec_c2VjcmV0LWtleS1mb3ItZGVsZXRl').verify(
      request?.body ?? '',
      request?.headers as Record<string, string>,
    ) as any;
    expect(body).toMatchObject({ event: 'form.deleted', formId: form.id, environment: 'development' });
    expect(body.data.id).toBe(form.id);
  });
});

describe('GET /webhooks/{id}/deliveries, redeliver, test', () => {
  let form: any;
  let hook: any;
  let secretKey: string;
  let publishableKey: string;
  let productionKey: string;

  beforeAll(async () => {
    form = await liveForm();
    hook = await addWebhook(form.id, { event: 'response.updated' });
    secretKey = (await createKey(t, owner, 'secret')).key;
    publishableKey = (await createKey(t, owner, 'publishable')).key;
    productionKey = (await createKey(t, owner, 'secret', 'production')).key;
  });

  it('test sends webhook.test to that webhook only, whatever it subscribes to; 202 with the delivery', async () => {
    const sibling = await addWebhook(form.id, { event: 'response.updated' });
    const response = await t.request({ method: 'POST', url: `/webhooks/${hook.id}/test`, auth: owner.token });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^dlv_/),
      webhookId: hook.id,
      eventId: expect.stringMatching(/^evt_/),
      event: 'webhook.test',
      status: 'pending',
      attempts: [],
      createdAt: expect.stringMatching(ISO_MS),
    });
    await receiver.waitFor(() => receiver.on(hook.path).length === 1);
    const [request] = receiver.on(hook.path);
    expect(request?.headers['webhook-id']).toBe(response.body.eventId);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      id: response.body.eventId,
      event: 'webhook.test',
      createdAt: expect.stringMatching(ISO_MS),
      formId: form.id,
      environment: 'development',
      data: {
        webhookId: hook.id,
        subscribedEvent: 'response.updated',
        message: expect.any(String),
      },
    });
    expect(receiver.on(sibling.path)).toHaveLength(0);
    expect(await settled(hook.id)).toMatchObject({ id: response.body.id, status: 'succeeded' });
  });

  it('redeliver sends the same event again (same webhook-id and body) as a new delivery; 202', async () => {
    const [original] = (await deliveries(hook.id)).data;
    const response = await t.request({
      method: 'POST',
      url: `/webhooks/${hook.id}/deliveries/${original.id}/redeliver`,
      auth: secretKey,
    });
    expect(response.status, response.text).toBe(202);
    expect(response.body).toMatchObject({
      eventId: original.eventId,
      event: original.event,
      status: 'pending',
      redeliveryOf: original.id,
    });
    expect(response.body.id).not.toBe(original.id);
    await receiver.waitFor(() => receiver.on(hook.path).length === 2);
    const [first, second] = receiver.on(hook.path);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(second?.body).toBe(first?.body);
    const list = (await deliveries(hook.id)).data;
    expect(list.map((d: any) => d.id)).toEqual([response.body.id, original.id]);
  });

  it('test and redeliver take no body: an empty one sent as JSON counts as none', async () => {
    const response = await t.request({
      method: 'POST',
      url: `/webhooks/${hook.id}/test`,
      auth: owner.token,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, response.text).toBe(202);
    await settled(hook.id);
  });

  it('lists newest first with keyset pagination', async () => {
    const all = (await deliveries(hook.id)).data;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const created = all.map((d: any) => d.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await deliveries(hook.id, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(1);
      paged.push(...page.data.map((d: any) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.map((d: any) => d.id));
    const bad = await t.request({
      method: 'GET',
      url: `/webhooks/${hook.id}/deliveries?cursor=nonsense`,
      auth: owner.token,
    });
    expectProblem(bad, 400, 'invalid_parameter');
  });

  it('a secret key of the environment may; none 401, publishable 403, another user 403, another environment 403', async () => {
    const [delivery] = (await deliveries(hook.id)).data;
    const routes = [
      { method: 'GET' as const, url: `/webhooks/${hook.id}/deliveries` },
      { method: 'POST' as const, url: `/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver` },
      { method: 'POST' as const, url: `/webhooks/${hook.id}/test` },
    ];
    for (const route of routes) {
      expectProblem(await t.request(route), 401, 'unauthorized');
      expectProblem(await t.request({ ...route, auth: publishableKey }), 403, 'forbidden');
      const stranger = await t.request({ ...route, auth: other.token });
      expect(stranger.status).toBe(403);
      expect((await t.request({ ...route, auth: productionKey })).status).toBe(403);
      expect((await t.request({ ...route, auth: secretKey })).status).toBeLessThan(300);
    }
  });

  it('unknown webhook or delivery: 404', async () => {
    for (const route of [
      { method: 'GET' as const, url: '/webhooks/whk_unknown/deliveries' },
      { method: 'POST' as const, url: '/webhooks/whk_unknown/test' },
      { method: 'POST' as const, url: '/webhooks/whk_unknown/deliveries/dlv_unknown/redeliver' },
      { method: 'POST' as const, url: `/webhooks/${hook.id}/deliveries/dlv_unknown/redeliver` },
    ]) {
      expectProblem(await t.request({ ...route, auth: owner.token }), 404, 'not_found');
    }
    // a delivery of another webhook is unknown under this one
    const sibling = await addWebhook(form.id, { event: 'response.updated' });
    const [delivery] = (await deliveries(hook.id)).data;
    const response = await t.request({
      method: 'POST',
      url: `/webhooks/${sibling.id}/deliveries/${delivery.id}/redeliver`,
      auth: owner.token,
    });
    expectProblem(response, 404, 'not_found');
  });

  it('a disabled webhook: test and redeliver are 409, nothing is sent', async () => {
    const disabled = await addWebhook(form.id, { event: 'response.updated' });
    const tested = await t.request({
      method: 'POST',
      url: `/webhooks/${disabled.id}/test`,
      auth: owner.token,
    });
    expect(tested.status).toBe(202);
    await settled(disabled.id);
    await t.request({
      method: 'PATCH',
      url: `/webhooks/${disabled.id}`,
      auth: owner.token,
      body: { enabled: false },
    });
    expectProblem(
      await t.request({ method: 'POST', url: `/webhooks/${disabled.id}/test`, auth: owner.token }),
      409,
      'conflict',
    );
    expectProblem(
      await t.request({
        method: 'POST',
        url: `/webhooks/${disabled.id}/deliveries/${tested.body.id}/redeliver`,
        auth: owner.token,
      }),
      409,
      'conflict',
    );
    // a fixed wait on purpose: time for a (wrong) test or redelivery to arrive
    await sleep(150);
    expect(receiver.on(disabled.path)).toHaveLength(1);
  });

  it('response.updated carries the submission as the owner sees it (PII applied)', async () => {
    const submission = await submit(form.id, ANSWERS);
    const before = receiver.on(hook.path).length;
    const patched = await t.request({
      method: 'POST',
      url: `/responses/${submission.id}/star`,
      auth: owner.token,
      body: { starred: true },
    });
    expect(patched.status, patched.text).toBe(200);
    await receiver.waitFor(() => receiver.on(hook.path).length === before + 1);
    const body = JSON.parse(receiver.on(hook.path).at(-1)?.body ?? '');
    expect(body.event).toBe('response.updated');
    expect(body.data.starred).toBe(true);
    expect(body.data.answers).toEqual({ name: 'Ada Lovelace', email: 'a***@example.com', age: 36 });
  });
});

describe('the private-address guard at delivery (production)', () => {
  let guarded: TestApp;
  beforeAll(async () => {
    guarded = await createTestApp(
      { production: true, webhookAllowPrivate: false },
      { outbox: { pollMs: 30, retryDelaysMs: [] }, webhookTimeoutMs: TIMEOUT_MS },
    );
  });
  afterAll(async () => guarded?.close());

  it.each([
    ['an IP literal', (port: number) => `http://127.0.0.1:${port}/ssrf-literal`],
    [
      'a name that resolves to loopback (DNS rebinding)',
      (port: number) => `http://localhost:${port}/ssrf-name`,
    ],
  ])(
    '%s stored past the registration check is refused at connect time, and the attempt says so',
    async (_, url) => {
      const user = await signup(guarded);
      const form = await createForm(guarded, user.token, { status: 'live', fields: FIELDS });
      // as if it had resolved to a public address at registration: written straight to the table
      const id = newId('whk');
      await guarded.app.intake.database.db
        .insertInto('webhooks')
        .values({
          id,
          workspace_id: user.workspaceId,
          environment: 'development',
          form_id: form.id,
          event: 'response.created',
          url: url(receiver.port),
          secret_ciphertext: null,
          format: 'legacy',
          enabled: 1,
          created_at: nowIso(),
        })
        .execute();
      const before = receiver.received.length;
      const response = await guarded.request({
        method: 'POST',
        url: `/webhooks/${id}/test`,
        auth: user.token,
      });
      expect(response.status, response.text).toBe(202);
      const delivery = await eventually(
        async () => {
          const list = await guarded.request({
            method: 'GET',
            url: `/webhooks/${id}/deliveries`,
            auth: user.token,
          });
          const [latest] = list.body.data;
          expect(latest?.status).toBe('failed');
          return latest;
        },
        { timeoutMs: 10_000 },
      );
      expect(delivery.status).toBe('failed');
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0].statusCode).toBeNull();
      expect(delivery.attempts[0].error).toMatch(/private or reserved address/);
      expect(receiver.received.length).toBe(before);
    },
  );
});
