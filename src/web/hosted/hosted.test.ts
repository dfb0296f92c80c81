import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { hiddenInputs } from '../../../test/support/hosted-walk.js';
import { loadWebAssets } from '../assets.js';

/**
 * The hosted form (API.md §11.1), classic layout, without JavaScript: GET /f/{formId} renders a
 * live form's page, POST /f/{formId} takes its post through the submit path.
 */

const FIELDS = [
  {
    id: 'name',
    type: 'text',
    label: 'Your name',
    required: true,
    minLength: 2,
    maxLength: 80,
    pattern: '[A-Za-z ]+',
    placeholder: 'Ada Lovelace',
    help: 'As on your passport',
  },
  { id: 'email', type: 'email', label: 'E-mail', required: true },
  { id: 'message', type: 'textarea', label: 'Message', maxLength: 500 },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', { value: 'support', label: 'Support' }] },
  { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['a', 'b', 'c'] },
  { id: 'count', type: 'number', label: 'How many', min: 1, max: 10, integer: true },
  { id: 'agree', type: 'checkbox', label: 'I agree' },
  { id: 'day', type: 'date', label: 'Day' },
  { id: 'site', type: 'url', label: 'Website' },
  { id: 'phone', type: 'phone', label: 'Phone' },
  { id: 'stars', type: 'rating', label: 'Rate us', max: 5 },
  { id: 'source', type: 'hidden', label: 'Source' },
];

/** The attributes of the first tag matching `pattern` (`<input[^>]*name="x"`), as a map. */
function tag(html: string, pattern: RegExp): Map<string, string> {
  const match = new RegExp(`${pattern.source}[^>]*>`).exec(html);
  if (!match) throw new Error(`no tag ${pattern} in the page`);
  const attributes = new Map<string, string>();
  for (const [, name, , value] of match[0].matchAll(/\s([a-z-]+)(="([^"]*)")?/g))
    attributes.set(String(name), value ?? '');
  return attributes;
}

const control = (html: string, id: string) =>
  tag(html, new RegExp(`<(?:input|select|textarea)[^>]*id="field-${id}"`));
const label = (html: string, id: string) =>
  new RegExp(`<label[^>]*for="field-${id}"[^>]*>([\\s\\S]*?)</label>`).exec(html)?.[1];
const text = (html: string) =>
  html.replace(/<span[^>]*aria-hidden="true"[^>]*>[\s\S]*?<\/span>/g, '').replace(/<[^>]+>/g, '');

const post = (
  t: TestApp,
  formId: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields))
    for (const item of [value].flat()) body.append(name, item);
  return t.request({
    method: 'POST',
    url: `/f/${formId}`,
    body: body.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
};

/** The hidden controls a page carries: its session and its idempotency key. */
const carried = (page: Response) => ({
  _session: String(tag(page.text, /<input[^>]*name="_session"/).get('value')),
  _idempotency: String(tag(page.text, /<input[^>]*name="_idempotency"/).get('value')),
});

const directives = (policy: string) =>
  new Map(policy.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));

