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

  it('renders the document at /docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});
