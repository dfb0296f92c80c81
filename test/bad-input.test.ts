import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type RequestOptions, type TestApp } from './support/app.js';
import { expectCleanProblem, fieldsOf, JSON_TYPE, snapshot as takeSnapshot } from './support/bad-input.js';
import {
  createEnvironment,
  createForm,
  createKey,
  formBody,
  signup,
  type TestUser,
} from './support/factories.js';

/**
 * What the API does with requests it cannot take (API.md §1): every refusal is a problem
 * document with a stable code and names the failing members. Routing, malformed JSON, size and
 * media type, members and parameters here; bad-input-writes.test.ts shows refusals change nothing.
 */

let t: TestApp;
let user: TestUser;
let form: { id: string };
let _key: { id: string; key: string };

beforeAll(async () => {
  t = await createTestApp();
  user = await signup(t);
  await createEnvironment(t, user, 'staging');
  _key = await createKey(t, user, 'secret', 'development');
  form = await createForm(t, user.token);
});

afterAll(() => t.close());

const expectProblem = expectCleanProblem;
const snapshot = () => takeSnapshot(t);
const auth = () => user.token;
const json = JSON_TYPE;

// --- routing ------------------------------------------------------------------------

describe('routing', () => {
  it.each(['/auth/me/', '/v1/forms/x/public/', '/keys/'])(
    'a trailing slash is a different (unknown) path: GET %s is 404, not 405',
    async (url) => {
      expectProblem(await t.request({ method: 'GET', url, auth: auth() }), 404, 'not_found');
    },
  );

  it.each([
    { method: 'GET', url: '/nope' },
    { method: 'POST', url: '/forms/abc/nothing-here' },
    { method: 'GET', url: '/v2/forms' },
    { method: 'GET', url: '/keys/secrets/abc/more' },
  ] as const)('$method $url is a 404 problem', async ({ method, url }) => {
    const body = expectProblem(await t.request({ method, url }), 404, 'not_found');
    expect(body.detail).toContain(url.split('?')[0]);
  });

  it.each([
    { method: 'PATCH', url: '/forms', allow: ['GET', 'POST'] },
    { method: 'DELETE', url: '/environments', allow: ['GET', 'POST'] },
    { method: 'PUT', url: '/keys', allow: ['GET'] },
    { method: 'POST', url: '/forms/abc', allow: ['GET', 'PUT', 'DELETE'] },
    { method: 'PATCH', url: '/forms/abc', allow: ['GET', 'PUT', 'DELETE'] },
    { method: 'GET', url: '/auth/signup', allow: ['POST'] },
    { method: 'POST', url: '/v1/forms/abc/public', allow: ['GET'] },
    { method: 'GET', url: '/v1/forms/abc/events', allow: ['POST'] },
    { method: 'POST', url: '/analytics', allow: ['GET'] },
    { method: 'DELETE', url: '/keys/secrets', allow: ['POST'] },
    { method: 'PUT', url: '/webhooks', allow: ['GET', 'POST'] },
    { method: 'PUT', url: '/webhooks/abc', allow: ['GET', 'PATCH', 'DELETE'] },
  ] as const)('$method $url is 405 with Allow: $allow', async ({ method, url, allow }) => {
    const response = await t.request({ method, url, auth: auth() });
    expectProblem(response, 405, 'method_not_allowed');
    const allowed = String(response.headers.allow).split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining([...allow]));
    expect(allowed).not.toContain(method);
  });
});

// --- bodies -------------------------------------------------------------------------

