import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, signup } from './support/factories.js';
import { multipart, PDF } from './support/multipart.js';
import { filesUnder, multipartFrame, RawClient } from './support/raw-http.js';

/**
 * A full disk under the files (API.md §12, FILE_STORAGE=local): DATA_DIR/files is a 1 MiB tmpfs
 * (the database beside it keeps its room), which only root can mount (CI runs as root; the test
 * is skipped otherwise, like src/platform/files/local-store.disk-full.test.ts). A file that does
 * not fit is 503 with Retry-After, whether it came as an upload or in a multipart submit; nothing
 * of it is half-kept (no temporary file, no row, no submission); the service goes on answering,
 * and a file that fits is taken.
 */

const MIB = 1024 * 1024;
let t: TestApp;
let token: string;
let formId: string;
let filesRoot = '';
let mounted = false;

function mount(dir: string): boolean {
  if (process.getuid?.() !== 0 || process.platform !== 'linux') return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'ignore' });
  } catch {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
  }
}

const rows = () =>
  t.app.intake.database.db
    .selectFrom('files')
    .select(['id', 'state'])
    .where('form_id', '=', formId)
    .execute();
const submissions = () =>
  t.app.intake.database.db.selectFrom('submissions').select('id').where('form_id', '=', formId).execute();

async function expectNothingKept(diskBefore: string[]): Promise<void> {
  await expect
    .poll(async () => ({ disk: filesUnder(filesRoot), rows: await rows(), submissions: await submissions() }))
    .toEqual({ disk: diskBefore, rows: [], submissions: [] });
}

beforeAll(async () => {
  t = await createTestApp();
  filesRoot = path.join(t.config.dataDir, 'files');
  fs.mkdirSync(filesRoot, { recursive: true });
  mounted = mount(filesRoot);
  const owner = await signup(t);
  token = owner.token;
  formId = (
    await createForm(t, token, {
      status: 'live',
      fields: [
        { id: 'name', type: 'text', label: 'Name' },
        { id: 'doc', type: 'file', label: 'Document', maxFileSize: 8 * MIB },
      ],
    })
  ).id;
});
afterAll(async () => {
  if (mounted) unmount(filesRoot);
  await t?.close();
});

describe('files on a full disk', () => {
  it.runIf(process.getuid?.() === 0)('mounts DATA_DIR/files on a tmpfs (root)', () => {
    expect(mounted).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'an upload that does not fit: 503 with Retry-After to a client still sending, nothing half-kept',
    async () => {
      const before = filesUnder(filesRoot);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      const frame = multipartFrame([
        { name: 'field', value: 'doc' },
        { name: 'file', filename: 'big.pdf', type: 'application/pdf' },
      ]);
      const content = Buffer.concat([PDF, randomBytes(3 * MIB)]);
      const client = await RawClient.open(port);
      await client.head('POST', `/forms/${formId}/uploads`, {
        'Content-Type': frame.contentType,
        'Content-Length': String(frame.preamble.length + content.length + frame.closing.length),
      });
      await client.write(Buffer.concat([frame.preamble, content, frame.closing]));
      expect(await client.status()).toBe(503);
      expect(client.text()).toMatch(/\r\nretry-after: \d+\r\n/i);
      expect((await client.json())?.code).toBe('service_unavailable');
      client.destroy();
      await expectNothingKept(before);
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'a multipart submit whose file does not fit: 503, no submission, nothing kept',
    async () => {
      const before = filesUnder(filesRoot);
      const { body, headers } = multipart([
        { name: 'name', value: 'Ada' },
        { name: 'doc', filename: 'big.pdf', content: Buffer.concat([PDF, randomBytes(2 * MIB)]) },
      ]);
      const response = await t.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body,
        headers: { ...headers, accept: 'application/json' },
      });
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      await expectNothingKept(before);
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'the service goes on: /health answers, and a file that fits is taken',
    async () => {
      expect((await t.request({ method: 'GET', url: '/health' })).status).toBe(200);
      const small = Buffer.concat([PDF, randomBytes(100_000)]);
      const { body, headers } = multipart([
        { name: 'name', value: 'Grace' },
        { name: 'doc', filename: 'small.pdf', content: small },
      ]);
      const response = await t.request({
        method: 'POST',
        url: `/forms/${formId}/submit`,
        body,
        headers: { ...headers, accept: 'application/json' },
      });
      expect(response.status).toBe(201);
      const read = await t.request({
        method: 'GET',
        url: `/responses/${response.body.id}?form_id=${formId}&environment=development`,
        auth: token,
      });
      const file = read.body.answers.doc[0];
      const download = await t.app.inject({
        method: 'GET',
        url: `/responses/${response.body.id}/files/${file.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(download.rawPayload.equals(small)).toBe(true);
      expect(filesUnder(filesRoot)).toEqual([file.id.toLowerCase()]);
    },
  );
});
