import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { type CaptchaVerifier, startCaptchaVerifier } from '../../../test/support/captcha-verifier.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';

/** HTML form posts to POST /forms/{id}/submit (API.md §6.1): urlencoded and multipart. */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Your name', required: true },
  { id: 'email', type: 'email', label: 'E-mail' },
  { id: 'age', type: 'number', label: 'Age' },
  { id: 'stars', type: 'rating', label: 'Stars' },
  { id: 'agree', type: 'checkbox', label: 'I agree' },
  { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['a', 'b', 'c'] },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
];

const URLENCODED = { 'content-type': 'application/x-www-form-urlencoded' };
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let t: TestApp;
let verifier: CaptchaVerifier;

beforeAll(async () => {
  // A CAPTCHA provider on loopback: the token "good" is a solved CAPTCHA.
  verifier = await startCaptchaVerifier((token) => token === 'good');
  const { url } = verifier;
  // more posts from one address than a minute's default limit: this file is about what a post does
  t = await createTestApp({
    captchaVerifyUrls: { turnstile: url, hcaptcha: url, recaptcha: url },
    rateLimitPublic: 1_000_000,
  });
});

afterAll(async () => {
  await t?.close();
  await verifier?.close();
});

async function liveForm(user: TestUser, overrides: Record<string, unknown> = {}) {
  return createForm(t, user.token, { status: 'live', fields: FIELDS, ...overrides });
}

function post(formId: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
  return t.request({
    method: 'POST',
    url: `/forms/${formId}/submit`,
    body,
    headers: { ...URLENCODED, accept: BROWSER_ACCEPT, ...headers },
  });
}

/** A multipart/form-data body of text fields (and files: [name, filename, content]). */
function multipart(fields: Array<[string, string]>, files: Array<[string, string, string]> = []) {
  const boundary = '----intake-test-boundary';
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  for (const [name, filename, content] of files) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
        `Content-Type: text/plain\r\n\r\n${content}\r\n`,
    );
  }
  return {
    body: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function responses(user: TestUser, formId: string, query = ''): Promise<any[]> {
  const response = await t.request({
    method: 'GET',
    url: `/responses?form_id=${formId}&environment=development${query}`,
    auth: user.token,
  });
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

function expectHtml(response: Response, status: number): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.text).toMatch(/^<!doctype html>/);
  expect(response.headers['content-security-policy']).toContain("default-src 'none'");
}

