import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup } from '../../../test/support/factories.js';

/**
 * API.md §5.4: "a condition must be able to match its field". A condition that never can is
 * 400 invalid_form naming the rule's condition and member; one that can is kept as sent. A form
 * stored before the rule (its condition never matching) still loads and is served, and is judged
 * when its logic or fields are saved again.
 */

const FIELDS = [
  { id: 'name', type: 'text', label: 'Name' },
  { id: 'email', type: 'email', label: 'E-mail' },
  { id: 'topic', type: 'select', label: 'Topic', options: ['sales', { value: 'support', label: 'Support' }] },
  { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['a', 'b', 'c'] },
  { id: 'agree', type: 'checkbox', label: 'Subscribe' },
  { id: 'count', type: 'number', label: 'Guests' },
  { id: 'stars', type: 'rating', label: 'Stars' },
  { id: 'day', type: 'date', label: 'Day' },
  { id: 'ref', type: 'hidden', label: 'Referrer' },
  { id: 'site', type: 'url', label: 'Site' },
  { id: 'phone', type: 'phone', label: 'Phone' },
  { id: 'message', type: 'textarea', label: 'Message' },
];

type Leaf = { field: string; op: string; value?: unknown };
const leaf = (field: string, op: string, value?: unknown): Leaf =>
  value === undefined ? { field, op } : { field, op, value };
const logicOf = (...whens: unknown[]) => ({ rules: whens.map((when) => ({ when, show: ['message'] })) });

