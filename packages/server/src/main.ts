// Starts the product: reads the environment once, builds the app, listens.
import { buildApp } from './app';
import { readConfig } from './config';
import { gracefulShutdown } from './ops/shutdown';
import { runInZone } from './zone';

const started = performance.now();
const config = readConfig();
// Date's local time = the configured zone, so the product reads its dates without Intl (zone.ts says why).
runInZone(config.timeZone);
const app = await buildApp(config);

// SIGTERM/SIGINT: stop accepting, let requests and streams in flight finish (at most SHUTDOWN_TIMEOUT_S),
// write the ledger's last charges and logs, exit 0. A second signal exits at once (ops/shutdown.ts).
const shutdown = gracefulShutdown(app, config.shutdownTimeoutMs);
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: config.databaseUrl ? 'postgres' : `sqlite in ${config.dataDir}`, ms: Math.round(performance.now() - started) },
    `console at http://localhost:${config.port}`,
  );
} catch (err) {
  app.log.error(err);
  process.exit(1);
}
