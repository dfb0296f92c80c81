import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { EXE, multipart, PDF, PNG, uploadFile } from '../../../test/support/multipart.js';

/**
 * Files (API.md §12) over HTTP, on the local store: the two-step upload and the JSON submit,
 * a multipart submit, judging by the bytes, the owner's download and the signed links, PII
 * modes, and nothing kept of what is refused or deleted.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let t: TestApp;
let owner: TestUser;
let formId: string;

/** Every file under DATA_DIR/files (temporary ones included). */
function storedFiles(): string[] {
  const root = path.join(t.config.dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) =>
    fs.statSync(path.join(root, entry)).isFile(),
  );
}

const upload = (form: string, field: string, filename: string, content: Buffer, type?: string) =>
  uploadFile(t, form, field, filename, content, type);

async function fileForm(fields: unknown[], extra: Record<string, unknown> = {}): Promise<string> {
  const form = await createForm(t, owner.token, { status: 'live', fields, ...extra });
  return form.id as string;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signup(t);
  formId = await fileForm([
    { id: 'name', type: 'text', label: 'Name' },
    { id: 'cv', type: 'file', label: 'Your CV', maxFiles: 2, maxFileSize: 5000, accept: ['.pdf', 'image/*'] },
  ]);
});
afterAll(() => t.close());

describe('the file field in the definition', () => {
  it('refuses file members on other fields and a maxFileSize over FILE_MAX_BYTES', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      body: {
        title: 'Bad',
        environment: 'development',
        fields: [
          { id: 'a', type: 'text', label: 'A', maxFiles: 2 },
          { id: 'b', type: 'file', label: 'B', maxFileSize: t.config.fileMaxBytes + 1 },
          { id: 'c', type: 'file', label: 'C', maxFiles: 21, accept: ['not a type'] },
        ],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_form');
    const at = response.body.errors.map((error: { field: string }) => error.field);
    expect(at).toEqual(
      expect.arrayContaining(['fields[0].maxFiles', 'fields[1].maxFileSize', 'fields[2].maxFiles']),
    );
  });

  it('refuses a spam rule on a file field (a rule reads text)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/forms',
      auth: owner.token,
      body: {
        title: 'Rules',
        environment: 'development',
        fields: [{ id: 'doc', type: 'file', label: 'Document' }],
        spamProtection: { action: 'reject', rules: [{ field: 'doc', op: 'contains', value: 'casino' }] },
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      expect.objectContaining({ field: 'spamProtection.rules[0].field', code: 'not_applicable' }),
    ]);
  });
});

