import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/platform/problem.js';
import { createTestApp, type RequestOptions, type Response, type TestApp } from './support/app.js';
import {
  expectCleanProblem,
  fieldsOf,
  JSON_TYPE,
  LEAKS,
  snapshot as takeSnapshot,
} from './support/bad-input.js';
import {
  createEnvironment,
  createForm,
  createKey,
  formBody,
  signup,
  type TestUser,
} from './support/factories.js';

/**
 * What the API does with requests it cannot take (API.md §1), continued from bad-input.test.ts:
 * a refused write changes nothing, random bodies never cause a 5xx, the NUL character, CORS and
 * request ids.
 */

let t: TestApp;
let user: TestUser;
let form: { id: string };
let key: { id: string; key: string };

beforeAll(async () => {
  t = await createTestApp();
  user = await signup(t);
  await createEnvironment(t, user, 'staging');
  key = await createKey(t, user, 'secret', 'development');
  form = await createForm(t, user.token);
});

afterAll(() => t.close());

const expectProblem = expectCleanProblem;
const snapshot = () => takeSnapshot(t);
const auth = () => user.token;
const json = JSON_TYPE;

// --- a refused write changes nothing --------------------------------------------------

describe('a refused write changes nothing', () => {
  const rows: Array<{ name: string; request: () => RequestOptions; status: number; code: string }> = [
    {
      name: 'POST /auth/signup with a bad e-mail',
      request: () => ({
        method: 'POST',
        url: '/auth/signup',
        body: { email: 'nope', password: 'long enough' },
      }),
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'POST /auth/signup with a short password',
      request: () => ({
        method: 'POST',
        url: '/auth/signup',
        body: { email: `s-${randomBytes(4).toString('hex')}@example.com`, password: 'short' },
      }),
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'POST /environments with an invalid name',
      request: () => ({ method: 'POST', url: '/environments', auth: auth(), body: { name: 'Bad Name' } }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'POST /environments with an extra member',
      request: () => ({ method: 'POST', url: '/environments', auth: auth(), body: { name: 'ok', extra: 1 } }),
      status: 400,
      code: 'validation_failed',
    },
    {
      name: 'DELETE /environments/{invalid name}',
      request: () => ({ method: 'DELETE', url: '/environments/Bad%20Name', auth: auth() }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'DELETE /environments/{51-character name}',
      request: () => ({ method: 'DELETE', url: `/environments/${'s'.repeat(51)}`, auth: auth() }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'POST /keys/secrets without an environment',
      request: () => ({ method: 'POST', url: '/keys/secrets', auth: auth() }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'POST /keys/secrets?environment=Bad',
      request: () => ({ method: 'POST', url: '/keys/secrets?environment=Bad', auth: auth() }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'POST /keys/publishable with two environments',
      request: () => ({
        method: 'POST',
        url: '/keys/publishable?environment=development&environment=staging',
        auth: auth(),
      }),
      status: 400,
      code: 'invalid_parameter',
    },
    {
      name: 'DELETE /keys/secrets/{101-character id}',
      request: () => ({ method: 'DELETE', url: `/keys/secrets/${'k'.repeat(101)}`, auth: auth() }),
      status: 400,
      code: 'invalid_parameter',
    },
    {
      name: 'DELETE /keys/secrets/{badly encoded id}',
      request: () => ({ method: 'DELETE', url: '/keys/secrets/%E0%A4%A', auth: auth() }),
      status: 400,
      code: 'invalid_parameter',
    },
    {
      name: 'DELETE /forms/{5000-character id}',
      request: () => ({ method: 'DELETE', url: `/forms/${'f'.repeat(5000)}`, auth: auth() }),
      status: 400,
      code: 'invalid_parameter',
    },
    {
      name: 'DELETE /keys/publishable/{id of a secret key}',
      request: () => ({ method: 'DELETE', url: `/keys/publishable/${key.id}`, auth: auth() }),
      status: 404,
      code: 'not_found',
    },
    {
      name: 'POST /forms with an invalid definition',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ fields: [{ id: 'a', type: 'select', label: 'A' }] }),
      }),
      status: 400,
      code: 'invalid_form',
    },
    {
      name: 'POST /forms with an invalid environment',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ environment: 'Prod' }),
      }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'PUT /forms/{id} with an invalid definition',
      request: () => ({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: auth(),
        body: { title: 'Changed', fields: [{ id: 'a', type: 'number', label: 'A', min: 5, max: 1 }] },
      }),
      status: 400,
      code: 'invalid_form',
    },
    {
      name: 'PUT /forms/{id}?environment=Bad',
      request: () => ({
        method: 'PUT',
        url: `/forms/${form.id}?environment=Bad`,
        auth: auth(),
        body: { title: 'Changed' },
      }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'PUT /forms/{id} moving it to another environment',
      request: () => ({
        method: 'PUT',
        url: `/forms/${form.id}`,
        auth: auth(),
        body: { title: 'Changed', environment: 'production' },
      }),
      status: 400,
      code: 'immutable_member',
    },
    {
      name: 'DELETE /forms/{id}?environment=Bad',
      request: () => ({ method: 'DELETE', url: `/forms/${form.id}?environment=Bad`, auth: auth() }),
      status: 400,
      code: 'invalid_environment',
    },
    {
      name: 'DELETE /forms/{id} with two environments',
      request: () => ({
        method: 'DELETE',
        url: `/forms/${form.id}?environment=development&environment=development`,
        auth: auth(),
      }),
      status: 400,
      code: 'invalid_parameter',
    },
    {
      name: 'DELETE /forms/{id} in another environment',
      request: () => ({ method: 'DELETE', url: `/forms/${form.id}?environment=production`, auth: auth() }),
      status: 403,
      code: 'form_not_in_environment',
    },
  ];

  it.each(rows)('$name -> $status $code', async ({ request, status, code }) => {
    const before = await snapshot();
    expectProblem(await t.request(request()), status, code);
    expect(await snapshot()).toEqual(before);
  });

  it('the form and key used above are still there, unchanged', async () => {
    const read = await t.request({ method: 'GET', url: `/forms/${form.id}`, auth: auth() });
    expect(read.status).toBe(200);
    expect(read.body.version).toBe(1);
    expect(read.body.title).toBe('Contact us');
    const keys = await t.request({ method: 'GET', url: '/keys?environment=development', auth: auth() });
    expect(keys.body.data.map((k: { id: string }) => k.id)).toContain(key.id);
  });
});

