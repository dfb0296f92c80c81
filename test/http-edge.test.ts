import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorHandler } from '../src/platform/http/edge.js';
import { createTestApp, type TestApp } from './support/app.js';

/**
 * Requests refused at the HTTP edge (by Node's parser, by the CORS preflight rules, by the body
 * limit) are problem documents like every other error, sent over a real socket.
 */

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

afterAll(() => t?.close());

// --- a raw HTTP/1.1 client ------------------------------------------------------------

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: any;
}

/** The first response in `data`, once all of it (head and Content-Length bytes) has arrived. */
function parseResponse(data: Buffer): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (data.length < end + 4 + length) return undefined;
  const text = data.subarray(end + 4, end + 4 + length).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, body };
}

/** Sends `data` as is and reads the answer. */
function exchange(data: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = parseResponse(received);
      if (response) {
        socket.destroy();
        resolve(response);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed after ${JSON.stringify(received.toString())}`)));
  });
}

function expectProblem(response: RawResponse, status: number, code: string): any {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json(;|$)/);
  expect(response.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
  expect(typeof response.body.detail).toBe('string');
  return response.body;
}

// --- requests Node's parser refuses ---------------------------------------------------

describe("requests Node's HTTP parser refuses", () => {
  it('a header section over the limit is 431', async () => {
    const response = await exchange(
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    const body = expectProblem(response, 431, 'payload_too_large');
    expect(body.detail).toMatch(/header/i);
    expect(response.headers.connection).toBe('close');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a URL over the limit is 414', async () => {
    const response = await exchange(`GET /${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const body = expectProblem(response, 414, 'payload_too_large');
    expect(body.detail).toMatch(/URL/);
  });

  it('a malformed request line is 400', async () => {
    expectProblem(await exchange('GARBAGE\r\n\r\n'), 400, 'invalid_parameter');
  });

  it('an invalid HTTP version is 400', async () => {
    expectProblem(await exchange('GET /health HTTP/9.9\r\nHost: x\r\n\r\n'), 400, 'invalid_parameter');
  });

  it('Content-Length together with Transfer-Encoding is 400', async () => {
    const response = await exchange(
      'POST /forms/x/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    );
    expectProblem(response, 400, 'invalid_parameter');
  });

  it('a bad chunk size is 400', async () => {
    const response = await exchange(
      'POST /forms/x/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    );
    expectProblem(response, 400, 'invalid_parameter');
  });

  it('a negative Content-Length is 400', async () => {
    const response = await exchange(
      'POST /forms/x/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}',
    );
    expectProblem(response, 400, 'invalid_parameter');
  });

  it('a request that takes too long is 408, and a connection reset gets nothing', () => {
    const written: string[] = [];
    const socket = () =>
      ({
        writable: true,
        destroyed: false,
        write: (data: string) => written.push(data),
        end: (data?: string) => data && written.push(data),
        destroy: () => {},
        once: () => {},
      }) as unknown as net.Socket;
    const handle = clientErrorHandler();
    handle.call(
      undefined,
      Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
      socket(),
    );
    expect(written.join('')).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    const body = JSON.parse(written.join('').split('\r\n\r\n')[1] ?? '');
    expect(body).toMatchObject({ status: 408, code: 'invalid_parameter' });

    written.length = 0;
    handle.call(undefined, Object.assign(new Error('reset'), { code: 'ECONNRESET' }), socket());
    expect(written).toEqual([]);
  });
});

// --- CORS preflights ------------------------------------------------------------------

describe('CORS preflights', () => {
  const preflight = (headers: string) =>
    `OPTIONS /forms/x/submit HTTP/1.1\r\nHost: x\r\nAccess-Control-Request-Method: POST\r\n${headers}\r\n`;

  it('a preflight without Origin is a 400 problem', async () => {
    const body = expectProblem(await exchange(preflight('')), 400, 'invalid_parameter');
    expect(body.detail).toMatch(/Origin/);
  });

  it('an OPTIONS request with an Origin but no Access-Control-Request-Method is a 400 problem', async () => {
    const response = await exchange(
      'OPTIONS /forms/x/submit HTTP/1.1\r\nHost: x\r\nOrigin: https://example.com\r\n\r\n',
    );
    const body = expectProblem(response, 400, 'invalid_parameter');
    expect(body.detail).toMatch(/Access-Control-Request-Method/);
  });

  it('an OPTIONS request with neither header on a public path is a 400 problem, not text/plain', async () => {
    const response = await exchange('OPTIONS /forms/x/submit HTTP/1.1\r\nHost: x\r\n\r\n');
    const body = expectProblem(response, 400, 'invalid_parameter');
    expect(body.detail).toMatch(/Origin/);
    expect(body.detail).toMatch(/Access-Control-Request-Method/);
  });

  it('a preflight with an Origin is still allowed', async () => {
    const response = await exchange(preflight('Origin: https://example.com\r\n'));
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('https://example.com');
    expect(response.headers['access-control-allow-methods']).toContain('POST');
  });
});

// --- request ids ---------------------------------------------------------------------

describe('X-Request-Id', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const health = (id: string) => exchange(`GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\n\r\n`);

  it("keeps a client's UUID-shaped id, so its logs and ours can be matched", async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect((await health(id)).headers['x-request-id']).toBe(id);
    expect((await health(id.toUpperCase())).headers['x-request-id']).toBe(id.toUpperCase());
  });

  it.each([
    ['any text', 'hello'],
    ['a log line forged into ours', 'x" level=error msg="admin logged in'],
    ['an over-long value', 'a'.repeat(500)],
    ['a UUID with more around it', '0f8fad5b-d9cb-469f-a165-70867728950e-and-more'],
  ])('replaces %s with an id of its own', async (_case, id) => {
    const answered = (await health(id)).headers['x-request-id'];
    expect(answered).toMatch(UUID);
    expect(answered).not.toBe(id);
  });
});

