// Circuit breakers per provider key and per model agent (issue 13), instead of "N errors → disabled
// until a cron": an error-rate window opens one, after its cool-down exactly one live request probes
// it, success closes it, a failed probe doubles the wait; auth errors still disable the key with their
// reason. Admins see each breaker and test a key with one real request. Real HTTP, the openai SDK
// against the mock provider, on SQLite and PostgreSQL; the stores agree (memory and Redis), and in
// Redis mode two instances share breakers, probes and cool-downs.
import { randomBytes } from 'node:crypto';
import type { BreakerInfo, KeyTestResult } from '@fastgate/core/entities/breaker';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBreakers, createRedisBreakers, type BreakerSettings, type BreakerStore } from '../src/breakers/index';
import { admin, dialects, startServer, type Client, type TestServer } from './helpers';
import { resetUpstreams, settled, world, type World } from './gateway-fixtures';

const REDIS_URL = process.env.TEST_REDIS_URL;
const [A, B] = ['sk-breaker-key-a', 'sk-breaker-key-b'] as const;
/** Small on purpose: four calls decide, a one-second cool-down. 60 %: one bad key of two (50 % of the agent's attempts) leaves the agent closed. */
const BREAKER = { breaker_error_rate: 60, breaker_min_calls: 4, breaker_cooldown: 1 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

async function ask(sdk: OpenAI, content: string): Promise<{ status: number; retryAfter: string | null; code: string | null }> {
  try {
    await sdk.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }] });
    return { status: 200, retryAfter: null, code: null };
  } catch (err) {
    if (!(err instanceof OpenAI.APIError)) throw err;
    return { status: err.status ?? 0, retryAfter: err.headers?.get('retry-after') ?? null, code: (err.code as string | null) ?? null };
  }
}

async function breakers(c: Client, ids: string[]): Promise<BreakerInfo[]> {
  const r = await c.get<{ items: BreakerInfo[] }>('/api/v1/model/agent/breakers', { ids: ids.join(',') });
  expect(r.body.code).toBe(0);
  return r.body.data.items;
}