describe('malformed and hostile JSON', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

  it.each([
    ['/auth/login', 'validation_failed'],
    ['/environments', 'validation_failed'],
    ['/forms', 'invalid_form'],
  ])('a body nested 100 000 levels deep is a 400 on %s, never a crash', async (url, code) => {
    const response = await t.request({ method: 'POST', url, auth: auth(), body: nested(100_000) });
    const body = expectProblem(response, 400, code);
    expect(body.errors[0].code).toBe('too_deep');
  });

  it('a form whose ui nests 40 levels deep is refused; 20 levels is fine', async () => {
    const ui = (depth: number) => JSON.parse(nested(depth));
    const deep = await t.request({
      method: 'POST',
      url: '/forms',
      auth: auth(),
      body: { title: 'x', environment: 'development', fields: [], ui: { extra: ui(40) } },
    });
    expect(expectProblem(deep, 400, 'invalid_form').errors[0].code).toBe('too_deep');
    const fine = await t.request({
      method: 'POST',
      url: '/forms',
      auth: auth(),
      body: { title: 'x', environment: 'development', fields: [], ui: { extra: ui(20) } },
    });
    expect(fine.status).toBe(201);
  });

  it('a number too large for a double (1e400) in a form definition is refused, not stored as null', async () => {
    const raw =
      '{"title":"x","environment":"development","fields":[{"id":"age","type":"number","label":"Age","min":1e400}]}';
    const form = await t.request({ method: 'POST', url: '/forms', auth: auth(), body: raw });
    const body = expectProblem(form, 400, 'invalid_form');
    expect(body.errors).toEqual([expect.objectContaining({ field: 'fields[0].min', code: 'not_finite' })]);
  });

  const targets = [
    { method: 'POST', url: '/environments' },
    { method: 'POST', url: '/forms' },
    { method: 'PUT', url: '/forms/{form}' },
    { method: 'POST', url: '/auth/signup' },
    { method: 'POST', url: '/webhooks' },
  ] as const;
  const bodies = [
    { kind: 'truncated', raw: '{"name": ' },
    { kind: 'trailing comma', raw: '{"name": "x",}' },
    { kind: 'single quotes', raw: "{'name': 'x'}" },
    { kind: 'empty', raw: '' },
    { kind: '__proto__', raw: '{"name": "x", "__proto__": {"polluted": "yes"}}' },
    { kind: 'escaped __proto__', raw: '{"\\u005f_proto__": {"polluted": "yes"}}' },
    { kind: 'nested __proto__', raw: '{"title": "x", "ui": {"__proto__": {"polluted": "yes"}}}' },
    { kind: 'constructor.prototype', raw: '{"constructor": {"prototype": {"polluted": "yes"}}}' },
    { kind: 'nested constructor.prototype', raw: '{"ui": {"constructor": {"prototype": {"polluted": 1}}}}' },
  ];
  const rows = targets.flatMap((target) => bodies.map((body) => ({ ...target, ...body })));

  it.each(rows)(
    '$method $url with a $kind body is 400 invalid_json and changes nothing',
    async ({ method, url, raw }) => {
      const before = await snapshot();
      const response = await t.request({
        method,
        url: url.replace('{form}', form.id),
        auth: url.startsWith('/auth') ? undefined : auth(),
        body: raw,
        headers: json,
      });
      expectProblem(response, 400, 'invalid_json');
      expect(({} as any).polluted).toBeUndefined();
      expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('a JSON body with a charset parameter is taken (control)', async () => {
    const name = `charset-${randomBytes(3).toString('hex')}`;
    const response = await t.request({
      method: 'POST',
      url: '/environments',
      auth: auth(),
      body: JSON.stringify({ name }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });
});

describe('size and media type', () => {
  const big = (size: number) => JSON.stringify({ ...formBody(), title: 'x'.repeat(size) });

  it.each([
    { method: 'POST', url: '/forms' },
    { method: 'PUT', url: '/forms/{form}' },
    { method: 'POST', url: '/environments' },
    { method: 'POST', url: '/auth/signup' },
    { method: 'POST', url: '/webhooks' },
  ] as const)('$method $url with a body over 1 MiB is 413', async ({ method, url }) => {
    const before = await snapshot();
    const response = await t.request({
      method,
      url: url.replace('{form}', form.id),
      auth: url.startsWith('/auth') ? undefined : auth(),
      body: big(1024 * 1024 + 1),
    });
    expectProblem(response, 413, 'payload_too_large');
    expect(await snapshot()).toEqual(before);
  });

  it('a body just under 1 MiB reaches validation (400, not 413)', async () => {
    const response = await t.request({ method: 'POST', url: '/forms', auth: auth(), body: big(1000 * 1000) });
    const body = expectProblem(response, 400, 'invalid_form');
    expect(fieldsOf(body)).toContain('title');
  });

  it.each([
    { method: 'POST', url: '/forms', type: 'text/plain' },
    { method: 'POST', url: '/forms', type: 'application/x-www-form-urlencoded' },
    { method: 'PUT', url: '/forms/{form}', type: 'text/plain' },
    { method: 'POST', url: '/environments', type: 'text/plain' },
    { method: 'POST', url: '/environments', type: 'application/xml' },
    { method: 'POST', url: '/auth/signup', type: 'text/plain' },
    { method: 'POST', url: '/auth/login', type: 'multipart/form-data; boundary=x' },
  ] as const)('$method $url with a JSON body sent as $type is 415', async ({ method, url, type }) => {
    const before = await snapshot();
    const response = await t.request({
      method,
      url: url.replace('{form}', form.id),
      auth: url.startsWith('/auth') ? undefined : auth(),
      body: JSON.stringify(url === '/environments' ? { name: 'plain-text' } : formBody()),
      headers: { 'content-type': type },
    });
    expectProblem(response, 415, 'unsupported_media_type');
    expect(await snapshot()).toEqual(before);
  });
});

// --- members ------------------------------------------------------------------------

describe('members of the wrong type, missing or too large', () => {
  const email = () => `bad-${randomBytes(4).toString('hex')}@example.com`;
  const rows: Array<{
    name: string;
    request: () => RequestOptions;
    status?: number;
    code: string;
    fields: string[];
  }> = [
    {
      name: 'POST /forms title: 5',
      request: () => ({ method: 'POST', url: '/forms', auth: auth(), body: formBody({ title: 5 }) }),
      code: 'invalid_form',
      fields: ['title'],
    },
    {
      name: 'POST /forms fields: "x"',
      request: () => ({ method: 'POST', url: '/forms', auth: auth(), body: formBody({ fields: 'x' }) }),
      code: 'invalid_form',
      fields: ['fields'],
    },
    {
      name: 'POST /forms title: 5 and fields: "x" together',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ title: 5, fields: 'x', status: 'open' }),
      }),
      code: 'invalid_form',
      fields: ['title', 'fields', 'status'],
    },
    {
      name: 'POST /forms without title and fields',
      request: () => ({ method: 'POST', url: '/forms', auth: auth(), body: { environment: 'development' } }),
      code: 'invalid_form',
      fields: ['title', 'fields'],
    },
    {
      name: 'POST /forms with a 2000-character title',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ title: 't'.repeat(2000) }),
      }),
      code: 'invalid_form',
      fields: ['title'],
    },
    {
      name: 'POST /forms with a 100 KB label',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ fields: [{ id: 'a', type: 'text', label: 'l'.repeat(100 * 1024) }] }),
      }),
      code: 'invalid_form',
      fields: ['fields[0].label'],
    },
    {
      name: 'POST /forms with an unknown member',
      request: () => ({ method: 'POST', url: '/forms', auth: auth(), body: formBody({ owner: 'me' }) }),
      code: 'invalid_form',
      fields: ['owner'],
    },
    {
      name: 'PUT /forms/{id} title: 5, fields: "x"',
      request: () => ({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: auth(),
        body: { title: 5, fields: 'x' },
      }),
      code: 'invalid_form',
      fields: ['title', 'fields'],
    },
    {
      name: 'PUT /forms/{id} with a 2000-character title',
      request: () => ({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: auth(),
        body: { title: 'x'.repeat(2000) },
      }),
      code: 'invalid_form',
      fields: ['title'],
    },
    {
      name: 'PUT /forms/{id} with a JSON array',
      request: () => ({ method: 'PUT', url: `/forms/${form.id}`, auth: auth(), body: [] }),
      code: 'invalid_form',
      fields: ['(body)'],
    },
    {
      name: 'POST /environments name: []',
      request: () => ({ method: 'POST', url: '/environments', auth: auth(), body: { name: [] } }),
      code: 'validation_failed',
      fields: ['name'],
    },
    {
      name: 'POST /environments name: 5',
      request: () => ({ method: 'POST', url: '/environments', auth: auth(), body: { name: 5 } }),
      code: 'validation_failed',
      fields: ['name'],
    },
    {
      name: 'POST /environments {}',
      request: () => ({ method: 'POST', url: '/environments', auth: auth(), body: {} }),
      code: 'validation_failed',
      fields: ['name'],
    },
    {
      name: 'POST /environments with a JSON string',
      request: () => ({ method: 'POST', url: '/environments', auth: auth(), body: '"staging"' }),
      code: 'validation_failed',
      fields: ['(body)'],
    },
    {
      name: 'POST /auth/signup password: 123',
      request: () => ({ method: 'POST', url: '/auth/signup', body: { email: email(), password: 123 } }),
      code: 'validation_failed',
      fields: ['password'],
    },
    {
      name: 'POST /auth/signup {}',
      request: () => ({ method: 'POST', url: '/auth/signup', body: {} }),
      code: 'validation_failed',
      fields: ['email', 'password'],
    },
    {
      name: 'POST /auth/signup with a 300-character e-mail',
      request: () => ({
        method: 'POST',
        url: '/auth/signup',
        body: { email: `${'a'.repeat(288)}@example.com`, password: 'correct horse battery' },
      }),
      code: 'validation_failed',
      fields: ['email'],
    },
    {
      name: 'POST /auth/signup with a 100 KB password',
      request: () => ({
        method: 'POST',
        url: '/auth/signup',
        body: { email: email(), password: 'p'.repeat(100 * 1024) },
      }),
      code: 'validation_failed',
      fields: ['password'],
    },
    {
      name: 'POST /auth/login with a 300-character e-mail',
      request: () => ({
        method: 'POST',
        url: '/auth/login',
        body: { email: `${'a'.repeat(288)}@example.com`, password: 'whatever' },
      }),
      code: 'validation_failed',
      fields: ['email'],
    },
    {
      name: 'POST /auth/login email: 5',
      request: () => ({ method: 'POST', url: '/auth/login', body: { email: 5, password: 'whatever' } }),
      code: 'validation_failed',
      fields: ['email'],
    },
  ];

  it.each(rows)('$name -> 400 $code naming $fields', async ({ request, status, code, fields }) => {
    const before = await snapshot();
    const body = expectProblem(await t.request(request()), status ?? 400, code);
    expect(fieldsOf(body)).toEqual(expect.arrayContaining(fields));
    for (const error of body.errors) {
      expect(error).toEqual({
        field: expect.any(String),
        code: expect.any(String),
        message: expect.any(String),
      });
    }
    // a huge value is named, not echoed back
    expect(JSON.stringify(body).length).toBeLessThan(5000);
    expect(await snapshot()).toEqual(before);
  });
});

