import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { hiddenInputs } from '../../../test/support/hosted-walk.js';
import { runRetention } from '../../features/submissions/retention.js';

/**
 * Saved progress (API.md §15) on the hosted page, without JavaScript: each page posted of a
 * one-by-one form keeps the answers so far as a `partial` response under a resume token (a
 * cookie and the page's `_resume`); "Save and continue later" shows and mails the link; the
 * link reopens the form at the first unanswered question on any device; the last page's post
 * turns the partial into the accepted submission under the same id.
 */

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await signup(t);
});
afterAll(() => t.close());

const RECEIVER = 'http://127.0.0.1:9/never-listening';

const title = (page: Response) => /<title>([^<]*)<\/title>/.exec(page.text)?.[1];
const controls = (page: Response) =>
  [...page.text.matchAll(/<(?:input|select|textarea)[^>]*id="field-([\w-]+)"/g)].map((match) => match[1]);

/** The resume cookie a page set: its value and attributes. */
function resumeCookie(page: Response): { value: string; attributes: string } | undefined {
  const cookies = [page.headers['set-cookie'] ?? []].flat();
  const cookie = cookies.find((line) => line.startsWith('intake_resume='));
  if (!cookie) return undefined;
  const [pair = '', ...attributes] = cookie.split('; ');
  return { value: pair.slice('intake_resume='.length), attributes: attributes.join('; ') };
}

function post(
  formId: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const item of [value].flat()) body.append(name, item);
  return t.request({
    method: 'POST',
    url: `/f/${formId}`,
    body: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

async function responses(formId: string, status?: string) {
  const response = await t.request({
    method: 'GET',
    url: `/responses?form_id=${formId}&environment=development${status ? `&status=${status}` : ''}`,
    auth: user.token,
  });
  expect(response.status).toBe(200);
  return (response.body as { data: Array<{ id: string; status: string; answers: Record<string, unknown> }> })
    .data;
}

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'topic', type: 'select', label: 'Topic', required: true, options: ['sales', 'support'] },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  { id: 'notes', type: 'textarea', label: 'Notes' },
];

async function stepsForm(overrides: Record<string, unknown> = {}) {
  return createForm(t, user.token, {
    title: 'Steps',
    status: 'live',
    fields: FIELDS,
    ui: { layout: 'one-by-one', submitLabel: 'Send' },
    ...overrides,
  });
}

/** Answers the first `count` questions of the steps form from a fresh page: the last page reached. */
async function answered(
  formId: string,
  answers: Array<Record<string, string>>,
  headers: Record<string, string> = {},
) {
  let page = await t.request({ method: 'GET', url: `/f/${formId}`, headers });
  for (const answer of answers)
    page = await post(formId, { ...hiddenInputs(page), ...answer, _action: 'next' }, headers);
  return page;
}

