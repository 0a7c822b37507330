// Redis mode (REDIS_URL): one command connection shared by the rate limiter, the ledger's balances, the
// session cache and the bus's publishes; the bus opens its own subscriber connection (bus/redis.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config';

export interface RedisConn {
  client: Redis;
  /** Prefix of every key and channel, so several deployments (or test runs) can share one Redis. */
  prefix: string;
  /** How long a reservation or a ledger batch claimed by an instance outlives that instance. */
  leaseMs: number;
}

export async function connectRedis(config: Config, log: FastifyBaseLogger): Promise<RedisConn> {
  // Loaded here, not with the module: a single instance never uses it (~1 MB of heap).
  const { Redis: Client } = await import('ioredis');
  // Few retries per command: a request fails fast (503) while Redis is away instead of queueing for seconds.
  const client = new Client(config.redisUrl!, { maxRetriesPerRequest: 2, lazyConnect: true });
  let reported = 0;
  client.on('error', (err: Error) => {
    // ioredis reports every failed reconnect; once every 10 s is enough.
    if (Date.now() - reported < 10_000) return;
    reported = Date.now();
    log.warn({ err: err.message }, 'Redis connection error');
  });
  await client.connect();
  return { client, prefix: config.redisPrefix, leaseMs: config.redisLeaseMs };
}
