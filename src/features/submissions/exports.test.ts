import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { everyListed, insertRows } from '../../../test/support/export-rows.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { assertDocumented } from '../../../test/support/openapi-check.js';
import { findForm } from '../forms/repo.js';
import { columnName, MAX_SHEET_ROWS, nthSheetName, sheetName, xlsxStream, xmlText } from './xlsx.js';

/**
 * GET /responses?format=xlsx|ndjson (API.md §6.2): the CSV's rows, filters, PII rules and access
 * in a workbook (read back with exceljs, an independent reader) and as NDJSON.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
});

afterAll(async () => {
  await t?.close();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function download(user: TestUser | undefined, formId: string, format: string, query = '') {
  const url = `/responses?form_id=${formId}&environment=development&format=${format}${query}`;
  const headers = user ? { authorization: `Bearer ${user.token}` } : {};
  const response = await t.app.inject({ method: 'GET', url, headers });
  // the raw bytes are needed here, so t.request's own check is made by hand
  assertDocumented(t.app, 'GET', url, response);
  return response;
}

/** A strict enough RFC 4180 reader for these tests' values (no quotes inside cells). */
function csvRows(text: string): string[][] {
  return text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.slice(1, -1).split('","'));
}

type Cell = string | number | boolean | Date | null;

async function xlsxRows(payload: Buffer): Promise<{ name: string; rows: Cell[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(payload as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const rows: Cell[][] = [];
  const width = sheet.getRow(1).cellCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: Cell[] = [];
    for (let i = 1; i <= width; i++) cells.push((row.getCell(i).value as Cell) ?? null);
    rows.push(cells);
  });
  return { name: sheet.name, rows };
}

function ndjsonRows(text: string): any[] {
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line));
}

