import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import {
  createForm,
  createKey,
  signup,
  type TestUser,
  workspaceOfForm,
} from '../../../test/support/factories.js';
import { walkHosted } from '../../../test/support/hosted-walk.js';

/**
 * GET /analytics/drop-off (API.md §15): per question in page order, the sessions that reached,
 * answered and left it, counted once per session, from the hosted page's steps: sessions driven
 * through the page's posts over HTTP, as a browser without JavaScript sends them.
 */

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
  owner = await signup(t);
});
afterAll(() => t.close());

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
  { id: 'note', type: 'textarea', label: 'Anything else?' },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  { id: 'source', type: 'hidden', label: 'Source' },
];

const visit = (formId: string, options?: Parameters<typeof walkHosted>[2]) => walkHosted(t, formId, options);

function dropOff(query: Record<string, string>, auth: string | undefined) {
  return t.request({ method: 'GET', url: `/analytics/drop-off?${new URLSearchParams(query)}`, auth });
}

async function figures(formId: string, extra: Record<string, string> = {}) {
  const response = await dropOff({ environment: 'development', form_id: formId, ...extra }, owner.token);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

/** The questions as `[fieldId, reached, answered, leftHere]`, in the answer's order. */
const table = (body: any) =>
  body.questions.map((q: any) => [q.fieldId, q.reached, q.answered, q.leftHere] as const);

const stepRows = (formId: string) =>
  t.app.intake.database.db.selectFrom('form_steps').selectAll().where('form_id', '=', formId).execute();

const oneByOne = (overrides: Record<string, unknown> = {}) =>
  createForm(t, owner.token, {
    status: 'live',
    fields: FIELDS,
    ui: { layout: 'one-by-one', submitLabel: 'Send' },
    ...overrides,
  });

describe('GET /analytics/drop-off, one question a page', () => {
  it('counts reached, answered and left-here once per session, however often it goes Back and Next', async () => {
    const form = await oneByOne();

    // A: answers the name, sees the topic, leaves
    const a = await visit(form.id);
    expect(a.question).toBe('name');
    await a.send({ name: 'Ann' });
    expect(a.question).toBe('topic');

    // B: name, topic, the note; then Back twice (the topic posted by Back: answered all the same), and leaves
    const b = await visit(form.id);
    await b.send({ name: 'Bob' });
    await b.send({ topic: 'sales' });
    expect(b.question).toBe('note');
    await b.send({}, 'back');
    expect(b.question).toBe('topic');
    await b.send({ topic: 'support' }, 'back');
    expect(b.question).toBe('name');

    // C: skips the optional note (reached, not answered) and completes
    const c = await visit(form.id);
    await c.send({ name: 'Cy' });
    await c.send({ topic: '' });
    await c.send({ note: '   ' });
    expect(c.question).toBe('email');
    await c.send({ email: 'nope' }, 'submit');
    expect(c.page.status).toBe(400);
    await c.send({ email: 'cy@example.com' }, 'submit');
    expect(c.page.text).toContain('Thank you');

    // D: the first page only (a view)
    await visit(form.id);

    // E: sends the first page empty (refused: reached, not answered) and leaves
    const e = await visit(form.id);
    await e.send({ name: '' });
    expect(e.page.status).toBe(400);
    expect(e.question).toBe('name');

    // F: gives a topic but goes Back with it (Back judges nothing: reached, not answered), and leaves
    const f = await visit(form.id);
    await f.send({ name: 'Fay' });
    await f.send({ topic: 'sales' }, 'back');
    expect(f.question).toBe('name');

    const body = await figures(form.id);
    expect(body).toMatchObject({ formId: form.id, layout: 'one-by-one', sessions: 6, completed: 1 });
    // the hidden field is no question; the others in page order
    expect(body.questions.map((q: any) => [q.fieldId, q.label])).toEqual([
      ['name', 'Your name'],
      ['topic', 'Topic'],
      ['note', 'Anything else?'],
      ['email', 'E-mail'],
    ]);
    expect(table(body)).toEqual([
      // A, B, C, F sent it; D saw it; E sent it empty. D and E left here
      ['name', 6, 4, 2],
      // A and F left here; B answered it (Back never took the answer away), C skipped it (a blank
      // choice), F went Back with one
      ['topic', 4, 1, 2],
      // B left here; C skipped it (blank text is no answer)
      ['note', 2, 0, 1],
      ['email', 1, 1, 0],
    ]);
    // every session left somewhere or completed
    const left = body.questions.reduce((sum: number, q: any) => sum + q.leftHere, 0);
    expect(left + body.completed).toBe(body.sessions);
    // B's Back and Next: one row per question it reached
    const rows = await stepRows(form.id);
    expect(
      rows
        .filter((row) => row.session_id === b.session)
        .map((row) => row.field_id)
        .sort(),
    ).toEqual(['name', 'note', 'topic']);
  });

  it('counts a skipped question as reached, not answered, and a ticked box as answered', async () => {
    const form = await oneByOne({
      fields: [
        { id: 'agree', type: 'checkbox', label: 'Keep me posted' },
        { id: 'more', type: 'checkbox', label: 'And tell a friend' },
        { id: 'name', type: 'text', label: 'Name' },
      ],
    });
    const walk = await visit(form.id);
    await walk.send({ agree: 'on' });
    await walk.send({}); // more: left unticked
    await walk.send({ name: 'Ada' }, 'submit');
    expect(walk.page.text).toContain('Thank you');
    expect(table(await figures(form.id))).toEqual([
      ['agree', 1, 1, 0],
      ['more', 1, 0, 0],
      ['name', 1, 1, 0],
    ]);
  });

  it('counts a question saved from ("Save and continue later") as reached, and answered when the save kept an answer', async () => {
    const form = await oneByOne();
    // A: the name, then the topic chosen and saved for later: left on the topic, which is answered
    const a = await visit(form.id);
    await a.send({ name: 'Ann' });
    await a.send({ topic: 'sales' }, 'save');
    expect(a.page.text).toContain(`/f/${form.id}?resume=`);
    // B: saves on the first question with nothing answered
    const b = await visit(form.id);
    await b.send({}, 'save');
    expect(table(await figures(form.id))).toEqual([
      ['name', 2, 1, 1],
      ['topic', 1, 1, 1],
      ['note', 0, 0, 0],
      ['email', 0, 0, 0],
    ]);
  });

  it('follows the logic: a question it skips is never reached', async () => {
    const form = await oneByOne({
      logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['note'] }] },
    });
    const walk = await visit(form.id);
    await walk.send({ name: 'Ann' });
    await walk.send({ topic: 'sales' });
    expect(walk.question).toBe('email');
    expect(table(await figures(form.id))).toEqual([
      ['name', 1, 1, 0],
      ['topic', 1, 1, 0],
      ['note', 0, 0, 0],
      ['email', 1, 0, 1],
    ]);
  });

  it('counts nothing of the owner’s preview', async () => {
    const email = `dropoff-${randomBytes(6).toString('hex')}@example.com`;
    const signed = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email, password: 'correct horse battery', cookie: true },
    });
    expect(signed.status, signed.text).toBe(201);
    const cookie = [signed.headers['set-cookie'] ?? []]
      .flat()
      .map((line) => String(line).split(';')[0])
      .find((pair) => pair?.startsWith('intake_session='));
    expect(cookie).toBeDefined();
    // the bearer session of the same account, for the API calls of the test itself
    const login = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email, password: 'correct horse battery' },
    });
    const token = login.body.token as string;
    const form = await createForm(t, token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'one-by-one' },
    });
    const walk = await visit(form.id, { cookie, query: '?preview=1' });
    expect(walk.page.text).toContain('Preview');
    await walk.send({ name: 'Owner' });
    await walk.send({ topic: 'sales' });
    expect(walk.question).toBe('note');
    expect(await stepRows(form.id)).toEqual([]);
    const response = await dropOff({ environment: 'development', form_id: form.id }, token);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ sessions: 0, completed: 0 });
    expect(table(response.body)).toEqual([
      ['name', 0, 0, 0],
      ['topic', 0, 0, 0],
      ['note', 0, 0, 0],
      ['email', 0, 0, 0],
    ]);
  });

  it('keeps to the range: steps by when they were reached, views by when they were made', async () => {
    const form = await oneByOne();
    const walk = await visit(form.id);
    await walk.send({ name: 'Now' });
    // a session 40 days ago that reached the topic, and a view that day without a page sent
    const workspaceId = await workspaceOfForm(t, form.id);
    const then = new Date(Date.now() - 40 * 86_400_000);
    const day = then.toISOString().slice(0, 10);
    const db = t.app.intake.database.db;
    await db
      .insertInto('form_steps')
      .values([
        {
          form_id: form.id,
          session_id: 'old-1',
          field_id: 'name',
          answered: 1,
          reached_at: then.toISOString(),
        },
        {
          form_id: form.id,
          session_id: 'old-1',
          field_id: 'topic',
          answered: 0,
          reached_at: then.toISOString(),
        },
      ])
      .execute();
    await db
      .insertInto('form_events')
      .values(
        ['old-1', 'old-2'].map((session) => ({
          form_id: form.id,
          type: 'view' as const,
          session_id: session,
          workspace_id: workspaceId,
          environment: 'development',
          created_at: then.toISOString(),
        })),
      )
      .execute();

    // the default range (the last 30 days): today's session alone
    expect(table(await figures(form.id))).toEqual([
      ['name', 1, 1, 0],
      ['topic', 1, 0, 1],
      ['note', 0, 0, 0],
      ['email', 0, 0, 0],
    ]);
    // that day alone: the old session left on the topic, the old view on the first question
    const old = await figures(form.id, { from: day, to: day });
    expect(old).toMatchObject({ sessions: 2, completed: 0, from: `${day}T00:00:00.000Z` });
    expect(table(old)).toEqual([
      ['name', 2, 1, 1],
      ['topic', 1, 0, 1],
      ['note', 0, 0, 0],
      ['email', 0, 0, 0],
    ]);
    // a range ending yesterday holds nothing of today
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const none = await figures(form.id, { from: yesterday, to: yesterday });
    expect(none).toMatchObject({ sessions: 0, completed: 0 });
  });

  it('deletes a form’s steps with the form', async () => {
    const form = await oneByOne();
    const walk = await visit(form.id);
    await walk.send({ name: 'Ann' });
    expect(await stepRows(form.id)).toHaveLength(2);
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: owner.token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await stepRows(form.id)).toEqual([]);
  });
});

