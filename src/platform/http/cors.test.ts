import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installCors, PUBLIC_ROUTE } from './cors.js';

/** A route marked public gets its preflight beside it, wherever it is declared. */
describe('public routes (platform/http/cors.ts)', () => {
  async function appWith(register: (app: ReturnType<typeof Fastify>) => Promise<void>) {
    const app = Fastify();
    await installCors(app, { corsOrigins: [] });
    await register(app);
    await app.ready();
    return app;
  }
  const preflight = (url: string) => ({
    method: 'OPTIONS' as const,
    url,
    headers: { origin: 'https://any.example', 'access-control-request-method': 'POST' },
  });

  it('answers the preflight of a public route to any origin, and of the others to none', async () => {
    const app = await appWith(async (app) => {
      app.post('/open', { config: PUBLIC_ROUTE }, async () => ({ ok: true }));
      app.post('/closed', async () => ({ ok: true }));
    });
    const open = await app.inject(preflight('/open'));
    expect(open.statusCode).toBe(204);
    expect(open.headers['access-control-allow-origin']).toBe('https://any.example');
    const closed = await app.inject(preflight('/closed'));
    expect(closed.headers['access-control-allow-origin']).toBeUndefined();
    const answer = await app.inject({
      method: 'POST',
      url: '/open',
      headers: { origin: 'https://any.example' },
    });
    expect(answer.headers['access-control-allow-origin']).toBe('https://any.example');
    await app.close();
  });

  it('adds the preflight at the route’s own path inside a prefixed plugin', async () => {
    const app = await appWith(async (app) => {
      await app.register(
        async (scope: FastifyInstance) => {
          scope.post('/x', { config: PUBLIC_ROUTE }, async () => ({ ok: true }));
        },
        { prefix: '/p' },
      );
    });
    const response = await app.inject(preflight('/p/x'));
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://any.example');
    expect(app.hasRoute({ method: 'OPTIONS', url: '/p/p/x' })).toBe(false);
    await app.close();
  });
});
