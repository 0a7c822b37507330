// What services need from the running app, passed explicitly (the Fastify instance decorates `ctx`).
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from './bus/index';
import type { Config } from './config';
import type { Dialect } from './db/schema';
import type { DB } from './db/schema';
import type { Mailer } from './mail/mailer';
import type { RateLimiter } from './limits/types';
import type { RedisConn } from './redis/connect';
import type { Metrics } from './ops/metrics';
import type { Secrets } from './security/secrets';

export interface Ctx {
  config: Config;
  db: DB;
  dialect: Dialect;
  secrets: Secrets;
  mailer: Mailer;
  bus: Bus;
  log: FastifyBaseLogger;
  /** Redis mode only (REDIS_URL): the shared connection and key prefix. */
  redis?: RedisConn;
  /** The rate limiter (memory, or Redis shared by every instance): the gateway's limits and sign-in throttling. */
  limiter: RateLimiter;
  /** Prometheus counters and gauges (GET /metrics); recording never waits. */
  metrics: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: Ctx;
  }
}
