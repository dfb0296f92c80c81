import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { signup, type TestUser } from '../../../test/support/factories.js';
import { createForm, type FormView } from '../../../test/support/forms.js';
import { type Problem, typed } from '../../../test/support/json.js';
import type { WebhookView } from '../../../test/support/webhooks.js';
import { newId } from '../../platform/ids.js';

/**
 * API.md §7: the webhook resource — private addresses (SSRF), refused outside development mode unless
 * WEBHOOK_ALLOW_PRIVATE.
 * The others: webhooks-manage, webhooks-access, webhooks-events (shared helpers in test/support/webhooks.ts).
 */

describe('private addresses (API.md §7), production mode', () => {
  let prod: TestApp;
  let user: TestUser;
  let form: FormView;
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
    const response = typed<Problem>(
      await prod.request({
        method: 'POST',
        url: '/webhooks',
        auth: user.token,
        body: { formId: form.id, event: 'response.created', url },
      }),
    );
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([
      expect.objectContaining({ field: 'url', code: 'forbidden_address' }),
    ]);
    // the problem names no resolved address
    if (url.includes('localhost')) expect(response.text).not.toContain('127.0.0.1');
  });

  it.each(PRIVATE)('the form webhooks member refuses %s too (POST and PUT /forms)', async (url) => {
    const created = typed<Problem>(
      await prod.request({
        method: 'POST',
        url: '/forms',
        auth: user.token,
        body: {
          title: 'x',
          environment: 'development',
          fields: [],
          webhooks: [{ event: 'form.updated', url }],
        },
      }),
    );
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
    const webhook = typed<WebhookView>(
      await prod.request({
        method: 'POST',
        url: '/webhooks',
        auth: user.token,
        body: { formId: form.id, event: 'response.created', url: 'https://93.184.216.34/hook' },
      }),
    );
    expect(webhook.status, webhook.text).toBe(201);
    const patch = async (url: string) =>
      typed<Problem>(
        await prod.request({
          method: 'PATCH',
          url: `/webhooks/${webhook.body.id}`,
          auth: user.token,
          body: { url },
        }),
      );
    const refused = await patch('http://[fd00:ec2::254]/');
    expectProblem(refused, 400, 'validation_failed');
    expect(refused.body.errors?.[0]).toMatchObject({ field: 'url', code: 'forbidden_address' });
    const unresolvable = await patch('https://hooks.example.invalid/');
    expectProblem(unresolvable, 400, 'validation_failed');
    expect(unresolvable.body.errors?.[0]).toMatchObject({ field: 'url', code: 'unresolvable' });
    expect(unresolvable.body.errors?.[0]?.message).toMatch(/does not resolve/);
  });

  it('does not judge again a url that stays as it was (a form sent back, a PATCH of other members)', async () => {
    const own = await createForm(prod, user.token);
    // stored before the guard was on (WEBHOOK_ALLOW_PRIVATE since turned off)
    const id = newId('whk');
    await prod.app.intake.database.db
      .insertInto('webhooks')
      .values({
        id,
        workspace_id: user.workspaceId,
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
    const read = typed<FormView>(
      await prod.request({ method: 'GET', url: `/forms/${own.id}`, auth: user.token }),
    );
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
