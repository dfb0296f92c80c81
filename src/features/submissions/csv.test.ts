import type { Readable } from 'node:stream';
import fc from 'fast-check';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { expectProblem } from '../../../test/support/assertions.js';
import { insertRows } from '../../../test/support/export-rows.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { newId } from '../../platform/ids.js';
import { csvFileName, csvRecord, guardCell } from './csv.js';

/** GET /responses?…&format=csv (API.md §6.2): RFC 4180, formula-injection guard, PII, filters, streaming. */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimitPublic: 1_000_000 });
});

afterAll(async () => {
  await t?.close();
});

const HEADER = ['id', 'createdAt', 'status', 'read', 'starred', 'language'];

/** A strict RFC 4180 reader: CRLF between records, `"` quoting with `""` for a quote. */
function parseCsv(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      // a bare quote, CR or LF outside quotes is not RFC 4180
      expect(['"', '\r', '\n']).not.toContain(c);
      cell += c;
    }
  }
  return rows;
}

async function exportCsv(user: TestUser, formId: string, query = '') {
  return t.request({
    method: 'GET',
    url: `/responses?form_id=${formId}&environment=development&format=csv${query}`,
    auth: user.token,
  });
}

/** The export as records keyed by column name (header checked separately). */
async function exportRecords(user: TestUser, formId: string, query = '') {
  const response = await exportCsv(user, formId, query);
  expect(response.status, response.text).toBe(200);
  const [header = [], ...rows] = parseCsv(response.text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

async function submit(formId: string, answers: Record<string, unknown>) {
  const response = await t.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
  expect(response.status, response.text).toBe(201);
  return response.body;
}

describe('format=csv', () => {
  it('answers text/csv as an attachment with the header row and CRLF line ends', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const response = await exportCsv(user, form.id);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    // named after the title and the day (API.md §6.2), not the form's id
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="${form.title} ${today}.csv"; filename*=UTF-8''${encodeURIComponent(`${form.title} ${today}.csv`)}`,
    );
    // every cell quoted (issue 19): a spreadsheet splitting on another separator keeps it whole
    const header = [...HEADER, 'name', 'email', 'topic', 'message'].map((cell) => `"${cell}"`);
    expect(response.text).toBe(`${header.join(',')}\r\n`);
  });

  it('leaves a cell empty when the answer is absent, whatever the field is called (constructor, toString)', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'constructor', type: 'text', label: 'A' },
        { id: 'toString', type: 'text', label: 'B' },
        { id: 'name', type: 'text', label: 'Name' },
      ],
    });
    await submit(form.id, { name: 'Ada' });
    const [record] = await exportRecords(user, form.id);
    expect(record).toMatchObject({ constructor: '', toString: '', name: 'Ada' });
  });

  it('quotes every cell, commas, quotes and line breaks as RFC 4180 says', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'text', type: 'textarea', label: 'Text' }],
    });
    const values = ['Doe, Jane', 'say "hi"', 'line one\nline two', 'cr\r\nlf', 'plain'];
    for (const text of values) await submit(form.id, { text });

    const response = await exportCsv(user, form.id);
    expect(response.text).toContain(',"Doe, Jane"\r\n');
    expect(response.text).toContain(',"say ""hi"""\r\n');
    expect(response.text).toContain(',"line one\nline two"\r\n');
    expect(response.text).toContain(',"plain"\r\n');
    const rows = parseCsv(response.text);
    expect(rows[0]).toEqual([...HEADER, 'text']);
    expect(rows.slice(1).map((row) => row.at(-1))).toEqual([...values].reverse());
    expect(rows.every((row) => row.length === HEADER.length + 1)).toBe(true);
  });

  it.each([
    ['=', '=HYPERLINK("http://evil.example","x")'],
    ['+', '+1+2'],
    ['-', '-2+3'],
    ['@', '@SUM(A1:A2)'],
    // a tab is also a separator: the formula after it is guarded too
    ['tab', '\t=1+1', "'\t'=1+1"],
    ['CR', '\r=1+1', "'\r=1+1"],
  ])('prefixes a cell starting with %s with a quote', async (_name, value, guarded = `'${value}`) => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'text', type: 'textarea', label: 'Text' }],
    });
    await submit(form.id, { text: value });
    const [record] = await exportRecords(user, form.id);
    expect(record?.text).toBe(guarded);
  });

  // Issue 19: in a spreadsheet that splits the line on `;` (the list separator of much of Europe),
  // `Ann;=1+1` was two cells, the second a formula.
  it('guards a formula after a separator inside a cell: Ann;=1+1 is no formula in a ;-separated sheet', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'text', type: 'textarea', label: 'Text' }],
    });
    await submit(form.id, { text: 'Ann;=1+1' });
    const response = await exportCsv(user, form.id);
    expect(response.text).toContain(`,"Ann;'=1+1"\r\n`);
    // split on `;` without minding quotes, as such a spreadsheet may: no piece starts a formula
    for (const piece of response.text.split(/[;,\r\n]/))
      expect(piece.replace(/^"/, '')).not.toMatch(/^[=+\-@]/);
    expect(parseCsv(response.text)[1]?.at(-1)).toBe("Ann;'=1+1");
  });

  it('guards numbers, array cells and header cells too, and leaves harmless cells alone', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: '-dash', type: 'text', label: 'Dash' },
        { id: 'age', type: 'number', label: 'Age' },
        { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['=a', 'b'] },
      ],
    });
    await submit(form.id, { '-dash': 'a=b', age: -5, tags: ['=a', 'b'] });
    const response = await exportCsv(user, form.id);
    const [header, row] = parseCsv(response.text);
    expect(header).toEqual([...HEADER, "'-dash", 'age', 'tags']);
    expect(row?.slice(HEADER.length)).toEqual(['a=b', "'-5", "'=a; b"]);
  });

  it('writes arrays joined with "; ", numbers, booleans, flags and absent answers empty', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'tags', type: 'select', label: 'Tags', multiple: true, options: ['red', 'green', 'blue'] },
        { id: 'count', type: 'number', label: 'Count' },
        { id: 'ok', type: 'checkbox', label: 'OK' },
        { id: 'note', type: 'text', label: 'Note' },
      ],
    });
    const created = await submit(form.id, { tags: ['red', 'blue'], count: 2.5, ok: true });
    const star = await t.request({
      method: 'POST',
      url: `/responses/${created.id}/star`,
      auth: user.token,
      body: { starred: true },
    });
    expect(star.status).toBe(200);
    const [record] = await exportRecords(user, form.id);
    expect(record).toEqual({
      id: created.id,
      createdAt: created.createdAt,
      status: 'accepted',
      read: 'false',
      starred: 'true',
      language: 'en',
      tags: 'red; blue',
      count: '2.5',
      ok: 'true',
      note: '',
    });
  });

  it('shows values as the owner sees them: masked masked, encrypted decrypted, hashed hashed, dropped empty', async () => {
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
      gone: 'never kept',
    });
    const response = await exportCsv(user, form.id);
    const [, row] = parseCsv(response.text);
    expect(row?.slice(HEADER.length)).toEqual([
      'visible',
      'j***@example.com',
      '123-45-6789',
      'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      '',
    ]);
    expect(response.text).not.toContain('jane@example.com');
    expect(response.text).not.toContain('never kept');
  });

  it('applies status, from and to, newest first, leaving quarantined out by default', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const [early, middle, late, flagged, quarantined] = await insertRows(t, form, [
      { createdAt: '2026-01-01T08:00:00.000Z' },
      { createdAt: '2026-01-15T12:00:00.000Z' },
      { createdAt: '2026-01-31T23:59:59.000Z' },
      { createdAt: '2026-02-02T00:00:00.000Z', status: 'flagged' },
      { createdAt: '2026-02-03T00:00:00.000Z', status: 'quarantined' },
    ]);
    const ids = async (query: string) => (await exportRecords(user, form.id, query)).map((r) => r.id);

    expect(await ids('')).toEqual([flagged, late, middle, early]);
    expect(await ids('&status=quarantined')).toEqual([quarantined]);
    expect(await ids('&status=flagged')).toEqual([flagged]);
    expect(await ids('&from=2026-01-10&to=2026-01-31')).toEqual([late, middle]);
    expect(await ids('&from=2026-01-15T12:00:00.000Z')).toEqual([flagged, late, middle]);
    expect(await ids('&to=2026-01-01')).toEqual([early]);
  });

  it.each([
    ['no credential', undefined, 401, 'unauthorized', ''],
    ['another user', 'other', 403, 'not_owner', ''],
    ['format other than csv', 'owner', 400, 'invalid_parameter', '&format=xml'],
    ['invalid from', 'owner', 400, 'invalid_parameter', '&from=yesterday'],
  ])('refuses %s', async (_case, who, status, code, query) => {
    const owner = await signup(t);
    const other = await signup(t);
    const form = await createForm(t, owner.token, { status: 'live' });
    const auth = who === 'owner' ? owner.token : who === 'other' ? other.token : undefined;
    const url = `/responses?form_id=${form.id}&environment=development${query || '&format=csv'}`;
    expectProblem(await t.request({ method: 'GET', url, auth }), status, code);
  });

  it('streams 20,000 rows with backpressure: a reader that stops reading stops the database reads', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [
        { id: 'n', type: 'number', label: 'N' },
        { id: 'text', type: 'textarea', label: 'Text' },
      ],
    });
    const total = 20_000;
    const base = Date.parse('2026-03-01T00:00:00.000Z');
    await insertRows(
      t,
      form,
      Array.from({ length: total }, (_, i) => ({
        createdAt: new Date(base + i * 1000).toISOString(),
        answers: { n: i, text: `row ${i} `.padEnd(120, 'x') },
      })),
    );

    // Count the submission rows the service reads from the database while it answers.
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
        url: `/responses?form_id=${form.id}&environment=development&format=csv`,
        headers: { authorization: `Bearer ${user.token}` },
        payloadAsStream: true,
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-length']).toBeUndefined();
      const chunks = (response.stream() as Readable)[Symbol.asyncIterator]();

      // Take one chunk, then stop reading for a while: the export must stall, not run ahead.
      const first = (await chunks.next()).value as Buffer;
      expect(first.toString()).toMatch(
        /^"id","createdAt","status","read","starred","language","n","text"\r\n/,
      );
      // a fixed wait on purpose: the pause in which the export must NOT run ahead
      await new Promise((resolve) => setTimeout(resolve, 300));
      const readWhilePaused = rowsRead;
      expect(readWhilePaused).toBeGreaterThan(0);
      expect(readWhilePaused).toBeLessThan(total / 4);

      // Read the rest, counting records without keeping the text.
      const heapBefore = process.memoryUsage().heapUsed;
      let lines = first.toString().split('\r\n').length - 1;
      let tail = first.toString().slice(first.toString().lastIndexOf('\r\n') + 2);
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        const text = tail + (next.value as Buffer).toString();
        lines += text.split('\r\n').length - 1;
        tail = text.slice(text.lastIndexOf('\r\n') + 2);
      }
      expect(tail).toBe('');
      expect(lines).toBe(total + 1);
      expect(rowsRead).toBeGreaterThanOrEqual(total);
      // the whole export is ~3 MB of text; streaming keeps the heap from holding it all at once
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
    } finally {
      database.db = original;
    }
  });
});

