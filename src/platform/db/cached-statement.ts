import { type Compilable, CompiledQuery, type QueryResult } from 'kysely';
import type { Trx } from './database.js';

/**
 * Runs a statement built by Kysely, compiled only the first time its shape is seen: after that
 * its SQL text is reused with the new values. The submit path runs the same few statements for
 * every batch, and building and compiling them through Kysely's query builder cost more than the
 * database took to run them (a 16-row INSERT: ~4 % of the submit path's CPU, the counters' upsert
 * ~1.7 %, the webhooks' lookup ~0.9 %, measured under `npm run bench -- --profile`).
 *
 * `build` makes the statement from `values` alone, each value bound where it belongs, and
 * `shape` names everything else its text depends on (the table, the columns, how many rows or
 * list items, which optional clauses are there). The first time a shape is seen, `build` is
 * given a probe in place of each value, all different, and the text is kept only when Kysely
 * bound exactly those probes in their order: any value of `build`'s own (a constant bound as a
 * parameter) or a value bound twice or out of place is found then, whatever the real values
 * are, and such a shape is run through Kysely each time (and listed by `shapesNotCached`, for
 * the tests).
 *
 * Texts are kept per Kysely instance (its executor's adapter): an SQLite and a PostgreSQL database
 * in one process (the tests) do not share them.
 */
export async function executeCached<R>(
  trx: Trx,
  shape: string,
  values: readonly unknown[],
  build: (values: readonly unknown[]) => Compilable<R>,
): Promise<QueryResult<R>> {
  const texts = textsOf(trx);
  let text = texts.get(shape);
  if (text === undefined && !uncached.has(shape)) {
    const probes = values.map((_, i) => `\u0000probe ${i}\u0000`);
    const compiled = build(probes).compile();
    if (sameValues(compiled.parameters, probes)) {
      text = compiled.sql;
      if (texts.size >= MAX_SHAPES) texts.clear();
      texts.set(shape, text);
    } else {
      uncached.add(shape);
    }
  }
  if (text === undefined) return trx.executeQuery(build(values).compile());
  return trx.executeQuery<R>(CompiledQuery.raw(text, [...values]));
}

/** Shapes kept per database: statements × batch sizes × column sets, a few hundred in practice. */
const MAX_SHAPES = 4_000;

const byAdapter = new WeakMap<object, Map<string, string>>();
const uncached = new Set<string>();

/** Shapes whose values Kysely did not bind as given (a caller's error): run uncached. */
export const shapesNotCached = (): ReadonlySet<string> => uncached;

function textsOf(trx: Trx): Map<string, string> {
  const adapter = trx.getExecutor().adapter;
  let texts = byAdapter.get(adapter);
  if (!texts) {
    texts = new Map();
    byAdapter.set(adapter, texts);
  }
  return texts;
}

function sameValues(bound: readonly unknown[], given: readonly unknown[]): boolean {
  if (bound.length !== given.length) return false;
  for (let i = 0; i < bound.length; i++) if (bound[i] !== given[i]) return false;
  return true;
}
