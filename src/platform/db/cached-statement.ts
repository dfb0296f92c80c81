import { type Compilable, CompiledQuery, PostgresAdapter, type QueryResult } from 'kysely';
import type { Db, Trx } from './database.js';
import { noteRun } from './statement-names.js';

/**
 * Runs a statement built by Kysely, compiled only the first time its shape is seen: after that
 * its SQL text is reused with the new values. The submit path runs the same few statements for
 * every batch, and building and compiling them through Kysely's query builder cost more than the
 * database took to run them (a 16-row INSERT: ~4 % of the submit path's CPU, the counters' upsert
 * ~1.7 %, the webhooks' lookup ~0.9 %, measured under `npm run bench -- --profile`).
 *
 * `build` makes the statement from `values` alone, each value bound where it belongs, without
 * branching on them; `shape` names everything else its text depends on (the table, the columns,
 * how many rows or list items, which optional clauses are there). The first time a shape is
 * seen, `build` is given a probe in place of each value, all different, and the text is kept only
 * when Kysely bound exactly those probes, in their order: a builder that binds a constant of its
 * own, a value twice or out of place is found then, whatever the real values are, and such a
 * shape is run through Kysely each time (and listed by `shapesNotCached`, which tests look at).
 * Under the tests every reuse is checked as well: the shape built again from probes must give
 * the same text, or the shape's name left something out.
 *
 * Only plain values are bound through the cache (strings, numbers, bigints, booleans, null,
 * Buffers): Kysely writes other kinds into the text itself (undefined as DEFAULT or NULL) or
 * a driver serialises them, so a statement with one is built by Kysely each time. So is one run
 * through a Kysely instance with plugins (they transform the query, which the cache would skip).
 *
 * Texts are kept per root Kysely instance (the adapter its transactions share): an SQLite and a
 * PostgreSQL database in one process (the tests) do not share them.
 */
export async function executeCached<R>(
  trx: Db | Trx,
  shape: string,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Compilable<R>,
): Promise<QueryResult<R>> {
  const executor = trx.getExecutor();
  if (executor.plugins.length > 0 || !values.every(isPlain)) return trx.executeQuery(build(values).compile());
  const cache = cacheOf(executor.adapter);
  let text = cache.texts.get(shape);
  if (text === undefined && !uncached.has(shape)) {
    text = probedText(build, values.length);
    if (text === undefined) uncached.add(shape);
    else cache.keep(shape, text);
  } else if (text !== undefined && VERIFY_REUSE && probedText(build, values.length) !== text) {
    throw new Error(`executeCached: the shape "${shape}" names too little: its builder made another text`);
  }
  if (text === undefined) return trx.executeQuery(build(values).compile());
  if (cache.postgres) noteRun(text, values.length);
  return trx.executeQuery<R>(CompiledQuery.raw(text, [...values]));
}

/**
 * Runs a statement Kysely builds each time (its shape follows what is asked, too many shapes to
 * keep), whose text PostgreSQL may still prepare by name once it runs often (statement-names.ts).
 * For a small indexed read, parsing and planning are most of PostgreSQL's work: the inbox's page
 * of 50 of a million rows 0.13–0.15 ms to plan against 0.12–0.29 ms to run, the session's lookup
 * 0.14 ms against 0.02 ms (EXPLAIN ANALYZE, warm connection). (The inbox's page itself now goes
 * through `executeCached`, one text per filter shape, named the same way.)
 */
export async function executeNameable<R>(db: Db | Trx, query: Compilable<R>): Promise<QueryResult<R>> {
  const compiled = query.compile();
  if (cacheOf(db.getExecutor().adapter).postgres) noteRun(compiled.sql, compiled.parameters.length);
  return db.executeQuery(compiled);
}

/** Under Vitest: each reuse of a text is checked against the builder (see above). */
const VERIFY_REUSE = process.env.VITEST !== undefined;

/** The text `build` makes of distinct probes, when Kysely bound each of them once, in order. */
function probedText<R>(
  build: (values: readonly unknown[]) => Compilable<R>,
  count: number,
): string | undefined {
  const probes = Array.from({ length: count }, (_, i) => `\u0000probe ${i}\u0000`);
  const compiled = build(probes).compile();
  const bound = compiled.parameters;
  if (bound.length !== count || compiled.sql.includes('\u0000probe')) return undefined;
  for (let i = 0; i < count; i++) if (bound[i] !== probes[i]) return undefined;
  return compiled.sql;
}

const isPlain = (value: unknown): boolean =>
  value === null ||
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'bigint' ||
  typeof value === 'boolean' ||
  Buffer.isBuffer(value);

/**
 * Texts kept per database, at most this many characters in all: statements × row counts ×
 * column sets; a 500-row INSERT's text is tens of kB, a batch's a few.
 */
const MAX_CHARACTERS = 4_000_000;

class Texts {
  readonly texts = new Map<string, string>();
  private characters = 0;

  /** PostgreSQL's texts may be run by name (statement-names.ts). */
  constructor(readonly postgres: boolean) {}

  keep(shape: string, text: string): void {
    if (this.characters + text.length > MAX_CHARACTERS) {
      this.texts.clear();
      this.characters = 0;
    }
    this.texts.set(shape, text);
    this.characters += text.length;
  }
}

const byAdapter = new WeakMap<object, Texts>();
const uncached = new Set<string>();

/** Shapes whose values Kysely did not bind as given (a caller's error): run uncached. */
export const shapesNotCached = (): ReadonlySet<string> => uncached;

/** The shapes whose text is kept for this database (tests: a statement said to be cached is). */
export const shapesKept = (db: Db | Trx): string[] => [...cacheOf(db.getExecutor().adapter).texts.keys()];

function cacheOf(adapter: object): Texts {
  let texts = byAdapter.get(adapter);
  if (!texts) {
    texts = new Texts(adapter instanceof PostgresAdapter);
    byAdapter.set(adapter, texts);
  }
  return texts;
}
