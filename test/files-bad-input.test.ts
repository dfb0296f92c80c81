import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, signup, type TestUser } from './support/factories.js';
import { EXE, multipart, PDF, PNG, uploadFile } from './support/multipart.js';
import { filesUnder, multipartFrame, RawClient } from './support/raw-http.js';

/**
 * Files (API.md §12) against bad input and faults: clients that go away half-way, bodies that
 * lie about their length, parts without names, hostile file names, files with script in them,
 * types disguised by their names, too many files, upload ids that are not good, bodies over
 * UPLOAD_MAX_BYTES (declared, and streamed without a length). Each is a clear 4xx (never a 5xx,
 * read from the service's own log for the clients that are gone), and nothing of it is left:
 * no bytes under DATA_DIR/files (its temporary `.partial` files included), no `files` row.
 * Where a real socket matters (a disconnect, a lying length, a chunked body) the app listens
 * and the requests are written by hand (support/raw-http.ts).
 */

const LIMIT = 4 * 1024 * 1024; // UPLOAD_MAX_BYTES here
const MIB = 1024 * 1024;

let t: TestApp;
let owner: TestUser;
let port: number;
const logLines: Array<{ level: number; msg?: string; res?: { statusCode?: number }; err?: unknown }> = [];

let logMark = 0;
beforeEach(() => {
  logMark = logLines.length;
});
/** Answers of 500 or more, and errors, the service logged during this test: none may come of bad input. */
const serverErrors = () =>
  logLines
    .slice(logMark)
    .filter((line) => line.level >= 50 || (line.res?.statusCode ?? 0) >= 500)
    .map(
      (line) =>
        `${line.msg}: ${(line.err as { message?: string } | undefined)?.message ?? line.res?.statusCode}`,
    );

const filesRoot = () => path.join(t.config.dataDir, 'files');
const db = () => t.app.intake.database.db;

const fileRows = async (formId: string) =>
  (await db().selectFrom('files').select(['id', 'state']).where('form_id', '=', formId).execute()).map(
    (row) => `${row.id}:${row.state}`,
  );
const submissionCount = async (formId: string) =>
  (await db().selectFrom('submissions').select('id').where('form_id', '=', formId).execute()).length;

/** Waits until nothing of `formId`'s files is left: the disk as it was before, no row, no submission. */
async function expectNothingKept(formId: string, diskBefore: string[]): Promise<void> {
  await expect
    .poll(async () => ({
      disk: filesUnder(filesRoot()),
      rows: await fileRows(formId),
      submissions: await submissionCount(formId),
    }))
    .toEqual({ disk: diskBefore, rows: [], submissions: 0 });
  // and it stays so: nothing still under way comes back
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect({ disk: filesUnder(filesRoot()), rows: await fileRows(formId) }).toEqual({
    disk: diskBefore,
    rows: [],
  });
}

async function fileForm(fields: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  return (await createForm(t, owner.token, { status: 'live', fields, ...extra })).id as string;
}

const upload = (formId: string, field: string, filename: string, content: Buffer) =>
  uploadFile(t, formId, field, filename, content);

async function submitJson(formId: string, answers: Record<string, unknown>) {
  return t.request({ method: 'POST', url: `/forms/${formId}/submit`, body: { answers } });
}

async function readResponse(formId: string, id: string) {
  return t.request({
    method: 'GET',
    url: `/responses/${id}?form_id=${formId}&environment=development`,
    auth: owner.token,
  });
}