describe('application/x-www-form-urlencoded', () => {
  it('stores each form field as an answer and answers with the HTML thank-you page', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await post(
      form.id,
      'name=Jane+Doe&email=jane%40example.com&age=42&stars=4&agree=on&tags=a&tags=c&topic=sales',
    );
    expectHtml(response, 201);
    expect(response.text).toContain('Thank you! Your response has been recorded.');

    const [stored] = await responses(user, form.id);
    expect(stored.answers).toEqual({
      name: 'Jane Doe',
      email: 'jane@example.com',
      age: 42,
      stars: 4,
      agree: true,
      tags: ['a', 'c'],
      topic: 'sales',
    });
    expect(stored.status).toBe('accepted');
  });

  it.each([
    ['tags=b', ['b']],
    ['tags%5B%5D=b', ['b']],
    ['tags%5B%5D=a&tags%5B%5D=b', ['a', 'b']],
    ['tags=&tags=a&tags=b', ['a', 'b']],
  ])('makes arrays of repeated names and of a multiple select: %s', async (body, tags) => {
    const user = await signup(t);
    const form = await liveForm(user);
    expectHtml(await post(form.id, `name=Jo&${body}`), 201);
    const [stored] = await responses(user, form.id);
    expect(stored.answers.tags).toEqual(tags);
  });

  it.each([
    ['age=7', { age: 7 }],
    ['age=-2.5', { age: -2.5 }],
    ['age=+1e3', { age: 1000 }],
    ['age=.5', { age: 0.5 }],
    ['age=%2012%20', { age: 12 }],
    ['age=', {}],
    ['stars=5', { stars: 5 }],
    ['agree=true', { agree: true }],
    ['agree=1', { agree: true }],
    ['agree=ON', { agree: true }],
    ['agree=false', { agree: false }],
    ['agree=0&agree=1', { agree: true }],
    ['agree=1&agree=0', { agree: false }],
  ])('parses numbers, ratings and checkboxes: %s', async (body, expected) => {
    const user = await signup(t);
    const form = await liveForm(user);
    expectHtml(await post(form.id, `name=Jo&${body}`), 201);
    const [stored] = await responses(user, form.id);
    expect(stored.answers).toEqual({ name: 'Jo', ...expected });
  });

  it.each([
    ['age=12abc', 'age', 'type'],
    ['age=0x10', 'age', 'type'],
    ['stars=9', 'stars', 'maximum'],
    ['agree=maybe', 'agree', 'type'],
    ['topic=a&topic=b', 'topic', 'type'],
    ['extra=1', 'extra', 'unknown_field'],
    ['__proto__=x', '__proto__', 'unknown_field'],
  ])('text that does not fit the field is a validation error: %s', async (body, field, code) => {
    const user = await signup(t);
    const form = await liveForm(user);
    const json = await post(form.id, `name=Jo&${body}`, { accept: 'application/json' });
    expectProblem(json, 400, 'validation_failed');
    expect(json.body.errors).toEqual([expect.objectContaining({ field, code })]);
    expect(await responses(user, form.id)).toEqual([]);
  });

  it('answers a validation failure with an HTML page listing every error by label, nothing stored', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await post(form.id, 'email=not-an-address&age=old');
    expectHtml(response, 400);
    expect(response.text).toContain('Please correct the form');
    expect(response.text).toContain('<li><strong>Your name</strong>: Answer this question</li>');
    expect(response.text).toContain('<strong>E-mail</strong>: Enter an e-mail address like name@example.com');
    expect(response.text).toContain('<strong>Age</strong>: Enter a number');
    expect(response.text).toContain('<code>validation_failed</code>');
    expect(await responses(user, form.id)).toEqual([]);
  });

  it('answers other refusals of a form post with an HTML page of the same status', async () => {
    const user = await signup(t);
    const closed = await createForm(t, user.token, { status: 'disabled', fields: FIELDS });
    const response = await post(closed.id, 'name=Jo');
    expectHtml(response, 403);
    expect(response.text).toContain('<code>form_closed</code>');

    const missing = await post('no-such-form', 'name=Jo');
    expectHtml(missing, 404);
    expect(missing.text).toContain('<code>not_found</code>');
  });

  it('reads the honeypot from the top level of the post and never stores it', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { spamProtection: { honeypot: { field: 'website' }, action: 'flag' } });
    expectHtml(await post(form.id, 'name=Human&website='), 201);
    expectHtml(await post(form.id, 'name=Bot&website=http%3A%2F%2Fspam.example'), 201);

    const stored = await responses(user, form.id);
    const byName = Object.fromEntries(stored.map((s) => [s.answers.name, s]));
    expect(byName.Human.status).toBe('accepted');
    expect(byName.Bot.status).toBe('flagged');
    for (const submission of stored) expect(submission.answers).not.toHaveProperty('website');
  });

  it('refuses a filled-in honeypot with an HTML page when the action is reject', async () => {
    const user = await signup(t);
    const form = await liveForm(user, {
      spamProtection: { honeypot: { field: 'website' }, action: 'reject' },
    });
    const response = await post(form.id, 'name=Bot&website=x');
    expectHtml(response, 400);
    expect(response.text).toContain('<code>spam_detected</code>');
    expect(await responses(user, form.id)).toEqual([]);
  });

  it.each(['_captcha', 'cf-turnstile-response', 'h-captcha-response', 'g-recaptcha-response'])(
    'takes the CAPTCHA token from %s',
    async (name) => {
      const user = await signup(t);
      const form = await liveForm(user, {
        spamProtection: {
          captcha: { provider: 'turnstile', siteKey: 'site', secret: 'shh' },
          action: 'reject',
        },
      });
      expectHtml(await post(form.id, `name=Jo&${name}=good`), 201);
      expect(verifier.verified.at(-1)).toBe('good');
      expectHtml(await post(form.id, `name=Jo&${name}=bad`), 400);
      expectHtml(await post(form.id, 'name=Jo'), 400);
      const stored = await responses(user, form.id);
      expect(stored).toHaveLength(1);
      expect(stored[0].answers).toEqual({ name: 'Jo' });
    },
  );

  it('takes the session id from _session', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    expectHtml(await post(form.id, 'name=Jo&_session=sess-123'), 201);
    const [stored] = await responses(user, form.id);
    expect(stored.sessionId).toBe('sess-123');
    expect(stored.answers).toEqual({ name: 'Jo' });
  });

  it('shows ui.successMessage escaped', async () => {
    const user = await signup(t);
    const form = await liveForm(user, {
      ui: { successMessage: '<script>alert(1)</script> Thanks & "bye"' },
    });
    const response = await post(form.id, 'name=Jo');
    expectHtml(response, 201);
    // escaped by Preact, as every page is: `<` and `&` (and `"`) become entities, so no tag can open
    expect(response.text).toContain('&lt;script>alert(1)&lt;/script> Thanks &amp; &quot;bye&quot;');
    expect(response.text).not.toContain('<script>');
  });

  it('answers JSON to a client that asks for it', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl: 'https://example.com/thanks' } });
    const response = await post(form.id, 'name=Jo', { accept: 'application/json' });
    expect(response.status).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ formId: form.id, status: 'accepted', id: expect.any(String) });
  });
});

