import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';

/** GET /openapi.json describes every route, from the same schemas that validate requests. */
describe('OpenAPI document', () => {
  let t: TestApp;
  let document: any;
  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.request({ method: 'GET', url: '/openapi.json' });
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 with the security schemes of API.md §1', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual([
      'apiKey',
      'bearer',
      'publishableKey',
      'sessionCookie',
    ]);
  });

  it.each([
    ['post', '/auth/signup'],
    ['post', '/auth/login'],
    ['post', '/auth/logout'],
    ['get', '/auth/me'],
    ['get', '/environments'],
    ['post', '/environments'],
    ['delete', '/environments/{name}'],
    ['post', '/keys/secrets'],
    ['delete', '/keys/secrets/{keyId}'],
    ['post', '/keys/publishable'],
    ['delete', '/keys/publishable/{keyId}'],
    ['get', '/keys'],
    ['post', '/forms'],
    ['get', '/forms'],
    ['get', '/forms/{id}'],
    ['put', '/forms/{id}'],
    ['delete', '/forms/{id}'],
    ['get', '/v1/forms/{formId}/public'],
    ['get', '/environments/{environment}/forms'],
    ['post', '/v1/forms/{formId}/events'],
    ['get', '/analytics'],
    ['get', '/environments/{environment}/analytics'],
    ['get', '/environments/{environment}/responses'],
    ['post', '/webhooks'],
    ['get', '/webhooks'],
    ['get', '/webhooks/{id}'],
    ['patch', '/webhooks/{id}'],
    ['delete', '/webhooks/{id}'],
    ['get', '/health'],
  ])('describes %s %s with a summary and its responses', (method, path) => {
    const operation = document.paths[path]?.[method];
    expect(operation, `${method.toUpperCase()} ${path} missing`).toBeDefined();
    expect(operation.summary).toBeTruthy();
    expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
  });

  it('marks the legacy path deprecated and documents the form body', () => {
    expect(document.paths['/environments/{environment}/forms'].get.deprecated).toBe(true);
    const body = document.paths['/forms'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['title', 'environment', 'fields']));
  });

  it('marks the legacy analytics and responses paths deprecated, and describes the analytics body', () => {
    expect(document.paths['/environments/{environment}/analytics'].get.deprecated).toBe(true);
    expect(document.paths['/environments/{environment}/responses'].get.deprecated).toBe(true);
    const analytics = document.paths['/analytics'].get.responses['200'].content['application/json'].schema;
    expect(analytics.required).toEqual(
      expect.arrayContaining(['environment', 'from', 'to', 'totals', 'forms', 'daily']),
    );
    const events = document.paths['/v1/forms/{formId}/events'].post;
    expect(Object.keys(events.responses)).toEqual(expect.arrayContaining(['202', '400', '404', '429']));
    expect(events.requestBody.content['application/json'].schema.required).toEqual(['type', 'sessionId']);
  });

  const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
  /** Every operation of the document, with its method and path. */
  const operations = () =>
    Object.entries<any>(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] })),
    );
  /** A response, its `$ref` to components/responses followed. */
  const resolved = (response: any) =>
    response.$ref ? document.components.responses[response.$ref.split('/').pop()] : response;
  const headerNames = (response: any) => Object.keys(resolved(response).headers ?? {});

  it('names every operation: a unique camelCase operationId, a summary, tags and its own security', () => {
    const ids = operations().map(({ method, path, operation }) => {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, `${where} has no operationId`).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary, where).toBeTruthy();
      expect(operation.tags?.length, where).toBeGreaterThan(0);
      expect(Array.isArray(operation.security), `${where} says nothing of its credentials`).toBe(true);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'createForm',
        'listForms',
        'getForm',
        'updateForm',
        'deleteForm',
        'submitForm',
      ]),
    );
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('says which credentials each operation takes', () => {
    const security = (path: string, method: string) =>
      document.paths[path][method].security.map((requirement: object) => Object.keys(requirement).join('+'));
    // environments and keys: a session only (a bearer token or the dashboard cookie)
    expect(security('/environments', 'get')).toEqual(['bearer', 'sessionCookie']);
    expect(security('/keys/secrets', 'post')).toEqual(['bearer', 'sessionCookie']);
    // public routes: anonymous or a key, never the cookie
    expect(security('/forms/{id}/submit', 'post')).toEqual(['bearer', 'apiKey', 'publishableKey', '']);
    expect(security('/forms', 'post')).toEqual(['bearer', 'apiKey', 'sessionCookie']);
    expect(security('/forms', 'get')).toContain('');
    expect(security('/auth/signup', 'post')).toEqual([]);
  });

  it('documents every error as application/problem+json with the one Problem schema', () => {
    const problem = document.components.schemas.Problem;
    expect(problem.required).toEqual(['type', 'title', 'status', 'detail', 'code']);
    expect(Object.keys(problem.properties)).toEqual(
      expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'errors', 'suggestions']),
    );
    expect(problem.properties.errors.items.required).toEqual(['field', 'code', 'message']);
    expect(problem.properties.code.enum).toEqual(
      expect.arrayContaining(['invalid_json', 'service_unavailable']),
    );
    let errors = 0;
    for (const { method, path, operation } of operations()) {
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        if (Number(status) < 400) continue;
        errors++;
        const content = resolved(response).content;
        const where = `${method.toUpperCase()} ${path} ${status}`;
        expect(content['application/problem+json']?.schema, where).toEqual({
          $ref: '#/components/schemas/Problem',
        });
        expect(content['application/json'], where).toBeUndefined();
        // an HTML form post gets its errors as pages: the submit route alone
        if (content['text/html']) expect(operation.operationId, where).toBe('submitForm');
      }
    }
    expect(errors).toBeGreaterThan(200);
  });

  it('declares what any operation may answer: 400, 401, 500, 503; 413 and 415 where a body is read', () => {
    for (const { method, path, operation } of operations()) {
      const where = `${method.toUpperCase()} ${path}`;
      const statuses = Object.keys(operation.responses);
      expect(statuses, where).toEqual(expect.arrayContaining(['400', '401', '500', '503']));
      if (method !== 'get') expect(statuses, where).toEqual(expect.arrayContaining(['413', '415']));
      expect(headerNames(operation.responses['503']), where).toContain('Retry-After');
      for (const response of Object.values(operation.responses)) {
        expect(headerNames(response), where).toContain('X-Request-Id');
      }
    }
    expect(headerNames(document.paths['/forms/{id}/submit'].post.responses['429'])).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(document.components.headers['Retry-After'].required).toBe(true);
  });

  it('describes the CSV export, the form posts and their answers, and the optional read body', () => {
    const list = document.paths['/responses'].get.responses['200'].content;
    expect(Object.keys(list).sort()).toEqual([
      'application/json',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/x-ndjson',
      'text/csv',
    ]);
    const submit = document.paths['/forms/{id}/submit'].post;
    expect(Object.keys(submit.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(Object.keys(submit.responses['201'].content).sort()).toEqual(['application/json', 'text/html']);
    expect(headerNames(submit.responses['303'])).toContain('Location');
    expect(submit.responses['303'].content).toBeUndefined();
    expect(document.paths['/responses/{id}/read'].post.requestBody.required).toBe(false);
    expect(document.paths['/responses/{id}/star'].post.requestBody.required).toBe(true);
  });

  it('declares the response headers and the header parameters', () => {
    const getForm = document.paths['/forms/{id}'].get;
    expect(headerNames(getForm.responses['200'])).toContain('ETag');
    expect(headerNames(getForm.responses['304'])).toContain('ETag');
    expect(headerNames(document.paths['/forms'].post.responses['201'])).toEqual(
      expect.arrayContaining(['ETag', 'Location']),
    );
    expect(headerNames(document.paths['/environments/{environment}/forms'].get.responses['200'])).toEqual(
      expect.arrayContaining(['Deprecation', 'Link']),
    );
    const parameters = (path: string, method: string) =>
      (document.paths[path][method].parameters ?? []).map((parameter: any) =>
        parameter.$ref
          ? document.components.parameters[parameter.$ref.split('/').pop()].name
          : parameter.name,
      );
    expect(parameters('/forms/{id}', 'get')).toContain('If-None-Match');
    expect(parameters('/forms/{id}', 'put')).toEqual(expect.arrayContaining(['If-Match', 'X-CSRF-Token']));
    expect(parameters('/forms/{id}/submit', 'post')).toContain('Idempotency-Key');
    // the cookie is not read on public routes: no CSRF token there
    expect(parameters('/forms/{id}/submit', 'post')).not.toContain('X-CSRF-Token');
    expect(parameters('/forms/{id}', 'get')).not.toContain('X-CSRF-Token');
  });

  it('renders the document at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });

  // Issue 19: /docs is on the dashboard's origin; a page there that runs scripts from anywhere,
  // or that another site may frame, would be a way into the dashboard's session.
  it.each(['/docs', '/docs/', '/docs/static/swagger-ui-bundle.js', '/docs/static/index.css', '/docs/json'])(
    '%s has a strict CSP, no framing and nosniff',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBeLessThan(400);
      const policy = String(response.headers['content-security-policy']);
      const directive = (name: string) =>
        policy
          .split(';')
          .map((part) => part.trim())
          .find((part) => part.startsWith(`${name} `));
      expect(directive('default-src')).toBe("default-src 'none'");
      // the UI's own scripts only: no inline script, no eval, no other origin
      expect(directive('script-src')).toBe("script-src 'self'");
      expect(directive('style-src')).not.toContain('unsafe-inline');
      expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(directive('base-uri')).toBe("base-uri 'none'");
      expect(directive('form-action')).toBe("form-action 'none'");
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    },
  );

  it('the /docs page loads nothing that its policy refuses (scripts and styles from /docs/static)', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/docs/' })).body;
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page).not.toMatch(/\bstyle=/);
    for (const [, src] of page.matchAll(/(?:src|href)="([^"]+)"/g)) expect(src).toMatch(/^\.\/static\//);
  });
});
