// Builds the Fastify app (never listens): infrastructure, console API, static console. Tests and main use it.
import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import type { Ctx } from './context';
import { ensureFirstAdmin } from './auth/accounts';
import { purgeExpiredSessions } from './auth/sessions';
import { createMemoryBus } from './bus/index';
import { createMemoryLimiter } from './limits/index';
import { memoryLedgerStore } from './billing/ledger-memory';
import { SqliteWriter } from './billing/sqlite-writer';
import { consoleApi } from './console/index';
import { decorateRouteList } from './http/route-registry';
import { Gateway } from './gateway/gateway';
import { gatewayApi } from './gateway/index';
import { geminiNativeApi } from './gateway/gemini-native-routes';
import { ensureCallLogPartitionsAhead } from './db/call-log-partitions';
import { createDb, migrateToLatest, sqliteFile } from './db/index';
import { logSqliteSpace } from './db/sqlite-space';
import { startHousekeeping } from './jobs/housekeeping';
import { startVipJob } from './vip/rules';
import { startNotices } from './jobs/notices';
import { followDebugLog } from './settings/debug-log';
import { statisticsJob } from './jobs/statistics';
import { taskPollingJob } from './jobs/tasks';
import { createMailer } from './mail/mailer';
import { redisMode } from './redis/mode';
import { registerOperations } from './ops/index';
import { loggingOptions, REQUEST_ID_LABEL } from './ops/logging';
import { Metrics } from './ops/metrics';
import { XSRF_COOKIE } from './http/session';
import { registerJsonBody } from './http/json-body';
import { securityHeaders } from './http/security-headers';
import { createSecrets, loadMasterKey } from './security/secrets';
import { randomToken } from './security/tokens';
import { webConsole } from './static';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(config: Config, opts: BuildOptions = {}) {
  const app = Fastify({
    // JSON lines with the request's id (the gateway's trace id) and secrets censored (ops/logging.ts).
    ...loggingOptions(config.logLevel, opts.logger),
    bodyLimit: 10 * 1024 * 1024,
    // Only the peers TRUST_PROXY names may set the client's address (request.ip) through X-Forwarded-For.
    // A hop count trusts the nearest hops whoever they are (given a number, Fastify would trust no one).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Keys, passwords and tokens never reach the log through headers.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug', requestIdLogLabel: REQUEST_ID_LABEL }),
    // While shutting down, a request that still arrives on an open connection is served (and the
    // connection closed after it) rather than refused with 503: a balancer would not retry a POST.
    return503OnClosing: false,
    // `/v1/chat/completions/` is `/v1/chat/completions`: clients that build URLs by joining a base URL
    // with a slash send these, and OpenAI answers them. Router-wide (Fastify has no per-scope switch),
    // so the console API tolerates them too; the not-found handlers still own every unknown path.
    routerOptions: { ignoreTrailingSlash: true },
  });

  const { db, dialect } = createDb(config);
  const secrets = createSecrets(loadMasterKey(config));
  const metrics = new Metrics();
  // REDIS_URL: bus, rate limits, balances and the session cache shared by every instance (redis/mode.ts).
  const redis = config.redisUrl ? await redisMode(config, app.log) : undefined;
  const limiter = redis?.limiter ?? createMemoryLimiter();
  const ctx: Ctx = { config, db, dialect, secrets, mailer: createMailer(db, secrets, app.log, config.mailPrivateAllow), bus: redis?.bus ?? createMemoryBus(), log: app.log, metrics, redis: redis?.conn, limiter };
  app.decorate('ctx', ctx);
  // The gateway reads its config from memory, loaded after the migrations; on close it writes its last
  // charges and call logs before the database goes.
  // One instance on SQLite: the ledger's batches and the statistics job run in a thread of their own, off the event loop.
  const sqliteWriter = dialect === 'sqlite' && !redis ? new SqliteWriter(sqliteFile(config.dataDir), undefined, { log: app.log }) : undefined;
  const gateway = new Gateway(ctx, redis?.ledgerStore ?? memoryLedgerStore, sqliteWriter);
  app.decorate('gateway', gateway);
  // Daily at 2:00; it only reads the database when it fires, long after start-up.
  const housekeeping = startHousekeeping(ctx);
  // VIP upgrades by usage and level expiry every 5 minutes (vip/rules.ts).
  const vipJob = startVipJob(ctx);
  // Quota notices every 10 minutes (jobs/notices.ts).
  const notices = startNotices(ctx);
  // Daily statistics (bills, dashboard) from the call logs, on the system config's cron (jobs/statistics.ts);
  // started after the migrations because it reads its schedule from the database.
  const statistics = statisticsJob(ctx, { flush: () => gateway.ledger.flush(), writer: sqliteWriter });
  // Async task polling every 5 seconds (jobs/tasks.ts), started once the gateway's snapshot is loaded.
  const taskPolling = taskPollingJob(ctx, gateway);
  app.addHook('onClose', async () => {
    await redis?.stop();
    await statistics.stop();
    await taskPolling.stop();
    housekeeping.stop();
    vipJob.stop();
    notices.stop();
    await gateway.close();
    ctx.mailer.close();
    await ctx.bus.close();
    await redis?.quit();
    await db.destroy();
  });

  await migrateToLatest(db);
  // PostgreSQL: call logs' daily partitions from yesterday to a week ahead (db/call-log-partitions.ts; never throws).
  await ensureCallLogPartitionsAhead(ctx);
  await ensureFirstAdmin(ctx);
  // SQLite: the file converted to incremental auto_vacuum at open, or a warning that it needs `npm run db:compact`.
  logSqliteSpace(ctx);
  await purgeExpiredSessions(ctx);
  await gateway.start();
  redis?.start(ctx, gateway.snapshot);
  // The system config's debug switch sets the log level (settings/debug-log.ts).
  const stopDebugLog = await followDebugLog(ctx);
  app.addHook('onClose', async () => stopDebugLog());
  statistics.start();
  taskPolling.start();

  // JSON bodies everywhere with a bound on nesting (http/json-body.ts).
  registerJsonBody(app);
  // Request ids, metrics and the access log for every route below; /ready, /metrics, /api/docs.
  registerOperations(app, { metrics, gateway });
  decorateRouteList(app);
  // What browsers call: /health, the console API and the console itself. Cookies are parsed and the XSRF
  // cookie set only here; the gateway's scopes below are siblings, so its calls (machine clients, the hot
  // path) run neither hook.
  await app.register(async (browser) => {
    await browser.register(fastifyCookie);
    // The console's axios sends this cookie back as X-XSRF-TOKEN (docs/SPEC.md §7); checked on signed-in POSTs.
    browser.addHook('onRequest', (request, reply, done) => {
      if (!request.cookies[XSRF_COOKIE]) reply.setCookie(XSRF_COOKIE, randomToken(24), { path: '/', sameSite: 'strict', httpOnly: false });
      done();
    });
    browser.all('/health', async () => ({ status: 'ok' }));
    // The console and its API get the browser security headers; /health does not.
    await browser.register(async (site) => {
      await securityHeaders(site);
      await site.register(consoleApi, { prefix: '/api' });
      await site.register(webConsole, { dist: config.webDist });
    });
  });
  await app.register(gatewayApi, { prefix: '/v1', bodyLimit: config.gatewayBodyLimit, uploadBodyLimit: config.gatewayUploadLimit });
  // Google's Gemini API (Gemini CLI, @google/genai): its own scope, errors and `?key=` (gemini-native-routes.ts).
  await app.register(geminiNativeApi, { prefix: '/v1beta', bodyLimit: config.gatewayBodyLimit });
  return app;
}
