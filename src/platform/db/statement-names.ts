import { createHash } from 'node:crypto';

/**
 * PostgreSQL: the statements the submit path runs for every batch, and the reads every
 * authenticated request makes (the session's lookup, the inbox's page), prepared once per
 * connection and run by name, so that PostgreSQL parses and plans each of them once, not on every
 * run, and the client sends no text. Measured under `npm run bench` (submit, PostgreSQL, six runs a
 * side): PostgreSQL's CPU per request 59 → 44 µs, the submit's req/s about 13 % higher.
 *
 * Only texts run again and again are candidates (those `executeCached` keeps, those run through
 * `executeNameable` (cached-statement.ts), and the views' statement of arrays, analytics/repo.ts,
 * which calls `noteRun` itself), named once
 * run USES_BEFORE_NAMED times in a window of runs, and only a few of them: each named statement
 * holds a plan in every connection of the pool (about 100 kB for a batch of 16 rows), so at most
 * MAX_NAMED texts of at most MAX_PARAMETERS values are named. The others are parsed each time, as
 * before. The names follow the load: a named text that has gone quiet gives its name to a busy
 * one (see `noteRun`), and each connection closes what it prepared under a name taken back.
 * (They were given for good to the first busy texts: a form's batches of every size took them
 * all, and the forms answered after it were parsed and planned every time, 20–60 µs more of
 * PostgreSQL's CPU a request, measured under `npm run bench`'s controls phase.) A text that
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
/** Runs of a text in a window before it is named: the busy ones get names, not the first seen. */
const USES_BEFORE_NAMED = 8;
/** Runs of every text counted together: the window after which idle names are handed on. */
const WINDOW_RUNS = 256;
/** Runs in a window below which a named text has gone quiet: its name goes to a busier text. */
const KEEP_RUNS = 1;
/**
 * Runs in a window that earn a free name at its end: fewer than USES_BEFORE_NAMED, so that when
 * more than 32 shapes share the load evenly (none runs 8 times in 256) the names are still used.
 */
const FREE_NAME_RUNS = 2;
const SELECTS_ALL = /\bselect \*|\breturning \*/i;
const PREFIX = 'intake_';

const names = new Map<string, string>();
/** Runs of each text in the current window (at most WINDOW_RUNS texts, so bounded). */
const runs = new Map<string, number>();
let windowRuns = 0;
/** Texts seen to select or return `*` (bounded like `runs`). */
const unnameable = new Set<string>();
/** Moves on when names are taken back: each connection then closes what it prepared of them. */
let generation = 0;
let stopped = false;

/**
 * Counts a run of `text` (with `parameters` values): named once it has run often enough in a
 * window while names are left. Names are kept while their texts run: at the end of each window a
 * named text that ran less than KEEP_RUNS times gives its name up, and the busiest texts waiting
 * (FREE_NAME_RUNS runs or more) take the free names. So the names follow what runs now (the
 * shapes of the batches of the forms being answered), not what ran first, and a text never loses
 * its name to a slightly busier one (no churn of prepares between shapes of similar use).
 */
export function noteRun(text: string, parameters: number): void {
  if (stopped || parameters > MAX_PARAMETERS) return;
  const count = (runs.get(text) ?? 0) + 1;
  runs.set(text, count);
  windowRuns += 1;
  if (windowRuns >= WINDOW_RUNS) handOnNames();
  else if (count >= USES_BEFORE_NAMED && names.size < MAX_NAMED && !names.has(text)) giveName(text);
}

