import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { waitFor } from '../../test/support/poll.js';
import type { Database } from './db/database.js';
import { appendToOutbox, OutboxWorker, PermanentFailure } from './outbox.js';

/**
 * The outbox worker's own rules, with handlers of a probe kind: no more messages in hand
 * than its concurrency, a slow message does not hold up the others, and a handler learns
 * which attempt is the last (webhook deliveries mark themselves failed on it).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { outbox: { pollMs: 20, retryDelaysMs: [30, 30], concurrency: 4 } });
});
afterAll(async () => t?.close());

/** Fixed waits only where time is the point: a handler's work, or a window in which nothing may happen. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function append(kind: string, payloads: unknown[]): Promise<void> {
  await t.app.intake.database.transaction((trx) =>
    appendToOutbox(
      trx,
      payloads.map((payload) => ({ kind, payload })),
    ),
  );
  t.app.intake.outbox.nudge();
}

async function statusesOf(kind: string): Promise<string[]> {
  const rows = await t.app.intake.database.db
    .selectFrom('outbox')
    .select('status')
    .where('kind', '=', kind)
    .execute();
  return rows.map((row) => row.status);
}

describe('the outbox worker', () => {
  it('keeps at most `concurrency` messages in hand, and uses all of them', async () => {
    let inHand = 0;
    let most = 0;
    let done = 0;
    t.app.intake.outbox.handle('probe-concurrency', async () => {
      inHand++;
      most = Math.max(most, inHand);
      // the handler's work: long enough that the messages overlap
      await sleep(15);
      inHand--;
      done++;
    });
    await append(
      'probe-concurrency',
      Array.from({ length: 40 }, (_, i) => ({ i })),
    );
    await waitFor(() => done === 40);
    expect(most).toBe(4);
    await waitFor(async () => (await statusesOf('probe-concurrency')).every((s) => s === 'done'));
  });

  it('a slow message holds one slot, not the rest of its batch', async () => {
    const finished: string[] = [];
    t.app.intake.outbox.handle('probe-slow', async (payload) => {
      const { name } = payload as { name: string };
      // the handlers' work: one slow message among quick ones
      await sleep(name === 'slow' ? 600 : 10);
      finished.push(name);
    });
    await append('probe-slow', [
      { name: 'slow' },
      ...Array.from({ length: 12 }, (_, i) => ({ name: `quick-${i}` })),
    ]);
    await waitFor(() => finished.length === 13);
    expect(finished.at(-1)).toBe('slow');
  });

  it('tells the handler which attempt is the last; a PermanentFailure ends the message at once', async () => {
    const seen: Array<{ attempt: number; final: boolean }> = [];
    t.app.intake.outbox.handle('probe-final', async (_payload, { attempt, final }) => {
      seen.push({ attempt, final });
      throw new Error('always failing');
    });
    let permanentCalls = 0;
    t.app.intake.outbox.handle('probe-permanent', async () => {
      permanentCalls++;
      throw new PermanentFailure('never again');
    });
    await append('probe-final', [{}]);
    await append('probe-permanent', [{}]);
    await waitFor(async () => (await statusesOf('probe-final'))[0] === 'failed');
    expect(seen).toEqual([
      { attempt: 1, final: false },
      { attempt: 2, final: false },
      { attempt: 3, final: true },
    ]);
    await waitFor(async () => (await statusesOf('probe-permanent'))[0] === 'failed');
    // a fixed wait on purpose: several polls (20 ms) and retry delays (30 ms) in which no retry may come
    await sleep(150);
    expect(permanentCalls).toBe(1);
  });
});

describe('the outbox worker while the database is away (issue 9)', () => {
  // the app's own worker would take these tests' messages (and fail them: it has no handler)
  beforeAll(() => t.app.intake.outbox.stop());
  function recordingLogger() {
    const lines: Array<{ level: string; message: string }> = [];
    const at =
      (level: string) =>
      (...args: unknown[]) =>
        lines.push({ level, message: String(args.find((arg) => typeof arg === 'string') ?? '') });
    const logger = { warn: at('warn'), info: at('info'), error: at('error'), debug: at('debug') };
    return { lines, logger: logger as unknown as FastifyBaseLogger };
  }

  /** The test app's database, with every statement refused while `down` is true. */
  function flakyDatabase() {
    const state = { down: true, statements: 0 };
    const real = t.app.intake.database;
    const db = real.db.withPlugin({
      transformQuery(args) {
        state.statements += 1;
        if (state.down)
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    return { state, database: { ...real, db } as Database };
  }

  it('backs off, says so once, and resumes by itself', async () => {
    const { state, database } = flakyDatabase();
    const { lines, logger } = recordingLogger();
    const worker = new OutboxWorker(database, { logger, pollMs: 20 });
    const handled: unknown[] = [];
    worker.handle('probe-outage', async (payload) => {
      handled.push(payload);
    });
    worker.start();
    try {
      // a fixed wait on purpose: the window in which the rounds are counted
      await sleep(700);
      // 20 ms apart without backoff would be 35 rounds; 20, 40, 80 … ms apart it is a handful
      expect(state.statements).toBeGreaterThanOrEqual(3);
      expect(state.statements).toBeLessThanOrEqual(8);
      expect(lines.filter((line) => line.level === 'warn')).toHaveLength(1);
      expect(lines.filter((line) => line.level === 'error')).toEqual([]);

      state.down = false;
      await t.app.intake.database.transaction((trx) =>
        appendToOutbox(trx, [{ kind: 'probe-outage', payload: { n: 1 } }]),
      );
      // the next round (at most the longest pause away) finds it
      await waitFor(() => handled.length === 1, { timeoutMs: 15_000 });
      await waitFor(() => lines.some((line) => line.level === 'info' && line.message.includes('resumed')));
    } finally {
      await worker.stop();
    }
  }, 20_000);

  it('a shutdown does not wait past its grace for a message that hangs', async () => {
    const { state, database } = flakyDatabase();
    state.down = false;
    const { logger } = recordingLogger();
    const worker = new OutboxWorker(database, { logger, pollMs: 20 });
    let started = false;
    worker.handle('probe-hang', async () => {
      started = true;
      await new Promise(() => {});
    });
    await t.app.intake.database.transaction((trx) =>
      appendToOutbox(trx, [{ kind: 'probe-hang', payload: {} }]),
    );
    worker.start();
    await waitFor(() => started);
    const stopping = Date.now();
    await worker.stop(200);
    expect(Date.now() - stopping).toBeLessThan(1000);
  });
});
