import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRateLimiter, openRateLimitStore } from './rate-limit.js';

/**
 * Issue 9: Redis is protection, not a dependency to go down with. Unreachable, or
 * reachable but silent, the limiter answers from memory within a moment.
 */
describe('rate limits while Redis is away', () => {
  let silent: net.Server;
  let silentPort: number;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    // Answers the client's ready check (INFO), then nothing more: a Redis that hung after
    // the connection was made, which is when a client would otherwise wait with it.
    silent = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (chunk) => {
        if (!chunk.toString().toUpperCase().includes('INFO')) return;
        const info = 'redis_version:7.0.0\r\nloading:0\r\n';
        socket.write(`$${info.length}\r\n${info}\r\n`);
      });
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    silentPort = (silent.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it.each([
    ['refuses connections', () => 'redis://127.0.0.1:9'],
    ['stops answering once connected', () => `redis://127.0.0.1:${silentPort}`],
  ])('counts in memory, at once, when Redis %s', async (_case, url) => {
    const store = await openRateLimitStore(url());
    try {
      const limiter = createRateLimiter(store, { name: 'outage', points: 2, windowSeconds: 60 });
      // let the client connect (ready: the silent Redis answered INFO) or fail to (reconnecting) first
      await vi.waitFor(
        () => expect(['ready', 'reconnecting', 'close', 'end']).toContain(store.redis?.status),
        {
          timeout: 5_000,
          interval: 20,
        },
      );
      const started = Date.now();
      expect((await limiter.consume('k')).remaining).toBe(1);
      expect((await limiter.consume('k')).remaining).toBe(0);
      await expect(limiter.consume('k')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await store.close();
    }
  });
});

describe('record and peek', () => {
  it('records hits without throwing and peeks without counting', async () => {
    const store = await openRateLimitStore(undefined);
    const limiter = createRateLimiter(store, { name: 'peek', points: 2, windowSeconds: 60 });
    expect(await limiter.peek('k')).toEqual({ limit: 2, remaining: 2, resetSeconds: 60 });
    expect((await limiter.record('k')).remaining).toBe(1);
    expect((await limiter.peek('k')).remaining).toBe(1);
    expect((await limiter.record('k')).remaining).toBe(0);
    // past the points: still no throw, still spent
    expect((await limiter.record('k')).remaining).toBe(0);
    expect((await limiter.peek('k')).remaining).toBe(0);
    await expect(limiter.consume('k')).rejects.toMatchObject({ status: 429, code: 'rate_limited' });
    expect((await limiter.peek('other')).remaining).toBe(2);
  });
});
