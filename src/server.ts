import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, startupWarnings } from './config.js';
import { DatabaseWaitExpired, DataDirInUseError } from './platform/db/database.js';
import { releaseMemoryWhenIdle } from './platform/idle-memory.js';

/** How long a shutdown may take before the process gives up on finishing in-flight work. */
const SHUTDOWN_LIMIT_MS = 20_000;

/** Entry point: read the configuration, build the app, listen, close gracefully. */
async function main(): Promise<void> {
  const config = loadConfig();
  let app: FastifyInstance | undefined;

  // A promise nobody handled is a bug of ours, but not a reason to drop every connection in
  // flight: it is logged (tests fail on such a line) and the service goes on.
  process.on('unhandledRejection', (reason) => {
    if (app) app.log.error({ err: reason }, 'unhandled rejection (a bug: please report it); service goes on');
    else console.error('intake: unhandled rejection (a bug: please report it):', reason);
  });

  let closing = false;
  let idleMemory: { stop: () => void } | undefined;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    // Stopped while still waiting for the database: nothing was accepted yet, nothing to finish.
    if (!app) process.exit(0);
    idleMemory?.stop();
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      app?.log.error(`shutdown took longer than ${SHUTDOWN_LIMIT_MS / 1000} s; exiting`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  app = await buildApp(config);

  const url = await app.listen({ host: config.host, port: config.port });
  for (const warning of startupWarnings(config)) app.log.warn(warning);
  app.log.info(
    { url, database: config.databaseUrl ? 'postgres' : `sqlite in ${config.dataDir}` },
    'Intake is ready',
  );
  // the young generation grown by start-up and by each busy stretch, given back once idle
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  idleMemory = releaseMemoryWhenIdle({
    collect: globalThis.gc,
    onRelease: ({ heapBefore, heapAfter, rssBefore, rssAfter, ms }) =>
      app?.log.debug(
        {
          heapMiB: [mib(heapBefore), mib(heapAfter)],
          rssMiB: [mib(rssBefore), mib(rssAfter)],
          ms: Math.round(ms),
        },
        'memory given back while idle',
      ),
    onFailure: (error) =>
      app?.log.warn({ err: error }, 'V8 refused the idle collection; memory is no longer given back'),
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`intake: invalid configuration: ${error.message}`);
  } else if (error instanceof DataDirInUseError || error instanceof DatabaseWaitExpired) {
    console.error(`intake: ${error.message}`);
  } else {
    console.error('intake: failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
