import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Response, type TestApp } from '../../../test/support/app.js';
import { dumpDatabase, expectProblem } from '../../../test/support/assertions.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';

/**
 * API.md §6.1 PII and §5.4 `storage`: each PII mode as the owner sees it in the list and in
 * a single read, and as the database holds it; `storage.pii` as the default of `pii: true`
 * fields and `piiMode` overriding it; `storage.mode: "none"`.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
});
afterAll(async () => {
  await t.close();
});

type Mode = 'plain' | 'masked' | 'hashed' | 'encrypted' | 'dropped';
const MODES: Mode[] = ['plain', 'masked', 'hashed', 'encrypted', 'dropped'];

const unique = () => randomBytes(5).toString('hex');
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

function submitTo(formId: string, answers: Record<string, unknown>): Promise<Response> {
  return t.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
}

/** The answers of one submission as the list and as the single read show them (they must agree). */
async function shown(owner: TestUser, formId: string, id: string): Promise<Record<string, unknown>> {
  const list = await t.request({
    method: 'GET',
    url: `/responses?form_id=${formId}&environment=development`,
    auth: owner.token,
  });
  expect(list.status, list.text).toBe(200);
  const listed = list.body.data.find((item: any) => item.id === id);
  expect(listed).toBeDefined();
  const single = await t.request({
    method: 'GET',
    url: `/responses/${id}?form_id=${formId}&environment=development`,
    auth: owner.token,
  });
  expect(single.status, single.text).toBe(200);
  expect(single.body.answers).toEqual(listed.answers);
  return single.body.answers;
}

/** The `answers` column of the stored row, parsed. */
async function storedRow(id: string): Promise<Record<string, unknown>> {
  const row = await t.app.intake.database.db
    .selectFrom('submissions')
    .select('answers')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.answers);
}

/** What the owner sees for a value under each mode. */
function expectedShown(mode: Mode, value: string, masked: string): string | undefined {
  switch (mode) {
    case 'plain':
    case 'encrypted':
      return value;
    case 'masked':
      return masked;
    case 'hashed':
      return sha256(value);
    case 'dropped':
      return undefined;
  }
}

/** How the database holds a value under each mode (and that the plaintext appears nowhere else). */
async function expectStored(
  mode: Mode,
  row: Record<string, unknown>,
  id: string,
  value: string,
  dump: string,
): Promise<void> {
  switch (mode) {
    case 'plain':
      expect(row[id]).toBe(value);
      break;
    case 'masked':
      // stored as given; only every output masks it
      expect(row[id]).toEqual({ $masked: value });
      break;
    case 'hashed':
      expect(row[id]).toBe(sha256(value));
      expect(dump).not.toContain(value);
      break;
    case 'encrypted': {
      const stored = row[id] as { $encrypted: string };
      expect(Object.keys(stored)).toEqual(['$encrypted']);
      expect(stored.$encrypted).toMatch(/^enc:v1:/);
      expect(stored.$encrypted).not.toContain(value);
      expect(dump).not.toContain(value);
      break;
    }
    case 'dropped':
      // a marker, nothing of the value: it counts as answered (API.md §8) and is shown nowhere
      expect(row[id]).toEqual({ $dropped: true });
      expect(dump).not.toContain(value);
      break;
  }
}