beforeAll(async () => {
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logLines.push(JSON.parse(line));
      done();
    },
  });
  t = await createTestApp(
    { uploadMaxBytes: LIMIT },
    // the log says how each request ended, also for the clients that never read their answer
    { logger: { level: 'info', stream: logStream } },
  );
  owner = await signup(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

describe('a client that goes away half-way through a large upload', () => {
  /** Sends the start of a body of `declared` bytes, waits until the service is storing the file, and hangs up. */
  async function hangUpWhileStoring(
    formId: string,
    target: string,
    parts: Parameters<typeof multipartFrame>[0],
  ): Promise<void> {
    const frame = multipartFrame(parts);
    const client = await RawClient.open(port);
    await client.head('POST', target, {
      'Content-Type': frame.contentType,
      'Content-Length': String(frame.preamble.length + 3 * MIB + frame.closing.length),
      Accept: 'application/json',
    });
    await client.write(frame.preamble);
    for (let sent = 0; sent < MIB; sent += 64 * 1024) await client.write(randomBytes(64 * 1024));
    // the file is under way: its row (state writing) and its temporary file exist
    await expect.poll(async () => (await fileRows(formId)).length).toBe(1);
    await expect.poll(() => filesUnder(filesRoot()).some((file) => file.startsWith('.partial'))).toBe(true);
    client.destroy();
    await client.closed;
  }

  it('to POST /forms/{id}/uploads: nothing left on disk or in the files table', async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
    const before = filesUnder(filesRoot());
    await hangUpWhileStoring(formId, `/forms/${formId}/uploads`, [
      { name: 'field', value: 'doc' },
      { name: 'file', filename: 'big.bin' },
    ]);
    await expectNothingKept(formId, before);
    expect(serverErrors()).toEqual([]);
  });

  it('to a multipart submit: nothing left, no submission', async () => {
    const formId = await fileForm([
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'doc', type: 'file', label: 'Document' },
    ]);
    const before = filesUnder(filesRoot());
    await hangUpWhileStoring(formId, `/forms/${formId}/submit`, [
      { name: 'name', value: 'Ada' },
      { name: 'doc', filename: 'big.bin' },
    ]);
    await expectNothingKept(formId, before);
    expect(serverErrors()).toEqual([]);
  });

  it('to a multipart submit after a whole file, before the body ends: no submission, nothing left', async () => {
    const formId = await fileForm([
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'doc', type: 'file', label: 'Document' },
    ]);
    const before = filesUnder(filesRoot());
    const frame = multipartFrame([
      { name: 'name', value: 'Ada' },
      { name: 'doc', filename: 'a.pdf', type: 'application/pdf' },
    ]);
    const more = Buffer.from(
      `\r\n--${frame.boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nthe rest never comes`,
    );
    const client = await RawClient.open(port);
    await client.head('POST', `/forms/${formId}/submit`, {
      'Content-Type': frame.contentType,
      'Content-Length': String(frame.preamble.length + PDF.length + more.length + 10_000),
      Accept: 'application/json',
    });
    await client.write(Buffer.concat([frame.preamble, PDF, more]));
    // the file is whole and stored as an upload, the next part started
    await expect.poll(async () => await fileRows(formId)).toEqual([expect.stringMatching(/:uploaded$/)]);
    client.destroy();
    await client.closed;
    await expectNothingKept(formId, before);
    expect(serverErrors()).toEqual([]);
  });
});

describe('a hosted page post whose body fails after a whole file', () => {
  it('is refused with a readable page, and its file is not kept (API.md §12)', async () => {
    const formId = await fileForm(
      [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'doc', type: 'file', label: 'Document' },
      ],
      { ui: { layout: 'classic' } },
    );
    const before = filesUnder(filesRoot());
    const frame = multipartFrame([
      { name: 'name', value: 'Ada' },
      { name: 'doc', filename: 'a.pdf', type: 'application/pdf' },
    ]);
    // a whole file, then a part that never ends: the body closes without its last boundary
    const truncated = Buffer.from(
      `\r\n--${frame.boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nthe rest never comes`,
    );
    const rest = Buffer.from(' and the body ends here');
    const client = await RawClient.open(port);
    await client.head('POST', `/f/${formId}`, {
      'Content-Type': frame.contentType,
      'Content-Length': String(frame.preamble.length + PDF.length + truncated.length + rest.length),
    });
    await client.write(Buffer.concat([frame.preamble, PDF, truncated]));
    // the file is whole and stored as an upload, the next part started
    await expect.poll(async () => await fileRows(formId)).toEqual([expect.stringMatching(/:uploaded$/)]);
    await client.write(rest);
    expect(await client.status()).toBe(400);
    expect(client.text()).toMatch(/content-type: text\/html/i);
    client.destroy();
    await expectNothingKept(formId, before);
    expect(serverErrors()).toEqual([]);
  });
});