describe.each(dialects)('circuit breakers on %s', (dialect) => {
  let w: World;
  let keyId: Record<string, string>;
  const sent = (key: string) => w.mock.requests.filter((r) => r.key === key).length;
  const breakerOf = async (id: string) => (await breakers(w.admin, [id]))[0]!;

  /** Sends calls until key A's breaker is open (A failing with a 500), all of them answered by B. */
  async function openA(): Promise<void> {
    w.mock.faults.add({ key: A, status: 500, error: 'exploded' });
    for (let i = 0; i < 12 && (await breakerOf(keyId[A]!)).state !== 'open'; i++) expect((await ask(w.openai, `open ${i}`)).status).toBe(200);
    expect((await breakerOf(keyId[A]!)).state).toBe('open');
  }

  beforeAll(async () => {
    w = await world(dialect, { agentKeys: [A, B] });
    keyId = Object.fromEntries([...w.server.app.gateway.snapshot.keys.values()].map((k) => [k.key, k.id]));
    const r = await w.admin.post('/api/v1/sys/config/update', { action: 'base', base: BREAKER });
    expect(r.body.code).toBe(0);
    await settled(w);
    expect(w.server.app.gateway.snapshot.sys.base).toMatchObject(BREAKER);
  });
  afterAll(() => w?.close());
  beforeEach(() => resetUpstreams(w));

  it('opens a key on its error rate, keeps it out of rotation, probes it after the cool-down and closes it', async () => {
    await openA();
    // Four calls saw A fail: the minimum, all failures. Its agent saw B answer every call: closed.
    expect(sent(A)).toBe(4);
    const [a, b, agent] = await breakers(w.admin, [keyId[A]!, keyId[B]!, w.agent]);
    expect(a).toMatchObject({ kind: 'key', state: 'open', calls: 4, failures: 4, error_rate: 100, last_error: { status: 500 }, cooling_until: null });
    expect(a!.last_error!.message).toContain('exploded');
    expect(a!.retry_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(b).toMatchObject({ kind: 'key', state: 'closed', failures: 0 });
    expect(agent).toMatchObject({ kind: 'agent', state: 'closed', failures: 4 });
    // While open, A is not asked at all.
    for (let i = 0; i < 4; i++) expect((await ask(w.openai, `while open ${i}`)).status).toBe(200);
    expect(sent(A)).toBe(4);

    // The upstream heals; after the cool-down one call probes A, and it is back in rotation.
    w.mock.faults.clear();
    await sleep(1100);
    for (let i = 0; i < 4; i++) expect((await ask(w.openai, `healed ${i}`)).status).toBe(200);
    expect(sent(A)).toBeGreaterThanOrEqual(5);
    expect(await breakerOf(keyId[A]!)).toMatchObject({ state: 'closed', failures: 0, retry_at: null });
    // The key itself was never disabled.
    const row = await w.server.app.ctx.db.selectFrom('provider_keys').select(['status', 'is_auto_disabled']).where('id', '=', keyId[A]!).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 1, is_auto_disabled: 0 });
  });

  it('lets exactly one probe through while half-open', async () => {
    await openA();
    w.mock.faults.clear();
    // A answers again, slowly: every call arriving while its probe runs goes to B.
    w.mock.faults.add({ key: A, delay: 1000 });
    await sleep(1100);
    const before = sent(A);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(w.openai, `half-open ${i}`)));
    expect(answers.map((x) => x.status)).toEqual(answers.map(() => 200));
    expect(sent(A) - before).toBe(1);
    expect((await breakerOf(keyId[A]!)).state).toBe('closed');
  });

  it('opens again for twice as long when the probe fails', async () => {
    await openA();
    await sleep(1100);
    const before = sent(A);
    for (let i = 0; i < 6 && sent(A) === before; i++) await ask(w.openai, `probe fails ${i}`);
    expect(sent(A)).toBe(before + 1);
    const view = w.server.app.gateway.breakers.store.view(`key:${keyId[A]}`)!;
    expect(view.state).toBe('open');
    // The wait doubled: 2 s from the failed probe.
    expect(view.retryAt - Date.now()).toBeGreaterThan(1500);
    expect(view.retryAt - Date.now()).toBeLessThanOrEqual(2000);
  });

  it("opens an agent whose upstream fails as a whole: the client hears 503 with retry-after, and nothing goes upstream", async () => {
    w.mock.faults.add({ key: A, status: 500, error: 'down' });
    w.mock.faults.add({ key: B, status: 500, error: 'down' });
    // Four attempts (err_retry 3), all failed: the agent's minimum, at 100 %.
    expect((await ask(w.openai, 'agent down')).status).toBe(500);
    expect(w.mock.requests).toHaveLength(4);
    expect(await breakerOf(w.agent)).toMatchObject({ kind: 'agent', state: 'open', failures: 4 });
    const refused = await ask(w.openai, 'agent open');
    expect(refused).toMatchObject({ status: 503, code: 'no_available_agent', retryAfter: '1' });
    expect(w.mock.requests).toHaveLength(4);
    // Healed: after the cool-down the next call probes the agent and closes it.
    w.mock.faults.clear();
    await sleep(1100);
    expect((await ask(w.openai, 'agent back')).status).toBe(200);
    expect((await breakerOf(w.agent)).state).toBe('closed');
  });

  it('still disables a key on an auth error, with its reason; its breaker counts nothing', async () => {
    w.mock.faults.add({ key: A, status: 401, error: 'Incorrect API key provided: sk-brea***' });
    for (let i = 0; i < 3; i++) expect((await ask(w.openai, `auth ${i}`)).status).toBe(200);
    // The key leaves rotation at once; its row is written after the call answered (a loaded database takes a while).
    const stored = () => w.server.app.ctx.db.selectFrom('provider_keys').selectAll().where('id', '=', keyId[A]!).executeTakeFirstOrThrow();
    await expect.poll(async () => (await stored()).status, { timeout: 5000 }).toBe(2);
    const row = await stored();
    expect(row).toMatchObject({ status: 2, is_auto_disabled: 1 });
    expect(row.auto_disabled_reason).toContain('Incorrect API key');
    expect(await breakerOf(keyId[A]!)).toMatchObject({ state: 'closed', calls: 0, failures: 0, last_error: null });
  });

  it('counts but never opens a never-disable key', async () => {
    await w.server.app.ctx.db.updateTable('provider_keys').set({ is_never_disable: 1 }).where('id', '=', keyId[A]!).execute();
    await w.server.app.gateway.snapshot.reload('provider_keys', [keyId[A]!]);
    try {
      w.mock.faults.add({ key: A, status: 500, error: 'exploded' });
      for (let i = 0; i < 8; i++) expect((await ask(w.openai, `never ${i}`)).status).toBe(200);
      expect(sent(A)).toBe(8);
      expect(await breakerOf(keyId[A]!)).toMatchObject({ state: 'closed', failures: 8, error_rate: 100 });
    } finally {
      await w.server.app.ctx.db.updateTable('provider_keys').set({ is_never_disable: 0 }).where('id', '=', keyId[A]!).execute();
      await w.server.app.gateway.snapshot.reload('provider_keys', [keyId[A]!]);
    }
  });

  it('tests a key with one real request: admins only, audited, and a success closes its breaker', async () => {
    const test = (id: string) => w.admin.post<KeyTestResult>('/api/v1/model/agent/key/test', { id });
    expect((await w.user.post('/api/v1/model/agent/key/test', { id: keyId[A] })).status).toBe(401);
    expect((await w.user.get('/api/v1/model/agent/breakers', { ids: keyId[A]! })).status).toBe(401);
    expect(w.mock.requests).toHaveLength(0);

    const ok = await test(keyId[A]!);
    expect(ok.body.code).toBe(0);
    expect(ok.body.data).toMatchObject({ ok: true, status: 200, model: 'gpt-test', agent_id: w.agent, breaker: { id: keyId[A], state: 'closed' } });
    expect(ok.body.data.message).toContain('ping');
    expect(w.mock.requests.map((r) => [r.key, r.path])).toEqual([[A, '/v1/chat/completions']]);

    // A failing key: the upstream's answer, counted on the key's breaker.
    w.mock.faults.add({ key: A, status: 500, error: 'exploded for the test' });
    const failed = await test(keyId[A]!);
    expect(failed.body.data).toMatchObject({ ok: false, status: 500, breaker: { failures: 1 } });
    expect(failed.body.data.message).toContain('exploded for the test');

    // Open by traffic, then healed: the test (before any cool-down) is the probe that closes it.
    await openA();
    w.mock.faults.clear();
    const closes = await test(keyId[A]!);
    expect(closes.body.data).toMatchObject({ ok: true, breaker: { state: 'closed', failures: 0 } });
    const rows = await w.server.app.ctx.db.selectFrom('audit_logs').selectAll().where('action', '=', '/api/v1/model/agent/key/test').execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.table_name === 'provider_keys' && JSON.parse(r.record_ids)[0] === keyId[A])).toBe(true);
    expect(rows.some((r) => (r.before ?? '').includes('"state":"open"'))).toBe(true);

    // Unknown and foreign ids: a clear refusal, never a 500, and nothing sent.
    const sentBefore = w.mock.requests.length;
    for (const body of [{ id: 'nope' }, { id: keyId[A], agent_id: 'nope' }, { id: keyId[A], model: 'nope' }, { id: w.agent }]) {
      const r = await w.admin.post('/api/v1/model/agent/key/test', body);
      expect(r.status).toBe(200);
      expect(r.body.code).not.toBe(0);
    }
    expect(w.mock.requests).toHaveLength(sentBefore);
    // The breaker list leaves unknown ids out and refuses too many.
    expect(await breakers(w.admin, ['nope', keyId[B]!])).toMatchObject([{ id: keyId[B] }]);
    const many = await w.admin.get('/api/v1/model/agent/breakers', { ids: Array.from({ length: 501 }, (_, i) => `id${i}`).join(',') });
    expect(many.body.code).not.toBe(0);
  });
});

