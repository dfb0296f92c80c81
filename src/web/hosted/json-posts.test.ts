import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, storedCount } from '../../../test/support/assertions.js';
import { type CaptchaVerifier, startCaptchaVerifier } from '../../../test/support/captcha-verifier.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { multipart, type Part, PDF } from '../../../test/support/multipart.js';

/**
 * API.md §12: "A form post asking for JSON (`Accept: application/json`) is answered like the JSON
 * submit (201 body or problem document)", on the hosted page `/f/{id}` as on
 * `POST /forms/{id}/submit`: stored, refused, closed, locked, answered already, files in the post;
 * and an Idempotency-Key sent again with the same multipart post (new uploads of the same bytes)
 * is the same request on both.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
];
const JSON_ACCEPT = { accept: 'application/json' };

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
  owner = await signup(t);
});
afterAll(() => t.close());

/** The states of a form's file rows (uploads and attached files alike). */
const fileStates = (formId: string) =>
  t.app.intake.database.db.selectFrom('files').select('state').where('form_id', '=', formId).execute();

describe('a post to the hosted page that asks for JSON', () => {
  const liveForm = (overrides: Record<string, unknown> = {}) =>
    createForm(t, owner.token, { status: 'live', fields: FIELDS, ui: { layout: 'classic' }, ...overrides });

  const post = (formId: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: `/f/${formId}`,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  /** A multipart post to the hosted page that asks for JSON. */
  const postParts = (formId: string, parts: Part[], headers: Record<string, string> = {}) => {
    const body = multipart(parts);
    return t.request({
      method: 'POST',
      url: `/f/${formId}`,
      body: body.body,
      headers: { ...body.headers, ...JSON_ACCEPT, ...headers },
    });
  };

  /** The file rows of a form (uploads and attached files alike). */
  const fileRows = (formId: string) =>
    t.app.intake.database.db
      .selectFrom('files')
      .select(['id', 'state'])
      .where('form_id', '=', formId)
      .execute();

  const isJson = (response: Response, type = 'application/json') =>
    expect(response.headers['content-type']).toMatch(new RegExp(`^${type.replace('+', '\\+')}`));

  it('stores the answers and answers 201 with the JSON submit’s body, its rate-limit headers too', async () => {
    const form = await liveForm();
    const response = await post(form.id, { name: 'Ada', email: 'ada@example.com' }, JSON_ACCEPT);
    expect(response.status).toBe(201);
    isJson(response);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^sub_/),
      formId: form.id,
      environment: 'development',
      status: 'accepted',
      createdAt: expect.any(String),
    });
    expect(response.headers['ratelimit-limit']).toBeDefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await storedCount(t, form.id)).toBe(1);
    const stored = await t.request({
      method: 'GET',
      url: `/responses/${response.body.id}?environment=development&form_id=${form.id}`,
      auth: owner.token,
    });
    expect(stored.body.answers).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('a browser’s Accept (HTML first) still gets the thank-you page', async () => {
    const form = await liveForm();
    const response = await post(
      form.id,
      { name: 'Ada', email: 'ada@example.com' },
      { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    );
    expect(response.status).toBe(200);
    isJson(response, 'text/html');
  });

  it('refuses invalid answers with 400 validation_failed naming each field, and stores nothing', async () => {
    const form = await liveForm();
    const response = await post(form.id, { name: '', email: 'not an address' }, JSON_ACCEPT);
    expectProblem(response, 400, 'validation_failed');
    isJson(response, 'application/problem+json');
    const fields = response.body.errors.map((error: { field: string }) => error.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'email']));
    expect(await storedCount(t, form.id)).toBe(0);
  });

  it('judges a one-by-one form whole: every answer in one post is one submission', async () => {
    const form = await liveForm({ ui: { layout: 'one-by-one' } });
    const response = await post(form.id, { name: 'Ada', email: 'ada@example.com' }, JSON_ACCEPT);
    expect(response.status).toBe(201);
    expect(response.body.status).toBe('accepted');
    const missing = await post(form.id, { name: 'Ada' }, JSON_ACCEPT);
    expectProblem(missing, 400, 'validation_failed');
    expect(missing.body.errors.map((error: { field: string }) => error.field)).toEqual(['email']);
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('an unknown form is 404 not_found as a problem document', async () => {
    const response = await post('frm_nothing_here', { name: 'Ada' }, JSON_ACCEPT);
    expectProblem(response, 404, 'not_found');
    isJson(response, 'application/problem+json');
  });

  it('a closed form is 403 form_closed with its reason', async () => {
    const form = await liveForm({ access: { closesAt: new Date(Date.now() - 60_000).toISOString() } });
    const response = await post(form.id, { name: 'Ada', email: 'ada@example.com' }, JSON_ACCEPT);
    expectProblem(response, 403, 'form_closed');
    expect(response.body.reason).toBe('closed');
  });

  it('a password form takes X-Form-Password as the API does: missing or wrong is 401 password_required', async () => {
    const form = await liveForm({ access: { password: 'letmein 42' } });
    const answers = { name: 'Ada', email: 'ada@example.com' };
    const missing = await post(form.id, answers, JSON_ACCEPT);
    expectProblem(missing, 401, 'password_required');
    const wrong = await post(form.id, answers, { ...JSON_ACCEPT, 'x-form-password': 'guess' });
    expectProblem(wrong, 401, 'password_required');
    expect(await storedCount(t, form.id)).toBe(0);
    const right = await post(form.id, answers, { ...JSON_ACCEPT, 'x-form-password': 'letmein 42' });
    expect(right.status).toBe(201);
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('one per e-mail: a second address is 409 already_submitted', async () => {
    const form = await liveForm({ access: { oncePer: 'email', emailField: 'email' } });
    expect((await post(form.id, { name: 'Ada', email: 'ada@example.com' }, JSON_ACCEPT)).status).toBe(201);
    const again = await post(form.id, { name: 'Ada', email: 'ADA@example.com' }, JSON_ACCEPT);
    expectProblem(again, 409, 'already_submitted');
  });

  it('one per browser: the answer sets the cookie, and a post with it is 409 already_submitted', async () => {
    const form = await liveForm({ access: { oncePer: 'browser' } });
    const first = await post(form.id, { name: 'Ada', email: 'ada@example.com' }, JSON_ACCEPT);
    expect(first.status).toBe(201);
    const cookie = [first.headers['set-cookie'] ?? []]
      .flat()
      .find((line) => line.startsWith('intake_answered='));
    expect(cookie).toBeDefined();
    const again = await post(
      form.id,
      { name: 'Ada', email: 'ada@example.com' },
      { ...JSON_ACCEPT, cookie: cookie?.split(';')[0] ?? '' },
    );
    expectProblem(again, 409, 'already_submitted');
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('the same Idempotency-Key and answers give the first result; other answers under it are 409', async () => {
    const form = await liveForm();
    const headers = { ...JSON_ACCEPT, 'idempotency-key': 'json-page-1' };
    const first = await post(form.id, { name: 'Ada', email: 'ada@example.com' }, headers);
    const again = await post(form.id, { name: 'Ada', email: 'ada@example.com' }, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const other = await post(form.id, { name: 'Bob', email: 'bob@example.com' }, headers);
    expectProblem(other, 409, 'conflict');
    expect(await storedCount(t, form.id)).toBe(1);
  });

  it('a form that is not live is 404 as a problem document, as the page would be the 404 page', async () => {
    const form = await createForm(t, owner.token, { status: 'draft', fields: FIELDS });
    expectProblem(
      await post(form.id, { name: 'Ada', email: 'ada@example.com' }, JSON_ACCEPT),
      404,
      'not_found',
    );
  });

  it('a filled honeypot (action reject) is 400 spam_detected, nothing stored', async () => {
    const form = await liveForm({ spamProtection: { honeypot: { field: 'website_hp' }, action: 'reject' } });
    const response = await post(
      form.id,
      { name: 'Bot', email: 'bot@example.com', website_hp: 'spam.example' },
      JSON_ACCEPT,
    );
    expectProblem(response, 400, 'spam_detected');
    expect(await storedCount(t, form.id)).toBe(0);
  });

  it('a password form unlocked in this browser (its cookie) takes the post without the header', async () => {
    const form = await liveForm({ access: { password: 'letmein 42' } });
    const unlocked = await post(form.id, { _password: 'letmein 42' });
    expect(unlocked.status).toBe(303);
    const cookie = [unlocked.headers['set-cookie'] ?? []]
      .flat()
      .find((line) => line.startsWith('intake_unlocked='));
    expect(cookie).toBeDefined();
    const response = await post(
      form.id,
      { name: 'Ada', email: 'ada@example.com' },
      { ...JSON_ACCEPT, cookie: cookie?.split(';')[0] ?? '' },
    );
    expect(response.status, response.text).toBe(201);
  });

  it('a JSON body is the submit route’s: 415, naming it', async () => {
    const form = await liveForm();
    const response = await t.request({
      method: 'POST',
      url: `/f/${form.id}`,
      headers: JSON_ACCEPT,
      body: { answers: { name: 'Ada', email: 'ada@example.com' } },
    });
    expectProblem(response, 415, 'unsupported_media_type');
    expect(response.body.detail).toContain(`/forms/${form.id}/submit`);
    expect(await storedCount(t, form.id)).toBe(0);
  });

  describe('with files in the post (multipart)', () => {
    const fileForm = () =>
      liveForm({
        fields: [
          { id: 'name', type: 'text', label: 'Your name', required: true },
          { id: 'cv', type: 'file', label: 'Your CV', maxFileSize: 5000, accept: ['.pdf'] },
        ],
      });
    const postFile = (formId: string, content: Buffer, headers: Record<string, string> = {}) =>
      postParts(
        formId,
        [
          { name: 'name', value: 'Ada' },
          { name: 'cv', filename: 'cv.pdf', content, type: 'application/pdf' },
        ],
        headers,
      );

    it('stores the file with the submission: 201 JSON, its descriptor in the answers', async () => {
      const form = await fileForm();
      const response = await postFile(form.id, PDF);
      expect(response.status).toBe(201);
      isJson(response);
      const stored = await t.request({
        method: 'GET',
        url: `/responses/${response.body.id}?environment=development&form_id=${form.id}`,
        auth: owner.token,
      });
      expect(stored.body.answers.cv).toEqual([
        expect.objectContaining({ name: 'cv.pdf', type: 'application/pdf', size: PDF.length }),
      ]);
      expect(await fileRows(form.id)).toEqual([expect.objectContaining({ state: 'attached' })]);
    });

    it('a file refused for its field is 400 validation_failed naming it, and nothing is kept', async () => {
      const form = await fileForm();
      const response = await postFile(form.id, Buffer.concat([PDF, Buffer.alloc(6000, 0x20)]));
      expectProblem(response, 400, 'validation_failed');
      expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(['cv']);
      expect(await storedCount(t, form.id)).toBe(0);
      expect(await fileRows(form.id)).toEqual([]);
    });

    it('a file refused and an answer missing are both listed, as a page lists them', async () => {
      const form = await fileForm();
      const response = await postParts(form.id, [
        { name: 'name', value: '' },
        { name: 'cv', filename: 'cv.exe', content: Buffer.from('MZ not a pdf'), type: 'application/pdf' },
      ]);
      expectProblem(response, 400, 'validation_failed');
      expect(response.body.errors.map((error: { field: string }) => error.field).sort()).toEqual([
        'cv',
        'name',
      ]);
      expect(await fileRows(form.id)).toEqual([]);
    });

    it('a closed form is 403 form_closed, and keeps no file of the post (judged before the body is read)', async () => {
      const form = await liveForm({
        fields: [{ id: 'cv', type: 'file', label: 'Your CV', accept: ['.pdf'] }],
        access: { closesAt: new Date(Date.now() - 60_000).toISOString() },
      });
      const response = await postParts(form.id, [
        { name: 'cv', filename: 'cv.pdf', content: PDF, type: 'application/pdf' },
      ]);
      expectProblem(response, 403, 'form_closed');
      expect(await fileRows(form.id)).toEqual([]);
    });

    it('refused answers beside a good file keep nothing of the file', async () => {
      const form = await fileForm();
      const response = await postParts(form.id, [
        { name: 'name', value: '' },
        { name: 'cv', filename: 'cv.pdf', content: PDF, type: 'application/pdf' },
      ]);
      expectProblem(response, 400, 'validation_failed');
      expect(await fileRows(form.id)).toEqual([]);
    });

    it('the same post sent again under its Idempotency-Key is the first result, its new upload thrown away', async () => {
      const form = await fileForm();
      const key = { 'idempotency-key': 'json-page-files-1' };
      const first = await postFile(form.id, PDF, key);
      const again = await postFile(form.id, PDF, key);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await storedCount(t, form.id)).toBe(1);
      expect(await fileRows(form.id)).toEqual([expect.objectContaining({ state: 'attached' })]);
      // other bytes under the key are another request
      const other = await postFile(form.id, Buffer.concat([PDF, Buffer.from('%changed\n')]), key);
      expectProblem(other, 409, 'conflict');
      expect(await fileRows(form.id)).toHaveLength(1);
    });
  });
});

describe('a page’s multipart post sent twice (its own idempotency key, the same file)', () => {
  it('is one submission: the thank-you page both times, the second post’s upload thrown away', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      ui: { layout: 'classic' },
      fields: [
        { id: 'name', type: 'text', label: 'Your name', required: true },
        { id: 'cv', type: 'file', label: 'Your CV', accept: ['.pdf'] },
      ],
    });
    const send = () => {
      const body = multipart([
        { name: '_session', value: 'page-session-1' },
        { name: '_idempotency', value: 'page-key-1' },
        { name: 'name', value: 'Ada' },
        { name: 'cv', filename: 'cv.pdf', content: PDF, type: 'application/pdf' },
      ]);
      return t.request({ method: 'POST', url: `/f/${form.id}`, body: body.body, headers: body.headers });
    };
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toContain('Thank you');
    expect(await storedCount(t, form.id)).toBe(1);
    expect(await fileStates(form.id)).toEqual([{ state: 'attached' }]);
  });
});

describe('a multipart submit to POST /forms/{id}/submit sent again under its Idempotency-Key', () => {
  it('is the same request: the first result, one submission, the retry’s upload thrown away', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'cv', type: 'file', label: 'Your CV', accept: ['.pdf'] }],
    });
    const send = (content: Buffer) => {
      const body = multipart([{ name: 'cv', filename: 'cv.pdf', content, type: 'application/pdf' }]);
      return t.request({
        method: 'POST',
        url: `/forms/${form.id}/submit`,
        body: body.body,
        headers: { ...body.headers, ...JSON_ACCEPT, 'idempotency-key': 'multipart-retry-1' },
      });
    };
    const first = await send(PDF);
    const again = await send(PDF);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await storedCount(t, form.id)).toBe(1);
    expect(await fileStates(form.id)).toEqual([{ state: 'attached' }]);
    const other = await send(Buffer.concat([PDF, Buffer.from('%changed\n')]));
    expectProblem(other, 409, 'conflict');
  });
});

