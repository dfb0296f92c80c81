import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { CAPTCHA_PROVIDERS } from '../components/form/captcha-providers.js';

/**
 * What the hosted page gives its script and a CAPTCHA (API.md §11.1), seen from the server:
 * the logic on a classic form's element, the answer to a post the script makes, a CAPTCHA's
 * widget, script and origins on that form's pages only, and its token read from the post.
 * The script itself runs in test/browser/hosted-script.test.ts.
 */

/** A CAPTCHA provider's verify endpoint: a token `pass~…` passes, any other fails. */
const verifier = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const token = new URLSearchParams(body).get('response') ?? '';
    const answer = token.startsWith('pass~')
      ? { success: true }
      : { success: false, 'error-codes': ['invalid-input-response'] };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}`;
  t = await createTestApp({
    rateLimitPublic: 1_000_000,
    captchaVerifyUrls: { turnstile: base, hcaptcha: base, recaptcha: base },
  });
  user = await signup(t);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => verifier.close(resolve));
});

const post = (formId: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url: `/f/${formId}`,
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
const directives = (page: Response) =>
  new Map(
    String(page.headers['content-security-policy'])
      .split('; ')
      .map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]),
  );
const hiddenValue = (page: Response, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page.text)?.[1] ?? '';
const stored = async (formId: string) =>
  (
    await t.request({
      method: 'GET',
      url: `/responses?form_id=${formId}&environment=development`,
      auth: user.token,
    })
  ).body.data as Array<{ id: string; answers: Record<string, unknown>; status: string }>;

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name', required: true },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', 'support'] },
  { id: 'order', type: 'text', label: 'Order "number" <id>' },
];
const LOGIC = { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] };

describe("the hosted page's script, from the server", () => {
  it("gives a classic form's element its logic (JSON in an attribute, escaped by construction), and only when it has rules", async () => {
    const withLogic = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      logic: LOGIC,
      ui: { layout: 'classic' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${withLogic.id}` });
    const attribute = /<form[^>]* data-logic="([^"]*)"/.exec(page.text)?.[1] ?? '';
    const unescaped = attribute.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&amp;', '&');
    expect(JSON.parse(unescaped)).toEqual(LOGIC);
    expect(page.text).toContain(`data-form="${withLogic.id}"`);
    // every shown field names its label for the script's messages; a hidden field is known as one
    expect(page.text).toContain('data-label="Order &quot;number&quot; &lt;id>"');

    const without = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    const plain = await t.request({ method: 'GET', url: `/f/${without.id}` });
    expect(plain.text).not.toContain('data-logic');
  });

  it('tells the script where ui.redirectUrl leads instead of a 303 it could not follow, and stores once', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic', redirectUrl: 'https://example.com/thanks' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const fields = {
      name: 'Ada',
      _session: hiddenValue(page, '_session'),
      _idempotency: hiddenValue(page, '_idempotency'),
    };
    const fetched = await post(form.id, fields, { 'x-intake-page': '1' });
    expect(fetched.status).toBe(204);
    expect(fetched.headers['x-intake-redirect']).toBe('https://example.com/thanks');
    expect(fetched.headers.location).toBeUndefined();
    // the same post by the browser itself (the script's fallback) is the 303, and stores nothing more
    const plain = await post(form.id, fields);
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe('https://example.com/thanks');
    expect(await stored(form.id)).toHaveLength(1);

    // embedded, the script is told of the submission too, for the page that frames it
    const framed = await t.request({ method: 'GET', url: `/f/${form.id}?embed=1` });
    const embedded = await t.request({
      method: 'POST',
      url: `/f/${form.id}?embed=1`,
      body: new URLSearchParams({
        name: 'Grace',
        _session: hiddenValue(framed, '_session'),
        _idempotency: hiddenValue(framed, '_idempotency'),
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-intake-page': '1' },
    });
    expect(embedded.status).toBe(204);
    const [latest] = await stored(form.id);
    expect(embedded.headers['x-intake-submission']).toBe(latest?.id);
    expect(fetched.headers['x-intake-submission']).toBeUndefined();
  });
});

