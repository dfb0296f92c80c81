import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';

describe('GET /health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 while the database answers', async () => {
    const response = await t.request({ method: 'GET', url: '/health' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', database: t.config.databaseUrl ? 'postgres' : 'sqlite' });
  });

  it('answers 503 problem+json once the database is gone', async () => {
    const other = await createTestApp();
    try {
      await other.app.intake.database.close();
      const response = await other.request({ method: 'GET', url: '/health' });
      expect(response.status).toBe(503);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body.code).toBe('service_unavailable');
      expect(response.headers['retry-after']).toBe('1');
    } finally {
      await other.close();
    }
  });
});
