import { execFileSync } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { answerQueries, READ_TIMEOUT } from './pg-queries.js';
import { isStorageUnavailable } from './unavailable.js';

/** pg-queries.ts: a connection's queries answered through `pg`'s callbacks, with the deadline kept here. */
describe.skipIf(!process.env.DATABASE_URL)('answerQueries', () => {
  const clients: pg.Client[] = [];
  const connected = async (deadlineMs: number | undefined) => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    client.on('error', () => {});
    await client.connect();
    answerQueries(client as unknown as Parameters<typeof answerQueries>[0], deadlineMs);
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => undefined);
  });

  it('answers as pg does: rows and fields, a query object with its name, a failure with its code', async () => {
    const client = await connected(5000);
    const answer = await client.query('select $1::int + 1 as next', [41]);
    expect(answer.rows).toEqual([{ next: 42 }]);
    expect(answer.fields.map((field) => field.name)).toEqual(['next']);
    expect(answer.command).toBe('SELECT');
    const named = await client.query({
      name: 'pg_queries_test',
      text: 'select $1::text as word',
      values: ['hi'],
    });
    expect(named.rows).toEqual([{ word: 'hi' }]);
    await expect(client.query('select 1 / $1::int', [0])).rejects.toMatchObject({ code: '22012' });
    // the connection serves on after a failure
    expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });

  it('passes a call with its own callback on as it was', async () => {
    const client = await connected(5000);
    const rows = await new Promise((resolve, reject) =>
      client.query('select 3 as three', [], (error, result) =>
        error ? reject(error) : resolve(result.rows),
      ),
    );
    expect(rows).toEqual([{ three: 3 }]);
  });

  it('clears the deadline of a query answered: the connection serves on past it', async () => {
    const client = await connected(200);
    let ended = false;
    client.on('end', () => {
      ended = true;
    });
    expect((await client.query('select 5 as five')).rows).toEqual([{ five: 5 }]);
    // a fixed wait on purpose: past the deadline of the query answered, which must not end the connection
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(ended).toBe(false);
    expect((await client.query('select 6 as six')).rows).toEqual([{ six: 6 }]);
  });

  it('refuses a query pg refuses before sending it, and keeps no deadline for it', async () => {
    const client = await connected(200);
    let ended = false;
    client.on('end', () => {
      ended = true;
    });
    await expect(client.query(null as unknown as string)).rejects.toThrow(TypeError);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(ended).toBe(false);
    expect((await client.query('select 7 as seven')).rows).toEqual([{ seven: 7 }]);
  });

  it('fails a query past the deadline as unavailable, at the deadline, and ends its connection', async () => {
    const client = await connected(200);
    let ended = false;
    client.on('end', () => {
      ended = true;
    });
    const started = Date.now();
    const error = await client.query('select pg_sleep(3)').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as Error).message).toBe(READ_TIMEOUT);
    expect(isStorageUnavailable(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    await expect.poll(() => ended, { timeout: 3000 }).toBe(true);
  });

  it('keeps no deadline when given none (migrations)', async () => {
    const client = await connected(undefined);
    expect((await client.query('select pg_sleep(0.3), 4 as four')).rows[0].four).toBe(4);
  });

  it('leaves the rows of each answer to the young generation (V8 moved them all to the old one through pg’s own promise)', () => {
    // In a process of its own: 1,500 queries of 51 rows on one connection, the rows dropped at
    // once; what V8's scavenges promoted (--trace-gc-nvp). Through pg's own promise it was 12 MB
    // and more (Node 22 and 24, pg 8.23); that is pg's and V8's to change, so only ours is held.
    const promoted = () => {
      const trace = execFileSync(
        process.execPath,
        [
          '--trace-gc',
          '--trace-gc-nvp',
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const pg = (await import('pg')).default;
          const { answerQueries } = await import(${JSON.stringify(path.join(import.meta.dirname, 'pg-queries.ts'))});
          const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
          await client.connect();
          answerQueries(client, 10000);
          const text = "select g as id, repeat('x', 300) as answers from generate_series(1, 51) g";
          for (let i = 0; i < 100; i++) await client.query(text);
          console.log('-- measured');
          for (let i = 0; i < 1500; i++) await client.query(text);
          console.log('-- done');
          await client.end();`,
        ],
        {
          encoding: 'utf8',
          cwd: path.join(import.meta.dirname, '..', '..', '..'),
          // V8's flags as Node's defaults, whatever the test runner was given
          env: { ...process.env, NODE_OPTIONS: undefined },
        },
      );
      const measured = trace.split('-- measured')[1]?.split('-- done')[0] ?? '';
      return [...measured.matchAll(/ promoted=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    };
    // ~8 KB of rows an answer, 12 MB in all, nearly all of it promoted through pg's own promise;
    // here 0.1 MB locally, 1.1 MB once in CI (collections that fell in a query's round trip)
    expect(promoted()).toBeLessThan(4_000_000);
  });
});
