import net from 'node:net';
import { sql } from 'kysely';
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