describe('csvRecord', () => {
  it.each([
    [['a', 'b'], '"a","b"\r\n'],
    [['', ''], '"",""\r\n'],
    [['has,comma'], '"has,comma"\r\n'],
    [['has;semicolon'], '"has;semicolon"\r\n'],
    [['say "hi"'], '"say ""hi"""\r\n'],
    [['line\nbreak', 'cr\ronly', 'crlf\r\nend'], '"line\nbreak","cr\ronly","crlf\r\nend"\r\n'],
    [['  spaced  ', 'émoji 🎉', "'=1+1"], `"  spaced  ","émoji 🎉","'=1+1"\r\n`],
  ])('writes %j as RFC 4180, every cell quoted', (cells, text) => {
    expect(csvRecord(cells)).toBe(text);
  });
});

describe('guardCell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['Ann;=1+1', "Ann;'=1+1"],
    ['a,+1', "a,'+1"],
    ['a|@SUM(A1)', "a|'@SUM(A1)"],
    ['a\t-2+3', "a\t'-2+3"],
    ['Ann；=1+1', "Ann；'=1+1"],
    ['Ann，=1+1', "Ann，'=1+1"],
    ['Ann;\u00A0=1+1', "Ann;\u00A0'=1+1"],
    // spaces, tabs and quotes a spreadsheet may drop before the cell's text
    ['Ann; =1+1', "Ann; '=1+1"],
    ['Ann;\t =1+1', "Ann;\t '=1+1"],
    ['Ann;"=1+1', `Ann;"'=1+1`],
    ['a;=b;+c', "a;'=b;'+c"],
    ['a;;=b', "a;;'=b"],
    ['a;\uFF1D1', "a;'\uFF1D1"],
  ])('guards %j as %j', (cell, guarded) => {
    expect(guardCell(cell)).toBe(guarded);
  });

  it.each([
    'a=b',
    'Monday - Friday',
    'Ann;',
    'a;b',
    "a;'=b",
    '1 + 1 = 2',
    'x@example.com',
    // a list typed one item a line: the cell is quoted, its line breaks stay inside it
    'Notes:\n- one\n- two',
    'Temp - 5 C',
  ])('leaves %j alone', (cell) => {
    expect(guardCell(cell)).toBe(cell);
  });

  it('guards any text as the replace alone would (its shortcut for cells without a separator changes nothing)', () => {
    // the guard without its shortcut, as it was written first
    const reference = (text: string) => {
      const inner = text.replace(
        /([,;|\t\uFF0C\uFF1B][ \t\u00A0"]*)(?=[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g,
        "$1'",
      );
      return /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(inner) ? `'${inner}` : inner;
    };
    const characters = [...'ab =+-@\t\r\n,;|" \u00A0\uFF0C\uFF1B\uFF1D\uFF0B\uFF0D\uFF20'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...characters), { maxLength: 12 }), (picked) => {
        const text = picked.join('');
        expect(guardCell(text)).toBe(reference(text));
      }),
      { numRuns: 5_000 },
    );
  });
});

