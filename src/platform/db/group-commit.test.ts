import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommitter } from './group-commit.js';

interface Db {
  items: { id: number; value: string };
}

function openDb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-gc-'));
  const sqlite = new BetterSqlite3(path.join(dir, 'db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table items (id integer primary key, value text not null)');
  let commits = 0;
  const db = new Kysely<Db>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query' && /^commit/i.test(event.query.sql)) commits++;
    },
  });
  return { db, dir, commits: () => commits };
}

describe('GroupCommitter', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('commits concurrent units in shared transactions, each answered after its commit', async () => {
    const { db, dir, commits } = openDb();
    cleanups.push(async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const committer = new GroupCommitter(db);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        committer.run(async (trx) => {
          await trx
            .insertInto('items')
            .values({ id: i, value: `v${i}` })
            .execute();
          return i;
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const rows = await db
      .selectFrom('items')
      .select(db.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(200);
    // 200 units arrived in one turn of the event loop: far fewer commits than units.
    expect(commits()).toBeLessThan(10);
    expect(Math.max(...committer.batchSizes)).toBeGreaterThan(1);
  });

  it('rolls back a failing unit alone; the rest of its batch commits', async () => {
    const { db, dir } = openDb();
    cleanups.push(async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const committer = new GroupCommitter(db);
    const outcomes = await Promise.allSettled([
      committer.run((trx) => trx.insertInto('items').values({ id: 1, value: 'a' }).execute()),
      committer.run(async (trx) => {
        await trx.insertInto('items').values({ id: 2, value: 'b' }).execute();
        // duplicate key: this unit fails after a write of its own, which must be undone
        await trx.insertInto('items').values({ id: 1, value: 'again' }).execute();
      }),
      committer.run((trx) => trx.insertInto('items').values({ id: 3, value: 'c' }).execute()),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = (await db.selectFrom('items').select('id').orderBy('id').execute()).map((r) => r.id);
    expect(ids).toEqual([1, 3]);
  });

  it('flush waits for every queued unit', async () => {
    const { db, dir } = openDb();
    cleanups.push(async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const committer = new GroupCommitter(db);
    const pending = Array.from({ length: 20 }, (_, i) =>
      committer.run((trx) => trx.insertInto('items').values({ id: i, value: 'x' }).execute()),
    );
    await committer.flush();
    const rows = await db.selectFrom('items').selectAll().execute();
    expect(rows).toHaveLength(20);
    await Promise.all(pending);
  });

  it('answers no unit before the durability hook confirms its commit, and fails the batch when it cannot', async () => {
    const { db, dir } = openDb();
    cleanups.push(async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const confirmations: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
    const committer = new GroupCommitter(db, {
      durable: () => new Promise<void>((resolve, reject) => confirmations.push({ resolve, reject })),
    });
    let answered = false;
    const first = committer.run((trx) => trx.insertInto('items').values({ id: 1, value: 'a' }).execute());
    void first.then(() => {
      answered = true;
    });
    await vi.waitFor(() => expect(confirmations).toHaveLength(1));
    // committed (a reader sees it) but not yet confirmed durable: no answer yet
    expect(await db.selectFrom('items').selectAll().execute()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    // the next batch commits while the first one's flush is still under way
    const second = committer.run((trx) => trx.insertInto('items').values({ id: 2, value: 'b' }).execute());
    await vi.waitFor(() => expect(confirmations).toHaveLength(2));
    confirmations[0]?.resolve();
    await first;
    expect(answered).toBe(true);
    confirmations[1]?.reject(new Error('EIO'));
    await expect(second).rejects.toThrow('EIO');
    const flushed = committer.flush();
    await expect(flushed).resolves.toBeUndefined();
  });
});