describe('a body that lies about its length', () => {
  const cases = [
    {
      route: 'uploads',
      parts: (pdf: Buffer) => [
        { name: 'field', value: 'doc' },
        { name: 'file', filename: 'a.pdf', content: pdf },
      ],
    },
    { route: 'submit', parts: (pdf: Buffer) => [{ name: 'doc', filename: 'a.pdf', content: pdf }] },
  ] as const;

  it.each(cases)(
    'Content-Length larger than what is sent, then the connection closed ($route)',
    async ({ route, parts }) => {
      const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
      const before = filesUnder(filesRoot());
      const { body, headers } = multipart(parts(PDF));
      const client = await RawClient.open(port);
      await client.head('POST', `/forms/${formId}/${route}`, {
        'Content-Type': headers['content-type'] as string,
        'Content-Length': String(body.length + 5000),
        Accept: 'application/json',
      });
      await client.write(body);
      // the whole multipart body is there, closing boundary and all; the rest the length promised never comes
      await expect.poll(async () => (await fileRows(formId)).length).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await client.status(0)).toBeUndefined(); // nothing is acknowledged before the body is whole
      client.end();
      await client.closed;
      await expectNothingKept(formId, before);
      expect(serverErrors()).toEqual([]);
    },
  );

  it.each(cases)(
    'Content-Length shorter than what is sent: 400, nothing kept ($route)',
    async ({ route, parts }) => {
      const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
      const before = filesUnder(filesRoot());
      const content = Buffer.concat([PDF, randomBytes(20_000)]);
      const { body, headers } = multipart(parts(content));
      const client = await RawClient.open(port);
      await client.head('POST', `/forms/${formId}/${route}`, {
        'Content-Type': headers['content-type'] as string,
        // the body ends in the middle of the file's bytes
        'Content-Length': String(body.length - 5000),
        Accept: 'application/json',
      });
      // what the length covers first: the body ends there, in the middle of the file's bytes
      await client.write(body.subarray(0, body.length - 5000));
      expect(await client.status()).toBe(400);
      expect((await client.json())?.code).toBe('validation_failed');
      // the rest is no body of it: read as the next request on the connection, which is not one
      await client.write(body.subarray(body.length - 5000));
      await client.closed;
      expect(client.text()).toMatch(/\r\n\r\n\{.*"validation_failed".*\}HTTP\/1\.1 400 /s);
      client.destroy();
      await expectNothingKept(formId, before);
      expect(serverErrors()).toEqual([]);
    },
  );
});

describe('a body cut by its Content-Length after a whole file, in a text answer', () => {
  it('is 400 and stores nothing: the parser alone would take it for a body that ended', async () => {
    const formId = await fileForm([
      { id: 'doc', type: 'file', label: 'Document' },
      { id: 'note', type: 'textarea', label: 'Note' },
    ]);
    const before = filesUnder(filesRoot());
    const { body, headers } = multipart([
      { name: 'doc', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
      { name: 'note', value: 'a long note '.repeat(200) },
    ]);
    const client = await RawClient.open(port);
    await client.head('POST', `/forms/${formId}/submit`, {
      'Content-Type': headers['content-type'] as string,
      'Content-Length': String(body.length - 1000),
      Accept: 'application/json',
    });
    await client.write(body.subarray(0, body.length - 1000));
    expect(await client.status()).toBe(400);
    expect((await client.json())?.errors?.[0]).toMatchObject({ field: '(body)', code: 'incomplete' });
    client.destroy();
    await expectNothingKept(formId, before);
    expect(serverErrors()).toEqual([]);
  });
});

describe('a part with no name', () => {
  const noName = (boundary: string, disposition: string, content: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);

  it('an upload whose file part has no name: 400, nothing kept', async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
    const before = filesUnder(filesRoot());
    const boundary = 'nonameboundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="field"\r\n\r\ndoc\r\n`),
      noName(boundary, 'form-data; filename="a.pdf"', PDF),
    ]);
    const response = await t.request({
      method: 'POST',
      url: `/forms/${formId}/uploads`,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    await expectNothingKept(formId, before);
  });

  it.each([
    ['a file part', 'form-data; filename="a.pdf"'],
    ['a field part', 'form-data'],
  ])('a multipart submit with %s that has no name: 400, nothing kept', async (_what, disposition) => {
    const formId = await fileForm([
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'doc', type: 'file', label: 'Document' },
    ]);
    const before = filesUnder(filesRoot());
    const boundary = 'nonameboundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="b.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      PDF,
      Buffer.from('\r\n'),
      noName(boundary, disposition, PDF),
    ]);
    const response = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, accept: 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    await expectNothingKept(formId, before);
  });
});

