// Two real server processes (the production entry, main.ts) on one fresh PostgreSQL database and one
// Redis (a key prefix of their own), in front of the mock provider: config changes cross instances
// within a second (and heal through the periodic reconcile when a message is lost), rate limits and
// balances hold across both, SIGKILL loses no settled charge and holds no reservation past its lease,
// SIGTERM drains a stream in flight and writes its log before the process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startMockProvider, type MockProvider } from '@fastgate/mock-provider/server';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/security/tokens';
import { Client, freshPostgres } from './helpers';

const REDIS_URL = process.env.TEST_REDIS_URL;
const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'packages/server/src/main.ts');
const ADMIN_PASSWORD = 'Admin#12345';
/** Short on purpose: a dead instance's reservations and ledger batches are released after this. */
const LEASE_S = 2;

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), `fg-mi-${name}-`)) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (c: Buffer) => output.push(String(c)));
  child.stderr!.on('data', (c: Buffer) => output.push(String(c)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  await until(
    `instance ${name} to start`,
    async () => {
      if (gone) throw new Error(`instance ${name} exited:\n${output.join('')}`);
      return fetch(`${url}/health`).then((r) => r.ok, () => false);
    },
    60_000,
    100,
  );
  return { name, url, child, output, exited };
}

interface CallResult {
  status: number;
  trace: string;
  body: any;
}

async function chat(inst: Instance, key: string, content: string, extra: Record<string, unknown> = {}): Promise<CallResult> {
  const res = await fetch(`${inst.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content }], max_tokens: 40, ...extra }),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a stream: kept as text
  }
  return { status: res.status, trace: res.headers.get('x-trace-id') ?? '', body };
}

/** Whether the instance knows the key (200) and lists the test model for it. */
async function modelListed(inst: Instance, key: string): Promise<boolean> {
  const res = await fetch(`${inst.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { data?: { id: string }[] };
  return res.ok && !!body.data?.some((m) => m.id === 'gpt-test');
}

describe.skipIf(!REDIS_URL)('two instances on one PostgreSQL and one Redis (skipped unless TEST_REDIS_URL is set)', () => {
  let mock: MockProvider;
  let database: { url: string; drop: () => Promise<void> };
  let sql: pg.Pool;
  let redis: Redis;
  let prefix: string;
  let env: Record<string, string>;
  let a: Instance;
  let b: Instance;
  let model: string;
  const instances: Instance[] = [];

  /** A user with `quota`, its app and the app's key, made through the console of `via`; known to every live instance on return. */
  async function account(quota: number, via = a): Promise<{ userId: number; key: string; keyId: string; client: Client }> {
    const account = `mi-${randomBytes(4).toString('hex')}`;
    const console = new Client(via.url);
    await console.login('admin', 'admin', ADMIN_PASSWORD);
    const created = await console.post('/api/v1/admin/user/create', { name: account, account, email: '', password: 'Passw0rd!x', quota });
    expect(created.body.code, created.body.message).toBe(0);
    const client = new Client(via.url);
    await client.login('user', account, 'Passw0rd!x');
    const app = await client.post('/api/v1/app/create', { name: 'mi', is_create_key: true });
    expect(app.body.code, app.body.message).toBe(0);
    const { rows } = await sql.query('SELECT u.user_id, k.id FROM users u JOIN app_keys k ON k.user_id = u.user_id WHERE u.account = $1', [account]);
    const key = app.body.data.key as string;
    const live = instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
    await until('every instance to know the new key', async () => (await Promise.all(live.map((i) => modelListed(i, key)))).every(Boolean));
    return { userId: Number(rows[0].user_id), keyId: rows[0].id, key, client };
  }

  async function dbBalance(userId: number): Promise<{ quota: number; used: number; charged: number; logs: number }> {
    const u = await sql.query('SELECT quota, used_quota FROM users WHERE user_id = $1', [userId]);
    const l = await sql.query('SELECT coalesce(sum(total_price), 0) AS charged, count(*) AS n FROM call_logs WHERE user_id = $1', [userId]);
    return { quota: Number(u.rows[0].quota), used: Number(u.rows[0].used_quota), charged: Number(l.rows[0].charged), logs: Number(l.rows[0].n) };
  }

  /** The user's balance hash in Redis (see billing/ledger-redis.ts). */
  async function redisBalance(userId: number): Promise<{ base: number | null; held: number; pending: number }> {
    const [base, held, pending] = await redis.hmget(`${prefix}bal:user:${userId}`, 'base', 'held', 'pending');
    return { base: base === null ? null : Number(base), held: Number(held ?? 0), pending: Number(pending ?? 0) };
  }

  /** Every journal entry written and no batch claimed: the database holds all that was settled. */
  async function ledgerQuiet(): Promise<boolean> {
    const [journal, claims] = await Promise.all([redis.llen(`${prefix}journal`), redis.zcard(`${prefix}claims`)]);
    return journal === 0 && claims === 0;
  }

  beforeAll(async () => {
    mock = await startMockProvider();
    database = await freshPostgres();
    sql = new pg.Pool({ connectionString: database.url, max: 2 });
    redis = new Redis(REDIS_URL!);
    prefix = `fgtest:mi:${randomBytes(6).toString('hex')}:`;
    env = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_URL!,
      REDIS_PREFIX: prefix,
      REDIS_LEASE_S: String(LEASE_S),
      SNAPSHOT_RECONCILE_S: '1',
      MASTER_KEY: randomBytes(32).toString('hex'),
      ADMIN_ACCOUNT: 'admin',
      ADMIN_PASSWORD,
      WEB_DIST: path.join(os.tmpdir(), 'fg-mi-no-web'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_TIMEOUT_S: '20',
    };
    // One after the other: A migrates the fresh database and creates the admin.
    a = await startInstance('a', env);
    instances.push(a);
    b = await startInstance('b', env);
    instances.push(b);

    const admin = new Client(a.url);
    await admin.login('admin', 'admin', ADMIN_PASSWORD);
    const corp = (await admin.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI', is_public: true })).body.data.id as string;
    const m = await admin.post('/api/v1/model/create', {
      corp,
      name: 'gpt-test',
      model: 'gpt-test',
      type: 1,
      is_public: true,
      is_enable_model_agent: true,
      text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 },
    });
    expect(m.body.code, m.body.message).toBe(0);
    model = m.body.data.id;
    const agent = await admin.post('/api/v1/model/agent/create', { corp, name: 'mock', base_url: mock.url, models: [model], key: 'sk-mock-upstream-key-1\nsk-mock-upstream-key-2', lb_strategy: 1 });
    expect(agent.body.code, agent.body.message).toBe(0);
  }, 120_000);

  afterAll(async () => {
    if (process.env.MI_DUMP) for (const i of instances) console.log(`--- ${i.name}\n${i.output.join('')}`);
    for (const inst of instances) if (inst.child.exitCode === null && inst.child.signalCode === null) inst.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.exited));
    await sql?.end();
    await database?.drop();
    if (redis) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
    }
    await mock?.close();
  });

  it('serves a change made on one instance from the other within a second, and heals a lost one', async () => {
    const { key } = await account(50_000_000);

    // Through the console on A, seen by B; and back on B, seen by A.
    for (const [writer, reader, status] of [[a, b, 2], [b, a, 1]] as const) {
      const console = new Client(writer.url);
      await console.login('admin', 'admin', ADMIN_PASSWORD);
      const r = await console.post('/api/v1/model/change/status', { id: model, status });
      expect(r.body.code, r.body.message).toBe(0);
      const t0 = Date.now();
      await until(`${reader.name} to see status ${status}`, async () => (await modelListed(reader, key)) === (status === 1), 3000, 10);
      expect(Date.now() - t0).toBeLessThan(1000);
    }
    expect((await chat(b, key, 'after the round trip')).status).toBe(200);

    // Written straight into the database, as if its bus message were lost: the reconcile finds it.
    await sql.query('UPDATE models SET status = 2, updated_at = $2 WHERE id = $1', [model, Date.now()]);
    await until('both instances to drop the model without a message', async () => !(await modelListed(a, key)) && !(await modelListed(b, key)), 5000);
    expect((await chat(a, key, 'disabled')).status).not.toBe(200);
    await sql.query('UPDATE models SET status = 1, updated_at = $2 WHERE id = $1', [model, Date.now()]);
    await until('both instances to serve it again', async () => (await modelListed(a, key)) && (await modelListed(b, key)), 5000);
  }, 30_000);

  it('lets exactly 60 calls through an RPM limit of 60 spread over both instances', async () => {
    const { key, keyId, client } = await account(50_000_000);
    const set = await client.post('/api/v1/app/key/config', { id: keyId, rate_limits: { rpm: 60 } });
    expect(set.body.code, set.body.message).toBe(0);
    // B must have the limit too before the burst (the change crosses within a second).
    await sleep(1000);
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => chat(i % 2 ? a : b, key, `rpm ${i}`)));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok.length).toBe(60);
    expect(limited.length).toBe(40);
    expect(limited.every((r) => r.body.error.code === 'rate_limit_exceeded')).toBe(true);
    // Both instances admitted some of the 60: the counter is shared, not split.
    const servedBy = new Set(results.map((r, i) => (r.status === 200 ? i % 2 : -1)).filter((x) => x >= 0));
    expect(servedBy.size).toBe(2);
  }, 30_000);

  it('never overdraws a small balance under 200 concurrent calls across both', async () => {
    // One priced call first, on another account, to size the balance in calls.
    const probe = await account(50_000_000);
    const first = await chat(a, probe.key, 'how much is one call?');
    expect(first.status).toBe(200);
    const cost = await until('the probe call to be written', async () => {
      const { rows } = await sql.query('SELECT total_price FROM call_logs WHERE trace_id = $1', [first.trace]);
      return rows.length ? Number(rows[0].total_price) : undefined;
    });
    expect(cost).toBeGreaterThan(0);

    const start = cost * 25;
    const { userId, key } = await account(start);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(i % 2 ? a : b, key, 'how much is one call?')));
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429 && r.body.error.code === 'insufficient_quota').length;
    expect(ok + refused).toBe(200);
    expect(ok).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);

    await until('the charges to be written', async () => (await ledgerQuiet()) && (await dbBalance(userId)).logs >= ok);
    const after = await dbBalance(userId);
    expect(after.quota).toBeGreaterThanOrEqual(0);
    expect(after.charged).toBe(ok * cost);
    expect(after.quota).toBe(start - after.charged);
    expect(after.used).toBe(after.charged);
    const r = await redisBalance(userId);
    expect(r).toMatchObject({ held: 0, pending: 0 });
    if (r.base !== null) expect(r.base).toBe(after.quota);
  }, 60_000);

  it('moves the shared balance with console recharges and deductions, and signs out on every instance', async () => {
    const { userId, key, client } = await account(1);
    const console = new Client(a.url);
    await console.login('admin', 'admin', ADMIN_PASSWORD);
    // One quota unit covers no call; B now holds that balance in Redis.
    expect((await chat(b, key, 'too poor')).body.error.code).toBe('insufficient_quota');
    expect((await console.post('/api/v1/admin/user/recharge', { user_id: userId, quota: 50_000_000 })).body.code).toBe(0);
    let t0 = Date.now();
    await until('B to spend the recharge made on A', async () => (await chat(b, key, 'rich now')).status === 200, 3000, 20);
    expect(Date.now() - t0).toBeLessThan(1000);
    await until('the charges to be written', () => ledgerQuiet());
    const { quota } = await dbBalance(userId);
    expect((await console.post('/api/v1/admin/user/recharge', { user_id: userId, quota: quota - 1, quota_type: 2 })).body.code).toBe(0);
    t0 = Date.now();
    await until('A and B to refuse after the deduction', async () => (await chat(b, key, 'poor again')).status === 429 && (await chat(a, key, 'poor again')).status === 429, 3000, 20);
    expect(Date.now() - t0).toBeLessThan(1000);
    await until('the charges to be written', () => ledgerQuiet());
    expect((await dbBalance(userId)).quota).toBe(1);

    // Sessions: cached in Redis once used, gone on every instance the moment they are revoked.
    const onB = Object.assign(new Client(b.url), { token: client.token });
    expect((await onB.get('/api/v1/user/info')).status).toBe(200);
    expect(await redis.exists(`${prefix}sess:t:${sha256(client.token)}`)).toBe(1);
    expect((await onB.get('/api/v1/user/info')).status).toBe(200);
    const { rows } = await sql.query('SELECT account FROM users WHERE user_id = $1', [userId]);
    const second = new Client(b.url);
    await second.login('user', rows[0].account, 'Passw0rd!x');
    expect((await second.get('/api/v1/user/info')).status).toBe(200);
    // A password change on A signs out the other session, which B had cached.
    expect((await client.post('/api/v1/user/change/password', { old_password: 'Passw0rd!x', new_password: 'N3w-Passw0rd!' })).body.code).toBe(0);
    expect((await second.get('/api/v1/user/info')).status).toBe(401);
    expect((await onB.get('/api/v1/user/info')).status).toBe(200);
    // Logout on A: the token is refused on B at once.
    await client.post('/api/v1/auth/logout');
    expect((await onB.get('/api/v1/user/info')).status).toBe(401);
    // An admin disabling the account on B signs out a session A had cached.
    const third = new Client(a.url);
    await third.login('user', rows[0].account, 'N3w-Passw0rd!');
    expect((await third.get('/api/v1/user/info')).status).toBe(200);
    const row = await sql.query('SELECT id FROM users WHERE user_id = $1', [userId]);
    const adminB = new Client(b.url);
    await adminB.login('admin', 'admin', ADMIN_PASSWORD);
    expect((await adminB.post('/api/v1/admin/user/change/status', { id: row.rows[0].id, status: 2 })).body.code).toBe(0);
    expect((await third.get('/api/v1/user/info')).status).toBe(401);
  }, 30_000);

  it('loses no settled charge and holds no reservation past its lease when an instance is SIGKILLed mid-load', async () => {
    const start = 500_000_000;
    const { userId, key } = await account(start);
    // Slow streams on both instances, in flight when A dies.
    const slow = (inst: Instance, i: number) => chat(inst, key, `slow ${i} [[mock:chunks=20]] [[mock:chunk_delay=100]]`, { stream: true }).catch(() => undefined);
    const streams = [...Array.from({ length: 15 }, (_, i) => slow(a, i)), ...Array.from({ length: 15 }, (_, i) => slow(b, i))];
    await sleep(300);
    // Quick calls on A that finish, then A is killed at once: their charges were only settled, not written by A.
    const quick = await Promise.all(Array.from({ length: 10 }, (_, i) => chat(a, key, `quick ${i}`)));
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect(quick.every((q) => q.status === 200)).toBe(true);
    // The streams' reservations, A's among them, are still held.
    expect((await redisBalance(userId)).held).toBeGreaterThan(0);
    await a.exited;
    const ended = await Promise.all(streams);
    const finished = ended.filter((s): s is CallResult => !!s && s.status === 200 && String(s.body).includes('[DONE]'));
    // B's streams all finished; A's were cut.
    expect(finished.length).toBeGreaterThanOrEqual(15);

    // B releases A's reservations after the lease and writes what A left in the journal.
    const r = await until('A\'s reservations to be released and its charges written', async () => {
      const bal = await redisBalance(userId);
      return bal.held === 0 && bal.pending === 0 && (await ledgerQuiet()) ? bal : undefined;
    }, 15_000, 100);
    expect(Date.now() - killedAt).toBeLessThan((LEASE_S + 3) * 1000);

    const { rows } = await sql.query('SELECT trace_id, total_price FROM call_logs WHERE trace_id = ANY($1)', [quick.map((q) => q.trace)]);
    expect(rows.length).toBe(quick.length);
    expect(rows.every((row) => Number(row.total_price) > 0)).toBe(true);
    for (const s of finished) expect((await sql.query('SELECT 1 FROM call_logs WHERE trace_id = $1 AND status = 1', [s.trace])).rows.length).toBe(1);
    const after = await dbBalance(userId);
    expect(after.quota).toBe(start - after.charged);
    expect(after.used).toBe(after.charged);
    if (r.base !== null) expect(r.base).toBe(after.quota);
  }, 60_000);

  it('drains a stream in flight on SIGTERM and writes its log before exiting', async () => {
    const { userId, key } = await account(50_000_000, b);
    const t0 = Date.now();
    const stream = chat(b, key, 'drain me [[mock:chunks=10]] [[mock:chunk_delay=150]]', { stream: true });
    await sleep(400);
    b.child.kill('SIGTERM');
    const s = await stream;
    // The whole stream, to its end, well after the signal.
    expect(s.status).toBe(200);
    expect(String(s.body)).toContain('"finish_reason":"stop"');
    expect(String(s.body)).toContain('[DONE]');
    expect(Date.now() - t0).toBeGreaterThan(1200);
    expect(await b.exited).toBe(0);
    // Nobody else is left to write it: B did, before it exited.
    const { rows } = await sql.query('SELECT status, total_price FROM call_logs WHERE trace_id = $1', [s.trace]);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].total_price)).toBeGreaterThan(0);
    const after = await dbBalance(userId);
    expect(after.quota).toBe(50_000_000 - after.charged);
    expect(await redisBalance(userId)).toMatchObject({ held: 0, pending: 0 });
  }, 30_000);
});