// --- random bodies --------------------------------------------------------------------

describe('random bodies never cause a 5xx', () => {
  const ERROR_CODE_NAMES = Object.keys(ERROR_CODES);

  function expectWellFormedAnswer(response: Response) {
    expect(response.status).toBeLessThan(500);
    if (response.status >= 400) {
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(ERROR_CODE_NAMES).toContain(response.body?.code);
      expect(response.body.status).toBe(response.status);
      for (const leak of LEAKS) expect(response.text).not.toMatch(leak);
    } else {
      expect(response.status).toBeGreaterThanOrEqual(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  }

  // Any JSON, with strings of any code units (NUL, lone surrogates...), and objects that
  // look like the expected bodies with any JSON in their members.
  const anyJson = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });
  const anyString = fc.string({ unit: 'binary', maxLength: 80 });
  const member = fc.oneof(anyJson, anyString);
  const formLike = fc.record(
    {
      id: fc.oneof(anyString, fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)),
      title: member,
      environment: fc.oneof(fc.constantFrom('development', 'production', 'nope'), member),
      status: fc.oneof(fc.constantFrom('draft', 'live', 'archived'), member),
      fields: fc.oneof(
        fc.array(
          fc.record(
            {
              id: fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), member),
              type: fc.oneof(fc.constantFrom('text', 'email', 'select', 'number', 'rating'), member),
              label: member,
              required: member,
              options: member,
              pattern: fc.oneof(fc.constantFrom('^a+$', '(a+)+$', '['), member),
              min: member,
              max: member,
            },
            { requiredKeys: [] },
          ),
          { maxLength: 4 },
        ),
        member,
      ),
      ui: member,
      logic: member,
      spamProtection: member,
      webhooks: member,
    },
    { requiredKeys: [] },
  );
  const environmentLike = fc.oneof(
    fc.record({ name: fc.oneof(anyString, fc.stringMatching(/^[a-z0-9_-]{1,50}$/), member) }),
    anyJson,
  );

  it('POST /forms with ~100 random bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, formLike), async (body) => {
        const response = await t.request({
          method: 'POST',
          url: '/forms',
          auth: auth(),
          body: JSON.stringify(body),
        });
        expectWellFormedAnswer(response);
      }),
      { numRuns: 100 },
    );
  });

  it('POST /environments with ~100 random bodies', async () => {
    await fc.assert(
      fc.asyncProperty(environmentLike, async (body) => {
        const response = await t.request({
          method: 'POST',
          url: '/environments',
          auth: auth(),
          body: JSON.stringify(body),
        });
        expectWellFormedAnswer(response);
      }),
      { numRuns: 100 },
    );
  });

  it('PUT /forms/{id} with ~100 random bodies', async () => {
    const target = await createForm(t, auth());
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyJson, formLike), async (body) => {
        const response = await t.request({
          method: 'PUT',
          url: `/forms/${target.id}`,
          auth: auth(),
          body: JSON.stringify(body),
        });
        expectWellFormedAnswer(response);
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    { name: 'a lone surrogate in a title', body: () => formBody({ title: 'x\ud800y' }) },
    {
      name: 'a lone surrogate in a label',
      body: () => formBody({ fields: [{ id: 'a', type: 'text', label: '\udc00' }] }),
    },
  ])('POST /forms with $name never causes a 5xx', async ({ body }) => {
    const response = await t.request({ method: 'POST', url: '/forms', auth: auth(), body: body() });
    expectWellFormedAnswer(response);
  });
});

