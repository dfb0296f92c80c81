import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedStorage } from './support/app.js';
import { runService, startService } from './support/process.js';

/** The real process: data written before a stop is there after a start on the same storage. */
describe('the service as a process', () => {
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

  const json = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('keeps what it acknowledged across a stop and a start, and exits 0 on SIGTERM', async () => {
    const first = await startService(env);
    const signup = await json(`${first.url}/auth/signup`, {
      method: 'POST',
      body: JSON.stringify({ email: 'restart@example.com', password: 'long enough password' }),
    });
    expect(signup.status).toBe(201);
    const created = await json(`${first.url}/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${signup.body.token}` },
      body: JSON.stringify({
        id: 'survivor',
        title: 'Survives restarts',
        environment: 'production',
        status: 'live',
        fields: [{ id: 'email', type: 'email', label: 'E-mail', required: true }],
      }),
    });
    expect(created.status).toBe(201);
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await startService(env);
    try {
      const login = await json(`${second.url}/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ email: 'restart@example.com', password: 'long enough password' }),
      });
      expect(login.status).toBe(200);
      // the session token issued before the restart is still valid too
      const form = await json(`${second.url}/forms/survivor`, {
        headers: { authorization: `Bearer ${signup.body.token}` },
      });
      expect(form.status).toBe(200);
      expect(form.body).toEqual(created.body);
    } finally {
      await second.stop();
    }
  });

  it('refuses a second process on the same DATA_DIR on SQLite; on PostgreSQL several instances share the database', async () => {
    const first = await startService(env);
    try {
      if (!process.env.DATABASE_URL) {
        const second = runService(env);
        expect(await second.exited).toBe(1);
        expect(second.output()).toMatch(/DATA_DIR .* is in use by another Intake process/);
      } else {
        const second = await startService(env);
        const health = await fetch(`${second.url}/health`);
        expect(health.status).toBe(200);
        expect(await second.stop()).toBe(0);
      }
      const health = await fetch(`${first.url}/health`);
      expect(health.status).toBe(200);
    } finally {
      await first.stop();
    }
  });

  it.each([
    ['PORT', 'seventy'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'maybe'],
  ])('stops at start with a one-line message naming %s when it is %s', async (name, value) => {
    const run = runService({ ...env, [name]: value });
    expect(await run.exited).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
  });
});
