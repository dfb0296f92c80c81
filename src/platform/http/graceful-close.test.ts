import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installGracefulClose } from './graceful-close.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server with a slow answer and a slowly streamed one; the client is undici (fetch), which keeps connections. */
async function slowServer() {
  const app = Fastify();
  installGracefulClose(app);
  let arrived: () => void = () => {};
  /** Resolves once the slow answer's request has reached its handler (not a guess by sleeping: a busy machine is late). */
  const slowArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  app.get('/slow', async () => {
    arrived();
    await sleep(300);
    return { ok: true };
  });
  app.get('/stream', (_request, reply) => {
    const body = new Readable({ read() {} });
    body.push('first ');
    setTimeout(() => body.push('last'), 300);
    setTimeout(() => body.push(null), 350);
    return reply.type('text/plain').send(body);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  return { app, url: `http://127.0.0.1:${address.port}`, slowArrived };
}

/** Resolves with how long the close took, or 'still open' after the limit. */
async function closeWithin(app: Awaited<ReturnType<typeof slowServer>>['app'], limitMs: number) {
  const started = Date.now();
  return Promise.race([
    app.close().then(() => Date.now() - started),
    sleep(limitMs).then(() => 'still open' as const),
  ]);
}

describe('closing the server', () => {
  let opened: Array<Awaited<ReturnType<typeof slowServer>>['app']> = [];
  afterEach(async () => {
    // the apps a failing test left open: closed for good so the next test starts clean
    for (const app of opened) app.server.closeAllConnections();
    await Promise.all(opened.map((app) => app.close()));
    opened = [];
  });

  it('answers a request under way, says Connection: close and ends without waiting on its keep-alive', async () => {
    const { app, url, slowArrived } = await slowServer();
    opened.push(app);
    const answer = fetch(`${url}/slow`);
    await slowArrived;
    const closed = closeWithin(app, 3000);
    const response = await answer;
    expect(await response.json()).toEqual({ ok: true });
    expect(response.headers.get('connection')).toBe('close');
    // without the hook, the close waits for the client to let the connection go (72 s hint)
    expect(await closed).toBeLessThan(2000);
  });

  it('ends once an answer whose headers left before the close is streamed to its end', async () => {
    const { app, url } = await slowServer();
    opened.push(app);
    const response = await fetch(`${url}/stream`);
    expect(response.headers.get('connection')).not.toBe('close');
    const closed = closeWithin(app, 3000);
    expect(await response.text()).toBe('first last');
    expect(await closed).toBeLessThan(2000);
  });

  it('closes at once when every kept connection is idle', async () => {
    const { app, url } = await slowServer();
    opened.push(app);
    expect((await fetch(`${url}/slow`)).status).toBe(200);
    expect(await closeWithin(app, 3000)).toBeLessThan(1000);
  });
});
