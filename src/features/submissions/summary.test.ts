import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * GET /responses/summary (the dashboard's list of forms, API.md §11.3): per form of an
 * environment, its submissions (accepted and flagged: the inbox's), the unread among them and
 * the last one's time; the caller's own forms only, in that environment only.
 */
describe('GET /responses/summary', () => {
  let t: TestApp;
  let owner: TestUser;
  let busy: { id: string };
  let quiet: { id: string };
  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000 });
    owner = await signup(t);
    busy = await createForm(t, owner.token, {
      status: 'live',
      spamProtection: { rules: [{ field: 'name', op: 'equals', value: 'spam' }], action: 'quarantine' },
    });
    quiet = await createForm(t, owner.token, { status: 'live' });
    for (const name of ['Ada', 'Grace', 'Edsger', 'spam']) {
      const sent = await t.request({
        method: 'POST',
        url: `/forms/${busy.id}/submit`,
        body: { answers: { name, email: 'someone@example.com' } },
      });
      expect(sent.status, sent.text).toBe(201);
    }
    const list = await t.request({
      method: 'GET',
      url: `/responses?form_id=${busy.id}&environment=development`,
      auth: owner.token,
    });
    const [newest] = list.body.data;
    const read = await t.request({
      method: 'POST',
      url: `/responses/${newest.id}/read`,
      auth: owner.token,
      body: { read: true },
    });
    expect(read.status, read.text).toBeLessThan(300);
  });
  afterAll(() => t.close());

  const summary = (auth: string, environment = 'development') =>
    t.request({ method: 'GET', url: `/responses/summary?environment=${environment}`, auth });

  it('counts each form’s inbox: submissions, unread, the last one’s time (quarantined ones apart)', async () => {
    const answer = await summary(owner.token);
    expect(answer.status).toBe(200);
    const list = await t.request({
      method: 'GET',
      url: `/responses?form_id=${busy.id}&environment=development`,
      auth: owner.token,
    });
    expect(answer.body).toEqual({
      data: [{ formId: busy.id, submissions: 3, unread: 2, lastSubmissionAt: list.body.data[0].createdAt }],
      nextCursor: null,
    });
    // a form without submissions is left out
    expect(answer.body.data.map((entry: { formId: string }) => entry.formId)).not.toContain(quiet.id);
  });

  it('is scoped to the caller and the environment', async () => {
    const stranger = await signup(t);
    expect((await summary(stranger.token)).body).toEqual({ data: [], nextCursor: null });
    expect((await summary(owner.token, 'production')).body).toEqual({ data: [], nextCursor: null });
    const secret = await createKey(t, owner, 'secret');
    expect((await summary(secret.key)).body.data).toHaveLength(1);
    expectProblem(await summary(secret.key, 'production'), 403, 'forbidden');
    const publishable = await createKey(t, owner, 'publishable');
    expectProblem(await summary(publishable.key), 403, 'forbidden');
  });

  it('refuses a missing, invalid or unknown environment, and no credential', async () => {
    expectProblem(
      await t.request({ method: 'GET', url: '/responses/summary', auth: owner.token }),
      400,
      'invalid_environment',
    );
    expectProblem(await summary(owner.token, 'Not%20Valid'), 400, 'invalid_environment');
    expectProblem(await summary(owner.token, 'staging'), 404, 'environment_not_found');
    expectProblem(
      await t.request({ method: 'GET', url: '/responses/summary?environment=development' }),
      401,
      'unauthorized',
    );
  });
});
