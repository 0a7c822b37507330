// Behaviour suite run against both limiters (memory, and Redis at TEST_REDIS_URL with a random
// key prefix per test), plus Redis cross-instance atomicity and memory housekeeping.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLimiter, createRedisLimiter, retryAfterSeconds, type LimitScope, type RateLimiter } from '../src/limits';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
/** A fixed clock aligned to an hour (so to every slot), a little in the future of real time. */
const T0 = Math.ceil((Date.now() + 86_400_000) / 3_600_000) * 3_600_000;
const IP = '10.0.0.1';

const scope = (name: string, limits: LimitScope['limits']): LimitScope => ({ scope: name, limits });

interface Harness {
  make(): RateLimiter;
  cleanup(): Promise<void>;
}
interface RedisHarness extends Harness {
  /** Another limiter on its own connection with the same prefix: a second gateway instance. */
  makeInstance(): RateLimiter;
}

const redisConnections: Redis[] = [];
function connect(): Redis {
  const r = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
  redisConnections.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(redisConnections.map((r) => r.quit()));
});

function redisHarness(): RedisHarness {
  const prefix = `fgtest:rl:${randomBytes(6).toString('hex')}:`;
  const redis = connect();
  return {
    make: () => createRedisLimiter(redis, { prefix }),
    makeInstance: () => createRedisLimiter(connect(), { prefix }),
    async cleanup() {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    },
  };
}

const implementations: Array<[string, () => Harness]> = [
  ['memory', () => ({ make: () => createMemoryLimiter(), cleanup: async () => {} })],
  ['redis', redisHarness],
];

