import { PostgresAdapter } from 'kysely';

/**
 * The few places where SQLite and PostgreSQL differ, kept out of the features.
 * Both store timestamps and JSON as text (see schema.ts), so what is left is
 * error recognition and row locking.
 */
export type Engine = 'sqlite' | 'postgres';

/** The engine behind a Kysely instance or transaction (for code handed a `Db` alone). */
export const engineOf = (db: { getExecutor(): { adapter: object } }): Engine =>
  db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';

interface DriverError {
  code?: unknown;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return (
    code === '23505' || // PostgreSQL unique_violation
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * A statement refused by a constraint (unique, foreign key, not null, check): its
 * transaction is rolled back for certain, unlike a failed COMMIT or a lost connection.
 */
export function isConstraintViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return typeof code === 'string' && (/^23\d{3}$/.test(code) || code.startsWith('SQLITE_CONSTRAINT'));
}

/**
 * PostgreSQL gave up a transaction to break a deadlock or a serialization conflict: it is rolled
 * back for certain, and may succeed when run again.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '40P01' || code === '40001';
}

export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as DriverError | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Counts come back as bigint strings from PostgreSQL and as numbers from SQLite. */
export function toCount(value: string | number | bigint | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/**
 * A shared row lock for the rest of the transaction: the row may not be deleted (or its
 * key changed) meanwhile, which is what a child row about to reference it needs. SQLite
 * serialises every write transaction, so the clause is left out there.
 */
export function keepRow<Q extends { forKeyShare(): Q }>(engine: Engine, query: Q): Q {
  return engine === 'postgres' ? query.forKeyShare() : query;
}

/**
 * An exclusive row lock for the rest of the transaction: whoever else locks the row waits
 * until this transaction ends (a limit counted and then enforced, say). SQLite serialises
 * every write transaction already.
 */
export function lockRow<Q extends { forUpdate(): Q }>(engine: Engine, query: Q): Q {
  return engine === 'postgres' ? query.forUpdate() : query;
}

export function encodeJson(value: unknown): string {
  return JSON.stringify(value);
}

export function decodeJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