describe.skipIf(!REDIS_URL)('breaker stores agree (memory and Redis)', () => {
  const S: BreakerSettings = { errorRatePct: 50, minCalls: 4, cooldownMs: 1000, windowMs: 60_000 };
  const prefix = `fgtest:br:${randomBytes(6).toString('hex')}:`;
  let server: TestServer;
  const stores: BreakerStore[] = [];

  beforeAll(async () => {
    server = await startServer('sqlite', { REDIS_URL: REDIS_URL!, REDIS_PREFIX: `fgtest:app:${randomBytes(6).toString('hex')}:` });
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    const redis = server.app.ctx.redis!.client;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await server.close();
  });

  it.each(['memory', 'redis'] as const)('runs the same rules in %s', async (kind) => {
    const make = () => (kind === 'memory' ? createMemoryBreakers() : createRedisBreakers(server.app.ctx.redis!.client, { prefix: `${prefix}${kind}:`, log: server.app.log }));
    const s = make();
    stores.push(s);
    const now = Date.now();
    const fail = { kind: 'fail' as const, probe: false, error: { status: 503, code: 'overloaded', message: 'busy' } };
    for (let i = 0; i < 3; i++) await s.record('key:x', fail, S, now);
    await s.record('key:x', { kind: 'ok', probe: false }, S, now);
    expect(s.view('key:x')?.state ?? 'closed').toBe('closed');
    await s.record('key:x', fail, S, now + 1);
    expect(s.view('key:x')).toMatchObject({ state: 'open', retryAt: now + 1001 });
    expect(await s.claim('key:x', 5000, now + 500)).toBe('busy');
    expect(await s.claim('key:x', 5000, now + 1001)).toBe('probe');
    expect(await s.claim('key:x', 5000, now + 1002)).toBe('busy');
    await s.record('key:x', { ...fail, probe: true }, S, now + 1100);
    expect(s.view('key:x')).toMatchObject({ state: 'open', retryAt: now + 3100 });
    expect(await s.claim('key:x', 5000, now + 3100)).toBe('probe');
    await s.record('key:x', { kind: 'ok', probe: true }, S, now + 3200);
    expect(s.view('key:x')?.state ?? 'closed').toBe('closed');
    // An agent: one key's failures do not open it, a second key's do.
    for (let i = 0; i < 5; i++) await s.record('agent:z', { ...fail, key: 'k1', keysNeeded: 2 }, S, now);
    expect(s.view('agent:z')?.state ?? 'closed').toBe('closed');
    await s.record('agent:z', { ...fail, key: 'k2', keysNeeded: 2 }, S, now);
    expect(s.view('agent:z')?.state).toBe('open');
    await s.record('key:y', { kind: 'fail', probe: false, coolMs: 7000 }, S, now);
    expect(s.view('key:y')).toMatchObject({ state: 'closed', coolUntil: now + 7000 });
    const [x, y, z] = await s.status(['key:x', 'key:y', 'key:z'], S, now + 3200);
    expect(x).toMatchObject({ state: 'closed', calls: 0, failures: 0, lastError: { status: 503, code: 'overloaded', message: 'busy' } });
    expect(y).toMatchObject({ state: 'closed', calls: 1, failures: 1, coolUntil: now + 7000 });
    expect(z).toMatchObject({ state: 'closed', calls: 0, lastError: null });
    if (kind === 'redis') {
      // Another instance sees the cool-down within a second, and nothing of the closed breaker.
      const other = make();
      stores.push(other);
      await until('the other instance to see the cool-down', async () => other.view('key:y')?.coolUntil === now + 7000);
      expect(other.view('key:x')).toBeUndefined();
    }
  });
});

