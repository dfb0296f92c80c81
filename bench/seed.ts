import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { COUNT_LISTED_SO_FAR } from '../src/platform/db/migrations/019-form-counters.js';
import { newId } from '../src/platform/ids.js';
import type { Store } from './service.js';

/**
 * Bulk loading of submissions straight through the database driver (the service is
 * stopped meanwhile: on SQLite it holds the database file exclusively), and counting.
 */

export interface SeedForm {
  id: string;
  workspaceId: string;
  environment: string;
  version: number;
}

const COLUMNS = [
  'id',
  'workspace_id',
  'environment',
  'form_id',
  'form_version',
  'answers',
  'session_id',
  'status',
  'read',
  'starred',
  'created_at',
] as const;

type Row = [string, string, string, string, number, string, string | null, string, number, number, string];

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Edsger',
  'Barbara',
  'Donald',
  'Margaret',
  'Ken',
  'Frances',
  'Niklaus',
];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen'];
const TOPICS = ['sales', 'support', 'billing', 'other'];
const SENTENCES = [
  'Hello, I would like to know more about your pricing for teams.',
  'We currently collect this in spreadsheets, which is getting hard to manage.',
  'Could you tell me whether the export keeps the column order of the form?',
  'Our legal team asks where the data is stored, and for how long.',
  'Thanks for the quick answer last time, it helped a lot.',
  'Is there a way to receive a notification for every new response?',
  'The form did not load on my phone yesterday; today it works.',
  'Please call me back, "urgently" if possible, at the number on file.',
];

/** A small deterministic generator, so every run loads the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** `count` realistic rows for `form`, one every 2.5 s ending an hour ago, oldest first. */
function* rows(form: SeedForm, count: number): Generator<Row> {
  const next = random(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const end = Date.now() - 3_600_000;
  const start = end - count * 2500;
  for (let i = 0; i < count; i++) {
    const time = start + i * 2500;
    const first = pick(FIRST);
    const last = pick(LAST);
    const sentences = 1 + Math.floor(next() * 4);
    const message: string[] = [];
    for (let s = 0; s < sentences; s++) message.push(pick(SENTENCES));
    const answers = {
      name: `${first} ${last}`,
      email: `${first}.${last}${i % 1000}@example.com`.toLowerCase(),
      topic: pick(TOPICS),
      seats: 1 + Math.floor(next() * 10),
      ...(next() < 0.9 ? { message: message.join(' ') } : {}),
    };
    const roll = next();
    const status = roll < 0.005 ? 'quarantined' : roll < 0.02 ? 'flagged' : 'accepted';
    yield [
      newId('sub', time),
      form.workspaceId,
      form.environment,
      form.id,
      form.version,
      JSON.stringify(answers),
      next() < 0.5 ? `sess_${i.toString(36)}` : null,
      status,
      next() < 0.3 ? 1 : 0,
      next() < 0.05 ? 1 : 0,
      new Date(time).toISOString(),
    ];
  }
}

export async function seedSubmissions(
  store: Store,
  form: SeedForm,
  count: number,
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  if (store.engine === 'sqlite') seedSqlite(store.dataDir, form, count);
  else await seedPostgres(store, form, count);
  return { rows: count, seconds: (performance.now() - started) / 1000 };
}

function seedSqlite(dataDir: string, form: SeedForm, count: number): void {
  const db = new BetterSqlite3(path.join(dataDir, 'intake.db'));
  try {
    db.pragma('journal_mode = WAL');
    // the load itself need not survive a power cut: it is redone by the next run
    db.pragma('synchronous = OFF');
    const perStatement = 500; // 500 rows × 11 columns, within SQLite's 32,766 parameters
    const perTransaction = 50_000;
    const placeholders = `(${COLUMNS.map(() => '?').join(',')})`;
    const insertMany = db.prepare(
      `insert into submissions (${COLUMNS.join(',')}) values ${Array(perStatement).fill(placeholders).join(',')}`,
    );
    const insertOne = db.prepare(`insert into submissions (${COLUMNS.join(',')}) values ${placeholders}`);
    const load = db.transaction((batch: Row[]) => {
      let at = 0;
      for (; at + perStatement <= batch.length; at += perStatement) {
        insertMany.run(batch.slice(at, at + perStatement).flat());
      }
      for (; at < batch.length; at++) insertOne.run(batch[at]);
    });
    let batch: Row[] = [];
    for (const row of rows(form, count)) {
      batch.push(row);
      if (batch.length === perTransaction) {
        load(batch);
        batch = [];
      }
    }
    if (batch.length > 0) load(batch);
    db.exec(COUNT_LISTED_SO_FAR);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

async function seedPostgres(store: Store, form: SeedForm, count: number): Promise<void> {
  const client = new pg.Client({
    connectionString: store.databaseUrl,
    options: `-c search_path=${store.databaseSchema}`,
  });
  await client.connect();
  try {
    // one statement per 10,000 rows: each column travels as one array parameter
    const types = ['text', 'text', 'text', 'text', 'int', 'text', 'text', 'text', 'int', 'int', 'text'];
    const statement = `insert into submissions (${COLUMNS.join(',')}) select * from unnest(${types
      .map((type, i) => `$${i + 1}::${type}[]`)
      .join(',')})`;
    const perStatement = 10_000;
    const perTransaction = 100_000;
    let columns: unknown[][] = COLUMNS.map(() => []);
    let inTransaction = 0;
    const flush = async () => {
      if ((columns[0] as unknown[]).length === 0) return;
      if (inTransaction === 0) await client.query('begin');
      await client.query(statement, columns);
      inTransaction += (columns[0] as unknown[]).length;
      columns = COLUMNS.map(() => []);
      if (inTransaction >= perTransaction) {
        await client.query('commit');
        inTransaction = 0;
      }
    };
    for (const row of rows(form, count)) {
      for (let c = 0; c < row.length; c++) (columns[c] as unknown[]).push(row[c]);
      if ((columns[0] as unknown[]).length === perStatement) await flush();
    }
    await flush();
    if (inTransaction > 0) await client.query('commit');
    await client.query(COUNT_LISTED_SO_FAR);
    // what autovacuum would have done by the time a form has a million submissions
    await client.query('vacuum analyze submissions');
  } finally {
    await client.end();
  }
}

/** Submissions stored for `formId` (the service is stopped). */
export const countSubmissions = (store: Store, formId: string): Promise<number> =>
  countRows(store, 'select count(*) as n from submissions where form_id = ?', formId);

/** Views stored for `formId`, one per session (the service is stopped: what it queued is stored). */
export const countViews = (store: Store, formId: string): Promise<number> =>
  countRows(store, "select count(*) as n from form_events where form_id = ? and type = 'view'", formId);

async function countRows(store: Store, query: string, formId: string): Promise<number> {
  if (store.engine === 'sqlite') {
    const db = new BetterSqlite3(path.join(store.dataDir, 'intake.db'), { readonly: true });
    try {
      return (db.prepare(query).get(formId) as { n: number }).n;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({
    connectionString: store.databaseUrl,
    options: `-c search_path=${store.databaseSchema}`,
  });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(query.replace('?', '$1'), [formId]);
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

export { dropSchema } from '../src/platform/db/database.js';

/** True when PostgreSQL answers at `url`. */
export async function postgresAvailable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