describe.each(implementations)('%s limiter', (_name, harness) => {
  let h: Harness;
  let limiter: RateLimiter;
  beforeAll(() => {
    h = harness();
  });
  afterEach(async () => {
    await h.cleanup();
  });
  const fresh = () => (limiter = h.make());

  it('refuses past rpm with the blocking scope and a retry-after that is accurate to the millisecond', async () => {
    fresh();
    const scopes = [scope('key:a', { rpm: 3 })];
    for (let i = 0; i < 3; i++) expect((await limiter.admit(scopes, IP, T0 + i * 1000)).ok).toBe(true);
    const refused = await limiter.admit(scopes, IP, T0 + 2500);
    expect(refused).toMatchObject({ ok: false, scope: 'key:a', limit: 'rpm' });
    if (refused.ok) return;
    // Exact sliding log: 57.5 s. The slot window is at most one 5 s slot stricter.
    expect(refused.retryAfterMs).toBeGreaterThanOrEqual(57_500);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(62_500);
    expect(retryAfterSeconds(refused.retryAfterMs)).toBe(Math.ceil(refused.retryAfterMs / 1000));
    const at = T0 + 2500 + refused.retryAfterMs;
    expect((await limiter.admit(scopes, IP, at - 1)).ok).toBe(false);
    expect((await limiter.admit(scopes, IP, at)).ok).toBe(true);
  });

  it('is all or nothing across scopes: a refusal counts nowhere', async () => {
    fresh();
    const app = scope('app:12', { rpm: 5 });
    const key = scope('key:b', { rpm: 2 });
    expect((await limiter.admit([app, key], IP, T0)).ok).toBe(true);
    expect((await limiter.admit([app, key], IP, T0)).ok).toBe(true);
    for (let i = 0; i < 4; i++) expect(await limiter.admit([app, key], IP, T0)).toMatchObject({ ok: false, scope: 'key:b', limit: 'rpm' });
    // app:12 holds 2, not 6: three more fit through another key of the same app.
    for (let i = 0; i < 3; i++) expect((await limiter.admit([app, scope('key:c', {})], IP, T0)).ok).toBe(true);
    expect(await limiter.admit([app], IP, T0)).toMatchObject({ ok: false, scope: 'app:12' });
  });

  it('reports the window that clears last when several block', async () => {
    fresh();
    const scopes = [scope('user:7', { rps: 1 }), scope('group:g', { rpm: 1 })];
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(true);
    const refused = await limiter.admit(scopes, IP, T0 + 10);
    expect(refused).toMatchObject({ ok: false, scope: 'group:g', limit: 'rpm' });
  });

  it('slides: a burst at a minute edge does not double the limit', async () => {
    fresh();
    const scopes = [scope('key:edge', { rpm: 10 })];
    for (let i = 0; i < 10; i++) expect((await limiter.admit(scopes, IP, T0 + 59_000)).ok).toBe(true);
    // A fixed minute window would start over here.
    expect((await limiter.admit(scopes, IP, T0 + 60_000)).ok).toBe(false);
    expect((await limiter.admit(scopes, IP, T0 + 118_000)).ok).toBe(false);
    expect((await limiter.admit(scopes, IP, T0 + 125_000)).ok).toBe(true);
  });

  it('never lets more than the limit through any 60 s span, and still lets most of it through', async () => {
    fresh();
    const scopes = [scope('key:steady', { rpm: 10 })];
    const accepted: number[] = [];
    for (let t = T0 + 1234; t < T0 + 1234 + 300_000; t += 250) if ((await limiter.admit(scopes, IP, t)).ok) accepted.push(t);
    for (let i = 0; i + 10 < accepted.length; i++) expect(accepted[i + 10] - accepted[i]).toBeGreaterThanOrEqual(60_000);
    expect(accepted.length).toBeGreaterThanOrEqual(45); // exact sliding log: 50 in 5 minutes
  });

  it('rps windows slide at sub-second resolution', async () => {
    fresh();
    const scopes = [scope('key:s', { rps: 2 })];
    expect((await limiter.admit(scopes, IP, T0 + 0)).ok).toBe(true);
    expect((await limiter.admit(scopes, IP, T0 + 500)).ok).toBe(true);
    const refused = await limiter.admit(scopes, IP, T0 + 700);
    expect(refused).toMatchObject({ ok: false, limit: 'rps' });
    if (refused.ok) return;
    expect(refused.retryAfterMs).toBe(400); // the T0 slot leaves at T0 + 1100
    expect((await limiter.admit(scopes, IP, T0 + 1100)).ok).toBe(true);
  });

  it('refuses once token windows reach their limit after addTokens', async () => {
    fresh();
    const scopes = [scope('key:t', { tpm: 1000, rpm: 100 }), scope('vip:1', { tpd: 5000 })];
    const first = await limiter.admit(scopes, IP, T0);
    expect(first.ok).toBe(true);
    await limiter.addTokens(scopes, 600, T0 + 1000);
    expect((await limiter.admit(scopes, IP, T0 + 2000)).ok).toBe(true);
    await limiter.addTokens(scopes, 400, T0 + 3000); // exactly at the limit: refused too
    const refused = await limiter.admit(scopes, IP, T0 + 4000);
    expect(refused).toMatchObject({ ok: false, scope: 'key:t', limit: 'tpm' });
    if (refused.ok) return;
    // The 600 leave at T0 + 65 s, then the minute holds 400 < 1000.
    expect(refused.retryAfterMs).toBe(61_000);
    expect((await limiter.admit(scopes, IP, T0 + 65_000)).ok).toBe(true);
    // The day window still holds all 1000 tokens and more calls fill it.
    await limiter.addTokens(scopes, 4000, T0 + 70_000);
    expect(await limiter.admit(scopes, IP, T0 + 200_000)).toMatchObject({ ok: false, scope: 'vip:1', limit: 'tpd' });
  });

  it('token-only limits do not count requests', async () => {
    fresh();
    const scopes = [scope('key:tok', { tps: 10 })];
    for (let i = 0; i < 50; i++) {
      const r = await limiter.admit(scopes, IP, T0);
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.release).toBeUndefined();
    }
    await limiter.addTokens(scopes, 10, T0);
    expect(await limiter.admit(scopes, IP, T0 + 50)).toMatchObject({ ok: false, limit: 'tps' });
    expect((await limiter.admit(scopes, IP, T0 + 1100)).ok).toBe(true);
  });

  it('limits each client IP separately within a scope', async () => {
    fresh();
    const app = scope('app:ip', { ipm: 2 });
    expect((await limiter.admit([app], '1.2.3.4', T0)).ok).toBe(true);
    expect((await limiter.admit([app], '::ffff:1.2.3.4', T0)).ok).toBe(true); // same client, IPv4-mapped
    expect(await limiter.admit([app], '1.2.3.4', T0)).toMatchObject({ ok: false, scope: 'app:ip', limit: 'ipm' });
    expect((await limiter.admit([app], '2001:db8::1', T0)).ok).toBe(true);
    expect((await limiter.admit([app], '2001:db8::1', T0)).ok).toBe(true);
    expect((await limiter.admit([app], '2001:db8::1', T0)).ok).toBe(false);
    // Another scope has its own per-IP counters.
    expect((await limiter.admit([scope('app:other', { ipm: 2 })], '1.2.3.4', T0)).ok).toBe(true);
    // ips and ipd too.
    const s = scope('app:ips', { ips: 1, ipd: 2 });
    expect((await limiter.admit([s], IP, T0)).ok).toBe(true);
    expect(await limiter.admit([s], IP, T0 + 10)).toMatchObject({ ok: false, limit: 'ips' });
    expect((await limiter.admit([s], IP, T0 + 2000)).ok).toBe(true);
    expect(await limiter.admit([s], IP, T0 + 4000)).toMatchObject({ ok: false, limit: 'ipd' });
  });

  it('counts each client IP apart when the same scopes list comes back call after call (the gateway keeps a key\'s)', async () => {
    fresh();
    const kept = [scope('app:kept', { ipm: 1, rpm: 100 })];
    for (const ip of ['1.2.3.4', '5.6.7.8', '2001:db8::2']) expect((await limiter.admit(kept, ip, T0)).ok).toBe(true);
    for (const ip of ['1.2.3.4', '5.6.7.8', '2001:db8::2']) expect(await limiter.admit(kept, ip, T0)).toMatchObject({ ok: false, limit: 'ipm' });
    expect((await limiter.admit(kept, '9.9.9.9', T0)).ok).toBe(true);
  });

  it('treats 0, null and absent limits as unlimited', async () => {
    fresh();
    const scopes = [
      scope('key:z', { rps: 0, rpm: 0, rpd: 0, tps: 0, tpm: 0, tpd: 0, ips: 0, ipm: 0, ipd: 0 }),
      scope('app:z', { rpm: null }),
      scope('user:z', {}),
    ];
    await limiter.addTokens(scopes, 1e9, T0);
    for (let i = 0; i < 200; i++) {
      const r = await limiter.admit(scopes, IP, T0);
      expect(r).toEqual({ ok: true });
    }
    // 0 beside a real limit: only the real one applies.
    const mixed = [scope('key:m', { rps: 0, rpm: 2 })];
    expect((await limiter.admit(mixed, IP, T0)).ok).toBe(true);
    expect((await limiter.admit(mixed, IP, T0)).ok).toBe(true);
    expect(await limiter.admit(mixed, IP, T0)).toMatchObject({ ok: false, limit: 'rpm' });
  });

  it('release gives an admission back once', async () => {
    fresh();
    const scopes = [scope('key:r', { rpm: 1 }), scope('app:r', { ipm: 1 })];
    const first = await limiter.admit(scopes, IP, T0);
    expect(first.ok && first.release).toBeTruthy();
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(false);
    if (!first.ok) return;
    await first.release?.();
    await first.release?.(); // idempotent: must not free a second place
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(true);
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(false);
  });

  it('counts a scope listed twice once, with its strictest limit', async () => {
    fresh();
    const scopes = [scope('group:dup', { rpm: 3 }), scope('group:dup', { rpm: 2 })];
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(true);
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(true);
    expect((await limiter.admit(scopes, IP, T0)).ok).toBe(false);
    expect((await limiter.admit([scope('group:dup', { rpm: 3 })], IP, T0)).ok).toBe(true);
  });
});

