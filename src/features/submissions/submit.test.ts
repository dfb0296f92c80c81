import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { expectProblem, ISO_MS, storedCount } from '../../../test/support/assertions.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * API.md §6.1, the submit path: who may submit to which status, the success answer, every
 * validation rule (all failures at once, `field` = field id) and conditional logic with
 * every operator. PII, spam and limits have files of their own (submit-*.test.ts).
 */

let t: TestApp;

beforeAll(async () => {
  // Many anonymous submissions come from one address here: the limits are tested elsewhere.
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000 });
});
afterAll(async () => {
  await t.close();
});

const VALID = { answers: { name: 'Ada', email: 'ada@example.com' } };

function submitTo(
  formId: string,
  body: unknown,
  options: { auth?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return t.request({ method: 'POST', url: `/forms/${formId}/submit`, body, ...options });
}

async function readBack(owner: TestUser, formId: string, id: string): Promise<any> {
  const response = await t.request({
    method: 'GET',
    url: `/responses/${id}?form_id=${formId}&environment=development`,
    auth: owner.token,
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe('who may submit (status × caller)', () => {
  const STATUSES = ['draft', 'live', 'active', 'disabled', 'archived'] as const;
  type Status = (typeof STATUSES)[number];
  type Caller =
    | 'anonymous'
    | 'publishable key'
    | 'publishable key in X-Publishable-Key'
    | 'secret key'
    | 'secret key in X-API-Key'
    | 'secret key of another environment'
    | 'publishable key of another environment'
    | 'secret key of another user'
    | 'publishable key of another user'
    | 'invalid key'
    | 'owner session'
    | 'session of another user';

  const owner = {} as TestUser;
  const forms = {} as Record<Status, string>;
  const credentials = {} as Record<Caller, { auth?: string; headers?: Record<string, string> }>;

  beforeAll(async () => {
    Object.assign(owner, await signup(t));
    const other = await signup(t);
    for (const status of STATUSES) forms[status] = (await createForm(t, owner.token, { status })).id;
    const publishable = await createKey(t, owner, 'publishable');
    const secret = await createKey(t, owner, 'secret');
    const secretProduction = await createKey(t, owner, 'secret', 'production');
    const publishableProduction = await createKey(t, owner, 'publishable', 'production');
    const otherSecret = await createKey(t, other, 'secret');
    const otherPublishable = await createKey(t, other, 'publishable');
    Object.assign(credentials, {
      anonymous: {},
      'publishable key': { auth: publishable.key },
      'publishable key in X-Publishable-Key': { headers: { 'x-publishable-key': publishable.key } },
      'secret key': { auth: secret.key },
      'secret key in X-API-Key': { headers: { 'x-api-key': secret.key } },
      'secret key of another environment': { auth: secretProduction.key },
      'publishable key of another environment': { auth: publishableProduction.key },
      'secret key of another user': { auth: otherSecret.key },
      'publishable key of another user': { auth: otherPublishable.key },
      'invalid key': { auth: `sk_live_${'0'.repeat(40)}` },
      'owner session': { auth: owner.token },
      'session of another user': { auth: other.token },
    } satisfies Record<Caller, unknown>);
  });

  const ok = [201, undefined] as const;
  const notFound = [404, 'not_found'] as const;
  const closed = [403, 'form_closed'] as const;
  const forbidden = [403, 'forbidden'] as const;
  const unauthorized = [401, 'unauthorized'] as const;
  const all = (answer: readonly [number, string | undefined]) =>
    Object.fromEntries(STATUSES.map((status) => [status, answer])) as Record<
      Status,
      readonly [number, string | undefined]
    >;

  const EXPECTED: Record<Caller, Record<Status, readonly [number, string | undefined]>> = {
    anonymous: { draft: notFound, live: ok, active: notFound, disabled: closed, archived: closed },
    'publishable key': { draft: forbidden, live: ok, active: ok, disabled: closed, archived: closed },
    'publishable key in X-Publishable-Key': {
      draft: forbidden,
      live: ok,
      active: ok,
      disabled: closed,
      archived: closed,
    },
    'secret key': { draft: ok, live: ok, active: ok, disabled: closed, archived: closed },
    'secret key in X-API-Key': { draft: ok, live: ok, active: ok, disabled: closed, archived: closed },
    'secret key of another environment': all(forbidden),
    'publishable key of another environment': all(forbidden),
    'secret key of another user': all(forbidden),
    'publishable key of another user': all(forbidden),
    'invalid key': all(unauthorized),
    'owner session': all(forbidden),
    'session of another user': all(forbidden),
  };

  const cases = Object.entries(EXPECTED).flatMap(([caller, byStatus]) =>
    STATUSES.map((status) => [caller as Caller, status, byStatus[status][0], byStatus[status][1]] as const),
  );

  it.each(cases)('%s → %s form: %i %s', async (caller, status, expectedStatus, code) => {
    const formId = forms[status];
    const before = await storedCount(t, formId);
    const response = await submitTo(formId, VALID, credentials[caller]);
    if (code === undefined) {
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ formId, environment: 'development', status: 'accepted' });
      expect(await storedCount(t, formId)).toBe(before + 1);
    } else {
      expectProblem(response, expectedStatus, code);
      expect(await storedCount(t, formId)).toBe(before);
    }
  });

  it.each<Caller>(['anonymous', 'publishable key', 'secret key'])(
    'an unknown form is 404 not_found (%s)',
    async (caller) => {
      expectProblem(await submitTo('frm_does_not_exist', VALID, credentials[caller]), 404, 'not_found');
    },
  );
});

describe('success', () => {
  it('answers 201 {id, formId, environment, status, createdAt} and stores the submission', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live' });
    const response = await submitTo(form.id, { ...VALID, sessionId: 'sess-1' });
    expect(response.status, response.text).toBe(201);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'environment', 'formId', 'id', 'status']);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^sub_/),
      formId: form.id,
      environment: 'development',
      status: 'accepted',
      createdAt: expect.stringMatching(ISO_MS),
    });
    const stored = await readBack(owner, form.id, response.body.id);
    expect(stored).toMatchObject({
      id: response.body.id,
      formId: form.id,
      environment: 'development',
      answers: { name: 'Ada', email: 'ada@example.com' },
      sessionId: 'sess-1',
      status: 'accepted',
      read: false,
      starred: false,
      notes: [],
      createdAt: response.body.createdAt,
    });
  });

  it('a submission to a production form carries that environment', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live', environment: 'production' });
    const response = await submitTo(form.id, VALID);
    expect(response.status, response.text).toBe(201);
    expect(response.body.environment).toBe('production');
  });

  it.each([
    ['answers missing', { sessionId: 'x' }, 'answers'],
    ['answers not an object', { answers: ['a'] }, 'answers'],
    ['an unknown top-level member', { answers: {}, extra: 1 }, 'extra'],
  ])('a body with %s is 400 validation_failed', async (_name, body, field) => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live' });
    const response = await submitTo(form.id, body);
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });
});