async function submit(formId: string, answers: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('format=xlsx and format=ndjson', () => {
  it('serve attachments named after the form with their media types and extensions', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', title: 'Sign-up: café' });
    const today = new Date().toISOString().slice(0, 10);
    const xlsx = await download(user, form.id, 'xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX_TYPE);
    expect(xlsx.headers['content-disposition']).toContain(`filename="Sign-up- cafe ${today}.xlsx"`);
    const ndjson = await download(user, form.id, 'ndjson');
    expect(ndjson.statusCode).toBe(200);
    expect(ndjson.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(ndjson.headers['content-disposition']).toContain(`.ndjson"`);
    // an empty export: the header row alone; no lines at all
    const { name, rows } = await xlsxRows(xlsx.rawPayload);
    expect(name).toBe('Sign-up café');
    expect(rows).toEqual([
      ['id', 'createdAt', 'status', 'read', 'starred', 'language', 'name', 'email', 'topic', 'message'],
    ]);
    expect(ndjson.body).toBe('');
  });

  it('give the same rows, in the same order, as the CSV for the same filter', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'n', type: 'number', label: 'N' },
        { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['red', 'blue'] },
      ],
    });
    const ids = await insertRows(t, form, [
      { createdAt: '2026-03-01T10:00:00.000Z', answers: { n: 1, tags: ['red'] } },
      { createdAt: '2026-03-02T10:00:00.000Z', answers: { n: 2.5, tags: ['red', 'blue'] } },
      { createdAt: '2026-03-03T10:00:00.000Z', status: 'flagged', answers: { n: 3 } },
      { createdAt: '2026-03-04T10:00:00.000Z', answers: { n: 4 } },
      { createdAt: '2026-03-05T10:00:00.000Z', status: 'quarantined', answers: { n: 5 } },
    ]);
    const query = '&from=2026-03-02&to=2026-03-04';
    const csv = csvRows((await download(user, form.id, 'csv', query)).body);
    const { rows } = await xlsxRows((await download(user, form.id, 'xlsx', query)).rawPayload);
    const lines = ndjsonRows((await download(user, form.id, 'ndjson', query)).body);
    expect(csv.slice(1).map((row) => row[0])).toEqual([ids[3], ids[2], ids[1]]);
    expect(rows.slice(1).map((row) => row[0])).toEqual(csv.slice(1).map((row) => row[0]));
    expect(lines.map((line) => line.id)).toEqual(csv.slice(1).map((row) => row[0]));
    expect(rows[0]).toEqual(csv[0]);
    // typed cells: a date for createdAt, booleans, numbers; text as the CSV writes it
    expect(rows[3]).toEqual([
      ids[1],
      new Date('2026-03-02T10:00:00.000Z'),
      'accepted',
      false,
      false,
      null,
      2.5,
      'red; blue',
    ]);
    // NDJSON: each line as GET /responses lists it in data[]
    const listed = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development${query}`,
      auth: user.token,
    });
    expect(lines).toEqual(listed.body.data);
    // status filter too
    const quarantined = ndjsonRows((await download(user, form.id, 'ndjson', '&status=quarantined')).body);
    expect(quarantined.map((line) => line.id)).toEqual([ids[4]]);
  });

  it('show PII as the CSV does: masked masked, encrypted decrypted, hashed hashed, dropped absent', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'plain', type: 'text', label: 'Plain' },
        { id: 'email', type: 'email', label: 'E-mail', pii: true, piiMode: 'masked' },
        { id: 'ssn', type: 'text', label: 'SSN', pii: true, piiMode: 'encrypted' },
        { id: 'token', type: 'text', label: 'Token', pii: true, piiMode: 'hashed' },
        { id: 'gone', type: 'text', label: 'Gone', pii: true, piiMode: 'dropped' },
      ],
    });
    await submit(form.id, {
      plain: 'visible',
      email: 'jane@example.com',
      ssn: '123-45-6789',
      token: 'abc',
      gone: 'x',
    });
    const shown = [
      'visible',
      'j***@example.com',
      '123-45-6789',
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    ];
    const csv = csvRows((await download(user, form.id, 'csv')).body);
    expect(csv[1]?.slice(6)).toEqual([...shown, '']);
    const xlsx = await download(user, form.id, 'xlsx');
    const { rows } = await xlsxRows(xlsx.rawPayload);
    expect(rows[1]?.slice(6)).toEqual([...shown, null]);
    const ndjson = await download(user, form.id, 'ndjson');
    const [line] = ndjsonRows(ndjson.body);
    expect(line.answers).toEqual({ plain: shown[0], email: shown[1], ssn: shown[2], token: shown[3] });
    for (const body of [ndjson.body, xlsx.rawPayload.toString('latin1')]) {
      expect(body).not.toContain('jane@example.com');
    }
  });

  it('keep formula-looking text as text in XLSX, with no guard prefix; the CSV guards it', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'text', type: 'text', label: 'Text' }],
    });
    const values = ["=cmd|' /C calc'!A0", '+1+1', '@SUM(A1)', '-2', 'a <b> & "c"'];
    for (const text of values) await submit(form.id, { text });
    const { rows } = await xlsxRows(
      (await download(user, form.id, 'xlsx', '&headers=labels&notes=1')).rawPayload,
    );
    expect(rows[0]?.slice(6)).toEqual(['Text', 'notes']);
    const cells = rows.slice(1).map((row) => row[6]);
    expect(cells).toEqual([...values].reverse());
    for (const row of rows.slice(1))
      for (const cell of row)
        expect(typeof cell === 'object' && cell !== null && !(cell instanceof Date)).toBe(false);
    const csv = csvRows((await download(user, form.id, 'csv')).body);
    expect(csv.slice(1).map((row) => row[6])).toContain("'=cmd|' /C calc'!A0");
  });

  it('refuses an unknown format, and the spreadsheet options where they do nothing, with 400', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    for (const query of [
      '&format=pdf',
      '&format=XLSX',
      '&format=ndjson&headers=labels',
      '&format=xlsx&bom=1',
    ]) {
      const response = await t.request({
        method: 'GET',
        url: `/responses?form_id=${form.id}&environment=development${query}`,
        auth: user.token,
      });
      expectProblem(response, 400, 'invalid_parameter');
    }
  });

  it('refuse exactly as the CSV does: no credential, another workspace, another environment', async () => {
    const owner = await signup(t);
    const stranger = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live' });
    for (const format of ['xlsx', 'ndjson']) {
      for (const [user, environment] of [
        [undefined, 'development'],
        [stranger, 'development'],
        [owner, 'production'],
      ] as const) {
        const url = (f: string) => `/responses?form_id=${form.id}&environment=${environment}&format=${f}`;
        const headers = user ? { authorization: `Bearer ${user.token}` } : {};
        const csv = await t.app.inject({ method: 'GET', url: url('csv'), headers });
        const other = await t.app.inject({ method: 'GET', url: url(format), headers });
        expect(csv.statusCode).toBeGreaterThanOrEqual(400);
        expect([other.statusCode, other.headers['content-type'], other.json().code]).toEqual([
          csv.statusCode,
          csv.headers['content-type'],
          csv.json().code,
        ]);
      }
    }
  });

  it('stream a few thousand rows in both formats, all of them, newest first', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'n', type: 'number', label: 'N' },
        { id: 'text', type: 'textarea', label: 'Text' },
      ],
    });
    const total = 3_500;
    const base = Date.parse('2026-03-01T00:00:00.000Z');
    await insertRows(
      t,
      form,
      Array.from({ length: total }, (_, i) => ({
        createdAt: new Date(base + i * 1000).toISOString(),
        answers: { n: i, text: `row ${i}` },
      })),
    );
    const streamed = await t.app.inject({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&format=xlsx`,
      headers: { authorization: `Bearer ${user.token}` },
      payloadAsStream: true,
    });
    expect(streamed.headers['content-length']).toBeUndefined();
    const parts: Buffer[] = [];
    for await (const part of streamed.stream() as Readable) parts.push(part as Buffer);
    // written as the rows came: more than one piece
    expect(parts.length).toBeGreaterThan(2);
    const { rows } = await xlsxRows(Buffer.concat(parts));
    expect(rows).toHaveLength(total + 1);
    expect(rows[1]?.[6]).toBe(total - 1);
    expect(rows[total]?.[6]).toBe(0);
    const lines = ndjsonRows((await download(user, form.id, 'ndjson')).body);
    expect(lines).toHaveLength(total);
    expect(lines.map((line) => line.answers.n)).toEqual(
      Array.from({ length: total }, (_, i) => total - 1 - i),
    );
  });
});

