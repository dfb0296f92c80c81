import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, signup } from './support/factories.js';
import { interceptQueries } from './support/intercept.js';

/**
 * Graceful under overload (issue 9 item 4): the writer is made slow (every transaction waits
 * BATCH_MS first, batches of at most BATCH_MAX, two in flight as in routes.ts), so the
 * sustainable rate is known: 2 × 5 per 200 ms = 50 submissions/s. Ten times that is offered
 * over real HTTP for a few seconds. Intake must refuse what it cannot take (503 +
 * `Retry-After`, at once when WRITE_QUEUE_LIMIT are waiting, at the deadline for those that
 * waited too long) instead of letting latency grow, and store every 201 exactly once.
 */
const BATCH_MS = 200;
const BATCH_MAX = 5;
const IN_FLIGHT = 2;
const SUSTAINABLE_PER_S = (IN_FLIGHT * BATCH_MAX * 1000) / BATCH_MS;
const OFFERED_PER_S = 10 * SUSTAINABLE_PER_S;
const DURATION_MS = 3000;
/** Takes 2 s to drain at the sustainable rate, twice the deadline: both refusals happen. */
const QUEUE_LIMIT = 100;
const DEADLINE_MS = 1000;
/**
 * The p99 an answer may show: the deadline, plus the batch under way when a submission is
 * cut into one (BATCH_MS and its commit), plus a wide margin for a busy 2-core machine
 * running client and server in one process beside other test files (measured: p99 about 1.1
 * to 1.6 s alone, 3.56 s once in CI's Node 22 stage). Without the bound and the deadline the
 * queue would grow by 450 a second: after the 3 s offered, 1,350 waiting, drained at 50 a
 * second, so the p99 would be about 25 s. The bound sits five times under that failure and
 * far enough above the busy machine's worst that only the failure trips it.
 */
const LATENCY_BOUND_MS = DEADLINE_MS + BATCH_MS + 3800;

interface Answer {
  status: number | 'error';
  ms: number;
  id?: string;
  code?: string;
  detail?: string;
  retryAfter?: string | null;
}

describe('under overload', () => {
  let t: TestApp;
  let formId: string;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(
      {
        writeQueueLimit: QUEUE_LIMIT,
        requestDeadlineMs: DEADLINE_MS,
        rateLimitPublic: 1_000_000,
        monthlyQuota: 0,
      },
      { submitBatchMax: BATCH_MAX },
    );
    const user = await signup(t);
    formId = (await createForm(t, user.token, { status: 'live' })).id;
    // the slow writer: every transaction (the writer's batches among them) waits first, and so
    // does every statement run outside one (on PostgreSQL a batch may be one statement)
    const { database } = t.app.intake;
    const slow = () => new Promise((resolve) => setTimeout(resolve, BATCH_MS));
    const transaction = database.transaction.bind(database);
    database.transaction = async (work) => {
      await slow();
      return transaction(work);
    };
    database.db = interceptQueries(database.db, slow);
    base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => t?.close());

  async function submitOnce(n: number): Promise<Answer> {
    const started = performance.now();
    try {
      const response = await fetch(`${base}/forms/${formId}/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { name: `load ${n}`, email: 'ada@example.com' } }),
      });
      const body = (await response.json()) as { id?: string; code?: string; detail?: string };
      return {
        status: response.status,
        ms: performance.now() - started,
        id: body.id,
        code: body.code,
        detail: body.detail,
        retryAfter: response.headers.get('retry-after'),
      };
    } catch {
      return { status: 'error', ms: performance.now() - started };
    }
  }

  /** An open loop: requests leave at the offered rate whatever the answers take. */
  async function offer(perSecond: number, durationMs: number): Promise<Answer[]> {
    const answers: Array<Promise<Answer>> = [];
    const started = performance.now();
    while (performance.now() - started < durationMs) {
      const due = Math.floor(((performance.now() - started) * perSecond) / 1000);
      while (answers.length < due) answers.push(submitOnce(answers.length));
      // pacing on purpose: the clock of the open loop
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return Promise.all(answers);
  }

  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  };

  it(`refuses what it cannot take with 503 + Retry-After, keeps latency bounded (p99 < ${LATENCY_BOUND_MS} ms) and stores every 201 once`, async () => {
    const answers = await offer(OFFERED_PER_S, DURATION_MS);
    const accepted = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 503);
    const latencies = answers.map((answer) => answer.ms);
    const queueFull = refused.filter((answer) => answer.detail?.includes('waiting to be written'));
    const expired = refused.filter((answer) => answer.detail?.includes('without being written'));
    const summary = {
      offered: answers.length,
      accepted: accepted.length,
      refusedAtOnce: queueFull.length,
      refusedAtDeadline: expired.length,
      p50: Math.round(percentile(latencies, 50)),
      p99: Math.round(percentile(latencies, 99)),
      max: Math.round(Math.max(...latencies)),
    };

    expect(
      answers.filter((answer) => answer.status !== 201 && answer.status !== 503),
      JSON.stringify(summary),
    ).toEqual([]);
    for (const answer of refused) {
      expect(answer.code).toBe('service_unavailable');
      // about the time the queue takes to drain: a second or two here
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(10);
    }
    // ten times what it can take was offered: much was refused, and yet work went on
    expect(refused.length, JSON.stringify(summary)).toBeGreaterThan(answers.length / 3);
    expect(queueFull.length + expired.length).toBe(refused.length);
    expect(queueFull.length, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(expired.length, JSON.stringify(summary)).toBeGreaterThan(0);
    expect(accepted.length, JSON.stringify(summary)).toBeGreaterThan(SUSTAINABLE_PER_S);
    expect(summary.p99, JSON.stringify(summary)).toBeLessThan(LATENCY_BOUND_MS);
    // nobody waited much past the deadline: not even the slowest answer
    expect(summary.max, JSON.stringify(summary)).toBeLessThan(LATENCY_BOUND_MS + 1500);

    const stored = await t.app.intake.database.db
      .selectFrom('submissions')
      .select('id')
      .where('form_id', '=', formId)
      .execute();
    const acceptedIds = accepted.map((answer) => answer.id ?? '');
    expect(new Set(acceptedIds).size).toBe(acceptedIds.length);
    expect(stored.map((row) => row.id).sort()).toEqual(acceptedIds.sort());
  });
});