describe('the hosted form page', () => {
  let t: TestApp;
  let user: TestUser;
  let form: { id: string };
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
    form = await createForm(t, user.token, {
      title: 'Tell us <everything>',
      status: 'live',
      fields: FIELDS,
      ui: { layout: 'classic', description: 'It takes a minute.', submitLabel: 'Send it' },
      spamProtection: { honeypot: { field: 'website_hp' }, action: 'reject' },
    });
  });
  afterAll(() => t.close());

  const responses = async (formId: string) =>
    (
      await t.request({
        method: 'GET',
        url: `/responses?form_id=${formId}&environment=development`,
        auth: user.token,
      })
    ).body.data as Array<{ id: string; answers: Record<string, unknown> }>;

  it('renders a live form as text/html with every field type as its native control', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${form.id}?source=newsletter` });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    const html = page.text;
    // escaped by construction
    expect(html).toContain('<h1 class="form-title">Tell us &lt;everything></h1>');
    expect(html).toContain('<title>Tell us &lt;everything></title>');
    expect(html).toContain('It takes a minute.');
    // one script, first-party, which the page does not need (a module: it runs after the page is shown)
    expect([...html.matchAll(/<script[^>]*>/g)].map(([tag]) => tag)).toEqual([
      expect.stringMatching(/^<script type="module" src="\/assets\/page-[\w-]{8}\.js">$/),
    ]);

    const name = control(html, 'name');
    expect(Object.fromEntries(name)).toMatchObject({
      type: 'text',
      name: 'name',
      required: '',
      minlength: '2',
      maxlength: '80',
      pattern: '[A-Za-z ]+',
      placeholder: 'Ada Lovelace',
      'aria-describedby': 'help-name',
    });
    expect(html).toContain('<p class="field__help" id="help-name">As on your passport</p>');
    // the label's text is the label alone: the required mark, aria-hidden, stands beside it
    expect(label(html, 'name')).toBe('Your name');
    expect(html).toMatch(
      /<label class="field__label" for="field-name" dir="auto">Your name<\/label><span class="field__required" aria-hidden="true"> \*<\/span>/,
    );
    // a rating's and a choice's group is named by its legend (below)
    for (const field of FIELDS.filter((f) => !['hidden', 'rating', 'select'].includes(f.type))) {
      expect(text(label(html, field.id) ?? ''), field.id).toBe(field.label);
    }

    expect(control(html, 'email').get('type')).toBe('email');
    expect(control(html, 'email').has('required')).toBe(true);
    expect(tag(html, /<textarea[^>]*id="field-message"/).get('maxlength')).toBe('500');
    expect(control(html, 'message').has('required')).toBe(false);
    // a choice of up to seven options: radio tiles (one answer) or checkbox tiles (several), never a list box
    expect(Object.fromEntries(control(html, 'topic'))).toMatchObject({
      type: 'radio',
      name: 'topic',
      value: 'sales',
    });
    expect(html).toMatch(
      /<input class="choice__input" type="radio" id="option-1-topic" name="topic" value="support"\/><span class="choice__label" dir="auto">Support<\/span>/,
    );
    expect(html).toContain(
      '<fieldset class="field field--select field--choices" data-field="topic" data-label="Topic" id="group-topic"><legend class="field__label" dir="auto">Topic</legend>',
    );
    expect(Object.fromEntries(control(html, 'tags'))).toMatchObject({ type: 'checkbox', name: 'tags' });
    expect(html).not.toContain('<select');
    expect(html).not.toContain('Ctrl');
    expect(Object.fromEntries(control(html, 'count'))).toMatchObject({
      type: 'number',
      min: '1',
      max: '10',
      step: '1',
    });
    expect(Object.fromEntries(control(html, 'agree'))).toMatchObject({
      type: 'checkbox',
      name: 'agree',
      value: 'on',
    });
    expect(control(html, 'day').get('type')).toBe('date');
    expect(control(html, 'site').get('type')).toBe('url');
    expect(control(html, 'phone').get('type')).toBe('tel');
    // the rating: a radio group named by its legend, 1..5
    expect(html).toMatch(
      /<fieldset[^>]*id="group-stars"[^>]*>\s*<legend class="field__label" dir="auto">Rate us<\/legend>/,
    );
    for (const score of [1, 2, 3, 4, 5]) {
      expect(html).toMatch(new RegExp(`<input[^>]*type="radio"[^>]*name="stars"[^>]*value="${score}"`));
    }
    // a hidden field, filled from the query string
    expect(Object.fromEntries(tag(html, /<input[^>]*name="source"/))).toMatchObject({
      type: 'hidden',
      value: 'newsletter',
    });
    // the honeypot: present, out of the tab order, hidden from assistive technology
    // (inert: not focusable by any means, not even a click or a script)
    expect(html).toMatch(/<div class="hp" aria-hidden="true" inert>/);
    expect(Object.fromEntries(tag(html, /<input[^>]*name="website_hp"/))).toMatchObject({
      tabindex: '-1',
      autocomplete: 'off',
      'aria-hidden': 'true',
      value: '',
    });
    // the submit button is named by ui.submitLabel
    expect(html).toMatch(/<button class="button button--primary" type="submit">Send it<\/button>/);
    expect(carried(page)._session).toMatch(/^[0-9a-f]{12}[\w-]{22}$/);
    expect(carried(page)._idempotency).toMatch(/^[0-9a-f]{12}[\w-]{22}$/);
  });

  it('gives every element an id of its own, whatever the field ids (they may contain "-")', async () => {
    const own = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic' },
      fields: [
        { id: 'name', type: 'text', label: 'Name', help: 'Help', required: true },
        { id: 'name-help', type: 'rating', label: 'Rating', help: 'Help' },
        { id: 'help-name', type: 'text', label: 'Other' },
        { id: 'summary-title', type: 'text', label: 'Title', required: true },
      ],
    });
    const page = await post(t, own.id, { name: '' });
    expect(page.status).toBe(400);
    for (const html of [page.text, (await t.request({ method: 'GET', url: `/f/${form.id}` })).text]) {
      const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
      expect(ids.length).toBeGreaterThan(5);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    }
  });

  it('sends the security headers: a strict CSP, nosniff, a referrer policy', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const policy = directives(String(page.headers['content-security-policy']));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(String(page.headers['content-security-policy'])).not.toMatch(/unsafe/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    // the stylesheet of the hosted page, built by Vite
    expect(page.text).toMatch(/<link rel="stylesheet" href="\/assets\/hosted-[\w-]{8}\.css"\/>/);
  });

  it('answers an unknown form, a draft, an active and a disabled one with the HTML 404 page', async () => {
    const statuses = ['draft', 'active', 'disabled', 'archived'];
    const ids = [
      'nope',
      ...(await Promise.all(
        statuses.map(async (status) => (await createForm(t, user.token, { status })).id),
      )),
    ];
    for (const id of ids) {
      const page = await t.request({ method: 'GET', url: `/f/${id}` });
      expect(page.status, id).toBe(404);
      expect(page.headers['content-type'], id).toBe('text/html; charset=utf-8');
      expect(page.text, id).toContain('Page not found');
    }
  });

  it('shows the page again with an error summary, messages by the fields and every answer kept, storing nothing', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const response = await post(t, form.id, {
      ...carried(page),
      name: 'Ada',
      email: 'not-an-address',
      message: 'Hello <there> & "you"',
      topic: 'support',
      tags: ['a', 'c'],
      count: '42',
      agree: 'on',
      day: '2026-11-24',
      stars: '4',
      source: 'newsletter',
      website_hp: '',
    });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.text;
    expect(html).toContain('<title>Error: Tell us &lt;everything></title>');
    expect(html).toMatch(
      /<section class="error-summary" tabindex="-1" autofocus aria-labelledby="summary-title">/,
    );
    expect(html).toContain('<h2 class="error-summary__title" id="summary-title">There is a problem</h2>');
    expect(html).toContain(
      '<a href="#field-email">E-mail: Enter an e-mail address like name@example.com.</a>',
    );
    expect(html).toContain('<a href="#field-count">How many: Enter a number that is 10 or less.</a>');
    expect(Object.fromEntries(control(html, 'email'))).toMatchObject({
      value: 'not-an-address',
      'aria-invalid': 'true',
      'aria-describedby': 'error-email',
    });
    expect(html).toMatch(
      /<p class="field__error" id="error-email"><span class="visually-hidden">Error: <\/span>Enter an e-mail address like name@example.com\.<\/p>/,
    );
    expect(control(html, 'name').get('value')).toBe('Ada');
    expect(control(html, 'name').get('aria-describedby')).toBe('help-name');
    expect(html).toContain('>Hello &lt;there> &amp; &quot;you&quot;</textarea>');
    expect(html).toMatch(/id="option-1-topic" name="topic" value="support" checked\/>/);
    expect(html).toMatch(
      /name="tags" value="a" checked\/>.*name="tags" value="b"\/>.*name="tags" value="c" checked\/>/,
    );
    expect(control(html, 'count').get('value')).toBe('42');
    expect(control(html, 'agree').has('checked')).toBe(true);
    expect(control(html, 'day').get('value')).toBe('2026-11-24');
    expect(html).toMatch(/<input[^>]*name="stars" value="4" checked/);
    expect(tag(html, /<input[^>]*name="source"/).get('value')).toBe('newsletter');
    // the same session and key go on
    expect(carried(response)).toEqual(carried(page));
    expect(await responses(form.id)).toEqual([]);
  });

  it('stores a valid post and shows the thank-you page; the owner reads it back', async () => {
    const page = await t.request({ method: 'GET', url: `/f/${form.id}` });
    const response = await post(t, form.id, {
      ...carried(page),
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      message: '',
      topic: '',
      tags: ['b'],
      count: '3',
      agree: 'on',
      day: '2026-11-24',
      site: 'https://example.com',
      phone: '+44 20 7946 0000',
      stars: '5',
      source: 'newsletter',
      website_hp: '',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('<h1 class="form-title">Thank you</h1>');
    expect(response.text).toContain('<title>Response sent – Tell us &lt;everything></title>');
    const [stored, ...others] = await responses(form.id);
    expect(others).toEqual([]);
    expect(stored?.answers).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      tags: ['b'],
      count: 3,
      agree: true,
      day: '2026-11-24',
      site: 'https://example.com',
      phone: '+44 20 7946 0000',
      stars: 5,
      source: 'newsletter',
    });
  });

  it('stores a double post with one idempotency key once', async () => {
    const own = await createForm(t, user.token, { status: 'live', ui: { layout: 'classic' } });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    const fields = { ...carried(page), name: 'Ada', email: 'ada@example.com' };
    const [first, second] = await Promise.all([post(t, own.id, fields), post(t, own.id, fields)]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect((await post(t, own.id, fields)).status).toBe(200);
    expect(await responses(own.id)).toHaveLength(1);
    // a new page is a new key
    const next = await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect(carried(next)._idempotency).not.toBe(fields._idempotency);
    expect((await post(t, own.id, { ...carried(next), name: 'Bob', email: 'bob@example.com' })).status).toBe(
      200,
    );
    expect(await responses(own.id)).toHaveLength(2);
  });

  it('drops the answers the logic hides (a page post is not refused for them), and says when a field applies', async () => {
    const own = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic' },
      fields: [
        {
          id: 'topic',
          type: 'select',
          label: 'Topic',
          required: true,
          options: ['sales', { value: 'support', label: 'Support' }],
        },
        { id: 'order', type: 'text', label: 'Order number', required: true },
        { id: 'budget', type: 'number', label: 'Budget' },
      ],
      logic: {
        rules: [
          { when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] },
          { when: { field: 'topic', op: 'equals', value: 'support' }, hide: ['budget'] },
        ],
      },
    });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect(page.text).toContain(
      '<p class="field__when" id="when-order">Answer this only if the answer to “Topic” is “Support”.</p>',
    );
    expect(page.text).toContain('Skip this if the answer to “Topic” is “Support”.');
    expect(control(page.text, 'order').get('aria-describedby')).toBe('when-order');

    const response = await post(t, own.id, { ...carried(page), topic: 'sales', order: 'A-1', budget: '' });
    expect(response.status).toBe(200);
    const other = await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect(
      (await post(t, own.id, { ...carried(other), topic: 'support', order: 'B-2', budget: '500' })).status,
    ).toBe(200);
    const stored = (await responses(own.id)).map((submission) => submission.answers);
    expect(stored).toEqual([{ topic: 'support', order: 'B-2' }, { topic: 'sales' }]);
  });

  it('answers 303 to ui.redirectUrl, whose origin the policy lets the form lead to', async () => {
    const own = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic', redirectUrl: 'https://example.com/thanks?x=1' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect(directives(String(page.headers['content-security-policy'])).get('form-action')).toEqual([
      "'self'",
      'https://example.com',
    ]);
    const response = await post(t, own.id, { ...carried(page), name: 'Ada', email: 'ada@example.com' });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe('https://example.com/thanks?x=1');
    expect(await responses(own.id)).toHaveLength(1);
  });

  it('shows ui.successMessage on the thank-you page', async () => {
    const own = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic', successMessage: 'We will write back <soon>' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    const response = await post(t, own.id, { ...carried(page), name: 'Ada', email: 'ada@example.com' });
    expect(response.text).toContain('<h1 class="form-title">We will write back &lt;soon></h1>');
  });

  it('records a view when the page is served and a start at the first post, once per session', async () => {
    const own = await createForm(t, user.token, { status: 'live', ui: { layout: 'classic' } });
    const counts = async () => {
      const response = await t.request({
        method: 'GET',
        url: `/analytics?environment=development&form_id=${own.id}`,
        auth: user.token,
      });
      const { views, starts, submissions } = response.body.totals;
      return { views, starts, submissions };
    };
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect((await t.request({ method: 'HEAD', url: `/f/${own.id}` })).status).toBe(200);
    expect(await counts()).toEqual({ views: 2, starts: 0, submissions: 0 });
    await post(t, own.id, { ...carried(page), name: 'Ada' }); // refused: no e-mail
    await post(t, own.id, { ...carried(page), name: 'Ada', email: 'ada@example.com' });
    expect(await counts()).toEqual({ views: 2, starts: 1, submissions: 1 });
  });

  it('refuses a post to a closed form with the 403 page, to an unknown one with the 404 page', async () => {
    const closed = await createForm(t, user.token, { status: 'disabled' });
    const refused = await post(t, closed.id, { name: 'Ada', email: 'ada@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(refused.text).toContain('Form closed');
    const unknown = await post(t, 'nope', { name: 'Ada' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers another method with the 405 page, a deeper path with the 404 page, and ignores names that are no field', async () => {
    const put = await t.request({ method: 'PUT', url: `/f/${form.id}` });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, HEAD');
    expect(put.headers['content-type']).toBe('text/html; charset=utf-8');
    const deeper = await t.request({ method: 'GET', url: `/f/${form.id}/more` });
    expect(deeper.status).toBe(404);
    expect(deeper.headers['content-type']).toBe('text/html; charset=utf-8');

    const own = await createForm(t, user.token, { status: 'live', ui: { layout: 'classic' } });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    const response = await post(t, own.id, {
      ...carried(page),
      name: 'Ada',
      email: 'ada@example.com',
      extra: 'not a field',
      _redirect: 'https://evil.example/',
    });
    expect(response.status).toBe(200);
    expect((await responses(own.id))[0]?.answers).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('sets lang, dir, the theme and the accent colour (in a style the policy allows by its hash)', async () => {
    const own = await createForm(t, user.token, {
      status: 'live',
      ui: { layout: 'classic', language: 'ar-EG', theme: 'dark', accentColor: '#9ecbff' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect(page.text).toMatch(/^<!doctype html><html lang="ar-EG" dir="rtl" data-theme="dark">/);
    const style = /<style>(:root\{--custom-accent:#9ecbff\})<\/style>/.exec(page.text)?.[1];
    expect(style).toBeDefined();
    const hash = createHash('sha256').update(String(style)).digest('base64');
    expect(directives(String(page.headers['content-security-policy'])).get('style-src')).toEqual([
      "'self'",
      `'sha256-${hash}'`,
    ]);
    const plain = await t.request({ method: 'GET', url: `/f/${form.id}` });
    expect(plain.text).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);
    expect(plain.text).not.toMatch(/<style/);
  });

  it('keeps within the budgets of API.md §11.1 for a 20-field form: HTML ≤ 20 kB, CSS ≤ 10 kB, JS ≤ 8 kB gzip -9, one first-party script', async () => {
    const fields = Array.from({ length: 20 }, (_, i) => ({
      ...FIELDS[i % FIELDS.length],
      id: `field_${i}`,
      label: `Question number ${i + 1}, asked in a sentence of ordinary length?`,
      help: 'Some help text that explains what is being asked and why.',
    }));
    const own = await createForm(t, user.token, {
      status: 'live',
      fields,
      ui: { layout: 'classic', description: 'A form of twenty questions.', accentColor: '#0a7ea4' },
    });
    const page = await t.request({ method: 'GET', url: `/f/${own.id}` });
    expect(page.status).toBe(200);
    const gzip = (content: string | Buffer) => zlib.gzipSync(content, { level: 9 }).length;
    const html = gzip(page.text);
    const assets = loadWebAssets();
    const styles = [...page.text.matchAll(/<link rel="stylesheet" href="\/([^"]+)"/g)].map((match) =>
      gzip(fs.readFileSync(path.join(String(assets.dir), String(match[1])))),
    );
    const css = styles.reduce((sum, size) => sum + size, 0);
    const scripts = [...page.text.matchAll(/<script[^>]*src="\/([^"]+)"/g)].map((match) =>
      gzip(fs.readFileSync(path.join(String(assets.dir), String(match[1])))),
    );
    const js = scripts.reduce((sum, size) => sum + size, 0);
    console.info(`hosted form, 20 fields: HTML ${html} B, CSS ${css} B, JS ${js} B (gzip -9)`);
    expect(styles).toHaveLength(1);
    expect(scripts).toHaveLength(1);
    expect(html).toBeLessThanOrEqual(20_000);
    expect(css).toBeLessThanOrEqual(10_000);
    expect(js).toBeLessThanOrEqual(8_000);
    expect(html + css + js).toBeLessThanOrEqual(40_000);
    // no inline script: every <script> has a src
    expect(page.text.match(/<script/g)).toHaveLength(scripts.length);
  });

  describe('one question a page (ui.layout one-by-one), without JavaScript', () => {
    const title = (page: Response) => /<title>([^<]*)<\/title>/.exec(page.text)?.[1];
    const buttons = (page: Response) =>
      [...page.text.matchAll(/<button[^>]*name="_action" value="(\w+)"[^>]*>([^<]*)<\/button>/g)].map(
        ([, value, name]) => `${value}:${name}`,
      );
    const controls = (page: Response) =>
      [...page.text.matchAll(/<(?:input|select|textarea)[^>]*id="field-([\w-]+)"/g)].map((match) => match[1]);

    let own: { id: string };
    beforeAll(async () => {
      own = await createForm(t, user.token, {
        title: 'Steps',
        status: 'live',
        fields: [
          { id: 'name', type: 'text', label: 'Your name', required: true },
          { id: 'topic', type: 'select', label: 'Topic', required: true, options: ['sales', 'support'] },
          { id: 'order', type: 'text', label: 'Order number', required: true },
          { id: 'email', type: 'email', label: 'E-mail', required: true },
          { id: 'source', type: 'hidden', label: 'Source' },
        ],
        logic: { rules: [{ when: { field: 'topic', op: 'equals', value: 'support' }, show: ['order'] }] },
        ui: {
          layout: 'one-by-one',
          progress: 'steps',
          submitLabel: 'Send',
          description: 'Four questions at most.',
        },
      });
    });

    it('leads from question to question, Back never validating, and submits only at the last page', async () => {
      const first = await t.request({ method: 'GET', url: `/f/${own.id}?source=mail` });
      expect(first.status).toBe(200);
      // the order question is hidden until topic is support: 3 questions so far
      expect(title(first)).toBe('Question 1 of 3 – Steps');
      expect(first.text).toContain('<p class="progress" id="progress">Question 1 of 3</p>');
      // the question's heading is described by its position (read out when focus moves to it)
      expect(first.text).toContain('<h2 class="field__heading" aria-describedby="progress">');
      expect(first.text).toContain('Four questions at most.');
      expect(controls(first)).toEqual(['name']);
      expect(buttons(first)).toEqual(['next:Next', 'save:Save and continue later']);
      expect(hiddenInputs(first)).toMatchObject({ _question: ['name'], source: ['mail'] });

      // Next validates this page's question
      const empty = await post(t, own.id, { ...hiddenInputs(first), name: '', _action: 'next' });
      expect(empty.status).toBe(400);
      expect(title(empty)).toBe('Error: Question 1 of 3 – Steps');
      expect(empty.text).toContain('<a href="#field-name">Your name: Answer this question.</a>');
      expect(controls(empty)).toEqual(['name']);

      const second = await post(t, own.id, { ...hiddenInputs(empty), name: 'Ada', _action: 'next' });
      expect(second.status).toBe(200);
      expect(title(second)).toBe('Question 2 of 3 – Steps');
      expect(second.text).not.toContain('Four questions at most.');
      expect(controls(second)).toEqual(['topic']);
      expect(buttons(second)).toEqual(['next:Next', 'back:Back', 'save:Save and continue later']);
      expect(second.text).toMatch(/<button[^>]*value="back" formnovalidate>Back<\/button>/);
      expect(hiddenInputs(second)).toMatchObject({ _question: ['topic'], name: ['Ada'], source: ['mail'] });

      // Back with an answer given keeps it and does not validate; M counts what the answers show
      const back = await post(t, own.id, { ...hiddenInputs(second), topic: 'support', _action: 'back' });
      expect(back.status).toBe(200);
      expect(title(back)).toBe('Question 1 of 4 – Steps');
      expect(control(back.text, 'name').get('value')).toBe('Ada');
      expect(hiddenInputs(back)).toMatchObject({ topic: ['support'] });

      const topic = await post(t, own.id, { ...hiddenInputs(back), name: 'Ada', _action: 'next' });
      expect(title(topic)).toBe('Question 2 of 4 – Steps');
      expect(topic.text).toMatch(/name="topic" value="support" checked[ />]/);
      const order = await post(t, own.id, { ...hiddenInputs(topic), topic: 'support', _action: 'next' });
      expect(title(order)).toBe('Question 3 of 4 – Steps');
      expect(controls(order)).toEqual(['order']);
      const email = await post(t, own.id, { ...hiddenInputs(order), order: 'A-1', _action: 'next' });
      expect(title(email)).toBe('Question 4 of 4 – Steps');
      expect(buttons(email)).toEqual(['submit:Send', 'back:Back', 'save:Save and continue later']);
      // Back from the last page with nothing answered: no error
      const again = await post(t, own.id, { ...hiddenInputs(email), email: '', _action: 'back' });
      expect(again.status).toBe(200);
      expect(title(again)).toBe('Question 3 of 4 – Steps');
      expect(await responses(own.id)).toEqual([]);

      const last = await post(t, own.id, { ...hiddenInputs(again), order: 'A-2', _action: 'next' });
      const invalid = await post(t, own.id, { ...hiddenInputs(last), email: 'nope', _action: 'submit' });
      expect(invalid.status).toBe(400);
      expect(title(invalid)).toBe('Error: Question 4 of 4 – Steps');
      expect(invalid.text).toContain(
        '<a href="#field-email">E-mail: Enter an e-mail address like name@example.com.</a>',
      );
      expect(await responses(own.id)).toEqual([]);

      const done = await post(t, own.id, {
        ...hiddenInputs(invalid),
        email: 'ada@example.com',
        _action: 'submit',
      });
      expect(done.status).toBe(200);
      expect(done.text).toContain('<h1 class="form-title">Thank you</h1>');
      expect((await responses(own.id)).map((submission) => submission.answers)).toEqual([
        { name: 'Ada', topic: 'support', order: 'A-2', email: 'ada@example.com', source: 'mail' },
      ]);
    });

    it('skips the questions the logic hides and drops their answers when an earlier answer changes', async () => {
      const first = await t.request({ method: 'GET', url: `/f/${own.id}` });
      const topic = await post(t, own.id, { ...hiddenInputs(first), name: 'Bob', _action: 'next' });
      // an order number carried from an earlier visit of that page, then the topic changed to sales
      const email = await post(t, own.id, {
        ...hiddenInputs(topic),
        order: 'X-9',
        topic: 'sales',
        _action: 'next',
      });
      expect(title(email)).toBe('Question 3 of 3 – Steps');
      expect(controls(email)).toEqual(['email']);
      const before = (await responses(own.id)).length;
      const done = await post(t, own.id, {
        ...hiddenInputs(email),
        email: 'bob@example.com',
        _action: 'submit',
      });
      expect(done.status).toBe(200);
      const stored = await responses(own.id);
      expect(stored).toHaveLength(before + 1);
      expect(stored[0]?.answers).toEqual({ name: 'Bob', topic: 'sales', email: 'bob@example.com' });
    });

    it('shows a progress bar as a progressbar with its value, and names the position in the title', async () => {
      const bar = await createForm(t, user.token, {
        status: 'live',
        ui: { layout: 'one-by-one', progress: 'bar' },
      });
      const page = await t.request({ method: 'GET', url: `/f/${bar.id}` });
      expect(page.text).toContain(
        '<progress class="progress-bar" id="progress" value="1" max="4" aria-label="Question 1 of 4">Question 1 of 4</progress>',
      );
      expect(title(page)).toBe('Question 1 of 4 – Contact us');
      const none = await createForm(t, user.token, { status: 'live', ui: { progress: 'none' } });
      const plain = await t.request({ method: 'GET', url: `/f/${none.id}` });
      expect(plain.text).not.toMatch(/class="progress/);
      expect(title(plain)).toBe('Question 1 of 4 – Contact us');
    });
  });
});
