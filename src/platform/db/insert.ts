import type { Insertable } from 'kysely';
import type { Trx } from './database.js';
import type { Schema } from './schema.js';

/** Rows a statement: with a dozen columns, 500 rows stay well under both engines' limits on bound parameters. */
const ROWS_PER_STATEMENT = 500;

/** Inserts many rows with as few statements as possible: one multi-row INSERT per 500 rows. */
export async function insertRows<T extends keyof Schema & string>(
  trx: Trx,
  table: T,
  rows: readonly Insertable<Schema[T]>[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    // Kysely cannot relate a generic table name to its row type: the signature above does
    await trx
      .insertInto(table)
      .values(rows.slice(start, start + ROWS_PER_STATEMENT) as never)
      .execute();
  }
}
