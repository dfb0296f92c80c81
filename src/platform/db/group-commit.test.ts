import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GroupCommitter } from './group-commit.js';
import { isStorageUnavailable, StorageUnavailable } from './unavailable.js';

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
    // a fixed wait on purpose: a moment in which the answer must NOT come
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

/** A database whose COMMIT can be made to fail the way SQLite's does on a full disk. */
function openFaultyDb() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'intake-gc-'));
  const sqlite = new BetterSqlite3(path.join(dir, 'db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table items (id integer primary key, value text not null)');
  const fault = { commit: false, rollsBack: true };
  const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  const database = {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      if (!fault.commit || !/^commit/i.test(text)) return sqlite.prepare(text);
      return {
        reader: false,
        run: () => {
          // SQLite rolls the transaction back itself when COMMIT meets SQLITE_FULL
          if (fault.rollsBack) sqlite.exec('rollback');
          throw full();
        },
      } as unknown as BetterSqlite3.Statement;
    },
  };
  const db = new Kysely<Db>({ dialect: new SqliteDialect({ database }) });
  return { db, sqlite, dir, fault, full };
}

describe('GroupCommitter on storage faults', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });
  const faulty = () => {
    const opened = openFaultyDb();
    cleanups.push(async () => {
      await opened.db.destroy();
      fs.rmSync(opened.dir, { recursive: true, force: true });
    });
    return opened;
  };
  const ids = async (db: Kysely<Db>) =>
    (await db.selectFrom('items').select('id').orderBy('id').execute()).map((row) => row.id);
  const insert = (committer: GroupCommitter<Db>, id: number) =>
    committer.run((trx) => trx.insertInto('items').values({ id, value: 'x' }).execute());

  for (const rollsBack of [true, false]) {
    it(`rejects every unit of a batch whose COMMIT fails (SQLITE_FULL, ${rollsBack ? 'rolled back by SQLite' : 'transaction left open'}); the next batch commits`, async () => {
      const { db, sqlite, fault } = faulty();
      const committer = new GroupCommitter(db, { inTransaction: () => sqlite.inTransaction });
      fault.commit = true;
      fault.rollsBack = rollsBack;
      const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((id) => insert(committer, id)));
      expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
      for (const outcome of outcomes) {
        const error = (outcome as PromiseRejectedResult).reason;
        expect(isStorageUnavailable(error), String(error)).toBe(true);
        expect(error.code).toBe('SQLITE_FULL');
      }
      expect(sqlite.inTransaction).toBe(false);
      expect(await ids(db)).toEqual([]);

      fault.commit = false;
      await Promise.all([6, 7].map((id) => insert(committer, id)));
      expect(await ids(db)).toEqual([6, 7]);
    });
  }

  it('rejects a lone unit with the error of its failed COMMIT, not with the failed ROLLBACK after it', async () => {
    const { db, sqlite, fault } = faulty();
    const committer = new GroupCommitter(db);
    fault.commit = true;
    const error = await insert(committer, 1).catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('SQLITE_FULL');
    expect(sqlite.inTransaction).toBe(false);
    fault.commit = false;
    await insert(committer, 2);
    expect(await ids(db)).toEqual([2]);
  });

  it('fails the whole batch when SQLite rolls the transaction back in the middle of it', async () => {
    for (const probe of [true, false]) {
      const { db, sqlite, full } = faulty();
      const committer = new GroupCommitter(db, probe ? { inTransaction: () => sqlite.inTransaction } : {});
      const outcomes = await Promise.allSettled([
        insert(committer, 1),
        committer.run(async (trx) => {
          await trx.insertInto('items').values({ id: 2, value: 'x' }).execute();
          // what SQLite does when a statement meets SQLITE_FULL without a statement journal
          sqlite.exec('rollback');
          throw full();
        }),
        insert(committer, 3),
      ]);
      // unit 1 was undone with the transaction: it must not be answered as stored
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const outcome of outcomes) {
        expect(isStorageUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
      }
      expect(sqlite.inTransaction).toBe(false);
      expect(await ids(db)).toEqual([]);
      await insert(committer, 4);
      expect(await ids(db)).toEqual([4]);
    }
  });

  it('refuses units that waited past the deadline without running them; the running batch commits', async () => {
    const { db, sqlite } = faulty();
    const committer = new GroupCommitter(db, { inTransaction: () => sqlite.inTransaction, deadlineMs: 50 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = committer.run(async (trx) => {
      await trx.insertInto('items').values({ id: 1, value: 'x' }).execute();
      await held;
    });
    // the first batch in hand (its transaction open) before the late units queue behind it
    await vi.waitFor(() => expect(sqlite.inTransaction).toBe(true));
    const ran: number[] = [];
    const late = Promise.allSettled(
      [2, 3].map((id) =>
        committer.run(async (trx) => {
          ran.push(id);
          await trx.insertInto('items').values({ id, value: 'x' }).execute();
        }),
      ),
    );
    // a fixed wait on purpose: the late units wait past their 50 ms deadline
    await new Promise((resolve) => setTimeout(resolve, 120));
    release();
    await first;
    for (const outcome of await late) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(StorageUnavailable);
      expect(error.retryAfterS).toBeGreaterThanOrEqual(1);
    }
    expect(ran).toEqual([]);
    expect(await ids(db)).toEqual([1]);
    await committer.flush();
  });
});
