import swagger from '@fastify/swagger';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, signup, type TestUser } from './support/factories.js';
import { assertDocumented } from './support/openapi-check.js';

/**
 * The check every API test's answer goes through (test/support/openapi-check.ts) is itself
 * checked: on a parametric route, a wrong status, media type, body or missing header fails it.
 */

function altered(
  response: LightMyRequestResponse,
  change: { statusCode?: number; headers?: Record<string, string | undefined>; body?: string },
): LightMyRequestResponse {
  const body = change.body ?? response.body;
  const headers: Record<string, unknown> = { ...response.headers, ...change.headers };
  for (const [name, value] of Object.entries(headers)) if (value === undefined) delete headers[name];
  return {
    ...response,
    statusCode: change.statusCode ?? response.statusCode,
    headers,
    body,
    rawPayload: Buffer.from(body),
  } as LightMyRequestResponse;
}

describe('the OpenAPI answer check', () => {
  let t: TestApp;
  let user: TestUser;
  let formId: string;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
    formId = (await createForm(t, user.token)).id;
  });
  afterAll(() => t.close());

  const read = () =>
    t.app.inject({
      method: 'GET',
      url: `/forms/${formId}`,
      headers: { authorization: `Bearer ${user.token}` },
    });

  it('passes the real answer of a parametric route', async () => {
    const response = await read();
    expect(response.statusCode).toBe(200);
    expect(() => assertDocumented(t.app, 'GET', `/forms/${formId}`, response)).not.toThrow();
  });

  it('fails a status the operation does not list', async () => {
    const response = altered(await read(), { statusCode: 418 });
    expect(() => assertDocumented(t.app, 'GET', `/forms/${formId}`, response)).toThrow(
      /getForm .*answered 418, a status the document does not list/,
    );
  });

  it('fails a media type the status does not declare', async () => {
    const response = altered(await read(), { headers: { 'content-type': 'text/plain' } });
    expect(() => assertDocumented(t.app, 'GET', `/forms/${formId}`, response)).toThrow(
      /media type text\/plain/,
    );
  });

  it('fails a body that breaks the schema', async () => {
    const real = await read();
    const { title: _title, ...withoutTitle } = JSON.parse(real.body);
    const response = altered(real, { body: JSON.stringify(withoutTitle) });
    expect(() => assertDocumented(t.app, 'GET', `/forms/${formId}`, response)).toThrow(/breaks the schema/);
  });

  it('fails an answer without a header the document requires', async () => {
    const response = altered(await read(), { headers: { etag: undefined } });
    expect(() => assertDocumented(t.app, 'GET', `/forms/${formId}`, response)).toThrow(
      /without the header ETag/,
    );
  });

  it('passes paths no route serves (404, 405 belong to no operation), and the hidden routes', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/nothing/here' });
    expect(() => assertDocumented(t.app, 'GET', '/nothing/here', missing)).not.toThrow();
    const docs = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(() => assertDocumented(t.app, 'GET', '/openapi.json', docs)).not.toThrow();
  });

  it('fails a route that is served but missing from the document', async () => {
    const app = Fastify();
    await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 'probe', version: '1' } } });
    app.get('/listed', { schema: { response: { 200: { type: 'object' } } } }, async () => ({}));
    app.get('/unlisted', { schema: { hide: true } }, async () => ({}));
    await app.ready();
    try {
      const listed = await app.inject({ method: 'GET', url: '/listed' });
      expect(() => assertDocumented(app, 'GET', '/listed', listed)).not.toThrow();
      const unlisted = await app.inject({ method: 'GET', url: '/unlisted' });
      expect(() => assertDocumented(app, 'GET', '/unlisted', unlisted)).toThrow(/is not in \/openapi\.json/);
    } finally {
      await app.close();
    }
  });
});