describe('conditions fit their field (API.md §5.4)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await signup(t)).token;
  });
  afterAll(async () => t?.close());

  const create = (logic: unknown, fields: unknown[] = FIELDS) =>
    t.request({
      method: 'POST',
      url: '/forms',
      auth: token,
      body: { title: 'Logic', environment: 'development', fields, logic },
    });

  const REFUSED: Array<[name: string, when: Leaf, member: 'op' | 'value', code: string]> = [
    [
      'a checkbox compared with "yes" (a ticked box is true)',
      leaf('agree', 'equals', 'yes'),
      'value',
      'type',
    ],
    ['a checkbox compared with the text "true"', leaf('agree', 'notEquals', 'true'), 'value', 'type'],
    ['contains on a checkbox', leaf('agree', 'contains', true), 'op', 'not_applicable'],
    ['gt on a checkbox', leaf('agree', 'gt', 0), 'op', 'not_applicable'],
    ['in on a checkbox', leaf('agree', 'in', [true]), 'op', 'not_applicable'],
    [
      'a choice compared with a label, not its value',
      leaf('topic', 'equals', 'Support'),
      'value',
      'unknown_option',
    ],
    [
      'a choice compared with no option of it',
      leaf('topic', 'notEquals', 'billing'),
      'value',
      'unknown_option',
    ],
    [
      'in on a choice with one value not an option',
      leaf('topic', 'in', ['sales', 'x']),
      'value',
      'unknown_option',
    ],
    ['in with an empty list', leaf('topic', 'in', []), 'value', 'type'],
    ['in with a single value', leaf('topic', 'in', 'sales'), 'value', 'type'],
    ['a list for equals on a single choice', leaf('topic', 'equals', ['sales']), 'value', 'type'],
    ['contains on a single choice', leaf('topic', 'contains', 'sal'), 'op', 'not_applicable'],
    ['gt on a choice', leaf('topic', 'gt', 'a'), 'op', 'not_applicable'],
    [
      'contains on a multiple choice with no option of it',
      leaf('tags', 'contains', 'z'),
      'value',
      'unknown_option',
    ],
    ['lt on a multiple choice', leaf('tags', 'lt', 'b'), 'op', 'not_applicable'],
    ['gt on text', leaf('name', 'gt', 'a'), 'op', 'not_applicable'],
    ['lte on an e-mail', leaf('email', 'lte', 'a@example.com'), 'op', 'not_applicable'],
    ['gte on a hidden field', leaf('ref', 'gte', '1'), 'op', 'not_applicable'],
    ['a blank text value', leaf('name', 'equals', '  '), 'value', 'required'],
    ['a number compared with text', leaf('count', 'equals', 'ten'), 'value', 'type'],
    ['a number compared with a number written as text', leaf('count', 'gt', '5'), 'value', 'type'],
    ['contains on a number', leaf('count', 'contains', 1), 'op', 'not_applicable'],
    ['in on a number with text among the list', leaf('count', 'in', [1, 'x']), 'value', 'type'],
    ['a rating compared with text', leaf('stars', 'gte', 'four'), 'value', 'type'],
    ['a date not written YYYY-MM-DD', leaf('day', 'gt', '25/12/2026'), 'value', 'type'],
    ['a date that does not exist', leaf('day', 'equals', '2026-02-30'), 'value', 'type'],
    ['contains on a date', leaf('day', 'contains', '2026'), 'op', 'not_applicable'],
    ['text compared with a number', leaf('phone', 'equals', 5), 'value', 'type'],
    ['text compared with null', leaf('site', 'notEquals', null), 'value', 'type'],
  ];

  it.each(REFUSED)('refuses %s: 400 invalid_form naming the rule', async (_name, when, member, code) => {
    const response = await create(logicOf(leaf('name', 'isNotEmpty'), when));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_form');
    expect(response.body.errors).toEqual([
      { field: `logic.rules[1].when.${member}`, code, message: expect.any(String) },
    ]);
    // the summary names the rule, in words a person reads
    expect(response.body.detail).toContain('logic.rules[1].when');
  });

  it('words a checkbox’s problem so that it says how to fix it', async () => {
    const response = await create(logicOf(leaf('agree', 'equals', 'yes')));
    expect(response.body.errors[0].message).toBe('must be true or false: a ticked box is true (got "yes")');
    const wrongTest = await create(logicOf(leaf('agree', 'contains', 'y')));
    expect(wrongTest.body.errors[0].message).toContain('takes equals, notEquals, isEmpty, isNotEmpty');
    const label = await create(logicOf(leaf('topic', 'equals', 'Support')));
    expect(label.body.errors[0].message).toBe(
      '"Support" is not an option of "topic" (its options: sales, support)',
    );
  });

  it('names a condition nested in all and any by its path, and lists every one that does not fit', async () => {
    const when = {
      all: [leaf('name', 'isNotEmpty'), { any: [leaf('count', 'gt', 2), leaf('agree', 'equals', 'on')] }],
    };
    const response = await create({
      rules: [
        { when, show: ['message'] },
        { when: leaf('day', 'lt', 'tomorrow'), hide: ['name'] },
      ],
    });
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([
      'logic.rules[0].when.all[1].any[1].value',
      'logic.rules[1].when.value',
    ]);
  });

  const ACCEPTED: Array<[name: string, when: Leaf]> = [
    ['a checkbox ticked', leaf('agree', 'equals', true)],
    ['a checkbox not ticked', leaf('agree', 'notEquals', true)],
    ['a checkbox equal to false', leaf('agree', 'equals', false)],
    ['a checkbox not equal to false', leaf('agree', 'notEquals', false)],
    ['a checkbox blank', leaf('agree', 'isEmpty')],
    ['a checkbox answered', leaf('agree', 'isNotEmpty')],
    ['a choice equal to an option’s value', leaf('topic', 'equals', 'support')],
    ['a choice among option values', leaf('topic', 'in', ['sales', 'support'])],
    ['a multiple choice including an option', leaf('tags', 'contains', 'a')],
    ['a multiple choice not including an option', leaf('tags', 'notContains', 'b')],
    ['a multiple choice including any of options', leaf('tags', 'in', ['a', 'c'])],
    ['a multiple choice exactly these options', leaf('tags', 'equals', ['a', 'b'])],
    ['a multiple choice exactly one option', leaf('tags', 'notEquals', 'c')],
    ['a number more than', leaf('count', 'gt', 2)],
    ['a number among numbers', leaf('count', 'in', [1, 2.5])],
    ['a rating at least', leaf('stars', 'gte', 4)],
    ['a date before', leaf('day', 'lt', '2026-12-01')],
    ['a date among dates', leaf('day', 'in', ['2026-12-24', '2026-12-31'])],
    ['text containing', leaf('name', 'contains', 'Ada')],
    ['an e-mail not containing', leaf('email', 'notContains', '@example.com')],
    ['a hidden field equal to', leaf('ref', 'equals', 'newsletter')],
    ['a web address among', leaf('site', 'in', ['https://a.example', 'https://b,c.example'])],
    ['a phone not equal to', leaf('phone', 'notEquals', '+44 20 7946 0000')],
  ];

  it.each(ACCEPTED)('accepts %s, kept as sent', async (_name, when) => {
    const response = await create(logicOf(when));
    expect(response.status).toBe(201);
    expect(response.body.logic.rules[0].when).toEqual(when);
  });

  it('judges a condition against the field’s new type when a PUT changes the field', async () => {
    const form = await createForm(t, token, {
      fields: FIELDS,
      logic: logicOf(leaf('name', 'contains', 'x')),
    });
    const fields = FIELDS.map((field) => (field.id === 'name' ? { ...field, type: 'checkbox' } : field));
    const response = await t.request({
      method: 'PUT',
      url: `/forms/${form.id}`,
      auth: token,
      body: { fields },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ field: 'logic.rules[0].when.op', code: 'not_applicable' }),
    ]);
  });

  it('is kept by the submit path as the builder means it: a ticked box (true) shows the question, false or none hides it', async () => {
    const fields = [
      { id: 'parking', type: 'checkbox', label: 'I need a parking space' },
      { id: 'plate', type: 'text', label: 'Car registration', required: true },
    ];
    const form = await createForm(t, token, {
      status: 'live',
      fields,
      logic: { rules: [{ when: leaf('parking', 'equals', true), show: ['plate'] }] },
    });
    const submit = (answers: Record<string, unknown>) =>
      t.request({ method: 'POST', url: `/forms/${form.id}/submit`, body: { answers } });
    // ticked: the question is asked, and required
    expect((await submit({ parking: true, plate: 'AB12 CDE' })).status).toBe(201);
    const missing = await submit({ parking: true });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'plate', code: 'required' })]);
    // not ticked, as false or left out: not asked, and an answer to it refused
    expect((await submit({ parking: false })).status).toBe(201);
    expect((await submit({})).status).toBe(201);
    const hidden = await submit({ parking: false, plate: 'AB12 CDE' });
    expect(hidden.status).toBe(400);
    expect(hidden.body.errors).toEqual([expect.objectContaining({ field: 'plate' })]);
  });

  describe('a form stored before conditions had to fit', () => {
    /** A live form whose rule compares a checkbox with "yes", written as an older version stored it. */
    async function storedWithMisfit() {
      const form = await createForm(t, token, {
        status: 'live',
        fields: FIELDS,
        logic: logicOf(leaf('agree', 'equals', true)),
      });
      const row = await t.app.intake.database.db
        .selectFrom('forms')
        .select('definition')
        .where('id', '=', form.id)
        .executeTakeFirstOrThrow();
      const stored = { ...JSON.parse(row.definition), logic: logicOf(leaf('agree', 'equals', 'yes')) };
      await t.app.intake.database.db
        .updateTable('forms')
        .set({ definition: JSON.stringify(stored) })
        .where('id', '=', form.id)
        .execute();
      return form.id as string;
    }

    it('still loads for its owner, is served publicly and takes answers (validation is on save)', async () => {
      const id = await storedWithMisfit();
      const owner = await t.request({ method: 'GET', url: `/forms/${id}`, auth: token });
      expect(owner.status).toBe(200);
      expect(owner.body.logic.rules[0].when).toEqual(leaf('agree', 'equals', 'yes'));
      const view = await t.request({ method: 'GET', url: `/v1/forms/${id}/public` });
      expect(view.status).toBe(200);
      const submitted = await t.request({
        method: 'POST',
        url: `/forms/${id}/submit`,
        body: { answers: { name: 'Ada', agree: true } },
      });
      expect(submitted.status).toBe(201);
    });

    it('keeps taking changes that leave its logic and fields alone, and refuses its logic sent back unfixed', async () => {
      const id = await storedWithMisfit();
      const retitled = await t.request({
        method: 'PUT',
        url: `/forms/${id}`,
        auth: token,
        body: { title: 'Renamed', status: 'disabled' },
      });
      expect(retitled.status).toBe(200);
      const resent = await t.request({
        method: 'PUT',
        url: `/forms/${id}`,
        auth: token,
        body: { logic: retitled.body.logic },
      });
      expect(resent.status).toBe(400);
      expect(resent.body.errors).toEqual([
        expect.objectContaining({ field: 'logic.rules[0].when.value', code: 'type' }),
      ]);
      const fixed = await t.request({
        method: 'PUT',
        url: `/forms/${id}`,
        auth: token,
        body: { logic: logicOf(leaf('agree', 'equals', true)) },
      });
      expect(fixed.status).toBe(200);
    });
  });
});
