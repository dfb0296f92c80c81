import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SubmissionWrite, SubmissionWriter } from '../src/features/submissions/writer.js';
import { nowIso } from '../src/platform/time.js';
import { createTestApp, type TestApp } from './support/app.js';

/**
 * (PostgreSQL) Two writer batches in flight (maxInFlight 2 in routes.ts, or two instances)
 * must lock the quota rows of their (user, environment) groups in one order: in opposite
 * orders they would deadlock, PostgreSQL would abort one after deadlock_timeout (1 s), and
 * its whole batch would be refused.
 */
describe.runIf(process.env.DATABASE_URL)('batched quota upserts lock in a stable order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const write = (workspaceId: string): SubmissionWrite => ({
    submission: undefined,
    quota: { workspaceId, environment: 'development', quota: 1000, now: nowIso() },
    idempotency: undefined,
    outbox: [],
    event: undefined,
  });

  it('two concurrent batches over the same users in opposite order neither deadlock nor fall back', async () => {
    const database = t.app.intake.database;
    for (let round = 0; round < 5; round++) {
      const users = Array.from({ length: 20 }, (_, i) => `usr_review_${round}_${i}`);
      const one = new SubmissionWriter(database);
      const two = new SubmissionWriter(database);
      const started = Date.now();
      await Promise.all([
        ...users.map((user) => one.write(write(user))),
        ...[...users].reverse().map((user) => two.write(write(user))),
      ]);
      expect({ one: one.batchSizes, two: two.batchSizes, ms: Date.now() - started < 900 }).toEqual({
        one: [20],
        two: [20],
        ms: true,
      });
    }
  });
});
