import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { interceptQueries, serviceShapesNotCached } from '../../../test/support/intercept.js';
import { HOOK } from '../../../test/support/webhooks.js';
import { executeCached } from '../../platform/db/cached-statement.js';
import type { Database } from '../../platform/db/database.js';
import { namedStatements, resetStatementNames } from '../../platform/db/statement-names.js';
import { newId } from '../../platform/ids.js';
import { Problem } from '../../platform/problem.js';
import { nowIso } from '../../platform/time.js';
import { isPlainBatch } from './one-statement.js';
import { monthOf, type QuotaScope } from './quota.js';
import { submissionFromRow } from './repo.js';
import { type SubmissionWrite, SubmissionWriter } from './writer.js';

/**
 * PostgreSQL's plain batches written by one statement (one-statement.ts): one round trip, and
 * the transaction taken instead, with nothing written twice, when the batch needs it.
 */
describe.skipIf(!process.env.DATABASE_URL)('a plain batch in one statement (PostgreSQL)', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await signup(t);
  });
  afterAll(async () => t.close());

  /** The database, its statements outside a transaction and its transactions counted. */
  function counted(): { database: Database; statements: () => number; transactions: () => number } {
    const database = t.app.intake.database;
    let statements = 0;
    let transactions = 0;
    return {
      database: {
        ...database,
        // statements run by `db` itself, the transaction's apart
        db: interceptQueries(database.db, () => {
          statements += 1;
        }),
        transaction: (work) => {
          transactions += 1;
          return database.transaction(work);
        },
      },
      statements: () => statements,
      transactions: () => transactions,
    };
  }

  const liveForm = async () => (await createForm(t, user.token, { status: 'live' })).id;

  function write(form: string, overrides: Partial<SubmissionWrite> = {}): SubmissionWrite {
    const createdAt = nowIso();
    const id = newId('sub');
    return {
      submission: {
        id,
        workspaceId: user.workspaceId,
        environment: 'development',
        formId: form,
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
      event: {
        event: 'response.created',
        formId: form,
        workspaceId: user.workspaceId,
        environment: 'development',
        occurredAt: createdAt,
        data: { id },
        submissionId: id,
      },
      count: { formId: form, max: undefined, refusal: () => new Error('not limited') },
      ...overrides,
    };
  }

  /** `one` sent from `who`'s address to a form with `oncePer: "email"`. */
  const withAddress = (form: string, one: SubmissionWrite, who: string): SubmissionWrite => ({
    ...one,
    address: {
      formId: form,
      hash: `hash-of-${who}`,
      submissionId: one.submission?.id ?? '',
      createdAt: nowIso(),
      refusal: () => new Problem(409, 'already_submitted', 'taken'),
    },
  });

  const db = () => t.app.intake.database.db;
  const stored = async (ids: readonly string[]) =>
    (await db().selectFrom('submissions').select('id').where('id', 'in', ids).execute()).map((row) => row.id);
  const countsOf = async (form: string) => {
    const row = await db()
      .selectFrom('form_counts')
      .selectAll()
      .where('form_id', '=', form)
      .executeTakeFirst();
    return row && { accepted: Number(row.accepted), listed: Number(row.listed), unread: Number(row.unread) };
  };
  const usageOf = async (scope: QuotaScope) =>
    Number(
      (
        await db()
          .selectFrom('usage')
          .select('submissions')
          .where('workspace_id', '=', scope.workspaceId)
          .where('environment', '=', scope.environment)
          .where('month', '=', monthOf(scope.now))
          .executeTakeFirst()
      )?.submissions ?? 0,
    );
  const idsOf = (writes: readonly SubmissionWrite[]) => writes.map((one) => one.submission?.id ?? '');

  it('writes the submissions, the counters, the quota and the outbox rows of two forms by one statement, no transaction', async () => {
    const [first, second] = [await liveForm(), await liveForm()];
    const environment = `one-${newId('env').slice(-6)}`;
    const quota: QuotaScope = { workspaceId: user.workspaceId, environment, quota: 100, now: nowIso() };
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database, { envelope: t.app.intake.envelope });
    const kind = `test.${newId('k')}`;
    const writes = Array.from({ length: 6 }, (_, n) =>
      write(n % 2 === 0 ? (first as string) : (second as string), {
        quota,
        outbox: [{ kind, payload: { n } }],
      }),
    );
    // one quarantined: stored, not listed, not counted against anything
    const quarantined = write(first as string);
    if (quarantined.submission) quarantined.submission.status = 'quarantined';
    quarantined.event = undefined;
    quarantined.count = undefined;
    await Promise.all([...writes, quarantined].map((one) => w.write(one)));
    expect(w.batchSizes).toEqual([7]);
    expect(statements()).toBe(1);
    expect(transactions()).toBe(0);
    expect((await stored(idsOf([...writes, quarantined]))).length).toBe(7);
    expect(await countsOf(first as string)).toEqual({ accepted: 3, listed: 3, unread: 3 });
    expect(await countsOf(second as string)).toEqual({ accepted: 3, listed: 3, unread: 3 });
    expect(await usageOf(quota)).toBe(6);
    const outbox = await db()
      .selectFrom('outbox')
      .select(['kind', 'payload'])
      .where('kind', '=', kind)
      .execute();
    expect(outbox).toHaveLength(6);
    await db().deleteFrom('outbox').where('kind', '=', kind).execute();

    // a second batch adds to the rows the first one made (the upserts' conflict branch)
    await Promise.all(
      [write(first as string, { quota }), write(first as string, { quota })].map((one) => w.write(one)),
    );
    expect(statements()).toBe(2);
    expect(await countsOf(first as string)).toEqual({ accepted: 5, listed: 5, unread: 5 });
    expect(await usageOf(quota)).toBe(8);
    // built by Kysely once per shape, its values where Kysely binds them (cached-statement.ts)
    expect(serviceShapesNotCached()).toEqual([]);
  });

  it('counts a form that keeps no copy, and nudges the outbox after a statement that queued rows', async () => {
    const form = await liveForm();
    let nudged = 0;
    const { database, statements } = counted();
    const w = new SubmissionWriter(database, { afterCommit: () => (nudged += 1) });
    await Promise.all(
      [write(form, { submission: undefined }), write(form, { submission: undefined })].map((one) =>
        w.write(one),
      ),
    );
    expect(statements()).toBe(1);
    expect(nudged).toBe(0);
    expect(await countsOf(form)).toEqual({ accepted: 2, listed: 0, unread: 0 });
    const kind = `test.${newId('k')}`;
    await w.write(write(form, { outbox: [{ kind, payload: {} }] }));
    expect(nudged).toBe(1);
    await db().deleteFrom('outbox').where('kind', '=', kind).execute();
  });

  it('sends no statement when one scope alone passes the quota, or when the quotas differ', async () => {
    const form = await liveForm();
    const environment = `over-${newId('env').slice(-6)}`;
    const small: QuotaScope = { workspaceId: user.workspaceId, environment, quota: 1, now: nowIso() };
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    const results = await Promise.allSettled(
      [write(form, { quota: small }), write(form, { quota: small })].map((one) => w.write(one)),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect([statements(), transactions()]).toEqual([0, 1]);
    const other = await liveForm();
    const differ = [
      write(other, { quota: { ...small, environment: `${environment}-a`, quota: 5 } }),
      write(other, { quota: { ...small, environment: `${environment}-b`, quota: 6 } }),
    ];
    await Promise.all(differ.map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([0, 2]);
  });

  it("runs the statements it keeps by name on the pool's connections once they ran often (statement-names.ts)", async () => {
    const form = await liveForm();
    // a window of runs of its own (the earlier tests' runs count in the one under way)
    resetStatementNames();
    await t.app.intake.database.db.connection().execute(async (connection) => {
      for (let i = 0; i < 10; i++) {
        await executeCached(connection, 'test: a form by id', [form], ([id]) =>
          connection
            .selectFrom('forms')
            .select('id')
            .where('id', '=', id as string),
        );
      }
      const text = [...namedStatements().keys()].find((named) => named.includes('from "forms"'));
      expect(text).toBeDefined();
      const prepared = await sql<{ name: string }>`select name from pg_prepared_statements`.execute(
        connection,
      );
      expect(prepared.rows.map((row) => row.name)).toContain(namedStatements().get(text as string));
    });
  });

  it('stores every column as the transaction would: quotes, backslashes, braces, NULL as text, nulls, read', async () => {
    const form = await liveForm();
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    const tricky = write(form);
    if (!tricky.submission) throw new Error('no submission');
    tricky.submission.answers = { a: 'say "hi" \\ {x,y}', b: 'NULL', c: 'é😀\n', d: ['1', '2'] };
    tricky.submission.language = null;
    tricky.submission.sessionId = 'ses_1';
    tricky.submission.read = true;
    tricky.submission.starred = true;
    tricky.submission.status = 'flagged';
    const plain = write(form);
    await Promise.all([tricky, plain].map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([1, 0]);
    const rows = await db()
      .selectFrom('submissions')
      .selectAll()
      .where('id', 'in', idsOf([tricky, plain]))
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const one of [tricky, plain]) {
      const submission = one.submission;
      if (!submission) throw new Error('no submission');
      expect(submissionFromRow(byId.get(submission.id) as never)).toEqual(submission);
    }
    // flagged and read: listed, not unread
    expect(await countsOf(form)).toEqual({ accepted: 2, listed: 2, unread: 1 });
  });

  it('takes the transaction when the quota does not take the whole batch: exactly what fits is accepted, nothing twice', async () => {
    const form = await liveForm();
    const environment = `quota-${newId('env').slice(-6)}`;
    const quota: QuotaScope = { workspaceId: user.workspaceId, environment, quota: 5, now: nowIso() };
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    const first = [write(form, { quota }), write(form, { quota }), write(form, { quota })];
    await Promise.all(first.map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([1, 0]);

    // 3 of 5 used: a batch of 4 fits as a count (4 ≤ 5) but not in what is left
    const second = Array.from({ length: 4 }, () => write(form, { quota }));
    const results = await Promise.allSettled(second.map((one) => w.write(one)));
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
    ]);
    for (const result of results.slice(2))
      expect(((result as PromiseRejectedResult).reason as Problem).code).toBe('quota_exceeded');
    // the statement tried and undone, then the transaction
    expect([statements(), transactions()]).toEqual([2, 1]);
    expect(await usageOf(quota)).toBe(5);
    expect((await stored(idsOf(second))).sort()).toEqual(idsOf(second.slice(0, 2)).sort());
    expect(await countsOf(form)).toEqual({ accepted: 5, listed: 5, unread: 5 });

    // the form's next batch takes the transaction straight away for a while
    await expect(w.write(write(form, { quota }))).rejects.toBeInstanceOf(Problem);
    expect([statements(), transactions()]).toEqual([2, 2]);
  });

  it('takes the transaction when a webhook is subscribed: one delivery a submission, each submission stored once', async () => {
    const form = await liveForm();
    const hook = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: user.token,
      body: { formId: form, event: 'response.created', url: HOOK },
    });
    expect(hook.status, hook.text).toBe(201);
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database, { envelope: t.app.intake.envelope });
    const writes = Array.from({ length: 3 }, () => write(form));
    await Promise.all(writes.map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([1, 1]);
    expect((await stored(idsOf(writes))).length).toBe(3);
    expect(await countsOf(form)).toEqual({ accepted: 3, listed: 3, unread: 3 });
    const deliveries = await db()
      .selectFrom('webhook_deliveries')
      .select('body_ciphertext')
      .where('form_id', '=', form)
      .execute();
    expect(deliveries).toHaveLength(3);

    // without an envelope no event is queued: the webhook does not matter, one statement
    const other = counted();
    const quiet = new SubmissionWriter(other.database);
    await Promise.all([write(form), write(form)].map((one) => quiet.write(one)));
    expect([other.statements(), other.transactions()]).toEqual([1, 0]);
  });

  it('refuses only the write at fault when the statement breaks (a form deleted meanwhile)', async () => {
    const form = await liveForm();
    const { database } = counted();
    const w = new SubmissionWriter(database, { envelope: t.app.intake.envelope });
    const good = [write(form), write(form)];
    const orphan = write(`frm_${newId('x')}`);
    const results = await Promise.allSettled(
      [good[0], orphan, good[1]].map((one) => w.write(one as SubmissionWrite)),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await stored(idsOf(good))).length).toBe(2);
    expect(await countsOf(form)).toEqual({ accepted: 2, listed: 2, unread: 2 });
  });

  it('calls plain only a batch in which nothing is decided per submission before it is written', () => {
    const plain = write('frm_x');
    // an address and a limit are decided in the statement too (its guard sends the batch on when they refuse)
    const limited = write('frm_x', { count: { formId: 'frm_x', max: 3, refusal: () => new Error('full') } });
    const address = write('frm_x', {
      address: {
        formId: 'frm_x',
        hash: 'h',
        submissionId: 's',
        createdAt: nowIso(),
        refusal: () => new Error('taken'),
      },
    });
    expect(isPlainBatch([plain, write('frm_y'), limited, address])).toBe(true);
    for (const decided of [
      {
        idempotency: {
          formId: 'frm_x',
          key: { key: 'k', requestHash: 'h' },
          result: { createdAt: nowIso() },
        },
      },
      {
        files: {
          submissionId: 's',
          formId: 'frm_x',
          fileIds: ['f'],
          fieldOf: {},
          state: 'attached' as const,
          expiresAt: null,
        },
      },
      { completes: 'sub_partial' },
    ]) {
      expect(isPlainBatch([plain, { ...write('frm_x'), ...decided }])).toBe(false);
    }
  });

  it("counts a form's maxSubmissions in the statement; past it, the transaction accepts exactly up to the limit", async () => {
    const form = await liveForm();
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    const limit = { formId: form, max: 3, refusal: () => new Problem(403, 'form_closed', 'full') };
    const first = [write(form, { count: limit }), write(form, { count: limit })];
    await Promise.all(first.map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([1, 0]);
    expect(await countsOf(form)).toEqual({ accepted: 2, listed: 2, unread: 2 });
    const second = [
      write(form, { count: limit }),
      write(form, { count: limit }),
      write(form, { count: limit }),
    ];
    const results = await Promise.allSettled(second.map((one) => w.write(one)));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect([statements(), transactions()]).toEqual([2, 1]);
    expect(await countsOf(form)).toEqual({ accepted: 3, listed: 3, unread: 3 });
    expect((await stored(idsOf(second))).length).toBe(1);
    expect(serviceShapesNotCached()).toEqual([]);
  });

  it('claims oncePer addresses in the statement; a taken one sends that batch alone to the transaction, which refuses it alone', async () => {
    const form = await liveForm();
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    const claimOf = (one: SubmissionWrite, who: string) => withAddress(form, one, who);
    const first = [claimOf(write(form), 'ada'), claimOf(write(form), 'grace')];
    await Promise.all(first.map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([1, 0]);
    const claimed = async () =>
      (
        await db()
          .selectFrom('response_addresses')
          .select(['address_hash', 'submission_id'])
          .where('form_id', '=', form)
          .orderBy('address_hash')
          .execute()
      ).map((row) => [row.address_hash, row.submission_id]);
    expect(await claimed()).toEqual([
      ['hash-of-ada', first[0]?.submission?.id],
      ['hash-of-grace', first[1]?.submission?.id],
    ]);
    // an address taken before: the statement tried and undone (by its own error), then the transaction
    const second = [claimOf(write(form), 'ada'), claimOf(write(form), 'linus')];
    const results = await Promise.allSettled(second.map((one) => w.write(one)));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled']);
    expect(((results[0] as PromiseRejectedResult).reason as Problem).code).toBe('already_submitted');
    expect([statements(), transactions()]).toEqual([2, 1]);
    expect(await claimed()).toHaveLength(3);
    expect(await stored(idsOf(second))).toEqual([second[1]?.submission?.id]);

    // the same address twice in a batch: straight to the transaction, no statement tried
    const third = [claimOf(write(form), 'alan'), claimOf(write(form), 'alan')];
    const twice = await Promise.allSettled(third.map((one) => w.write(one)));
    expect(twice.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect([statements(), transactions()]).toEqual([2, 2]);

    // a taken address is the respondent's, not the form's: the next batch is one statement again
    const fourth = [claimOf(write(form), 'barbara'), claimOf(write(form), 'edsger')];
    await Promise.all(fourth.map((one) => w.write(one)));
    expect([statements(), transactions()]).toEqual([3, 2]);
    expect(await claimed()).toHaveLength(6);
    expect(await countsOf(form)).toEqual({ accepted: 6, listed: 6, unread: 6 });
    expect(serviceShapesNotCached()).toEqual([]);
  });

  it('tells a taken address from a full form: only a full form sends its next batches straight to the transaction', async () => {
    const form = await liveForm();
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    const claimOf = (one: SubmissionWrite, who: string) => ({
      ...withAddress(form, one, who),
      count: { formId: form, max: 3, refusal: () => new Problem(403, 'form_closed', 'full') },
    });
    const outcomes = async (batch: readonly SubmissionWrite[]) =>
      (await Promise.allSettled(batch.map((one) => w.write(one)))).map((result) =>
        result.status === 'fulfilled' ? 'stored' : (result.reason as Problem).code,
      );
    await w.write(claimOf(write(form), 'ada'));
    expect([statements(), transactions()]).toEqual([1, 0]);
    // 1 + 3 passes the limit and ada's address is taken: the address's error is the one said
    expect(
      await outcomes([
        claimOf(write(form), 'ada'),
        claimOf(write(form), 'grace'),
        claimOf(write(form), 'linus'),
      ]),
    ).toEqual(['already_submitted', 'stored', 'stored']);
    expect([statements(), transactions()]).toEqual([2, 1]);
    // so the form was not set aside: the next batch tries the statement, which finds it full
    expect(await outcomes([claimOf(write(form), 'barbara')])).toEqual(['form_closed']);
    expect([statements(), transactions()]).toEqual([3, 2]);
    // and now it is set aside: straight to the transaction
    expect(await outcomes([claimOf(write(form), 'edsger')])).toEqual(['form_closed']);
    expect([statements(), transactions()]).toEqual([3, 3]);
    expect(await countsOf(form)).toEqual({ accepted: 3, listed: 3, unread: 3 });
  });

  it('leaves the batches with an idempotency key to the transaction', async () => {
    const form = await liveForm();
    const { database, statements, transactions } = counted();
    const w = new SubmissionWriter(database);
    await w.write(
      write(form, {
        idempotency: {
          formId: form,
          key: { key: `key-${newId('k')}`, requestHash: 'hash' },
          result: { createdAt: nowIso() },
        },
      }),
    );
    expect([statements(), transactions()]).toEqual([0, 1]);
  });
});