describe('redis limiter across instances', () => {
  it('lets exactly the limit through 50 parallel admits from two instances', async () => {
    const h = redisHarness();
    try {
      const a = h.makeInstance();
      const b = h.makeInstance();
      const scopes = [scope('key:race', { rpm: 10 }), scope('app:race', { rpm: 1000 })];
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).admit(scopes, IP, now)));
      expect(results.filter((r) => r.ok)).toHaveLength(10);
      expect(results.filter((r) => !r.ok && r.scope === 'key:race' && r.limit === 'rpm')).toHaveLength(40);
    } finally {
      await h.cleanup();
    }
  });
});

describe('redis limiter keys', () => {
  it('expire once their slot has left the window', async () => {
    const prefix = `fgtest:rl:${randomBytes(6).toString('hex')}:`;
    const redis = connect();
    const limiter = createRedisLimiter(redis, { prefix });
    const scopes = [scope('key:ttl', { rpm: 5, tpd: 1000, ipd: 3 })];
    try {
      const now = Date.now();
      expect((await limiter.admit(scopes, IP, now)).ok).toBe(true);
      await limiter.addTokens(scopes, 10, now);
      const keys = (await redis.keys(`${prefix}*`)).sort();
      expect(keys).toEqual([`${prefix}key:ttl|ipd|${IP}`, `${prefix}key:ttl|rpm`, `${prefix}key:ttl|tpd`]);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        const max = key.endsWith('|rpm') ? 66_000 : 25 * 3_600_000 + 1_000;
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(max);
      }
      // Fields are plain slot indices; fields that left the window are pruned as the hash grows.
      const rpmKey = `${prefix}key:ttl|rpm`;
      expect(await redis.hgetall(rpmKey)).toEqual({ [String(Math.floor(now / 5000))]: '1' });
      for (let i = 1; i <= 40; i++) await limiter.admit(scopes.map((s) => ({ ...s, limits: { rpm: 1000 } })), IP, now + i * 5000);
      const fields = Object.keys(await redis.hgetall(rpmKey)).map(Number);
      expect(fields.length).toBeLessThanOrEqual(26);
      expect(Math.min(...fields)).toBeGreaterThanOrEqual(Math.floor(now / 5000) + 40 - 2 * 13);
    } finally {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
    }
  });
});