describe('two steps: upload, then a JSON submit', () => {
  it('stores a file judged by its bytes, attaches it once, and gives it back byte for byte', async () => {
    const uploaded = await upload(formId, 'cv', 'photo.png', PNG, 'text/plain');
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      name: 'photo.png',
      type: 'image/png',
      size: PNG.length,
      sha256: sha256(PNG),
    });
    expect(uploaded.body.uploadId).toMatch(/^upl_/);

    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { name: 'Ada', cv: [uploaded.body.uploadId] } },
    });
    expect(submitted.status).toBe(201);
    const read = await t.request({
      method: 'GET',
      url: `/responses/${submitted.body.id}?form_id=${formId}&environment=development`,
      auth: owner.token,
    });
    expect(read.status).toBe(200);
    const [file] = read.body.answers.cv;
    expect(file).toMatchObject({
      name: 'photo.png',
      type: 'image/png',
      size: PNG.length,
      sha256: sha256(PNG),
    });
    expect(file.id).toMatch(/^fil_/);
    expect(file.url).toMatch(/\/files\//);

    const download = await t.app.inject({
      method: 'GET',
      url: `/responses/${submitted.body.id}/files/${file.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="photo.png"/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toMatch(/sandbox/);

    const ranged = await t.app.inject({
      method: 'GET',
      url: `/responses/${submitted.body.id}/files/${file.id}`,
      headers: { authorization: `Bearer ${owner.token}`, range: 'bytes=0-7' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(PNG.subarray(0, 8))).toBe(true);

    const link = new URL(file.url, 'http://localhost');
    const byLink = await t.app.inject({ method: 'GET', url: link.pathname });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.rawPayload.equals(PNG)).toBe(true);
    const altered = await t.app.inject({ method: 'GET', url: `${link.pathname.slice(0, -3)}AAA` });
    expect(altered.statusCode).toBe(404);

    // used once
    const again = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { cv: [uploaded.body.uploadId] } },
    });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual([expect.objectContaining({ field: 'cv', code: 'unknown_upload' })]);
  });

  it('says a refused type in the request’s language, its kinds of file included (never English inside German)', async () => {
    const { body, headers } = multipart([
      { name: 'field', value: 'cv' },
      { name: 'file', filename: 'tool.exe', content: EXE, type: 'application/octet-stream' },
    ]);
    const response = await t.request({
      method: 'POST',
      url: `/forms/${formId}/uploads?lang=de`,
      body,
      headers: { ...headers, 'accept-language': 'de' },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors[0]).toMatchObject({
      field: 'cv',
      code: 'file_type',
      message: '“tool.exe” is not a file of an accepted type (PDF or images)',
      localizedMessage: '„tool.exe“ ist keine Datei eines erlaubten Typs (PDF oder Bilder)',
    });
  });

  it('refuses a disguised type, a file too large, too many files, an empty one, and an upload of another form', async () => {
    const disguised = await upload(formId, 'cv', 'photo.png', EXE, 'image/png');
    expect(disguised.status).toBe(400);
    expect(disguised.body.errors[0]).toMatchObject({ field: 'cv', code: 'file_type' });

    const large = await upload(formId, 'cv', 'big.pdf', Buffer.concat([PDF, Buffer.alloc(6000, 32)]));
    expect(large.status).toBe(400);
    expect(large.body.errors[0]).toMatchObject({ field: 'cv', code: 'file_too_large' });

    const empty = await upload(formId, 'cv', 'empty.pdf', Buffer.alloc(0));
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ field: 'cv', code: 'file_empty' });

    const unknownField = await upload(formId, 'name', 'a.pdf', PDF);
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.errors[0]).toMatchObject({ field: 'field', code: 'unknown_field' });

    const ids = [];
    for (const name of ['a.pdf', 'b.pdf', 'c.pdf'])
      ids.push((await upload(formId, 'cv', name, PDF)).body.uploadId);
    const tooMany = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { cv: ids } },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]).toMatchObject({ field: 'cv', code: 'too_many_files' });

    const other = await fileForm([{ id: 'cv', type: 'file', label: 'CV' }]);
    const foreign = await t.request({
      method: 'POST',
      url: `/forms/${other}/submit`,
      body: { answers: { cv: [ids[0]] } },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0]).toMatchObject({ field: 'cv', code: 'unknown_upload' });
  });

  it('refuses two files in one upload: 400 validation_failed naming the second part, nothing kept', async () => {
    const before = storedFiles().length;
    const { body, headers } = multipart([
      { name: 'field', value: 'cv' },
      { name: 'file', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
      { name: 'file', filename: 'b.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const response = await t.request({ method: 'POST', url: `/forms/${formId}/uploads`, body, headers });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors).toEqual([expect.objectContaining({ field: 'file', code: 'unknown_part' })]);
    expect(storedFiles().length).toBe(before);
  });

  it('keeps a safe name: no path, no control characters, at most 255 characters', async () => {
    const traversal = await upload(formId, 'cv', '../../etc/passwd.pdf', PDF);
    expect(traversal.status).toBe(201);
    expect(traversal.body.name).toBe('passwd.pdf');
    const long = await upload(formId, 'cv', `${'😀'.repeat(300)}.pdf`, PDF);
    expect(long.status).toBe(201);
    expect([...long.body.name].length).toBe(255);
    expect(long.body.name.endsWith('.pdf')).toBe(true);
  });
});

describe('a multipart form post', () => {
  it('takes files with the answers, and keeps nothing of a refused post', async () => {
    const form = await fileForm([
      { id: 'name', type: 'text', label: 'Name', required: true },
      { id: 'doc', type: 'file', label: 'Document', required: true },
    ]);
    const before = storedFiles().length;
    const refused = multipart([{ name: 'doc', filename: 'a.pdf', content: PDF, type: 'application/pdf' }]);
    const answer = await t.request({
      method: 'POST',
      url: `/forms/${form}/submit`,
      body: refused.body,
      headers: { ...refused.headers, accept: 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'name', code: 'required' })]);
    expect(storedFiles().length).toBe(before);

    const good = multipart([
      { name: 'name', value: 'Grace' },
      { name: 'doc', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const stored = await t.request({
      method: 'POST',
      url: `/forms/${form}/submit`,
      body: good.body,
      headers: { ...good.headers, accept: 'application/json' },
    });
    expect(stored.status).toBe(201);
    expect(storedFiles().length).toBe(before + 1);
    const read = await t.request({
      method: 'GET',
      url: `/responses/${stored.body.id}?form_id=${form}&environment=development`,
      auth: owner.token,
    });
    expect(read.body.answers.doc[0]).toMatchObject({
      name: 'a.pdf',
      type: 'application/pdf',
      sha256: sha256(PDF),
    });

    // deleted with its submission
    const deleted = await t.request({
      method: 'DELETE',
      url: `/responses/${stored.body.id}`,
      auth: owner.token,
    });
    expect(deleted.status).toBe(204);
    await expect.poll(() => storedFiles().length).toBe(before);
    const link = new URL(read.body.answers.doc[0].url, 'http://localhost');
    expect((await t.app.inject({ method: 'GET', url: link.pathname })).statusCode).toBe(404);
  });
});

describe.skipIf(process.env.DATABASE_URL)('a multipart post answered 503 after its commit (SQLite)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the files its stored submission took: the WAL flush failed, the submission is there', async () => {
    const form = await fileForm([
      { id: 'name', type: 'text', label: 'Name', required: true },
      { id: 'doc', type: 'file', label: 'Document', required: true },
    ]);
    const realFdatasync = fs.fdatasync;
    // the upload's row is flushed first, then the submission's commit: that flush fails
    let flushes = 0;
    vi.spyOn(fs, 'fdatasync').mockImplementation(((fd: number, callback: (error: Error | null) => void) => {
      flushes += 1;
      if (flushes !== 2) return realFdatasync(fd, callback);
      callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    }) as typeof fs.fdatasync);
    const before = storedFiles().length;
    const post = multipart([
      { name: 'name', value: 'Grace' },
      { name: 'doc', filename: 'kept.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const answer = await t.request({
      method: 'POST',
      url: `/forms/${form}/submit`,
      body: post.body,
      headers: { ...post.headers, accept: 'application/json' },
    });
    // not acknowledged (its flush failed)…
    expect(answer.status, answer.text).toBe(503);
    expect(flushes).toBeGreaterThanOrEqual(2);
    // …but committed: the submission is listed, and the file it took is still there to download
    const list = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form}&environment=development`,
      auth: owner.token,
    });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const [file] = list.body.data[0].answers.doc;
    expect(file).toMatchObject({ name: 'kept.pdf', sha256: sha256(PDF) });
    expect(storedFiles().length).toBe(before + 1);
    const download = await t.app.inject({
      method: 'GET',
      url: new URL(file.url, 'http://localhost').pathname,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(PDF));
  });
});