describe('parameters', () => {
  it.each([
    { url: '/forms?environment=a&environment=b', field: 'environment' },
    { url: '/forms?environment=development&environment=development', field: 'environment' },
    { url: '/forms?environment=development&limit=1&limit=2', field: 'limit' },
    { url: '/forms?environment=development&status=live&status=draft', field: 'status' },
    { url: '/forms?environment=development&limit=0', field: 'limit' },
    { url: '/forms?environment=development&limit=101', field: 'limit' },
    { url: '/forms?environment=development&limit=ten', field: 'limit' },
    { url: '/forms?environment=development&status=open', field: 'status' },
    { url: '/keys?environment=development&environment=production', field: 'environment' },
    { url: '/forms/{form}?environment=development&environment=production', field: 'environment' },
    { url: '/environments/development/forms?limit=1&limit=2', field: 'limit' },
    { url: `/forms/${'f'.repeat(201)}`, field: 'id' },
    { url: `/v1/forms/${'f'.repeat(201)}/public`, field: 'formId' },
    { url: `/webhooks/${'w'.repeat(201)}`, field: 'id' },
    { url: `/webhooks?form_id=${'f'.repeat(201)}`, field: 'form_id' },
    { url: '/webhooks?environment=development&limit=0', field: 'limit' },
    { url: '/webhooks?environment=development&limit=1&limit=2', field: 'limit' },
    { url: '/webhooks?form_id=a&form_id=b', field: 'form_id' },
    { url: `/forms/${'f'.repeat(5000)}`, field: '(path)' },
    { url: '/forms/%E0%A4%A', field: '(path)' },
    { url: '/v1/forms/%zz/public', field: '(path)' },
    { url: '/analytics?environment=development&from=yesterday', field: 'from' },
    { url: '/analytics?environment=development&to=2026-02-30', field: 'to' },
    { url: '/analytics?environment=development&from=a&from=b', field: 'from' },
    { url: `/analytics?environment=development&form_id=${'f'.repeat(201)}`, field: 'form_id' },
  ])('GET $url is 400 invalid_parameter naming $field', async ({ url, field }) => {
    const response = await t.request({ method: 'GET', url: url.replace('{form}', form.id), auth: auth() });
    const body = expectProblem(response, 400, 'invalid_parameter');
    expect(fieldsOf(body)).toContain(field);
  });

  it.each([
    '/forms',
    '/forms?environment=',
    '/forms?environment=Not%20Valid',
    `/forms?environment=${'e'.repeat(2000)}`,
    '/keys',
    '/keys?environment=..%2F..',
    '/analytics',
    '/analytics?environment=Not%20Valid',
    '/environments/Not%20Valid/analytics',
  ])('GET %s is 400 invalid_environment with the default suggestions', async (url) => {
    const response = await t.request({ method: 'GET', url, auth: auth() });
    const body = expectProblem(response, 400, 'invalid_environment');
    expect(body.suggestions).toEqual(['development', 'production']);
    expect(body.detail.length).toBeLessThan(500);
  });

  it.each([
    { name: 'nothing', body: {} },
    { name: 'title and fields only', body: { title: 'x', fields: [] } },
    { name: 'environment: null', body: formBody({ environment: null }) },
  ])('POST /forms with $name is 400 invalid_environment (environment missing)', async ({ body }) => {
    const response = await t.request({ method: 'POST', url: '/forms', auth: auth(), body });
    const problem = expectProblem(response, 400, 'invalid_environment');
    expect(problem.suggestions).toEqual(['development', 'production']);
  });

  it('a garbage cursor is 400 invalid_parameter', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/forms?environment=development&cursor=%00%FF-not-a-cursor',
      auth: auth(),
    });
    expectProblem(response, 400, 'invalid_parameter');
  });
});
