import { CompiledQuery, type ControlledTransaction } from 'kysely';
import type { Position } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import { decodeJson, type Engine, engineOf } from '../../platform/db/dialect.js';
import type { Schema } from '../../platform/db/schema.js';
import { exportPacer } from '../../platform/promoted-memory.js';
import type { StoredAnswers } from './pii.js';
import { filtered, type SubmissionFilter } from './repo.js';
import type { SubmissionStatus } from './schemas.js';

/** What the exports (CSV, XLSX, NDJSON) write of a submission: nothing else is read. */
export interface ExportedSubmission {
  id: string;
  createdAt: string;
  sessionId: string | null;
  status: SubmissionStatus;
  read: boolean;
  starred: boolean;
  language: string | null;
  answers: StoredAnswers;
}

/**
 * Rows an export reads, turns into its format and writes at a time: one query and one socket
 * write each. On SQLite a query is a call within the process, so a small chunk costs nothing and
 * keeps fewer rows alive at each young-generation collection, which moves them to the old
 * generation: a fresh service exporting 1M rows as CSV grew by 137–157 MiB at 1000 rows a chunk
 * and 72 MiB at 250 (39 MiB with `npm start`'s semi-space cap), the XLSX's old generation by
 * ~5 MiB a second at 1000 and not at 250. On PostgreSQL each chunk is a round trip: 250 made
 * the CSV 11 % slower (143,247 rows/s against 160,606) for no memory saved.
 */
export const EXPORT_CHUNK_ROWS: Readonly<Record<Engine, number>> = { sqlite: 250, postgres: 1000 };

/**
 * How PostgreSQL exports read (tests make the numbers small). An export reads through a cursor
 * of its own, in a read-only transaction on one connection of the pool, while it can: at most
 * `cursors` exports at once (the pool has 10 connections, which the submit path needs more), and
 * only while its reader keeps up; the others read by keyset, a query a chunk, each on whichever
 * connection is free.
 */
export interface ExportReading {
  /** Exports reading through a cursor at once, in this process. */
  cursors: number;
  /** A chunk held by its reader this long (a slow download, a stalled one) gives the cursor's connection back. */
  releaseAfterMs: number;
}

export const EXPORT_READING: ExportReading = { cursors: 2, releaseAfterMs: 1000 };

let cursorsOpen = 0;

/** Exports reading through a cursor now (tests). */
export const openExportCursors = () => cursorsOpen;

/**
 * Every matching submission, newest first, in chunks (`EXPORT_CHUNK_ROWS` unless asked
 * otherwise), only the columns the exports write. Read by the exports and by the answers'
 * statistics; each chunk checked against the old generation's growth (platform/promoted-memory.ts).
 *
 * The first chunk by keyset. On PostgreSQL, when it came back full (more may follow), the rest
 * through a cursor while one is free (`ExportReading`), and by keyset from where the cursor stopped
 * once it gave its connection back: one FETCH a chunk against one query a chunk, which PostgreSQL
 * plans and starts again at its place in the index each time (1M rows: 124–168k rows/s by keyset,
 * 144–192k through a cursor, measured alternately on one schema). A read of one chunk or less (a
 * small form's export, its statistics) is one query, as before, and takes no cursor. On SQLite by
 * keyset: a query is a call within the process, and a cursor would hold the one connection every
 * writer shares.
 */
export async function* exportChunks(
  db: Db,
  filter: SubmissionFilter,
  chunk = EXPORT_CHUNK_ROWS[engineOf(db)],
  reading: ExportReading = EXPORT_READING,
): AsyncGenerator<ExportedSubmission[]> {
  if (filter.statuses.length === 0) return;
  const pace = exportPacer.start();
  const first = await readChunk(db, filter, chunk, undefined);
  if (
    first.length === chunk &&
    engineOf(db) === 'postgres' &&
    !db.isTransaction &&
    cursorsOpen < reading.cursors
  ) {
    const stopped = yield* throughCursor(db, filter, chunk, reading.releaseAfterMs, pace, first);
    if (stopped) yield* byKeyset(db, filter, chunk, readChunk(db, filter, chunk, stopped), pace);
    return;
  }
  yield* byKeyset(db, filter, chunk, Promise.resolve(first), pace);
}