describe('hostile file names', () => {
  let formId: string;
  beforeAll(async () => {
    formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document', maxFiles: 5 }]);
  });

  it('keeps a safe name (no path, no device meaning, at most 255 characters) and sends it escaped', async () => {
    const emoji = '😀'.repeat(300);
    const names: Array<[string, string]> = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\win.ini', 'win.ini'],
      ['con.txt', 'con.txt'],
      [emoji, '😀'.repeat(255)],
    ];
    const ids: string[] = [];
    for (const [given, kept] of names) {
      const uploaded = await upload(formId, 'doc', given, Buffer.from('plain text\n'));
      expect(uploaded.status, given).toBe(201);
      expect(uploaded.body.name).toBe(kept);
      ids.push(uploaded.body.uploadId);
    }
    const submitted = await submitJson(formId, { doc: ids });
    expect(submitted.status).toBe(201);
    const read = await readResponse(formId, submitted.body.id);
    expect(read.body.answers.doc.map((file: { name: string }) => file.name)).toEqual(
      names.map(([, kept]) => kept),
    );
    for (const file of read.body.answers.doc) {
      const download = await t.app.inject({
        method: 'GET',
        url: `/responses/${submitted.body.id}/files/${file.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(download.statusCode).toBe(200);
      const disposition = download.headers['content-disposition'] as string;
      // printable ASCII only: no raw UTF-8, no line breaks; the name itself in filename* (RFC 6266)
      expect(disposition).toMatch(
        /^attachment; filename="[\x20-\x21\x23-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!._~-]+$/,
      );
      const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? '';
      expect(decodeURIComponent(encoded)).toBe(file.name);
    }
  });

  it('a name with markup in it is shown escaped on the hosted page', async () => {
    const pageForm = await fileForm(
      [
        { id: 'name', type: 'text', label: 'Name', required: true },
        { id: 'doc', type: 'file', label: 'Document' },
      ],
      { ui: { layout: 'classic' } },
    );
    const hostile = '<img src=x onerror=alert(1)>.txt';
    const { body, headers } = multipart([
      { name: 'name', value: '' },
      { name: 'doc', filename: hostile, content: Buffer.from('hello\n'), type: 'text/plain' },
    ]);
    const response = await t.app.inject({ method: 'POST', url: `/f/${pageForm}`, payload: body, headers });
    expect(response.statusCode).toBe(400); // the required name is missing: the page again, its upload listed
    expect(response.body).toContain('&lt;img src=x onerror=alert(1)');
    expect(response.body).not.toContain('<img src=x');
  });
});

describe('files with script in them', () => {
  it.each([
    [
      'page.html',
      'text/html',
      '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
    ],
    [
      'image.svg',
      'image/svg+xml',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.domain)</script></svg>',
    ],
  ])(
    '%s is downloaded as an attachment under sandbox and nosniff, by its owner and by its link',
    async (name, type, content) => {
      const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Anything' }]);
      const uploaded = await upload(formId, 'doc', name, Buffer.from(content));
      expect(uploaded.status).toBe(201);
      expect(uploaded.body.type).toBe(type);
      const submitted = await submitJson(formId, { doc: [uploaded.body.uploadId] });
      const file = (await readResponse(formId, submitted.body.id)).body.answers.doc[0];
      const byOwner = await t.app.inject({
        method: 'GET',
        url: `/responses/${submitted.body.id}/files/${file.id}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      const byLink = await t.app.inject({
        method: 'GET',
        url: new URL(file.url, 'http://localhost').pathname,
      });
      for (const download of [byOwner, byLink]) {
        expect(download.statusCode).toBe(200);
        expect(download.body).toBe(content);
        expect(download.headers['content-disposition']).toMatch(/^attachment;/);
        expect(download.headers['content-security-policy']).toMatch(/^sandbox/);
        expect(download.headers['x-content-type-options']).toBe('nosniff');
      }
    },
  );
});

describe('a type disguised by its extension', () => {
  it('is judged by its bytes: refused where the field does not take it, named by its bytes where it does', async () => {
    const formId = await fileForm([
      { id: 'pic', type: 'file', label: 'Picture', accept: ['image/*'] },
      { id: 'pdf', type: 'file', label: 'PDF', accept: ['.pdf'] },
      { id: 'any', type: 'file', label: 'Anything' },
    ]);
    const before = filesUnder(filesRoot());
    const refused = [
      await upload(formId, 'pic', 'photo.png', EXE), // a program called a picture
      await upload(formId, 'pic', 'photo.png', Buffer.from('<html><script>alert(1)</script></html>')),
      await upload(formId, 'pdf', 'report.pdf', PNG), // a picture called a PDF
      await upload(formId, 'pdf', 'report.pdf', Buffer.from('just text, no PDF at all')),
    ];
    for (const response of refused) {
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ code: 'file_type' });
    }
    await expectNothingKept(formId, before);

    const taken = await upload(formId, 'any', 'report.pdf', EXE);
    expect(taken.status).toBe(201);
    expect(taken.body.type).not.toBe('application/pdf');
    expect(taken.body.type).toMatch(/msdownload|octet-stream|executable/);
  });
});

