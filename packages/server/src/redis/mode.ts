// Redis mode in one place (REDIS_URL set): the shared connection, the change bus over pub/sub, the
// rate limiter whose counters every instance shares, the snapshot's periodic reconcile and the session
// cache's invalidation, and the ledger's store of balances and unwritten charges (billing/ledger-redis.ts).
import type { FastifyBaseLogger } from 'fastify';
import { watchUserChanges } from '../auth/session-cache';
import { redisLedgerStore } from '../billing/ledger-redis';
import type { LedgerStoreFactory } from '../billing/ledger-types';
import { createRedisBus, type RedisBus } from '../bus/redis';
import type { Config } from '../config';
import type { Ctx } from '../context';
import { GatewayError } from '../gateway/errors';
import { startReconcile, type Reconciler } from '../gateway/reconcile';
import type { Snapshot } from '../gateway/snapshot';
import { createRedisLimiter } from '../limits/redis';
import type { RateLimiter } from '../limits/types';
import { connectRedis, type RedisConn } from './connect';

export interface RedisMode {
  conn: RedisConn;
  bus: RedisBus;
  limiter: RateLimiter;
  ledgerStore: LedgerStoreFactory;
  /** Once the snapshot is loaded: reconcile it periodically and on every bus reconnect; watch users for the session cache. */
  start(ctx: Ctx, snapshot: Snapshot): Reconciler;
  stop(): Promise<void>;
  /** Last, after the bus and everything using the connection closed. */
  quit(): Promise<void>;
}

/** Redis unreachable: a refusal the client can retry (503), never a 500; token counting is best effort. */
function guarded(limiter: RateLimiter, log: FastifyBaseLogger): RateLimiter {
  return {
    async admit(scopes, ip, now) {
      try {
        return await limiter.admit(scopes, ip, now);
      } catch (err) {
        log.error({ err }, 'rate limit check in Redis failed');
        throw new GatewayError(503, 'service_unavailable', 'The gateway cannot check rate limits right now. Please retry.', 'server_error');
      }
    },
    addTokens: (scopes, tokens, now) => limiter.addTokens(scopes, tokens, now).catch((err: unknown) => log.warn({ err }, 'counting tokens in Redis failed')),
    close: () => limiter.close(),
  };
}

export async function redisMode(config: Config, log: FastifyBaseLogger): Promise<RedisMode> {
  const conn = await connectRedis(config, log);
  const bus = await createRedisBus(conn, log);
  let stops: (() => Promise<void> | void)[] = [];
  return {
    conn,
    bus,
    limiter: guarded(createRedisLimiter(conn.client, { prefix: `${conn.prefix}rl:` }), log),
    ledgerStore: redisLedgerStore(conn),
    start(ctx, snapshot) {
      const reconcile = startReconcile(ctx, snapshot, config.reconcileMs);
      stops = [bus.onReconnect(() => void reconcile.run()), watchUserChanges(ctx, conn), () => reconcile.stop()];
      return reconcile;
    },
    async stop() {
      for (const s of stops) await s();
      stops = [];
    },
    async quit() {
      await conn.client.quit().catch(() => conn.client.disconnect());
    },
  };
}
