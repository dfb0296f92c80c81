import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { newId } from '../ids.js';
import type { Database } from './database.js';
import { insertRows } from './insert.js';
import type { SubmissionsTable } from './schema.js';

/**
 * insertRows reuses the SQL of an insert's shape (table, columns, rows) after Kysely built it
 * once: whatever path a call takes, the rows stored are the rows given, value for value.
 */
describe('insertRows', () => {
  let t: TestApp;
  let owner: TestUser;
  let database: Database;
  let formId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signup(t);
    database = t.app.intake.database;
    formId = (await createForm(t, owner.token)).id;
  });
  afterAll(async () => t.close());

  let sequence = 0;
  const rowOf = (overrides: Partial<SubmissionsTable> = {}): SubmissionsTable => {
    sequence++;
    return {
      id: newId('sub'),
      workspace_id: owner.workspaceId,
      environment: 'production',
      form_id: formId,
      form_version: sequence,
      answers: JSON.stringify({ n: sequence }),
      session_id: `session-${sequence}`,
      status: sequence % 2 ? 'accepted' : 'quarantined',
      read: sequence % 2,
      starred: (sequence + 1) % 2,
      created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, sequence)).toISOString(),
      language: sequence % 3 ? 'en' : null,
      ...overrides,
    };
  };

  const stored = async (ids: string[]) =>
    (
      await database.db.selectFrom('submissions').selectAll().where('id', 'in', ids).orderBy('id').execute()
    ).map((row) => ({
      ...row,
      form_version: Number(row.form_version),
      read: Number(row.read),
      starred: Number(row.starred),
    }));
  const sorted = (rows: SubmissionsTable[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

  it('stores every value in its column, the first time a shape is seen and when its SQL is reused', async () => {
    for (let round = 0; round < 3; round++) {
      const rows = Array.from({ length: 4 }, () => rowOf());
      await database.transaction((trx) => insertRows(trx, 'submissions', rows));
      expect(await stored(rows.map((row) => row.id))).toEqual(sorted(rows));
    }
  });

  it('keeps shapes apart: other numbers of rows and another order of the same columns', async () => {
    const one = [rowOf()];
    const reordered = Array.from({ length: 4 }, () => {
      const { language, answers, ...rest } = rowOf();
      return { language, ...rest, answers };
    });
    const again = Array.from({ length: 4 }, () => rowOf());
    for (const rows of [one, reordered, again]) {
      await database.transaction((trx) => insertRows(trx, 'submissions', rows));
      expect(await stored(rows.map((row) => row.id))).toEqual(sorted(rows as SubmissionsTable[]));
    }
  });

  it('stores rows that leave a column out (the column left to its default, NULL here) among full ones', async () => {
    const full = Array.from({ length: 3 }, () => rowOf({ language: 'fr' }));
    const { language: _left, ...partial } = rowOf();
    const rows = [full[0], partial, full[1], full[2]] as SubmissionsTable[];
    await database.transaction((trx) => insertRows(trx, 'submissions', rows));
    expect(await stored(rows.map((row) => row.id))).toEqual(
      sorted([...full, { ...partial, language: null }]),
    );
    // the same shape whole again: a cached text must not have been made from the partial one
    const whole = [rowOf(), rowOf(), rowOf(), rowOf()];
    await database.transaction((trx) => insertRows(trx, 'submissions', whole));
    expect(await stored(whole.map((row) => row.id))).toEqual(sorted(whole));
    // the first row the one without: the later rows' values of that column are kept all the same
    const { language: _none, ...first } = rowOf();
    const later = [rowOf({ language: 'de' }), rowOf({ language: 'it' })];
    const mixed = [first, ...later] as SubmissionsTable[];
    await database.transaction((trx) => insertRows(trx, 'submissions', mixed));
    expect(await stored(mixed.map((row) => row.id))).toEqual(
      sorted([{ ...first, language: null }, ...later]),
    );
  });

  it('splits more than 500 rows into several statements', async () => {
    const rows = Array.from({ length: 1_203 }, () => rowOf());
    await database.transaction((trx) => insertRows(trx, 'submissions', rows));
    expect(await stored(rows.map((row) => row.id))).toEqual(sorted(rows));
  });
});