describe('the NUL character (which PostgreSQL text cannot hold) is refused alike on both engines', () => {
  const rows: Array<{ name: string; request: () => RequestOptions; code: string; field: string }> = [
    {
      name: 'POST /forms title',
      request: () => ({ method: 'POST', url: '/forms', auth: auth(), body: formBody({ title: 'a\u0000b' }) }),
      code: 'invalid_form',
      field: 'title',
    },
    {
      name: 'POST /forms label',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ fields: [{ id: 'a', type: 'text', label: 'a\u0000b' }] }),
      }),
      code: 'invalid_form',
      field: 'fields[0].label',
    },
    {
      name: 'POST /forms webhook url',
      request: () => ({
        method: 'POST',
        url: '/forms',
        auth: auth(),
        body: formBody({ webhooks: [{ event: 'form.created', url: 'https://example.com/\u0000' }] }),
      }),
      code: 'invalid_form',
      field: 'webhooks[0].url',
    },
    {
      name: 'PUT /forms/{id} title',
      request: () => ({ method: 'PUT', url: `/forms/${form.id}`, auth: auth(), body: { title: '\u0000' } }),
      code: 'invalid_form',
      field: 'title',
    },
    {
      name: 'POST /auth/login e-mail',
      request: () => ({
        method: 'POST',
        url: '/auth/login',
        body: { email: 'a\u0000@example.com', password: 'whatever' },
      }),
      code: 'validation_failed',
      field: 'email',
    },

    {
      name: 'GET /forms/{id}',
      request: () => ({ method: 'GET', url: '/forms/a%00b', auth: auth() }),
      code: 'invalid_parameter',
      field: 'id',
    },
    {
      name: 'GET /v1/forms/{id}/public',
      request: () => ({ method: 'GET', url: '/v1/forms/a%00b/public' }),
      code: 'invalid_parameter',
      field: 'formId',
    },
    {
      name: 'DELETE /keys/secrets/{id}',
      request: () => ({ method: 'DELETE', url: '/keys/secrets/a%00b', auth: auth() }),
      code: 'invalid_parameter',
      field: 'keyId',
    },
    {
      name: 'DELETE /forms/{id}',
      request: () => ({ method: 'DELETE', url: '/forms/a%00b', auth: auth() }),
      code: 'invalid_parameter',
      field: 'id',
    },
    {
      name: 'GET /forms with another parameter',
      request: () => ({ method: 'GET', url: '/forms?environment=development&cursor=a%00b', auth: auth() }),
      code: 'invalid_parameter',
      field: 'cursor',
    },
  ];

  it.each(rows)('$name -> 400 $code naming $field', async ({ request, code, field }) => {
    const before = await snapshot();
    const body = expectProblem(await t.request(request()), 400, code);
    expect(fieldsOf(body)).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  // an environment name with a NUL is an invalid name like any other
  it.each([
    {
      name: 'POST /environments',
      request: () => ({ method: 'POST', url: '/environments', body: { name: 'a\u0000' } }),
    },
    { name: 'DELETE /environments/{name}', request: () => ({ method: 'DELETE', url: '/environments/a%00' }) },
    { name: 'GET /forms?environment=', request: () => ({ method: 'GET', url: '/forms?environment=dev%00' }) },
    { name: 'GET /keys?environment=', request: () => ({ method: 'GET', url: '/keys?environment=dev%00' }) },
    {
      name: 'GET /environments/{environment}/forms',
      request: () => ({ method: 'GET', url: '/environments/dev%00/forms' }),
    },
    {
      name: 'POST /forms environment',
      request: () => ({ method: 'POST', url: '/forms', body: formBody({ environment: 'dev\u0000' }) }),
    },
  ] as Array<{ name: string; request: () => RequestOptions }>)(
    '$name -> 400 invalid_environment',
    async ({ request }) => {
      const before = await snapshot();
      const body = expectProblem(await t.request({ ...request(), auth: auth() }), 400, 'invalid_environment');
      expect(body.suggestions).toEqual(['development', 'production']);
      expect(await snapshot()).toEqual(before);
    },
  );
});