describe('options for spreadsheets (API.md §6.2)', () => {
  const FIELDS = [
    { id: 'full_name', type: 'text', label: 'Full name' },
    { id: 'where', type: 'text', label: 'Café or bar?' },
    { id: 'status', type: 'text', label: 'status' },
    { id: 'a', type: 'text', label: 'Same' },
    { id: 'b', type: 'text', label: 'Same' },
    { id: 'evil', type: 'text', label: '=cmd|calc' },
  ];

  it('headers=labels heads the field columns with their labels; shared or fixed-column labels say their id', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    await submit(form.id, { full_name: 'Zoë', where: 'café' });
    const response = await exportCsv(user, form.id, '&headers=labels');
    const [header, row] = parseCsv(response.text);
    expect(header).toEqual([
      ...HEADER,
      'Full name',
      'Café or bar?',
      'status (status)',
      'Same (a)',
      'Same (b)',
      "'=cmd|calc",
    ]);
    expect(row?.slice(6, 8)).toEqual(['Zoë', 'café']);
    // the default stays the ids
    expect(parseCsv((await exportCsv(user, form.id, '&headers=ids')).text)[0]?.slice(6, 8)).toEqual([
      'full_name',
      'where',
    ]);
  });

  it('bom=1 starts the file with a UTF-8 byte-order mark; without it there is none', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    await submit(form.id, { where: 'café' });
    for (const on of ['1', 'true']) {
      const response = await exportCsv(user, form.id, `&bom=${on}`);
      // U+FEFF, which UTF-8 writes as EF BB BF
      expect(Buffer.from(response.text).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      expect(response.text.slice(1)).toMatch(/^"id",/);
      expect(response.text).toContain('"café"');
    }
    for (const off of ['', '&bom=0', '&bom=false']) {
      const response = await exportCsv(user, form.id, off);
      expect(response.text.charAt(0)).toBe('"');
    }
  });

  it("notes=1 adds a notes column: each response's notes oldest first, one a line, guarded; none empty", async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: FIELDS });
    const noted = await submit(form.id, { full_name: 'Ann' });
    const bare = await submit(form.id, { full_name: 'Bob' });
    for (const text of ['Called back', '=1+1 is not a formula', 'Paid, "in full"']) {
      const added = await t.request({
        method: 'POST',
        url: `/responses/${noted.id}/notes`,
        auth: user.token,
        body: { text },
      });
      expect(added.status).toBe(200);
    }
    const records = await exportRecords(user, form.id, '&notes=1&headers=labels');
    expect(Object.keys(records[0] ?? {}).at(-1)).toBe('notes');
    const byId = new Map(records.map((record) => [record.id, record]));
    expect(byId.get(noted.id)?.notes).toBe('Called back\n\'=1+1 is not a formula\nPaid, "in full"');
    expect(byId.get(bare.id)?.notes).toBe('');
    expect(byId.get(noted.id)?.['Full name']).toBe('Ann');
    // without notes=1, no such column
    expect(Object.keys((await exportRecords(user, form.id))[0] ?? {})).not.toContain('notes');
  });

  it('notes stay with their response across chunks of a long export', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', fields: [FIELDS[0]] });
    const base = Date.parse('2026-04-01T00:00:00.000Z');
    const ids = await insertRows(
      t,
      form,
      Array.from({ length: 2500 }, (_, i) => ({ createdAt: new Date(base + i * 1000).toISOString() })),
    );
    const noteRows = ids
      .filter((_, i) => i % 400 === 0)
      .map((submissionId, i) => ({
        id: newId('note'),
        submission_id: submissionId,
        user_id: form.userId,
        text: `note ${submissionId}`,
        created_at: new Date(base + i).toISOString(),
      }));
    await t.app.intake.database.db.insertInto('submission_notes').values(noteRows).execute();
    const records = await exportRecords(user, form.id, '&notes=1');
    expect(records).toHaveLength(2500);
    const withNotes = records.filter((record) => record.notes !== '');
    expect(withNotes.map((record) => record.notes).sort()).toEqual(noteRows.map((note) => note.text).sort());
    for (const record of withNotes) expect(record.notes).toBe(`note ${record.id}`);
  });

  it('names the file after the title and the day, with a UTF-8 filename* for a title beyond ASCII', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live', title: 'Café: sign-ups / 2026?' });
    const response = await exportCsv(user, form.id);
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Cafe- sign-ups - 2026- ${today}.csv"; filename*=UTF-8''Caf%C3%A9-%20sign-ups%20-%202026-%20${today}.csv`,
    );
  });

  it.each([
    ['Event sign-up', 'Event sign-up 2026-11-25.csv', 'Event sign-up 2026-11-25.csv'],
    ['Ünïcödé Ñame', 'Ünïcödé Ñame 2026-11-25.csv', 'Unicode Name 2026-11-25.csv'],
    ['日本語のフォーム', '日本語のフォーム 2026-11-25.csv', 'responses 2026-11-25.csv'],
    ['a<b>c:"d"/e\\f|g?h*', 'a-b-c-d-e-f-g-h- 2026-11-25.csv', 'a-b-c-d-e-f-g-h- 2026-11-25.csv'],
    ['  ..hidden.  ', 'hidden 2026-11-25.csv', 'hidden 2026-11-25.csv'],
    ['CON', 'responses CON 2026-11-25.csv', 'responses CON 2026-11-25.csv'],
    ['tab\there\nnewline', 'tab here newline 2026-11-25.csv', 'tab here newline 2026-11-25.csv'],
    ['x'.repeat(300), `${'x'.repeat(100)} 2026-11-25.csv`, `${'x'.repeat(100)} 2026-11-25.csv`],
  ])('csvFileName(%j) is safe on every system', (title, unicode, ascii) => {
    expect(csvFileName(title, '2026-11-25')).toEqual({ unicode, ascii });
  });

  it.each([
    ['headers=names', '&headers=names', 'headers'],
    ['bom=yes', '&bom=yes', 'bom'],
    ['notes=2', '&notes=2', 'notes'],
  ])('refuses %s with a 400 naming the parameter', async (_case, query) => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    expectProblem(await exportCsv(user, form.id, query), 400, 'invalid_parameter');
  });

  it('refuses the CSV options without format=csv: they would do nothing', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, { status: 'live' });
    const response = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&bom=1&headers=labels`,
      auth: user.token,
    });
    expectProblem(response, 400, 'invalid_parameter');
    expect(response.body.errors.map((error: { field: string }) => error.field)).toEqual(['headers', 'bom']);
  });
});