function giveName(text: string): void {
  if (unnameable.has(text)) return;
  if (SELECTS_ALL.test(text)) {
    if (unnameable.size < WINDOW_RUNS) unnameable.add(text);
    return;
  }
  names.set(text, `${PREFIX}${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
}

/** The end of a window: names of quiet texts taken back, free names to the busiest texts waiting. */
function handOnNames(): void {
  const quiet = [...names.keys()].filter((text) => (runs.get(text) ?? 0) < KEEP_RUNS);
  for (const text of quiet) names.delete(text);
  if (quiet.length > 0) generation += 1;
  const waiting = [...runs]
    .filter(([text, count]) => count >= FREE_NAME_RUNS && !names.has(text))
    .sort((a, b) => b[1] - a[1]);
  for (const [text] of waiting) {
    if (names.size >= MAX_NAMED) break;
    giveName(text);
  }
  runs.clear();
  windowRuns = 0;
}

/** The name `text` runs under, if any. */
export const statementName = (text: string): string | undefined => (stopped ? undefined : names.get(text));

/** PostgreSQL's answers when a named statement met a server connection it was not prepared on. */
const NOT_PREPARED_HERE = new Set(['26000', '42P05']);

interface Queryable {
  query: (...args: unknown[]) => unknown;
  /** `pg`'s: 'I' idle, 'T' in a transaction, 'E' in a failed one. */
  getTransactionStatus?: () => string | null;
  /** `pg`'s record of the statements prepared on this connection, by name. */
  connection?: { parsedStatements?: Record<string, unknown> };
}

/**
 * Runs the named texts of `client` (a `pg` client) by name. A query given as text and values
 * whose text has a name becomes a named query; a failure that says the pooler moved it stops
 * naming, and outside a transaction runs it again as text.
 */
export function runNamedStatements(client: Queryable): void {
  const query = client.query.bind(client);
  let seen = generation;
  client.query = (...args: unknown[]) => {
    // between transactions (before a BEGIN, say), and only when this connection has one to close
    if (seen !== generation && client.getTransactionStatus?.() === 'I') {
      seen = generation;
      const prepared = client.connection?.parsedStatements;
      if (prepared && takenBackOf(prepared).length > 0) query(new CloseTakenBack());
    }
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

/** Names of this process's statements prepared on `prepared`'s connection and since taken back. */
function takenBackOf(prepared: Record<string, unknown>): string[] {
  const current = new Set(names.values());
  return Object.keys(prepared).filter((name) => name.startsWith(PREFIX) && !current.has(name));
}

interface PgConnection {
  parsedStatements: Record<string, unknown>;
  close: (message: { type: 'S'; name: string }) => void;
  sync: () => void;
  stream?: { cork?: () => void; uncork?: () => void };
}

/**
 * A query of `pg`'s own kind (a "submittable", like pg-cursor's) that closes the statements taken
 * back: a protocol Close of each, then Sync, so that PostgreSQL drops them and a pooler that
 * keeps prepared statements per client (PgBouncer's `max_prepared_statements`, which follows
 * Parse and Close but not SQL's DEALLOCATE) drops them too. Closing a name the server does not
 * have is no error, so nothing can fail halfway. What to close is decided when `pg` sends it,
 * after every query queued before it has been answered (`pg` without pipelining, as the pool
 * is), and `pg`'s record of the names is updated then: a name given again later is prepared
 * again, after the Close.
 */
class CloseTakenBack {
  /** Set by `pg` when it is given one (a client with `pg`'s own `query_timeout` sets its timer's): called once the Close is answered. */
  callback?: (error: Error | null) => void;
  submit(connection: PgConnection): null {
    connection.stream?.cork?.();
    try {
      for (const name of takenBackOf(connection.parsedStatements)) {
        delete connection.parsedStatements[name];
        connection.close({ type: 'S', name });
      }
      connection.sync();
    } finally {
      connection.stream?.uncork?.();
    }
    return null;
  }
  // the answers (CloseComplete, ReadyForQuery) carry nothing to report, but end the query for `pg`
  handleReadyForQuery(): void {
    this.done(null);
  }
  handleError(error: Error): void {
    this.done(error);
  }
  private answered = false;
  private done(error: Error | null): void {
    if (this.answered) return;
    this.answered = true;
    this.callback?.(error);
  }
  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/** For tests: the names given so far, and naming started again. */
export const namedStatements = (): ReadonlyMap<string, string> => names;
export function resetStatementNames(): void {
  names.clear();
  runs.clear();
  unnameable.clear();
  windowRuns = 0;
  generation += 1;
  stopped = false;
}
