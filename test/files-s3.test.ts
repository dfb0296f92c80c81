import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.js';
import { createForm, signup, type TestUser } from './support/factories.js';
import { multipart, PDF, uploadFile } from './support/multipart.js';
import { multipartFrame, RawClient } from './support/raw-http.js';
import { startS3Server, type TestS3Server } from './support/s3-server.js';

/**
 * Files (API.md §12) with FILE_STORAGE=s3, against a real S3-protocol server (s3rver, over HTTP,
 * through the AWS SDK as in production, its credentials from AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY as an operator gives them): the key behaviours of the API as on local
 * disk (upload, submit, the owner's download byte for byte, encryption at rest, a deleted
 * response's bytes gone, a refused submission's never kept), and S3 going down during an
 * upload (503 with Retry-After, the service answering meanwhile) and coming back.
 */

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MIB = 1024 * 1024;
const PREFIX = 'intake/';

let s3: TestS3Server;
let t: TestApp;
let owner: TestUser;
let bucket: S3Client;
const savedEnv = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

/** The keys of the objects under the prefix, as the bucket lists them. */
async function objectKeys(): Promise<string[]> {
  const listed = await bucket.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: PREFIX }));
  return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
}

async function objectBytes(key: string): Promise<Buffer> {
  const object = await bucket.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(
    await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
  );
}

async function fileForm(fields: unknown[]): Promise<string> {
  return (await createForm(t, owner.token, { status: 'live', fields })).id as string;
}

const upload = (formId: string, field: string, filename: string, content: Buffer) =>
  uploadFile(t, formId, field, filename, content);

async function read(formId: string, id: string) {
  return t.request({
    method: 'GET',
    url: `/responses/${id}?form_id=${formId}&environment=development`,
    auth: owner.token,
  });
}

async function download(submissionId: string, fileId: string) {
  return t.app.inject({
    method: 'GET',
    url: `/responses/${submissionId}/files/${fileId}`,
    headers: { authorization: `Bearer ${owner.token}` },
  });
}

