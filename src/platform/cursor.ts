import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { badRequest } from './problem.js';

/**
 * Keyset cursors: the sort key of the last row of a page, opaque to clients.
 * Lists are newest first on (created_at desc, id desc), so a page is stable while rows
 * are added: new rows sort before the cursor, never into the pages after it.
 */
export interface Position {
  createdAt: string;
  id: string;
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    // Only what this API writes into a cursor gets through: it ends up in a query.
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      ISO_MS.test(value[0]) &&
      typeof value[1] === 'string' &&
      ID.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through: any undecodable cursor is the client's mistake
  }
  throw badRequest('invalid_parameter', 'The cursor is not one this API returned', {
    errors: [{ field: 'cursor', code: 'invalid', message: 'is not a valid cursor' }],
  });
}

/** Cuts a page of `limit + 1` rows down to `limit` and the cursor of what follows. */
export function toPage<T extends Position>(
  rows: T[],
  limit: number,
): { rows: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}

/**
 * Rows after `position` in the order (created_at desc, id desc), as a row-value comparison:
 * both engines turn `(created_at, id) < (?, ?)` into a range on a (…, created_at, id)
 * index, where the spelled-out `a < ? or (a = ? and b < ?)` makes them scan from the top.
 */
export function olderThan(position: Position): RawBuilder<SqlBool> {
  return sql<SqlBool>`(created_at, id) < (${position.createdAt}, ${position.id})`;
}
