import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedStorage } from './support/app.js';
import { fetchJson, ownerWithLiveForm, type ServiceProcess, startService } from './support/process.js';
import { type ReceivedWebhook, startReceiver, type WebhookReceiver } from './support/webhook-receiver.js';

/**
 * Issue 4, "what it must show": two service instances on one PostgreSQL database share the
 * delivery work (the outbox is claimed with FOR UPDATE SKIP LOCKED and leases) and never
 * deliver the same event at the same time. 1,000 submissions are made, half through each
 * instance; the receiver answers 200 after a few milliseconds and records when each
 * request arrived and was answered. Every event arrives, no two attempts of one event
 * overlap, and (as the receiver answers 200 at once, well within the lease) each event is
 * delivered exactly once. PostgreSQL only: SQLite's DATA_DIR admits one process.
 */
describe.skipIf(!process.env.DATABASE_URL)('two instances on one PostgreSQL database', () => {
  const EVENTS = 1000;
  let env: Record<string, string | undefined>;
  let drop: () => Promise<void>;
  let dataDir: string;
  const running: ServiceProcess[] = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const isolated = await isolatedStorage();
    drop = isolated.drop;
    dataDir = isolated.storage.dataDir as string;
    receiver = await startReceiver(() => ({ status: 200, delayMs: 3 }));
    env = {
      DATABASE_URL: isolated.storage.databaseUrl,
      DATABASE_SCHEMA: isolated.storage.databaseSchema,
      RATE_LIMIT_PUBLIC: '1000000',
      // the receiver listens on loopback, which production mode (the default) refuses
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // the same master key on both, as the README asks of several instances
      MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      // "webhook delivered" is a debug line: it tells which instance sent what
      LOG_LEVEL: 'debug',
    };
  });
  afterAll(async () => {
    for (const service of running) if (service.child.exitCode === null) await service.stop('SIGKILL');
    await receiver?.close();
    await drop();
  });

  const json = fetchJson;

  const deliveredBy = (service: ServiceProcess) =>
    service
      .output()
      .split('\n')
      .filter((line) => line.includes('"webhook delivered"')).length;

  it('delivers 1,000 events, none by both at the same time', async () => {
    // one after the other: the first applies the migrations
    const a = await startService({ ...env, DATA_DIR: `${dataDir}/a` });
    running.push(a);
    const b = await startService({ ...env, DATA_DIR: `${dataDir}/b` });
    running.push(b);

    const { token, formId } = await ownerWithLiveForm(a.url, 'two-instances@example.com', {
      title: 'Two instances',
      fields: [{ id: 'n', type: 'number', label: 'N', required: true }],
    });
    const webhook = await json(`${a.url}/webhooks`, {
      method: 'POST',
      token,
      body: { formId, event: 'response.created', url: `${receiver.url}/hook` },
    });
    expect(webhook.status).toBe(201);

    const submissions: string[] = [];
    for (let batch = 0; batch < EVENTS / 50; batch++) {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          json(`${(i % 2 === 0 ? a : b).url}/forms/${formId}/submit`, {
            method: 'POST',
            body: { answers: { n: batch * 50 + i } },
          }),
        ),
      );
      for (const result of results) {
        expect(result.status).toBe(201);
        submissions.push(result.body.id);
      }
    }

    const byEvent = () => {
      const map = new Map<string, ReceivedWebhook[]>();
      for (const request of receiver.received) {
        const id = String(request.headers['webhook-id']);
        map.set(id, [...(map.get(id) ?? []), request]);
      }
      return map;
    };
    await receiver.waitFor(() => byEvent().size === EVENTS, 60_000, '1,000 events');
    // let any late duplicate arrive before judging
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const events = byEvent();
    expect(events.size).toBe(EVENTS);
    const delivered = new Set(
      receiver.received.map((request) => (JSON.parse(request.body) as { data: { id: string } }).data.id),
    );
    expect([...delivered].sort()).toEqual([...submissions].sort());
    for (const [, requests] of events) {
      const sorted = [...requests].sort((x, y) => x.arrivedAt - y.arrivedAt);
      for (let i = 1; i < sorted.length; i++) {
        // the previous attempt had been answered before the next arrived
        expect(sorted[i - 1]?.answeredAt ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(
          sorted[i]?.arrivedAt ?? 0,
        );
      }
    }
    const attemptsPerEvent = [...events.values()].map((requests) => requests.length);
    expect(Math.max(...attemptsPerEvent)).toBe(1);
    // both instances did part of the work
    const [byA, byB] = [deliveredBy(a), deliveredBy(b)];
    expect(byA + byB).toBe(EVENTS);
    expect(byA).toBeGreaterThan(0);
    expect(byB).toBeGreaterThan(0);

    expect(await a.stop('SIGTERM')).toBe(0);
    expect(await b.stop('SIGTERM')).toBe(0);
  }, 180_000);
});