describe('the steps never fail the page', () => {
  it('leaves the steps out over the page events’ rate limit, and the page goes on', async () => {
    // the page's events: ten times RATE_LIMIT_PUBLIC a minute; nine pages served, then the walk's
    // view is the tenth and its start and steps are over
    const limited = await createTestApp({ rateLimitPublic: 1 });
    try {
      const user = await signup(limited);
      const form = await createForm(limited, user.token, {
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'one-by-one' },
      });
      for (let i = 0; i < 9; i++)
        expect((await limited.request({ method: 'GET', url: `/f/${form.id}` })).status).toBe(200);
      const walk = await walkHosted(limited, form.id);
      await walk.send({ name: 'Ann' });
      expect(walk.page.status).toBe(200);
      expect(walk.question).toBe('topic');
      const rows = await limited.app.intake.database.db
        .selectFrom('form_steps')
        .selectAll()
        .where('form_id', '=', form.id)
        .execute();
      expect(rows).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});

describe('GET /analytics/drop-off, a classic form (one page)', () => {
  it('counts every view as reaching every question, a submission as answering, the rest as left on the first', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    const pages = [await visit(form.id), await visit(form.id), await visit(form.id)];
    const sent = await pages[0]?.send({ name: 'Ada', email: 'ada@example.com' });
    expect(sent?.page.text).toContain('Thank you');
    // the refused post of another: no step is kept of a classic page
    await pages[1]?.send({ name: '' });
    expect(await stepRows(form.id)).toEqual([]);

    const body = await figures(form.id);
    expect(body).toMatchObject({ layout: 'classic', sessions: 3, completed: 1 });
    expect(table(body)).toEqual([
      ['name', 3, 1, 2],
      ['topic', 3, 1, 0],
      ['note', 3, 1, 0],
      ['email', 3, 1, 0],
    ]);
  });
});

describe('GET /analytics/drop-off: who may read, and bad input', () => {
  let stranger: TestUser;
  let form: any;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    stranger = await signup(t);
    form = await oneByOne();
    keys.publishable = (await createKey(t, owner, 'publishable')).key;
    keys.secret = (await createKey(t, owner, 'secret')).key;
    keys.production = (await createKey(t, owner, 'secret', 'production')).key;
    keys.stranger = (await createKey(t, stranger, 'secret')).key;
  });
  const credential = (caller: string) =>
    ({
      anonymous: undefined,
      owner: owner.token,
      'stranger session': stranger.token,
      'unknown token': `sk_live_${randomBytes(24).toString('hex')}`,
    })[caller] ?? keys[caller];

  it.each([
    { caller: 'anonymous', status: 401, code: 'unauthorized' },
    { caller: 'unknown token', status: 401, code: 'unauthorized' },
    { caller: 'publishable', status: 403, code: 'forbidden' },
    { caller: 'production', status: 403, code: 'forbidden' },
    { caller: 'stranger session', status: 403, code: 'not_owner' },
    { caller: 'stranger', status: 403, code: 'forbidden' },
    { caller: 'secret', status: 200 },
    { caller: 'owner', status: 200 },
  ])('as $caller -> $status', async ({ caller, status, code }) => {
    const response = await dropOff({ environment: 'development', form_id: form.id }, credential(caller));
    if (code) {
      expectProblem(response, status, code);
      expect(response.body).not.toHaveProperty('questions');
    } else expect(response.body.questions).toHaveLength(4);
  });

  it('refuses another workspace’s form as GET /analytics does', async () => {
    const theirs = await createForm(t, stranger.token, { status: 'live', fields: FIELDS });
    const query = `environment=development&form_id=${theirs.id}`;
    const analytics = await t.request({ method: 'GET', url: `/analytics?${query}`, auth: owner.token });
    const response = await dropOff({ environment: 'development', form_id: theirs.id }, owner.token);
    expect(analytics.status).toBeGreaterThanOrEqual(400);
    expect([response.status, response.body.code]).toEqual([analytics.status, analytics.body.code]);
    expectProblem(response, analytics.status, analytics.body.code);
  });

  it.each([
    ['no form_id', { environment: 'development' }, 400, 'invalid_parameter'],
    ['an empty form_id', { environment: 'development', form_id: '' }, 400, 'invalid_parameter'],
    ['no environment', { form_id: 'FORM' }, 400, 'invalid_environment'],
    ['a malformed environment', { environment: 'Dev!', form_id: 'FORM' }, 400, 'invalid_environment'],
    ['an environment not created', { environment: 'staging', form_id: 'FORM' }, 404, 'environment_not_found'],
    [
      'a bad from',
      { environment: 'development', form_id: 'FORM', from: 'yesterday' },
      400,
      'invalid_parameter',
    ],
    [
      'from after to',
      { environment: 'development', form_id: 'FORM', from: '2026-02-01', to: '2026-01-01' },
      400,
      'invalid_parameter',
    ],
    [
      'a range over 366 days',
      { environment: 'development', form_id: 'FORM', from: '2020-01-01', to: '2026-01-01' },
      400,
      'invalid_parameter',
    ],
    ['an unknown form', { environment: 'development', form_id: 'frm_nope' }, 404, 'not_found'],
    [
      'a form of another environment',
      { environment: 'production', form_id: 'FORM' },
      403,
      'form_not_in_environment',
    ],
  ])('refuses %s', async (_case, query, status, code) => {
    const filled = Object.fromEntries(
      Object.entries(query).map(([key, value]) => [key, value === 'FORM' ? form.id : value]),
    );
    expectProblem(await dropOff(filled as Record<string, string>, owner.token), status, code);
  });
});
