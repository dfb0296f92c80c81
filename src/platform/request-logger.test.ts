import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

/** A pino logger at `level` whose lines are kept, parsed. */
function captured(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  // Fastify's own pino, as the service's logger is
  const logger: FastifyBaseLogger = Fastify({ logger: { level, stream } }).log;
  return { logger, lines };
}

/** A request's logger as Fastify asks for it (the raw request is not read). */
const requestLogger = (
  logger: FastifyBaseLogger,
  bindings: Record<string, string>,
  options: { level?: string },
) => lazyRequestLogger.call(Fastify(), logger, bindings, options, undefined as never);

describe('lazyRequestLogger', () => {
  it('makes no child for lines below the level, and writes those at it with the bindings', () => {
    const { logger, lines } = captured('warn');
    const child = vi.spyOn(logger, 'child');
    const log = requestLogger(logger, { reqId: 'r-1' }, {});
    log.info('not written');
    log.debug({ a: 1 }, 'nor this');
    expect(child).not.toHaveBeenCalled();
    expect(log.level).toBe('warn');
    log.warn({ formId: 'frm_1' }, 'written');
    log.error('and this');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, reqId: 'r-1', formId: 'frm_1', msg: 'written' }),
      expect.objectContaining({ level: 50, reqId: 'r-1', msg: 'and this' }),
    ]);
  });

  it('a route’s own level is the child’s: debug lines of a debug route are written under a warn service', () => {
    const { logger, lines } = captured('warn');
    const log = requestLogger(logger, { reqId: 'r-2' }, { level: 'debug' });
    expect(log.level).toBe('debug');
    log.debug('route detail');
    log.trace('below the route’s level');
    expect(lines).toEqual([expect.objectContaining({ level: 20, reqId: 'r-2', msg: 'route detail' })]);
  });

  it('children of it carry both bindings', () => {
    const { logger, lines } = captured('info');
    const log = requestLogger(logger, { reqId: 'r-3' }, {});
    log.child({ part: 'upload' }).info('from the child');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r-3', part: 'upload', msg: 'from the child' })]);
  });

  it('serves as Fastify’s request logger: a line of a request carries its id', async () => {
    const { logger, lines } = captured('warn');
    const app = Fastify({
      loggerInstance: logger,
      childLoggerFactory: lazyRequestLogger,
      genReqId: () => 'req-42',
    });
    app.get('/', async (request) => {
      request.log.info('below the level');
      request.log.warn('something to say');
      return { ok: true };
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(lines).toEqual([expect.objectContaining({ reqId: 'req-42', msg: 'something to say' })]);
    await app.close();
  });
});
