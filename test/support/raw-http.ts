import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * HTTP/1.1 written by hand on a socket, for what no well-behaved client sends: a body cut off
 * half-way, a Content-Length that lies, a chunked body that never says how long it is, a
 * connection dropped while the server is still reading. What the server wrote back is kept.
 */
export class RawClient {
  private received = Buffer.alloc(0);
  readonly closed: Promise<void>;

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (data: Buffer) => {
      this.received = Buffer.concat([this.received, data]);
    });
    // a server refusing the body may reset the connection while this side still writes
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static async open(port: number): Promise<RawClient> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new RawClient(socket);
  }

  /** Resolves once written (or once writing has become impossible). */
  write(data: Buffer | string): Promise<void> {
    if (this.socket.destroyed || this.socket.writableEnded) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.write(data, () => resolve());
    });
  }

  /** The request line and headers. */
  head(method: string, target: string, headers: Record<string, string>): Promise<void> {
    const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    return this.write(`${lines.join('\r\n')}\r\n\r\n`);
  }

  /** One chunk of a chunked body (an empty one ends it). */
  chunk(data: Buffer): Promise<void> {
    if (data.length === 0) return this.write('0\r\n\r\n');
    return this.write(
      Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]),
    );
  }

  text(): string {
    return this.received.toString('latin1');
  }

  /** The status of the first answer, once it has come (undefined when none came within `ms`). */
  async status(ms = 10_000): Promise<number | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(this.text());
      if (match) return Number(match[1]);
      if (this.socket.destroyed || Date.now() > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The body of the first answer, parsed as JSON, once all of it (by its Content-Length) has come. */
  async json(ms = 10_000): Promise<any> {
    const deadline = Date.now() + ms;
    for (;;) {
      const text = this.received.toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end));
      if (end !== -1 && length) {
        const body = this.received.subarray(Buffer.byteLength(text.slice(0, end + 4)));
        if (body.length >= Number(length[1]))
          return JSON.parse(body.subarray(0, Number(length[1])).toString());
      }
      if (this.socket.destroyed || Date.now() > deadline) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Ends the request side (a FIN); the server may still answer. */
  end(): void {
    this.socket.end();
  }

  /** Drops the connection at once. */
  destroy(): void {
    this.socket.destroy();
  }
}

/** A multipart/form-data body in pieces: the parts before a file's bytes, and what closes it. */
export function multipartFrame(
  before: ReadonlyArray<{ name: string; value: string } | { name: string; filename: string; type?: string }>,
): {
  boundary: string;
  contentType: string;
  preamble: Buffer;
  between: (next: string) => Buffer;
  closing: Buffer;
} {
  const boundary = `----raw${randomBytes(8).toString('hex')}`;
  const pieces = before.map((part) =>
    'value' in part
      ? `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`
      : `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
  );
  return {
    boundary,
    contentType: `multipart/form-data; boundary=${boundary}`,
    preamble: Buffer.from(pieces.join('')),
    /** Ends a file's bytes and starts the file part `next`. */
    between: (next) =>
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${next}"; filename="${next}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    closing: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

/** Every file under `root`, temporary ones (`.partial`) included, as paths relative to it. */
export function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((entry) => {
      try {
        return fs.statSync(path.join(root, entry)).isFile();
      } catch {
        return false; // removed while listed
      }
    })
    .sort();
}
