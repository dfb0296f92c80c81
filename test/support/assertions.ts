import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Response, TestApp } from './app.js';

/** ISO 8601 UTC with milliseconds: the one timestamp format of the API. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The response is an RFC 9457 problem with this status and code (the failure shows both). */
export function expectProblem(response: Response, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.code }, response.text).toEqual({ status, code });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
  expect(typeof response.body.detail).toBe('string');
}

/** Every row of every table of this test's database, as one string (to search for what must not be stored). */
export async function dumpDatabase(t: TestApp): Promise<string> {
  const { db } = t.app.intake.database;
  const schema = t.config.databaseUrl ? t.config.databaseSchema : undefined;
  const tables =
    schema === undefined
      ? (await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name)
      : // this schema's tables alone, by the catalog's ids: Kysely's introspection resolves every
        // schema's tables by name, which fails when another test file drops its schema meanwhile
        (
          await sql<{ name: string }>`select c.relname as name from pg_catalog.pg_class c
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db)
        ).rows.map((row) => row.name);
  expect(tables).toEqual(expect.arrayContaining(['users', 'sessions', 'api_keys']));
  const dump: Record<string, unknown[]> = {};
  for (const table of tables) {
    dump[table] = await (db as any).selectFrom(table).selectAll().execute();
  }
  return JSON.stringify(dump);
}

/** How many submissions of this form are stored (read straight from the database). */
export async function storedCount(t: TestApp, formId: string): Promise<number> {
  const rows = await t.app.intake.database.db
    .selectFrom('submissions')
    .select('id')
    .where('form_id', '=', formId)
    .execute();
  return rows.length;
}
