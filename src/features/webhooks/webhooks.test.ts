import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import {
  createEnvironment,
  createForm,
  createKey,
  signup,
  type TestUser,
} from '../../../test/support/factories.js';
import { newId } from '../../platform/ids.js';

/**
 * API.md §7: the webhook resource (create, list, read, change, delete), who may use it,
 * what it refuses (urls, events, formats, members, private addresses outside development
 * mode), that its secret never leaves, and the events the changes of forms and responses
 * queue in their own transaction.
 */

const WEBHOOK_KEYS = [
  'createdAt',
  'enabled',
  'environment',
  'event',
  'format',
  'formId',
  'hasSecret',
  'id',
  'url',
].sort();
const HOOK = 'https://hooks.example.com/intake';
const SECRET = 'whsec_dGhlIHNlY3JldCB0aGF0IG11c3Qgc3RheSBoaWRkZW4=';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.app.intake.database.db;

async function post(auth: string | undefined, body: unknown): Promise<Response> {
  return t.request({ method: 'POST', url: '/webhooks', auth, body });
}

/** A webhook through the API (the test fails if it is refused). */
async function createWebhook(auth: string, body: Record<string, unknown>): Promise<any> {
  const response = await post(auth, { event: 'response.created', url: HOOK, ...body });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

const webhookRow = (id: string) =>
  db().selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
const webhookCount = async () => (await db().selectFrom('webhooks').select('id').execute()).length;

function withoutWebhooks(view: Record<string, unknown>): Record<string, unknown> {
  const { webhooks: _webhooks, ...rest } = view;
  return rest;
}

describe('POST /webhooks', () => {
  it('creates a webhook: 201, Location, the webhook without its secret, the secret stored encrypted', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const response = await post(user.token, {
      formId: form.id,
      event: 'response.created',
      url: HOOK,
      secret: SECRET,
    });
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(WEBHOOK_KEYS);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^whk_/),
      formId: form.id,
      environment: 'development',
      event: 'response.created',
      url: HOOK,
      format: 'legacy',
      enabled: true,
      hasSecret: true,
      createdAt: expect.stringMatching(ISO_MS),
    });
    expect(response.headers.location).toBe(`/webhooks/${response.body.id}`);
    expect(response.text).not.toContain('dGhlIHNlY3J');

    const row = await webhookRow(response.body.id);
    expect(row).toMatchObject({ user_id: user.id, environment: 'development', form_id: form.id, enabled: 1 });
    expect(row?.secret_ciphertext).toMatch(/^enc:v1:/);
    expect(await t.app.intake.envelope.decrypt(row?.secret_ciphertext ?? '')).toBe(SECRET);
    // nowhere in the database in the clear
    expect(await dumpDatabase(t)).not.toContain('dGhlIHNlY3J');
  });

  it('takes format otel, a plain (non-whsec) secret, and no secret at all', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const otel = await createWebhook(user.token, { formId: form.id, event: 'form.updated', format: 'otel' });
    expect(otel).toMatchObject({ event: 'form.updated', format: 'otel', hasSecret: false });
    expect((await webhookRow(otel.id))?.secret_ciphertext).toBeNull();
    const plain = await createWebhook(user.token, { formId: form.id, secret: 'just some words' });
    expect(plain.hasSecret).toBe(true);
    for (const event of ['response.updated', 'response.deleted', 'form.created', 'form.deleted']) {
      expect((await createWebhook(user.token, { formId: form.id, event })).event).toBe(event);
    }
  });

  it('shows the webhook in the form it belongs to (the form member is the same set)', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id, secret: SECRET });
    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token });
    expect(read.body.webhooks).toEqual([webhook]);
  });

  it('with a secret key of the form environment, the webhook is the form owner’s', async () => {
    const user = await signup(t);
    const key = await createKey(t, user, 'secret');
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(key.key, { formId: form.id });
    expect((await webhookRow(webhook.id))?.user_id).toBe(user.id);
  });

  it.each([
    [{ event: 'submission.made' }, 'event', 'enum'],
    [{ event: 'webhook.test' }, 'event', 'enum'],
    [{ event: '*' }, 'event', 'enum'],
    [{ format: 'xml' }, 'format', 'enum'],
    [{ url: 'ftp://hooks.example.com/a' }, 'url', 'format'],
    [{ url: 'not a url' }, 'url', 'format'],
    [{ url: 'javascript:alert(1)' }, 'url', 'format'],
    [{ url: 'https://user:password@hooks.example.com/a' }, 'url', 'format'],
    [{ url: '' }, 'url', 'minLength'],
    [{ url: `https://hooks.example.com/${'a'.repeat(2000)}` }, 'url', 'maxLength'],
    [{ secret: '' }, 'secret', 'minLength'],
    [{ secret: 'whsec_!!not base64!!' }, 'secret', 'format'],
    [{ secret: 'whsec_' }, 'secret', 'format'],
    [{ secret: 5 }, 'secret', 'type'],
    [{ enabled: false }, 'enabled', 'unknown_member'],
    [{ hasSecret: true }, 'hasSecret', 'unknown_member'],
    [{ formId: undefined }, 'formId', 'required'],
    [{ event: undefined }, 'event', 'required'],
    [{ url: undefined }, 'url', 'required'],
  ])('refuses %j: 400 validation_failed naming %s (%s), creating nothing', async (change, field, code) => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const before = await webhookCount();
    const response = await post(user.token, {
      formId: form.id,
      event: 'response.created',
      url: HOOK,
      ...change,
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toContainEqual(expect.objectContaining({ field, code }));
    expect(await webhookCount()).toBe(before);
  });

  it('refuses a body that is not an object, and malformed JSON', async () => {
    const user = await signup(t);
    expectProblem(await post(user.token, []), 400, 'validation_failed');
    expectProblem(
      await t.request({
        method: 'POST',
        url: '/webhooks',
        auth: user.token,
        body: '{"formId":',
        headers: {},
      }),
      400,
      'invalid_json',
    );
  });

  it('is 404 for an unknown form, and 401 before any 400 without a credential', async () => {
    const user = await signup(t);
    expectProblem(
      await post(user.token, { formId: 'frm_nope', event: 'response.created', url: HOOK }),
      404,
      'not_found',
    );
    expectProblem(await post(undefined, { formId: 'x', event: 'nope', url: 'ftp://x' }), 401, 'unauthorized');
    const publishable = await createKey(t, user, 'publishable');
    expectProblem(await post(publishable.key, { formId: 'x', event: 'nope' }), 403, 'forbidden');
  });

  it('holds the limit of 20 under concurrent creations: one more created, the rest 409', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      webhooks: Array.from({ length: 19 }, (_, i) => ({ event: 'response.created', url: `${HOOK}/${i}` })),
    });
    // all of them count 19 at about the same moment: only a lock on the form keeps the 21st out
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(user.token, { formId: form.id, event: 'response.created', url: `${HOOK}/more-${i}` }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const stored = await t.app.intake.database.db
      .selectFrom('webhooks')
      .select('id')
      .where('form_id', '=', form.id)
      .execute();
    expect(stored).toHaveLength(20);
  });

  it('holds at most 20 webhooks per form (what a form body may carry): 409 conflict after', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      webhooks: Array.from({ length: 19 }, (_, i) => ({ event: 'response.created', url: `${HOOK}/${i}` })),
    });
    await createWebhook(user.token, { formId: form.id });
    expectProblem(
      await post(user.token, { formId: form.id, event: 'response.created', url: HOOK }),
      409,
      'conflict',
    );
    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token });
    expect(read.body.webhooks).toHaveLength(20);
    // and the form read with GET can still be sent back
    const back = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: read.body,
    });
    expect(back.status, back.text).toBe(200);
  });
});

