import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drive, type LoadOptions, percentile } from './load.js';
import { sleep } from './service.js';

/**
 * Webhook delivery under load: a receiver on loopback answering 200 at once, one webhook
 * (`response.created`, legacy format, signed) on the form being filled in.
 *   - latency: submissions at a steady rate the service keeps up with; for each event, the
 *     time from the submission's `createdAt` to its arrival at the receiver (one clock);
 *   - throughput: a burst at full speed leaves a backlog; deliveries per second is how fast
 *     the backlog drains once the submissions stop.
 */

export interface WebhookFigures {
  latency: { rate: number; events: number; p50: number; p99: number; max: number; missing: number };
  drain: { backlog: number; seconds: number; perSecond: number; missing: number };
}

interface Receiver {
  url: string;
  /** Arrival time (ms since the epoch) by event id: the first arrival counts. */
  arrivals: Map<string, { at: number; createdAt: number }>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, { at: number; createdAt: number }>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          id: string;
          data: { createdAt: string };
        };
        if (!arrivals.has(event.id))
          arrivals.set(event.id, { at, createdAt: Date.parse(event.data.createdAt) });
      } catch {
        // not an event of ours: counted by nobody
      }
      response.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `count` events have arrived, or `timeoutMs` passed; the time the last one came. */
async function waitForArrivals(receiver: Receiver, count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.arrivals.size < count && Date.now() < deadline) await sleep(20);
  return Math.max(0, ...[...receiver.arrivals.values()].map((arrival) => arrival.at));
}

export async function measureWebhooks(options: {
  /** Creates the webhook on the form, pointing at `url`. */
  register: (url: string) => Promise<void>;
  submit: Omit<LoadOptions, 'connections' | 'durationS' | 'rate'>;
}): Promise<WebhookFigures> {
  const receiver = await startReceiver();
  try {
    await options.register(receiver.url);

    const rate = 500;
    // every acknowledged submission is an event (requests cut off by the end of the run may add a few more)
    const events = (await drive({ ...options.submit, connections: 10, durationS: 5, rate })).ok2xx;
    await waitForArrivals(receiver, events, 60_000);
    const latencies = Float64Array.from(
      [...receiver.arrivals.values()].map((arrival) => arrival.at - arrival.createdAt),
    ).sort();
    const latency = {
      rate,
      events,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
      missing: Math.max(0, events - receiver.arrivals.size),
    };

    receiver.arrivals.clear();
    const backlog = (await drive({ ...options.submit, connections: 50, durationS: 3 })).ok2xx;
    const drainStart = Date.now();
    const arrivedBefore = receiver.arrivals.size;
    const last = await waitForArrivals(receiver, backlog, 120_000);
    const seconds = Math.max(0.001, (last - drainStart) / 1000);
    return {
      latency,
      drain: {
        backlog: backlog - arrivedBefore,
        seconds,
        perSecond: (receiver.arrivals.size - arrivedBefore) / seconds,
        missing: Math.max(0, backlog - receiver.arrivals.size),
      },
    };
  } finally {
    await receiver.close();
  }
}