describe.each(MODES)('PII mode %s', (mode) => {
  it(`storage.pii "${mode}" applies to pii fields only, and piiMode overrides it`, async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      storage: { mode: 'owner', pii: mode },
      fields: [
        { id: 'email', type: 'email', label: 'E-mail', required: true, pii: true },
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'nick', type: 'text', label: 'Nick', pii: false },
        { id: 'keep', type: 'text', label: 'Keep', pii: true, piiMode: 'plain' },
      ],
    });
    const tag = unique();
    const email = `jane.${tag}@example.com`;
    const answers = { email, name: `Zoë ${tag} 😀`, nick: `nick-${tag}`, keep: `keep-${tag}` };
    const response = await submitTo(form.id, answers);
    expect(response.status, response.text).toBe(201);

    const expected: Record<string, unknown> = { name: answers.name, nick: answers.nick, keep: answers.keep };
    const emailShown = expectedShown(mode, email, 'j***@example.com');
    if (emailShown !== undefined) expected.email = emailShown;
    expect(await shown(owner, form.id, response.body.id)).toEqual(expected);

    const row = await storedRow(response.body.id);
    await expectStored(mode, row, 'email', email, await dumpDatabase(t));
    expect(row).toMatchObject({ name: answers.name, nick: answers.nick, keep: answers.keep });
  });

  it(`a field's piiMode "${mode}" overrides storage.pii (with or without pii: true)`, async () => {
    const owner = await signup(t);
    const other: Mode = mode === 'plain' ? 'hashed' : 'plain';
    const form = await createForm(t, owner.token, {
      status: 'live',
      storage: { mode: 'owner', pii: other },
      fields: [
        { id: 'phone', type: 'phone', label: 'Phone', piiMode: mode },
        { id: 'code', type: 'text', label: 'Code', pii: true, piiMode: mode },
        { id: 'email', type: 'email', label: 'E-mail', pii: true },
      ],
    });
    const digits = String(1_000_000 + Math.floor(Math.random() * 8_999_999)).slice(0, 7);
    const phone = `12${digits}`; // nine digits: masked, `*******` and the last two
    const code = `code-${unique()}`;
    const email = `ann.${unique()}@example.org`;
    const response = await submitTo(form.id, { phone, code, email });
    expect(response.status, response.text).toBe(201);

    const expected: Record<string, unknown> = {};
    const phoneShown = expectedShown(mode, phone, `*******${phone.slice(-2)}`);
    if (phoneShown !== undefined) expected.phone = phoneShown;
    const codeShown = expectedShown(mode, code, `${'*'.repeat(code.length - 2)}${code.slice(-2)}`);
    if (codeShown !== undefined) expected.code = codeShown;
    const emailShown = expectedShown(other, email, 'a***@example.org');
    if (emailShown !== undefined) expected.email = emailShown;
    expect(await shown(owner, form.id, response.body.id)).toEqual(expected);

    const row = await storedRow(response.body.id);
    const dump = await dumpDatabase(t);
    await expectStored(mode, row, 'phone', phone, dump);
    await expectStored(mode, row, 'code', code, dump);
    await expectStored(other, row, 'email', email, dump);
  });

  it(`a "${mode}" field is validated like any other`, async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'email', type: 'email', label: 'E-mail', required: true, piiMode: mode }],
    });
    const bad = await submitTo(form.id, { email: `not-an-email-${unique()}` });
    expectProblem(bad, 400, 'validation_failed');
    expect(bad.body.errors).toEqual([{ field: 'email', code: 'invalid_email', message: expect.any(String) }]);
    expectProblem(await submitTo(form.id, {}), 400, 'validation_failed');
  });
});

describe('PII of values that are not strings', () => {
  it('encrypted numbers, booleans and lists come back with their type', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      storage: { mode: 'owner', pii: 'encrypted' },
      fields: [
        { id: 'age', type: 'number', label: 'Age', pii: true },
        { id: 'ok', type: 'checkbox', label: 'OK', pii: true },
        { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['a', 'b'], pii: true },
      ],
    });
    const response = await submitTo(form.id, { age: 42, ok: true, tags: ['b', 'a'] });
    expect(response.status, response.text).toBe(201);
    expect(await shown(owner, form.id, response.body.id)).toEqual({ age: 42, ok: true, tags: ['b', 'a'] });
    const row = await storedRow(response.body.id);
    for (const id of ['age', 'ok', 'tags'])
      expect(row[id]).toEqual({ $encrypted: expect.stringMatching(/^enc:v1:/) });
  });

  it('hashed numbers are hashed as their text', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'age', type: 'number', label: 'Age', piiMode: 'hashed' }],
    });
    const response = await submitTo(form.id, { age: 42 });
    expect(response.status, response.text).toBe(201);
    expect(await shown(owner, form.id, response.body.id)).toEqual({ age: sha256('42') });
  });

  it('masked lists show no list syntax, only stars and the last characters', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [
        {
          id: 'tags',
          type: 'select',
          label: 'Tags',
          multiple: true,
          options: ['alpha', 'beta'],
          piiMode: 'masked',
        },
        { id: 'age', type: 'number', label: 'Age', piiMode: 'masked' },
      ],
    });
    const response = await submitTo(form.id, { tags: ['alpha', 'beta'], age: 7 });
    expect(response.status, response.text).toBe(201);
    const answers = await shown(owner, form.id, response.body.id);
    expect(answers.tags).toMatch(/^\*+ta$/);
    expect(answers.tags).not.toContain('alpha');
    expect(answers.age).toBe('***');
  });
});

describe('storage.mode "none"', () => {
  it('answers 201 but stores nothing', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      storage: { mode: 'none', pii: 'plain' },
      fields: [{ id: 'message', type: 'text', label: 'Message', required: true }],
    });
    const marker = `nothing-stored-${unique()}`;
    const response = await submitTo(form.id, { message: marker });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ formId: form.id, environment: 'development', status: 'accepted' });

    const list = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development`,
      auth: owner.token,
    });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [], nextCursor: null });
    const single = await t.request({
      method: 'GET',
      url: `/responses/${response.body.id}?form_id=${form.id}&environment=development`,
      auth: owner.token,
    });
    expectProblem(single, 404, 'not_found');
    const rows = await t.app.intake.database.db
      .selectFrom('submissions')
      .select('id')
      .where('form_id', '=', form.id)
      .execute();
    expect(rows).toEqual([]);
    expect(await dumpDatabase(t)).not.toContain(marker);
  });

  it('still validates', async () => {
    const owner = await signup(t);
    const form = await createForm(t, owner.token, {
      status: 'live',
      storage: { mode: 'none', pii: 'plain' },
      fields: [{ id: 'message', type: 'text', label: 'Message', required: true }],
    });
    expectProblem(await submitTo(form.id, {}), 400, 'validation_failed');
  });
});
