import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { createForm, signup, type TestUser } from '../../../test/support/factories.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/support/mail.js';
import { multipart, PDF, PNG, uploadFile } from '../../../test/support/multipart.js';
import { startReceiver, type WebhookReceiver } from '../../../test/support/webhook-receiver.js';
import { runRetention } from '../submissions/retention.js';

/**
 * Files (API.md §12) beyond the submit: links in every output (webhooks, CSV), the storage an
 * environment takes (`storageBytes`, STORAGE_QUOTA_BYTES), and files going with their
 * submission, form or retention.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const QUOTA = 4000;

let t: TestApp;
let owner: TestUser;
let receiver: WebhookReceiver;
let smtp: TestSmtpServer;

function storedFiles(): string[] {
  const root = path.join(t.config.dataDir, 'files');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) =>
    fs.statSync(path.join(root, entry)).isFile(),
  );
}

const upload = (form: string, field: string, filename: string, content: Buffer) =>
  uploadFile(t, form, field, filename, content);

async function submitWithFile(form: string, field: string, content: Buffer, name = 'a.pdf'): Promise<string> {
  const uploaded = await upload(form, field, name, content);
  expect(uploaded.status, uploaded.text).toBe(201);
  const submitted = await t.request({
    method: 'POST',
    url: `/forms/${form}/submit`,
    body: { answers: { [field]: [uploaded.body.uploadId] } },
  });
  expect(submitted.status, submitted.text).toBe(201);
  return submitted.body.id;
}

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpServer();
  t = await createTestApp(
    { storageQuotaBytes: QUOTA, smtpUrl: smtp.url, publicUrl: 'https://forms.example.com' },
    { outbox: { pollMs: 30 } },
  );
  owner = await signup(t);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await smtp?.close();
});

describe('links in what goes out', () => {
  it('a webhook carries each file with its signed link, which downloads the bytes', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    const hook = await t.request({
      method: 'POST',
      url: '/webhooks',
      auth: owner.token,
      body: { formId: form.id, event: 'response.created', url: `${receiver.url}/files-hook` },
    });
    expect(hook.status, hook.text).toBe(201);
    await submitWithFile(form.id, 'doc', PNG, 'dot.png');
    await receiver.waitFor(() => receiver.on('/files-hook').length > 0);
    const payload = JSON.parse(receiver.on('/files-hook')[0]?.body ?? '{}');
    const text = JSON.stringify(payload);
    const url = /"url":"([^"]*\/files\/[^"]+)"/.exec(text)?.[1];
    expect(url).toBeDefined();
    expect(text).toContain(sha256(PNG));
    const download = await t.app.inject({ method: 'GET', url: new URL(url ?? '', 'http://x').pathname });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
  });

  it('the notification mail names each file with its link', async () => {
    const to = `files-${Date.now()}@owner.test`;
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
      notifications: { email: { enabled: true, to: [to] } },
    });
    await submitWithFile(form.id, 'doc', PDF, 'report.pdf');
    const mails = await smtp.waitFor((received) => received.some((mail) => mail.rcptTo.includes(to)), 10_000);
    const mail = mails.find((received) => received.rcptTo.includes(to));
    expect(mail?.text).toMatch(/report\.pdf <https:\/\/forms\.example\.com\/files\/[^>\s]+>/);
  });

  it('the CSV names each file with its link', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document', maxFiles: 2 }],
    });
    const a = await upload(form.id, 'doc', 'one.pdf', PDF);
    const b = await upload(form.id, 'doc', 'two.png', PNG);
    await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { doc: [a.body.uploadId, b.body.uploadId] } },
    });
    const csv = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&format=csv`,
      auth: owner.token,
    });
    expect(csv.status).toBe(200);
    expect(csv.text).toMatch(/"one\.pdf <[^>]*\/files\/[^>]+>; two\.png <[^>]*\/files\/[^>]+>"/);
    // the workbook's cell is the CSV's; NDJSON's line has the files as GET /responses lists them
    const cell = /"(one\.pdf <[^"]+)"/.exec(csv.text)?.[1];
    const xlsx = await t.app.inject({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&format=xlsx`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    // each export signs its links afresh (the expiry counts from that second), so links are compared by file
    const byFile = (text: unknown) => String(text).replace(/(\/files\/fil_[0-9a-z]+)\.[^>]+>/g, '$1>');
    expect(byFile(cell)).not.toBe(cell);
    expect(byFile(workbook.worksheets[0]?.getRow(2).getCell(7).value)).toBe(byFile(cell));
    const ndjson = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development&format=ndjson`,
      auth: owner.token,
    });
    const listed = await t.request({
      method: 'GET',
      url: `/responses?form_id=${form.id}&environment=development`,
      auth: owner.token,
    });
    const files = JSON.parse(ndjson.text.trim()).answers.doc;
    // the same files as the list (their links are signed afresh, so compared by name and id)
    const ofFile = (file: { id: string; name: string }) => `${file.id} ${file.name}`;
    expect(files.map(ofFile)).toEqual(listed.body.data[0].answers.doc.map(ofFile));
    expect(files[0].url).toMatch(/\/files\//);
  });
});

describe('storage', () => {
  it('counts the bytes kept in GET /analytics and refuses uploads past STORAGE_QUOTA_BYTES', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    const before = await t.request({
      method: 'GET',
      url: '/analytics?environment=development',
      auth: user.token,
    });
    expect(before.body.totals.storageBytes).toBe(0);
    const big = Buffer.concat([PDF, Buffer.alloc(QUOTA - PDF.length - 10, 32)]);
    await submitWithFile(form.id, 'doc', big);
    const after = await t.request({
      method: 'GET',
      url: '/analytics?environment=development',
      auth: user.token,
    });
    expect(after.body.totals.storageBytes).toBe(big.length);
    // under the quota still: this one overflows it, and is thrown away
    const overflowing = await upload(form.id, 'doc', 'b.pdf', PDF);
    expect(overflowing.status).toBe(429);
    expect(overflowing.body.code).toBe('quota_exceeded');
    expect(overflowing.headers['retry-after']).toBeDefined();
    const still = await t.request({
      method: 'GET',
      url: '/analytics?environment=development',
      auth: user.token,
    });
    expect(still.body.totals.storageBytes).toBe(big.length);
  });
});

describe('storage under concurrent uploads', () => {
  it('keeps exactly the uploads that fit the quota, however they race', async () => {
    const user = await signup(t);
    const form = await createForm(t, user.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    // four of these fit in QUOTA, a fifth does not
    const piece = Buffer.concat([PDF, Buffer.alloc(900 - PDF.length, 32)]);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => upload(form.id, 'doc', `part-${i}.pdf`, piece)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(4).fill(201), ...Array(6).fill(429)]);
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body.code).toBe('quota_exceeded');
    }
    const analytics = await t.request({
      method: 'GET',
      url: '/analytics?environment=development',
      auth: user.token,
    });
    expect(analytics.body.totals.storageBytes).toBe(4 * piece.length);
  });
});

describe('files go with what holds them', () => {
  it('a deleted form takes its responses’ files and its unused uploads with it', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    const before = storedFiles().length;
    await submitWithFile(form.id, 'doc', PDF);
    const unused = await upload(form.id, 'doc', 'unused.pdf', PDF);
    expect(unused.status).toBe(201);
    expect(storedFiles().length).toBe(before + 2);
    const deleted = await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: owner.token });
    expect(deleted.status).toBe(204);
    await expect.poll(() => storedFiles().length).toBe(before);
  });

  it('a link dies with its response or form at once, before the sweep has removed the bytes', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    const linkOf = async (id: string) => {
      const read = await t.request({
        method: 'GET',
        url: `/responses/${id}?form_id=${form.id}&environment=development`,
        auth: owner.token,
      });
      return new URL(read.body.answers.doc[0].url).pathname;
    };
    const first = await submitWithFile(form.id, 'doc', PDF);
    const second = await submitWithFile(form.id, 'doc', PDF);
    const [firstLink, secondLink] = [await linkOf(first), await linkOf(second)];
    expect((await t.app.inject({ method: 'GET', url: firstLink })).statusCode).toBe(200);
    // the sweep held back: what the links say is the route's own judgement
    const sweep = t.app.intakeFiles.sweep;
    await sweep.stop();
    try {
      const before = storedFiles().length;
      expect(
        (await t.request({ method: 'DELETE', url: `/responses/${first}`, auth: owner.token })).status,
      ).toBe(204);
      expect((await t.app.inject({ method: 'GET', url: firstLink })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: secondLink })).statusCode).toBe(200);
      expect(
        (await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: owner.token })).status,
      ).toBe(204);
      expect((await t.app.inject({ method: 'GET', url: secondLink })).statusCode).toBe(404);
      // the bytes were still there: the sweep had not run
      expect(storedFiles().length).toBe(before);
    } finally {
      sweep.start();
    }
    await sweep.runOnce();
  });

  it('a forwarded file’s link (a form that stores nothing) dies with its form at once', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      storage: { mode: 'none' },
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    await submitWithFile(form.id, 'doc', PDF);
    const [file] = await t.app.intake.database.db
      .selectFrom('files')
      .select(['id', 'state'])
      .where('form_id', '=', form.id)
      .execute();
    expect(file?.state).toBe('forwarded');
    const link = new URL(t.app.intakeFiles.service.links.url(file?.id ?? '')).pathname;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);
    const sweep = t.app.intakeFiles.sweep;
    await sweep.stop();
    try {
      expect(
        (await t.request({ method: 'DELETE', url: `/forms/${form.id}`, auth: owner.token })).status,
      ).toBe(204);
      // no submission held it: only the form's own existence says the link is dead
      expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(404);
    } finally {
      sweep.start();
    }
    await sweep.runOnce();
  });

  it('retention deletes the files of the responses it deletes', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      retention: { days: 1 },
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    const before = storedFiles().length;
    await submitWithFile(form.id, 'doc', PDF);
    expect(storedFiles().length).toBe(before + 1);
    await runRetention(t.app.intake.database, new Date(Date.now() + 3 * 24 * 3600 * 1000));
    await t.app.intakeFiles.sweep.runOnce();
    expect(storedFiles().length).toBe(before);
  });

  it('an upload never used is swept once its day is over', async () => {
    const form = await createForm(t, owner.token, {
      status: 'live',
      fields: [{ id: 'doc', type: 'file', label: 'Document' }],
    });
    const before = storedFiles().length;
    const unused = await upload(form.id, 'doc', 'unused.pdf', PDF);
    expect(storedFiles().length).toBe(before + 1);
    await t.app.intake.database.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('upload_id', '=', unused.body.uploadId)
      .execute();
    await t.app.intakeFiles.sweep.runOnce();
    expect(storedFiles().length).toBe(before);
    const late = await t.request({
      method: 'POST',
      url: `/forms/${form.id}/submit`,
      body: { answers: { doc: [unused.body.uploadId] } },
    });
    expect(late.status).toBe(400);
    expect(late.body.errors[0].code).toBe('unknown_upload');
  });
});

describe('the upload rate limit', () => {
  it('counts uploads per client address: ten times the submissions’ limit a minute, then 429', async () => {
    const limited = await createTestApp({ rateLimitPublic: 1 });
    try {
      const user = await signup(limited);
      const form = await createForm(limited, user.token, {
        status: 'live',
        fields: [{ id: 'doc', type: 'file', label: 'Document' }],
      });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const { body, headers } = multipart([
          { name: 'field', value: 'doc' },
          { name: 'file', filename: 'a.pdf', content: PDF },
        ]);
        const response = await limited.request({
          method: 'POST',
          url: `/forms/${form.id}/uploads`,
          body,
          headers,
        });
        statuses.push(response.status);
        if (response.status === 429) {
          expect(response.body.code).toBe('rate_limited');
          expect(response.headers['retry-after']).toBeDefined();
        }
      }
      expect(statuses).toEqual([...Array(10).fill(201), 429]);
    } finally {
      await limited.close();
    }
  });
});
