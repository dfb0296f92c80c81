import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP receiver of webhooks on 127.0.0.1, for delivery tests. */

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Performance-clock times: arrival, and when the answer was sent (undefined while unanswered). */
  arrivedAt: number;
  answeredAt?: number;
  status?: number;
}

/** How to answer one request: a status (after `delayMs`), or `hang` (never answer). */
export type Answer = number | { status: number; delayMs?: number } | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  on(path: string): ReceivedWebhook[];
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (request: ReceivedWebhook, countOnPath: number) => Answer = () => 200,
  port = 0,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: ReceivedWebhook = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        arrivedAt: performance.now(),
      };
      received.push(entry);
      const count = received.filter((r) => r.path === entry.path).length;
      const decided = answer(entry, count);
      if (decided === 'hang') return;
      const { status, delayMs = 0 } = typeof decided === 'number' ? { status: decided } : decided;
      const send = () => {
        entry.answeredAt = performance.now();
        entry.status = status;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    on: (path) => received.filter((r) => r.path === path),
    async waitFor(predicate, timeoutMs = 10_000, what = 'the receiver') {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what} (${received.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
