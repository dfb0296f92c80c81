import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { signup } from '../../../test/support/factories.js';
import { createForm } from '../../../test/support/forms.js';

/**
 * API.md §1 ("malformed JSON is 400 `invalid_json`"): a route that takes no body answers as
 * usual when a client sends `Content-Type: application/json` with nothing after it, as clients
 * that set that header on every request do; a route that needs a body still refuses an empty one.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(async () => {
  await t.close();
});

const JSON_TYPE = { 'content-type': 'application/json' };

describe('an empty body sent as JSON', () => {
  it('is no body for a publish, a discard and a delete', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const draft = () =>
      t.request({ method: 'PUT', url: `/forms/${form.id}/draft`, auth: user.token, body: { title: 'Next' } });

    expect((await draft()).status).toBe(200);
    const published = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/draft/publish`,
      auth: user.token,
      headers: JSON_TYPE,
    });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ title: 'Next', version: form.version + 1 });

    expect((await draft()).status).toBe(200);
    const discarded = await t.request({
      method: 'DELETE',
      url: `/forms/${form.id}/draft`,
      auth: user.token,
      headers: JSON_TYPE,
    });
    expect(discarded.status, discarded.text).toBe(204);

    const sent = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(sent.status, sent.text).toBe(201);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/responses/${sent.body.id}`,
      auth: user.token,
      headers: JSON_TYPE,
    });
    expect(deleted.status, deleted.text).toBe(204);

    const gone = await t.request({
      method: 'DELETE',
      url: `/forms/${form.id}`,
      auth: user.token,
      headers: JSON_TYPE,
    });
    expect(gone.status, gone.text).toBe(204);
  });

  it('is still refused where a body is needed, and a malformed one everywhere', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const empty = await t.request({ method: 'POST', url: '/forms', auth: user.token, headers: JSON_TYPE });
    expectProblem(empty, 400, 'invalid_json');
    const malformed = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/draft/publish`,
      auth: user.token,
      headers: JSON_TYPE,
      body: '{"oops',
    });
    expectProblem(malformed, 400, 'invalid_json');
  });
});