describe('validation (API.md §6.1 rules 1–4)', () => {
  const FIELDS = [
    { id: 'name', type: 'text', label: 'Name', required: true, minLength: 2, maxLength: 5 },
    { id: 'code', type: 'text', label: 'Code', pattern: '[a-z]+' },
    { id: 'alt', type: 'text', label: 'A or B', pattern: 'a|b' },
    { id: 'email', type: 'email', label: 'E-mail' },
    { id: 'age', type: 'number', label: 'Age', min: 18, max: 120, integer: true },
    { id: 'score', type: 'number', label: 'Score' },
    {
      id: 'topic',
      type: 'select',
      label: 'Topic',
      options: ['sales', { value: 'support', label: 'Support' }],
    },
    { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['a', 'b', 'c'] },
    { id: 'agree', type: 'checkbox', label: 'Newsletter' },
    { id: 'consent', type: 'checkbox', label: 'Consent', required: true },
    { id: 'day', type: 'date', label: 'Day' },
    { id: 'site', type: 'url', label: 'Site' },
    { id: 'phone', type: 'phone', label: 'Phone' },
    { id: 'stars', type: 'rating', label: 'Stars' },
    { id: 'ref', type: 'hidden', label: 'Ref', maxLength: 10 },
    { id: 'notes', type: 'textarea', label: 'Notes', maxLength: 3 },
  ];
  const BASE = { name: 'Ada', consent: true };
  const owner = {} as TestUser;
  let formId: string;

  beforeAll(async () => {
    Object.assign(owner, await signup(t));
    formId = (await createForm(t, owner.token, { status: 'live', fields: FIELDS })).id;
  });

  const rejects = async (answers: Record<string, unknown>) => {
    const response = await submitTo(formId, { answers: { ...BASE, ...answers } });
    expectProblem(response, 400, 'validation_failed');
    return response.body.errors as Array<{ field: string; code: string; message: string }>;
  };
  const accepts = async (answers: Record<string, unknown>) => {
    const response = await submitTo(formId, { answers: { ...BASE, ...answers } });
    expect(response.status, response.text).toBe(201);
    return (await readBack(owner, formId, response.body.id)).answers;
  };

  it('the minimal valid submission is accepted', async () => {
    expect(await accepts({})).toEqual({ name: 'Ada', consent: true });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    // 1. required
    ['required text missing', { name: undefined }, 'name', 'required'],
    ['required text empty', { name: '' }, 'name', 'required'],
    ['required text blank', { name: '   ' }, 'name', 'required'],
    ['required text null', { name: null }, 'name', 'required'],
    ['required checkbox unticked', { consent: false }, 'consent', 'required'],
    ['required checkbox missing', { consent: undefined }, 'consent', 'required'],
    // 2. types: strings are strings
    ['text given a number', { code: 42 }, 'code', 'type'],
    ['text given a boolean', { code: true }, 'code', 'type'],
    ['text given an array', { code: ['abc'] }, 'code', 'type'],
    ['text given an object', { code: { a: 1 } }, 'code', 'type'],
    ['textarea given a number', { notes: 1 }, 'notes', 'type'],
    ['hidden field given a number', { ref: 7 }, 'ref', 'type'],
    // email
    ['email without @', { email: 'not-an-email' }, 'email', 'invalid_email'],
    ['email without a dot in the domain', { email: 'a@b' }, 'email', 'invalid_email'],
    ['email with a space inside', { email: 'jane doe@example.com' }, 'email', 'invalid_email'],
    ['email with two @', { email: 'a@b@example.com' }, 'email', 'invalid_email'],
    ['email given a number', { email: 5 }, 'email', 'type'],
    // number
    ['number given a numeric string', { score: '5' }, 'score', 'type'],
    ['number given a boolean', { score: true }, 'score', 'type'],
    ['number given an array', { score: [1] }, 'score', 'type'],
    // select
    ['select given an unknown option', { topic: 'billing' }, 'topic', 'invalid_option'],
    ['select given an option label instead of its value', { topic: 'Support' }, 'topic', 'invalid_option'],
    ['single select given an array', { topic: ['sales'] }, 'topic', 'type'],
    ['multiple select given a string', { tags: 'a' }, 'tags', 'type'],
    ['multiple select with an unknown option', { tags: ['a', 'z'] }, 'tags', 'invalid_option'],
    ['multiple select with a number inside', { tags: ['a', 1] }, 'tags', 'type'],
    // checkbox
    ['checkbox given a string', { agree: 'yes' }, 'agree', 'type'],
    ['checkbox given a number', { agree: 1 }, 'agree', 'type'],
    // date
    ['date that does not exist', { day: '2023-02-29' }, 'day', 'invalid_date'],
    ['date in another format', { day: '01/02/2024' }, 'day', 'invalid_date'],
    ['date-time instead of a date', { day: '2024-01-02T10:00:00Z' }, 'day', 'invalid_date'],
    ['date month 13', { day: '2024-13-01' }, 'day', 'invalid_date'],
    ['date given a number', { day: 20240102 }, 'day', 'invalid_date'],
    // url
    ['url with another scheme', { site: 'ftp://example.com/file' }, 'site', 'invalid_url'],
    ['url javascript:', { site: 'javascript:alert(1)' }, 'site', 'invalid_url'],
    ['url not absolute', { site: 'example.com' }, 'site', 'invalid_url'],
    // phone
    ['phone with letters', { phone: 'call me' }, 'phone', 'invalid_phone'],
    ['phone too short', { phone: '12' }, 'phone', 'invalid_phone'],
    // rating (1..5, whole numbers, by default)
    ['rating above 5', { stars: 6 }, 'stars', 'maximum'],
    ['rating below 1', { stars: 0 }, 'stars', 'minimum'],
    ['rating not whole', { stars: 4.5 }, 'stars', 'integer'],
    ['rating given a string', { stars: '5' }, 'stars', 'type'],
    // 3. minLength / maxLength in code points, pattern on the whole value, min / max / integer
    ['minLength counts code points (one emoji is one)', { name: '😀' }, 'name', 'min_length'],
    ['maxLength counts code points', { name: '😀😀😀😀😀😀' }, 'name', 'max_length'],
    ['maxLength on a textarea', { notes: 'abcd' }, 'notes', 'max_length'],
    ['maxLength on a hidden field', { ref: 'x'.repeat(11) }, 'ref', 'max_length'],
    ['pattern must match the whole value (suffix)', { code: 'abc1' }, 'code', 'pattern'],
    ['pattern must match the whole value (prefix)', { code: '1abc' }, 'code', 'pattern'],
    ['pattern alternation is anchored as a whole', { alt: 'ab' }, 'alt', 'pattern'],
    ['number below min', { age: 17 }, 'age', 'minimum'],
    ['number above max', { age: 121 }, 'age', 'maximum'],
    ['number not an integer', { age: 30.5 }, 'age', 'integer'],
    // 4. answers to ids that are not fields
    ['an answer to an unknown id', { nope: 'x' }, 'nope', 'unknown_field'],
    ['an answer to an id differing only in case', { NAME: 'y' }, 'NAME', 'unknown_field'],
  ])('%s → errors[] names the field with its code', async (_name, answers, field, code) => {
    // exactly the broken field is reported, under its id
    expect(await rejects(answers)).toEqual([{ field, code, message: expect.any(String) }]);
  });

  it.each([
    ['text', 'name'],
    ['e-mail', 'email'],
    ['number', 'score'],
    ['single select', 'topic'],
    ['date', 'day'],
  ])('an empty list given to a %s field is refused as the wrong type, not left out', async (_kind, field) => {
    const errors = await rejects({ [field]: [] });
    expect(errors).toEqual([expect.objectContaining({ field })]);
  });

  it('an empty list for a field of several options is no answer', async () => {
    expect(await accepts({ tags: [] })).not.toHaveProperty('tags');
  });

  it('a number that is not finite (1e999 parses to Infinity) is refused', async () => {
    const response = await submitTo(formId, `{"answers":{"name":"Ada","consent":true,"score":1e999}}`);
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors).toEqual([{ field: 'score', code: 'type', message: expect.any(String) }]);
  });

  it('reports every failure at once, each under its field id', async () => {
    const errors = await rejects({
      name: '',
      consent: false,
      code: 'ABC',
      alt: 'c',
      email: 'x@y',
      age: 12,
      score: 'many',
      topic: 'other',
      tags: ['d'],
      agree: 'on',
      day: '2024-02-30',
      site: 'mailto:a@b.c',
      phone: 'none',
      stars: 9,
      ref: 'x'.repeat(20),
      notes: 'long',
      ghost: 'boo',
    });
    const got = errors.map((e) => `${e.field}:${e.code}`).sort();
    expect(got).toEqual(
      [
        'name:required',
        'consent:required',
        'code:pattern',
        'alt:pattern',
        'email:invalid_email',
        'age:minimum',
        'score:type',
        'topic:invalid_option',
        'tags:invalid_option',
        'agree:type',
        'day:invalid_date',
        'site:invalid_url',
        'phone:invalid_phone',
        'stars:maximum',
        'ref:max_length',
        'notes:max_length',
        'ghost:unknown_field',
      ].sort(),
    );
    for (const error of errors) expect(error.message).toEqual(expect.any(String));
  });

  it('nothing is stored when validation fails', async () => {
    const before = await storedCount(t, formId);
    await rejects({ name: '' });
    expect(await storedCount(t, formId)).toBe(before);
  });

  it('accepts valid values of every type and stores them normalised', async () => {
    const answers = await accepts({
      name: 'Zoë😀',
      code: 'abc',
      alt: 'b',
      email: '  Jane.Doe+tag@Example.co.uk ',
      age: 18,
      score: -2.5,
      topic: 'support',
      tags: ['c', 'a', 'c'],
      agree: false,
      day: '2024-02-29',
      site: 'https://example.com/path?q=1',
      phone: '+49 (151) 123-456 78',
      stars: 5,
      ref: 'utm-1',
      notes: 'ok!',
    });
    expect(answers).toEqual({
      name: 'Zoë😀',
      consent: true,
      code: 'abc',
      alt: 'b',
      email: 'Jane.Doe+tag@Example.co.uk',
      age: 18,
      score: -2.5,
      topic: 'support',
      tags: ['c', 'a'],
      agree: false,
      day: '2024-02-29',
      site: 'https://example.com/path?q=1',
      phone: '+49 (151) 123-456 78',
      stars: 5,
      ref: 'utm-1',
      notes: 'ok!',
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ['boundaries of min and max', { age: 120, stars: 1 }],
    ['maxLength exactly reached in code points', { name: '😀😀😀😀😀' }],
    ['minLength exactly reached', { name: 'Al' }],
    ['an optional field left empty', { code: '', email: '', tags: [] }],
    ['an optional field sent as null', { code: null, score: null }],
  ])('accepts %s', async (_name, answers) => {
    const stored = await accepts(answers);
    for (const [id, value] of Object.entries(answers)) {
      if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
        expect(stored).not.toHaveProperty(id);
      } else {
        expect(stored[id]).toEqual(value);
      }
    }
  });
});