/** The export's query: every matching submission after `after`, newest first. */
const exportQuery = (db: Db, filter: SubmissionFilter, after: Position | undefined) =>
  filtered(db, filter, after)
    .select(['id', 'created_at', 'status', 'read', 'starred', 'language', 'answers', 'session_id'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');

type ExportRow = Awaited<ReturnType<ReturnType<typeof exportQuery>['execute']>>[number];

const exported = (row: ExportRow): ExportedSubmission => ({
  id: row.id,
  createdAt: row.created_at,
  sessionId: row.session_id,
  status: row.status,
  read: Number(row.read) === 1,
  starred: Number(row.starred) === 1,
  language: row.language,
  answers: decodeJson<StoredAnswers>(row.answers),
});

const positionOf = (row: ExportRow): Position => ({ createdAt: row.created_at, id: row.id });

/** A read asked for ahead of its reader: a failure is reported when awaited, never as an unhandled rejection meanwhile. */
function ahead<T>(read: Promise<T>): Promise<T> {
  // A chunk read ahead may fail while the reader waits at `yield` (a slow download holds it
  // there): handled here, it is reported when awaited, or never if the reader stops first.
  read.catch(() => undefined);
  return read;
}

/** A chunk by keyset, after `from` (or the newest). */
const readChunk = (db: Db, filter: SubmissionFilter, chunk: number, from: Position | undefined) =>
  ahead(exportQuery(db, filter, from).limit(chunk).execute());

/**
 * PostgreSQL: `first` (a full chunk read by keyset), then the rows after it through a cursor, the
 * next chunk fetched as soon as one has been handed on (the database reads while the reader
 * writes). Gives its connection back once a chunk has been held `releaseAfterMs` (a timer, so a
 * stalled reader gives it back too) and then answers where it stopped; undefined once every row
 * was read.
 */
async function* throughCursor(
  db: Db,
  filter: SubmissionFilter,
  chunk: number,
  releaseAfterMs: number,
  pace: () => void,
  first: ExportRow[],
): AsyncGenerator<ExportedSubmission[], Position | undefined> {
  cursorsOpen += 1;
  let ended: Promise<void> | undefined;
  let trx: ControlledTransaction<Schema> | undefined;
  // read-only: a rollback ends it as a commit would, and closes the cursor
  const end = () => {
    ended ??= (async () => {
      try {
        await trx?.rollback().execute();
      } catch {
        // the connection broke: the pool drops it, and the transaction died with it
      } finally {
        cursorsOpen -= 1;
      }
    })();
    return ended;
  };
  try {
    trx = await db.startTransaction().setAccessMode('read only').execute();
    const after = positionOf(first.at(-1) as ExportRow);
    const query = exportQuery(trx, filter, after).compile();
    await trx.executeQuery(
      CompiledQuery.raw(`declare intake_export no scroll cursor for ${query.sql}`, [...query.parameters]),
    );
    const fetch = CompiledQuery.raw(`fetch forward ${chunk} from intake_export`) as CompiledQuery<ExportRow>;
    const open = trx;
    const fetchNext = () => ahead(open.executeQuery(fetch).then(({ rows }) => rows));
    let rows = first;
    let next: Promise<ExportRow[]> | undefined = fetchNext();
    for (;;) {
      const last = rows.at(-1);
      if (!last) return undefined;
      const held = setTimeout(end, releaseAfterMs);
      held.unref();
      try {
        yield rows.map(exported);
      } finally {
        clearTimeout(held);
      }
      pace();
      // the chunk handed on was the last
      if (!next) return undefined;
      if (ended) {
        await ended;
        return positionOf(last);
      }
      rows = await next;
      next = rows.length === chunk ? fetchNext() : undefined;
    }
  } finally {
    await end();
  }
}

/**
 * The rows by keyset, from the chunk `first` will be, so each chunk is one index range read however
 * deep the export is. On PostgreSQL the next chunk is asked for as soon as a chunk has arrived,
 * before it is handed on (docs/decisions.md, "Exports read ahead on PostgreSQL"); SQLite answers
 * within this process, on the same thread: asking ahead would only keep two chunks alive.
 */
async function* byKeyset(
  db: Db,
  filter: SubmissionFilter,
  chunk: number,
  first: Promise<ExportRow[]>,
  pace: () => void,
): AsyncGenerator<ExportedSubmission[]> {
  const readAhead = engineOf(db) === 'postgres';
  let next: Promise<ExportRow[]> | undefined = first;
  while (next) {
    const rows = await next;
    next = undefined;
    const last = rows.at(-1);
    const position = rows.length === chunk && last ? positionOf(last) : undefined;
    if (position && readAhead) next = readChunk(db, filter, chunk, position);
    if (rows.length > 0) {
      yield rows.map(exported);
      pace();
    }
    if (position && !readAhead) next = readChunk(db, filter, chunk, position);
  }
}