describe('saved progress on the hosted page (API.md §15)', () => {
  it('keeps each page’s answers as one partial response, left out of the default list, completed under its id', async () => {
    const form = await stepsForm();
    const first = await t.request({ method: 'GET', url: `/f/${form.id}` });
    // nothing is stored by a visit alone
    expect(await responses(form.id, 'partial')).toEqual([]);
    expect(resumeCookie(first)).toBeUndefined();

    const second = await post(form.id, { ...hiddenInputs(first), name: 'Ada', _action: 'next' });
    expect(title(second)).toBe('Question 2 of 4 – Steps');
    const cookie = resumeCookie(second);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toContain(`Path=/f/${form.id}`);
    expect(cookie?.attributes).toContain('HttpOnly');
    expect(cookie?.attributes).toContain('Max-Age=2592000');
    expect(hiddenInputs(second)._resume).toEqual([cookie?.value]);
    const [partial] = await responses(form.id, 'partial');
    expect(partial).toMatchObject({ status: 'partial', answers: { name: 'Ada' } });
    // the inbox's default list and its counts leave partials out
    expect(await responses(form.id)).toEqual([]);

    // the same partial, its answers grown; a refused step keeps the answers that were right
    const third = await post(form.id, { ...hiddenInputs(second), topic: 'support', _action: 'next' });
    const refused = await post(form.id, { ...hiddenInputs(third), email: 'nope', _action: 'next' });
    expect(refused.status).toBe(400);
    expect(await responses(form.id, 'partial')).toEqual([
      expect.objectContaining({ id: partial?.id, answers: { name: 'Ada', topic: 'support' } }),
    ]);

    const fourth = await post(form.id, {
      ...hiddenInputs(refused),
      email: 'ada@example.com',
      _action: 'next',
    });
    const done = await post(form.id, { ...hiddenInputs(fourth), notes: 'Hi', _action: 'submit' });
    expect(done.status).toBe(200);
    expect(done.text).toContain('<h1 class="form-title">Thank you</h1>');
    // the browser forgets the token: the form starts afresh next time
    expect(resumeCookie(done)?.attributes).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect(await responses(form.id, 'partial')).toEqual([]);
    expect(await responses(form.id)).toEqual([
      expect.objectContaining({
        id: partial?.id,
        status: 'accepted',
        answers: { name: 'Ada', topic: 'support', email: 'ada@example.com', notes: 'Hi' },
      }),
    ]);
  });

  it('completes the same response: the owner’s note, star and read mark on the partial stay with it', async () => {
    const form = await stepsForm();
    const second = await answered(form.id, [{ name: 'Ada' }]);
    const [partial] = await responses(form.id, 'partial');
    const id = partial?.id ?? '';
    const owner = (method: 'POST', url: string, body: unknown) =>
      t.request({ method, url, body, auth: user.token });
    expect((await owner('POST', `/responses/${id}/notes`, { text: 'Call back on Monday' })).status).toBe(200);
    expect((await owner('POST', `/responses/${id}/star`, { starred: true })).status).toBe(200);
    expect((await owner('POST', `/responses/${id}/read`, { read: true })).status).toBe(200);
    const third = await post(form.id, { ...hiddenInputs(second), topic: 'sales', _action: 'next' });
    const fourth = await post(form.id, { ...hiddenInputs(third), email: 'ada@example.com', _action: 'next' });
    const done = await post(form.id, { ...hiddenInputs(fourth), _action: 'submit' });
    expect(done.status, done.text).toBe(200);
    const read = await t.request({
      method: 'GET',
      url: `/responses/${id}?form_id=${form.id}&environment=development`,
      auth: user.token,
    });
    expect(read.body).toMatchObject({ id, status: 'accepted', starred: true, read: true });
    expect(read.body.notes).toEqual([expect.objectContaining({ text: 'Call back on Monday' })]);
    // the forms list's counts take it as read
    const summary = await t.request({
      method: 'GET',
      url: '/responses/summary?environment=development',
      auth: user.token,
    });
    expect(summary.body.data.find((row: { formId: string }) => row.formId === form.id)).toMatchObject({
      unread: 0,
    });
  });

  it('saves and continues later: the link shown and mailed, opened on another device at the first unanswered question', async () => {
    const form = await stepsForm({
      fields: [FIELDS[2], FIELDS[0], FIELDS[1], FIELDS[3]],
      translations: { de: { title: 'Schritte' } },
      defaultLanguage: undefined,
    });
    const email = await answered(form.id, [{ email: 'ada@example.com' }], { 'accept-language': 'de' });
    expect(title(email)).toBe('Frage 2 von 4 – Schritte');
    const saved = await post(
      form.id,
      { ...hiddenInputs(email), name: 'Ada', _action: 'save' },
      { 'accept-language': 'de' },
    );
    expect(saved.status).toBe(200);
    expect(title(saved)).toBe('Ihre Antworten sind gespeichert – Schritte');
    const token = resumeCookie(saved)?.value ?? '';
    const link = `http://localhost:80/f/${form.id}?resume=${token}`;
    expect(saved.text).toContain(`<a href="${link}">${link}</a>`);
    expect(saved.text).toContain('Wir haben ihn auch an ada@example.com gesendet.');
    expect(saved.text).toContain('Wer diesen Link hat, kann Ihre bisherigen Antworten sehen');

    // the mail, through the outbox, in the page's language
    const rows = await t.app.intake.database.db
      .selectFrom('outbox')
      .select('payload')
      .where('kind', '=', 'email')
      .execute();
    const mails = await Promise.all(
      rows
        .map((row) => (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload))
        .filter((payload) => payload.purpose === 'resume-link' && payload.formId === form.id)
        .map(async (payload) => JSON.parse(await t.app.intake.envelope.decrypt(payload.ciphertext))),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: 'ada@example.com', subject: '„Schritte“ fortsetzen' });
    expect(mails[0].text).toContain(link);

    // another device: no cookie, the link alone; German as saved, at the first unanswered question
    const resumed = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    expect(resumed.status).toBe(200);
    expect(title(resumed)).toBe('Frage 3 von 4 – Schritte');
    expect(controls(resumed)).toEqual(['topic']);
    expect(hiddenInputs(resumed)).toMatchObject({
      email: ['ada@example.com'],
      name: ['Ada'],
      _resume: [token],
    });
    expect(resumeCookie(resumed)?.value).toBe(token);
    // asked in English by its address, the page is English
    const english = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}&lang=en` });
    expect(title(english)).toBe('Question 3 of 4 – Steps');

    // the same browser comes back without the link: its cookie resumes
    const again = await t.request({
      method: 'GET',
      url: `/f/${form.id}`,
      headers: { cookie: `intake_resume=${token}` },
    });
    expect(controls(again)).toEqual(['topic']);

    const last = await post(form.id, { ...hiddenInputs(resumed), topic: 'sales', _action: 'next' });
    const done = await post(form.id, { ...hiddenInputs(last), _action: 'submit' });
    expect(done.status).toBe(200);
    const [partialGone] = await responses(form.id, 'partial');
    expect(partialGone).toBeUndefined();
    expect(await responses(form.id)).toHaveLength(1);

    // the link, its answers sent, continues nothing: said so in words, with the way to start again
    const gone = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This link no longer continues the form');
    expect(gone.text).toContain(
      `<a class="button button--primary" href="/f/${form.id}?lang=en">Start again</a>`,
    );
    // a cookie that continues nothing is forgotten, and the form starts afresh
    const fresh = await t.request({
      method: 'GET',
      url: `/f/${form.id}`,
      headers: { cookie: `intake_resume=${token}` },
    });
    expect(fresh.status).toBe(200);
    expect(controls(fresh)).toEqual(['email']);
    expect(resumeCookie(fresh)?.attributes).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
  });

  it('refuses a resume link it never made with a readable page, and takes a forged _resume as none', async () => {
    const form = await stepsForm();
    for (const bad of ['x', 'A'.repeat(43), '%3Cscript%3E', 'A'.repeat(5000)]) {
      const page = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${bad}` });
      expect(page.status, bad).toBe(404);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.text).toContain('This link no longer continues the form');
      expect(page.text).not.toContain('<script>');
    }
    const first = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const second = await post(form.id, {
      ...hiddenInputs(first),
      name: 'Eve',
      _resume: 'B'.repeat(43),
      _action: 'next',
    });
    expect(second.status).toBe(200);
    expect(resumeCookie(second)?.value).not.toBe('B'.repeat(43));
    expect(await responses(form.id, 'partial')).toHaveLength(1);
  });

  it('says nothing of a mail when the answers hold no address, and never mails a hashed one', async () => {
    const form = await stepsForm({
      fields: [{ ...FIELDS[2], piiMode: 'hashed' }, FIELDS[0], FIELDS[1], FIELDS[3]],
    });
    const page = await answered(form.id, [{ email: 'hashed@example.com' }]);
    const saved = await post(form.id, { ...hiddenInputs(page), _action: 'save' });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('hashed@example.com');
    expect(saved.text).not.toContain('We have sent it');
    // a hashed answer cannot be given back: the resumed form asks it again
    const token = resumeCookie(saved)?.value ?? '';
    const resumed = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    expect(controls(resumed)).toEqual(['email']);
    const [partial] = await responses(form.id, 'partial');
    expect(String(partial?.answers.email)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('gives an encrypted or masked answer back to the respondent, and shows the owner what the PII mode shows', async () => {
    const form = await stepsForm({
      fields: [
        { ...FIELDS[0], piiMode: 'encrypted' },
        { ...FIELDS[1] },
        { ...FIELDS[2], piiMode: 'masked' },
        FIELDS[3],
      ],
    });
    const page = await answered(form.id, [{ name: 'Ada' }, { topic: 'sales' }, { email: 'ada@example.com' }]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    const stored = await t.app.intake.database.db
      .selectFrom('submissions')
      .select('answers')
      .where('form_id', '=', form.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored.answers)).not.toContain('Ada');
    const [partial] = await responses(form.id, 'partial');
    expect(partial?.answers).toEqual({ name: 'Ada', topic: 'sales', email: 'a***@example.com' });
    const resumed = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    expect(hiddenInputs(resumed)).toMatchObject({ name: ['Ada'], email: ['ada@example.com'] });
    expect(controls(resumed)).toEqual(['notes']);
  });

  it('tells webhooks of response.partial only when they ask for it; response.created fires once, at completion', async () => {
    const form = await stepsForm({
      webhooks: [
        { event: 'response.partial', url: RECEIVER },
        { event: 'response.created', url: RECEIVER },
        { event: 'response.updated', url: RECEIVER },
        { event: 'response.deleted', url: RECEIVER },
      ],
    });
    const page = await answered(form.id, [{ name: 'Ada' }, { topic: 'sales' }]);
    const events = async () =>
      (
        await t.app.intake.database.db
          .selectFrom('webhook_deliveries')
          .select('event')
          .where('form_id', '=', form.id)
          .orderBy('created_at')
          .orderBy('id')
          .execute()
      ).map((row) => row.event);
    expect(await events()).toEqual(['response.partial', 'response.partial']);
    // the owner's note and star on the partial are no response.updated (partials are heard of as
    // response.partial alone), nor is deleting another one a response.deleted
    const [partial] = await responses(form.id, 'partial');
    const owner = (url: string, body?: unknown, method: 'POST' | 'DELETE' = 'POST') =>
      t.request({ method, url, body, auth: user.token });
    expect((await owner(`/responses/${partial?.id}/notes`, { text: 'noted' })).status).toBe(200);
    expect((await owner(`/responses/${partial?.id}/star`, { starred: true })).status).toBe(200);
    await answered(form.id, [{ name: 'Bea' }]);
    const other = (await responses(form.id, 'partial')).find((row) => row.id !== partial?.id);
    expect((await owner(`/responses/${other?.id}`, undefined, 'DELETE')).status).toBe(204);
    expect(await events()).toEqual(['response.partial', 'response.partial', 'response.partial']);
    const last = await post(form.id, { ...hiddenInputs(page), email: 'a@example.com', _action: 'next' });
    await post(form.id, { ...hiddenInputs(last), _action: 'submit' });
    expect(await events()).toEqual([
      'response.partial',
      'response.partial',
      'response.partial',
      'response.partial',
      'response.created',
    ]);
  });

  it('stores nothing for the owner’s preview', async () => {
    const signedUp = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email: `preview-${Date.now()}@example.com`, password: 'correct horse battery', cookie: true },
    });
    expect(signedUp.status, signedUp.text).toBe(201);
    const session = [signedUp.headers['set-cookie'] ?? []]
      .flat()
      .map((line) => String(line).split(';')[0])
      .filter((pair) => pair?.includes('intake_session='))
      .join('; ');
    expect(session).not.toBe('');
    const login = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email: signedUp.body.user.email, password: 'correct horse battery' },
    });
    const form = await createForm(t, login.body.token, {
      title: 'Steps',
      status: 'draft',
      fields: FIELDS,
      ui: { layout: 'one-by-one' },
    });
    const first = await t.request({
      method: 'GET',
      url: `/f/${form.id}?preview=1`,
      headers: { cookie: session },
    });
    expect(first.status).toBe(200);
    expect(first.text).not.toContain('value="save"');
    const second = await t.request({
      method: 'POST',
      url: `/f/${form.id}?preview=1`,
      body: new URLSearchParams({
        _question: 'name',
        _session: 's',
        name: 'Ada',
        _action: 'next',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session },
    });
    expect(second.status).toBe(200);
    expect(resumeCookie(second)).toBeUndefined();
    const partials = await t.app.intake.database.db
      .selectFrom('submissions')
      .select('id')
      .where('form_id', '=', form.id)
      .execute();
    expect(partials).toEqual([]);
  });

  it('counts a completion, not a partial, against maxSubmissions; a completion refused keeps its answers', async () => {
    const form = await stepsForm({ access: { maxSubmissions: 1 } });
    const ada = await answered(form.id, [{ name: 'Ada' }, { topic: 'sales' }, { email: 'ada@example.com' }]);
    const bob = await answered(form.id, [{ name: 'Bob' }, { topic: 'sales' }, { email: 'bob@example.com' }]);
    expect(await responses(form.id, 'partial')).toHaveLength(2);
    expect((await post(form.id, { ...hiddenInputs(ada), _action: 'submit' })).status).toBe(200);
    const late = await post(form.id, { ...hiddenInputs(bob), _action: 'submit' });
    expect(late.status).toBe(403);
    expect(late.text).toContain('It has received all the responses it can take.');
    expect(await responses(form.id)).toHaveLength(1);
    expect((await responses(form.id, 'partial')).map((partial) => partial.answers.name)).toEqual(['Bob']);
  });

  it('completes a partial once when two devices send it at the same time', async () => {
    const form = await stepsForm();
    const page = await answered(form.id, [{ name: 'Ada' }, { topic: 'sales' }, { email: 'ada@example.com' }]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    const [partial] = await responses(form.id, 'partial');
    // the same page on a second device: the link opened there, another session and key
    const other = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    const [one, two] = await Promise.all([
      post(form.id, { ...hiddenInputs(page), notes: 'first', _action: 'submit' }),
      post(form.id, { ...hiddenInputs(other), notes: 'second', _action: 'submit' }),
    ]);
    // one completes; the other, sent while it was completing or after, is told on its page that
    // the answers were sent already: one response, never a second use of the id, never a 5xx
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    expect([one, two].find((page) => page.status === 400)?.text).toContain('This form was sent already');
    const stored = await responses(form.id);
    expect(stored.map((submission) => submission.id)).toEqual([partial?.id]);
  });

  it('completes a partial once when a second device sends it later: that one is told it was sent already', async () => {
    const form = await stepsForm();
    const page = await answered(form.id, [{ name: 'Ada' }, { topic: 'sales' }, { email: 'ada@example.com' }]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    const [partial] = await responses(form.id, 'partial');
    // the link opened on a second device before the first finished
    const other = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    const first = await post(form.id, { ...hiddenInputs(page), notes: 'first', _action: 'submit' });
    expect(first.status, first.text).toBe(200);
    const later = await post(form.id, { ...hiddenInputs(other), notes: 'second', _action: 'submit' });
    expect(later.status).toBe(400);
    expect(later.text).toContain('This form was sent already');
    const stored = await responses(form.id);
    expect(stored.map((submission) => submission.id)).toEqual([partial?.id]);
    expect(stored[0]?.answers).toMatchObject({ notes: 'first' });
    // the link itself resumes nothing any more; a new visit starts afresh
    expect((await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` })).status).toBe(404);
    expect((await t.request({ method: 'GET', url: `/f/${form.id}` })).status).toBe(200);
  });

  it('says so on the next page when a second device goes on after the link was finished: going on is a new response', async () => {
    const form = await stepsForm();
    const page = await answered(form.id, [{ name: 'Ada' }]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    // the link opened on a second device (at the topic), then finished on the first
    const other = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    expect(title(other)).toBe('Question 2 of 4 – Steps');
    const last = await answered(form.id, [{ topic: 'sales' }, { email: 'ada@example.com' }], {
      cookie: `intake_resume=${token}`,
    });
    const first = await post(form.id, { ...hiddenInputs(last), notes: 'first', _action: 'submit' });
    expect(first.status, first.text).toBe(200);
    const [sent] = await responses(form.id);

    // the second device's next page says so, and its answers go on under a token of their own
    const next = await post(form.id, { ...hiddenInputs(other), topic: 'support', _action: 'next' });
    expect(next.status).toBe(200);
    expect(title(next)).toBe('Question 3 of 4 – Steps');
    expect(next.text).toContain('This form was sent already');
    const fresh = resumeCookie(next)?.value;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token);
    expect(hiddenInputs(next)._resume).toEqual([fresh]);
    const [partial] = await responses(form.id, 'partial');
    expect(partial).toMatchObject({ answers: { name: 'Ada', topic: 'support' } });
    expect(partial?.id).not.toBe(sent?.id);
    // said once: the page after goes on without it
    const after = await post(form.id, { ...hiddenInputs(next), email: 'ada@example.com', _action: 'next' });
    expect(after.text).not.toContain('This form was sent already');
    // sent, it is a second response, the first one untouched
    const done = await post(form.id, { ...hiddenInputs(after), notes: 'second', _action: 'submit' });
    expect(done.status, done.text).toBe(200);
    const stored = await responses(form.id);
    expect(stored.map((submission) => submission.answers.notes).sort()).toEqual(['first', 'second']);
    expect(stored.find((submission) => submission.id === sent?.id)?.answers).toMatchObject({
      topic: 'sales',
    });
  });

  it('says so too when that second device saves for later: the link it gets is a new one', async () => {
    const form = await stepsForm();
    const page = await answered(form.id, [{ name: 'Ada' }]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    const other = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    const last = await answered(form.id, [{ topic: 'sales' }, { email: 'ada@example.com' }], {
      cookie: `intake_resume=${token}`,
    });
    expect((await post(form.id, { ...hiddenInputs(last), _action: 'submit' })).status).toBe(200);
    const saved = await post(form.id, { ...hiddenInputs(other), topic: 'support', _action: 'save' });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('This form was sent already');
    const fresh = resumeCookie(saved)?.value;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(token);
    expect(saved.text).toContain(`resume=${fresh}`);
  });

  it('deletes a partial 30 days after its last save (the retention job), and nothing else', async () => {
    const form = await stepsForm();
    await answered(form.id, [{ name: 'Old' }]);
    const counts = await runRetention(t.app.intake.database, new Date(Date.now() + 29 * 86_400_000));
    expect(counts.partials).toBe(0);
    expect(await responses(form.id, 'partial')).toHaveLength(1);
    const later = await runRetention(t.app.intake.database, new Date(Date.now() + 31 * 86_400_000));
    expect(later.partials).toBeGreaterThanOrEqual(1);
    expect(await responses(form.id, 'partial')).toEqual([]);
    const progress = await t.app.intake.database.db
      .selectFrom('partial_progress')
      .select('submission_id')
      .where('form_id', '=', form.id)
      .execute();
    expect(progress).toEqual([]);
  });

  it('forgets a completed partial’s token when it would have expired (the retention job)', async () => {
    const form = await stepsForm();
    const page = await answered(form.id, [{ name: 'Ada' }, { topic: 'sales' }, { email: 'ada@example.com' }]);
    expect((await post(form.id, { ...hiddenInputs(page), _action: 'submit' })).status).toBe(200);
    const tokens = () =>
      t.app.intake.database.db
        .selectFrom('completed_progress')
        .select('submission_id')
        .where('form_id', '=', form.id)
        .execute();
    expect(await tokens()).toHaveLength(1);
    expect(
      (await runRetention(t.app.intake.database, new Date(Date.now() + 29 * 86_400_000))).completedTokens,
    ).toBe(0);
    expect(await tokens()).toHaveLength(1);
    const later = await runRetention(t.app.intake.database, new Date(Date.now() + 31 * 86_400_000));
    expect(later.completedTokens).toBeGreaterThanOrEqual(1);
    expect(await tokens()).toEqual([]);
    // the submission it completed stays
    expect(await responses(form.id)).toHaveLength(1);
  });

  it('keeps nothing of a robot’s steps (its honeypot filled), and refuses its Save', async () => {
    const form = await stepsForm({ spamProtection: { honeypot: { field: 'website_hp' }, action: 'reject' } });
    const first = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const step = await post(form.id, {
      ...hiddenInputs(first),
      name: 'Bot',
      website_hp: 'spam.example',
      _action: 'next',
    });
    expect(step.status).toBe(200);
    expect(resumeCookie(step)).toBeUndefined();
    const saved = await post(form.id, {
      ...hiddenInputs(step),
      topic: 'sales',
      website_hp: 'x',
      _action: 'save',
    });
    expect(saved.status).toBe(400);
    expect(saved.headers['content-type']).toContain('text/html');
    expect(await responses(form.id, 'partial')).toEqual([]);
  });

  it('keeps nothing of a form that stores nothing (storage.mode "none"): no partial, no cookie, no Save', async () => {
    const form = await stepsForm({ storage: { mode: 'none' } });
    const first = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(first.status).toBe(200);
    expect(first.text).not.toContain('Save and continue later');
    const second = await post(form.id, { ...hiddenInputs(first), name: 'Ada', _action: 'next' });
    expect(title(second)).toBe('Question 2 of 4 – Steps');
    expect(resumeCookie(second)).toBeUndefined();
    expect(hiddenInputs(second)._resume).toBeUndefined();
    expect(second.text).not.toContain('Save and continue later');
    // a Save posted all the same is a step on: the answers ride in the page, nothing is kept
    const third = await post(form.id, { ...hiddenInputs(second), topic: 'sales', _action: 'save' });
    expect(third.status).toBe(200);
    expect(title(third)).toBe('Question 3 of 4 – Steps');
    expect(resumeCookie(third)).toBeUndefined();
    const rows = await t.app.intake.database.db
      .selectFrom('submissions')
      .select('id')
      .where('form_id', '=', form.id)
      .execute();
    expect(rows).toEqual([]);
    // and the answers carried in the page still make the submission at the end (forwarded, not stored)
    const fourth = await post(form.id, { ...hiddenInputs(third), email: 'ada@example.com', _action: 'next' });
    const done = await post(form.id, { ...hiddenInputs(fourth), _action: 'next' });
    expect(done.status).toBe(200);
    expect(title(done)).toBe('Response sent – Steps');
  });

  it('counts new partials per address like submissions: past the limit the steps go on, unsaved', async () => {
    const limited = await createTestApp({ rateLimitPublic: 2 });
    try {
      const owner = await signup(limited);
      const form = await createForm(limited, owner.token, {
        title: 'Steps',
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'one-by-one' },
      });
      const stepOnce = async () => {
        const first = await limited.request({ method: 'GET', url: `/f/${form.id}` });
        const body = new URLSearchParams({
          ...Object.fromEntries(Object.entries(hiddenInputs(first)).map(([k, v]) => [k, v[0] ?? ''])),
          name: 'Ada',
          _action: 'next',
        });
        return limited.request({
          method: 'POST',
          url: `/f/${form.id}`,
          body: body.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
      };
      const pages = [await stepOnce(), await stepOnce(), await stepOnce()];
      expect(pages.map((page) => page.status)).toEqual([200, 200, 200]);
      expect(pages.map((page) => resumeCookie(page) !== undefined)).toEqual([true, true, false]);
      // a session that has its partial goes on saving into it
      const second = pages[1] as Response;
      const third = await limited.request({
        method: 'POST',
        url: `/f/${form.id}`,
        body: new URLSearchParams({
          ...Object.fromEntries(Object.entries(hiddenInputs(second)).map(([k, v]) => [k, v[0] ?? ''])),
          topic: 'sales',
          _action: 'next',
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(resumeCookie(third)?.value).toBe(resumeCookie(second)?.value);
      const rows = await limited.app.intake.database.db
        .selectFrom('submissions')
        .select('status')
        .where('form_id', '=', form.id)
        .execute();
      expect(rows).toEqual([{ status: 'partial' }, { status: 'partial' }]);
    } finally {
      await limited.close();
    }
  });

  it('resumes after the form changed: the answers that still fit kept, the others left out and said so', async () => {
    const form = await stepsForm();
    const page = await answered(form.id, [
      { name: 'Ada' },
      { topic: 'support' },
      { email: 'ada@example.com' },
    ]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    // the owner takes the option "support" away, and the e-mail question with it
    const changed = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: user.token,
      body: {
        fields: [FIELDS[0], { ...FIELDS[1], options: ['sales', 'billing'] }, FIELDS[3]],
      },
    });
    expect(changed.status, changed.text).toBe(200);
    const resumed = await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` });
    expect(resumed.status).toBe(200);
    expect(controls(resumed)).toEqual(['topic']);
    expect(resumed.text).toContain(
      '<p class="form-notice" role="status">This form has changed since your answers were saved: those that no longer fit it were left out. Please check them.</p>',
    );
    expect(hiddenInputs(resumed)).toMatchObject({ name: ['Ada'] });
    expect(hiddenInputs(resumed).email).toBeUndefined();
    // an unchanged form says nothing of the kind
    const other = await stepsForm();
    const kept = await answered(other.id, [{ name: 'Bob' }]);
    const again = await t.request({
      method: 'GET',
      url: `/f/${other.id}?resume=${hiddenInputs(kept)._resume?.[0]}`,
    });
    expect(again.text).not.toContain('form-notice');
    // finished on the changed form: the answers it takes, under the partial's id
    const last = await post(form.id, { ...hiddenInputs(resumed), topic: 'billing', _action: 'next' });
    const done = await post(form.id, { ...hiddenInputs(last), _action: 'submit' });
    expect(done.status).toBe(200);
    expect((await responses(form.id)).map((response) => response.answers)).toEqual([
      { name: 'Ada', topic: 'billing' },
    ]);
  });

  it('takes no other form’s token, nor one past its 30 days that retention has not deleted yet', async () => {
    const form = await stepsForm();
    const other = await stepsForm();
    const page = await answered(form.id, [{ name: 'Ada' }]);
    const token = hiddenInputs(page)._resume?.[0] ?? '';
    // another form's link: no partial of that form, a readable 404; its own form still resumes
    const elsewhere = await t.request({ method: 'GET', url: `/f/${other.id}?resume=${token}` });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toContain('This link no longer continues the form');
    expect((await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` })).status).toBe(200);
    // past its expiry, before the retention job came by: gone for the respondent all the same
    await t.app.intake.database.db
      .updateTable('partial_progress')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('form_id', '=', form.id)
      .execute();
    expect((await t.request({ method: 'GET', url: `/f/${form.id}?resume=${token}` })).status).toBe(404);
    // and a post carrying it saves into a new partial, never the expired one
    const first = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const next = await post(form.id, {
      ...hiddenInputs(first),
      _resume: token,
      name: 'Eve',
      _action: 'next',
    });
    expect(resumeCookie(next)?.value).not.toBe(token);
    const partials = await responses(form.id, 'partial');
    expect(partials.map((partial) => partial.answers.name).sort()).toEqual(['Ada', 'Eve']);
  });
});
