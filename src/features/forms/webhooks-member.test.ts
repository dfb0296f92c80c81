import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup } from '../../../test/support/factories.js';

/** The `webhooks` member of a form (API.md §5.4): read form out, write form in, secrets never out. */
describe('form webhooks member', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const rowsOf = (formId: string) =>
    t.app.intake.database.db
      .selectFrom('webhooks')
      .selectAll()
      .where('form_id', '=', formId)
      .orderBy('created_at')
      .execute();

  it('creates the webhooks given on POST, shows them without their secrets, and stores secrets encrypted', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      webhooks: [
        { event: 'response.created', url: 'https://hooks.example.com/a', secret: 'whsec_c2VjcmV0' },
        { event: 'form.updated', url: 'http://hooks.example.com/b', format: 'otel' },
      ],
    });
    expect(form.webhooks).toHaveLength(2);
    expect(form.webhooks[0]).toEqual({
      id: expect.stringMatching(/^whk_/),
      formId: form.id,
      environment: 'development',
      event: 'response.created',
      url: 'https://hooks.example.com/a',
      format: 'legacy',
      enabled: true,
      hasSecret: true,
      createdAt: form.createdAt,
    });
    expect(form.webhooks[1]).toMatchObject({ event: 'form.updated', format: 'otel', hasSecret: false });
    expect(JSON.stringify(form)).not.toContain('whsec_c2VjcmV0');

    const rows = await rowsOf(form.id);
    const secretRow = rows.find((row) => row.id === form.webhooks[0].id);
    expect(secretRow?.secret_ciphertext).toMatch(/^enc:v1:local:/);
    expect(await t.app.intake.envelope.decrypt(secretRow?.secret_ciphertext ?? '')).toBe('whsec_c2VjcmV0');

    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: owner.token });
    expect(read.body.webhooks).toEqual(form.webhooks);
  });

  it('keeps ids and secrets when the form read with GET is sent back, and replaces the set otherwise', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      webhooks: [{ event: 'response.created', url: 'https://hooks.example.com/a', secret: 'kept secret' }],
    });
    const before = await rowsOf(form.id);

    const roundTrip = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: owner.token,
      body: form,
    });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.webhooks).toEqual(form.webhooks);
    expect(await rowsOf(form.id)).toEqual(before);

    const replaced = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: owner.token,
      body: {
        webhooks: [
          { ...form.webhooks[0], enabled: false },
          { event: 'response.deleted', url: 'https://hooks.example.com/c' },
        ],
      },
    });
    expect(replaced.status).toBe(200);
    expect(
      replaced.body.webhooks.map((w: any) => [w.id === form.webhooks[0].id, w.event, w.enabled, w.hasSecret]),
    ).toEqual([
      [true, 'response.created', false, true],
      [false, 'response.deleted', true, false],
    ]);

    const cleared = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: owner.token,
      body: { webhooks: [] },
    });
    expect(cleared.body.webhooks).toEqual([]);
    expect(await rowsOf(form.id)).toEqual([]);
  });

  it('leaves the webhooks alone when a PUT does not mention them, and deletes them with the form', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      webhooks: [{ event: 'response.created', url: 'https://hooks.example.com/a' }],
    });
    const renamed = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: owner.token,
      body: { title: 'New' },
    });
    expect(renamed.body.webhooks).toEqual(form.webhooks);
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: owner.token });
    expect(deleted.status).toBe(204);
    expect(await rowsOf(form.id)).toEqual([]);
  });

  it('never shows webhooks in the public views', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      webhooks: [{ event: 'response.created', url: 'https://hooks.example.com/secret-path' }],
    });
    const anonymous = await t.request({ method: 'GET', url: `/forms/${form.id}` });
    expect(anonymous.body.webhooks).toBeUndefined();
    expect(anonymous.text).not.toContain('secret-path');
    const publicView = await t.request({ method: 'GET', url: `/v1/forms/${form.id}/public` });
    expect(publicView.text).not.toContain('secret-path');
  });

  it.each([
    [{ event: 'response.created', url: 'ftp://hooks.example.com/a' }, 'webhooks[0].url'],
    [{ event: 'response.created', url: 'not a url' }, 'webhooks[0].url'],
    [{ event: 'submission.made', url: 'https://hooks.example.com/a' }, 'webhooks[0].event'],
    [{ event: 'response.created', url: 'https://hooks.example.com/a', format: 'xml' }, 'webhooks[0].format'],
  ])('refuses %j with invalid_form naming %s, creating nothing', async (webhook, field) => {
    const owner = await signup(t);
    const response = await t.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      body: { title: 'x', environment: 'development', fields: [], webhooks: [webhook] },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_form');
    expect(response.body.errors.map((e: any) => e.field)).toContain(field);
    const list = await t.request({ method: 'GET', url: '/forms?environment=development', auth: owner.token });
    expect(list.body.data).toEqual([]);
  });
});