describe('who may manage webhooks', () => {
  let owner: TestUser;
  let other: TestUser;
  let form: any;
  let webhook: any;
  let callers: Record<string, string | undefined>;

  beforeAll(async () => {
    owner = await signup(t);
    other = await signup(t);
    await createEnvironment(t, owner, 'staging');
    form = await createForm(t, owner.token);
    webhook = await createWebhook(owner.token, { formId: form.id, event: 'response.updated' });
    const deleted = await createKey(t, owner, 'secret');
    await t.request({ method: 'DELETE', url: `/keys/secrets/${deleted.id}`, auth: owner.token });
    callers = {
      anonymous: undefined,
      'unknown token': 'sk_live_nope',
      'deleted key': deleted.key,
      'publishable key (same env)': (await createKey(t, owner, 'publishable')).key,
      'secret key (other env)': (await createKey(t, owner, 'secret', 'staging')).key,
      'other user session': other.token,
      "other user's secret key": (await createKey(t, other, 'secret')).key,
      'secret key (same env)': (await createKey(t, owner, 'secret')).key,
      'owner session': owner.token,
    };
  });

  const DENIED = [
    ['anonymous', 401, 'unauthorized'],
    ['unknown token', 401, 'unauthorized'],
    ['deleted key', 401, 'unauthorized'],
    ['publishable key (same env)', 403, 'forbidden'],
    ['secret key (other env)', 403, 'forbidden'],
    // another user's webhook answers like another user's form: 403, not a 404 that hides it
    ['other user session', 403, 'not_owner'],
    ["other user's secret key", 403, 'forbidden'],
  ] as const;

  const requests = (id: string) => [
    {
      method: 'POST' as const,
      url: '/webhooks',
      body: { formId: form.id, event: 'form.updated', url: HOOK },
    },
    { method: 'GET' as const, url: `/webhooks?form_id=${form.id}` },
    { method: 'GET' as const, url: `/webhooks/${id}` },
    { method: 'PATCH' as const, url: `/webhooks/${id}`, body: { enabled: false } },
    { method: 'DELETE' as const, url: `/webhooks/${id}` },
  ];

  it.each(DENIED)('refuses %s on every route (%i %s) and changes nothing', async (caller, status, code) => {
    const before = await dumpDatabase(t);
    for (const request of requests(webhook.id)) {
      const response = await t.request({ ...request, auth: callers[caller] });
      expectProblem(response, status, code);
      expect(response.text).not.toContain(HOOK);
    }
    const after = await dumpDatabase(t);
    // sessions and keys are touched by use (last_used_at); the webhooks are not
    expect(JSON.parse(after).webhooks).toEqual(JSON.parse(before).webhooks);
  });

  it.each(['owner session', 'secret key (same env)'])('lets the %s do everything', async (caller) => {
    const auth = callers[caller];
    const created = await post(auth, { formId: form.id, event: 'form.updated', url: HOOK });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const listed = await t.request({ method: 'GET', url: `/webhooks?form_id=${form.id}`, auth });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((w: any) => w.id)).toContain(id);
    expect((await t.request({ method: 'GET', url: `/webhooks/${id}`, auth })).status).toBe(200);
    const patched = await t.request({
      method: 'PATCH',
      url: `/webhooks/${id}`,
      auth,
      body: { enabled: false },
    });
    expect(patched.body.enabled).toBe(false);
    expect((await t.request({ method: 'DELETE', url: `/webhooks/${id}`, auth })).status).toBe(204);
  });

  it('a secret key of another environment cannot list development either', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/webhooks?environment=development',
      auth: callers['secret key (other env)'],
    });
    expectProblem(response, 403, 'forbidden');
  });
});

