import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, signup } from './support/factories.js';
import { eventually } from './support/poll.js';

/**
 * On SQLite a commit is acknowledged only after WalSync's fdatasync, but reads go to the
 * same connection and see committed, not yet flushed rows. An Idempotency-Key replay must
 * not answer 201 with the first request's result before that result is durable (the first
 * request itself still waits for its flush), or a power loss could lose a submission a
 * client was told was stored.
 */
describe.skipIf(process.env.DATABASE_URL)('answers only once durable (SQLite)', () => {
  let t: TestApp;
  let formId: string;
  const held: Array<() => void> = [];
  let hold = false;
  const realFdatasync = fs.fdatasync;

  beforeAll(async () => {
    t = await createTestApp();
    const user = await signup(t);
    formId = (await createForm(t, user.token, { status: 'live' })).id;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: Error | null) => void) => {
      if (!hold) return realFdatasync(fd, callback);
      held.push(() => realFdatasync(fd, callback));
    }) as typeof fs.fdatasync);
  });
  afterAll(async () => {
    hold = false;
    for (const release of held.splice(0)) release();
    vi.restoreAllMocks();
    await t.close();
  });

  it('does not answer an Idempotency-Key replay with 201 before the first request is durable', async () => {
    const submit = () =>
      t.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        headers: { 'idempotency-key': 'review-key-1' },
        body: { answers: { name: 'Ada', email: 'ada@example.com' } },
      });
    hold = true;
    let firstAnswered = false;
    const first = submit().then((response) => {
      firstAnswered = true;
      return response;
    });
    // wait until the first request has committed and is waiting for its WAL flush
    await eventually(() => expect(held.length).toBeGreaterThan(0), { timeoutMs: 5_000, intervalMs: 5 });
    expect(firstAnswered).toBe(false);

    // a fixed wait on purpose: 500 ms for a (wrong) 201 to the replay; a replay still waiting is right
    const replay = await Promise.race([
      submit(),
      new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 500)),
    ]);
    // the holder is not durable yet: the replay must not be acknowledged as stored
    if (replay !== 'pending') expect(replay.status, replay.text).not.toBe(201);

    hold = false;
    for (const release of held.splice(0)) release();
    expect((await first).status).toBe(201);
  });
});
