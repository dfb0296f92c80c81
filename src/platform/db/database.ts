import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  type DatabaseIntrospector,
  Kysely,
  Migrator,
  PostgresDialect,
  type SqliteDatabase,
  SqliteDialect,
  sql,
  type TableMetadata,
  type Transaction,
} from 'kysely';
import type { PoolClient } from 'pg';
import type { Engine } from './dialect.js';
import { GroupCommitter } from './group-commit.js';
import { migrations } from './migrations/index.js';
import { answerQueries } from './pg-queries.js';
import type { Schema } from './schema.js';
import { runNamedStatements } from './statement-names.js';
import { isStorageUnavailable } from './unavailable.js';
import { WalSync } from './wal-sync.js';

export type Db = Kysely<Schema>;
export type Trx = Transaction<Schema>;

export interface Database {
  engine: Engine;
  /** Reads, and writes that need no transaction. */
  db: Db;
  /**
   * Runs `work` in a transaction. On SQLite, concurrent callers share one transaction
   * (group commit); on PostgreSQL each gets its own.
   */
  transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T>;
  /**
   * Resolves once everything committed so far is on stable storage. Reads can see a commit
   * before that (on SQLite the WAL is flushed after COMMIT, see wal-sync.ts): whatever is
   * answered or sent on the strength of such a read waits for this first. On PostgreSQL a
   * commit is visible only once durable: nothing to wait for.
   */
  durable(): Promise<void>;
  /** True when the database answers a trivial query within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Waits for queued writes, then closes every connection. */
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** Seconds to keep trying an unreachable PostgreSQL at start (default 0: one attempt). */
  databaseWaitS?: number;
  /**
   * Bounds every wait on PostgreSQL: a connection from the pool, a query (default 10 s); on
   * SQLite, a write still queued for the group committer after this long is refused.
   */
  requestDeadlineMs?: number;
  /** Told about the wait for the database at start, at most once a second. */
  onWait?: (info: { waitedMs: number; error: string }) => void;
}

export class DataDirInUseError extends Error {}

/** The database did not come up within DATABASE_WAIT_S: the one line the process exits with. */
export class DatabaseWaitExpired extends Error {}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (!options.databaseUrl) return openAndMigrate(options);
  // A service started together with its database (a compose file, a reboot) usually wins the
  // race: wait for PostgreSQL with backoff rather than exit, and give up only after the wait.
  const started = Date.now();
  const deadline = started + (options.databaseWaitS ?? 0) * 1000;
  let delayMs = 100;
  let lastToldAt = 0;
  for (;;) {
    try {
      return await openAndMigrate(options);
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error;
      const now = Date.now();
      const reason = error instanceof Error ? error.message || String(error) : String(error);
      if (now + delayMs > deadline) {
        throw new DatabaseWaitExpired(
          `PostgreSQL did not accept connections within DATABASE_WAIT_S=${options.databaseWaitS ?? 0} s (${reason})`,
        );
      }
      if (now - lastToldAt >= 1000) {
        lastToldAt = now;
        options.onWait?.({ waitedMs: now - started, error: reason });
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 1000);
    }
  }
}