beforeAll(async () => {
  s3 = await startS3Server();
  // the SDK's default chain, as an operator configures it (S3FileStore is given no credentials)
  process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
  bucket = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: s3.credentials,
  });
  t = await createTestApp({
    fileStorage: { kind: 's3', bucket: s3.bucket, prefix: PREFIX },
    s3Endpoint: s3.endpoint,
    s3Region: s3.region,
  });
  owner = await signup(t);
});
afterAll(async () => {
  await t?.close();
  bucket?.destroy();
  await s3?.close();
  process.env.AWS_ACCESS_KEY_ID = savedEnv.id;
  process.env.AWS_SECRET_ACCESS_KEY = savedEnv.secret;
  if (savedEnv.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  if (savedEnv.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
});

describe('files on S3', () => {
  it('an upload (a multipart upload of several parts) submitted, then downloaded byte for byte', async () => {
    const formId = await fileForm([
      { id: 'name', type: 'text', label: 'Name' },
      { id: 'doc', type: 'file', label: 'Document', maxFileSize: 20 * MIB },
    ]);
    const content = Buffer.concat([PDF, randomBytes(11 * MIB)]); // three parts of 5 MiB at most
    const uploaded = await upload(formId, 'doc', 'large.pdf', content);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      type: 'application/pdf',
      size: content.length,
      sha256: sha256(content),
    });
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { name: 'Ada', doc: [uploaded.body.uploadId] } },
    });
    expect(submitted.status).toBe(201);
    const file = (await read(formId, submitted.body.id)).body.answers.doc[0];
    // stored under the prefix and a generated key, never the client's name
    expect(await objectKeys()).toContain(`${PREFIX}${file.id.toLowerCase()}`);
    expect((await objectKeys()).some((key) => key.includes('large'))).toBe(false);
    const back = await download(submitted.body.id, file.id);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(content)).toBe(true);
    const ranged = await t.app.inject({
      method: 'GET',
      url: `/responses/${submitted.body.id}/files/${file.id}`,
      headers: { authorization: `Bearer ${owner.token}`, range: `bytes=${6 * MIB}-${6 * MIB + 99}` },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.equals(content.subarray(6 * MIB, 6 * MIB + 100))).toBe(true);
  });

  it('a multipart submit stores its file on S3, and the signed link gives it back', async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
    const content = Buffer.concat([PDF, randomBytes(300_000)]);
    const { body, headers } = multipart([
      { name: 'doc', filename: 'a.pdf', content, type: 'application/pdf' },
    ]);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body,
      headers: { ...headers, accept: 'application/json' },
    });
    expect(submitted.status).toBe(201);
    const file = (await read(formId, submitted.body.id)).body.answers.doc[0];
    expect(file.sha256).toBe(sha256(content));
    const byLink = await t.app.inject({ method: 'GET', url: new URL(file.url, 'http://localhost').pathname });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.rawPayload.equals(content)).toBe(true);
  });

  it('encrypted: the object in the bucket does not hold the plaintext; the owner gets it back', async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document', piiMode: 'encrypted' }]);
    const secret = Buffer.concat([PDF, Buffer.from('the secret text inside '.repeat(100))]);
    const uploaded = await upload(formId, 'doc', 'secret.pdf', secret);
    expect(uploaded.status).toBe(201);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { doc: [uploaded.body.uploadId] } },
    });
    const file = (await read(formId, submitted.body.id)).body.answers.doc[0];
    const atRest = await objectBytes(`${PREFIX}${file.id.toLowerCase()}`);
    expect(atRest.length).toBeGreaterThanOrEqual(secret.length);
    expect(atRest.includes(Buffer.from('the secret text'))).toBe(false);
    expect(atRest.includes(Buffer.from('%PDF'))).toBe(false);
    const back = await download(submitted.body.id, file.id);
    expect(back.rawPayload.equals(secret)).toBe(true);
  });

  it("a deleted response's object is gone from the bucket", async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document' }]);
    const uploaded = await upload(formId, 'doc', 'a.pdf', PDF);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { doc: [uploaded.body.uploadId] } },
    });
    const file = (await read(formId, submitted.body.id)).body.answers.doc[0];
    const key = `${PREFIX}${file.id.toLowerCase()}`;
    expect(await objectKeys()).toContain(key);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/responses/${submitted.body.id}`,
      auth: owner.token,
    });
    expect(deleted.status).toBe(204);
    await expect.poll(async () => (await objectKeys()).includes(key)).toBe(false);
  });

  it('a refused submission leaves no object, and no unfinished multipart upload', async () => {
    const formId = await fileForm([
      { id: 'name', type: 'text', label: 'Name', required: true },
      { id: 'doc', type: 'file', label: 'Document', maxFileSize: 20 * MIB },
    ]);
    const before = await objectKeys();
    // one small file (one PutObject) and one of several parts (a multipart upload), the name missing
    const { body, headers } = multipart([
      { name: 'doc', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
      { name: 'doc', filename: 'b.pdf', content: Buffer.concat([PDF, randomBytes(7 * MIB)]) },
    ]);
    const refused = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body,
      headers: { ...headers, accept: 'application/json' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
    await expect.poll(async () => await objectKeys()).toEqual(before);
    expect(await s3.unfinishedUploads()).toEqual([]);
    const rows = await t.app.intake.database.db
      .selectFrom('files')
      .select('id')
      .where('form_id', '=', formId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('S3 down during an upload: 503 with Retry-After, the service answering; back up, uploads work again', async () => {
    const formId = await fileForm([{ id: 'doc', type: 'file', label: 'Document', maxFileSize: 20 * MIB }]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const before = await objectKeys();

    const frame = multipartFrame([
      { name: 'field', value: 'doc' },
      { name: 'file', filename: 'big.bin' },
    ]);
    const size = 9 * MIB;
    const client = await RawClient.open(port);
    await client.head('POST', `/forms/${formId}/uploads`, {
      'Content-Type': frame.contentType,
      'Content-Length': String(frame.preamble.length + size + frame.closing.length),
    });
    await client.write(frame.preamble);
    let sent = 0;
    for (; sent < 6 * MIB; sent += 256 * 1024) await client.write(randomBytes(256 * 1024));
    // the first part is on its way: the multipart upload has begun
    await expect.poll(async () => (await s3.unfinishedUploads()).length).toBe(1);
    await s3.stop();
    for (; sent < size && !client.socket.destroyed; sent += 256 * 1024)
      await client.write(randomBytes(256 * 1024));
    await client.write(frame.closing);
    expect(await client.status(70_000)).toBe(503);
    expect(client.text()).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect((await client.json())?.code).toBe('service_unavailable');
    client.destroy();

    // the service itself goes on answering
    const health = await t.request({ method: 'GET', url: '/health' });
    expect(health.status).toBe(200);
    const whileDown = await upload(formId, 'doc', 'small.pdf', PDF);
    expect(whileDown.status).toBe(503);
    expect(whileDown.headers['retry-after']).toMatch(/^\d+$/);
    // what the failed writes left is a row the sweep knows (state writing), never an upload to submit
    const rows = await t.app.intake.database.db
      .selectFrom('files')
      .select('state')
      .where('form_id', '=', formId)
      .execute();
    expect(rows.every((row) => row.state === 'writing')).toBe(true);

    await s3.restart();
    const again = await upload(formId, 'doc', 'again.pdf', PDF);
    expect(again.status).toBe(201);
    const submitted = await t.request({
      method: 'POST',
      url: `/forms/${formId}/submit`,
      body: { answers: { doc: [again.body.uploadId] } },
    });
    expect(submitted.status).toBe(201);
    const file = (await read(formId, submitted.body.id)).body.answers.doc[0];
    expect((await download(submitted.body.id, file.id)).rawPayload.equals(PDF)).toBe(true);
    // of the upload S3 dropped, no object was ever completed
    expect((await objectKeys()).filter((key) => !before.includes(key))).toEqual([
      `${PREFIX}${file.id.toLowerCase()}`,
    ]);
  }, 120_000);
});
