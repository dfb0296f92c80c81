import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { interceptQueries, serviceShapesNotCached } from '../../../test/support/intercept.js';
import { HOOK } from '../../../test/support/webhooks.js';
import { isStorageUnavailable, StorageUnavailable } from '../../platform/db/unavailable.js';
import { newId } from '../../platform/ids.js';
import { Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { IdempotencyKeyTaken } from './idempotency.js';
import { monthOf } from './quota.js';
import { type SubmissionWrite, SubmissionWriter } from './writer.js';

/** The batching of submit writes (writer.ts): shared transactions, outcomes kept apart. */
describe('SubmissionWriter', () => {
  let t: TestApp;
  let user: TestUser;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
    formId = (await createForm(t, user.token, { status: 'live' })).id;
  });
  afterAll(async () => t.close());

  const writer = (options: ConstructorParameters<typeof SubmissionWriter>[1] = {}) =>
    new SubmissionWriter(t.app.intake.database, options);

  function write(
    overrides: Partial<SubmissionWrite> & { form?: string; environment?: string } = {},
  ): SubmissionWrite {
    const createdAt = nowIso();
    return {
      submission: {
        id: newId('sub'),
        workspaceId: user.workspaceId,
        environment: overrides.environment ?? 'development',
        formId: overrides.form ?? formId,
        formVersion: 1,
        answers: { name: 'Ada' },
        sessionId: null,
        language: 'en',
        status: 'accepted',
        read: false,
        starred: false,
        createdAt,
      },
      quota: undefined,
      idempotency: undefined,
      outbox: [],
      event: undefined,
      ...overrides,
    };
  }

  const stored = async (ids: string[]) =>
    (
      await t.app.intake.database.db.selectFrom('submissions').select('id').where('id', 'in', ids).execute()
    ).map((row) => row.id);

  it('stores concurrent writes in shared batches, each answered after its commit', async () => {
    const w = writer({ maxInFlight: 1 });
    const writes = Array.from({ length: 120 }, () =>
      write({ outbox: [{ kind: 'test.noop', payload: { n: 1 } }] }),
    );
    await Promise.all(writes.map((one) => w.write(one)));
    const ids = writes.map((one) => one.submission?.id ?? '');
    expect((await stored(ids)).sort()).toEqual([...ids].sort());
    // 120 writes queued in one turn of the event loop: far fewer transactions than writes
    expect(w.batchSizes.length).toBeLessThan(10);
    expect(Math.max(...w.batchSizes)).toBeGreaterThan(1);
    const outbox = await t.app.intake.database.db
      .selectFrom('outbox')
      .select('id')
      .where('kind', '=', 'test.noop')
      .execute();
    expect(outbox).toHaveLength(120);
    await t.app.intake.database.db.deleteFrom('outbox').where('kind', '=', 'test.noop').execute();
  });

  it('refuses only the write at fault when the batch breaks (a form deleted meanwhile): the others are stored', async () => {
    const w = writer();
    const good = Array.from({ length: 5 }, () => write());
    const orphan = write({ form: 'frm_does_not_exist' });
    const results = await Promise.allSettled(
      [...good, orphan, ...good.map(() => write())].map((one) => w.write(one)),
    );
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
    expect(results[5]?.status).toBe('rejected');
    expect(await stored(good.map((one) => one.submission?.id ?? ''))).toHaveLength(5);
    expect(await stored([orphan.submission?.id ?? ''])).toEqual([]);
  });

  it('accepts exactly what fits into the quota within one batch, and refuses the rest with 429 quota_exceeded', async () => {
    const environment = 'production';
    const quota = { workspaceId: user.workspaceId, environment, quota: 7, now: nowIso() };
    const production = (await createForm(t, user.token, { status: 'live', environment })).id;
    const w = writer();
    const writes = Array.from({ length: 12 }, () => write({ form: production, environment, quota }));
    const results = await Promise.allSettled(writes.map((one) => w.write(one)));
    expect(w.batchSizes.at(-1)).toBe(12);
    const accepted = results.filter((result) => result.status === 'fulfilled');
    expect(accepted).toHaveLength(7);
    for (const result of results) {
      if (result.status === 'rejected') {
        expect(result.reason).toBeInstanceOf(Problem);
        expect((result.reason as Problem).code).toBe('quota_exceeded');
      }
    }
    const usage = await t.app.intake.database.db
      .selectFrom('usage')
      .select('submissions')
      .where('workspace_id', '=', user.workspaceId)
      .where('environment', '=', environment)
      .where('month', '=', monthOf(quota.now))
      .executeTakeFirstOrThrow();
    expect(Number(usage.submissions)).toBe(7);
    const ids = writes.map((one) => one.submission?.id ?? '');
    expect(await stored(ids)).toHaveLength(7);
  });

  it('gives one key to one write of a batch; a write refused by the quota gives its key back', async () => {
    const w = writer();
    const key = { key: `key-${newId('k')}`, requestHash: 'hash' };
    const [first, second] = [write(), write()].map((one) => ({
      ...one,
      idempotency: { formId, key, result: { createdAt: one.submission?.createdAt ?? nowIso() } },
    })) as [SubmissionWrite, SubmissionWrite];
    const results = await Promise.allSettled([w.write(first), w.write(second)]);
    expect(results[0]?.status).toBe('fulfilled');
    expect(results[1]?.status === 'rejected' && results[1].reason).toBeInstanceOf(IdempotencyKeyTaken);
    expect(await stored([first.submission?.id ?? '', second.submission?.id ?? ''])).toEqual([
      first.submission?.id,
    ]);

    // the quota of production is used up by the test before: the keyed write is refused, and its key is free again
    const environment = 'production';
    const full = { workspaceId: user.workspaceId, environment, quota: 7, now: nowIso() };
    const freeKey = { key: `key-${newId('k')}`, requestHash: 'hash' };
    const refused = write({ environment, quota: full });
    const outcome = await w
      .write({ ...refused, idempotency: { formId, key: freeKey, result: { createdAt: nowIso() } } })
      .catch((error: unknown) => error);
    expect((outcome as Problem).code).toBe('quota_exceeded');
    const keys = await t.app.intake.database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', freeKey.key)
      .execute();
    expect(keys).toEqual([]);
  });

  it('refuses a write at once (503 material) when maxQueued writes are already waiting; those are stored', async () => {
    const w = writer({ maxQueued: 3 });
    const writes = Array.from({ length: 5 }, () => write());
    // queued in one turn of the event loop: no batch is cut before the fourth arrives
    const results = await Promise.allSettled(writes.map((one) => w.write(one)));
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    for (const result of results.slice(3)) {
      const error = (result as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(StorageUnavailable);
      expect(isStorageUnavailable(error)).toBe(true);
      expect(error.retryAfterS).toBeGreaterThanOrEqual(1);
    }
    const ids = writes.map((one) => one.submission?.id ?? '');
    expect((await stored(ids)).sort()).toEqual(ids.slice(0, 3).sort());
    expect(w.pending).toBe(0);
  });

  it('refuses, unwritten, writes that waited past the deadline; the batch under way is answered by its commit', async () => {
    const database = t.app.intake.database;
    // every batch takes 150 ms: those queued behind the first wait longer than the deadline
    const delay = () => new Promise((resolve) => setTimeout(resolve, 150));
    const slow: typeof database = {
      ...database,
      // the slow storage itself: a fixed delay in every batch, a transaction or one statement
      transaction: async (work) => {
        await delay();
        return database.transaction(work);
      },
      db: interceptQueries(database.db, delay),
    };
    const w = new SubmissionWriter(slow, { maxInFlight: 1, maxBatch: 1, deadlineMs: 60 });
    const writes = Array.from({ length: 3 }, () => write());
    const results = await Promise.allSettled(writes.map((one) => w.write(one)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    for (const result of results.slice(1)) {
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(StorageUnavailable);
    }
    const ids = writes.map((one) => one.submission?.id ?? '');
    expect(await stored(ids)).toEqual([ids[0]]);
    expect(w.batchSizes).toEqual([1]);
  });

  it("has Kysely build each statement of the submit path once per shape (cached-statement.ts), its values in Kysely's order", async () => {
    const hooked = (await createForm(t, user.token, { status: 'live' })).id;
    const webhook = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: user.token,
      body: { formId: hooked, event: 'response.created', url: HOOK },
    });
    expect(webhook.status, webhook.text).toBe(201);
    const submit = (form: string, n: number) =>
      t.request({
        method: 'POST',
        url: `/forms/${form}/submit`,
        body: { answers: { name: `Ada ${n}`, email: `ada${n}@example.com`, topic: 'sales' } },
      });
    const limited = (await createForm(t, user.token, { status: 'live', access: { maxSubmissions: 100 } })).id;
    const once = (
      await createForm(t, user.token, { status: 'live', access: { oncePer: 'email', emailField: 'email' } })
    ).id;
    // batches of one form and of several, with a webhook to queue and without, a limit, an address
    const forms = [formId, hooked, limited, once];
    const answers = await Promise.all(
      Array.from({ length: 32 }, (_, n) => submit(forms[n % 4] as string, n)),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    expect(serviceShapesNotCached()).toEqual([]);
  });

  it('flush() waits for every queued write', async () => {
    const w = writer();
    const writes = Array.from({ length: 30 }, () => write());
    const pending = writes.map((one) => w.write(one));
    await w.flush();
    expect(await stored(writes.map((one) => one.submission?.id ?? ''))).toHaveLength(30);
    await Promise.all(pending);
  });
});
