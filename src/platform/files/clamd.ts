import net from 'node:net';
import { Transform } from 'node:stream';
import { StorageUnavailable } from '../db/unavailable.js';

/**
 * Scanning files with clamd (API.md §12, `CLAMD_URL`): each file is streamed to clamd's INSTREAM
 * command while it is being stored, so the verdict comes as the last byte arrives rather than
 * after a second pass over the file.
 *
 * INSTREAM: `zINSTREAM\0`, then chunks, each a 4-byte big-endian length and that many bytes, a
 * zero length ending the stream; clamd answers `stream: OK`, `stream: <signature> FOUND` or
 * `<reason> ERROR`, NUL-terminated, and closes the connection.
 */

/** clamd cannot give a verdict now (unreachable, too slow, refusing): 503 with `Retry-After`, as storage is. */
export class ScannerUnavailable extends StorageUnavailable {
  constructor(message: string, cause?: unknown) {
    super(message, 5);
    if (cause !== undefined) this.cause = cause;
  }
}

export type ScanVerdict = { infected: false } | { infected: true; signature: string };

/** One file's scan, fed as the file streams in. */
export interface Scan {
  /** Sends the next bytes; resolves once clamd's connection has taken them (backpressure). */
  write(chunk: Uint8Array): Promise<void>;
  /** Ends the file and waits for clamd's verdict. */
  end(): Promise<ScanVerdict>;
  /** Gives the scan up (the upload failed): the connection is closed, nothing more is reported. */
  abort(): void;
}

export interface ClamdScannerOptions {
  /** Milliseconds to wait for clamd at each step: connecting, taking bytes, giving the verdict. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_PORT = 3310;

export class ClamdScanner {
  private readonly host: string;
  private readonly port: number;
  private readonly timeoutMs: number;

  /** `url`: `tcp://host:port` (CLAMD_URL). */
  constructor(url: string, options: ClamdScannerOptions = {}) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'tcp:' || parsed.hostname === '') {
      throw new Error(`clamd URL must be tcp://host:port (got ${url})`);
    }
    this.host = parsed.hostname.replace(/^\[|\]$/g, '');
    this.port = parsed.port === '' ? DEFAULT_PORT : Number(parsed.port);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Opens a connection for one file; connecting goes on while the first bytes are written. */
  createScan(): Scan {
    return new ClamdScan(this.host, this.port, this.timeoutMs);
  }

  /**
   * A stream to put in an upload's pipeline: what is written to it goes to clamd and on, unchanged,
   * to the next stream; `verdict` settles once the file has ended and clamd has answered (or
   * rejects: `ScannerUnavailable`, or the pipeline's own error when it was torn down).
   */
  scanThrough(): { stream: Transform; verdict: Promise<ScanVerdict> } {
    const scan = this.createScan();
    let settle!: { resolve: (verdict: ScanVerdict) => void; reject: (error: unknown) => void };
    const verdict = new Promise<ScanVerdict>((resolve, reject) => {
      settle = { resolve, reject };
    });
    // Handled here so an upload failing for another reason does not also report an unhandled rejection.
    verdict.catch(() => {});
    let ended = false;
    const stream = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        scan.write(chunk).then(() => callback(null, chunk), callback);
      },
      // The file goes on to the store at once; clamd's verdict is awaited by whoever holds `verdict`.
      flush(callback) {
        ended = true;
        scan.end().then(settle.resolve, settle.reject);
        callback();
      },
      // Also called after a normal end (autoDestroy): only a stream torn down gives the scan up.
      destroy(error, callback) {
        if (error || !ended) {
          scan.abort();
          settle.reject(error ?? new Error('the scan was stopped before the file ended'));
        }
        callback(error);
      },
    });
    return { stream, verdict };
  }

  /** clamd answers `PING` with `PONG`: for a health check. */
  async ping(): Promise<void> {
    const answer = await exchange(this.host, this.port, 'zPING\0', this.timeoutMs);
    if (answer !== 'PONG') throw new ScannerUnavailable(`clamd answered PING with ${JSON.stringify(answer)}`);
  }
}

class ClamdScan implements Scan {
  private readonly socket: net.Socket;
  private readonly where: string;
  private failure: Error | undefined;
  private answerText = '';
  private answer: string | undefined;
  /** Wakes whoever waits on the connection (a drain, the verdict) when something happens to it. */
  private readonly waiters = new Set<() => void>();