describe('conditional logic (API.md §5.4 logic, §6.1 rule 4)', () => {
  /**
   * A `trigger` field and a required `target` shown (or hidden) by one rule. Where the rule
   * makes `target` visible, leaving it out is `required`; where it hides it, leaving it out
   * is fine and answering it is `hidden_field`.
   */
  const owner = {} as TestUser;
  beforeAll(async () => {
    Object.assign(owner, await signup(t));
  });

  async function logicForm(
    trigger: Record<string, unknown>,
    when: Record<string, unknown>,
    kind: 'show' | 'hide',
    extraFields: Record<string, unknown>[] = [],
  ): Promise<string> {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [
        { id: 'trigger', label: 'Trigger', ...trigger },
        ...extraFields,
        { id: 'target', type: 'text', label: 'Target', required: true },
      ],
      logic: { rules: [{ when, [kind]: ['target'] }] },
    });
    return form.id;
  }

  async function expectVisible(formId: string, answers: Record<string, unknown>): Promise<void> {
    const missing = await submitTo(formId, { answers });
    expectProblem(missing, 400, 'validation_failed');
    expect(missing.body.errors).toEqual([{ field: 'target', code: 'required', message: expect.any(String) }]);
    const given = await submitTo(formId, { answers: { ...answers, target: 'here' } });
    expect(given.status, given.text).toBe(201);
  }

  async function expectHidden(formId: string, answers: Record<string, unknown>): Promise<void> {
    const without = await submitTo(formId, { answers });
    expect(without.status, without.text).toBe(201);
    const answered = await submitTo(formId, { answers: { ...answers, target: 'here' } });
    expectProblem(answered, 400, 'validation_failed');
    expect(answered.body.errors).toEqual([
      { field: 'target', code: 'hidden_field', message: expect.any(String) },
    ]);
  }

  const TEXT = { type: 'text' };
  const NUMBER = { type: 'number' };
  const DATE = { type: 'date' };
  const SELECT = { type: 'select', options: ['a', 'b', 'c'] };
  const MULTI = { type: 'select', multiple: true, options: ['a', 'b', 'c'] };
  const CHECKBOX = { type: 'checkbox' };

  type Answer = unknown;
  // [op, trigger field, value, answers that match, answers that do not]
  const OPERATORS: Array<[string, Record<string, unknown>, unknown, Answer[], Answer[]]> = [
    ['equals', SELECT, 'a', ['a'], ['b', undefined]],
    ['equals', NUMBER, 10, [10], [11, undefined]],
    ['equals', CHECKBOX, true, [true], [false, undefined]],
    [
      'equals',
      MULTI,
      ['a', 'b'],
      [
        ['a', 'b'],
        ['b', 'a'],
      ],
      [['a'], ['a', 'b', 'c']],
    ],
    ['notEquals', SELECT, 'a', ['b', undefined], ['a']],
    ['notEquals', NUMBER, 10, [9, undefined], [10]],
    ['contains', TEXT, 'spam', ['this is spam', 'spam'], ['ham', 'SPA', undefined]],
    ['contains', MULTI, 'b', [['b'], ['a', 'b']], [['a', 'c'], undefined]],
    ['notContains', TEXT, 'spam', ['ham', undefined], ['some spam here']],
    ['notContains', MULTI, 'b', [['a'], undefined], [['a', 'b']]],
    ['gt', NUMBER, 10, [11, 10.5], [10, 9, undefined]],
    ['gte', NUMBER, 10, [10, 11], [9.99, undefined]],
    ['lt', NUMBER, 10, [9, -1], [10, 11, undefined]],
    ['lte', NUMBER, 10, [10, 0], [10.01, undefined]],
    ['gt', DATE, '2024-06-01', ['2024-06-02', '2025-01-01'], ['2024-06-01', '2024-05-31']],
    ['lt', DATE, '2024-06-01', ['2024-05-31'], ['2024-06-01', '2024-06-02']],
    ['in', SELECT, ['a', 'b'], ['a', 'b'], ['c', undefined]],
    ['in', MULTI, ['a', 'b'], [['b', 'c'], ['a']], [['c'], undefined]],
    ['in', NUMBER, [1, 2, 3], [2], [4, undefined]],
    ['isEmpty', TEXT, undefined, [undefined, '', '   '], ['x']],
    ['isEmpty', MULTI, undefined, [undefined, []], [['a']]],
    ['isNotEmpty', TEXT, undefined, ['x'], [undefined, '', '  ']],
    ['isNotEmpty', NUMBER, undefined, [0], [undefined]],
  ];

  const answersOf = (value: Answer): Record<string, unknown> =>
    value === undefined ? {} : { trigger: value };

  describe.each(OPERATORS)('%s on a %o trigger with value %o', (op, trigger, value, yes, no) => {
    const when = value === undefined ? { field: 'trigger', op } : { field: 'trigger', op, value };

    it.each(yes.map((a) => [a]))('show: matching answer %o shows the target (required)', async (answer) => {
      await expectVisible(await logicForm(trigger, when, 'show'), answersOf(answer));
    });
    it.each(no.map((a) => [a]))(
      'show: non-matching answer %o leaves it hidden (never required, answer refused)',
      async (answer) => {
        await expectHidden(await logicForm(trigger, when, 'show'), answersOf(answer));
      },
    );
    it.each(yes.map((a) => [a]))('hide: matching answer %o hides the target', async (answer) => {
      await expectHidden(await logicForm(trigger, when, 'hide'), answersOf(answer));
    });
    it.each(no.map((a) => [a]))('hide: non-matching answer %o leaves it visible', async (answer) => {
      await expectVisible(await logicForm(trigger, when, 'hide'), answersOf(answer));
    });
  });

  describe('all / any', () => {
    const second = [{ id: 'other', type: 'number', label: 'Other' }];
    const a = { field: 'trigger', op: 'equals', value: 'a' };
    const big = { field: 'other', op: 'gt', value: 5 };

    it('all: shown only when every condition holds', async () => {
      const formId = await logicForm(SELECT, { all: [a, big] }, 'show', second);
      await expectVisible(formId, { trigger: 'a', other: 6 });
      await expectHidden(formId, { trigger: 'a', other: 5 });
      await expectHidden(formId, { trigger: 'b', other: 6 });
      await expectHidden(formId, {});
    });

    it('any: shown when one condition holds', async () => {
      const formId = await logicForm(SELECT, { any: [a, big] }, 'show', second);
      await expectVisible(formId, { trigger: 'a', other: 1 });
      await expectVisible(formId, { trigger: 'b', other: 6 });
      await expectHidden(formId, { trigger: 'b', other: 5 });
      await expectHidden(formId, {});
    });

    it('nested: any of (all of …) and a leaf', async () => {
      const formId = await logicForm(
        SELECT,
        { any: [{ all: [a, big] }, { field: 'trigger', op: 'equals', value: 'c' }] },
        'hide',
        second,
      );
      await expectHidden(formId, { trigger: 'a', other: 9 });
      await expectHidden(formId, { trigger: 'c' });
      await expectVisible(formId, { trigger: 'a', other: 1 });
      await expectVisible(formId, { trigger: 'b', other: 9 });
    });
  });

  it('a field shown by several rules is visible when any one of them matches', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [
        { id: 'trigger', type: 'select', label: 'T', options: ['a', 'b', 'c'] },
        { id: 'target', type: 'text', label: 'Target', required: true },
      ],
      logic: {
        rules: [
          { when: { field: 'trigger', op: 'equals', value: 'a' }, show: ['target'] },
          { when: { field: 'trigger', op: 'equals', value: 'b' }, show: ['target'] },
        ],
      },
    });
    await expectVisible(form.id, { trigger: 'a' });
    await expectVisible(form.id, { trigger: 'b' });
    await expectHidden(form.id, { trigger: 'c' });
  });

  it('hide wins over show when both rules match', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [
        { id: 'trigger', type: 'select', label: 'T', options: ['a', 'b'] },
        { id: 'target', type: 'text', label: 'Target', required: true },
      ],
      logic: {
        rules: [
          { when: { field: 'trigger', op: 'isNotEmpty' }, show: ['target'] },
          { when: { field: 'trigger', op: 'equals', value: 'b' }, hide: ['target'] },
        ],
      },
    });
    await expectVisible(form.id, { trigger: 'a' });
    await expectHidden(form.id, { trigger: 'b' });
  });

  it('hidden-field answers and other failures are reported together; hidden fields keep no value', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [
        { id: 'trigger', type: 'select', label: 'T', options: ['yes', 'no'] },
        { id: 'target', type: 'text', label: 'Target', required: true },
        { id: 'mail', type: 'email', label: 'Mail', required: true },
      ],
      logic: { rules: [{ when: { field: 'trigger', op: 'equals', value: 'yes' }, show: ['target'] }] },
    });
    const response = await submitTo(form.id, { answers: { trigger: 'no', target: 'x', mail: 'bad' } });
    expectProblem(response, 400, 'validation_failed');
    expect(response.body.errors.map((e: any) => `${e.field}:${e.code}`).sort()).toEqual([
      'mail:invalid_email',
      'target:hidden_field',
    ]);
    // an empty answer to a hidden field is no answer: accepted, and not stored
    const ok = await submitTo(form.id, { answers: { trigger: 'no', target: '', mail: 'a@example.com' } });
    expect(ok.status, ok.text).toBe(201);
    const stored = await readBack(owner, form.id, ok.body.id);
    expect(stored.answers).toEqual({ trigger: 'no', mail: 'a@example.com' });
    // `[]` to a hidden field of one value is no blank answer: refused as it is when shown
    const list = await submitTo(form.id, { answers: { trigger: 'no', target: [], mail: 'a@example.com' } });
    expectProblem(list, 400, 'validation_failed');
    expect(list.body.errors).toEqual([
      { field: 'target', code: 'hidden_field', message: expect.any(String) },
    ]);
  });
});

