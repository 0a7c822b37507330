// Starts the product: reads the environment once, builds the app, listens.
import { buildApp } from './app';
import { readConfig } from './config';

const started = performance.now();
const config = readConfig();
const app = await buildApp(config);

const close = async (signal: string) => {
  app.log.info({ signal }, 'shutting down');
  await app.close();
  process.exit(0);
};
process.once('SIGINT', () => void close('SIGINT'));
process.once('SIGTERM', () => void close('SIGTERM'));

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