// --- bodies over the limit ------------------------------------------------------------

/**
 * Uploads `size` bytes of JSON the way a browser does: in pieces, minding back-pressure, at the
 * pace of a network rather than of a loopback's buffers, and on to the end while the answer comes.
 * A client reading `late` looks at the answer only once its body is sent, as simple clients do.
 * Any error on the connection (ECONNRESET, EPIPE) fails the upload.
 */
function upload(size: number, encoding: 'length' | 'chunked', late: boolean): Promise<RawResponse> {
  const head =
    'POST /forms/anything/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
    (encoding === 'length' ? `Content-Length: ${size}\r\n\r\n` : 'Transfer-Encoding: chunked\r\n\r\n');
  const piece = Buffer.alloc(64 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    let answer: RawResponse | undefined;
    let received = Buffer.alloc(0);
    let sent = 0;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      answer ??= parseResponse(received);
    });
    socket.on('error', (error) =>
      reject(new Error(`${error.message} after ${sent} bytes, ${answer ? 'answer read' : 'no answer read'}`)),
    );
    socket.on('close', () =>
      answer ? resolve(answer) : reject(new Error(`closed before the answer: ${received.toString()}`)),
    );
    const write = (data: Buffer | string) =>
      new Promise<void>((done) => {
        if (socket.destroyed || socket.write(data)) done();
        else socket.once('drain', done);
      });
    if (late) socket.pause();
    socket.on('connect', async () => {
      await write(head);
      while (sent < size && !socket.destroyed) {
        const data = piece.subarray(0, Math.min(piece.length, size - sent));
        if (encoding === 'length') await write(data);
        else
          await write(
            Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]),
          );
        sent += data.length;
        // pacing on purpose: the body trickles in, piece by piece, as a slow client sends it
        await new Promise((next) => setTimeout(next, 1));
      }
      if (encoding === 'chunked' && !socket.destroyed) await write('0\r\n\r\n');
      if (!socket.destroyed) socket.end();
      socket.resume();
    });
  });
}

describe('bodies over the 1 MiB limit', () => {
  it.each(['length', 'chunked'] as const)(
    'twenty 2 MiB uploads (%s) each read their 413 answer, none a reset',
    async (encoding) => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => upload(2 * 1024 * 1024, encoding, i % 2 === 1)),
      );
      const failures = results.filter((r) => r.status === 'rejected').map((r) => String(r.reason));
      expect(failures).toEqual([]);
      for (const result of results) {
        if (result.status === 'fulfilled') expectProblem(result.value, 413, 'payload_too_large');
      }
    },
  );
});