describe('a refusal while the body is still coming', () => {
  it.each(['uploads', 'submit'])(
    'reaches a client still sending a large disguised file, and keeps nothing (%s)',
    async (route) => {
      const formId = await fileForm([{ id: 'pic', type: 'file', label: 'Picture', accept: ['image/*'] }]);
      const before = filesUnder(filesRoot());
      const frame = multipartFrame(
        route === 'uploads'
          ? [
              { name: 'field', value: 'pic' },
              { name: 'file', filename: 'photo.png', type: 'image/png' },
            ]
          : [{ name: 'pic', filename: 'photo.png', type: 'image/png' }],
      );
      const program = Buffer.concat([EXE, randomBytes(3 * MIB)]);
      const client = await RawClient.open(port);
      await client.head('POST', `/forms/${formId}/${route}`, {
        'Content-Type': frame.contentType,
        'Content-Length': String(frame.preamble.length + program.length + frame.closing.length),
        Accept: 'application/json',
      });
      // all of it is sent before anything is read: the answer must not wait on a body nobody reads
      await client.write(Buffer.concat([frame.preamble, program, frame.closing]));
      expect(await client.status()).toBe(400);
      expect((await client.json())?.errors?.[0]).toMatchObject({ field: 'pic', code: 'file_type' });
      client.destroy();
      await expectNothingKept(formId, before);
      expect(serverErrors()).toEqual([]);
    },
  );
});

describe('more files than maxFiles', () => {
  it('21 files for a field of at most 20, in a multipart submit: 400, nothing kept', async () => {
    const formId = await fileForm([{ id: 'docs', type: 'file', label: 'Documents', maxFiles: 20 }]);
    const before = filesUnder(filesRoot());
    const { body, headers } = multipart(
      Array.from({ length: 21 }, (_, i) => ({
        name: 'docs',
        filename: `page-${i}.pdf`,
        content: PDF,
        type: 'application/pdf',
      })),
    );
    const response = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body,
      headers: { ...headers, accept: 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({ field: 'docs', code: 'too_many_files' });
    await expectNothingKept(formId, before);
  });
});

describe('upload ids that are not good for a submission', () => {
  it('of another form, already used, expired, or made up: 400 unknown_upload', async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
    const otherId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);

    const foreign = await upload(otherId, 'doc', 'a.pdf', PDF);
    const used = await upload(formId, 'doc', 'b.pdf', PDF);
    expect((await submitJson(formId, { doc: [used.body.uploadId] })).status).toBe(201);
    const expired = await upload(formId, 'doc', 'c.pdf', PDF);
    await db()
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('upload_id', '=', expired.body.uploadId)
      .execute();

    for (const uploadId of [
      foreign.body.uploadId,
      used.body.uploadId,
      expired.body.uploadId,
      'upl_madeup0000000000000000',
    ]) {
      const response = await submitJson(formId, { doc: [uploadId] });
      expect(response.status, uploadId).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors).toEqual([
        expect.objectContaining({ field: 'doc', code: 'unknown_upload' }),
      ]);
    }
    // the other form's upload is still good there
    expect((await submitJson(otherId, { doc: [foreign.body.uploadId] })).status).toBe(201);
  });
});