describe('memory limiter housekeeping', () => {
  it('forgets idle counters and caps their number', async () => {
    const limiter = createMemoryLimiter({ maxCounters: 1000 });
    const s = [scope('app:ipflood', { ipm: 5 })];
    for (let i = 0; i < 500; i++) await limiter.admit(s, `10.1.${i >> 8}.${i & 255}`, T0);
    expect(limiter.size).toBe(500);
    await limiter.admit(s, IP, T0 + 70_000); // every minute slot has left its window
    expect(limiter.size).toBe(1);
    for (let i = 0; i < 5000; i++) await limiter.admit(s, `10.2.${i >> 8}.${i & 255}`, T0 + 70_000);
    expect(limiter.size).toBeLessThanOrEqual(1001);
  });

  it('admits in microseconds', async () => {
    const limiter = createMemoryLimiter();
    const scopes = [
      scope('key:bench', { rps: 1e6, rpm: 1e7, tpm: 1e9 }),
      scope('app:bench', { rpm: 1e7, ipm: 1e7 }),
      scope('user:bench', { rpd: 1e8 }),
      scope('group:bench', { rpm: 1e7, tpd: 1e10 }),
    ];
    const n = 100_000;
    for (let i = 0; i < 10_000; i++) await limiter.admit(scopes, IP, T0 + i); // warm up
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await limiter.admit(scopes, IP, T0 + 10_000 + i);
    const perAdmitUs = Number(process.hrtime.bigint() - start) / 1e3 / n;
    console.log(`memory admit: ${perAdmitUs.toFixed(2)} µs per admit (4 scopes, 9 windows, ${n} admits)`);
    expect(perAdmitUs).toBeLessThan(50);
  });
});