describe('GET, PATCH, DELETE /webhooks/{id}', () => {
  it('reads a webhook as it was created', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id, secret: SECRET });
    const read = await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(webhook);
    expect(read.text).not.toContain('dGhlIHNlY3J');
  });

  it.each([
    ['GET', undefined],
    ['PATCH', { enabled: false }],
    ['DELETE', undefined],
  ] as const)('%s of an unknown webhook is 404 not_found', async (method, body) => {
    const user = await signup(t);
    const response = await t.request({ method, url: `/webhooks/${newId('whk')}`, auth: user.token, body });
    expectProblem(response, 404, 'not_found');
  });

  it('changes only the members given, keeping id, form, environment and createdAt', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id, secret: SECRET });
    const patch = (body: unknown) =>
      t.request({ method: 'PATCH', url: `/webhooks/${webhook.id}`, auth: user.token, body });

    const event = await patch({ event: 'response.deleted' });
    expect(event.status, event.text).toBe(200);
    expect(event.body).toEqual({ ...webhook, event: 'response.deleted' });

    const several = await patch({ url: 'http://hooks.example.org/other', format: 'otel', enabled: false });
    expect(several.body).toEqual({
      ...webhook,
      event: 'response.deleted',
      url: 'http://hooks.example.org/other',
      format: 'otel',
      enabled: false,
    });
    const nothing = await patch({});
    expect(nothing.status).toBe(200);
    expect(nothing.body).toEqual(several.body);
    const read = await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token });
    expect(read.body).toEqual(several.body);
    // the secret was left alone
    const row = await webhookRow(webhook.id);
    expect(await t.app.intake.envelope.decrypt(row?.secret_ciphertext ?? '')).toBe(SECRET);
    expect(row).toMatchObject({ enabled: 0, format: 'otel', event: 'response.deleted' });
    // and enabled again
    expect((await patch({ enabled: true })).body.enabled).toBe(true);
  });

  it('replaces the secret with a new one, and removes it with secret: null', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id, secret: SECRET });
    const patch = (body: unknown) =>
      t.request({ method: 'PATCH', url: `/webhooks/${webhook.id}`, auth: user.token, body });

    const replaced = await patch({ secret: 'a brand new secret' });
    expect(replaced.body.hasSecret).toBe(true);
    expect(replaced.text).not.toContain('brand new');
    const row = await webhookRow(webhook.id);
    expect(await t.app.intake.envelope.decrypt(row?.secret_ciphertext ?? '')).toBe('a brand new secret');
    expect(await dumpDatabase(t)).not.toContain('brand new');

    const removed = await patch({ secret: null });
    expect(removed.status).toBe(200);
    expect(removed.body.hasSecret).toBe(false);
    expect((await webhookRow(webhook.id))?.secret_ciphertext).toBeNull();

    const added = await patch({ secret: SECRET });
    expect(added.body.hasSecret).toBe(true);
  });

  it.each([
    [{ event: 'nope' }, 'event', 'enum'],
    [{ event: 'webhook.test' }, 'event', 'enum'],
    [{ format: 'json' }, 'format', 'enum'],
    [{ url: 'ftp://x.example.com' }, 'url', 'format'],
    [{ url: 'https://me:pw@hooks.example.com/' }, 'url', 'format'],
    [{ url: null }, 'url', 'type'],
    [{ enabled: 'yes' }, 'enabled', 'type'],
    [{ secret: 'whsec_%%%' }, 'secret', 'format'],
    [{ secret: '' }, 'secret', 'minLength'],
    [{ formId: 'frm_other' }, 'formId', 'unknown_member'],
    [{ hasSecret: false }, 'hasSecret', 'unknown_member'],
    [{ id: 'whk_x' }, 'id', 'unknown_member'],
  ])('refuses %j: 400 validation_failed naming %s (%s), changing nothing', async (body, field, code) => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id, secret: SECRET });
    const before = await webhookRow(webhook.id);
    const response = await t.request({
      method: 'PATCH',
      url: `/webhooks/${webhook.id}`,
      auth: user.token,
      body,
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toContainEqual(expect.objectContaining({ field, code }));
    expect(await webhookRow(webhook.id)).toEqual(before);
  });

  it('deletes a webhook: 204, then 404 everywhere, and the form no longer shows it', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const kept = await createWebhook(user.token, { formId: form.id });
    const doomed = await createWebhook(user.token, { formId: form.id, event: 'form.updated' });
    const response = await t.request({ method: 'DELETE', url: `/webhooks/${doomed.id}`, auth: user.token });
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expect(await webhookRow(doomed.id)).toBeUndefined();
    expectProblem(
      await t.request({ method: 'GET', url: `/webhooks/${doomed.id}`, auth: user.token }),
      404,
      'not_found',
    );
    expectProblem(
      await t.request({ method: 'DELETE', url: `/webhooks/${doomed.id}`, auth: user.token }),
      404,
      'not_found',
    );
    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token });
    expect(read.body.webhooks).toEqual([kept]);
  });

  it('a webhook goes with its form', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id });
    expect((await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: user.token })).status).toBe(
      204,
    );
    expectProblem(
      await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token }),
      404,
      'not_found',
    );
  });
});

