import { createHash } from 'node:crypto';

/**
 * PostgreSQL: the statements the submit path runs for every batch, prepared once per connection
 * and run by name, so that PostgreSQL parses and plans each of them once, not on every batch,
 * and the client sends no text. Measured under `npm run bench` (submit, PostgreSQL, six runs a
 * side): PostgreSQL's CPU per request 59 → 44 µs, the submit's req/s about 13 % higher.
 *
 * Only texts that `executeCached` keeps are candidates (they are run again and again), named once
 * run USES_BEFORE_NAMED times, and only a few of them: each named statement holds a plan in every
 * connection of the pool (about 100 kB for a batch of 16 rows), so at most MAX_NAMED texts of at
 * most MAX_PARAMETERS values are named. The others are parsed each time, as before. A text that
 * selects or returns `*` is never named: a column added by a migration (another instance's,
 * during a rolling upgrade) would change its result, which a prepared statement refuses.
 *
 * A name is the hash of its text: the same name means the same text in every process, so a
 * connection pooler that hands a session's statements to another client never runs another
 * text under it. A pooler that does not keep prepared statements per client (PgBouncer in
 * transaction mode, unless `max_prepared_statements` is set) answers a named statement with
 * "does not exist" or "already exists": naming stops for the process, and a statement outside a
 * transaction is run again by its text (inside one, the failure has aborted the transaction,
 * and the caller's transaction fails with it, once).
 */

const MAX_NAMED = 32;
/** A statement with more values is not named: its plan grows with them. */
const MAX_PARAMETERS = 600;
/** Runs of a text before it is named: the busy ones get the names, not the first ones seen. */
const USES_BEFORE_NAMED = 8;
/** Texts whose runs are counted at most (the shapes of a batch's sizes and columns). */
const MAX_COUNTED = 1024;
const SELECTS_ALL = /\bselect \*|\breturning \*/i;

const names = new Map<string, string>();
const uses = new Map<string, number>();
let stopped = false;

/** Counts a run of `text` (with `parameters` values): named once it has run often enough, while names are left. */
export function noteRun(text: string, parameters: number): void {
  if (stopped || names.has(text) || names.size >= MAX_NAMED || parameters > MAX_PARAMETERS) return;
  const runs = (uses.get(text) ?? 0) + 1;
  if (runs < USES_BEFORE_NAMED) {
    if (uses.size < MAX_COUNTED || uses.has(text)) uses.set(text, runs);
    return;
  }
  uses.delete(text);
  if (SELECTS_ALL.test(text)) return;
  names.set(text, `intake_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
}

/** The name `text` runs under, if any. */
export const statementName = (text: string): string | undefined => (stopped ? undefined : names.get(text));

/** PostgreSQL's answers when a named statement met a server connection it was not prepared on. */
const NOT_PREPARED_HERE = new Set(['26000', '42P05']);

interface Queryable {
  query: (...args: unknown[]) => unknown;
  /** `pg`'s: 'I' idle, 'T' in a transaction, 'E' in a failed one. */
  getTransactionStatus?: () => string | null;
}

/**
 * Runs the named texts of `client` (a `pg` client) by name. A query given as text and values
 * whose text has a name becomes a named query; a failure that says the pooler moved it stops
 * naming, and outside a transaction runs it again as text.
 */
export function runNamedStatements(client: Queryable): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
    if (name === undefined || args.length > 2) return query(...args);
    // asked before the query: its error is reported before the server says what became of the transaction
    const outsideTransaction = client.getTransactionStatus?.() === 'I';
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!NOT_PREPARED_HERE.has((error as { code?: string } | null)?.code ?? '')) throw error;
      stopped = true;
      if (!outsideTransaction) throw error;
      return query(text, values);
    });
  };
}

/** For tests: the names given so far, and naming started again. */
export const namedStatements = (): ReadonlyMap<string, string> => names;
export function resetStatementNames(): void {
  names.clear();
  uses.clear();
  stopped = false;
}
