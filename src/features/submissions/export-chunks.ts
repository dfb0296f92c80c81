import type { Position } from '../../platform/cursor.js';
import type { Db } from '../../platform/db/database.js';
import { decodeJson, type Engine, engineOf } from '../../platform/db/dialect.js';
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
 * Every matching submission, newest first, in chunks (`EXPORT_CHUNK_ROWS` unless asked
 * otherwise): a keyset cursor, so each chunk is one index range read however deep the export is,
 * and only the columns the exports write. Read by the exports and by the answers' statistics.
 *
 * On PostgreSQL the next chunk is asked for as soon as a chunk has arrived, before it is handed
 * on: the database reads it (on its own CPU) while the reader turns this one into text, where
 * the two took turns before (docs/decisions.md, "Exports read ahead on PostgreSQL"). So a reader
 * has a query in flight most of the time, and a second one for a moment when it asks for more
 * (an export's notes). SQLite answers within this process, on the same thread: asking ahead
 * would only keep two chunks alive instead of one.
 */
export async function* exportChunks(
  db: Db,
  filter: SubmissionFilter,
  chunk = EXPORT_CHUNK_ROWS[engineOf(db)],
): AsyncGenerator<ExportedSubmission[]> {
  if (filter.statuses.length === 0) return;
  const readChunk = (after: Position | undefined) => {
    const read = filtered(db, filter, after)
      .select(['id', 'created_at', 'status', 'read', 'starred', 'language', 'answers', 'session_id'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(chunk)
      .execute();
    // A chunk read ahead may fail while the reader waits at `yield` (a slow download holds it
    // there): handled here, it is reported when awaited, or never if the reader stops first,
    // rather than as an unhandled rejection in between.
    read.catch(() => undefined);
    return read;
  };
  const ahead = engineOf(db) === 'postgres';
  let next: ReturnType<typeof readChunk> | undefined = readChunk(undefined);
  while (next) {
    const rows = await next;
    next = undefined;
    const last = rows.at(-1);
    const position = rows.length === chunk && last ? { createdAt: last.created_at, id: last.id } : undefined;
    if (position && ahead) next = readChunk(position);
    yield rows.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      sessionId: row.session_id,
      status: row.status,
      read: Number(row.read) === 1,
      starred: Number(row.starred) === 1,
      language: row.language,
      answers: decodeJson<StoredAnswers>(row.answers),
    }));
    if (position && !ahead) next = readChunk(position);
  }
}
