import type { Insertable } from 'kysely';
import { executeCached } from './cached-statement.js';
import type { Trx } from './database.js';
import type { Schema } from './schema.js';

/** Rows a statement: with a dozen columns, 500 rows stay well under both engines' limits on bound parameters. */
const ROWS_PER_STATEMENT = 500;

/**
 * Inserts many rows with as few statements as possible: one multi-row INSERT per 500 rows, its SQL
 * built by Kysely once per shape (table, columns, number of rows) and reused (cached-statement.ts).
 */
export async function insertRows<T extends keyof Schema & string>(
  trx: Trx,
  table: T,
  rows: readonly Insertable<Schema[T]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    await insertChunk(trx, table, rows.slice(start, start + ROWS_PER_STATEMENT));
  }
}

async function insertChunk(trx: Trx, table: string, rows: readonly object[]): Promise<void> {
  const columns = columnsOf(rows);
  if (!columns) {
    // Kysely cannot relate a generic table name to its row type: insertRows' signature does
    await trx
      .insertInto(table as never)
      .values(rows as never)
      .execute();
    return;
  }
  const values = valuesOf(rows, columns);
  const build = (bound: readonly unknown[]) =>
    trx.insertInto(table as never).values(boundRows(bound, columns) as never);
  await executeCached(trx, `insert: ${rows.length} into ${table} (${columns.join(',')})`, values, build);
}

/** The values of `rows` in `columns`, row after row (the order `boundRows` reads them in). */
export function valuesOf(rows: readonly object[], columns: readonly string[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) for (const column of columns) values.push((row as Record<string, unknown>)[column]);
  return values;
}

/** Rows of `columns` made of `bound`, its values row after row (an executeCached builder's values). */
export function boundRows(bound: readonly unknown[], columns: readonly string[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let start = 0; start < bound.length; start += columns.length)
    rows.push(Object.fromEntries(columns.map((column, c) => [column, bound[start + c]])));
  return rows;
}

/**
 * The columns every row gives a value for, in the order Kysely lists them, or undefined when a
 * row leaves one out (Kysely then writes DEFAULT in its place, NULL on SQLite: such inserts are
 * built by Kysely each time).
 */
export function columnsOf(rows: readonly object[]): string[] | undefined {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (!first) return undefined;
  const columns = Object.keys(first).filter((column) => first[column] !== undefined);
  if (columns.length === 0) return undefined;
  for (const row of rows as Record<string, unknown>[]) {
    let defined = 0;
    for (const column in row) if (row[column] !== undefined) defined++;
    if (defined !== columns.length) return undefined;
    for (const column of columns) if (row[column] === undefined) return undefined;
  }
  return columns;
}
