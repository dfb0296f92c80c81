import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { insertRows } from '../../../test/support/export-rows.js';
import { createForm, createKey, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * GET /analytics/questions (API.md §8): per field in form order, option counts for select and
 * checkbox, mean/median/min/max/distribution for number and rating, `answered` for text;
 * quarantined left out; personal data kept hidden shows no values; auth as GET /analytics.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000, monthlyQuota: 0 });
});
afterAll(() => t.close());

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'size', type: 'select', label: 'T-shirt size', options: ['S', { value: 'M', label: 'Medium' }, 'L'] },
  { id: 'diet', type: 'select', label: 'Diet', multiple: true, options: ['vegan', 'halal', 'none'] },
  { id: 'agree', type: 'checkbox', label: 'Keep me posted' },
  { id: 'age', type: 'number', label: 'Age', integer: true },
  { id: 'stars', type: 'rating', label: 'How was it?' },
  { id: 'when', type: 'date', label: 'Arrival' },
];

async function submit(formId: string, answers: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

function questions(auth: string | undefined, query: Record<string, string>) {
  return t.request({ method: 'GET', url: `/analytics/questions?${new URLSearchParams(query)}`, auth });
}

async function summary(user: TestUser, formId: string, extra: Record<string, string> = {}) {
  const response = await questions(user.token, { environment: 'development', form_id: formId, ...extra });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const byId = (body: any) => new Map<string, any>(body.questions.map((q: any) => [q.fieldId, q]));

describe('GET /analytics/questions', () => {
  it('summarises every field in form order: options, Yes/No, numbers, and only `answered` for text', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    await submit(form.id, {
      name: 'Ann',
      size: 'M',
      diet: ['vegan', 'halal'],
      agree: true,
      age: 30,
      stars: 5,
      when: '2026-12-01',
    });
    await submit(form.id, { name: 'Bob', size: 'M', diet: ['vegan'], agree: false, age: 40, stars: 4 });
    await submit(form.id, { name: '', size: 'S', agree: true, age: 20, stars: 5 });
    await submit(form.id, { diet: [] });

    const body = await summary(user, form.id);
    expect(body.formId).toBe(form.id);
    expect(body.responses).toBe(4);
    expect(body.questions.map((q: any) => [q.fieldId, q.label, q.type])).toEqual(
      FIELDS.map((f) => [f.id, f.label, f.type]),
    );
    const q = byId(body);
    expect(q.get('name')).toEqual({ fieldId: 'name', label: 'Name', type: 'text', answered: 2 });
    expect(q.get('when')).toEqual({ fieldId: 'when', label: 'Arrival', type: 'date', answered: 1 });
    expect(q.get('size')).toMatchObject({
      answered: 3,
      options: [
        { value: 'S', label: 'S', count: 1 },
        { value: 'M', label: 'Medium', count: 2 },
        { value: 'L', label: 'L', count: 0 },
      ],
    });
    // several may be chosen: each choice counts; an empty list is no answer
    expect(q.get('diet')).toMatchObject({
      answered: 2,
      options: [
        { value: 'vegan', label: 'vegan', count: 2 },
        { value: 'halal', label: 'halal', count: 1 },
        { value: 'none', label: 'none', count: 0 },
      ],
    });
    // a box left unticked (false) is an answer: No
    expect(q.get('agree')).toMatchObject({
      answered: 3,
      options: [
        { value: 'true', label: 'Yes', count: 2 },
        { value: 'false', label: 'No', count: 1 },
      ],
    });
    expect(q.get('age')).toEqual({
      fieldId: 'age',
      label: 'Age',
      type: 'number',
      answered: 3,
      mean: 30,
      median: 30,
      min: 20,
      max: 40,
      // a span of 20 or more: at most 10 buckets of a round width (2), the highest value in the last
      distribution: Array.from({ length: 10 }, (_, i) => ({
        from: 20 + 2 * i,
        to: 22 + 2 * i,
        count: i === 0 || i === 5 || i === 9 ? 1 : 0,
      })),
    });
    // a rating: every value of its scale (1 to 5 unless set), each with its count
    expect(q.get('stars')).toMatchObject({
      answered: 3,
      mean: 14 / 3,
      median: 5,
      min: 4,
      max: 5,
      distribution: [1, 2, 3, 4, 5].map((v) => ({ from: v, to: v, count: v === 5 ? 2 : v === 4 ? 1 : 0 })),
    });
    expect(q.get('name')).not.toHaveProperty('options');
  });

  it('an even count takes the mean of the middle two; whole numbers over a short span get one bucket each', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'n', type: 'number', label: 'Guests' },
        { id: 'price', type: 'number', label: 'Price' },
        { id: 'r', type: 'rating', label: 'Score', min: 0, max: 10 },
      ],
    });
    for (const [n, price, r] of [
      [1, 0.5, 0],
      [2, 9.99, 10],
      [2, 3.25, 7],
      [4, 100, 7],
    ])
      await submit(form.id, { n, price, r });
    const q = byId(await summary(user, form.id));
    expect(q.get('n')).toMatchObject({
      mean: 2.25,
      median: 2,
      min: 1,
      max: 4,
      distribution: [
        { from: 1, to: 1, count: 1 },
        { from: 2, to: 2, count: 2 },
        { from: 3, to: 3, count: 0 },
        { from: 4, to: 4, count: 1 },
      ],
    });
    const price = q.get('price');
    expect(price).toMatchObject({ min: 0.5, max: 100, median: (3.25 + 9.99) / 2 });
    expect(price.mean).toBeCloseTo((0.5 + 9.99 + 3.25 + 100) / 4, 10);
    // at most 10 buckets of a round width, the highest value in the last
    expect(price.distribution).toEqual(
      Array.from({ length: 10 }, (_, i) => ({
        from: i * 10,
        to: (i + 1) * 10,
        count: i === 0 ? 3 : i === 9 ? 1 : 0,
      })),
    );
    expect(q.get('r').distribution).toHaveLength(11);
    expect(q.get('r').median).toBe(7);
  });

  it('with no responses: zeros, every option listed, figures null', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    const body = await summary(user, form.id);
    expect(body.responses).toBe(0);
    const q = byId(body);
    expect(q.get('size').options.map((o: any) => o.count)).toEqual([0, 0, 0]);
    expect(q.get('agree').options).toEqual([
      { value: 'true', label: 'Yes', count: 0 },
      { value: 'false', label: 'No', count: 0 },
    ]);
    expect(q.get('age')).toMatchObject({
      answered: 0,
      mean: null,
      median: null,
      min: null,
      max: null,
      distribution: [],
    });
    expect(q.get('stars').distribution.map((b: any) => b.count)).toEqual([0, 0, 0, 0, 0]);
  });

  it('leaves quarantined responses out, counts flagged ones, and keeps to the range', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    await insertRows(t, form, [
      { answers: { size: 'S' }, createdAt: '2026-03-01T10:00:00.000Z' },
      { answers: { size: 'S' }, status: 'flagged', createdAt: '2026-03-02T10:00:00.000Z' },
      { answers: { size: 'L' }, status: 'quarantined', createdAt: '2026-03-02T11:00:00.000Z' },
      { answers: { size: 'M' }, createdAt: '2026-04-15T10:00:00.000Z' },
    ]);
    const march = await summary(user, form.id, { from: '2026-03-01', to: '2026-03-31' });
    expect(march.responses).toBe(2);
    expect(march.from).toBe('2026-03-01T00:00:00.000Z');
    expect(march.to).toBe('2026-03-31T23:59:59.999Z');
    expect(
      byId(march)
        .get('size')
        .options.map((o: any) => o.count),
    ).toEqual([2, 0, 0]);
    const spring = await summary(user, form.id, { from: '2026-03-01', to: '2026-04-30' });
    expect(
      byId(spring)
        .get('size')
        .options.map((o: any) => o.count),
    ).toEqual([2, 1, 0]);
  });

  it('lists values no longer among the options after them, and ignores answers of the wrong shape', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    await insertRows(t, form, [
      { answers: { size: 'XL', age: 'forty', agree: 'yes', diet: 'vegan' } },
      { answers: { size: 'XL', age: 7 } },
      { answers: { size: 'XS', stars: 9 } },
    ]);
    const q = byId(await summary(user, form.id));
    expect(q.get('size').options.slice(3)).toEqual([
      { value: 'XL', label: 'XL', count: 2 },
      { value: 'XS', label: 'XS', count: 1 },
    ]);
    expect(q.get('age')).toMatchObject({ answered: 2, mean: 7, min: 7, max: 7 });
    expect(q.get('agree').options.map((o: any) => o.count)).toEqual([0, 0]);
    // a rating out of its scale keeps a bucket of its own
    expect(q.get('stars').distribution.at(-1)).toEqual({ from: 9, to: 9, count: 1 });
  });

  it('personal data kept masked, hashed, encrypted or dropped: answered counted, no values shown', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'plain', type: 'select', label: 'Plain', options: ['a', 'b'], pii: true, piiMode: 'plain' },
        { id: 'masked', type: 'select', label: 'Masked', options: ['a', 'b'], pii: true, piiMode: 'masked' },
        { id: 'hashed', type: 'select', label: 'Hashed', options: ['a', 'b'], pii: true, piiMode: 'hashed' },
        { id: 'secret', type: 'number', label: 'Salary', pii: true, piiMode: 'encrypted' },
        { id: 'gone', type: 'checkbox', label: 'Gone', pii: true, piiMode: 'dropped' },
      ],
    });
    await submit(form.id, { plain: 'a', masked: 'a', hashed: 'b', secret: 50_000, gone: true });
    await submit(form.id, { plain: 'b', masked: 'a', hashed: 'b', secret: 60_000, gone: true });
    const response = await questions(user.token, { environment: 'development', form_id: form.id });
    const q = byId(response.body);
    expect(q.get('plain').options.map((o: any) => o.count)).toEqual([1, 1]);
    expect(q.get('masked')).toEqual({
      fieldId: 'masked',
      label: 'Masked',
      type: 'select',
      answered: 2,
      withheld: 'masked',
    });
    expect(q.get('hashed')).toEqual({
      fieldId: 'hashed',
      label: 'Hashed',
      type: 'select',
      answered: 2,
      withheld: 'hashed',
    });
    expect(q.get('secret')).toEqual({
      fieldId: 'secret',
      label: 'Salary',
      type: 'number',
      answered: 2,
      withheld: 'encrypted',
    });
    expect(q.get('gone')).toEqual({
      fieldId: 'gone',
      label: 'Gone',
      type: 'checkbox',
      answered: 2,
      withheld: 'dropped',
    });
    expect(response.text).not.toContain('50000');
    // and the dropped answer is shown nowhere: not in the response, nor in its CSV
    const listed = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development`,
      auth: user.token,
    });
    for (const row of listed.body.data) expect(Object.keys(row.answers)).not.toContain('gone');
    const csv = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&format=csv`,
      auth: user.token,
    });
    expect(csv.text.split('\r\n')[1]).toMatch(/,""\r?$|,""$/);
  });

  it('summarises 3,000 responses in one pass of chunks, the same as counting them by hand', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    const sizes = ['S', 'M', 'L'];
    await insertRows(
      t,
      form,
      Array.from({ length: 3000 }, (_, i) => ({
        answers: {
          size: sizes[i % 3],
          diet: i % 2 ? ['vegan', 'none'] : ['halal'],
          age: i % 90,
          stars: (i % 5) + 1,
        },
      })),
    );
    // count the reads of responses: a pass in chunks, not a query per field nor one holding every row
    const reads: number[] = [];
    const database = t.app.intake.database;
    const original = database.db;
    database.db = original.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        const first = args.result.rows[0] as Record<string, unknown> | undefined;
        if (first && 'answers' in first) reads.push(args.result.rows.length);
        return args.result;
      },
    });
    let body: any;
    try {
      body = await summary(user, form.id);
    } finally {
      database.db = original;
    }
    expect(reads).toEqual([500, 500, 500, 500, 500, 500]);
    const q = byId(body);
    expect(body.responses).toBe(3000);
    expect(q.get('size').options.map((o: any) => o.count)).toEqual([1000, 1000, 1000]);
    expect(q.get('diet').options.map((o: any) => o.count)).toEqual([1500, 1500, 1500]);
    // by hand: the ages sorted, the middle two, the sum
    const ages = Array.from({ length: 3000 }, (_, i) => i % 90).sort((a, b) => a - b);
    const median = ((ages[1499] as number) + (ages[1500] as number)) / 2;
    expect(q.get('age')).toMatchObject({ answered: 3000, min: 0, max: 89, median });
    expect(q.get('age').mean).toBeCloseTo(ages.reduce((sum, age) => sum + age, 0) / 3000, 10);
    expect(q.get('age').distribution.reduce((sum: number, b: any) => sum + b.count, 0)).toBe(3000);
    expect(q.get('stars').distribution.map((b: any) => b.count)).toEqual([600, 600, 600, 600, 600]);
  });

  describe('who may read, and bad input', () => {
    let owner: TestUser;
    let stranger: TestUser;
    let form: any;
    const keys: Record<string, string> = {};
    beforeAll(async () => {
      owner = await signup(t);
      stranger = await signup(t);
      form = await createForm(t, owner.token, { status: 'live', fields: FIELDS });
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
      const response = await questions(credential(caller), { environment: 'development', form_id: form.id });
      if (code) {
        expectProblem(response, status, code);
        expect(response.body).not.toHaveProperty('questions');
      } else expect(response.body.questions).toHaveLength(FIELDS.length);
    });

    it.each([
      ['no form_id', { environment: 'development' }, 400, 'invalid_parameter'],
      ['an empty form_id', { environment: 'development', form_id: '' }, 400, 'invalid_parameter'],
      ['no environment', { form_id: 'FORM' }, 400, 'invalid_environment'],
      ['a malformed environment', { environment: 'Dev!', form_id: 'FORM' }, 400, 'invalid_environment'],
      [
        'an environment not created',
        { environment: 'staging', form_id: 'FORM' },
        404,
        'environment_not_found',
      ],
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
      expectProblem(await questions(owner.token, filled as Record<string, string>), status, code);
    });
  });
});
