import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { createForm, formBody, signup } from '../../../test/support/factories.js';

/**
 * API.md §5.1 and §5.4: a form definition that breaks the rules is 400 invalid_form with
 * every problem listed as {field, code, message}; the same rules hold on POST and PUT.
 */

type Overrides = Record<string, unknown>;
type InvalidCase = [name: string, overrides: Overrides, field: string, code: string];

const text = (id: string, extra: Overrides = {}) => ({ id, type: 'text', label: id.toUpperCase(), ...extra });
const select = (id: string, extra: Overrides = {}) => ({ id, type: 'select', label: 'Pick', ...extra });
const number = (id: string, extra: Overrides = {}) => ({ id, type: 'number', label: 'Count', ...extra });
const rule = (when: unknown, targets: { show?: string[]; hide?: string[] } = { show: ['message'] }) => ({
  logic: { rules: [{ when, ...targets }] },
});
const spam = (members: Overrides) => ({ spamProtection: { action: 'reject', ...members } });
const captcha = (members: Overrides) =>
  spam({ captcha: { provider: 'turnstile', siteKey: 'site-key', ...members } });

/** formBody()'s fields are name (text), email (email), topic (select: sales, support), message (textarea). */
const INVALID: InvalidCase[] = [
  // fields
  ['duplicate field ids', { fields: [text('a'), text('b'), text('a')] }, 'fields[2].id', 'duplicate'],
  [
    'an unknown field type',
    { fields: [{ id: 'a', type: 'signature', label: 'A' }] },
    'fields[0].type',
    'enum',
  ],
  ['a field without type', { fields: [{ id: 'a', label: 'A' }] }, 'fields[0].type', 'required'],
  ['a field without id', { fields: [{ type: 'text', label: 'A' }] }, 'fields[0].id', 'required'],
  ['a field id with a space', { fields: [text('first name')] }, 'fields[0].id', 'pattern'],
  ['the reserved field id __proto__', { fields: [text('__proto__')] }, 'fields[0].id', 'reserved'],
  ['a field id of 65 characters', { fields: [text('f'.repeat(65))] }, 'fields[0].id', 'pattern'],
  ['a field without label', { fields: [{ id: 'a', type: 'text' }] }, 'fields[0].label', 'required'],
  ['an empty label', { fields: [text('a', { label: '' })] }, 'fields[0].label', 'minLength'],
  [
    'a label of 501 characters',
    { fields: [text('a', { label: 'l'.repeat(501) })] },
    'fields[0].label',
    'maxLength',
  ],
  [
    'an unknown field member',
    { fields: [text('a', { colour: 'red' })] },
    'fields[0].colour',
    'unknown_member',
  ],
  [
    'an unknown piiMode',
    { fields: [text('a', { pii: true, piiMode: 'rot13' })] },
    'fields[0].piiMode',
    'enum',
  ],
  ['fields that are not an array', { fields: { a: text('a') } }, 'fields', 'type'],
  ['a select without options', { fields: [select('s')] }, 'fields[0].options', 'required'],
  [
    'a select with empty options',
    { fields: [select('s', { options: [] })] },
    'fields[0].options',
    'required',
  ],
  [
    'duplicate option values',
    { fields: [select('s', { options: ['a', 'b', 'a'] })] },
    'fields[0].options[2]',
    'duplicate',
  ],
  [
    'duplicate option values, one a string and one an object',
    { fields: [select('s', { options: ['a', { value: 'a', label: 'Again' }] })] },
    'fields[0].options[1]',
    'duplicate',
  ],
  [
    'an option object without label',
    { fields: [select('s', { options: [{ value: 'a' }] })] },
    'fields[0].options[0].label',
    'required',
  ],
  ['an empty option', { fields: [select('s', { options: [''] })] }, 'fields[0].options[0]', 'minLength'],
  [
    'options on a text field',
    { fields: [text('a', { options: ['x'] })] },
    'fields[0].options',
    'not_applicable',
  ],
  [
    'multiple on a text field',
    { fields: [text('a', { multiple: true })] },
    'fields[0].multiple',
    'not_applicable',
  ],
  ['min > max', { fields: [number('n', { min: 10, max: 1 })] }, 'fields[0].min', 'range'],
  [
    'minLength > maxLength',
    { fields: [text('a', { minLength: 10, maxLength: 5 })] },
    'fields[0].minLength',
    'range',
  ],
  ['a negative minLength', { fields: [text('a', { minLength: -1 })] }, 'fields[0].minLength', 'minimum'],
  ['a fractional maxLength', { fields: [text('a', { maxLength: 2.5 })] }, 'fields[0].maxLength', 'type'],
  ['min on a text field', { fields: [text('a', { min: 1 })] }, 'fields[0].min', 'not_applicable'],
  [
    'maxLength on a number field',
    { fields: [number('n', { maxLength: 3 })] },
    'fields[0].maxLength',
    'not_applicable',
  ],
  // patterns
  [
    'an invalid pattern: [',
    { fields: [text('a', { pattern: '[' })] },
    'fields[0].pattern',
    'invalid_pattern',
  ],
  [
    'an invalid pattern: (',
    { fields: [text('a', { pattern: '(abc' })] },
    'fields[0].pattern',
    'invalid_pattern',
  ],
  [
    'an invalid pattern: a{2,1}',
    { fields: [text('a', { pattern: 'a{2,1}' })] },
    'fields[0].pattern',
    'invalid_pattern',
  ],
  [
    'an invalid pattern: *',
    { fields: [text('a', { pattern: '*a' })] },
    'fields[0].pattern',
    'invalid_pattern',
  ],
  [
    'an unbalanced pattern that compiles only once wrapped: x)|(y',
    { fields: [text('a', { pattern: 'x)|(y' })] },
    'fields[0].pattern',
    'invalid_pattern',
  ],
  [
    'a pattern escaping the whole-value anchors: [0-9]{3})|(?:.*',
    { fields: [text('a', { pattern: '[0-9]{3})|(?:.*' })] },
    'fields[0].pattern',
    'invalid_pattern',
  ],
  [
    'the catastrophic pattern (a+)+',
    { fields: [text('a', { pattern: '(a+)+' })] },
    'fields[0].pattern',
    'unsafe_pattern',
  ],
  [
    'the catastrophic pattern (a|aa)+',
    { fields: [text('a', { pattern: '(a|aa)+' })] },
    'fields[0].pattern',
    'unsafe_pattern',
  ],
  [
    'the catastrophic pattern (\\w+\\s?)*',
    { fields: [text('a', { pattern: '(\\w+\\s?)*' })] },
    'fields[0].pattern',
    'unsafe_pattern',
  ],
  [
    'the catastrophic e-mail pattern ([a-zA-Z0-9]+)*@',
    { fields: [text('a', { pattern: '([a-zA-Z0-9]+)*@x' })] },
    'fields[0].pattern',
    'unsafe_pattern',
  ],
  [
    'a polynomial pattern on an unbounded field',
    { fields: [text('a', { pattern: '.*x.*y.*z' })] },
    'fields[0].pattern',
    'unsafe_pattern',
  ],
  ['an empty pattern', { fields: [text('a', { pattern: '' })] }, 'fields[0].pattern', 'minLength'],
  // logic
  [
    'a logic condition naming an unknown field',
    rule({ field: 'ghost', op: 'equals', value: 'x' }),
    'logic.rules[0].when.field',
    'unknown_field',
  ],
  [
    'a logic rule showing an unknown field',
    rule({ field: 'topic', op: 'equals', value: 'sales' }, { show: ['message', 'ghost'] }),
    'logic.rules[0].show[1]',
    'unknown_field',
  ],
  [
    'a logic rule hiding an unknown field',
    rule({ field: 'topic', op: 'equals', value: 'sales' }, { hide: ['ghost'] }),
    'logic.rules[0].hide[0]',
    'unknown_field',
  ],
  [
    'an unknown field deep in all/any',
    rule({
      all: [
        { field: 'topic', op: 'equals', value: 'sales' },
        {
          any: [
            { field: 'name', op: 'isEmpty' },
            { field: 'ghost', op: 'isNotEmpty' },
          ],
        },
      ],
    }),
    'logic.rules[0].when.all[1].any[1].field',
    'unknown_field',
  ],
  ['equals without value', rule({ field: 'topic', op: 'equals' }), 'logic.rules[0].when.value', 'required'],
  [
    'contains without value',
    rule({ field: 'name', op: 'contains' }),
    'logic.rules[0].when.value',
    'required',
  ],
  [
    'in with a non-array value',
    rule({ field: 'topic', op: 'in', value: 'sales' }),
    'logic.rules[0].when.value',
    'type',
  ],
  [
    'an unknown operator',
    rule({ field: 'topic', op: 'startsWith', value: 's' }),
    'logic.rules[0].when.op',
    'enum',
  ],
  [
    'a rule with neither show nor hide',
    rule({ field: 'topic', op: 'equals', value: 'sales' }, {}),
    'logic.rules[0]',
    'required',
  ],
  [
    'a rule with empty show and hide',
    rule({ field: 'topic', op: 'equals', value: 'sales' }, { show: [], hide: [] }),
    'logic.rules[0]',
    'required',
  ],
  ['logic without rules', { logic: {} }, 'logic.rules', 'required'],
  // spam protection
  [
    'a honeypot named like a real field',
    spam({ honeypot: { field: 'email' } }),
    'spamProtection.honeypot.field',
    'conflict',
  ],
  [
    'a spam rule naming an unknown field',
    spam({ rules: [{ field: 'ghost', op: 'contains', value: 'casino' }] }),
    'spamProtection.rules[0].field',
    'unknown_field',
  ],
  [
    'a spam rule with an unsafe regex',
    spam({ rules: [{ field: 'message', op: 'matches', value: '(a+)+$' }] }),
    'spamProtection.rules[0].value',
    'unsafe_pattern',
  ],
  [
    'a spam rule with an invalid regex',
    spam({ rules: [{ field: 'message', op: 'matches', value: '(' }] }),
    'spamProtection.rules[0].value',
    'invalid_pattern',
  ],
  [
    'a spam rule with an unknown op',
    spam({ rules: [{ field: 'message', op: 'startsWith', value: 'x' }] }),
    'spamProtection.rules[0].op',
    'enum',
  ],
  [
    'spam protection without action',
    { spamProtection: { honeypot: { field: 'website' } } },
    'spamProtection.action',
    'required',
  ],
  ['an unknown spam action', spam({ action: 'explode' }), 'spamProtection.action', 'enum'],
  ['a captcha without secret', captcha({}), 'spamProtection.captcha.secret', 'required'],
  [
    'an unknown captcha provider',
    captcha({ provider: 'mycaptcha', secret: 's' }),
    'spamProtection.captcha.provider',
    'enum',
  ],
  [
    'a captcha without siteKey',
    spam({ captcha: { provider: 'turnstile', secret: 's' } }),
    'spamProtection.captcha.siteKey',
    'required',
  ],
  [
    'a captcha minScore above 1',
    captcha({ secret: 's', minScore: 1.5 }),
    'spamProtection.captcha.minScore',
    'maximum',
  ],
  // auto-response and notifications
  [
    'autoResponse.emailField naming a text field',
    { autoResponse: { enabled: true, emailField: 'name', subject: 'Thanks', body: 'Hi' } },
    'autoResponse.emailField',
    'invalid',
  ],
  [
    'autoResponse.emailField naming no field',
    { autoResponse: { enabled: true, emailField: 'ghost', subject: 'Thanks', body: 'Hi' } },
    'autoResponse.emailField',
    'unknown_field',
  ],
  [
    'autoResponse without subject',
    { autoResponse: { enabled: true, emailField: 'email', body: 'Hi' } },
    'autoResponse.subject',
    'required',
  ],
  [
    'notifications enabled with no addresses',
    { notifications: { email: { enabled: true, to: [] } } },
    'notifications.email.to',
    'required',
  ],
  [
    'a notification address that is not an e-mail address',
    { notifications: { email: { enabled: true, to: ['not-an-address'] } } },
    'notifications.email.to[0]',
    'format',
  ],
  // retention, ui, storage
  ['retention of 0 days', { retention: { days: 0 } }, 'retention.days', 'minimum'],
  ['retention of 3651 days', { retention: { days: 3651 } }, 'retention.days', 'maximum'],
  ['retention of 1.5 days', { retention: { days: 1.5 } }, 'retention.days', 'type'],
  ['retention without days', { retention: {} }, 'retention.days', 'required'],
  ['an unknown ui theme', { ui: { theme: 'neon' } }, 'ui.theme', 'enum'],
  ['an unknown ui progress', { ui: { progress: 'dots' } }, 'ui.progress', 'enum'],
  ['an unknown ui layout', { ui: { layout: 'grid' } }, 'ui.layout', 'enum'],
  ['a javascript: redirectUrl', { ui: { redirectUrl: 'javascript:alert(1)' } }, 'ui.redirectUrl', 'pattern'],
  // ui.accentColor (API.md §11.1): #rrggbb, 4.5:1 against #ffffff (light) and #000000 (dark)
  ['an accentColor that is not #rrggbb', { ui: { accentColor: 'red' } }, 'ui.accentColor', 'pattern'],
  ['a short accentColor', { ui: { accentColor: '#abc' } }, 'ui.accentColor', 'pattern'],
  [
    'a pale accentColor on the light theme',
    { ui: { theme: 'light', accentColor: '#8fb0ff' } },
    'ui.accentColor',
    'contrast',
  ],
  [
    'a dark accentColor on the dark theme',
    { ui: { theme: 'dark', accentColor: '#123456' } },
    'ui.accentColor',
    'contrast',
  ],
  [
    'a dark accentColor on the auto theme (its dark scheme)',
    { ui: { theme: 'auto', accentColor: '#2b59c3' } },
    'ui.accentColor',
    'contrast',
  ],
  [
    'a pale accentColor on the auto theme (its light scheme)',
    { ui: { accentColor: '#9ecbff' } },
    'ui.accentColor',
    'contrast',
  ],
  [
    'a mid-grey just under 4.5:1 on white, on auto',
    { ui: { accentColor: '#777777' } },
    'ui.accentColor',
    'contrast',
  ],
  ['a language that is not BCP 47', { ui: { language: 'english!' } }, 'ui.language', 'pattern'],
  // ui.embedOrigins (API.md §11.2): origins, scheme://host[:port], at most 20
  [
    'embedOrigins that are not a list',
    { ui: { embedOrigins: 'https://example.com' } },
    'ui.embedOrigins',
    'type',
  ],
  [
    'more than 20 embedOrigins',
    { ui: { embedOrigins: Array.from({ length: 21 }, (_, i) => `https://site${i}.example`) } },
    'ui.embedOrigins',
    'maxItems',
  ],
  ['an empty embed origin', { ui: { embedOrigins: [''] } }, 'ui.embedOrigins[0]', 'minLength'],
  [
    'an embed origin with a path',
    { ui: { embedOrigins: ['https://example.com/forms'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  [
    'an embed origin with a trailing slash',
    { ui: { embedOrigins: ['https://example.com/'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  [
    'an embed origin without a scheme',
    { ui: { embedOrigins: ['example.com'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  [
    'an ftp: embed origin',
    { ui: { embedOrigins: ['ftp://example.com'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  [
    'a wildcard embed origin',
    { ui: { embedOrigins: ['https://*.example.com'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  [
    'an embed origin in capitals',
    { ui: { embedOrigins: ['https://Example.com'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  [
    'an embed origin with its default port',
    { ui: { embedOrigins: ['https://example.com:443'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  ['the embed origin *', { ui: { embedOrigins: ['*'] } }, 'ui.embedOrigins[0]', 'invalid_origin'],
  ["the embed origin 'self'", { ui: { embedOrigins: ["'self'"] } }, 'ui.embedOrigins[0]', 'invalid_origin'],
  [
    'an embed origin with a CSP separator',
    { ui: { embedOrigins: ['https://a.com; script-src *'] } },
    'ui.embedOrigins[0]',
    'invalid_origin',
  ],
  ['an unknown storage pii handling', { storage: { pii: 'shredded' } }, 'storage.pii', 'enum'],
  ['an unknown storage mode', { storage: { mode: 'cloud' } }, 'storage.mode', 'enum'],
  ['an unknown storage member', { storage: { encrypt: true } }, 'storage.encrypt', 'unknown_member'],
  // webhooks
  [
    'a webhook with an ftp:// url',
    { webhooks: [{ event: 'response.created', url: 'ftp://example.com/hook' }] },
    'webhooks[0].url',
    'invalid_url',
  ],
  [
    'a webhook url that is not a URL',
    { webhooks: [{ event: 'response.created', url: 'not a url' }] },
    'webhooks[0].url',
    'invalid_url',
  ],
  [
    'a webhook with an unknown event',
    { webhooks: [{ event: 'response.exploded', url: 'https://example.com/hook' }] },
    'webhooks[0].event',
    'enum',
  ],
  [
    'a webhook with an unknown format',
    { webhooks: [{ event: 'response.created', url: 'https://example.com/hook', format: 'xml' }] },
    'webhooks[0].format',
    'enum',
  ],
  // the form itself
  ['an unknown top-level member', { colour: 'red' }, 'colour', 'unknown_member'],
  ['an empty title', { title: '' }, 'title', 'minLength'],
  ['a title of 501 characters', { title: 't'.repeat(501) }, 'title', 'maxLength'],
  ['a title that is not a string', { title: 42 }, 'title', 'type'],
  ['an unknown status', { status: 'published' }, 'status', 'enum'],
];

function expectInvalidForm(response: Response): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({
    status: 400,
    code: 'invalid_form',
  });
  expect(response.headers['content-type']).toContain('application/problem+json');
  expect(Array.isArray(response.body.errors)).toBe(true);
  expect(response.body.errors.length).toBeGreaterThan(0);
  for (const error of response.body.errors) {
    expect(error).toEqual({
      field: expect.any(String),
      code: expect.any(String),
      message: expect.any(String),
    });
  }
}

function expectError(response: Response, field: string, code: string): void {
  expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
}

describe('form definition validation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const create = (auth: string, overrides: Overrides) =>
    t.request({ method: 'POST', url: '/forms', auth, body: formBody(overrides) });

  describe.each(['POST', 'PUT'] as const)('%s /forms: invalid definitions are 400 invalid_form', (method) => {
    it.each(INVALID)('refuses %s', async (_name, overrides, field, code) => {
      const user = await signup(t);
      if (method === 'POST') {
        const response = await create(user.token, overrides);
        expectInvalidForm(response);
        expectError(response, field, code);
        const list = await t.request({
          method: 'GET',
          url: '/forms?environment=development',
          auth: user.token,
        });
        expect(list.body.data).toEqual([]);
      } else {
        const stored = await createForm(t, user.token);
        const response = await t.request({
          method: 'PUT',
          url: `/forms/${stored.id}`,
          auth: user.token,
          body: formBody(overrides),
        });
        expectInvalidForm(response);
        expectError(response, field, code);
        const read = await t.request({ method: 'GET', url: `/forms/${stored.id}`, auth: user.token });
        expect(read.body).toEqual(stored);
      }
    });
  });

  it('lists every problem of a definition with many, shape and cross-member alike', async () => {
    const user = await signup(t);
    const response = await create(user.token, {
      title: '',
      fields: [
        text('a'),
        text('a'),
        { id: 'b', type: 'signature', label: 'B' },
        number('c', { min: 5, max: 1 }),
        select('d'),
        text('e', { pattern: '(a+)+' }),
        text('f', { pattern: '[' }),
      ],
      logic: { rules: [{ when: { field: 'ghost', op: 'equals', value: 1 }, show: ['a'] }] },
      retention: { days: 0 },
      notifications: { email: { enabled: true, to: [] } },
      autoResponse: { enabled: true, emailField: 'a', subject: 'Hi', body: 'Thanks' },
      spamProtection: { honeypot: { field: 'a' }, action: 'reject' },
      ui: { theme: 'neon' },
      colour: 'red',
    });
    expectInvalidForm(response);
    const expected: Array<[string, string]> = [
      ['title', 'minLength'],
      ['fields[1].id', 'duplicate'],
      ['fields[2].type', 'enum'],
      ['fields[3].min', 'range'],
      ['fields[4].options', 'required'],
      ['fields[5].pattern', 'unsafe_pattern'],
      ['fields[6].pattern', 'invalid_pattern'],
      ['logic.rules[0].when.field', 'unknown_field'],
      ['retention.days', 'minimum'],
      ['notifications.email.to', 'required'],
      ['autoResponse.emailField', 'invalid'],
      ['spamProtection.honeypot.field', 'conflict'],
      ['ui.theme', 'enum'],
      ['colour', 'unknown_member'],
    ];
    for (const [field, code] of expected) expectError(response, field, code);
    expect(response.body.detail).toMatch(/more problems/);
  });

  it('lists every cross-member problem when the shape is right', async () => {
    const user = await signup(t);
    const response = await create(user.token, {
      fields: [text('a'), text('a'), number('n', { min: 2, max: 1 }), select('s', { options: ['x', 'x'] })],
      logic: { rules: [{ when: { field: 'n', op: 'in', value: 3 }, hide: ['ghost'] }] },
      spamProtection: {
        honeypot: { field: 'n' },
        captcha: { provider: 'hcaptcha', siteKey: 'k' },
        rules: [{ field: 'nope', op: 'equals', value: 'x' }],
        action: 'flag',
      },
      webhooks: [{ event: 'form.updated', url: 'ftp://example.com' }],
    });
    expectInvalidForm(response);
    const expected: Array<[string, string]> = [
      ['fields[1].id', 'duplicate'],
      ['fields[2].min', 'range'],
      ['fields[3].options[1]', 'duplicate'],
      ['logic.rules[0].when.value', 'type'],
      ['logic.rules[0].hide[0]', 'unknown_field'],
      ['spamProtection.honeypot.field', 'conflict'],
      ['spamProtection.captcha.secret', 'required'],
      ['spamProtection.rules[0].field', 'unknown_field'],
      ['webhooks[0].url', 'invalid_url'],
    ];
    for (const [field, code] of expected) expectError(response, field, code);
    expect(response.body.errors).toHaveLength(expected.length);
  });

  it('judges each webhook on its own: an unknown event does not hide a wrong url, beside or in the same item', async () => {
    const user = await signup(t);
    const response = await create(user.token, {
      webhooks: [
        { event: 'bogus', url: 'ftp://example.com' },
        { event: 'response.created', url: 'https://example.com/hook' },
        { event: 'response.created', url: 'gopher://example.com' },
        { event: 'response.created', url: 42 },
      ],
    });
    expectInvalidForm(response);
    const got = response.body.errors.map((e: any) => `${e.field}:${e.code}`).sort();
    expect(got).toEqual(
      expect.arrayContaining(['webhooks[0].url:invalid_url', 'webhooks[2].url:invalid_url']),
    );
    expect(got.some((entry: string) => entry.startsWith('webhooks[0].event:'))).toBe(true);
    expect(got.some((entry: string) => entry.startsWith('webhooks[3].url:'))).toBe(true);
    expect(got.some((entry: string) => entry.startsWith('webhooks[1].'))).toBe(false);
  });

  it('analyses at most 20 new patterns in one save, refusing the rest with too_many_patterns', async () => {
    const user = await signup(t);
    const unique = Date.now().toString(36);
    const fields = Array.from({ length: 22 }, (_, i) =>
      text(`f${i}`, { pattern: `[a-z]{${i + 1}}${unique}` }),
    );
    const response = await create(user.token, { fields });
    expectInvalidForm(response);
    const tooMany = response.body.errors.filter((e: any) => e.code === 'too_many_patterns');
    expect(tooMany).toHaveLength(2);
    // the 20 analysed ones are now known: the same form saves in one go
    const again = await create(user.token, { fields: fields.slice(0, 20) });
    expect(again.status).toBe(201);
  });

  describe('valid definitions are accepted', () => {
    it('takes options as strings, as {value, label}, or both, and returns them as given', async () => {
      const user = await signup(t);
      const options = ['red', { value: 'green', label: 'Green' }, { value: 'blue', label: 'Deep blue' }];
      const fields = [
        select('colour', { options }),
        select('sizes', { options: ['s', 'm', 'l'], multiple: true }),
        select('labelled', { options: [{ value: 'a', label: 'A' }] }),
      ];
      const response = await create(user.token, { fields });
      expect(response.status).toBe(201);
      expect(response.body.fields).toEqual(fields);
    });

    it.each([
      ['a bounded character class', '[A-Z]{2}[0-9]{4}'],
      ['alternatives', 'yes|no|maybe'],
      ['a simple e-mail shape', '[^@\\s]+@[^@\\s]+\\.[a-z]{2,}'],
      ['a Unicode class', '\\p{L}+'],
    ])('accepts a safe pattern: %s', async (_name, pattern) => {
      const user = await signup(t);
      const response = await create(user.token, { fields: [text('code', { pattern })] });
      expect(response.status).toBe(201);
      expect(response.body.fields[0].pattern).toBe(pattern);
    });

    it('accepts a polynomial pattern when maxLength keeps the worst case small', async () => {
      const user = await signup(t);
      const response = await create(user.token, {
        fields: [text('a', { pattern: '.*x.*y.*z', maxLength: 50 })],
      });
      expect(response.status).toBe(201);
    });

    it('accepts conditions nested with all and any', async () => {
      const user = await signup(t);
      const logic = {
        rules: [
          {
            when: {
              all: [
                { field: 'topic', op: 'in', value: ['sales', 'support'] },
                {
                  any: [
                    { field: 'name', op: 'isNotEmpty' },
                    { all: [{ field: 'email', op: 'contains', value: '@example.com' }] },
                  ],
                },
              ],
            },
            show: ['message'],
          },
          { when: { field: 'name', op: 'isEmpty' }, hide: ['email'] },
        ],
      };
      const response = await create(user.token, { logic });
      expect(response.status).toBe(201);
      expect(response.body.logic).toEqual(logic);
    });

    // each on a field it fits (API.md §5.4): comparisons of order only on numbers, ratings and dates
    it.each([
      ['equals', 'name', 'x'],
      ['notEquals', 'name', 'x'],
      ['contains', 'name', 'x'],
      ['notContains', 'name', 'x'],
      ['gt', 'count', 1],
      ['gte', 'count', 1],
      ['lt', 'count', 10],
      ['lte', 'count', 10],
      ['in', 'name', ['a', 'b']],
      ['isEmpty', 'name', undefined],
      ['isNotEmpty', 'name', undefined],
    ])('accepts the operator %s', async (op, field, value) => {
      const user = await signup(t);
      const when = value === undefined ? { field, op } : { field, op, value };
      const fields = [...(formBody().fields as unknown[]), number('count')];
      const response = await create(user.token, { fields, logic: { rules: [{ when, show: ['message'] }] } });
      expect(response.status).toBe(201);
      expect(response.body.logic.rules[0].when).toEqual(when);
    });

    it('accepts every field type with its own constraints', async () => {
      const user = await signup(t);
      const fields = [
        text('t', { minLength: 2, maxLength: 5, placeholder: 'p', help: 'h' }),
        { id: 'e', type: 'email', label: 'E', pii: true, piiMode: 'encrypted' },
        { id: 'ta', type: 'textarea', label: 'TA', maxLength: 5000 },
        select('s', { options: ['a'] }),
        number('n', { min: -5, max: 5, integer: true }),
        { id: 'cb', type: 'checkbox', label: 'CB' },
        { id: 'd', type: 'date', label: 'D' },
        { id: 'u', type: 'url', label: 'U' },
        { id: 'p', type: 'phone', label: 'P' },
        { id: 'h', type: 'hidden', label: 'H' },
        { id: 'r', type: 'rating', label: 'R', min: 1, max: 5 },
        text('f'.repeat(64), { label: 'l'.repeat(500) }),
      ];
      const response = await create(user.token, { title: 't'.repeat(500), fields });
      expect(response.status).toBe(201);
      expect(response.body.fields).toEqual(fields);
    });

    it('accepts min equal to max and minLength equal to maxLength', async () => {
      const user = await signup(t);
      const response = await create(user.token, {
        fields: [number('n', { min: 3, max: 3 }), text('t', { minLength: 4, maxLength: 4 })],
      });
      expect(response.status).toBe(201);
    });

    it.each([1, 3650])('accepts retention of %i days', async (days) => {
      const user = await signup(t);
      const response = await create(user.token, { retention: { days } });
      expect(response.status).toBe(201);
      expect(response.body.retention).toEqual({ days });
    });

    it('accepts the full configuration: notifications, auto-response, spam protection, ui extras', async () => {
      const user = await signup(t);
      const config = {
        ui: { theme: 'dark', progress: 'none', layout: 'classic', submitLabel: 'Go', accentColor: '#9ecbff' },
        storage: { mode: 'none', pii: 'dropped' },
        notifications: { email: { enabled: true, to: ['a@example.com', 'b@example.com'] } },
        autoResponse: {
          enabled: true,
          emailField: 'email',
          subject: 'Hi {{name}}',
          body: 'Thanks, {{name}}',
        },
        spamProtection: {
          honeypot: { field: 'website' },
          captcha: { provider: 'recaptcha', siteKey: 'k', secret: 's', minScore: 0.5 },
          rules: [
            { field: 'message', op: 'matches', value: 'https?://' },
            { field: 'name', op: 'equals', value: 'spammer' },
          ],
          action: 'quarantine',
        },
        webhooks: [
          { event: 'response.created', url: 'https://example.com/hook', format: 'otel', secret: 'whsec_abc' },
          { event: 'form.updated', url: 'http://example.com/hook' },
        ],
      };
      const response = await create(user.token, config);
      expect(response.status).toBe(201);
      const { webhooks: _webhooks, spamProtection, ...rest } = config;
      expect(response.body).toMatchObject(rest);
      expect(response.body.spamProtection).toEqual({
        ...spamProtection,
        captcha: { provider: 'recaptcha', siteKey: 'k', minScore: 0.5, hasSecret: true },
      });
    });

    it.each([
      ['light', '#123456'],
      ['light', '#2b59c3'],
      ['dark', '#9ecbff'],
      ['dark', '#8fb0ff'],
      ['auto', '#0a7ea4'],
      ['auto', '#767676'],
    ])(
      'accepts an accentColor with 4.5:1 against the %s theme’s background (%s)',
      async (theme, accentColor) => {
        const user = await signup(t);
        const response = await create(user.token, {
          ui: { theme, accentColor, language: 'he', description: 'Hi' },
        });
        expect(response.status).toBe(201);
        expect(response.body.ui).toMatchObject({ theme, accentColor });
      },
    );

    it('accepts ui.embedOrigins as origins (ports, localhost, IP addresses), and an empty list', async () => {
      const user = await signup(t);
      const embedOrigins = [
        'https://example.com',
        'http://localhost:8080',
        'http://127.0.0.1:5173',
        'https://a-b.example.co.uk',
      ];
      const response = await create(user.token, { ui: { embedOrigins } });
      expect(response.status).toBe(201);
      expect(response.body.ui.embedOrigins).toEqual(embedOrigins);
      const empty = await create(user.token, { ui: { embedOrigins: [] } });
      expect(empty.status).toBe(201);
      expect(empty.body.ui.embedOrigins).toEqual([]);
    });

    it('refuses each bad embed origin on its own, saying how to write it', async () => {
      const user = await signup(t);
      const response = await create(user.token, {
        ui: {
          embedOrigins: [
            'https://ok.example',
            'https://Example.com:443/path',
            'example.com',
            'http://fine.test:81',
          ],
        },
      });
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('invalid_form');
      expect(response.body.errors).toEqual([
        {
          field: 'ui.embedOrigins[1]',
          code: 'invalid_origin',
          message:
            'must be an origin such as "https://example.com" (http or https, host and optional port, no path, no wildcard); write it as "https://example.com"',
        },
        {
          field: 'ui.embedOrigins[2]',
          code: 'invalid_origin',
          message:
            'must be an origin such as "https://example.com" (http or https, host and optional port, no path, no wildcard)',
        },
      ]);
    });

    it('names the contrast and the background in the refusal of an accentColor', async () => {
      const user = await signup(t);
      const response = await create(user.token, { ui: { accentColor: '#2b59c3' } });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        {
          field: 'ui.accentColor',
          code: 'contrast',
          message:
            'has a contrast of 3.32:1 against the dark background #000000; at least 4.5:1 is needed; with theme auto it must contrast with both (a mid-tone such as #0a7ea4 or #767676), or set ui.theme to light or dark',
        },
      ]);
    });

    it('accepts notifications that are disabled with no addresses', async () => {
      const user = await signup(t);
      const response = await create(user.token, { notifications: { email: { enabled: false, to: [] } } });
      expect(response.status).toBe(201);
      expect(response.body.notifications).toEqual({ email: { enabled: false, to: [] } });
    });

    it('accepts a form without fields', async () => {
      const user = await signup(t);
      const response = await create(user.token, { fields: [] });
      expect(response.status).toBe(201);
      expect(response.body.fields).toEqual([]);
    });

    it('accepts on PUT what it accepts on POST', async () => {
      const user = await signup(t);
      const stored = await createForm(t, user.token);
      const fields = [...stored.fields, select('size', { options: ['s', { value: 'm', label: 'Medium' }] })];
      const response = await t.request({
        method: 'PUT',
        url: `/forms/${stored.id}`,
        auth: user.token,
        body: {
          fields,
          logic: {
            rules: [{ when: { any: [{ field: 'size', op: 'equals', value: 'm' }] }, show: ['message'] }],
          },
        },
      });
      expect(response.status).toBe(200);
      expect(response.body.fields).toEqual(fields);
      expect(response.body.version).toBe(2);
    });
  });
});