describe('GET /webhooks', () => {
  let owner: TestUser;
  let other: TestUser;
  let formA: any;
  let formB: any;
  let stagingForm: any;
  const ids = { a: [] as string[], b: [] as string[], staging: [] as string[], other: [] as string[] };

  beforeAll(async () => {
    owner = await signup(t);
    other = await signup(t);
    await createEnvironment(t, owner, 'staging');
    formA = await createForm(t, owner.token);
    formB = await createForm(t, owner.token);
    stagingForm = await createForm(t, owner.token, { environment: 'staging' });
    const otherForm = await createForm(t, other.token);
    // one at a time: the list is newest first by creation time
    for (let i = 0; i < 3; i++) {
      ids.a.push((await createWebhook(owner.token, { formId: formA.id, url: `${HOOK}/a${i}` })).id);
      ids.b.push((await createWebhook(owner.token, { formId: formB.id, url: `${HOOK}/b${i}` })).id);
    }
    ids.staging.push((await createWebhook(owner.token, { formId: stagingForm.id })).id);
    ids.other.push((await createWebhook(other.token, { formId: otherForm.id })).id);
  });

  const list = (url: string, auth = owner.token) => t.request({ method: 'GET', url, auth });
  const idsOf = (response: Response) => response.body.data.map((w: any) => w.id);
  const interleaved = () => [0, 1, 2].flatMap((i) => [ids.a[i], ids.b[i]]).reverse();

  it("lists one form's webhooks, newest first, in the list envelope", async () => {
    const response = await list(`/webhooks?form_id=${formA.id}`);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'nextCursor']);
    expect(idsOf(response)).toEqual([...ids.a].reverse());
    expect(response.body.nextCursor).toBeNull();
    for (const webhook of response.body.data) expect(Object.keys(webhook).sort()).toEqual(WEBHOOK_KEYS);
  });

  it("lists every webhook of the caller's environment, and only the caller's", async () => {
    expect(idsOf(await list('/webhooks?environment=development'))).toEqual(interleaved());
    expect(idsOf(await list('/webhooks?environment=staging'))).toEqual(ids.staging);
    expect(idsOf(await list('/webhooks?environment=development', other.token))).toEqual(ids.other);
    expect(idsOf(await list('/webhooks?environment=production'))).toEqual([]);
  });

  it('lists with a secret key: its own environment only', async () => {
    const key = await createKey(t, owner, 'secret', 'staging');
    expect(idsOf(await list('/webhooks?environment=staging', key.key))).toEqual(ids.staging);
    expect(idsOf(await list(`/webhooks?form_id=${stagingForm.id}`, key.key))).toEqual(ids.staging);
    expectProblem(await list('/webhooks?environment=development', key.key), 403, 'forbidden');
    expectProblem(await list(`/webhooks?form_id=${formA.id}`, key.key), 403, 'forbidden');
  });

  it('takes form_id and environment together when they agree; 403 form_not_in_environment when not', async () => {
    expect(idsOf(await list(`/webhooks?form_id=${formA.id}&environment=development`))).toEqual(
      [...ids.a].reverse(),
    );
    expectProblem(
      await list(`/webhooks?form_id=${formA.id}&environment=staging`),
      403,
      'form_not_in_environment',
    );
  });

  it('pages with limit and cursor, each webhook once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(
        `/webhooks?environment=development&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeLessThanOrEqual(4);
      seen.push(...idsOf(response));
      cursor = response.body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(interleaved());
  });

  it.each([
    ['/webhooks', 400, 'invalid_parameter'],
    ['/webhooks?form_id=&environment=', 400, 'invalid_parameter'],
    ['/webhooks?environment=Not%20Valid', 400, 'invalid_environment'],
    ['/webhooks?environment=nowhere', 404, 'environment_not_found'],
    ['/webhooks?form_id=frm_nope', 404, 'not_found'],
    ['/webhooks?environment=development&limit=0', 400, 'invalid_parameter'],
    ['/webhooks?environment=development&limit=101', 400, 'invalid_parameter'],
    ['/webhooks?environment=development&cursor=garbage', 400, 'invalid_parameter'],
  ])('GET %s is %i %s', async (url, status, code) => {
    expectProblem(await list(url), status, code);
  });

  it('names both parameters when neither is given', async () => {
    const response = await list('/webhooks');
    expect(response.body.errors.map((e: any) => e.field).sort()).toEqual(['environment', 'form_id']);
  });

  it("another user's form is 403 not_owner", async () => {
    expectProblem(await list(`/webhooks?form_id=${formA.id}`, other.token), 403, 'not_owner');
  });
});

describe('the secret never leaves', () => {
  it('is in no response of any route that shows the webhook, and stored only encrypted', async () => {
    const user = await signup(t);
    const marker = 'whsec_bWFya2VyLXNlY3JldC12YWx1ZQ==';
    const form = await createForm(t, user.token, {
      webhooks: [{ event: 'form.updated', url: HOOK, secret: marker }],
    });
    const webhook = await createWebhook(user.token, { formId: form.id, secret: marker });
    const responses = [
      await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token }),
      await t.request({ method: 'GET', url: `/webhooks?form_id=${form.id}`, auth: user.token }),
      await t.request({ method: 'GET', url: '/webhooks?environment=development', auth: user.token }),
      await t.request({
        method: 'PATCH',
        url: `/webhooks/${webhook.id}`,
        auth: user.token,
        body: { secret: marker },
      }),
      await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token }),
      await t.request({ method: 'GET', url: '/forms?environment=development', auth: user.token }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.text).not.toContain('bWFya2Vy');
      expect(response.text).not.toContain('marker');
    }
    expect(await dumpDatabase(t)).not.toContain('bWFya2Vy');
  });
});

describe('the form webhooks member follows the same rules', () => {
  it.each([
    [{ event: 'webhook.test', url: HOOK }, 'webhooks[0].event'],
    [{ event: 'response.created', url: 'https://u:p@hooks.example.com/' }, 'webhooks[0].url'],
    [{ event: 'response.created', url: HOOK, secret: 'whsec_***' }, 'webhooks[0].secret'],
  ])('refuses %j with invalid_form naming %s', async (webhook, field) => {
    const user = await signup(t);
    const before = await webhookCount();
    const created = await t.request({
      method: 'POST',
      url: '/forms',
      auth: user.token,
      body: { title: 'x', environment: 'development', fields: [], webhooks: [webhook] },
    });
    expectProblem(created, 400, 'invalid_form');
    expect(created.body.errors.map((e: any) => e.field)).toContain(field);
    const form = await createForm(t, user.token);
    const updated = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { webhooks: [webhook] },
    });
    expectProblem(updated, 400, 'invalid_form');
    expect(await webhookCount()).toBe(before);
  });
});

// --- the private-address guard outside development mode ------------------------------------

describe('private addresses (API.md §7), production mode', () => {
  let prod: TestApp;
  let user: TestUser;
  let form: any;
  beforeAll(async () => {
    prod = await createTestApp({ production: true });
    user = await signup(prod);
    form = await createForm(prod, user.token);
  });
  afterAll(() => prod.close());

  const PRIVATE = [
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://192.168.0.10:8080/',
    'http://localhost:3000/hook',
  ];

  it.each(PRIVATE)('POST /webhooks refuses %s: 400 naming url, forbidden_address', async (url) => {
    const response = await prod.request({
      method: 'POST',
      url: '/webhooks',
      auth: user.token,
      body: { formId: form.id, event: 'response.created', url },
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([
      expect.objectContaining({ field: 'url', code: 'forbidden_address' }),
    ]);
    // the problem names no resolved address
    if (url.includes('localhost')) expect(response.text).not.toContain('127.0.0.1');
  });

  it.each(PRIVATE)('the form webhooks member refuses %s too (POST and PUT /forms)', async (url) => {
    const created = await prod.request({
      method: 'POST',
      url: '/forms',
      auth: user.token,
      body: {
        title: 'x',
        environment: 'development',
        fields: [],
        webhooks: [{ event: 'form.updated', url }],
      },
    });
    expectProblem(created, 400, 'invalid_form');
    expect(created.body.errors).toContainEqual(
      expect.objectContaining({ field: 'webhooks[0].url', code: 'forbidden_address' }),
    );
    const updated = await prod.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { webhooks: [{ event: 'form.updated', url }] },
    });
    expectProblem(updated, 400, 'invalid_form');
  });

  it('PATCH refuses a private url, and a host name that does not resolve', async () => {
    const webhook = await prod.request({
      method: 'POST',
      url: '/webhooks',
      auth: user.token,
      body: { formId: form.id, event: 'response.created', url: 'https://93.184.216.34/hook' },
    });
    expect(webhook.status, webhook.text).toBe(201);
    const patch = (url: string) =>
      prod.request({ method: 'PATCH', url: `/webhooks/${webhook.body.id}`, auth: user.token, body: { url } });
    const refused = await patch('http://[fd00:ec2::254]/');
    expectProblem(refused, 400, 'validation_failed');
    expect(refused.body.errors[0]).toMatchObject({ field: 'url', code: 'forbidden_address' });
    const unresolvable = await patch('https://hooks.example.invalid/');
    expectProblem(unresolvable, 400, 'validation_failed');
    expect(unresolvable.body.errors[0]).toMatchObject({ field: 'url', code: 'unresolvable' });
    expect(unresolvable.body.errors[0].message).toMatch(/does not resolve/);
  });

  it('does not judge again a url that stays as it was (a form sent back, a PATCH of other members)', async () => {
    const own = await createForm(prod, user.token);
    // stored before the guard was on (WEBHOOK_ALLOW_PRIVATE since turned off)
    const id = newId('whk');
    await prod.app.intake.database.db
      .insertInto('webhooks')
      .values({
        id,
        user_id: user.id,
        environment: 'development',
        form_id: own.id,
        event: 'response.created',
        url: 'http://10.1.2.3/hook',
        secret_ciphertext: null,
        format: 'legacy',
        enabled: 1,
        created_at: new Date().toISOString(),
      })
      .execute();
    const read = await prod.request({ method: 'GET', url: `/forms/${own.id}`, auth: user.token });
    const back = await prod.request({
      method: 'PUT',
      url: `/forms/${own.id}`,
      auth: user.token,
      body: read.body,
    });
    expect(back.status, back.text).toBe(200);
    const patch = (body: unknown) =>
      prod.request({ method: 'PATCH', url: `/webhooks/${id}`, auth: user.token, body });
    expect((await patch({ enabled: false })).status).toBe(200);
    expect((await patch({ url: 'http://10.1.2.3/hook' })).status).toBe(200);
    expectProblem(await patch({ url: 'http://10.1.2.4/hook' }), 400, 'validation_failed');
  });
});

describe('private addresses where they are allowed', () => {
  it.each([
    ['development mode', {}],
    ['production with WEBHOOK_ALLOW_PRIVATE=true', { production: true, webhookAllowPrivate: true }],
  ])('accepts loopback and private urls in %s', async (_name, overrides) => {
    const app = await createTestApp(overrides);
    try {
      const user = await signup(app);
      const form = await createForm(app, user.token, {
        webhooks: [{ event: 'form.updated', url: 'http://127.0.0.1:9/hook' }],
      });
      for (const url of [
        'http://127.0.0.1/hook',
        'http://10.0.0.1/',
        'http://[::1]/',
        'http://localhost:3000/',
      ]) {
        const response = await app.request({
          method: 'POST',
          url: '/webhooks',
          auth: user.token,
          body: { formId: form.id, event: 'response.created', url },
        });
        expect(response.status, response.text).toBe(201);
      }
    } finally {
      await app.close();
    }
  });
});

// --- events queued by the changes of forms and responses --------------------------------------

describe('events of forms and responses (queued in the transaction of the change)', () => {
  const RECEIVER = 'http://127.0.0.1:9/never-listening';

  async function deliveriesOf(formId: string) {
    return db()
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('form_id', '=', formId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The queued deliveries of `formId` since `seen`, with their bodies and outbox rows. */
  async function newDeliveries(formId: string, seen: number) {
    const rows = (await deliveriesOf(formId)).slice(seen);
    return Promise.all(
      rows.map(async (row) => {
        const outbox = await db().selectFrom('outbox').selectAll().where('id', '=', row.outbox_id).execute();
        return {
          row,
          outbox,
          body: JSON.parse(await t.app.intake.envelope.decrypt(row.body_ciphertext)),
        };
      }),
    );
  }

  async function ownerWithWebhooks(events: string[], overrides: Record<string, unknown> = {}) {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', ...overrides });
    const webhooks: Record<string, any> = {};
    for (const event of events)
      webhooks[event] = await createWebhook(user.token, { formId: form.id, event, url: RECEIVER });
    return { user, form, webhooks };
  }

  function expectOneDelivery(found: Awaited<ReturnType<typeof newDeliveries>>, webhook: any, event: string) {
    expect(found.map((d) => d.row.event)).toEqual([event]);
    const [delivery] = found;
    expect(delivery?.row.webhook_id).toBe(webhook.id);
    expect(delivery?.outbox).toHaveLength(1);
    expect(delivery?.outbox[0]?.kind).toBe('webhook');
    expect(delivery?.body).toMatchObject({ event, formId: webhook.formId, environment: webhook.environment });
    return delivery?.body.data;
  }

  it('form.created: a webhook given with the new form hears of its creation, with the form as its owner reads it', async () => {
    const user = await signup(t);
    const created = await t.request({
      method: 'POST',
      url: '/forms',
      auth: user.token,
      body: {
        title: 'Hello',
        environment: 'development',
        fields: [],
        webhooks: [
          { event: 'form.created', url: RECEIVER },
          { event: 'form.updated', url: RECEIVER },
        ],
      },
    });
    expect(created.status).toBe(201);
    const found = await newDeliveries(created.body.id, 0);
    const data = expectOneDelivery(found, created.body.webhooks[0], 'form.created');
    // the form as its owner reads it, less its webhooks (other receivers' URLs are not a receiver's business)
    expect(data).toEqual(withoutWebhooks(created.body));
  });

  it('form.created is queued for no one when the form has no webhooks', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    expect(await deliveriesOf(form.id)).toEqual([]);
  });

  it('form.updated: one delivery per PUT, with the form as the PUT answered it; none for a refused PUT', async () => {
    const { user, form, webhooks } = await ownerWithWebhooks(['form.updated', 'form.deleted']);
    const updated = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'New' },
    });
    expect(updated.status).toBe(200);
    const data = expectOneDelivery(await newDeliveries(form.id, 0), webhooks['form.updated'], 'form.updated');
    // the form as its owner reads it, less its webhooks (other receivers' URLs are not a receiver's business)
    expect(data).toEqual(withoutWebhooks(updated.body));
    expect(data.title).toBe('New');

    const stale = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'Stale' },
      headers: { 'if-match': '"1"' },
    });
    expect(stale.status).toBe(412);
    const invalid = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 5 },
    });
    expect(invalid.status).toBe(400);
    expect(await deliveriesOf(form.id)).toHaveLength(1);
  });

  it('form.deleted: queued before the delete, surviving it, with the form as it was', async () => {
    const { user, form, webhooks } = await ownerWithWebhooks(['form.deleted', 'form.updated']);
    const before = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token });
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: user.token });
    expect(deleted.status).toBe(204);
    expect(await webhookRow(webhooks['form.deleted'].id)).toBeUndefined();
    const data = expectOneDelivery(await newDeliveries(form.id, 0), webhooks['form.deleted'], 'form.deleted');
    // the form as its owner reads it, less its webhooks (other receivers' URLs are not a receiver's business)
    expect(data).toEqual(withoutWebhooks(before.body));
  });

  it('a disabled webhook, or one subscribed to another event, hears nothing', async () => {
    const { user, form, webhooks } = await ownerWithWebhooks(['form.updated', 'response.deleted']);
    await t.request({
      method: 'PATCH',
      url: `/webhooks/${webhooks['form.updated'].id}`,
      auth: user.token,
      body: { enabled: false },
    });
    await t.request({ method: 'PUT', url: `/forms/${form.id}`, auth: user.token, body: { title: 'Quiet' } });
    expect(await deliveriesOf(form.id)).toEqual([]);
  });

  describe('responses', () => {
    async function submitted(events: string[], overrides: Record<string, unknown> = {}) {
      const owner = await ownerWithWebhooks(events, overrides);
      const response = await t.request({
        method: 'POST',
        url: `/forms/${owner.form.id}/submit`,
        body: { answers: { name: 'Ada', email: 'ada@example.com' } },
      });
      expect(response.status, response.text).toBe(201);
      // whatever the submit path queued (response.created) is not what these tests count
      return {
        ...owner,
        submissionId: response.body.id as string,
        seen: (await deliveriesOf(owner.form.id)).length,
      };
    }

    it('response.updated on read, unread, star and note, each once, with the submission as the route answered it', async () => {
      const { user, form, webhooks, submissionId, seen } = await submitted(
        ['response.updated', 'response.deleted'],
        {
          storage: { pii: 'encrypted' },
        },
      );
      const hook = webhooks['response.updated'];
      const call = (path: string, body?: unknown) =>
        t.request({ method: 'POST', url: `/responses/${submissionId}/${path}`, auth: user.token, body });

      const read = await call('read');
      expect(read.status).toBe(200);
      let found = await newDeliveries(form.id, seen);
      expect(expectOneDelivery(found, hook, 'response.updated')).toEqual(read.body);
      expect(found[0]?.body.data.answers.email).toBe('ada@example.com'); // as its owner sees it
      expect(found[0]?.row.event_id).toBeTruthy();

      // nothing changed, nothing said
      expect((await call('read', { read: true })).status).toBe(200);
      expect(await deliveriesOf(form.id)).toHaveLength(seen + 1);

      const unread = await call('read', { read: false });
      found = await newDeliveries(form.id, seen + 1);
      expect(expectOneDelivery(found, hook, 'response.updated')).toEqual(unread.body);

      const star = await call('star', { starred: true });
      found = await newDeliveries(form.id, seen + 2);
      expect(expectOneDelivery(found, hook, 'response.updated')).toEqual(star.body);
      expect(star.body.starred).toBe(true);
      expect((await call('star', { starred: true })).status).toBe(200);
      expect(await deliveriesOf(form.id)).toHaveLength(seen + 3);

      const note = await call('notes', { text: 'Called back' });
      expect(note.status).toBe(200);
      found = await newDeliveries(form.id, seen + 3);
      const data = expectOneDelivery(found, hook, 'response.updated');
      expect(data).toEqual(note.body);
      expect(data.notes.map((n: any) => n.text)).toEqual(['Called back']);
      // the route answers what GET shows
      const get = await t.request({
        method: 'GET',
        url: `/responses/${submissionId}?form_id=${form.id}&environment=development`,
        auth: user.token,
      });
      expect(note.body).toEqual(get.body);
    });

    it('concurrent requests making the same change are heard once (the database decides what changed)', async () => {
      const { user, form, webhooks, submissionId, seen } = await submitted(['response.updated']);
      const hook = webhooks['response.updated'];
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.request({
            method: 'POST',
            url: `/responses/${submissionId}/star`,
            auth: user.token,
            body: { starred: true },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      const found = await newDeliveries(form.id, seen);
      expect(expectOneDelivery(found, hook, 'response.updated').starred).toBe(true);
    });

    it('masked answers stay masked in the event', async () => {
      const { user, form, submissionId, seen } = await submitted(['response.updated'], {
        storage: { pii: 'masked' },
      });
      const star = await t.request({
        method: 'POST',
        url: `/responses/${submissionId}/star`,
        auth: user.token,
        body: { starred: true },
      });
      const [delivery] = await newDeliveries(form.id, seen);
      expect(delivery?.body.data.answers.email).toBe(star.body.answers.email);
      expect(delivery?.body.data.answers.email).not.toBe('ada@example.com');
    });

    it('response.deleted names the submission (id, formId)', async () => {
      const { user, form, webhooks, submissionId, seen } = await submitted([
        'response.deleted',
        'response.updated',
      ]);
      const deleted = await t.request({
        method: 'DELETE',
        url: `/responses/${submissionId}`,
        auth: user.token,
      });
      expect(deleted.status).toBe(204);
      const data = expectOneDelivery(
        await newDeliveries(form.id, seen),
        webhooks['response.deleted'],
        'response.deleted',
      );
      expect(data).toEqual({ id: submissionId, formId: form.id });
    });

    it('a quarantined submission is never heard of: no event on star, note or delete', async () => {
      const { user, form } = await ownerWithWebhooks(['response.updated', 'response.deleted']);
      const id = newId('sub');
      await db()
        .insertInto('submissions')
        .values({
          id,
          user_id: user.id,
          environment: 'development',
          form_id: form.id,
          form_version: form.version,
          answers: JSON.stringify({ name: 'Spam' }),
          session_id: null,
          status: 'quarantined',
          read: 0,
          starred: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      const call = (method: 'POST' | 'DELETE', path: string, body?: unknown) =>
        t.request({ method, url: `/responses/${id}${path}`, auth: user.token, body });
      expect((await call('POST', '/star', { starred: true })).status).toBe(200);
      expect((await call('POST', '/read')).status).toBe(200);
      expect((await call('POST', '/notes', { text: 'spam' })).status).toBe(200);
      expect((await call('DELETE', '')).status).toBe(204);
      expect(await deliveriesOf(form.id)).toEqual([]);
    });

    it('a refused change queues nothing', async () => {
      const { form, submissionId, seen } = await submitted(['response.updated', 'response.deleted']);
      const stranger = await signup(t);
      expect(
        (await t.request({ method: 'POST', url: `/responses/${submissionId}/read`, auth: stranger.token }))
          .status,
      ).toBe(403);
      expect(
        (await t.request({ method: 'DELETE', url: `/responses/${submissionId}`, auth: stranger.token }))
          .status,
      ).toBe(403);
      expect(await deliveriesOf(form.id)).toHaveLength(seen);
    });
  });
});

describe('OpenAPI', () => {
  it('describes the webhook routes, their bodies and the webhook without a secret', async () => {
    const document = (await t.request({ method: 'GET', url: '/openapi.json' })).body;
    const create = document.paths['/webhooks'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required.sort()).toEqual(['event', 'formId', 'url']);
    expect(body.properties.event.enum).not.toContain('webhook.test');
    const out = create.responses['201'].content['application/json'].schema;
    expect(Object.keys(out.properties).sort()).toEqual(WEBHOOK_KEYS);
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '404']),
    );
    const patch = document.paths['/webhooks/{id}'].patch.requestBody.content['application/json'].schema;
    expect(Object.keys(patch.properties).sort()).toEqual(['enabled', 'event', 'format', 'secret', 'url']);
    expect(document.paths['/webhooks'].get.responses['200']).toBeDefined();
  });
});

describe('events reach a real receiver', () => {
  it('form.updated and response.deleted are delivered at once after commit (the worker is nudged, not polled)', async () => {
    const received: Array<{ headers: http.IncomingHttpHeaders; body: any }> = [];
    const server = http.createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk) => {
        raw += chunk;
      });
      request.on('end', () => {
        received.push({ headers: request.headers, body: JSON.parse(raw) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // a poll a minute away: only the nudge after commit can deliver within the test
    const app = await createTestApp({}, { outbox: { pollMs: 60_000 } });
    try {
      const user = await signup(app);
      const form = await createForm(app, user.token, {
        status: 'live',
        webhooks: [
          { event: 'form.updated', url: `http://127.0.0.1:${port}/forms` },
          { event: 'response.deleted', url: `http://127.0.0.1:${port}/responses` },
        ],
      });
      const waitFor = async (count: number) => {
        for (let i = 0; i < 100 && received.length < count; i++) await new Promise((r) => setTimeout(r, 50));
        expect(received).toHaveLength(count);
      };

      const updated = await app.request({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: user.token,
        body: { title: 'Live' },
      });
      await waitFor(1);
      expect(received[0]?.body).toMatchObject({
        event: 'form.updated',
        formId: form.id,
        environment: 'development',
      });
      expect(received[0]?.body.data).toEqual(withoutWebhooks(updated.body));
      expect(received[0]?.headers['webhook-id']).toBe(received[0]?.body.id);

      const submitted = await app.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        body: { answers: { name: 'Ada', email: 'ada@example.com' } },
      });
      await app.request({ method: 'DELETE', url: `/responses/${submitted.body.id}`, auth: user.token });
      await waitFor(2);
      expect(received[1]?.body).toMatchObject({
        event: 'response.deleted',
        data: { id: submitted.body.id, formId: form.id },
      });
    } finally {
      await app.close();
      server.close();
    }
  });
});
