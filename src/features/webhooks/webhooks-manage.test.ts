import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem, ISO_MS } from '../../../test/support/assertions.js';
import { createKey, signup } from '../../../test/support/factories.js';
import { createForm, type FormView } from '../../../test/support/forms.js';
import { type Problem, typed } from '../../../test/support/json.js';
import {
  asFormMember,
  HOOK,
  SECRET,
  WEBHOOK_KEYS,
  type WebhookView,
  webhooksApi,
} from '../../../test/support/webhooks.js';
import { newId } from '../../platform/ids.js';

/**
 * API.md §7: the webhook resource — creating, reading, changing and deleting one (POST /webhooks, GET, PATCH,
 * DELETE /webhooks/{id}), what it refuses, the same rules for the form webhooks member, and its OpenAPI
 * description.
 * The others: webhooks-access, webhooks-ssrf, webhooks-events (shared helpers in test/support/webhooks.ts).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { post, createWebhook, webhookRow, webhookCount } = webhooksApi(() => t);

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
      health: { state: 'untried', lastAttemptAt: null, lastOutcome: null, nextRetryAt: null },
    });
    expect(response.headers.location).toBe(`/webhooks/${response.body.id}`);
    expect(response.text).not.toContain('dGhlIHNlY3J');

    const row = await webhookRow(response.body.id);
    expect(row).toMatchObject({
      workspace_id: user.workspaceId,
      environment: 'development',
      form_id: form.id,
      enabled: 1,
    });
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
    const read = typed<FormView>(
      await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token }),
    );
    expect(read.body.webhooks).toEqual([asFormMember(webhook)]);
  });

  it('with a secret key of the form environment, the webhook is the form owner’s', async () => {
    const user = await signup(t);
    const key = await createKey(t, user, 'secret');
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(key.key, { formId: form.id });
    expect((await webhookRow(webhook.id))?.workspace_id).toBe(user.workspaceId);
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
    const read = typed<FormView>(
      await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token }),
    );
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

describe('GET, PATCH, DELETE /webhooks/{id}', () => {
  it('reads a webhook as it was created', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token);
    const webhook = await createWebhook(user.token, { formId: form.id, secret: SECRET });
    const read = typed<WebhookView>(
      await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token }),
    );
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
    const patch = async (body: unknown) =>
      typed<WebhookView>(
        await t.request({ method: 'PATCH', url: `/webhooks/${webhook.id}`, auth: user.token, body }),
      );

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
    const read = typed<WebhookView>(
      await t.request({ method: 'GET', url: `/webhooks/${webhook.id}`, auth: user.token }),
    );
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
    const patch = async (body: unknown) =>
      typed<WebhookView>(
        await t.request({ method: 'PATCH', url: `/webhooks/${webhook.id}`, auth: user.token, body }),
      );

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
    const read = typed<FormView>(
      await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token }),
    );
    expect(read.body.webhooks).toEqual([asFormMember(kept)]);
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

describe('the form webhooks member follows the same rules', () => {
  it.each([
    [{ event: 'webhook.test', url: HOOK }, 'webhooks[0].event'],
    [{ event: 'response.created', url: 'https://u:p@hooks.example.com/' }, 'webhooks[0].url'],
    [{ event: 'response.created', url: HOOK, secret: 'whsec_***' }, 'webhooks[0].secret'],
  ])('refuses %j with invalid_form naming %s', async (webhook, field) => {
    const user = await signup(t);
    const before = await webhookCount();
    const created = typed<Problem>(
      await t.request({
        method: 'POST',
        url: '/forms',
        auth: user.token,
        body: { title: 'x', environment: 'development', fields: [], webhooks: [webhook] },
      }),
    );
    expectProblem(created, 400, 'invalid_form');
    expect(created.body.errors?.map((e) => e.field)).toContain(field);
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
