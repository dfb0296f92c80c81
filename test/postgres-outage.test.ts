import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from './support/poll.js';
import { createPostgresCluster, type PostgresCluster, postgresBinaries } from './support/postgres-cluster.js';
import { ownerWithLiveForm, runService, type ServiceProcess, startService } from './support/process.js';

/**
 * Issue 9: Intake on a PostgreSQL server of the test's own, under a steady load of anonymous
 * submissions (20 concurrent clients), while that server is restarted underneath it three
 * ways: `restart -m fast`, `restart -m immediate`, and `stop -m fast`, 5 s down, `start`.
 * The Intake process never exits; every answer is 201, or 503 with Retry-After; every 201
 * is stored exactly once; the first 201 after the server is back comes within 1 s;
 * `/health` is 503 while the server is down and 200 again after. Then a start before the
 * database: Intake waits for it (DATABASE_WAIT_S) and becomes healthy once it is up, or
 * exits with one line when the wait runs out.
 *
 * It runs with the PostgreSQL suite (DATABASE_URL set), on a server of its own that it
 * creates with PostgreSQL's server binaries (initdb, pg_ctl), never on DATABASE_URL's.
 */
const CLIENTS = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  marker: string;
  status: number | 'error';
  retryAfter: string | null;
  code?: string;
  error?: string;
  sentAt: number;
  answeredAt: number;
}

