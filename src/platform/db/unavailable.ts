import type { FastifyBaseLogger } from 'fastify';
import { Problem } from '../problem.js';
import { READ_TIMEOUT } from './pg-queries.js';

/**
 * Errors that mean "the storage cannot serve right now", not "this request is wrong" nor
 * "Intake has a bug": the database unreachable, restarting or out of resources, the disk
 * full or failing. Requests that meet one are answered 503 `service_unavailable` with
 * `Retry-After` (API.md §10) instead of 500, and periodic jobs back off and try again.
 */

/** Seconds a client is told to wait before retrying while the storage is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

/** Socket-level failures, as Node and `pg` name them. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: the connection exceptions of class 08
 * (not 08P01, a protocol violation: a bug or a misconfiguration, not an outage), class 53
 * (insufficient resources: disk full, out of memory, too many connections), 57P01–57P05 (shut
 * down, crashed, starting up, idle too long), 57014 (a statement timeout ran out), class 58
 * (system error: I/O), 25006 (a read-only transaction: a standby just after a failover), 25P03
 * (a session ended by the server's `idle_in_transaction_session_timeout`: an export's cursor held
 * past a setting shorter than its own release), and
 * 40001/40P01 (a serialization failure, a deadlock: the retry is what the server asks for).
 */
const PG_UNAVAILABLE = /^(?:080(?:00|01|03|04|06)|53\w{3}|57P0[1-5]|57014|58\w{3}|25006|25P03|40001|40P01)$/;

/** Messages `pg` (and Kysely) give to connection failures that carry no code. */
const PG_MESSAGES = [
  'Connection terminated',
  'connection timeout',
  'timeout exceeded when trying to connect',
  READ_TIMEOUT,
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Connection closed',
  'the database system is',
];

/**
 * SQLite result codes (better-sqlite3's `code`, extended codes included) of a storage that
 * cannot take the write now: disk full, an I/O error, out of memory, locked past the busy
 * timeout, the file gone.
 */
const SQLITE_UNAVAILABLE = /^SQLITE_(?:FULL|IOERR|NOMEM|BUSY|CANTOPEN|PROTOCOL|READONLY)/;

export function isStorageUnavailable(error: unknown): boolean {
  if (error instanceof StorageUnavailable) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code)) return true;
  }
  // The driver's own filesystem errors (fdatasync of the WAL, say) come as Node system errors.
  if (typeof code === 'string' && ['ENOSPC', 'EIO', 'EDQUOT', 'EROFS'].includes(code)) return true;
  if (typeof message === 'string' && PG_MESSAGES.some((text) => message.includes(text))) return true;
  // AggregateError (a connect to several addresses that all failed), or an error wrapping its cause
  const nested = (error as { errors?: unknown; cause?: unknown }).errors;
  if (Array.isArray(nested) && nested.length > 0 && nested.every(isStorageUnavailable)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isStorageUnavailable(cause);
}

/**
 * A wait that ran out (a statement timeout, a query the client stopped waiting for): an outage
 * when the database hangs, but also what a slow query looks like, so it is logged as an error.
 */
export function isTimeout(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '57014' || message === READ_TIMEOUT;
}

/** Thrown where Intake itself decides the storage cannot serve (a full queue, a deadline). */
export class StorageUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterS = UNAVAILABLE_RETRY_AFTER_S,
  ) {
    super(message);
  }
}

function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === '53100';
}

/** The 503 answered for an error `isStorageUnavailable` recognises. */
export function unavailableProblem(error: unknown): Problem {
  const retryAfter = error instanceof StorageUnavailable ? error.retryAfterS : UNAVAILABLE_RETRY_AFTER_S;
  const detail =
    error instanceof StorageUnavailable
      ? error.message
      : isDiskFull(error)
        ? 'The storage is full; retry later (with the same Idempotency-Key, if you sent one)'
        : 'The database cannot take this request now; retry later (with the same Idempotency-Key, if you sent one)';
  return new Problem(503, 'service_unavailable', detail, {
    headers: { 'retry-after': String(retryAfter) },
  });
}

/**
 * Logs a failure of background work: an outage (expected while it lasts, and retried) as one
 * warning line; anything else, and a timeout (a slow query looks the same), as an error with
 * its stack.
 */
export function logFailure(
  logger: FastifyBaseLogger,
  error: unknown,
  message: string,
  fields: Record<string, unknown> = {},
): void {
  if (isStorageUnavailable(error) && !isTimeout(error)) {
    logger.warn({ ...fields, err: error instanceof Error ? error.message : String(error) }, message);
  } else {
    logger.error({ ...fields, err: error }, message);
  }
}
