import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { signup, type TestUser } from '../../../test/support/factories.js';
import { executeCached, shapesNotCached } from './cached-statement.js';
import type { Database, Trx } from './database.js';

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

  /** Runs `build` through executeCached under `shape`, counting the times Kysely compiled it. */
  const counted = (shape: string, build: Build) => {
    let built = 0;
    const run = (ids: string[]) =>
      database.transaction((trx) =>
        executeCached(trx, shape, ids, (bound) => {
          built++;
          return build(trx)(bound);
        }),
      );
    return { run, built: () => built };
  };

  const expectFound = (rows: unknown[], ids: string[]) =>
    expect(rows).toEqual(ids.includes(owner.workspaceId) ? [{ id: owner.workspaceId }] : []);

  it('builds a shape once (with probes) and answers each call with its own values', async () => {
    const shape = 'test: workspaces in two';
    const { run, built } = counted(shape, (trx) => (bound) => workspacesIn(trx, bound));
    for (const ids of [
      [owner.workspaceId, 'ws_none'],
      ['ws_other', owner.workspaceId],
      ['ws_a', 'ws_b'],
    ]) {
      expectFound((await run(ids)).rows, ids);
    }
    expect(built()).toBe(1);
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
    // once with the probes, then once per call with the values
    expect([withConstant.built(), outOfPlace.built()]).toEqual([3, 3]);
    expect(shapesNotCached().has(constant)).toBe(true);
    expect(shapesNotCached().has(swapped)).toBe(true);
  });
});