describe.skipIf(!REDIS_URL)('breakers shared by two instances (Redis mode, PostgreSQL)', () => {
  let w: World;
  let second: TestServer;
  let secondSdk: OpenAI;
  let keyId: Record<string, string>;
  const prefix = `fgtest:brmi:${randomBytes(6).toString('hex')}:`;
  const env = { REDIS_URL: REDIS_URL!, REDIS_PREFIX: prefix, MASTER_KEY: randomBytes(32).toString('hex') };
  const sent = (key: string) => w.mock.requests.filter((r) => r.key === key).length;
  // Two seconds: the second instance's checks while A is open must fit in it on a loaded machine.
  const SHARED_BREAKER = { ...BREAKER, breaker_cooldown: 2 };

  beforeAll(async () => {
    w = await world('postgres', { agentKeys: [A, B], env });
    keyId = Object.fromEntries([...w.server.app.gateway.snapshot.keys.values()].map((k) => [k.key, k.id]));
    // The second instance: the same database, Redis and master key.
    second = await startServer('sqlite', { ...env, DATABASE_URL: w.server.app.ctx.config.databaseUrl! });
    secondSdk = new OpenAI({ apiKey: w.key, baseURL: `${second.url}/v1`, maxRetries: 0 });
    expect((await w.admin.post('/api/v1/sys/config/update', { action: 'base', base: SHARED_BREAKER })).body.code).toBe(0);
    await until('the second instance to have the breaker settings', async () => second.app.gateway.snapshot.sys.base.breaker_cooldown === SHARED_BREAKER.breaker_cooldown);
  });
  afterAll(async () => {
    await second?.close();
    const redis = w.server.app.ctx.redis!.client;
    const keys = await redis.keys(`${prefix}*`);
    await w.close();
    if (keys.length) {
      const { Redis } = await import('ioredis');
      const r = new Redis(REDIS_URL!);
      await r.del(...keys);
      await r.quit();
    }
  });

  it('opens on one instance and keeps the key out on the other; one probe in all; cool-downs shared', async () => {
    await resetUpstreams(w);
    // Signed in before the breaker opens: what follows must fit in its cool-down.
    const secondAdmin = await admin(second);
    w.mock.faults.add({ key: A, status: 500, error: 'exploded' });
    for (let i = 0; i < 12 && w.server.app.gateway.breakers.store.view(`key:${keyId[A]}`)?.state !== 'open'; i++) expect((await ask(w.openai, `mi open ${i}`)).status).toBe(200);
    expect(sent(A)).toBe(4);
    // The other instance reads the shared state: its console shows it, its picks skip A.
    expect((await breakers(secondAdmin, [keyId[A]!]))[0]).toMatchObject({ state: 'open', failures: 4 });
    await until('the second instance to see A open', async () => second.app.gateway.breakers.store.view(`key:${keyId[A]}`)?.state === 'open');
    for (let i = 0; i < 4; i++) expect((await ask(secondSdk, `mi skip ${i}`)).status).toBe(200);
    expect(sent(A)).toBe(4);

    // Healed and slow: after the cool-down, calls on both instances at once send A one probe in all.
    w.mock.faults.clear();
    w.mock.faults.add({ key: A, delay: 1000 });
    await sleep(SHARED_BREAKER.breaker_cooldown * 1000 + 100);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(i % 2 ? secondSdk : w.openai, `mi probe ${i}`)));
    expect(answers.map((x) => x.status)).toEqual(answers.map(() => 200));
    expect(sent(A)).toBe(5);
    expect((await breakers(secondAdmin, [keyId[A]!]))[0]!.state).toBe('closed');

    // B says wait 30 s on the first instance: the second does not ask it either.
    w.mock.faults.clear();
    w.mock.faults.add({ key: B, status: 429, error: 'slow down', retry_after: 30 });
    const b0 = sent(B);
    for (let i = 0; i < 4 && sent(B) === b0; i++) await ask(w.openai, `mi cool ${i}`);
    expect(sent(B)).toBe(b0 + 1);
    await until('the second instance to see B cooling', async () => (second.app.gateway.breakers.store.view(`key:${keyId[B]}`)?.coolUntil ?? 0) > Date.now());
    for (let i = 0; i < 4; i++) expect((await ask(secondSdk, `mi cooled ${i}`)).status).toBe(200);
    expect(sent(B)).toBe(b0 + 1);
  });
});
