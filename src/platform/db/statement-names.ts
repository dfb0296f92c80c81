/**
 * PostgreSQL: the statements the submit path runs for every batch, prepared once per connection
 * and run by name, so that PostgreSQL parses and plans each of them once, not on every batch,
 * and the client sends no text. Measured under `npm run bench` (submit, PostgreSQL, six runs a
 * side): PostgreSQL's CPU per request 59 → 44 µs, the submit's req/s about 13 % higher.
 *
 * Only texts that `executeCached` keeps are named (they are run again and again), and only a few
 * of them: each named statement holds a plan in every connection of the pool (about 100 kB for
 * a batch of 16 rows), so at most MAX_NAMED texts of at most MAX_PARAMETERS values are named.
 * The others run as before, parsed each time.
 *
 * A connection pooler that hands a session's statements to other server connections (PgBouncer
 * in transaction mode before 1.21) answers a named statement with "does not exist" or "already
 * exists": naming then stops for the process, and the statement is run again without a name.
 */

/** Named texts per process: every connection of the pool prepares each on its first use. */
const MAX_NAMED = 32;
/** A statement with more values is not named: its plan grows with them. */
const MAX_PARAMETERS = 600;

const names = new Map<string, string>();
/** Never reused in a process: a connection refuses a name already prepared with another text. */
let given = 0;
let stopped = false;

/** Marks `text` (with `parameters` values) as one to run by name, while names are left. */
export function nameStatement(text: string, parameters: number): void {
  if (stopped || names.size >= MAX_NAMED || parameters > MAX_PARAMETERS || names.has(text)) return;
  names.set(text, `intake_${given++}`);
}

/** The name `text` runs under, if any. */
export const statementName = (text: string): string | undefined => (stopped ? undefined : names.get(text));

/** PostgreSQL's answers when a named statement met a server connection it was not prepared on. */
const NOT_PREPARED_HERE = new Set(['26000', '42P05']);

interface Queryable {
  query: (...args: unknown[]) => unknown;
}

/**
 * Runs the named texts of `client` (a `pg` client) by name. A query given as text and values
 * whose text has a name becomes a named query; a failure that says the pooler moved it runs it
 * again as text and stops naming.
 */
export function runNamedStatements(client: Queryable): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [text, values] = args;
    const name = typeof text === 'string' && Array.isArray(values) ? statementName(text) : undefined;
    if (name === undefined || args.length > 2) return query(...args);
    return (query({ name, text, values }) as Promise<unknown>).catch((error: unknown) => {
      if (!NOT_PREPARED_HERE.has((error as { code?: string } | null)?.code ?? '')) throw error;
      stopped = true;
      return query(text, values);
    });
  };
}

/** For tests: names given so far, and naming started again. */
export const namedStatements = (): ReadonlyMap<string, string> => names;
export function resetStatementNames(): void {
  names.clear();
  stopped = false;
}
