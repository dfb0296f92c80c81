import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { EICAR, type FakeClamd, startFakeClamd, unreachableClamdUrl } from './support/clamd.js';
import { createForm, signup } from './support/factories.js';
import { multipart, PDF, uploadFile } from './support/multipart.js';
import { filesUnder } from './support/raw-http.js';

/**
 * Scanning through the API (API.md §12, CLAMD_URL): every file streams through clamd (here a
 * stand-in speaking INSTREAM, test/support/clamd.ts) before it is kept. A clean file is taken;
 * an infected one is 400 validation_failed with the code `infected` and nothing of it is kept;
 * clamd unreachable is 503 with Retry-After, and nothing is kept either. Through the upload
 * route and through a multipart submit alike.
 */

interface Setup {
  t: TestApp;
  token: string;
  formId: string;
}

async function setUp(clamdUrl: string): Promise<Setup> {
  const t = await createTestApp({ clamdUrl });
  const owner = await signup(t);
  const form = await createForm(t, owner.token, {
    status: 'live',
    fields: [
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'doc', type: 'file', label: 'Document', maxFiles: 3 },
    ],
  });
  return { t, token: owner.token, formId: form.id };
}

const stored = ({ t }: Setup) => filesUnder(path.join(t.config.dataDir, 'files'));
const rows = async ({ t, formId }: Setup) =>
  t.app.intake.database.db
    .selectFrom('files')
    .select(['id', 'state'])
    .where('form_id', '=', formId)
    .execute();
const submissions = async ({ t, formId }: Setup) =>
  t.app.intake.database.db.selectFrom('submissions').select('id').where('form_id', '=', formId).execute();

const upload = ({ t, formId }: Setup, filename: string, content: Buffer) =>
  uploadFile(t, formId, 'doc', filename, content);

async function submitMultipart({ t, formId }: Setup, files: Array<{ filename: string; content: Buffer }>) {
  const { body, headers } = multipart([
    { name: 'name', value: 'Ada' },
    ...files.map((file) => ({ name: 'doc', ...file })),
  ]);
  return t.request({
    method: 'POST',
    url: `/forms/${formId}/submit`,
    body,
    headers: { ...headers, accept: 'application/json' },
  });
}

/** Nothing of the form's files is left: no bytes, no row, no submission. */
async function expectNothingKept(setup: Setup, diskBefore: string[]): Promise<void> {
  await expect
    .poll(async () => ({
      disk: stored(setup),
      rows: await rows(setup),
      submissions: await submissions(setup),
    }))
    .toEqual({ disk: diskBefore, rows: [], submissions: [] });
}

// EICAR in the middle of a larger file: found across the chunks it is streamed in
const infectedInside = Buffer.concat([
  Buffer.from('plain text\n'.repeat(20_000)),
  Buffer.from(EICAR, 'latin1'),
  Buffer.from('\nmore text\n'.repeat(20_000)),
]);

describe('with clamd answering', () => {
  let clamd: FakeClamd;
  let setup: Setup;
  beforeAll(async () => {
    clamd = await startFakeClamd();
    setup = await setUp(clamd.url);
  });
  afterAll(async () => {
    await setup?.t.close();
    await clamd?.close();
  });

  it('takes a clean file, scanned whole before it is acknowledged', async () => {
    const content = Buffer.concat([PDF, randomBytes(200_000)]);
    const scansBefore = clamd.scans.length;
    const uploaded = await upload(setup, 'clean.pdf', content);
    expect(uploaded.status).toBe(201);
    expect(clamd.scans.slice(scansBefore)).toEqual([{ bytes: content.length, answer: 'stream: OK' }]);

    const submitted = await submitMultipart(setup, [{ filename: 'also-clean.pdf', content: PDF }]);
    expect(submitted.status).toBe(201);
    expect(clamd.scans.at(-1)).toEqual({ bytes: PDF.length, answer: 'stream: OK' });
    const json = await setup.t.request({
      method: 'POST',
      url: `/forms/${setup.formId}/submit`,
      body: { answers: { doc: [uploaded.body.uploadId] } },
    });
    expect(json.status).toBe(201);
  });

  it.each([
    ['the EICAR file', Buffer.from(EICAR, 'latin1')],
    ['EICAR inside a larger file', infectedInside],
  ])('refuses %s as infected (400 validation_failed), keeping nothing', async (_what, content) => {
    const before = stored(setup);
    const submittedBefore = (await submissions(setup)).length;
    const rowsBefore = (await rows(setup)).length;

    const uploaded = await upload(setup, 'eicar.txt', content);
    expect(uploaded.status).toBe(400);
    expect(uploaded.body.code).toBe('validation_failed');
    expect(uploaded.body.errors[0]).toMatchObject({ field: 'doc', code: 'infected' });

    const submitted = await submitMultipart(setup, [
      { filename: 'clean.pdf', content: PDF },
      { filename: 'eicar.txt', content },
    ]);
    expect(submitted.status).toBe(400);
    expect(submitted.body.code).toBe('validation_failed');
    expect(submitted.body.errors[0]).toMatchObject({ field: 'doc', code: 'infected' });

    await expect
      .poll(async () => ({
        disk: stored(setup),
        rows: (await rows(setup)).length,
        submissions: (await submissions(setup)).length,
      }))
      .toEqual({ disk: before, rows: rowsBefore, submissions: submittedBefore });
  });
});

describe('with clamd unreachable', () => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp(await unreachableClamdUrl());
  });
  afterAll(async () => {
    await setup?.t.close();
  });

  it('an upload is 503 with Retry-After, and nothing is kept', async () => {
    const before = stored(setup);
    const uploaded = await upload(setup, 'a.pdf', Buffer.concat([PDF, randomBytes(100_000)]));
    expect(uploaded.status).toBe(503);
    expect(uploaded.body.code).toBe('service_unavailable');
    expect(uploaded.headers['retry-after']).toMatch(/^\d+$/);
    await expectNothingKept(setup, before);
  });

  it('a multipart submit is 503 with Retry-After, and nothing is kept', async () => {
    const before = stored(setup);
    const submitted = await submitMultipart(setup, [{ filename: 'a.pdf', content: PDF }]);
    expect(submitted.status).toBe(503);
    expect(submitted.body.code).toBe('service_unavailable');
    expect(submitted.headers['retry-after']).toMatch(/^\d+$/);
    await expectNothingKept(setup, before);
    // and the service goes on answering
    expect((await setup.t.request({ method: 'GET', url: '/health' })).status).toBe(200);
  });
});
