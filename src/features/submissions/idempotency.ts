import type { FastifyRequest } from 'fastify';
import type { Db, Trx } from '../../platform/db/database.js';
import { decodeJson, encodeJson } from '../../platform/db/dialect.js';
import { sha256Hex } from '../../platform/hashing.js';
import { badRequest, conflict } from '../../platform/problem.js';

/**
 * `Idempotency-Key` (or `X-Idempotency-Key`) on submit (API.md §6.1): the first result of a
 * key, per form, is kept 24 hours with a hash of the request; the same key and body
 * within that time gets that result again and stores nothing; the same key with another
 * body is 409. The key is recorded in the submission's own transaction, so of concurrent
 * requests with one key exactly one stores a submission and the others answer with its
 * result. Only successes are recorded: a refused request may be retried as it is.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface Idempotency {
  key: string;
  requestHash: string;
}

/** What a key answered: the status and body of the first response. */
interface StoredResponse<T> {
  status: number;
  body: T;
}

/** Thrown inside the transaction when another request already holds the key. */
export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('the idempotency key is taken');
  }
}

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * JSON with sorted keys: the same document hashes the same whatever its key order. A string
 * `sameFiles` names (the upload id a post's own file became) counts as that file's content
 * instead: a multipart post sent again makes new uploads of the same bytes, and is the same request.
 */
function canonical(value: unknown, sameFiles?: ReadonlyMap<string, string>): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, sameFiles)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map(
        (key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key], sameFiles)}`,
      );
    return `{${entries.join(',')}}`;
  }
  if (typeof value === 'string' && sameFiles?.has(value)) return JSON.stringify(sameFiles.get(value));
  return JSON.stringify(value) ?? 'null';
}

/**
 * What a post's own files count as in its hash: each upload id its bytes and name
 * (`file:<sha256>:<name>`), not the id a retry's new upload gets.
 */
export const fileIdentities = (
  files: readonly { uploadId: string; sha256: string; name: string }[],
): ReadonlyMap<string, string> | undefined =>
  // (a post without files, most of them, builds nothing on the submit path)
  files.length === 0
    ? undefined
    : new Map(files.map((file) => [file.uploadId, `file:${file.sha256}:${file.name}`]));

/** The `Idempotency-Key` (or `X-Idempotency-Key`) a request sends, checked; undefined when it sends none. */
export function requestedIdempotencyKey(request: FastifyRequest): string | undefined {
  const headers = ['idempotency-key', 'x-idempotency-key'] as const;
  const values = headers.map((name) => request.headers[name]).filter((value) => value !== undefined);
  if (values.length === 0) return undefined;
  const [key] = values;
  const invalid = (message: string) =>
    badRequest('invalid_parameter', `Idempotency-Key ${message}`, {
      errors: [{ field: 'Idempotency-Key', code: 'format', message }],
    });
  if (typeof key !== 'string' || values.some((value) => value !== key)) {
    throw invalid('must be sent once (as Idempotency-Key or X-Idempotency-Key)');
  }
  if (!KEY.test(key)) throw invalid('must be 1 to 255 visible ASCII characters');
  return key;
}

/** The key of this request and the hash of its body, or undefined when it sends none. */
export function idempotencyOf(
  request: FastifyRequest,
  sameFiles?: ReadonlyMap<string, string>,
): Idempotency | undefined {
  const key = requestedIdempotencyKey(request);
  if (key === undefined) return undefined;
  return { key, requestHash: sha256Hex(canonical(request.body, sameFiles)) };
}

/**
 * The idempotency of a hosted page's post: the key the page generated when it was rendered
 * (carried in a hidden input), and the hash of what it sends to `SubmissionService.submit`.
 * Undefined for a key that is not one (a page post never fails on it: it is stored without one).
 */
export function idempotencyFor(
  key: string | undefined,
  body: unknown,
  sameFiles?: ReadonlyMap<string, string>,
): Idempotency | undefined {
  if (key === undefined || !KEY.test(key)) return undefined;
  return { key, requestHash: sha256Hex(canonical(body, sameFiles)) };
}

/**
 * The result recorded under this key within the last 24 hours, when the request is the
 * same; 409 when the key came with another body. Undefined when the key is new (or expired).
 */
export async function earlierResult<T>(
  db: Db | Trx,
  formId: string,
  idempotency: Idempotency,
  now = Date.now(),
): Promise<T | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response'])
    .where('form_id', '=', formId)
    .where('key', '=', idempotency.key)
    .where('created_at', '>=', new Date(now - IDEMPOTENCY_TTL_MS).toISOString())
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== idempotency.requestHash) {
    throw conflict(
      'This Idempotency-Key was used with a different request within 24 hours; use a new key for a new request',
    );
  }
  return decodeJson<StoredResponse<T>>(row.response).body;
}

/**
 * Records the key with its result in the submission's transaction: inserted, or taking
 * the place of an expired one. Throws IdempotencyKeyTaken when a live one exists (on
 * PostgreSQL the insert waits for a concurrent holder to commit or roll back first).
 */
export async function recordResult(
  trx: Trx,
  formId: string,
  idempotency: Idempotency,
  result: { createdAt: string },
): Promise<void> {
  const row = {
    form_id: formId,
    key: idempotency.key,
    request_hash: idempotency.requestHash,
    response: encodeJson({ status: 201, body: result } satisfies StoredResponse<unknown>),
    created_at: result.createdAt,
  };
  const expired = new Date(Date.parse(result.createdAt) - IDEMPOTENCY_TTL_MS).toISOString();
  const outcome = await trx
    .insertInto('idempotency_keys')
    .values(row)
    .onConflict((conflict) =>
      conflict
        .columns(['form_id', 'key'])
        .doUpdateSet({
          request_hash: row.request_hash,
          response: row.response,
          created_at: row.created_at,
        })
        .where('idempotency_keys.created_at', '<', expired),
    )
    .executeTakeFirst();
  if (Number(outcome.numInsertedOrUpdatedRows ?? 0) === 0) throw new IdempotencyKeyTaken();
}

/** The result of the request that took the key first (and committed before this one was refused). */
export async function resultOfHolder<T>(db: Db, formId: string, idempotency: Idempotency): Promise<T> {
  const earlier = await earlierResult<T>(db, formId, idempotency);
  if (earlier === undefined) {
    throw conflict('This Idempotency-Key is held by a request still under way; retry in a moment');
  }
  return earlier;
}

/** Waits for the submission's transaction: true when it was refused because the key was taken. */
export function keyWasTaken(transaction: Promise<unknown>): Promise<boolean> {
  return transaction.then(
    () => false,
    (error: unknown) => {
      if (error instanceof IdempotencyKeyTaken) return true;
      throw error;
    },
  );
}
