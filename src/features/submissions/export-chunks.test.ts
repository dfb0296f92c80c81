import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { everyListed, insertRows } from '../../../test/support/export-rows.js';
import { createForm, signup } from '../../../test/support/factories.js';
import { exportPacer } from '../../platform/promoted-memory.js';
import { type ExportReading, exportChunks, openExportCursors } from './export-chunks.js';
import { listSubmissionsWithNotes } from './repo.js';

/**
 * How the exports read (export-chunks.ts): by keyset, a query a chunk, asked ahead on PostgreSQL;
 * through a cursor on PostgreSQL while few exports run and their readers keep up; the date range
 * bounding each page.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
});

afterAll(async () => {
  await t?.close();
});

/** Reading by keyset alone, as on SQLite and on PostgreSQL once the cursors are taken. */
const KEYSET: ExportReading = { cursors: 0, releaseAfterMs: 1000 };

/** A chunk as its rows' times. */
const timesOf = (chunk: readonly { createdAt: string }[]) => chunk.map((row) => row.createdAt);

describe('exportChunks by keyset, reading ahead on PostgreSQL', () => {
  it('asks PostgreSQL for the next chunk before handing one on (SQLite after), and a reader that stops leaves nothing behind', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const times = Array.from({ length: 5 }, (_, i) => `2026-04-0${i + 1}T12:00:00.000Z`);
    await insertRows(
      t,
      form,
      times.map((createdAt) => ({ createdAt })),
    );
    let queries = 0;
    const db = t.app.intake.database.db.withPlugin({
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    const filter = everyListed(form.id);
    const postgres = t.app.intake.database.engine === 'postgres';
    const asked: number[] = [];
    const pages: string[][] = [];
    for await (const chunk of exportChunks(db, filter, 2, KEYSET)) {
      asked.push(queries);
      pages.push(chunk.map((row) => row.createdAt));
    }
    expect(pages).toEqual([[times[4], times[3]], [times[2], times[1]], [times[0]]]);
    // PostgreSQL: when a chunk is handed on, the next one is asked for already (the last has none after it)
    expect(asked).toEqual(postgres ? [2, 3, 3] : [1, 2, 3]);

    // stopped after the first chunk (a download cancelled): the chunk asked ahead settles unawaited
    queries = 0;
    for await (const chunk of exportChunks(db, filter, 2, KEYSET)) {
      expect(chunk).toHaveLength(2);
      break;
    }
    expect(queries).toBe(postgres ? 2 : 1);
  });
});

describe('exportChunks by keyset when a chunk read ahead fails', () => {
  it('reports the failure to the reader when it asks for that chunk, never as an unhandled rejection meanwhile', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    await insertRows(
      t,
      form,
      Array.from({ length: 5 }, (_, i) => ({ createdAt: `2026-05-0${i + 1}T12:00:00.000Z` })),
    );
    let queries = 0;
    const db = t.app.intake.database.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries += 1;
        // the second chunk's read fails (the pool timed out, the database restarted)
        if (queries === 2) throw new Error('the database went away');
        return args.result;
      },
    });
    const filter = everyListed(form.id);
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      const chunks = exportChunks(db, filter, 2, KEYSET);
      expect((await chunks.next()).value).toHaveLength(2);
      // the reader held at its chunk (a slow download) while the read ahead fails
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(chunks.next()).rejects.toThrow('the database went away');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });
});

