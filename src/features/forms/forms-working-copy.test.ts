import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { createKey, signup, type TestUser } from '../../../test/support/factories.js';
import { CAPTCHA_SECRET, createForm, expectFieldError, type FormView } from '../../../test/support/forms.js';

/**
 * API.md §5.5: the working copy of a published form. Saved aside (PUT /forms/{id}/draft) while
 * respondents keep the live form, read back, published with If-Match (version + 1, form.updated,
 * the copy gone) or discarded; validated like a form, never served publicly, gone with its form.
 */

const RECEIVER = 'http://127.0.0.1:9/never-listening';

describe('the working copy of a published form', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const db = () => t.app.intake.database.db;
  const draftUrl = (id: string) => `/forms/${id}/draft`;
  const putDraft = (id: string, body: unknown, auth: string) =>
    t.request({ method: 'PUT', url: draftUrl(id), auth, body });
  const getDraft = (id: string, auth: string) => t.request({ method: 'GET', url: draftUrl(id), auth });
  const publish = (id: string, auth: string, headers?: Record<string, string>) =>
    t.request({ method: 'POST', url: `${draftUrl(id)}/publish`, auth, headers });
  const discard = (id: string, auth: string) => t.request({ method: 'DELETE', url: draftUrl(id), auth });
  const read = async (id: string, auth: string) => {
    const response = await t.request({ method: 'GET', url: `/forms/${id}`, auth });
    expect(response.status).toBe(200);
    return response.body as FormView;
  };
  const liveForm = (user: TestUser, overrides: Record<string, unknown> = {}) =>
    createForm(t, user.token, { status: 'live', ...overrides });
  const submit = (id: string, answers: Record<string, unknown>) =>
    t.request({ method: 'POST', url: `/forms/${id}/submit`, body: { answers } });
  const deliveries = (formId: string) =>
    db().selectFrom('webhook_deliveries').select('event').where('form_id', '=', formId).execute();

  it('keeps the edits aside: the owner reads the live form with hasDraft, respondents get the live form', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const fields = [...form.fields, { id: 'phone', type: 'phone', label: 'Phone', required: true }];
    const saved = await putDraft(form.id, { title: 'Contact us (new)', fields }, user.token);
    expect(saved.status).toBe(200);
    const { title: _title, fields: _fields, updatedAt: _updated, hasDraft: _has, ...rest } = form;
    expect(saved.body).toMatchObject({
      ...rest,
      title: 'Contact us (new)',
      fields,
      hasDraft: true,
      draftOf: 1,
    });

    const owner = await read(form.id, user.token);
    expect(owner).toMatchObject({ title: 'Contact us', version: 1, hasDraft: true });
    expect(owner.fields).toEqual(form.fields);
    expect((await getDraft(form.id, user.token)).body).toEqual(saved.body);

    // the public view, the hosted page and submissions all take the live definition
    const open = await t.request({ method: 'GET', url: `/v1/forms/${form.id}/public` });
    expect(open.body.title).toBe('Contact us');
    expect(open.body).not.toHaveProperty('hasDraft');
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Contact us');
    expect(page.text).not.toContain('Contact us (new)');
    expect(page.text).not.toContain('data-label="Phone"'); // the field's label (the page script's messages name a phone number)
    const answers = { name: 'Ada', email: 'ada@example.com' };
    const accepted = await submit(form.id, answers);
    expect(accepted.status, accepted.text).toBe(201);
    // nobody hears of a copy: no form.updated, and the list still counts one form
    const list = await t.request({ method: 'GET', url: '/forms?environment=development', auth: user.token });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ id: form.id, title: 'Contact us', hasDraft: true });
  });

  it('publishes: the copy becomes the form (version + 1, one form.updated), and is gone', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { webhooks: [{ event: 'form.updated', url: RECEIVER }] });
    const fields = [...form.fields, { id: 'phone', type: 'phone', label: 'Phone', required: true }];
    expect((await putDraft(form.id, { title: 'Second', fields }, user.token)).status).toBe(200);
    expect((await putDraft(form.id, { title: 'Third' }, user.token)).body).toMatchObject({
      title: 'Third',
      fields,
      draftOf: 1,
    });
    expect(await deliveries(form.id)).toEqual([]);

    const published = await publish(form.id, user.token, { 'if-match': '"1"' });
    expect(published.status).toBe(200);
    expect(published.headers.etag).toBe('"2"');
    expect(published.body).toMatchObject({
      title: 'Third',
      fields,
      version: 2,
      hasDraft: false,
      status: 'live',
    });
    expect(published.body).not.toHaveProperty('draftOf');
    expect(await read(form.id, user.token)).toEqual(published.body);
    expect(await deliveries(form.id)).toEqual([{ event: 'form.updated' }]);
    expectProblem(await getDraft(form.id, user.token), 404, 'not_found');
    expectProblem(await publish(form.id, user.token), 404, 'not_found');

    // what respondents get now: the new required question is asked
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(page.text).toContain('Third');
    expect((await submit(form.id, { name: 'Ada', email: 'ada@example.com' })).status).toBe(400);
  });

  it('refuses a publish over a version changed since (If-Match, 412) and keeps the copy', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    await putDraft(form.id, { title: 'Copy' }, user.token);
    const live = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'Live edit' },
    });
    expect(live.body).toMatchObject({ version: 2, hasDraft: true });
    expectProblem(await publish(form.id, user.token, { 'if-match': '"1"' }), 412, 'version_conflict');
    expect((await getDraft(form.id, user.token)).body).toMatchObject({
      title: 'Copy',
      draftOf: 1,
      version: 2,
    });
    expect((await read(form.id, user.token)).title).toBe('Live edit');
    expect((await publish(form.id, user.token, { 'if-match': '"2"' })).body).toMatchObject({
      title: 'Copy',
      version: 3,
    });
  });

  it("tags the owner's view apart while a copy waits, so a cached read is not taken for it", async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const conditional = (tag: string) =>
      t.request({
        method: 'GET',
        url: `/forms/${form.id}`,
        auth: user.token,
        headers: { 'if-none-match': tag },
      });
    expect((await conditional('"1"')).status).toBe(304);
    await putDraft(form.id, { title: 'Copy' }, user.token);
    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: user.token });
    expect(read.headers.etag).toBe('"1-draft"');
    expect((await conditional('"1"')).status).toBe(200);
    expect((await conditional('"1-draft"')).status).toBe(304);
    // the public view's tag is the version alone
    const open = await t.request({ method: 'GET', url: `/v1/forms/${form.id}/public` });
    expect(open.headers.etag).toBe('"1"');
    // either tag names version 1 for If-Match
    const renamed = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: { title: 'Live' },
      headers: { 'if-match': '"1-draft"' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.etag).toBe('"2-draft"');
    await discard(form.id, user.token);
    expect((await conditional('"2-draft"')).status).toBe(200);
  });

  it('discards: the live form stays as it was; a second discard is 404', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    await putDraft(form.id, { title: 'Not this' }, user.token);
    const discarded = await discard(form.id, user.token);
    expect(discarded.status).toBe(204);
    expect(await read(form.id, user.token)).toEqual(form);
    expectProblem(await discard(form.id, user.token), 404, 'not_found');
    expectProblem(await getDraft(form.id, user.token), 404, 'not_found');
  });

  it('validates the copy like a form, every problem at once, and stores nothing refused', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const refused = await putDraft(
      form.id,
      {
        title: '',
        fields: [
          { id: 'a', type: 'text', label: 'A' },
          { id: 'a', type: 'text', label: 'B' },
        ],
      },
      user.token,
    );
    expectProblem(refused, 400, 'invalid_form');
    expectFieldError(refused, 'title');
    expect(refused.body.errors.length).toBeGreaterThan(1);
    expectProblem(await getDraft(form.id, user.token), 404, 'not_found');
    expectProblem(await putDraft(form.id, [1], user.token), 400, 'invalid_form');
  });

  it('holds no status and no webhooks of its own: sent back as read they pass, changed they are refused', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { webhooks: [{ event: 'form.updated', url: RECEIVER }] });
    const saved = await putDraft(form.id, { title: 'Copy' }, user.token);
    // the copy read and sent back whole: unchanged members are accepted
    expect((await putDraft(form.id, { ...saved.body, title: 'Again' }, user.token)).status).toBe(200);
    const archived = await putDraft(form.id, { status: 'archived' }, user.token);
    expectProblem(archived, 400, 'invalid_form');
    expectFieldError(archived, 'status', 'not_in_working_copy');
    const hooks = await putDraft(form.id, { webhooks: [] }, user.token);
    expectFieldError(hooks, 'webhooks', 'not_in_working_copy');
    expectProblem(
      await putDraft(form.id, { environment: 'production' }, user.token),
      400,
      'immutable_member',
    );
    expectProblem(await putDraft(form.id, { id: 'other' }, user.token), 400, 'immutable_member');
  });

  it('is for live and active forms: a draft form is changed with PUT (409); an existing copy stays editable', async () => {
    const user = await signup(t);
    const draft = await createForm(t, user.token);
    const refused = await putDraft(draft.id, { title: 'Copy' }, user.token);
    expectProblem(refused, 409, 'conflict');
    expect(refused.body.detail).toContain(`PUT /forms/${draft.id}`);
    for (const status of ['disabled', 'archived']) {
      const closed = await createForm(t, user.token, { status });
      expectProblem(await putDraft(closed.id, { title: 'Copy' }, user.token), 409, 'conflict');
    }
    const active = await createForm(t, user.token, { status: 'active' });
    expect((await putDraft(active.id, { title: 'Copy' }, user.token)).status).toBe(200);
    // unpublished with a copy pending: the copy is still the owner's to finish or drop
    const unpublished = await t.request({
      method: 'PUT',
      url: `/forms/${active.id}`,
      auth: user.token,
      body: { status: 'draft' },
    });
    expect(unpublished.body).toMatchObject({ status: 'draft', hasDraft: true });
    expect((await putDraft(active.id, { title: 'Copy 2' }, user.token)).body).toMatchObject({
      title: 'Copy 2',
      status: 'draft',
    });
  });

  it('keeps a CAPTCHA secret it is not sent again, and never shows it', async () => {
    const user = await signup(t);
    const form = await liveForm(user, {
      spamProtection: {
        action: 'reject',
        captcha: { provider: 'turnstile', siteKey: 'site-key', secret: CAPTCHA_SECRET },
      },
    });
    const saved = await putDraft(form.id, { title: 'Copy', spamProtection: form.spamProtection }, user.token);
    expect(saved.body.spamProtection.captcha).toEqual({
      provider: 'turnstile',
      siteKey: 'site-key',
      hasSecret: true,
    });
    expect(saved.text).not.toContain(CAPTCHA_SECRET);
  });

  it('answers odd input with a 4xx problem, never a 5xx, and stores nothing', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const deep: Record<string, unknown> = {};
    let inner = deep;
    for (let i = 0; i < 200; i++) inner = inner.a = {} as Record<string, unknown>;
    const bodies: unknown[] = [
      '{"title":',
      'null',
      'text',
      42,
      { title: 'a\u0000b' },
      { fields: 'x' },
      { fields: [{}] },
      { ui: 5 },
      { logic: { rules: [{ when: { field: 'nope', op: 'equals', value: 1 }, show: ['name'] }] } },
      { spamProtection: { action: 'explode' } },
      { webhooks: [{ event: 'response.created', url: 'ftp://x' }] },
      { unknown: true },
      deep,
    ];
    for (const body of bodies) {
      const response = await putDraft(form.id, body, user.token);
      expect(
        response.status,
        `${JSON.stringify(body).slice(0, 60)}: ${response.text}`,
      ).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    const odd: Array<[string, string, Record<string, string>?]> = [
      ['GET', '/forms/a%00b/draft'],
      ['PUT', `/forms/${'x'.repeat(300)}/draft`],
      ['GET', `/forms/${form.id}/draft?environment=Not%20a%20name`],
      ['DELETE', `/forms/${form.id}/draft?environment=production&environment=development`],
      ['POST', `/forms/${form.id}/draft/publish`, { 'if-match': 'garbage' }],
      ['POST', `/forms/${form.id}/draft/publish`, { 'if-match': '"1"' }],
      ['PATCH', `/forms/${form.id}/draft`],
    ];
    for (const [method, url, headers] of odd) {
      const response = await t.request({
        method: method as 'GET',
        url,
        auth: user.token,
        headers,
        body: method === 'PUT' ? { title: 'x' } : undefined,
      });
      expect(response.status, `${method} ${url}: ${response.text}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
    }
    expectProblem(await getDraft(form.id, user.token), 404, 'not_found');
  });

  it('goes with its form', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    await putDraft(form.id, { title: 'Copy' }, user.token);
    expect((await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: user.token })).status).toBe(
      204,
    );
    const left = await db()
      .selectFrom('form_working_copies')
      .selectAll()
      .where('form_id', '=', form.id)
      .execute();
    expect(left).toEqual([]);
    expectProblem(await getDraft(form.id, user.token), 404, 'not_found');
  });

  it('is managed like its form: a secret key of its environment, and 404 for an unknown form', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const secret = await createKey(t, user, 'secret', 'development');
    expect((await putDraft(form.id, { title: 'By key' }, secret.key)).status).toBe(200);
    expect((await getDraft(form.id, secret.key)).body.title).toBe('By key');
    expect((await publish(form.id, secret.key)).body.version).toBe(2);
    expectProblem(await putDraft('frm_nothing_here', { title: 'x' }, user.token), 404, 'not_found');
    expectProblem(
      await t.request({
        method: 'GET',
        url: `${draftUrl(form.id)}?environment=production`,
        auth: user.token,
      }),
      403,
      'form_not_in_environment',
    );
  });
});