describe.skipIf(!process.env.DATABASE_URL || !postgresBinaries())('PostgreSQL outages under load', () => {
  let cluster: PostgresCluster;
  let dataDir: string;
  const services: ServiceProcess[] = [];
  const env = () => ({
    DATABASE_URL: cluster.url,
    DATA_DIR: dataDir,
    RATE_LIMIT_PUBLIC: '10000000',
    MONTHLY_QUOTA: '0',
    NODE_ENV: 'production',
  });

  beforeAll(async () => {
    cluster = await createPostgresCluster();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-outage-'));
  }, 120_000);
  afterAll(async () => {
    for (const service of services) if (service.child.exitCode === null) await service.stop('SIGKILL');
    await cluster?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('rides through a fast restart, an immediate restart and a stop of 5 s', async () => {
    const service = await startService(env());
    services.push(service);
    const { formId } = await ownerWithLiveForm(service.url, 'outage@example.com', {
      title: 'Outage',
      fields: [{ id: 'name', type: 'text', label: 'Name', required: true }],
    });

    const answers: Answer[] = [];
    const health: Array<{ at: number; status: number; retryAfter: string | null }> = [];
    let loading = true;
    const client = async (n: number) => {
      for (let i = 0; loading; i++) {
        const marker = `client-${n}-${i}`;
        const sentAt = performance.now();
        try {
          const response = await fetch(`${service.url}/forms/${formId}/submit`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ answers: { name: marker } }),
            signal: AbortSignal.timeout(20_000),
          });
          const body = (await response.json()) as { code?: string };
          answers.push({
            marker,
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
            code: body.code,
            sentAt,
            answeredAt: performance.now(),
          });
          // a client told to retry later waits a little, as a polite one would
          if (response.status === 503) await sleep(50);
        } catch (error) {
          answers.push({
            marker,
            status: 'error',
            retryAfter: null,
            error: String(error),
            sentAt,
            answeredAt: performance.now(),
          });
        }
      }
    };
    const watchHealth = async () => {
      while (loading) {
        try {
          const response = await fetch(`${service.url}/health`, { signal: AbortSignal.timeout(10_000) });
          health.push({
            at: performance.now(),
            status: response.status,
            retryAfter: response.headers.get('retry-after'),
          });
        } catch {
          health.push({ at: performance.now(), status: 0, retryAfter: null });
        }
        // sampling on purpose: /health every 100 ms through the outages
        await sleep(100);
      }
    };
    const load = [...Array.from({ length: CLIENTS }, (_, n) => client(n)), watchHealth()];

    // The scenario's phases are fixed lengths of time on purpose: the load runs through each.
    await sleep(1500);
    const backAt: number[] = [];
    let downFrom = 0;
    let downUntil = 0;
    await cluster.restart('fast');
    backAt.push(performance.now());
    await sleep(2000);
    await cluster.restart('immediate');
    backAt.push(performance.now());
    await sleep(2000);
    await cluster.stop('fast');
    downFrom = performance.now();
    await sleep(5000);
    downUntil = performance.now();
    await cluster.start();
    backAt.push(performance.now());
    await sleep(2000);
    loading = false;
    await Promise.all(load);

    // The process is still there, and never reported a promise nobody handled.
    expect(service.child.exitCode).toBeNull();
    expect(service.output()).not.toMatch(/unhandled|uncaught/i);

    // Every answer: 201, or 503 service_unavailable with Retry-After. No 500, no reset, no hang.
    const wrong = answers.filter(
      (a) => !(a.status === 201 || (a.status === 503 && a.retryAfter && a.code === 'service_unavailable')),
    );
    expect(wrong.slice(0, 5)).toEqual([]);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    // "At once": a 503 is not a hang on a connection that will never come.
    const slowest503 = Math.max(...refused.map((a) => a.answeredAt - a.sentAt));
    expect(slowest503).toBeLessThan(5000);

    // After each time the server came back, the first 201 within a second.
    for (const back of backAt) {
      const firstOk = Math.min(
        ...answers.filter((a) => a.status === 201 && a.answeredAt >= back).map((a) => a.answeredAt),
      );
      expect(firstOk - back).toBeLessThan(1000);
    }

    // /health: 503 with Retry-After while the server was down, 200 at the end.
    const whileDown = health.filter((h) => h.at > downFrom + 1000 && h.at < downUntil);
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.every((h) => h.status === 503 && h.retryAfter !== null)).toBe(true);
    expect(health.at(-1)?.status).toBe(200);

    // Every acknowledged submission stored exactly once.
    const db = new pg.Client({ connectionString: cluster.url });
    await db.connect();
    try {
      const rows = await db.query<{ answers: string }>('select answers from submissions where form_id = $1', [
        formId,
      ]);
      const stored = new Map<string, number>();
      for (const row of rows.rows) {
        const name = (JSON.parse(row.answers) as { name: string }).name;
        stored.set(name, (stored.get(name) ?? 0) + 1);
      }
      const acknowledged = answers.filter((a) => a.status === 201);
      expect(acknowledged.length).toBeGreaterThan(100);
      expect(acknowledged.filter((a) => stored.get(a.marker) !== 1)).toEqual([]);
      // nothing stored twice, acknowledged or not
      expect([...stored.values()].filter((count) => count > 1)).toEqual([]);
    } finally {
      await db.end();
    }

    expect(await service.stop('SIGTERM')).toBe(0);
  }, 120_000);

  it('starts before PostgreSQL and serves once it is up', async () => {
    await cluster.stop('fast');
    const run = runService(env());
    const startedAt = Date.now();
    // a fixed wait on purpose: 3 s of waiting for the database, to count how often it says so
    await sleep(3000);
    expect(run.child.exitCode).toBeNull();
    const waits = run.output().match(/waiting for the database/g) ?? [];
    // told while it waits, but at most once a second
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(waits.length).toBeLessThanOrEqual(Math.ceil((Date.now() - startedAt) / 1000) + 1);
    await cluster.start();
    const url = await waitForUrl(run.output, 10_000);
    const health = await fetch(`${url}/health`);
    expect(health.status).toBe(200);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 60_000);

  it('exits 0 at once on SIGTERM while still waiting for the database', async () => {
    await cluster.stop('fast');
    const run = runService(env());
    await waitFor(() => /waiting for the database/.test(run.output()), {
      timeoutMs: 10_000,
      what: 'the service to wait for the database',
    });
    expect(run.child.exitCode).toBeNull();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 30_000);

  it('exits with one line once DATABASE_WAIT_S runs out', async () => {
    await cluster.stop('fast');
    const run = runService({ ...env(), DATABASE_WAIT_S: '1' });
    const code = await run.exited;
    expect(code).toBe(1);
    const lines = run.output().trim().split('\n');
    expect(lines.at(-1)).toMatch(/^intake: PostgreSQL did not accept connections within DATABASE_WAIT_S=1 s/);
    await cluster.start();
  }, 30_000);
});

async function waitForUrl(output: () => string, timeoutMs: number): Promise<string> {
  return waitFor(() => /"url":"(http:\/\/[^"]+)"/.exec(output())?.[1], {
    timeoutMs,
    intervalMs: 50,
    what: 'the service to become ready',
  }).catch(() => {
    throw new Error(`service did not become ready:\n${output()}`);
  });
}