describe('a CAPTCHA on the hosted page', () => {
  for (const [provider, known] of Object.entries(CAPTCHA_PROVIDERS)) {
    it(`${provider}: its widget, its script and its origins on the form's page only`, async () => {
      const form = await createForm(t, user.token, {
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'classic' },
        spamProtection: {
          captcha: { provider, siteKey: `${provider}-site`, secret: 's3cret' },
          action: 'reject',
        },
      });
      const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
      expect(page.text).toContain(
        `<div class="${known.className}" data-sitekey="${provider}-site" data-captcha="${provider}" data-api="${known.global}"></div>`,
      );
      expect(page.text).toContain(`<script src="${known.script}" async defer></script>`);
      expect(page.text).toContain('<noscript>');
      expect(page.text).not.toContain('s3cret');
      const policy = directives(page);
      for (const directive of ['script-src', 'frame-src', 'connect-src', 'style-src'])
        expect(policy.get(directive), directive).toEqual(expect.arrayContaining([...known.origins]));
      // still strict: no inline script without a nonce, no eval
      expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
      expect(String(page.headers['content-security-policy'])).not.toContain('unsafe-eval');
    });
  }

  it('leaves a form without one free of any other origin', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(String(page.headers['content-security-policy'])).not.toMatch(/https?:/);
    expect(page.text).not.toMatch(/<script src="https?:/);
    expect(page.text).not.toContain('data-captcha');
  });

  it("reads the widget's token, verified at the provider: stored when it passes, the form again when it fails or is missing", async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
      spamProtection: {
        captcha: { provider: 'turnstile', siteKey: 'site', secret: 'secret' },
        action: 'reject',
      },
    });
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const controls = {
      _session: hiddenValue(page, '_session'),
      _idempotency: hiddenValue(page, '_idempotency'),
    };

    const missing = await post(form.id, { name: 'Ada', ...controls });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('There is a problem');
    expect(missing.text).toContain('Complete the check that you are not a robot, then send the form again.');
    expect(missing.text).toContain('value="Ada"');
    expect(missing.text).toContain('class="cf-turnstile"');

    const failed = await post(form.id, { name: 'Ada', ...controls, 'cf-turnstile-response': 'fail~1' });
    expect(failed.status).toBe(400);
    expect(failed.text).toContain('The check that you are not a robot did not pass');
    expect(failed.text).toContain('value="Ada"');
    expect(await stored(form.id)).toEqual([]);

    const passed = await post(form.id, {
      name: 'Ada',
      ...controls,
      _idempotency: 'a-new-key-for-a-new-post',
      'cf-turnstile-response': 'pass~1',
    });
    expect(passed.status).toBe(200);
    expect(passed.text).toContain('<h1 class="form-title">Thank you</h1>');
    // the thank-you page loads no provider script and allows no other origin
    expect(passed.text).not.toContain('challenges.cloudflare.com/turnstile');
    expect(await stored(form.id)).toMatchObject([{ answers: { name: 'Ada' }, status: 'accepted' }]);
  });

  it('shows the widget on the last question of a one-by-one form, not before', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS.slice(0, 2),
      ui: { layout: 'one-by-one' },
      spamProtection: {
        captcha: { provider: 'hcaptcha', siteKey: 'site', secret: 'secret' },
        action: 'reject',
      },
    });
    const first = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(first.text).not.toContain('data-captcha');
    // the provider's script is on every page of the form, ready for the last
    expect(first.text).toContain(CAPTCHA_PROVIDERS.hcaptcha?.script);
    const last = await post(form.id, {
      name: 'Ada',
      _question: 'name',
      _action: 'next',
      _session: hiddenValue(first, '_session'),
      _idempotency: hiddenValue(first, '_idempotency'),
    });
    expect(last.status).toBe(200);
    expect(last.text).toContain(
      '<div class="h-captcha" data-sitekey="site" data-captcha="hcaptcha" data-api="hcaptcha"></div>',
    );
  });
});

describe('what the hosted page says when a post goes wrong, and what it lets frame it', () => {
  it('shows a form sent again with other answers (its key spent) with what happened and a fresh key, storing nothing more', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const controls = {
      _session: hiddenValue(page, '_session'),
      _idempotency: hiddenValue(page, '_idempotency'),
    };
    expect((await post(form.id, { name: 'Ada', ...controls })).status).toBe(200);
    const again = await post(form.id, { name: 'Ada Lovelace', ...controls });
    expect(again.status).toBe(400);
    expect(again.text).toContain('This form was sent already, with other answers.');
    expect(again.text).toContain('value="Ada Lovelace"');
    const fresh = hiddenValue(again, '_idempotency');
    expect(fresh).not.toBe(controls._idempotency);
    expect(await stored(form.id)).toHaveLength(1);
    // sent again with the fresh key: a new response
    expect((await post(form.id, { name: 'Ada Lovelace', ...controls, _idempotency: fresh })).status).toBe(
      200,
    );
    expect((await stored(form.id)).map((submission) => submission.answers.name)).toEqual([
      'Ada Lovelace',
      'Ada',
    ]);
  });

  it('refuses spam in words that name no mechanism, and never blames the CAPTCHA for the honeypot', async () => {
    for (const captcha of [undefined, { provider: 'turnstile', siteKey: 'site', secret: 'secret' }]) {
      const form = await createForm(t, user.token, {
        status: 'live',
        fields: FIELDS,
        ui: { layout: 'classic' },
        spamProtection: { honeypot: { field: 'website_hp' }, captcha, action: 'reject' },
      });
      const refused = await post(form.id, {
        name: 'Bot',
        website_hp: 'http://spam.example',
        'cf-turnstile-response': 'pass~1',
      });
      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain('Your response could not be accepted.');
      expect(refused.text).not.toMatch(/honeypot|robot/i);
      expect(await stored(form.id)).toEqual([]);
    }
  });

  it("lets only Intake frame the owner's preview, and any site an error page of an embedded form", async () => {
    const draft = await createForm(t, user.token, {
      status: 'draft',
      fields: FIELDS,
      ui: { layout: 'classic' },
    });
    const login = await t.request({
      method: 'POST',
      url: '/auth/login',
      body: { email: user.email, password: user.password, cookie: true },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
    const preview = await t.request({
      method: 'GET',
      url: `/f/${draft.id}?embed=1&preview=1`,
      headers: { cookie },
    });
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('preview-banner');
    expect(directives(preview).get('frame-ancestors')).toEqual(["'self'"]);

    for (const url of ['/f/no_such_form?embed=1', `/f/${draft.id}?embed=1`]) {
      const missing = await t.request({ method: 'GET', url });
      expect(missing.status).toBe(404);
      expect(directives(missing).get('frame-ancestors')).toEqual(['*']);
      expect(missing.headers['x-frame-options']).toBeUndefined();
    }
    // outside a frame, an error page stays unframable
    const plain = await t.request({ method: 'GET', url: '/f/no_such_form' });
    expect(directives(plain).get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('gives a whole number whole bounds, so that the browser takes every whole number the server does', async () => {
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'n', type: 'number', label: 'How many', min: 0.5, max: 9.5, integer: true }],
      ui: { layout: 'classic' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(page.text).toMatch(/<input id="field-n"[^>]* min="1" max="9" step="1"/);
  });
});
