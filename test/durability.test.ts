import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedStorage } from './support/app.js';
import { type ServiceProcess, startService } from './support/process.js';

/**
 * Nothing acknowledged is ever lost: under concurrent load the service is killed at a
 * random moment (SIGKILL), or asked to stop (SIGTERM); after a restart on the same storage
 * every submission that got a 201 is there, exactly once.
 */
describe.each(['SIGKILL', 'SIGTERM'] as const)('durability under load: %s', (signal) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const json = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  it('keeps every acknowledged submission exactly once', async () => {
    const { storage, drop } = await isolatedStorage();
    cleanups.push(drop);
    const env = {
      DATA_DIR: storage.dataDir,
      DATABASE_URL: storage.databaseUrl,
      DATABASE_SCHEMA: storage.databaseSchema,
      RATE_LIMIT_PUBLIC: '1000000',
      MONTHLY_QUOTA: '0',
    };
    let service: ServiceProcess = await startService(env);
    cleanups.push(async () => {
      service.child.kill('SIGKILL');
      await service.exited;
    });

    const signup = await json(`${service.url}/auth/signup`, {
      method: 'POST',
      body: JSON.stringify({
        email: `durable-${randomUUID()}@example.com`,
        password: 'long enough password',
      }),
    });
    const token: string = signup.body.token;
    const form = await json(`${service.url}/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({
        title: 'Durable',
        environment: 'production',
        status: 'live',
        fields: [
          { id: 'email', type: 'email', label: 'E-mail', required: true },
          { id: 'message', type: 'textarea', label: 'Message' },
        ],
      }),
    });
    expect(form.status).toBe(201);

    // 16 clients submitting as fast as they can until the service goes away.
    const acknowledged = new Map<string, string>();
    let stopping = false;
    const url = service.url;
    const client = async () => {
      while (!stopping) {
        const marker = randomUUID();
        try {
          const response = await json(`${url}/forms/${form.body.id}/submit`, {
            method: 'POST',
            body: JSON.stringify({
              answers: { email: 'load@example.com', message: marker },
              sessionId: marker,
            }),
          });
          if (response.status === 201) acknowledged.set(response.body.id, marker);
        } catch {
          // the connection died with the service: that submission was never acknowledged
          if (stopping) return;
        }
      }
    };
    const clients = Array.from({ length: 16 }, client);
    // a random moment on purpose: the stop lands somewhere in the load, not at a chosen point
    await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 1200));
    const exit = await service.stop(signal);
    stopping = true;
    await Promise.all(clients);
    if (signal === 'SIGTERM') expect(exit).toBe(0);
    expect(acknowledged.size).toBeGreaterThan(20);

    service = await startService(env);
    const stored = new Map<string, string | null>();
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await json(
        `${service.url}/responses?form_id=${form.body.id}&environment=production&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(page.status).toBe(200);
      for (const row of page.body.data) {
        expect(stored.has(row.id)).toBe(false);
        stored.set(row.id, row.sessionId);
      }
      cursor = page.body.nextCursor;
    } while (cursor);

    const missing = [...acknowledged.keys()].filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    for (const [id, marker] of acknowledged) expect(stored.get(id)).toBe(marker);
    // each marker (one per request) at most once: no submission was stored twice
    const markers = [...stored.values()];
    expect(new Set(markers).size).toBe(markers.length);
  }, 60_000);
});