describe('back-pressure', () => {
  it.each(['xlsx', 'ndjson'])(
    'format=%s: a reader that stops reading stops the database reads',
    async (format) => {
      const user = await signup(t);
      const form = await createForm(t, user.token, {
        status: 'live',
        fields: [{ id: 'text', type: 'textarea', label: 'Text' }],
      });
      const total = 12_000;
      const base = Date.parse('2026-03-01T00:00:00.000Z');
      await insertRows(
        t,
        form,
        Array.from({ length: total }, (_, i) => ({
          createdAt: new Date(base + i * 1000).toISOString(),
          // random text, so deflate cannot shrink a chunk to nothing
          answers: { text: `${i} ${Math.random().toString(36).repeat(4)}` },
        })),
      );
      const database = t.app.intake.database;
      const original = database.db;
      let rowsRead = 0;
      const counter: KyselyPlugin = {
        transformQuery: (args) => args.node,
        transformResult: async (args) => {
          const first = args.result.rows[0] as Record<string, unknown> | undefined;
          if (first && 'answers' in first) rowsRead += args.result.rows.length;
          return args.result;
        },
      };
      database.db = original.withPlugin(counter);
      try {
        const response = await t.app.inject({
          method: 'GET',
          url: `/responses?form_id=${form.id}&environment=development&format=${format}`,
          headers: { authorization: `Bearer ${user.token}` },
          payloadAsStream: true,
        });
        expect(response.statusCode).toBe(200);
        const chunks = (response.stream() as Readable)[Symbol.asyncIterator]();
        await chunks.next();
        // a fixed wait on purpose: the pause in which the export must NOT run ahead
        await new Promise((resolve) => setTimeout(resolve, 300));
        // stalled: a few chunks ahead at most (what the stream buffers hold), none more after a second pause
        const readWhilePaused = rowsRead;
        expect(readWhilePaused).toBeLessThan(total / 2);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(rowsRead).toBe(readWhilePaused);
        let bytes = 0;
        for (let next = await chunks.next(); !next.done; next = await chunks.next())
          bytes += next.value.length;
        expect(bytes).toBeGreaterThan(0);
        expect(rowsRead).toBe(total);
      } finally {
        database.db = original;
      }
    },
  );
});

