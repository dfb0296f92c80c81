import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem, storedCount } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';

/** Idempotency-Key on POST /forms/{id}/submit (API.md §6.1). */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const answers = { name: 'Jane', email: 'jane@example.com' };

function submit(formId: string, body: unknown, headers: Record<string, string> = {}) {
  return t.request({ method: 'POST', url: `/forms/${formId}/submit`, body, headers });
}

async function liveForm(user: TestUser, overrides: Record<string, unknown> = {}) {
  return createForm(t, user.token, { status: 'live', ...overrides });
}

describe('Idempotency-Key', () => {
  it.each(['Idempotency-Key', 'X-Idempotency-Key'])(
    '%s: a retry with the same body gets the first result and stores nothing new',
    async (header) => {
      const user = await signup(t);
      const form = await liveForm(user);
      const first = await submit(form.id, { answers }, { [header]: 'retry-1' });
      expect(first.status, first.text).toBe(201);
      const second = await submit(form.id, { answers }, { [header]: 'retry-1' });
      expect(second.status).toBe(201);
      expect(second.body).toEqual(first.body);
      expect(await storedCount(t, form.id)).toBe(1);
    },
  );

  it('takes the same body with its members in another order as the same request', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const first = await submit(form.id, { sessionId: 's1', answers }, { 'Idempotency-Key': 'order' });
    const reordered = `{"answers":{"email":"${answers.email}","name":"${answers.name}"},"sessionId":"s1"}`;
    const second = await submit(form.id, reordered, { 'Idempotency-Key': 'order' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('answers 409 conflict to the same key with a different body, storing nothing', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    expect((await submit(form.id, { answers }, { 'Idempotency-Key': 'k' })).status).toBe(201);
    const other = await submit(
      form.id,
      { answers: { ...answers, name: 'John' } },
      { 'Idempotency-Key': 'k' },
    );
    expectProblem(other, 409, 'conflict');
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('stores each request without a key, and distinct keys separately', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const bodies = await Promise.all([
      submit(form.id, { answers }),
      submit(form.id, { answers }),
      submit(form.id, { answers }, { 'Idempotency-Key': 'a' }),
      submit(form.id, { answers }, { 'Idempotency-Key': 'b' }),
    ]);
    expect(bodies.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(bodies.map((r) => r.body.id)).size).toBe(4);
    expect(await storedCount(t, form.id)).toBe(4);
  });

  it('scopes keys to the form: one key on two forms stores two submissions', async () => {
    const user = await signup(t);
    const one = await liveForm(user);
    const two = await liveForm(user);
    const a = await submit(one.id, { answers }, { 'Idempotency-Key': 'shared' });
    const b = await submit(two.id, { answers }, { 'Idempotency-Key': 'shared' });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.formId).toBe(two.id);
  });

  it('stores exactly one submission for 20 concurrent requests with one key, all answered alike', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => submit(form.id, { answers }, { 'Idempotency-Key': 'burst' })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await storedCount(t, form.id)).toBe(1);
    const usage = await t.app.intake.database.db
      .selectFrom('usage')
      .select('submissions')
      .where('workspace_id', '=', user.workspaceId)
      .executeTakeFirstOrThrow();
    expect(Number(usage.submissions)).toBe(1);
  });

  it('treats a key older than 24 hours as new', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const first = await submit(form.id, { answers }, { 'Idempotency-Key': 'old' });
    await t.app.intake.database.db
      .updateTable('idempotency_keys')
      .set({ created_at: new Date(Date.now() - 25 * 3600_000).toISOString() })
      .where('form_id', '=', form.id)
      .execute();
    const again = await submit(
      form.id,
      { answers: { ...answers, name: 'Other' } },
      { 'Idempotency-Key': 'old' },
    );
    expect(again.status, again.text).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    expect(await storedCount(t, form.id)).toBe(2);
    // and the key now answers with the new result
    const replay = await submit(
      form.id,
      { answers: { ...answers, name: 'Other' } },
      { 'Idempotency-Key': 'old' },
    );
    expect(replay.body).toEqual(again.body);
  });

  it('records only successes: a refused request may be retried with the same key', async () => {
    const user = await signup(t);
    const form = await liveForm(user, {
      fields: [{ id: 'name', type: 'text', label: 'Name', maxLength: 3 }],
    });
    const body = { answers: { name: 'Jane' } };
    expectProblem(await submit(form.id, body, { 'Idempotency-Key': 'fix' }), 400, 'validation_failed');
    const update = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { fields: [{ id: 'name', type: 'text', label: 'Name', maxLength: 10 }] },
    });
    expect(update.status, update.text).toBe(200);
    const retry = await submit(form.id, body, { 'Idempotency-Key': 'fix' });
    expect(retry.status, retry.text).toBe(201);
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('replays an HTML form post as it was answered', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl: 'https://example.com/thanks' } });
    const headers = { 'content-type': 'application/x-www-form-urlencoded', 'Idempotency-Key': 'html' };
    const body = 'name=Jane&email=jane%40example.com';
    const first = await submit(form.id, body, headers);
    const second = await submit(form.id, body, headers);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.location).toBe('https://example.com/thanks');
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it.each([
    ['too long', { 'Idempotency-Key': 'k'.repeat(256) }],
    ['not visible ASCII', { 'Idempotency-Key': 'a b' }],
    ['sent twice, differently', { 'Idempotency-Key': 'one', 'X-Idempotency-Key': 'two' }],
  ])('refuses a key that is %s with 400 invalid_parameter', async (_case, headers) => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await submit(form.id, { answers }, headers);
    expectProblem(response, 400, 'invalid_parameter');
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    expect(await storedCount(t, form.id)).toBe(0);
  });
});
