import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  namedStatements,
  nameStatement,
  resetStatementNames,
  runNamedStatements,
  statementName,
} from './statement-names.js';

describe('statement names (bookkeeping)', () => {
  beforeEach(() => resetStatementNames());

  it('names a text once, never a big one, and at most 32 texts', () => {
    nameStatement('select $1', 1);
    const first = statementName('select $1');
    nameStatement('select $1', 1);
    expect(statementName('select $1')).toBe(first);
    nameStatement('select many', 601);
    expect(statementName('select many')).toBeUndefined();
    for (let i = 0; i < 40; i++) nameStatement(`select ${i}`, 1);
    expect(namedStatements().size).toBe(32);
    expect(statementName('select 39')).toBeUndefined();
  });

  it('never gives a name twice, even after a reset (a connection keeps what it prepared)', () => {
    nameStatement('select 1 as a', 0);
    const before = statementName('select 1 as a');
    resetStatementNames();
    nameStatement('select 2 as b', 0);
    expect(statementName('select 2 as b')).not.toBe(before);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('statement names on PostgreSQL', () => {
  let client: pg.Client;
  const prepared = async () =>
    (await client.query('select name, statement from pg_prepared_statements order by name')).rows as Array<{
      name: string;
      statement: string;
    }>;

  beforeAll(async () => {
    client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    runNamedStatements(client as unknown as { query: (...args: unknown[]) => unknown });
  });
  afterAll(async () => client.end());
  beforeEach(() => resetStatementNames());

  it('runs a named text by its name: prepared once on the connection, answered each time', async () => {
    const text = 'select $1::int + 1 as next';
    nameStatement(text, 1);
    const name = statementName(text);
    for (const n of [1, 2, 3]) expect((await client.query(text, [n])).rows).toEqual([{ next: n + 1 }]);
    expect(await prepared()).toContainEqual({ name, statement: text });
    // a text without a name is not prepared
    await client.query('select $1::int * 2 as twice', [4]);
    expect((await prepared()).some((row) => row.statement.includes('twice'))).toBe(false);
  });

  it('runs the text again without its name when the server does not know it (a pooler moved the session), and names no more', async () => {
    const text = 'select $1::text as echoed';
    nameStatement(text, 1);
    const name = statementName(text) as string;
    expect((await client.query(text, ['a'])).rows).toEqual([{ echoed: 'a' }]);
    // gone from the server behind the client's back, as on another server connection
    await client.query(`deallocate ${name}`);
    expect((await client.query(text, ['b'])).rows).toEqual([{ echoed: 'b' }]);
    expect(statementName(text)).toBeUndefined();
    nameStatement('select 1 as later', 0);
    expect(statementName('select 1 as later')).toBeUndefined();
  });

  it('passes every other failure on as it was', async () => {
    const text = 'select 1 / $1::int as quotient';
    nameStatement(text, 1);
    await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012' });
    expect(statementName(text)).toBeDefined();
  });
});
