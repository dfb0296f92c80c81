import type { IncomingMessage } from 'node:http';
import { finished, PassThrough, type Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { badRequest, Problem } from '../../platform/problem.js';

/**
 * A multipart body carrying files, read as it streams (the upload route, a multipart submit, a
 * hosted page's post), against what a client may do to it: stop half-way, lie about its length,
 * send more than UPLOAD_MAX_BYTES in a shape no single limit of the parser sees (many files, a
 * chunked body of no declared length), or keep sending while its answer is already written.
 * Nothing of a body that did not arrive whole is acknowledged or kept.
 */

/** The 400 of a body that ended before it was whole: the client went away, or its Content-Length lied. */
export const cutShort = () =>
  badRequest('validation_failed', 'The body ended before it was complete', {
    errors: [{ field: '(body)', code: 'incomplete', message: 'ended before it was complete' }],
  });

const boundaryOf = (contentType: string | undefined): string | undefined => {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return match?.[1] ?? match?.[2];
};

/**
 * Watches a multipart body beside its parser: how many bytes came (`onData` may cut the body
 * off past a limit), and whether its closing delimiter (`--boundary--`) came. The parser takes a
 * body that ends without it (under a Content-Length shorter than what was sent) for one that
 * simply ended, with no error, so this is how such a body is known.
 *
 * Start it just after the parser's iterator took its first step, in the same turn: that step
 * pipes the request into the parser, and both then see every byte from the first.
 */
export class MultipartWatch {
  received = 0;
  closed = false;
  private tail: Buffer;
  private readonly delimiter: Buffer | undefined;

  constructor(
    private readonly raw: IncomingMessage,
    private readonly onData?: (received: number) => void,
  ) {
    const boundary = boundaryOf(raw.headers['content-type']);
    this.delimiter = boundary ? Buffer.from(`\r\n--${boundary}--`) : undefined;
    // the first delimiter of a body has no line break before it
    this.tail = Buffer.from('\r\n');
    raw.on('data', this.listener);
  }

  private readonly listener = (chunk: Buffer) => {
    this.received += chunk.length;
    const delimiter = this.delimiter;
    if (!this.closed && delimiter) {
      const seam = Buffer.concat([this.tail, chunk.subarray(0, delimiter.length - 1)]);
      if (seam.includes(delimiter) || chunk.includes(delimiter)) this.closed = true;
      const keep = delimiter.length - 1;
      this.tail =
        chunk.length >= keep
          ? Buffer.from(chunk.subarray(chunk.length - keep))
          : Buffer.concat([this.tail, chunk]).subarray(-keep);
    }
    this.onData?.(this.received);
  };

  stop(): void {
    this.raw.off('data', this.listener);
  }
}

/**
 * Whether the request's body arrived whole: its closing delimiter seen, and the request ended.
 * The parser may be done before the request is (a closing delimiter followed by nothing, under
 * a Content-Length that promised more): then the rest is read, and a connection closed before
 * the end means the body never came whole.
 */
export async function bodyArrivedWhole(raw: IncomingMessage, watch: MultipartWatch): Promise<boolean> {
  if (!watch.closed) return false;
  if (raw.complete || raw.readableEnded) return true;
  if (raw.destroyed) return false;
  return new Promise((resolve) => {
    const settle = (whole: boolean) => {
      raw.off('end', onEnd);
      raw.off('close', onClose);
      resolve(whole);
    };
    const onEnd = () => settle(true);
    const onClose = () => settle(raw.complete || raw.readableEnded);
    raw.once('end', onEnd);
    raw.once('close', onClose);
    raw.resume();
  });
}

/** True when the client went away before its body was whole (nobody will read the answer). */
export const clientGone = (raw: IncomingMessage): boolean =>
  raw.destroyed && !raw.complete && !raw.readableEnded;

/**
 * A file part's bytes, watched from the moment the part arrives. A body cut short is reported
 * by the parser as an 'error' emitted on the part without destroying it: a consumer attached
 * after that (the file is stored only after a few awaits: the form, the rate limit, its row)
 * would wait on it for ever; and one the parser destroys as the client goes away ends no pipe.
 * The stream handed on fails with that error, or as closed before its end, instead.
 */
export function watchedPart(file: Readable): Readable {
  const out = new PassThrough();
  // whoever reads `out` later learns of its error from its state (a pipeline does): until then no
  // 'error' event may go unheard, which would bring the whole process down
  out.on('error', () => {});
  // an error emitted, or the part destroyed before its end (the client gone): the copy fails too
  finished(file, { writable: false }, (error) => {
    if (error) out.destroy(error);
  });
  file.pipe(out);
  return out;
}

/**
 * A refusal while the body is still coming in: the body is no longer fed to the multipart
 * parser, and the answer says `Connection: close`, so the edge reads and throws away what is
 * left (within bounds) before closing (platform/http/edge.ts `drainRefusedBody`). Without
 * that the parser, stopped, would hold the rest of the body back, and the client, still
 * sending, would never read its answer.
 */
export function refusedMidBody(request: FastifyRequest, problem: Problem): Problem {
  if (request.raw.complete || request.raw.readableEnded) return problem;
  request.raw.unpipe();
  return new Problem(problem.status, problem.code, problem.detail, {
    ...problem.options,
    headers: { ...problem.options.headers, connection: 'close' },
  });
}
