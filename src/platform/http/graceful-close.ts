import type { FastifyInstance } from 'fastify';

/** How often a closing server looks again for connections that have finished their last answer. */
const IDLE_CHECK_MS = 100;

/**
 * Lets `app.close()` end once the requests under way are answered. Fastify closes the connections
 * that are idle when it starts closing, but a keep-alive connection whose request was still being
 * answered stays open after its answer until the client lets it go (undici keeps one for the
 * server's 72 s keep-alive hint): the close then waits on a connection nobody uses, and a SIGTERM
 * ends in the shutdown limit (a crash test caught it on PostgreSQL, where answers are slower).
 * So, while closing: every answer says `Connection: close` (the client does not reuse it), and
 * connections that go idle later (an answer whose headers left before the close) are closed too.
 */
export function installGracefulClose(app: FastifyInstance): void {
  let closing = false;
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    sweeper = setInterval(() => app.server.closeIdleConnections(), IDLE_CHECK_MS);
    sweeper.unref();
  });
  // a callback, not an async hook: it runs on every answer, and costs nothing until the close
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing && request.raw.httpVersionMajor === 1 && !reply.raw.headersSent) {
      reply.header('connection', 'close');
    }
    done(null, payload);
  });
  app.addHook('onClose', async () => clearInterval(sweeper));
}
