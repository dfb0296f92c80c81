import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, formBody, signup } from './support/factories.js';

/**
 * form.* events carry the form as its owner reads it, but not its `webhooks`
 * member (the URLs of every other webhook of the form): webhook URLs are often capabilities
 * (Slack/Discord/Zapier hooks carry their token in the path), and the receiver of a form.updated
 * event is a third party: it must not learn the other receivers' URLs.
 */
describe("a form event does not hand one receiver the other webhooks' URLs", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('form.updated sent to webhook A does not contain the URL of webhook B', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const capability = 'https://hooks.slack.example/services/T000/B000/very-secret-token';
    for (const body of [
      { formId: form.id, event: 'form.updated', url: 'https://third-party.example/a' },
      { formId: form.id, event: 'response.created', url: capability },
    ]) {
      const created = await t.request({ method: 'POST', url: '/webhooks', auth: user.token, body });
      expect(created.status, created.text).toBe(201);
    }
    const patched = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { ...formBody({ status: 'live', title: 'Renamed' }), environment: undefined },
    });
    expect(patched.status, patched.text).toBe(200);
    const rows = await t.app.intake.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('form_id', '=', form.id)
      .where('event', '=', 'form.updated')
      .execute();
    expect(rows).toHaveLength(1);
    const body = await t.app.intake.envelope.decrypt(rows[0]?.body_ciphertext ?? '');
    expect(body).toContain('Renamed');
    expect(body).not.toContain('very-secret-token');
  });
});
