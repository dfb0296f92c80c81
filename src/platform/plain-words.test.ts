import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { plainAjvMessage } from './errors.js';

/**
 * A refused request in words a person reads (issue 25, item 9): the route schemas' failures
 * (Ajv's "must NOT have fewer than 8 characters", "must match format \"email\"") reach the
 * dashboard, which shows a member's message under its field: they are said in plain words, and
 * the codes stay the keywords they were.
 */
describe('Ajv failures in plain words', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('says what a sign-up needs: "must be at least 8 characters long", an e-mail address like name@example.com', async () => {
    const refused = await t.request({
      method: 'POST',
      url: '/auth/signup',
      body: { email: 'not-an-address', password: 'short' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'password', code: 'minLength', message: 'must be at least 8 characters long' },
        { field: 'email', code: 'format', message: 'must be an e-mail address like name@example.com' },
      ]),
    );
    expect(refused.body.detail).not.toMatch(/NOT|format "|fewer than/);
    expect(refused.body.detail).toContain('password must be at least 8 characters long');
  });

  it('words every keyword a route schema uses, never in Ajv’s capitals', () => {
    const said = (keyword: string, params: Record<string, unknown>) =>
      plainAjvMessage({ keyword, params, instancePath: '', message: 'must NOT be raw' });
    expect(said('maxLength', { limit: 1 })).toBe('must be at most 1 character long');
    expect(said('minLength', { limit: 1 })).toBe('must not be empty');
    expect(said('minimum', { limit: 0 })).toBe('must be 0 or more');
    expect(said('maximum', { limit: 100 })).toBe('must be 100 or less');
    expect(said('type', { type: 'integer' })).toBe('must be a whole number');
    expect(said('enum', { allowedValues: ['a', 'b'] })).toBe('must be one of: "a", "b"');
    expect(said('format', { format: 'uri' })).toBe('must be a full web address, like https://example.com');
    expect(said('maxItems', { limit: 3 })).toBe('must list at most 3 items');
    expect(said('uniqueItems', {})).toBe('must not be raw');
  });
});