describe('redirects', () => {
  const redirectUrl = 'https://forms.example.com/thanks';

  it('answers 303 to ui.redirectUrl', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl } });
    const response = await post(form.id, 'name=Jo');
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe(redirectUrl);
    expect(await responses(user, form.id)).toHaveLength(1);
  });

  it.each([
    ['https://forms.example.com/other?x=1', 'https://forms.example.com/other?x=1'],
    ['/relative/page', 'https://forms.example.com/relative/page'],
    ['again', 'https://forms.example.com/again'],
  ])('follows a _redirect to the origin of ui.redirectUrl: %s', async (target, location) => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl } });
    const response = await post(form.id, `name=Jo&_redirect=${encodeURIComponent(target)}`);
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe(location);
    const [stored] = await responses(user, form.id);
    expect(stored.answers).toEqual({ name: 'Jo' });
  });

  it.each([
    ['https://evil.example/phish'],
    ['//evil.example/phish'],
    ['http://forms.example.com/thanks'],
    ['https://forms.example.com:8443/thanks'],
    ['javascript:alert(1)'],
    ['data:text/html,hi'],
  ])('refuses a _redirect elsewhere (%s) before storing anything', async (target) => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl } });
    const response = await post(form.id, `name=Jo&_redirect=${encodeURIComponent(target)}`, {
      accept: 'application/json',
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([expect.objectContaining({ field: '_redirect' })]);
    expect(await responses(user, form.id)).toEqual([]);
  });

  it.each([
    [
      'its own site’s page',
      { origin: 'https://shop.example' },
      'https://shop.example/thanks',
      'https://shop.example/thanks',
    ],
    [
      'a relative path, on its site',
      { origin: 'https://shop.example' },
      '/thanks?x=1',
      'https://shop.example/thanks?x=1',
    ],
    [
      'the Referer’s site when no Origin is sent',
      { referer: 'https://shop.example/contact.html' },
      '/merci',
      'https://shop.example/merci',
    ],
    [
      'the Referer’s site when the Origin is null',
      { origin: 'null', referer: 'https://shop.example/a' },
      'https://shop.example/b',
      'https://shop.example/b',
    ],
  ])(
    'follows a _redirect to the site the form was posted from (no ui.redirectUrl): %s',
    async (_name, headers, target, location) => {
      const user = await signup(t);
      const form = await liveForm(user);
      const response = await post(form.id, `name=Jo&_redirect=${encodeURIComponent(target)}`, headers);
      expect(response.status, response.text).toBe(303);
      expect(response.headers.location).toBe(location);
      expect(await responses(user, form.id)).toHaveLength(1);
    },
  );

  it.each([
    ['another site than the posting page', { origin: 'https://shop.example' }, 'https://evil.example/'],
    ['a page that names no site (Origin: null, no Referer)', { origin: 'null' }, 'https://shop.example/'],
    [
      'another site than the Referer’s (Origin: null)',
      { origin: 'null', referer: 'https://shop.example/x' },
      'https://evil.example/',
    ],
    ['the posting site on another scheme', { origin: 'https://shop.example' }, 'http://shop.example/thanks'],
  ])('refuses a _redirect to %s before storing anything', async (_name, headers, target) => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await post(form.id, `name=Jo&_redirect=${encodeURIComponent(target)}`, {
      ...headers,
      accept: 'application/json',
    });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([
      expect.objectContaining({ field: '_redirect', code: 'redirect_not_allowed' }),
    ]);
    expect(await responses(user, form.id)).toEqual([]);
  });

  it('with ui.redirectUrl, a _redirect may lead to either site: the posting page’s or the configured one’s', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl } });
    const response = await post(
      form.id,
      `name=Jo&_redirect=${encodeURIComponent('https://shop.example/ok')}`,
      {
        origin: 'https://shop.example',
      },
    );
    expect(response.status, response.text).toBe(303);
    expect(response.headers.location).toBe('https://shop.example/ok');
  });

  it('refuses any _redirect when the post names no site and the form has no ui.redirectUrl (no open redirect)', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await post(form.id, `name=Jo&_redirect=${encodeURIComponent('https://evil.example/')}`);
    expectHtml(response, 400);
    expect(response.headers.location).toBeUndefined();
    expect(response.text).toContain('_redirect');
    expect(await responses(user, form.id)).toEqual([]);
  });
});