describe('one upload named by racing submissions', () => {
  it('is attached to exactly one; the others are 400 naming the field whose file was taken', async () => {
    const formId = await fileForm([
      { id: 'doc', type: 'file', label: 'Document', required: false },
      { id: 'photo', type: 'file', label: 'Photo' },
    ]);
    const shared = await upload(formId, 'photo', 'p.pdf', PDF);
    expect(shared.status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => submitJson(formId, { photo: [shared.body.uploadId] })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ field: 'photo', code: 'unknown_upload' }),
      ]);
    }
    expect(await submissionCount(formId)).toBe(1);
  });
});

describe('a body over UPLOAD_MAX_BYTES', () => {
  it.each(['uploads', 'submit'])(
    'declared by its Content-Length: 413 before anything is stored (%s)',
    async (route) => {
      const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document', maxFileSize: 8 * MIB }]);
      const before = filesUnder(filesRoot());
      const parts =
        route === 'uploads'
          ? [
              { name: 'field', value: 'doc' },
              { name: 'file', filename: 'big.bin' },
            ]
          : [{ name: 'doc', filename: 'big.bin' }];
      const frame = multipartFrame(parts);
      const client = await RawClient.open(port);
      await client.head('POST', `/forms/${formId}/${route}`, {
        'Content-Type': frame.contentType,
        'Content-Length': String(frame.preamble.length + LIMIT + 1 + frame.closing.length),
        Accept: 'application/json',
      });
      await client.write(frame.preamble);
      for (let sent = 0; sent < LIMIT + 1; sent += 256 * 1024) {
        await client.write(randomBytes(Math.min(256 * 1024, LIMIT + 1 - sent)));
      }
      await client.write(frame.closing);
      expect(await client.status()).toBe(413);
      expect((await client.json())?.code).toBe('payload_too_large');
      client.destroy();
      await expectNothingKept(formId, before);
      expect(serverErrors()).toEqual([]);
    },
  );

  it.each([
    ['uploads', 'one file'],
    ['submit', 'one file'],
    ['submit', 'several files, each under the limit'],
  ])('streamed chunked, without a length: 413, nothing kept (%s, %s)', async (route, shape) => {
    const formId = await fileForm([
      { id: 'doc', type: 'file', label: 'Document', maxFiles: 5, maxFileSize: 8 * MIB },
    ]);
    const before = filesUnder(filesRoot());
    const several = shape !== 'one file';
    const frame = multipartFrame(
      route === 'uploads'
        ? [
            { name: 'field', value: 'doc' },
            { name: 'file', filename: 'big.bin' },
          ]
        : [{ name: 'doc', filename: 'big.bin' }],
    );
    const client = await RawClient.open(port);
    await client.head('POST', `/forms/${formId}/${route}`, {
      'Content-Type': frame.contentType,
      'Transfer-Encoding': 'chunked',
      Accept: 'application/json',
    });
    await client.chunk(frame.preamble);
    const perFile = several ? 1.5 * MIB : LIMIT + MIB;
    const files = several ? 4 : 1;
    for (let file = 0; file < files && !client.socket.destroyed; file++) {
      if (file > 0) await client.chunk(frame.between('doc'));
      for (let sent = 0; sent < perFile && !client.socket.destroyed; sent += 128 * 1024) {
        await client.chunk(randomBytes(128 * 1024));
      }
    }
    await client.chunk(frame.closing);
    await client.chunk(Buffer.alloc(0));
    expect(await client.status()).toBe(413);
    expect((await client.json())?.code).toBe('payload_too_large');
    client.destroy();
    await expectNothingKept(formId, before);
    expect(serverErrors()).toEqual([]);
  });
});