  constructor(
    host: string,
    port: number,
    private readonly timeoutMs: number,
  ) {
    this.where = `${host}:${port}`;
    this.socket = net.connect({ host, port });
    const connectTimer = setTimeout(
      () =>
        this.fail(
          new ScannerUnavailable(`clamd at ${this.where} did not accept a connection in ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
    this.socket.once('connect', () => clearTimeout(connectTimer));
    this.socket.on('data', (data: Buffer) => {
      this.answerText += data.toString('utf8');
      if (this.answerText.includes('\0')) this.answered();
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      const reason = error.code ?? error.message;
      this.fail(new ScannerUnavailable(`clamd at ${this.where} is unreachable (${reason})`, error));
    });
    this.socket.on('close', () => {
      clearTimeout(connectTimer);
      if (this.answerText !== '') this.answered();
      else
        this.fail(new ScannerUnavailable(`clamd at ${this.where} closed the connection without an answer`));
    });
    this.socket.on('drain', () => this.wake());
    this.socket.write('zINSTREAM\0');
  }

  async write(chunk: Uint8Array): Promise<void> {
    this.throwIfStopped();
    // A zero length would end the file early: an empty chunk is simply not sent.
    if (chunk.length === 0) return;
    const header = Buffer.alloc(4);
    header.writeUInt32BE(chunk.length);
    this.socket.write(header);
    if (!this.socket.write(chunk)) {
      await this.waitUntil(() => !this.socket.writableNeedDrain, 'did not take the file');
    }
  }

  async end(): Promise<ScanVerdict> {
    this.throwIfStopped();
    this.socket.write(Buffer.alloc(4)); // a zero length: the end of the file
    await this.waitUntil(() => this.answer !== undefined, 'gave no verdict');
    this.socket.destroy();
    return interpret(this.answer ?? '');
  }

  abort(): void {
    this.fail(new Error('the scan was aborted'));
  }

  /** Stopped: failed, or answered before the file ended (clamd refusing it, over its StreamMaxLength). */
  private throwIfStopped(): void {
    if (this.failure) throw this.failure;
    if (this.answer !== undefined) {
      const verdict = interpret(this.answer); // throws for an ERROR answer, the only early one
      throw new ScannerUnavailable(`clamd answered before the file ended: ${JSON.stringify(verdict)}`);
    }
  }

  private answered(): void {
    if (this.answer !== undefined) return;
    this.answer = this.answerText.split('\0')[0]?.trim() ?? '';
    this.wake();
  }

  private fail(error: Error): void {
    if (this.failure || this.answer !== undefined) return;
    this.failure = error;
    this.socket.destroy();
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters) waiter();
  }

  /** Waits until `ready()` holds, failing on the connection's failure or after the timeout. */
  private waitUntil(ready: () => boolean, whatClamdDidNot: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.failure) return finish(this.failure);
        if (ready()) return finish();
        if (this.answer !== undefined) {
          try {
            this.throwIfStopped();
          } catch (error) {
            return finish(error);
          }
        }
      };
      const timer = setTimeout(() => {
        const error = new ScannerUnavailable(
          `clamd at ${this.where} ${whatClamdDidNot} in ${this.timeoutMs} ms`,
        );
        this.fail(error);
        finish(error);
      }, this.timeoutMs);
      const finish = (error?: unknown) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error === undefined) resolve();
        else reject(error);
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** clamd's answer to a finished INSTREAM, as a verdict, or ScannerUnavailable for an ERROR. */
function interpret(answer: string): ScanVerdict {
  if (answer === 'stream: OK') return { infected: false };
  const found = /^stream: (.+) FOUND$/.exec(answer);
  if (found?.[1]) return { infected: true, signature: found[1] };
  if (/size limit exceeded/i.test(answer)) {
    return unavailable(
      'clamd refused the file as larger than its StreamMaxLength: raise StreamMaxLength in clamd.conf to at least FILE_MAX_BYTES',
    );
  }
  return unavailable(`clamd could not scan the file: ${JSON.stringify(answer)}`);
}

function unavailable(message: string): never {
  throw new ScannerUnavailable(message);
}

/** One command and its answer (up to the NUL), for PING. */
function exchange(host: string, port: number, command: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect({ host, port });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new ScannerUnavailable(`clamd at ${host}:${port} did not answer in ${timeoutMs} ms`)),
    );
    socket.on('data', (data: Buffer) => {
      text += data.toString('utf8');
      if (text.includes('\0')) socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error instanceof ScannerUnavailable
          ? error
          : new ScannerUnavailable(
              `clamd at ${host}:${port} is unreachable (${error.code ?? error.message})`,
              error,
            ),
      ),
    );
    socket.on('close', () => resolve(text.split('\0')[0]?.trim() ?? ''));
    socket.write(command);
  });
}
