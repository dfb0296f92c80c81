import net from 'node:net';

/**
 * The EICAR test file: every antivirus reports it as a virus, and it is harmless. Built from
 * pieces so that this source file itself is not flagged by a scanner reading the repository.
 */
export const EICAR = ['X5O!P%@AP[4\\PZX54(P^)7CC)7}$', 'EICAR-STANDARD-', 'ANTIVIRUS-TEST-FILE!$H+H*'].join(
  '',
);
const EICAR_BYTES = Buffer.from(EICAR, 'latin1');

export interface FakeClamdOptions {
  /** Milliseconds to wait before answering a finished stream (a clamd that is slow to decide). */
  answerDelayMs?: number;
  /** Stop reading the stream (after its first chunk): a clamd that hangs mid-file. */
  stallWhileReceiving?: boolean;
  /** clamd's StreamMaxLength: past it, clamd answers `INSTREAM size limit exceeded. ERROR` and hangs up. */
  streamMaxLength?: number;
}

export interface FakeClamd {
  /** `tcp://127.0.0.1:<port>`, as CLAMD_URL takes it. */
  url: string;
  /** What each finished INSTREAM received: its size in bytes and the answer given. */
  scans: { bytes: number; answer: string }[];
  close(): Promise<void>;
}

/**
 * A clamd stand-in on 127.0.0.1 speaking the INSTREAM protocol as clamd does (`zINSTREAM\0` or
 * `nINSTREAM\n`, then chunks of a 4-byte big-endian length and that many bytes, a zero length
 * ending the stream; the answer `stream: OK` or `stream: <signature> FOUND`, then the connection
 * closed), and `PING`. It finds one signature: the EICAR string, also across chunk boundaries.
 */
export async function startFakeClamd(options: FakeClamdOptions = {}): Promise<FakeClamd> {
  const scans: FakeClamd['scans'] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    serveConnection(socket, options, scans);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `tcp://127.0.0.1:${port}`,
    scans,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A `tcp://` URL on which nothing listens: connecting is refused. */
export async function unreachableClamdUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `tcp://127.0.0.1:${port}`;
}

function serveConnection(socket: net.Socket, options: FakeClamdOptions, scans: FakeClamd['scans']): void {
  let pending = Buffer.alloc(0);
  let command: string | undefined;
  let terminator = '\0';
  let received = 0;
  let chunks = 0;
  // The last bytes seen, so a signature split between two chunks is still found.
  let tail = Buffer.alloc(0);
  let infected = false;

  const answer = (text: string) => {
    const reply = () => socket.end(`${text}${terminator}`);
    if (options.answerDelayMs) setTimeout(reply, options.answerDelayMs);
    else reply();
  };

  socket.on('data', (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    if (command === undefined) {
      const end = pending.findIndex((byte) => byte === 0 || byte === 10);
      if (end === -1) return;
      const raw = pending.subarray(0, end).toString('latin1');
      terminator = raw.startsWith('n') ? '\n' : '\0';
      command = raw.replace(/^[zn]/, '');
      pending = pending.subarray(end + 1);
      if (command === 'PING') return void socket.end(`PONG${terminator}`);
      if (command !== 'INSTREAM') return void socket.end(`UNKNOWN COMMAND${terminator}`);
    }
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (length === 0) {
        const text = infected ? 'stream: Eicar-Test-Signature FOUND' : 'stream: OK';
        scans.push({ bytes: received, answer: text });
        pending = Buffer.alloc(0);
        socket.removeAllListeners('data');
        return answer(text);
      }
      if (pending.length < 4 + length) return;
      const chunk = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      received += length;
      chunks++;
      if (options.streamMaxLength !== undefined && received > options.streamMaxLength) {
        socket.removeAllListeners('data');
        return void socket.end(`INSTREAM size limit exceeded. ERROR${terminator}`);
      }
      const window = Buffer.concat([tail, chunk]);
      if (window.includes(EICAR_BYTES)) infected = true;
      tail = window.subarray(Math.max(0, window.length - (EICAR_BYTES.length - 1)));
      if (options.stallWhileReceiving && chunks >= 1) {
        // Reads nothing more: the sender's writes back up until its own timeout gives up.
        socket.pause();
        socket.removeAllListeners('data');
        return;
      }
    }
  });
}
