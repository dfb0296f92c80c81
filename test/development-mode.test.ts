import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedStorage } from './support/app.js';
import { type ServiceProcess, startService } from './support/process.js';

/**
 * Issue 19: `npm start` with NODE_ENV unset ran in development mode, whose webhooks may reach
 * private addresses. Development mode is now asked for by name (`npm run dev` does), and a
 * service in it that listens beyond loopback says so at start.
 */
describe('development mode as a process', () => {
  let env: Record<string, string | undefined>;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const isolated = await isolatedStorage();
    drop = isolated.drop;
    env = {
      DATA_DIR: isolated.storage.dataDir,
      DATABASE_URL: isolated.storage.databaseUrl,
      DATABASE_SCHEMA: isolated.storage.databaseSchema,
    };
  });
  afterAll(() => drop());

  /** Runs `check` against a service started with `overrides`, stopping it however the check ends. */
  async function withService(
    overrides: Record<string, string | undefined>,
    check: (service: ServiceProcess) => Promise<void>,
  ): Promise<void> {
    const service = await startService({ ...env, ...overrides });
    try {
      await check(service);
    } finally {
      await service.stop();
    }
  }

  /** The name of the session cookie a browser sign-up gets: `__Host-` and Secure in production mode. */
  async function sessionCookieName(url: string): Promise<string> {
    const response = await fetch(`${url}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `mode-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'long enough password',
        cookie: true,
      }),
    });
    expect(response.status).toBe(201);
    return (response.headers.get('set-cookie') ?? '').split('=')[0] ?? '';
  }

  it('is off with NODE_ENV unset, and nothing is said at start, wherever it listens', async () => {
    await withService({ HOST: '0.0.0.0', NODE_ENV: undefined }, async (service) => {
      expect(await sessionCookieName(service.url)).toBe('__Host-intake_session');
      expect(service.output()).not.toContain('development mode');
    });
  });

  it('is on with NODE_ENV=development, and warned about when listening beyond loopback', async () => {
    await withService({ HOST: '0.0.0.0', NODE_ENV: 'development' }, async (service) => {
      expect(await sessionCookieName(service.url)).toBe('intake_session');
      const warning = service
        .output()
        .split('\n')
        .find((line) => line.includes('development mode'));
      expect(warning).toBeDefined();
      expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40 });
    });
  });

  it('is not warned about on loopback', async () => {
    await withService({ HOST: '127.0.0.1', NODE_ENV: 'development' }, async (service) => {
      expect(service.output()).not.toContain('development mode');
    });
  });
});