describe('reading a date range page by page (repo.ts exportChunks, the inbox list)', () => {
  it('bounds each page by the last one read, not by the range’s end', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const times = Array.from({ length: 7 }, (_, i) => `2026-03-0${i + 1}T12:00:00.000Z`);
    const ids = await insertRows(
      t,
      form,
      times.map((createdAt) => ({ createdAt })),
    );
    const queries: CompiledQuery[] = [];
    const original = t.app.intake.database.db;
    const recorder: KyselyPlugin = {
      transformQuery: (args) => {
        queries.push(original.getExecutor().compileQuery(args.node, args.queryId));
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const db = original.withPlugin(recorder);
    const filter = {
      formId: form.id,
      statuses: ['accepted', 'flagged'] as const,
      from: '2026-03-02T00:00:00.000Z',
      to: '2026-03-06T23:59:59.999Z',
      starred: undefined,
      read: undefined,
    };
    const pages: string[][] = [];
    for await (const chunk of exportChunks(db, filter, 2, KEYSET))
      pages.push(chunk.map((row) => row.createdAt));
    // 2 to 6 March, newest first, two a page
    expect(pages).toEqual([[times[5], times[4]], [times[3], times[2]], [times[1]]]);
    expect(queries).toHaveLength(3);
    // SQLite bounds its index scan by the plain comparisons on created_at, not by the row value
    // (created_at, id) < (…): without the page's own time as the upper bound, each page was read
    // from the range's end down to it, and a range read through took the square of its rows
    for (const [index, query] of queries.entries()) {
      const label = `page ${index + 1}`;
      if (index === 0) {
        expect(query.parameters, label).toContain(filter.to);
        continue;
      }
      const previousEnd = pages[index - 1]?.at(-1);
      expect(query.parameters.filter((value) => value === previousEnd).length, label).toBe(2);
      expect(query.parameters, label).not.toContain(filter.to);
    }
    // the inbox's pages too: a cursor earlier than the range's end bounds the page
    const list = await listSubmissionsWithNotes(db, filter, {
      limit: 2,
      after: { createdAt: times[4] as string, id: ids[4] as string },
    });
    expect(list.submissions.map((row) => row.createdAt)).toEqual([times[3], times[2], times[1]]);
    expect(queries.at(-1)?.parameters).not.toContain(filter.to);
    // a cursor later than the range's end (made by hand): the range still ends at `to`
    const forged = await listSubmissionsWithNotes(db, filter, {
      limit: 2,
      after: { createdAt: '2026-03-09T00:00:00.000Z', id: `sub_${'z'.repeat(26)}` },
    });
    expect(forged.submissions.map((row) => row.createdAt)).toEqual([times[5], times[4], times[3]]);
  });
});

describe('exportChunks through a cursor (PostgreSQL)', () => {
  const postgres = () => t.app.intake.database.engine === 'postgres';
  /** Cursors as the service reads, with a release far enough off that a slow machine never reaches it. */
  const CURSORS: ExportReading = { cursors: 2, releaseAfterMs: 60_000 };

  /** A form with `count` rows a day apart in `month`; their times, oldest first. */
  async function formWithRows(month: string, count: number) {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const times = Array.from({ length: count }, (_, i) => `${month}-0${i + 1}T12:00:00.000Z`);
    await insertRows(
      t,
      form,
      times.map((createdAt) => ({ createdAt })),
    );
    return { filter: everyListed(form.id), times };
  }

  /**
   * The database, counting the statements Kysely builds (the keyset's queries, the cursor's one)
   * and the answers that come back (those, and each FETCH, which is sent as it is); `fail` makes
   * the answer of that number fail, `failBuilding` the building of that statement.
   */
  function counting(fail?: { answer?: number; building?: number }) {
    const counts = { built: 0, answered: 0 };
    const db = t.app.intake.database.db.withPlugin({
      transformQuery: (args) => {
        counts.built += 1;
        if (counts.built === fail?.building) throw new Error('the statement could not be built');
        return args.node;
      },
      transformResult: async (args) => {
        counts.answered += 1;
        if (counts.answered === fail?.answer) throw new Error('the database went away');
        return args.result;
      },
    });
    return { db, counts };
  }

  it('reads the first chunk by keyset, the rest through a cursor of its own, every row once, newest first (SQLite by keyset)', async () => {
    const { filter, times } = await formWithRows('2026-07', 5);
    const { db, counts } = counting();
    const pages: string[][] = [];
    const open: number[] = [];
    for await (const chunk of exportChunks(db, filter, 2, CURSORS)) {
      pages.push(timesOf(chunk));
      open.push(openExportCursors());
    }
    expect(pages).toEqual([[times[4], times[3]], [times[2], times[1]], [times[0]]]);
    if (postgres()) {
      // open from the first chunk on, the one after it already fetched
      expect(open).toEqual([1, 1, 1]);
      // built: the first chunk's query and the cursor's; answered: those, and two FETCHes
      expect(counts).toEqual({ built: 2, answered: 4 });
    } else {
      expect(open).toEqual([0, 0, 0]);
      expect(counts).toEqual({ built: 3, answered: 3 });
    }
    expect(openExportCursors()).toBe(0);
  });

  it('reads one chunk or less with one query and no cursor (a small export, a form’s statistics)', async () => {
    const { filter, times } = await formWithRows('2026-06', 2);
    const { db, counts } = counting();
    const pages: string[][] = [];
    for await (const chunk of exportChunks(db, filter, 3, CURSORS)) {
      pages.push(timesOf(chunk));
      expect(openExportCursors()).toBe(0);
    }
    expect(pages).toEqual([[times[1], times[0]]]);
    expect(counts).toEqual({ built: 1, answered: 1 });
  });

  it('gives its connection back while its reader holds a chunk too long, then goes on by keyset from there', async () => {
    const { filter, times } = await formWithRows('2026-08', 5);
    const { db, counts } = counting();
    const chunks = exportChunks(db, filter, 2, { cursors: 2, releaseAfterMs: 30 });
    const first = await chunks.next();
    const pages = [timesOf(first.value)];
    expect(openExportCursors()).toBe(postgres() ? 1 : 0);
    // the reader stalls at its first chunk (a download that stopped reading): the timer ends the cursor's transaction
    await vi.waitFor(() => expect(openExportCursors()).toBe(0), { timeout: 5000, interval: 10 });
    for (let next = await chunks.next(); !next.done; next = await chunks.next())
      pages.push(timesOf(next.value));
    expect(pages).toEqual([[times[4], times[3]], [times[2], times[1]], [times[0]]]);
    // PostgreSQL: the first chunk's query, the cursor's, then two keyset chunks after the row it stopped at
    expect(counts.built).toBe(postgres() ? 4 : 3);
  });

  it('more exports at once than cursors: the others read by keyset, and each reads every row once', async () => {
    const { filter, times } = await formWithRows('2026-09', 5);
    const reading: ExportReading = { cursors: 1, releaseAfterMs: 60_000 };
    const byCursor = counting();
    const held = exportChunks(byCursor.db, filter, 2, reading);
    const pages = [timesOf((await held.next()).value)];
    const beside = counting();
    const besidePages: string[][] = [];
    for await (const chunk of exportChunks(beside.db, filter, 2, reading)) {
      besidePages.push(timesOf(chunk));
      expect(openExportCursors()).toBe(postgres() ? 1 : 0);
    }
    expect(beside.counts.built).toBe(3);
    for (let next = await held.next(); !next.done; next = await held.next()) pages.push(timesOf(next.value));
    const expected = [[times[4], times[3]], [times[2], times[1]], [times[0]]];
    expect(pages).toEqual(expected);
    expect(besidePages).toEqual(expected);
    expect(byCursor.counts.built).toBe(postgres() ? 2 : 3);
    expect(openExportCursors()).toBe(0);
  });

  it('a reader that stops, a FETCH that fails or a cursor that cannot be made gives the cursor and its connection back', async () => {
    const { filter, times } = await formWithRows('2026-10', 5);
    for await (const chunk of exportChunks(t.app.intake.database.db, filter, 2, CURSORS)) {
      expect(chunk).toHaveLength(2);
      break;
    }
    expect(openExportCursors()).toBe(0);
    // twelve times each: more than the pool's ten connections, so a connection left in its
    // transaction each time would leave none for the read after them
    for (let round = 0; round < 12; round++) {
      // the second chunk's read fails (PostgreSQL: the FETCH after the cursor's DECLARE)
      const { db } = counting({ answer: postgres() ? 3 : 2 });
      const chunks = exportChunks(db, filter, 2, CURSORS);
      expect((await chunks.next()).value).toHaveLength(2);
      await expect(chunks.next()).rejects.toThrow('the database went away');
      expect(openExportCursors()).toBe(0);
      // the second statement (PostgreSQL: the cursor's) cannot be made
      const unbuilt = exportChunks(counting({ building: 2 }).db, filter, 2, CURSORS);
      if (postgres()) await expect(unbuilt.next()).rejects.toThrow('the statement could not be built');
      else {
        expect((await unbuilt.next()).value).toHaveLength(2);
        await expect(unbuilt.next()).rejects.toThrow('the statement could not be built');
      }
      expect(openExportCursors()).toBe(0);
    }
    const pages: string[] = [];
    for await (const chunk of exportChunks(t.app.intake.database.db, filter, 2, CURSORS))
      pages.push(...timesOf(chunk));
    expect(pages).toEqual([...times].reverse());
  });

  it('checks the old generation once a chunk, by keyset and through a cursor (platform/promoted-memory.ts)', async () => {
    const { filter } = await formWithRows('2026-11', 5);
    let checks = 0;
    const start = vi.spyOn(exportPacer, 'start').mockImplementation(() => () => {
      checks += 1;
    });
    try {
      for (const reading of [KEYSET, CURSORS]) {
        checks = 0;
        let chunks = 0;
        for await (const _ of exportChunks(t.app.intake.database.db, filter, 2, reading)) chunks += 1;
        expect(chunks).toBe(3);
        expect(checks).toBe(3);
      }
      expect(start).toHaveBeenCalledTimes(2);
    } finally {
      start.mockRestore();
    }
  });
});