describe('XLSX past a sheet’s rows', () => {
  it('goes on in the next sheet, each with the header row, every row once and in order', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      title: 'A form whose title is longer than a sheet name',
      status: 'live',
      fields: [{ id: 'n', type: 'number', label: 'N' }],
    });
    await insertRows(
      t,
      form,
      Array.from({ length: 5 }, (_, i) => ({
        createdAt: `2026-06-0${i + 1}T12:00:00.000Z`,
        answers: { n: i },
      })),
    );
    const stored = await findForm(t.app.intake.database.db, form.id);
    if (!stored) throw new Error('the form is gone');
    const filter = everyListed(form.id);
    // three rows a sheet: the header and two answers
    const parts: Buffer[] = [];
    const stream = xlsxStream(
      t.app.intake.database.db,
      t.app.intake.envelope,
      stored,
      filter,
      undefined,
      undefined,
      3,
    );
    for await (const part of stream) parts.push(part as Buffer);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(parts) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'A form whose title is longer th',
      'A form whose title is longe (2)',
      'A form whose title is longe (3)',
    ]);
    const sheets = workbook.worksheets.map((sheet) => {
      const rows: unknown[][] = [];
      sheet.eachRow((row) => rows.push([row.getCell(1).value, row.getCell(7).value]));
      return rows;
    });
    for (const rows of sheets) expect(rows[0]).toEqual(['id', 'n']);
    // newest first across the sheets, none twice
    expect(sheets.map((rows) => rows.slice(1).map((row) => row[1]))).toEqual([[4, 3], [2, 1], [0]]);
    expect(new Set(sheets.flatMap((rows) => rows.slice(1).map((row) => row[0]))).size).toBe(5);
  });

  it('names the sheets after the form, cut to fit Excel’s 31 characters; a sheet holds Excel’s rows', () => {
    expect(nthSheetName('Sign-up', 1)).toBe('Sign-up');
    expect(nthSheetName('Sign-up', 2)).toBe('Sign-up (2)');
    expect(nthSheetName('x'.repeat(40), 12)).toBe(`${'x'.repeat(26)} (12)`);
    expect(nthSheetName('x'.repeat(40), 12)).toHaveLength(31);
    expect(MAX_SHEET_ROWS).toBe(1_048_576);
  });
});

describe('XLSX pieces', () => {
  it('names columns A..Z, AA.., and sheets as Excel allows', () => {
    expect([0, 25, 26, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(sheetName('a/b: [c]?')).toBe('a b c');
    expect(sheetName("'quoted'")).toBe('quoted');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
    expect(sheetName('  ')).toBe('Responses');
    expect(sheetName('History')).toBe('Responses');
  });

  it('writes text XML can hold: control characters out, specials escaped, over-long cells cut', () => {
    expect(xmlText('a\u0000b\u0007c\td\n')).toBe('ab' + 'c\td\n');
    expect(xmlText('<&>"')).toBe('&lt;&amp;&gt;&quot;');
    // Excel reads _xHHHH_ as an escaped character (exceljs does not, so this is checked here)
    expect(xmlText('a_x0041_b')).toBe('a_x005F_x0041_b');
    expect(xmlText('x'.repeat(40_000))).toHaveLength(32_767);
  });
});