describe('multipart/form-data', () => {
  it('stores text fields as answers, with arrays and parsed numbers', async () => {
    const user = await signup(t);
    const form = await liveForm(user, {
      spamProtection: { honeypot: { field: 'website' }, action: 'reject' },
    });
    const { body, headers } = multipart([
      ['name', 'Zoë, "the" tester'],
      ['age', '33'],
      ['agree', 'on'],
      ['tags', 'a'],
      ['tags', 'b'],
      ['website', ''],
      ['_session', 'mp-1'],
    ]);
    const response = await post(form.id, body, headers);
    expectHtml(response, 201);
    const [stored] = await responses(user, form.id);
    expect(stored.answers).toEqual({ name: 'Zoë, "the" tester', age: 33, agree: true, tags: ['a', 'b'] });
    expect(stored.sessionId).toBe('mp-1');
  });

  it('refuses file parts with 400 and stores nothing', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const { body, headers } = multipart([['name', 'Jo']], [['attachment', 'cv.txt', 'hello']]);
    const json = await post(form.id, body, { ...headers, accept: 'application/json' });
    expectProblem(json, 400, 'validation_failed');
    expect(json.body.errors).toEqual([
      expect.objectContaining({ field: 'attachment', code: 'file_not_accepted' }),
    ]);

    const html = await post(form.id, body, headers);
    expectHtml(html, 400);
    expect(await responses(user, form.id)).toEqual([]);
  });

  it('answers 303 to ui.redirectUrl', async () => {
    const user = await signup(t);
    const form = await liveForm(user, { ui: { redirectUrl: 'https://example.com/done' } });
    const { body, headers } = multipart([['name', 'Jo']]);
    const response = await post(form.id, body, headers);
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('https://example.com/done');
  });

  it('refuses a malformed multipart body with 400', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await post(form.id, 'not multipart at all', {
      'content-type': 'multipart/form-data',
      accept: 'application/json',
    });
    expectProblem(response, 400, 'validation_failed');
  });
});

describe('only the submit route takes form posts', () => {
  it('still takes JSON on the submit route', async () => {
    const user = await signup(t);
    const form = await liveForm(user);
    const response = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'Jo', age: 5 } },
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each([
    ['POST', '/auth/login', 'application/x-www-form-urlencoded', 'email=a%40b.c&password=x'],
    ['POST', '/forms', 'application/x-www-form-urlencoded', 'title=x'],
    ['POST', '/responses/sub_x/notes', 'application/x-www-form-urlencoded', 'text=hello'],
    ['POST', '/responses/sub_x/star', 'multipart/form-data; boundary=b', '--b--\r\n'],
    ['POST', '/auth/signup', 'multipart/form-data; boundary=b', '--b--\r\n'],
  ])('%s %s with %s is 415', async (method, url, contentType, body) => {
    const user = await signup(t);
    const response = await t.request({
      method: method as 'POST',
      url,
      auth: url.startsWith('/auth') ? undefined : user.token,
      body,
      headers: { 'content-type': contentType },
    });
    expectProblem(response, 415, 'unsupported_media_type');
  });
});