describe('PII on files', () => {
  it('encrypted: the bytes at rest reveal nothing, the owner gets them back', async () => {
    const form = await fileForm([{ id: 'doc', type: 'file', label: 'Document', piiMode: 'encrypted' }]);
    const secret = Buffer.concat([PDF, Buffer.from('the secret text inside')]);
    const uploaded = await upload(form, 'doc', 'secret.pdf', secret);
    expect(uploaded.status).toBe(201);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${form}/submit`,
      body: { answers: { doc: [uploaded.body.uploadId] } },
    });
    const read = await t.request({
      method: 'GET',
      url: `/responses/${submitted.body.id}?form_id=${form}&environment=development`,
      auth: owner.token,
    });
    const file = read.body.answers.doc[0];
    const root = path.join(t.config.dataDir, 'files');
    const onDisk = fs.readFileSync(path.join(root, file.id.toLowerCase()));
    expect(onDisk.includes(Buffer.from('the secret text'))).toBe(false);
    expect(onDisk.includes(Buffer.from('%PDF'))).toBe(false);
    const download = await t.app.inject({
      method: 'GET',
      url: `/responses/${submitted.body.id}/files/${file.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(download.rawPayload.equals(secret)).toBe(true);
  });

  it('hashed keeps a checksum and no bytes; dropped keeps nothing; masked hides the name', async () => {
    const form = await fileForm([
      { id: 'h', type: 'file', label: 'Hashed', piiMode: 'hashed' },
      { id: 'd', type: 'file', label: 'Dropped', piiMode: 'dropped' },
      { id: 'm', type: 'file', label: 'Masked', piiMode: 'masked' },
    ]);
    const before = storedFiles().length;
    const h = await upload(form, 'h', 'private.pdf', PDF);
    const d = await upload(form, 'd', 'gone.pdf', PDF);
    const m = await upload(form, 'm', 'masked-name.pdf', PDF);
    expect(storedFiles().length).toBe(before + 1);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${form}/submit`,
      body: { answers: { h: [h.body.uploadId], d: [d.body.uploadId], m: [m.body.uploadId] } },
    });
    expect(submitted.status).toBe(201);
    const read = await t.request({
      method: 'GET',
      url: `/responses/${submitted.body.id}?form_id=${form}&environment=development`,
      auth: owner.token,
    });
    expect(read.body.answers.h).toEqual([
      { name: `sha256:${sha256(Buffer.from('private.pdf'))}`, size: PDF.length, sha256: sha256(PDF) },
    ]);
    expect(read.body.answers.d).toBeUndefined();
    expect(read.body.answers.m[0].name).not.toContain('masked-name');
    expect(read.body.answers.m[0].name).toMatch(/\*+df$/);
    // every output: the owner's download and the signed link are named as the answer shows it
    const owned = await t.request({
      method: 'GET',
      url: `/responses/${submitted.body.id}/files/${read.body.answers.m[0].id}?form_id=${form}&environment=development`,
      auth: owner.token,
    });
    const linked = await t.app.inject({
      method: 'GET',
      url: new URL(read.body.answers.m[0].url, 'http://link.invalid').pathname,
    });
    for (const disposition of [owned.headers['content-disposition'], linked.headers['content-disposition']]) {
      expect(disposition).toContain(`filename="${read.body.answers.m[0].name}"`);
      expect(disposition).not.toContain('masked-name');
    }
    expect(linked.statusCode).toBe(200);
  });
});

describe('a file with script in it', () => {
  it('is sent as an attachment under a sandbox, never as a page', async () => {
    const form = await fileForm([{ id: 'doc', type: 'file', label: 'Anything' }]);
    const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
    const uploaded = await upload(form, 'doc', 'page.html', html, 'text/html');
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${form}/submit`,
      body: { answers: { doc: [uploaded.body.uploadId] } },
    });
    const read = await t.request({
      method: 'GET',
      url: `/responses/${submitted.body.id}?form_id=${form}&environment=development`,
      auth: owner.token,
    });
    const link = new URL(read.body.answers.doc[0].url, 'http://localhost');
    const response = await t.app.inject({ method: 'GET', url: link.pathname });
    expect(response.headers['content-disposition']).toMatch(/^attachment;/);
    expect(response.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('FILE_MAX_BYTES', () => {
  it('caps the default size of a field that sets none (10 MiB, at most FILE_MAX_BYTES)', async () => {
    const small = await createTestApp({ fileMaxBytes: 8000 });
    try {
      const user = await signup(small);
      const form = await createForm(small, user.token, {
        status: 'live',
        fields: [{ id: 'doc', type: 'file', label: 'Document' }],
      });
      /** A PDF padded with `padding` spaces. */
      const pdfOf = (name: string, padding: number) =>
        uploadFile(small, form.id, 'doc', name, Buffer.concat([PDF, Buffer.alloc(padding, 32)]));
      const over = await pdfOf('big.pdf', 9000);
      expect(over.status, over.text).toBe(400);
      expect(over.body.errors[0]).toMatchObject({ field: 'doc', code: 'file_too_large' });
      const under = await pdfOf('ok.pdf', 5000);
      expect(under.status, under.text).toBe(201);
      // the hosted page says, and its script checks, what the server takes
      const page = await small.request({ method: 'GET', url: `/f/${form.id}` });
      expect(page.text).toContain('data-max-size="8000"');
      expect(page.text).not.toContain('10 MB');
    } finally {
      await small.close();
    }
  });
});