// --- CORS -----------------------------------------------------------------------------

describe('CORS', () => {
  const preflight = (url: string, origin: string, method = 'GET') => ({
    method: 'OPTIONS' as const,
    url,
    headers: { origin, 'access-control-request-method': method },
  });

  it.each([
    { url: '/v1/forms/x/public', method: 'GET' },
    { url: '/v1/forms/x/events', method: 'POST' },
    { url: '/forms/x/submit', method: 'POST' },
  ])('a preflight of the public $url from any origin is allowed', async ({ url, method }) => {
    const response = await t.request(preflight(url, 'https://example.com', method));
    expect(response.status).toBeLessThan(300);
    expect(['*', 'https://example.com']).toContain(response.headers['access-control-allow-origin']);
    // credentials are keys there, never cookies
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('the public schema itself answers any origin, even when the form is missing', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/v1/forms/x/public',
      headers: { origin: 'https://example.com' },
    });
    expectProblem(response, 404, 'not_found');
    expect(['*', 'https://example.com']).toContain(response.headers['access-control-allow-origin']);
  });

  it.each([
    { url: '/forms', method: 'POST' },
    { url: '/forms/x', method: 'PUT' },
    { url: '/keys', method: 'GET' },
    { url: '/environments', method: 'POST' },
    { url: '/auth/login', method: 'POST' },
  ])(
    'by default a preflight of $method $url from another origin gets no CORS grant',
    async ({ url, method }) => {
      const response = await t.request(preflight(url, 'https://example.com', method));
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    },
  );

  it('by default a plain request to a private endpoint gets no CORS grant', async () => {
    const response = await t.request({
      method: 'GET',
      url: '/forms?environment=development',
      auth: auth(),
      headers: { origin: 'https://example.com' },
    });
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  describe('with CORS_ORIGINS set', () => {
    let configured: TestApp;
    beforeAll(async () => {
      configured = await createTestApp({ corsOrigins: ['https://app.example.com'] });
    });
    afterAll(() => configured.close());

    it.each([
      { url: '/forms', method: 'POST' },
      { url: '/keys', method: 'GET' },
    ])('a preflight of $method $url from the listed origin is allowed', async ({ url, method }) => {
      const response = await configured.request(preflight(url, 'https://app.example.com', method));
      expect(response.status).toBeLessThan(300);
      expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
      // bearer tokens and keys, never cookies: no credentialed CORS
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    });

    it.each(['PUT', 'DELETE', 'PATCH'])(
      'a preflight of %s from the listed origin is allowed',
      async (method) => {
        const response = await configured.request(preflight('/forms/x', 'https://app.example.com', method));
        expect(response.status).toBeLessThan(300);
        expect(response.headers['access-control-allow-methods']).toContain(method);
      },
    );

    it('exposes the headers a browser client needs, and keeps Vary: Origin beside the credential headers', async () => {
      const owner = await signup(configured);
      const created = await configured.request({
        method: 'POST',
        url: '/forms',
        auth: owner.token,
        body: { title: 'CORS', environment: 'development', fields: [] },
      });
      const response = await configured.request({
        method: 'GET',
        url: `/forms/${created.body.id}`,
        auth: owner.token,
        headers: { origin: 'https://app.example.com' },
      });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('https://app.example.com');
      const exposed = String(response.headers['access-control-expose-headers']).toLowerCase();
      for (const header of [
        'etag',
        'location',
        'link',
        'deprecation',
        'retry-after',
        'ratelimit-reset',
        'x-request-id',
      ]) {
        expect(exposed).toContain(header);
      }
      const vary = String(response.headers.vary).toLowerCase();
      for (const header of ['origin', 'authorization', 'x-api-key', 'x-publishable-key'])
        expect(vary).toContain(header);
    });

    it.each(['https://example.com', 'https://app.example.com.evil.test', 'http://app.example.com'])(
      'a preflight of /forms from %s is not',
      async (origin) => {
        const response = await configured.request(preflight('/forms', origin, 'POST'));
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
      },
    );

    it('public endpoints still answer every origin', async () => {
      const response = await configured.request(preflight('/v1/forms/x/public', 'https://example.com'));
      expect(['*', 'https://example.com']).toContain(response.headers['access-control-allow-origin']);
    });
  });
});

// --- request ids ----------------------------------------------------------------------

describe('x-request-id', () => {
  it.each([
    { name: 'a success', request: { method: 'GET', url: '/health' }, status: 200 },
    { name: 'an unknown route', request: { method: 'GET', url: '/nope' }, status: 404 },
    { name: 'a wrong method', request: { method: 'PATCH', url: '/forms' }, status: 405 },
    {
      name: 'a refused credential',
      request: { method: 'GET', url: '/keys', auth: 'sk_live_nope' },
      status: 401,
    },
    {
      name: 'malformed JSON',
      request: { method: 'POST', url: '/environments', body: '{', headers: json, auth: 'set below' },
      status: 400,
    },
    {
      name: 'a malformed path',
      request: { method: 'GET', url: '/forms/%E0%A4%A' },
      status: 400,
    },
    {
      name: 'a validation failure',
      request: { method: 'GET', url: '/forms?environment=development&limit=0' },
      status: 400,
    },
  ] as Array<{ name: string; request: RequestOptions; status: number }>)(
    'is sent on $name',
    async ({ request, status }) => {
      const sent = request.auth === 'set below' ? { ...request, auth: auth() } : request;
      const first = await t.request(sent);
      const second = await t.request(sent);
      expect(first.status).toBe(status);
      expect(first.headers['x-request-id']).toMatch(/^\S{8,}$/);
      expect(second.headers['x-request-id']).toMatch(/^\S{8,}$/);
      expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    },
  );
});
