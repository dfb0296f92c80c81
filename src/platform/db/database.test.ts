import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedStorage } from '../../../test/support/app.js';
import { DatabaseWaitExpired, openDatabase } from './database.js';
import { isStorageUnavailable } from './unavailable.js';

/** Issue 9: no wait on PostgreSQL is unbounded, and none ends in anything but a 503-able error. */
describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL waits are bounded', () => {
  let silent: net.Server;
  let silentUrl: string;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    // accepts the connection and never says a word: a host that hangs
    silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    silentUrl = `postgres://root@127.0.0.1:${(silent.address() as net.AddressInfo).port}/test`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('a query past the request deadline fails as "unavailable", and the pool serves on', async () => {
    const { storage, drop } = await isolatedStorage();
    const database = await openDatabase({
      dataDir: storage.dataDir ?? '',
      databaseUrl: storage.databaseUrl,
      databaseSchema: storage.databaseSchema,
      requestDeadlineMs: 300,
    });
    try {
      const started = Date.now();
      const error = await sql`select pg_sleep(5)`.execute(database.db).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeDefined();
      expect(isStorageUnavailable(error)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(await database.ping()).toBe(true);
    } finally {
      await database.close();
      await drop();
    }
  });

  it('a connection that goes silent mid-transaction fails within the deadline and is replaced', async () => {
    const target = new URL(process.env.DATABASE_URL as string);
    const proxy = await freezingProxy(Number(target.port || 5432), target.hostname);
    const { storage, drop } = await isolatedStorage();
    const url = new URL(storage.databaseUrl as string);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const database = await openDatabase({
      dataDir: storage.dataDir ?? '',
      databaseUrl: url.toString(),
      databaseSchema: storage.databaseSchema,
      requestDeadlineMs: 1000,
    });
    try {
      await sql`select 1`.execute(database.db);
      const started = Date.now();
      // frozen between two statements of a transaction: the network cut, the server paused
      const error = await database
        .transaction(async (trx) => {
          await sql`select 1`.execute(trx);
          proxy.freeze();
          await sql`select 2`.execute(trx);
        })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(isStorageUnavailable(error)).toBe(true);
      // the statement's deadline, not that and the ROLLBACK's queued behind it
      expect(Date.now() - started).toBeLessThan(1700);
      proxy.thaw();
      // the silent connection is gone: the next query gets a fresh one at once
      const next = Date.now();
      await sql`select 3`.execute(database.db);
      expect(Date.now() - next).toBeLessThan(800);
    } finally {
      await database.close();
      await proxy.close();
      await drop();
    }
  });

  it('a server that never answers is given up on within seconds at start', async () => {
    const started = Date.now();
    const error = await openDatabase({
      dataDir: '',
      databaseUrl: silentUrl,
      databaseSchema: undefined,
      databaseWaitS: 0,
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DatabaseWaitExpired);
    expect(Date.now() - started).toBeLessThan(6000);
  });
});

/** A TCP proxy whose traffic can be silently dropped, both ways, as a cut network would. */
async function freezingProxy(port: number, host: string) {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => frozen || upstream.write(chunk));
    upstream.on('data', (chunk) => frozen || client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Kysely's migrator reads the catalog of every schema; another client's schema dropped meanwhile
 * failed that read, and the start with it (the test suite's files, two at a time, met it).
 */
describe.skipIf(!process.env.DATABASE_URL)('PostgreSQL migrations beside schemas dropped by others', () => {
  it('start on a fresh schema every time while another client creates, changes and drops schemas', {
    timeout: 60_000,
  }, async () => {
    const url = process.env.DATABASE_URL as string;
    const churn = new pg.Client({ connectionString: url });
    await churn.connect();
    let churning = true;
    let dropped = 0;
    const churner = (async () => {
      for (let i = 0; churning; i++) {
        const other = `churn_${process.pid}_${i}`;
        await churn.query(
          `create schema ${other}; create table ${other}.t (id serial primary key, note text)`,
        );
        // a column renamed, as another schema's migration 012 does (42703 in Kysely's own introspection)
        await churn.query(`alter table ${other}.t rename column note to remark`);
        await churn.query(`drop schema ${other} cascade`);
        dropped += 1;
        // a pause between drops, as the suite's files make them: the retries have room
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    // and a table of another schema whose columns are renamed back and forth all along
    const renamer = new pg.Client({ connectionString: url });
    await renamer.connect();
    const renamed = `churn_${process.pid}_renamed`;
    const columns = Array.from({ length: 40 }, (_, i) => `c${i} text`).join(', ');
    await renamer.query(
      `create schema ${renamed}; create table ${renamed}.t (id serial primary key, ${columns})`,
    );
    const renaming = (async () => {
      for (let i = 0; churning; i++) {
        const [from, to] = i % 2 === 0 ? ['c0', 'd0'] : ['d0', 'c0'];
        await renamer.query(`alter table ${renamed}.t rename column ${from} to ${to}`);
      }
    })();
    const outcomes: string[] = [];
    /** With Kysely's own introspection, 5 or 6 starts in 20 failed beside this churn (7 in 15 without its pause). */
    const STARTS = 12;
    try {
      for (let start = 0; start < STARTS; start++) {
        const { storage, drop } = await isolatedStorage();
        try {
          const database = await openDatabase({
            dataDir: storage.dataDir ?? '',
            databaseUrl: storage.databaseUrl,
            databaseSchema: storage.databaseSchema,
          });
          await database.close();
          outcomes.push('started');
        } catch (error) {
          outcomes.push((error as Error).message);
        } finally {
          await drop();
        }
      }
    } finally {
      churning = false;
      await churner;
      await churn.end();
      await renaming;
      await renamer.query(`drop schema ${renamed} cascade`);
      await renamer.end();
    }
    expect(dropped).toBeGreaterThan(STARTS);
    expect(outcomes).toEqual(Array(STARTS).fill('started'));
  });
});

/** Issue 19: the database holds every answer; no other user of the machine may read it. */
describe.skipIf(Boolean(process.env.DATABASE_URL))('SQLite file permissions', () => {
  const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

  it('creates intake.db and its WAL readable and writable by the owner only (0600)', async () => {
    const { storage, drop } = await isolatedStorage();
    const dataDir = storage.dataDir ?? '';
    const database = await openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
    try {
      expect(modeOf(path.join(dataDir, 'intake.db')).toString(8)).toBe('600');
      expect(modeOf(path.join(dataDir, 'intake.db-wal')).toString(8)).toBe('600');
    } finally {
      await database.close();
      await drop();
    }
  });

  it('narrows the files of an older installation to 0600 when it opens them', async () => {
    const { storage, drop } = await isolatedStorage();
    const dataDir = storage.dataDir ?? '';
    let database = await openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
    await database.close();
    fs.chmodSync(path.join(dataDir, 'intake.db'), 0o644);
    database = await openDatabase({ dataDir, databaseUrl: undefined, databaseSchema: undefined });
    try {
      expect(modeOf(path.join(dataDir, 'intake.db')).toString(8)).toBe('600');
      expect(modeOf(path.join(dataDir, 'intake.db-wal')).toString(8)).toBe('600');
    } finally {
      await database.close();
      await drop();
    }
  });
});
