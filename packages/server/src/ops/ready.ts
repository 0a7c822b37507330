// Readiness (GET /ready): can this instance serve right now? The database answers a query, Redis (when
// REDIS_URL is set) answers PING, and the instance is not draining for shutdown. Each probe gets a
// bounded time so a black-holed dependency answers 503 quickly instead of hanging the load balancer's
// check. The reasons go to the log; the answer only names what is down.
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../db/schema';

export interface Probe {
  name: string;
  check(): Promise<unknown>;
}

export const PROBE_TIMEOUT_MS = 2000;

export const databaseProbe = (db: DB): Probe => ({ name: 'database', check: () => sql`select 1`.execute(db) });

/** PING over the Redis mode's shared command connection (redis/connect.ts): the one the gateway uses. */
export const redisProbe = (client: Pick<Redis, 'ping'>): Probe => ({ name: 'redis', check: () => client.ping() });

export interface Readiness {
  ready: boolean;
  /** Each probe: ok or down; `draining` when the instance is shutting down. */
  checks: Record<string, 'ok' | 'down'>;
  draining?: boolean;
}

/** `p`, or a rejection once `ms` have passed. */
export function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export async function readiness(probes: readonly Probe[], draining: boolean, log: FastifyBaseLogger): Promise<Readiness> {
  const results = await Promise.all(
    probes.map(async (p) => {
      try {
        await within(Promise.resolve().then(() => p.check()), PROBE_TIMEOUT_MS);
        return [p.name, 'ok'] as const;
      } catch (err) {
        log.warn({ err, probe: p.name }, 'readiness probe failed');
        return [p.name, 'down'] as const;
      }
    }),
  );
  const checks = Object.fromEntries(results);
  const ready = !draining && results.every(([, r]) => r === 'ok');
  return draining ? { ready, checks, draining } : { ready, checks };
}
