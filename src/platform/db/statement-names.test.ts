import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  namedStatements,
  noteRun,
  resetStatementNames,
  runNamedStatements,
  statementName,
} from './statement-names.js';

/** Runs `text` as executeCached would, often enough to be named. */
const runOften = (text: string, parameters = 1) => {
  for (let i = 0; i < 8; i++) noteRun(text, parameters);
};

describe('statement names (bookkeeping)', () => {
  beforeEach(() => resetStatementNames());

  it('names a text once it has run 8 times, by the hash of the text (the same name in every process)', () => {
    for (let i = 0; i < 7; i++) noteRun('select $1', 1);
    expect(statementName('select $1')).toBeUndefined();
    noteRun('select $1', 1);
    const name = statementName('select $1');
    expect(name).toMatch(/^intake_[0-9a-f]{24}$/);
    runOften('select $1');
    expect(statementName('select $1')).toBe(name);
    resetStatementNames();
    runOften('select $1');
    expect(statementName('select $1')).toBe(name);
    runOften('select $2');
    expect(statementName('select $2')).not.toBe(name);
  });

  it('never names a big text, one that selects or returns *, or more than 32 texts', () => {
    runOften('select many', 601);
    expect(statementName('select many')).toBeUndefined();
    runOften('select * from "webhooks" where "id" = $1');
    runOften('insert into "t" ("a") values ($1) returning *');
    expect(namedStatements().size).toBe(0);
    for (let i = 0; i < 40; i++) runOften(`select ${i}`);
    expect(namedStatements().size).toBe(32);
    expect(statementName('select 39')).toBeUndefined();
  });

  /** Runs `texts` in turn for one window of runs (256, every text's together). */
  const windowOf = (texts: readonly string[]) => {
    for (let i = 0; i < 256; i++) noteRun(texts[i % texts.length] as string, 1);
  };
  const named = (texts: readonly string[]) => texts.filter((text) => statementName(text) !== undefined);

  it('hands the names of texts gone quiet to the busy ones: a form answered after another gets names too', () => {
    const first = Array.from({ length: 32 }, (_, i) => `insert first ${i}`);
    const later = Array.from({ length: 24 }, (_, i) => `insert later ${i}`);
    windowOf(first);
    expect(named(first)).toHaveLength(32);
    // a window in which 8 of the first still run, now and then, and 16 others run often
    windowOf([...later.slice(0, 16), ...later.slice(0, 16), ...first.slice(0, 8)]);
    expect(named(first)).toEqual(first.slice(0, 8));
    expect(named(later)).toEqual(later.slice(0, 16));
    // free names are given at once, mid-window, to a text that has run 8 times
    const kept24 = [...first.slice(0, 8), ...later.slice(0, 16)];
    for (let i = 0; i < 7; i++) noteRun('insert soon', 1);
    expect(statementName('insert soon')).toBeUndefined();
    noteRun('insert soon', 1);
    expect(statementName('insert soon')).toBeDefined();
    for (let i = 0; i < 256 - 8; i++) noteRun(kept24[i % 24] as string, 1);
    expect(namedStatements().size).toBe(25);
    // and at a window's end to the busiest waiting with 2 runs or more: when more than 32 texts
    // share the load evenly none runs 8 times in a window, and the names are used all the same
    const even = Array.from({ length: 40 }, (_, i) => `insert even ${i}`);
    windowOf([...kept24, 'insert soon', ...even]);
    expect(namedStatements().size).toBe(32);
    expect(named(even)).toHaveLength(7);
    expect(named(kept24)).toEqual(kept24);
    // a text keeps its name against busier ones while it runs at all: no churn between shapes
    const kept = [...namedStatements().keys()];
    const busier = Array.from({ length: 8 }, (_, i) => `insert busier ${i}`);
    windowOf([...kept, ...busier, ...busier, ...busier]);
    expect([...namedStatements().keys()]).toEqual(kept);
    expect(named(busier)).toEqual([]);
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
    runOften(text);
    const name = statementName(text);
    for (const n of [1, 2, 3]) expect((await client.query(text, [n])).rows).toEqual([{ next: n + 1 }]);
    expect(await prepared()).toContainEqual({ name, statement: text });
    // a text without a name is not prepared
    await client.query('select $1::int * 2 as twice', [4]);
    expect((await prepared()).some((row) => row.statement.includes('twice'))).toBe(false);
  });

  it('runs the text again without its name when the server does not know it (a pooler moved the session), and names no more', async () => {
    const text = 'select $1::text as echoed';
    runOften(text);
    const name = statementName(text) as string;
    expect((await client.query(text, ['a'])).rows).toEqual([{ echoed: 'a' }]);
    // gone from the server behind the client's back, as on another server connection
    await client.query(`deallocate ${name}`);
    expect((await client.query(text, ['b'])).rows).toEqual([{ echoed: 'b' }]);
    expect(statementName(text)).toBeUndefined();
    runOften('select 1 as later', 0);
    expect(statementName('select 1 as later')).toBeUndefined();
  });

  it('inside a transaction, fails as the server said (the transaction is aborted: no retry), and names no more', async () => {
    const text = 'select $1::text as inside';
    runOften(text);
    const name = statementName(text) as string;
    expect((await client.query(text, ['a'])).rows).toEqual([{ inside: 'a' }]);
    await client.query(`deallocate ${name}`);
    await client.query('begin');
    await expect(client.query(text, ['b'])).rejects.toMatchObject({ code: '26000' });
    await client.query('rollback');
    expect(statementName(text)).toBeUndefined();
    expect((await client.query(text, ['c'])).rows).toEqual([{ inside: 'c' }]);
  });

  it('deallocates a name taken back before its next query between transactions; the text named again is prepared again', async () => {
    const text = 'select $1::int - 1 as previous';
    runOften(text);
    const name = statementName(text) as string;
    expect((await client.query(text, [5])).rows).toEqual([{ previous: 4 }]);
    expect((await prepared()).map((row) => row.name)).toContain(name);
    await client.query('begin');
    // a whole window in which the text does not run (the one it ran in ends first): its name is taken back
    for (let i = 0; i < 2048; i++) noteRun('select other', 1);
    expect(statementName(text)).toBeUndefined();
    // not inside a transaction: a failure there would abort the caller's
    expect((await prepared()).map((row) => row.name)).toContain(name);
    await client.query('commit');
    // the next query after it, between transactions, is preceded by the DEALLOCATE
    expect((await prepared()).map((row) => row.name)).not.toContain(name);
    expect((await client.query(text, [3])).rows).toEqual([{ previous: 2 }]);
    // named again (the same name: its hash): prepared again, not taken as still there
    runOften(text);
    expect(statementName(text)).toBe(name);
    expect((await client.query(text, [7])).rows).toEqual([{ previous: 6 }]);
    expect(await prepared()).toContainEqual({ name, statement: text });
    expect(statementName('select $1::text as still')).toBeUndefined();
    runOften('select $1::text as still');
    expect((await client.query('select $1::text as still', ['on'])).rows).toEqual([{ still: 'on' }]);
  });

  it('closes names taken back even when the server lost one of them: none left behind, naming goes on', async () => {
    const texts = ['select $1::int * 3 as a3', 'select $1::int * 5 as a5', 'select $1::int * 7 as a7'];
    for (const text of texts) runOften(text);
    for (const text of texts) await client.query(text, [1]);
    const names = texts.map((text) => statementName(text) as string);
    // the first gone from the server behind the client's back
    await client.query(`deallocate ${names[0]}`);
    for (let i = 0; i < 512; i++) noteRun('select other', 1);
    expect(texts.map((text) => statementName(text))).toEqual([undefined, undefined, undefined]);
    const left = (await prepared()).map((row) => row.name);
    expect(names.filter((name) => left.includes(name))).toEqual([]);
    for (const text of texts) runOften(text);
    expect(texts.map((text) => statementName(text))).toEqual(names);
    for (const [i, text] of texts.entries())
      expect((await client.query(text, [2])).rows).toEqual([
        { [`a${[3, 5, 7][i]}`]: 2 * ([3, 5, 7][i] as number) },
      ]);
    expect((await prepared()).map((row) => row.name).sort()).toEqual([...names].sort());
  });

  it("ends the Close for pg: no read timeout left running after it (a client with pg's own query_timeout)", async () => {
    const timed = new pg.Client({ connectionString: process.env.DATABASE_URL, query_timeout: 100 });
    await timed.connect();
    runNamedStatements(timed as unknown as { query: (...args: unknown[]) => unknown });
    try {
      const text = 'select $1::int + 10 as more';
      runOften(text);
      expect((await timed.query(text, [1])).rows).toEqual([{ more: 11 }]);
      for (let i = 0; i < 512; i++) noteRun('select other', 1);
      let drained = 0;
      timed.on('drain', () => {
        drained += 1;
      });
      // the Close goes first, then this query
      expect((await timed.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      const afterQueries = drained;
      // a timer left running would fire at 100 ms and pulse the idle client's queue once more
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(drained).toBe(afterQueries);
    } finally {
      await timed.end();
    }
  });

  it('passes every other failure on as it was', async () => {
    const text = 'select 1 / $1::int as quotient';
    runOften(text);
    await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012' });
    expect(statementName(text)).toBeDefined();
  });
});