describe('field ids that are also names of every JavaScript object', () => {
  it('unanswered fields named toString, constructor, valueOf are simply unanswered', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [
        { id: 'name', type: 'text', label: 'Name', required: true },
        { id: 'toString', type: 'email', label: 'E-mail', piiMode: 'hashed' },
        { id: 'constructor', type: 'text', label: 'Company', piiMode: 'masked' },
        { id: 'valueOf', type: 'number', label: 'Size', piiMode: 'encrypted' },
        { id: 'target', type: 'text', label: 'Target', required: true },
      ],
      logic: { rules: [{ when: { field: 'constructor', op: 'isNotEmpty' }, show: ['target'] }] },
      spamProtection: { rules: [{ field: 'toString', op: 'contains', value: 'native' }], action: 'reject' },
    });
    const response = await submitTo(form.id, { answers: { name: 'Ada' } });
    expect(response.status, response.text).toBe(201);
    expect((await readBack(owner, form.id, response.body.id)).answers).toEqual({ name: 'Ada' });

    const answered = await submitTo(form.id, {
      answers: { name: 'Ada', toString: 'a@example.com', constructor: 'ACME Ltd', valueOf: 3, target: 'x' },
    });
    expect(answered.status, answered.text).toBe(201);
    const stored = (await readBack(owner, form.id, answered.body.id)).answers;
    expect(stored).toEqual({
      name: 'Ada',
      toString: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      constructor: '******td',
      valueOf: 3,
      target: 'x',
    });
  });
});