async function openAndMigrate(options: DatabaseOptions): Promise<Database> {
  const { databaseUrl: url, databaseSchema: schema } = options;
  if (url) {
    if (schema) await createSchema(url, schema);
    // Migrations run on connections of their own, without the requests' deadline: one
    // that builds an index on a large table may rightly take minutes.
    const unbounded = await openPostgres(url, schema, undefined);
    try {
      await migrate(ownSchemaOnly(unbounded.db, schema ?? 'public'), schema ?? 'public');
    } finally {
      await unbounded.close().catch(() => undefined);
    }
    return openPostgres(url, schema, options.requestDeadlineMs ?? 10_000);
  }
  const database = openSqlite(options.dataDir, options.requestDeadlineMs);
  try {
    await migrate(database.db, undefined);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

/** Makes `file` readable and writable by its owner only (0600): created so when `create`, else narrowed if present. */
function ownerOnly(file: string, create: boolean): void {
  try {
    // `mode` applies only to a file this call creates; chmod narrows one that existed
    fs.closeSync(fs.openSync(file, create ? 'a' : 'r+', 0o600));
    fs.chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function openSqlite(dataDir: string, deadlineMs: number | undefined): Database {
  // Every answer is in these files: no other user of the machine may read them. A new folder
  // is the owner's alone; the database file is made 0600 before SQLite opens it (or narrowed to
  // it, for an installation made before this rule), and SQLite gives the WAL it creates the
  // database file's mode.
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'intake.db');
  for (const own of [file, `${file}-wal`]) ownerOnly(own, own === file);
  const sqlite = new BetterSqlite3(file);
  try {
    // Exclusive locking mode: the first write takes a lock held until close, which is
    // how a second process on the same DATA_DIR is refused (the OS releases the lock
    // if this process dies, so a crash never leaves a stale lock behind).
    sqlite.pragma('busy_timeout = 0');
    sqlite.pragma('locking_mode = EXCLUSIVE');
    sqlite.pragma('journal_mode = WAL');
    sqlite.exec('BEGIN EXCLUSIVE; COMMIT;');
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new DataDirInUseError(
        `DATA_DIR ${dataDir} is in use by another Intake process; stop it or choose another DATA_DIR`,
      );
    }
    throw error;
  }
  // Durable on every acknowledged write all the same: the group committer flushes the WAL
  // (fdatasync, off the event loop) before it answers (wal-sync.ts).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');

  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  const wal = WalSync.open(`${file}-wal`);
  const committer = new GroupCommitter(db, {
    durable: () => wal.sync(),
    inTransaction: () => sqlite.inTransaction,
    deadlineMs,
  });
  let closed = false;
  return {
    engine: 'sqlite',
    db,
    transaction: (work) => committer.run(work),
    durable: () => wal.sync(),
    ping: async () => {
      if (closed) return false;
      try {
        return sqlite.prepare('select 1 as ok').get() !== undefined;
      } catch {
        return false;
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await committer.flush();
      await db.destroy();
      wal.close();
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every statement on every call; parsing the SQL was the
 * largest single cost of the submit path (a multi-row INSERT has hundreds of placeholders).
 * Prepared statements are kept by their SQL text, the least recently used dropped first.
 * Sharing is safe because nothing iterates a statement lazily (no `.stream()` in the code):
 * `all`/`run` finish before the statement can be asked for again.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE)
          statements.delete(statements.keys().next().value as string);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}

/** Runs one statement on a connection of its own (schema management, before or after the pool). */
async function runAlone(url: string, statement: string): Promise<void> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // The connection lost while nobody is querying is reported as an event: never a crash.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A connection attempt to a database that is down fails at once (refused); one to an
 * unreachable host would otherwise wait for the kernel's TCP timeout, minutes.
 */
const CONNECT_TIMEOUT_MS = 3000;

/** `schema` is a checked identifier (config.ts, or one the tests and bench generate). */
export const createSchema = (url: string, schema: string) =>
  runAlone(url, `create schema if not exists "${schema}"`);
export const dropSchema = (url: string, schema: string) =>
  runAlone(url, `drop schema if exists "${schema}" cascade`);

/** Imported when PostgreSQL is used: a service on SQLite never loads the driver (time and memory at start). */
const loadPg = async () => (await import('pg')).default;

/**
 * The server's own `statement_timeout`, set per session rather than as a startup parameter, which
 * connection poolers such as PgBouncer refuse. Queued before any query of the client's user:
 * 'connect' is emitted before the pool hands the client out.
 */
function boundStatements(client: PoolClient, deadlineMs: number): void {
  client.query(`set statement_timeout = ${Math.trunc(deadlineMs)}`).catch(() => undefined);
}

/** `deadlineMs`: the bound on every query (undefined: none, for migrations). */
async function openPostgres(
  url: string,
  schema: string | undefined,
  deadlineMs: number | undefined,
): Promise<Database> {
  const pg = await loadPg();
  const pool = new pg.Pool({
    connectionString: url,
    // one connection is enough to migrate
    max: deadlineMs === undefined ? 1 : 10,
    // Every wait is bounded, so that a request meets a 503 rather than hangs while the
    // database is away: for a connection (refused at once when the server is down, this
    // bounds an unreachable one and a pool that is all in use), and for an answer (each
    // query's deadline is kept by answerQueries, pg-queries.ts, not by pg's query_timeout).
    connectionTimeoutMillis: Math.min(CONNECT_TIMEOUT_MS, deadlineMs ?? CONNECT_TIMEOUT_MS),
    // A peer that vanished without a word (a host down, a network cut) is found out.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A client losing its connection reports it as an 'error' event, which ends the process
  // when nobody listens. The pool listens on idle clients only: listen on every client for
  // its whole life (a client checked out between two queries of a transaction, say). The
  // query under way fails by itself, and a broken client is not returned to the pool.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    if (deadlineMs !== undefined) boundStatements(client, deadlineMs);
    // the answers and their deadline first: the statements' names are asked through them
    answerQueries(client as unknown as Parameters<typeof answerQueries>[0], deadlineMs);
    runNamedStatements(client as unknown as { query: (...args: unknown[]) => unknown });
  });
  pool.on('error', () => {});
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  let closed = false;
  return {
    engine: 'postgres',
    db,
    transaction: (work) => db.transaction().execute(work),
    durable: async () => {},
    ping: async (timeoutMs = 2000) => {
      if (closed) return false;
      let timer: NodeJS.Timeout | undefined;
      try {
        const answer = sql`select 1 as ok`.execute(db).then(() => true);
        const timeout = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        return await Promise.race([answer, timeout]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

async function migrate(db: Db, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (!error) return;
  const failed = results?.find((result) => result.status === 'Error');
  throw new Error(
    `database migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`,
    { cause: error },
  );
}

/**
 * PostgreSQL: the database as the migrator sees it, its introspection reading our own schema's
 * tables alone. Kysely's reads every schema's tables and columns, each column's serial sequence
 * resolved by name (`getTables`, which the migrator calls to find its own two tables), so another
 * client changing another schema meanwhile failed our start: a schema or table dropped (3F000,
 * 42P01: retried until this view replaced that read), or a column renamed (42703, `column "user_id" of relation "submissions"
 * does not exist`, seen in CI while another test file's schema ran migration 012). The migrator
 * needs only the names of our tables.
 */
function ownSchemaOnly(db: Db, schema: string): Db {
  const getTables = async (): Promise<TableMetadata[]> => {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class as c join pg_catalog.pg_namespace as ns on ns.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p') and ns.nspname = ${schema}`.execute(db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === 'v', columns: [] }));
  };
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables,
    getMetadata: async () => ({ tables: await getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
