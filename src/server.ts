import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from './platform/db/database.js';

/** Entry point: read the configuration, build the app, listen, close gracefully. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
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

  const url = await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { url, database: config.databaseUrl ? 'postgres' : `sqlite in ${config.dataDir}` },
    'Intake is ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`intake: invalid configuration: ${error.message}`);
  } else if (error instanceof DataDirInUseError) {
    console.error(`intake: ${error.message}`);
  } else {
    console.error('intake: failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
