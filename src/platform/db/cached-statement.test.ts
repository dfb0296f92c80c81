import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { executeCached, shapesNotCached } from './cached-statement.js';
import type { Database, Trx } from './database.js';
import { namedStatements, resetStatementNames } from './statement-names.js';

/** executeCached (cached-statement.ts): Kysely builds a shape's SQL once; the text is reused with new values. */
describe('executeCached', () => {
  let t: TestApp;
  let owner: TestUser;
  let database: Database;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
    database = t.app.intake.database;
  });
  afterAll(async () => t.close());

  type Build = (trx: Trx) => (bound: readonly unknown[]) => ReturnType<typeof workspacesIn>;
  const workspacesIn = (trx: Trx, ids: readonly unknown[]) =>
    trx
      .selectFrom('workspaces')
      .select('id')
      .where('id', 'in', ids as string[])
      .orderBy('id');

  const isProbe = (value: unknown) => typeof value === 'string' && value.startsWith('\u0000probe');

  /**
   * Runs `build` through executeCached under `shape`, counting the times Kysely built it with the
   * real values (builds with probes, which the tests make at each reuse too, are not counted).
   */
  const counted = (shape: string, build: Build) => {
    let built = 0;
    const run = (ids: string[]) =>
      database.transaction((trx) =>
        executeCached(trx, shape, ids, (bound) => {
          if (!bound.every(isProbe)) built++;
          return build(trx)(bound);
        }),
      );
    return { run, built: () => built };
  };

  const expectFound = (rows: unknown[], ids: string[]) =>
    expect(rows).toEqual(ids.includes(owner.workspaceId) ? [{ id: owner.workspaceId }] : []);

  it('never builds a cached shape with the real values, and answers each call with its own', async () => {
    const shape = 'test: workspaces in two';
    const { run, built } = counted(shape, (trx) => (bound) => workspacesIn(trx, bound));
    for (const ids of [
      [owner.workspaceId, 'ws_none'],
      ['ws_other', owner.workspaceId],
      ['ws_a', 'ws_b'],
    ]) {
      expectFound((await run(ids)).rows, ids);
    }
    expect(built()).toBe(0);
    expect(shapesNotCached().has(shape)).toBe(false);
  });

  it('never caches a shape that binds a value of its own or a value out of place, and answers right all the same', async () => {
    const constant = 'test: a constant bound';
    const withConstant = counted(constant, (trx) => (bound) => workspacesIn(trx, [...bound, 'ws_constant']));
    const swapped = 'test: values swapped';
    const outOfPlace = counted(swapped, (trx) => (bound) => workspacesIn(trx, [...bound].reverse()));
    for (const ids of [
      [owner.workspaceId, 'ws_none'],
      ['ws_a', 'ws_b'],
    ]) {
      expectFound((await withConstant.run(ids)).rows, ids);
      expectFound((await outOfPlace.run(ids)).rows, ids);
    }
    // once per call with the values
    expect([withConstant.built(), outOfPlace.built()]).toEqual([2, 2]);
    expect(shapesNotCached().has(constant)).toBe(true);
    expect(shapesNotCached().has(swapped)).toBe(true);
  });
  it('runs a statement with a value that is not plain (undefined here) through Kysely each time', async () => {
    let built = 0;
    const shape = 'test: a value not plain';
    const run = (value: unknown) =>
      database.transaction((trx) =>
        // in the order Kysely binds them: the select list's before the where clause's
        executeCached(trx, shape, [value, owner.workspaceId], (bound) => {
          if (!bound.every(isProbe)) built++;
          // `?? null` only so that the drivers can bind what this test gives (undefined they cannot)
          return trx
            .selectFrom('workspaces')
            .select([sql<unknown>`${bound[0] ?? null}`.as('value')])
            .where('id', '=', bound[1] as string);
        }),
      );
    expect((await run(undefined)).rows).toEqual([{ value: null }]);
    expect((await run(undefined)).rows).toEqual([{ value: null }]);
    expect(built).toBe(2);
    // plain ones are cached as any other
    expect((await run('text')).rows).toEqual([{ value: 'text' }]);
    expect((await run(null)).rows).toEqual([{ value: null }]);
    expect((await run('other')).rows).toEqual([{ value: 'other' }]);
    expect(built).toBe(2);
  });

  it('runs a statement through a Kysely instance with plugins uncached: the plugins see every query', async () => {
    let transformed = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        transformed++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const withPlugin = database.db.withPlugin(counting);
    for (const ids of [[owner.workspaceId], ['ws_none']]) {
      const { rows } = await withPlugin
        .transaction()
        .execute((trx) =>
          executeCached(trx as Trx, 'test: with a plugin', ids, (bound) => workspacesIn(trx as Trx, bound)),
        );
      expectFound(rows, ids);
    }
    expect(transformed).toBe(2);
  });

  it('finds, under the tests, a shape whose name leaves out what its text depends on', async () => {
    const shape = 'test: named without its length';
    const run = (ids: string[]) =>
      database.transaction((trx) => executeCached(trx, shape, ids, (bound) => workspacesIn(trx, bound)));
    expectFound((await run([owner.workspaceId])).rows, [owner.workspaceId]);
    await expect(run(['ws_a', 'ws_b'])).rejects.toThrow(/names too little/);
  });
});

/**
 * executeNameable: statements Kysely builds each time, noted for naming on PostgreSQL. The two
 * every authenticated list pays (the session's lookup, the inbox's page) must be nameable: a
 * text that selects `*` is never named (statement-names.ts).
 */
describe('executeNameable', () => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ rateLimitPublic: 1_000_000, rateLimitAuthenticated: 1_000_000 });
    owner = await signup(t);
  });
  afterAll(async () => t.close());

  it("names the session's lookup and the inbox's page on PostgreSQL once they run often, and answers the same", async () => {
    const form = await createForm(t, owner.token, { status: 'live' });
    const sent = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { name: 'Ada', email: 'ada@example.com' } },
    });
    expect(sent.status).toBe(201);
    resetStatementNames();
    const list = () =>
      t.request({
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development`,
        auth: owner.token,
      });
    for (let i = 0; i < 10; i++) {
      const answer = await list();
      expect(answer.status).toBe(200);
      expect(answer.body.data.map((row: { id: string }) => row.id)).toEqual([sent.body.id]);
    }
    const texts = [...namedStatements().keys()];
    const sessionLookup = texts.filter((text) => /from "sessions"/.test(text));
    const inboxPage = texts.filter((text) => /"submission_notes"/.test(text));
    if (t.app.intake.database.engine === 'postgres') {
      expect(sessionLookup).toHaveLength(1);
      expect(inboxPage).toHaveLength(1);
    } else {
      // SQLite keeps its own prepared statements: nothing is noted
      expect([...sessionLookup, ...inboxPage]).toEqual([]);
    }
  });
});
