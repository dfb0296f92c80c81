import { randomUUID } from 'node:crypto';
import { type IncomingMessage, maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, sendProblem } from '../errors.js';
import { Problem } from '../problem.js';

/**
 * The HTTP edge: requests refused before any route sees them (by Node's parser, by the CORS
 * preflight rules) and bodies refused half-way (the 1 MiB limit) still get a problem document
 * (API.md §1), and the client is given the time to read it.
 */

/** What Node attaches to the errors of its HTTP parser (llhttp). */
interface ParserError extends Error {
  code?: string;
  reason?: string;
  bytesParsed?: number;
  rawPacket?: unknown;
}

const KIB = 1024;
// A connection we answered and half-closed: the client normally closes its side at once.
const LINGER_MS = 5_000;

/**
 * The `clientErrorHandler` of Fastify: a request Node's parser refused never becomes a request,
 * so no hook, no error handler and no reply exist; the answer is written on the socket by hand.
 */
export function clientErrorHandler(): (
  this: { log?: FastifyBaseLogger } | undefined,
  error: ParserError,
  socket: Socket,
) => void {
  // The parser reports the same error again for every later packet of a refused connection.
  const answered = new WeakSet<Socket>();
  return function handleClientError(error, socket) {
    // A reset connection has nobody left to read an answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (answered.has(socket)) return;
    answered.add(socket);
    const problem = parserProblem(error);
    // Never the error itself: its rawPacket holds the request's headers, credentials included.
    this?.log?.debug(
      { code: error.code, reason: error.reason, status: problem.status },
      'refused by the HTTP parser',
    );
    // As Node does itself: a response already under way must not be cut into by another.
    if (!socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    socket.end(rawResponse(problem));
    const linger = setTimeout(() => socket.destroy(), LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
  };
}

function responseStarted(socket: Socket): boolean {
  // `_httpMessage` is how Node's own clientError fallback tells the same thing
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return inFlight?.headersSent === true;
}

function parserProblem(error: ParserError): Problem {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return requestLineOverflows(error)
        ? new Problem(
            414,
            'payload_too_large',
            `The URL is too long: the request line and headers may take at most ${maxHeaderSize / KIB} KiB`,
          )
        : new Problem(
            431,
            'payload_too_large',
            `The request headers are too large: they may take at most ${maxHeaderSize / KIB} KiB in all`,
          );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new Problem(413, 'payload_too_large', 'The chunk extensions of the body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new Problem(
        408,
        'invalid_parameter',
        'The request took too long to arrive and was abandoned; send it again',
      );
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return new Problem(
        400,
        'invalid_parameter',
        'The request is malformed: Content-Length and Transfer-Encoding cannot be sent together',
      );
    case 'HPE_INVALID_CHUNK_SIZE':
      return new Problem(
        400,
        'invalid_parameter',
        'The request is malformed: a chunk size of the chunked body is not a hexadecimal number',
      );
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new Problem(
        400,
        'invalid_parameter',
        'The request is malformed: Content-Length must be a single non-negative decimal number',
      );
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
      return new Problem(
        400,
        'invalid_parameter',
        'The request line is malformed: expected a method, a path and HTTP/1.1 (as in "GET /health HTTP/1.1")',
      );
  }
  // llhttp's reasons are fixed sentences of its own ("Expected HTTP/", "Invalid header value char"):
  // they name the fault without echoing anything the client sent.
  const reason = error.code?.startsWith('HPE_') && error.reason ? `: ${error.reason.slice(0, 120)}` : '';
  return new Problem(400, 'invalid_parameter', `The request is not well-formed HTTP/1.1${reason}`);
}

/**
 * llhttp counts the request line within the header limit and reports both alike. The packet it
 * was parsing tells them apart: it starts a request and no line ended before the overflow.
 * An overflow found in a later packet of the same request cannot be placed: headers then.
 */
function requestLineOverflows(error: ParserError): boolean {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return false;
  if (!/^[A-Z]+ /.test(packet.subarray(0, 24).toString('latin1'))) return false;
  const parsed = typeof error.bytesParsed === 'number' ? packet.subarray(0, error.bytesParsed) : packet;
  return !parsed.includes(0x0a);
}

function rawResponse(problem: Problem): string {
  const body = JSON.stringify(problem.body());
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}; charset=utf-8`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    // the request never got an id of its own; this one still lets a report be matched to the logs
    `X-Request-Id: ${randomUUID()}`,
    '',
    body,
  ].join('\r\n');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of a request (Fastify's `genReqId`): the client's `X-Request-Id` when it is a UUID, so
 * that a caller's logs and ours name the same request; otherwise a new UUID. Anything else a
 * client sends would go into every log line of the request as it is (forged log fields,
 * kilobytes of text) and back out in the answer's header.
 */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && UUID.test(given) ? given : randomUUID();
}

/**
 * An `onRequest` hook, added before @fastify/cors, which refuses a preflight missing one of its
 * two headers in `text/plain`. The API has no OPTIONS operation of its own: an OPTIONS request
 * with either header is a preflight, and one without the other is refused as a problem document.
 * Plain OPTIONS requests (neither header) go on to the routes (a 404 or 405), except on a public
 * path, whose one OPTIONS route is its preflight: refused there as a problem document too.
 */
export function refuseBrokenPreflight(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.method !== 'OPTIONS') {
    done();
    return;
  }
  const origin = Boolean(request.headers.origin);
  const method = Boolean(request.headers['access-control-request-method']);
  // Neither header: not a preflight. Elsewhere the routes answer (404, 405); on a public path,
  // whose OPTIONS route is its preflight, @fastify/cors would refuse it in text/plain.
  if (origin === method && (origin || request.routeOptions.config?.public !== true)) {
    done();
    return;
  }
  const missing =
    origin === method
      ? 'an Origin and an Access-Control-Request-Method header'
      : origin
        ? 'an Access-Control-Request-Method header'
        : 'an Origin header';
  sendProblem(reply, new Problem(400, 'invalid_parameter', `A CORS preflight (OPTIONS) needs ${missing}`));
}

export interface DrainBounds {
  /** The most of a refused body read and thrown away before the connection is cut. */
  maxBytes: number;
  /** The longest a refused body is waited for. */
  maxMs: number;
}

const DRAIN_BOUNDS: DrainBounds = { maxBytes: 16 * KIB * KIB, maxMs: 10_000 };

/**
 * An `onSend` hook for answers that close the connection before the request body has been read
 * (Fastify's 413 over the body limit, and its other body errors). Node closes the socket as soon
 * as such an answer is sent; the body still arriving then meets a closed socket, the client's
 * TCP gets a reset, and a client that had not read the answer yet loses it. So the answer is sent
 * at once, but finished (and the connection closed) only once the rest of the body has been read
 * and thrown away, within bounds: past them the connection is cut, as before.
 */
export function drainRefusedBody(bounds: DrainBounds = DRAIN_BOUNDS) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ): void => {
    const raw = request.raw;
    if (
      raw.complete ||
      raw.readableEnded ||
      raw.destroyed ||
      reply.getHeader('connection') !== 'close' ||
      !(typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      done(null, payload);
      return;
    }
    const body = Buffer.from(payload);
    reply.header('content-length', String(body.length));
    // Written at once (its Content-Length lets the client read it whole); ended after the drain.
    const answer = new Readable({ read() {} });
    answer.push(body);
    void drain(raw, bounds).then((outcome) => {
      if (outcome === 'over-bounds') raw.socket?.destroy();
      answer.push(null);
    });
    done(null, answer);
  };
}

function drain(raw: IncomingMessage, bounds: DrainBounds): Promise<'ended' | 'closed' | 'over-bounds'> {
  return new Promise((resolve) => {
    let read = 0;
    const finish = (outcome: 'ended' | 'closed' | 'over-bounds') => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      raw.off('error', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > bounds.maxBytes) finish('over-bounds');
    };
    const onEnd = () => finish('ended');
    const onClose = () => finish('closed');
    const timer = setTimeout(() => finish('over-bounds'), bounds.maxMs);
    timer.unref();
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.once('error', onClose);
    raw.resume();
  });
}