describe('a CAPTCHA form posted to the hosted page asking for JSON', () => {
  let app: TestApp;
  let verifier: CaptchaVerifier;

  beforeAll(async () => {
    // a CAPTCHA provider on loopback: the token "good" is a solved CAPTCHA
    verifier = await startCaptchaVerifier((token) => token === 'good');
    const { url } = verifier;
    app = await createTestApp({ captchaVerifyUrls: { turnstile: url, hcaptcha: url, recaptcha: url } });
  });
  afterAll(async () => {
    await app?.close();
    await verifier?.close();
  });

  it('takes the widget’s token from the post: solved is 201, unsolved or missing 400 spam_detected', async () => {
    const user = await signup(app);
    const form = await createForm(app, user.token, {
      status: 'live',
      fields: FIELDS,
      spamProtection: {
        captcha: { provider: 'turnstile', siteKey: 'site', secret: 'shh' },
        action: 'reject',
      },
    });
    const post = (extra: Record<string, string>) =>
      app.request({
        method: 'POST',
        url: `/f/${form.id}`,
        body: new URLSearchParams({ name: 'Ada', email: 'ada@example.com', ...extra }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...JSON_ACCEPT },
      });
    const solved = await post({ 'cf-turnstile-response': 'good' });
    expect(solved.status, solved.text).toBe(201);
    expect(solved.body).toMatchObject({ formId: form.id, status: 'accepted' });
    expect(verifier.verified.at(-1)).toBe('good');
    expectProblem(await post({ 'cf-turnstile-response': 'bad' }), 400, 'spam_detected');
    expect(verifier.verified.at(-1)).toBe('bad');
    expectProblem(await post({}), 400, 'spam_detected');
    expect(await storedCount(app, form.id)).toBe(1);
  });
});
