// Two real server processes (the production entry, main.ts) on one fresh PostgreSQL database and one
// Redis (a key prefix of their own), in front of the mock provider: config changes cross instances
// within a second (and heal through the periodic reconcile when a message is lost), rate limits and
// balances hold across both, SIGKILL loses no settled charge and holds no reservation past its lease,
// SIGTERM drains a stream in flight and writes its log before the process exits.
//
// Built to hold on a loaded 2-core machine: every wait is on a condition with a deadline (processes
// start, snapshots refresh and leases run out later when the CPU is scarce), never a fixed sleep, and
// the guarantees are asserted on what the instances did, not on how fast the test could look.
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
/**
 * Well above the 1 s the bus must deliver in: a change measured within a second came over the bus, not
 * through the periodic reconcile (with a dead bus the median of the measured changes would be ~2 s).
 */
const RECONCILE_S = 4;
/** The issue's bound for a config change to reach every instance. */
const PROPAGATION_MS = 1000;

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

/** Polls `probe` until it returns something truthy; on timeout the error names what it last saw. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000, everyMs = 50, seen?: () => string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen ? `; last seen: ${seen()}` : ''}`);
    await sleep(everyMs);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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
    90_000,
    100,
  );
  return { name, url, child, output, exited };
}

const alive = (i: Instance) => i.child.exitCode === null && i.child.signalCode === null;

interface CallResult {
  status: number;
  trace: string;
  body: any;
}

const chatBody = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content }], max_tokens: 40, ...extra });

async function chat(inst: Instance, key: string, content: string): Promise<CallResult> {
  const res = await fetch(`${inst.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: chatBody(content),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, trace: res.headers.get('x-trace-id') ?? '', body };
}

interface StreamCall {
  /** Resolves with the trace id once the first chunk arrived (the call is in flight); rejects if it never did. */
  started: Promise<string>;
  /** The whole answer, or undefined when the connection broke (its instance died). */
  result: Promise<CallResult | undefined>;
}

/** A streamed chat call read as it arrives, so a test can act while it is provably in flight. */
function streamChat(inst: Instance, key: string, content: string): StreamCall {
  let begin!: (trace: string) => void;
  let never!: (err: Error) => void;
  const started = new Promise<string>((resolve, reject) => ((begin = resolve), (never = reject)));
  started.catch(() => undefined); // awaited by the tests that care
  const result = (async (): Promise<CallResult | undefined> => {
    try {
      const res = await fetch(`${inst.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: chatBody(content, { stream: true }),
      });
      const trace = res.headers.get('x-trace-id') ?? '';
      if (!res.ok) {
        const refused = await res.text();
        never(new Error(`the stream on ${inst.name} was refused (${res.status}): ${refused.slice(0, 200)}`));
        return { status: res.status, trace, body: refused };
      }
      const decoder = new TextDecoder();
      let text = '';
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        begin(trace);
      }
      never(new Error(`the stream on ${inst.name} ended (${res.status}) before its first chunk: ${text.slice(0, 200)}`));
      return { status: res.status, trace, body: text };
    } catch (err) {
      never(err as Error);
      return undefined;
    }
  })();
  return { started, result };
}

/** What GET /v1/models answers for the key: its HTTP status, and whether it lists the test model. */
async function models(inst: Instance, key: string): Promise<{ status: number; listed: boolean }> {
  const res = await fetch(`${inst.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await res.json()) as { data?: { id: string }[] };
  return { status: res.status, listed: res.ok && !!body.data?.some((m) => m.id === 'gpt-test') };
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

  /** Polls every live instance until `check` holds on all of them; returns how long that took (ms). */
  async function everywhere(what: string, check: (i: Instance) => Promise<boolean>, timeoutMs = 15_000, everyMs = 20): Promise<number> {
    const t0 = Date.now();
    let seen: boolean[] = [];
    const live = instances.filter(alive);
    await until(
      what,
      async () => (seen = await Promise.all(live.map(check))).every(Boolean),
      timeoutMs,
      everyMs,
      () => live.map((i, n) => `${i.name}: ${seen[n]}`).join(', '),
    );
    return Date.now() - t0;
  }

  async function admin(via: Instance): Promise<Client> {
    const c = new Client(via.url);
    await c.login('admin', 'admin', ADMIN_PASSWORD);
    return c;
  }

  /** A user with `quota`, its app and the app's key, made through the console of `via`; known to every live instance on return. */
  async function account(quota: number, via = a): Promise<{ userId: number; key: string; keyId: string; client: Client }> {
    const account = `mi-${randomBytes(4).toString('hex')}`;
    const created = await (await admin(via)).post('/api/v1/admin/user/create', { name: account, account, email: '', password: 'Passw0rd!x', quota });
    expect(created.body.code, created.body.message).toBe(0);
    const client = new Client(via.url);
    await client.login('user', account, 'Passw0rd!x');
    const app = await client.post('/api/v1/app/create', { name: 'mi', is_create_key: true });
    expect(app.body.code, app.body.message).toBe(0);
    const { rows } = await sql.query('SELECT u.user_id, k.id FROM users u JOIN app_keys k ON k.user_id = u.user_id WHERE u.account = $1', [account]);
    const key = app.body.data.key as string;
    await everywhere('every instance to know the new key', async (i) => (await models(i, key)).listed);
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
      SNAPSHOT_RECONCILE_S: String(RECONCILE_S),
      MASTER_KEY: randomBytes(32).toString('hex'),
      ADMIN_ACCOUNT: 'admin',
      ADMIN_PASSWORD,
      WEB_DIST: path.join(os.tmpdir(), 'fg-mi-no-web'),
      LOG_LEVEL: process.env.MI_LOG_LEVEL ?? 'warn',
      SHUTDOWN_TIMEOUT_S: '20',
    };
    // One after the other: A migrates the fresh database and creates the admin.
    a = await startInstance('a', env);
    instances.push(a);
    b = await startInstance('b', env);
    instances.push(b);

    const console = await admin(a);
    const corp = (await console.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI', is_public: true })).body.data.id as string;
    const m = await console.post('/api/v1/model/create', {
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
    const agent = await console.post('/api/v1/model/agent/create', { corp, name: 'mock', base_url: mock.url, models: [model], key: 'sk-mock-upstream-key-1\nsk-mock-upstream-key-2', lb_strategy: 1 });
    expect(agent.body.code, agent.body.message).toBe(0);
  }, 240_000);

  afterAll(async () => {
    // MI_DUMP=1 prints both instances' output (MI_LOG_LEVEL=info for every request and reconcile).
    if (process.env.MI_DUMP) for (const i of instances) console.log(`--- ${i.name}\n${i.output.join('')}`);
    for (const inst of instances) if (alive(inst)) inst.child.kill('SIGKILL');
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

  it('serves a change made on one instance from every instance within a second, and heals lost ones', async () => {
    const { key, userId } = await account(50_000_000);
    const consoles = new Map([
      [a, await admin(a)],
      [b, await admin(b)],
    ]);

    // Disabled and enabled again, alternately through A's and B's console: each time, how long after the
    // console's answer both instances serve the new state (polled every 10 ms).
    const took: number[] = [];
    for (let n = 0; n < 6; n++) {
      const writer = n % 2 ? b : a;
      const status = n % 2 ? 1 : 2;
      const r = await consoles.get(writer)!.post('/api/v1/model/change/status', { id: model, status });
      expect(r.body.code, r.body.message).toBe(0);
      took.push(await everywhere(`status ${status} (set on ${writer.name}) everywhere`, async (i) => (await models(i, key)).listed === (status === 1), 10_000, 10));
    }
    // The median: one change may land while the machine is starved (CI runners share their cores),
    // but the bus delivers within the bound; the reconcile alone would put it near RECONCILE_S / 2.
    expect(median(took), `ms until every instance served each change: ${took.join(', ')}`).toBeLessThan(PROPAGATION_MS);
    expect((await chat(b, key, 'after the round trips')).status).toBe(200);

    // Written straight into the database, as if their bus messages were lost: the reconcile finds them.
    const heal = RECONCILE_S * 1000 + 10_000;
    const lost = (table: 'models' | 'users', column: 'id' | 'user_id', id: string | number, status: number) =>
      sql.query(`UPDATE ${table} SET status = $2, updated_at = $3 WHERE ${column} = $1`, [id, status, Date.now()]);
    await lost('models', 'id', model, 2);
    await everywhere('both instances to drop the model without a message', async (i) => !(await models(i, key)).listed, heal, 100);
    expect((await chat(a, key, 'disabled')).status).not.toBe(200);
    // An account too: the reconcile names users by row id, the console by user_id.
    await lost('models', 'id', model, 1);
    await lost('users', 'user_id', userId, 2);
    await everywhere('both instances to refuse the disabled account without a message', async (i) => (await models(i, key)).status === 403, heal, 100);
    await lost('users', 'user_id', userId, 1);
    await everywhere('both instances to serve the model to the account again', async (i) => (await models(i, key)).listed, heal, 100);
    expect((await chat(a, key, 'enabled again')).status).toBe(200);
  }, 90_000);

  it('pauses the gateway of every instance from one console (maintenance mode, docs/SPEC.md §3.15.1)', async () => {
    const { key } = await account(50_000_000);
    const on = await (await admin(a)).post('/api/v1/sys/config/update', { action: 'service_unavailable', service_unavailable: { open: 'true', message: 'paused for the upgrade' } });
    expect(on.body.code, on.body.message).toBe(0);
    await everywhere('both gateways to answer 503', async (i) => (await chat(i, key, 'paused?')).status === 503, 10_000, 20);
    const paused = await fetch(`${b.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: chatBody('paused?') });
    expect(await paused.json()).toMatchObject({ error: { message: 'paused for the upgrade', code: 'service_unavailable' } });
    const off = await (await admin(b)).post('/api/v1/sys/config/change/status', { action: 'service_unavailable', open: false });
    expect(off.body.code, off.body.message).toBe(0);
    await everywhere('both gateways to serve again', async (i) => (await chat(i, key, 'back')).status === 200, 10_000, 20);
  }, 60_000);

  it('lets exactly 60 calls through an RPM limit of 60 spread over both instances', async () => {
    const { key, keyId, client } = await account(50_000_000);
    // The limit arrives with the key's re-enabling, in one write: an instance that serves the key again
    // has read the row with the limit (the snapshot reloads whole rows).
    const off = await client.post('/api/v1/app/key/config', { id: keyId, status: 2 });
    expect(off.body.code, off.body.message).toBe(0);
    await everywhere('every instance to refuse the disabled key', async (i) => (await models(i, key)).status === 403);
    const on = await client.post('/api/v1/app/key/config', { id: keyId, status: 1, rate_limits: { rpm: 60 } });
    expect(on.body.code, on.body.message).toBe(0);
    await everywhere('every instance to serve the key with its limit', async (i) => (await models(i, key)).listed);

    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => chat(i % 2 ? a : b, key, `rpm ${i}`)));
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    expect(ok.length).toBe(60);
    expect(limited.length).toBe(40);
    expect(limited.every((r) => r.body.error.code === 'rate_limit_exceeded')).toBe(true);
    // Both instances admitted some of the 60: the counter is shared, not split.
    const servedBy = new Set(results.map((r, i) => (r.status === 200 ? i % 2 : -1)).filter((x) => x >= 0));
    expect(servedBy.size).toBe(2);
  }, 60_000);

  it('never overdraws a small balance under 200 concurrent calls across both', async () => {
    // One priced call first, on another account, to size the balance in calls.
    const probe = await account(50_000_000);
    const first = await chat(a, probe.key, 'how much is one call?');
    expect(first.status).toBe(200);
    // Answered only once its charge was in the shared journal: written by the next flush.
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
    const other = results.filter((r) => r.status !== 200 && !(r.status === 429 && r.body.error.code === 'insufficient_quota'));
    expect(ok + refused, `other answers: ${JSON.stringify(other.slice(0, 3).map((r) => [r.status, r.body]))}`).toBe(200);
    expect(ok).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);

    await until('the charges to be written', async () => (await ledgerQuiet()) && (await dbBalance(userId)).logs >= ok);
    const after = await dbBalance(userId);
    expect(after.quota).toBeGreaterThanOrEqual(0);
    // A call the balance could not pay in full ran with a lower cap and cost less (issue 13): never more.
    expect(after.charged).toBeLessThanOrEqual(ok * cost);
    // …and the balance was spent as far as it goes: less than one full call is left.
    expect(after.quota).toBeLessThan(cost);
    expect(after.quota).toBe(start - after.charged);
    expect(after.used).toBe(after.charged);
    const r = await redisBalance(userId);
    expect(r).toMatchObject({ held: 0, pending: 0 });
    if (r.base !== null) expect(r.base).toBe(after.quota);
  }, 60_000);

  it('moves the shared balance with console recharges and deductions, and signs out on every instance', async () => {
    const { userId, key, client } = await account(1);
    const console = await admin(a);
    // One quota unit covers no call; B now holds that balance in Redis.
    expect((await chat(b, key, 'too poor')).body.error.code).toBe('insufficient_quota');
    // The console answers once every instance's next reservation reads the new balance: no waiting.
    expect((await console.post('/api/v1/admin/user/recharge', { user_id: userId, quota: 50_000_000 })).body.code).toBe(0);
    const rich = await chat(b, key, 'rich now');
    expect(rich.status, JSON.stringify(rich.body)).toBe(200);
    // Every answered call is in the journal: once it is written, the database holds the whole balance.
    await until('the charges to be written', () => ledgerQuiet());
    const { quota } = await dbBalance(userId);
    expect((await console.post('/api/v1/admin/user/recharge', { user_id: userId, quota: quota - 1, quota_type: 2 })).body.code).toBe(0);
    for (const inst of [b, a]) {
      const poor = await chat(inst, key, 'poor again');
      expect(poor.status, `${inst.name}: ${JSON.stringify(poor.body)}`).toBe(429);
      expect(poor.body.error.code).toBe('insufficient_quota');
    }
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
    expect((await client.post('/api/v1/auth/logout')).body.code).toBe(0);
    expect((await onB.get('/api/v1/user/info')).status).toBe(401);
    // An admin disabling the account on B signs out a session A had cached.
    const third = new Client(a.url);
    await third.login('user', rows[0].account, 'N3w-Passw0rd!');
    expect((await third.get('/api/v1/user/info')).status).toBe(200);
    expect(await redis.exists(`${prefix}sess:t:${sha256(third.token)}`)).toBe(1);
    const row = await sql.query('SELECT id FROM users WHERE user_id = $1', [userId]);
    expect((await (await admin(b)).post('/api/v1/admin/user/change/status', { id: row.rows[0].id, status: 2 })).body.code).toBe(0);
    expect((await third.get('/api/v1/user/info')).status).toBe(401);
  }, 60_000);

  it('loses no settled charge and holds no reservation past its lease when an instance is SIGKILLed mid-load', async () => {
    const start = 500_000_000;
    const { userId, key } = await account(start);
    // Streams on both instances, all in flight before anything else: A's run far longer than the test
    // needs to kill A (they are cut), B's finish.
    // (The mock splits its answer, at most 76 characters, into `chunks` pieces: 38 here, 14 on B.)
    const onA = Array.from({ length: 15 }, (_, i) => streamChat(a, key, `a long stream, number ${i}, to be cut by the kill [[mock:chunks=40]] [[mock:chunk_delay=200]]`));
    const onB = Array.from({ length: 15 }, (_, i) => streamChat(b, key, `slow ${i} [[mock:chunks=20]] [[mock:chunk_delay=100]]`));
    const aTraces = await Promise.all(onA.map((s) => s.started));
    await Promise.all(onB.map((s) => s.started));
    // Quick calls on A that finish, then A is killed at once: their charges were settled, not written by A.
    const quick = await Promise.all(Array.from({ length: 10 }, (_, i) => chat(a, key, `quick ${i}`)));
    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    // A's streams (over seven seconds each) still hold their reservations, which nobody renews any more.
    const atKill = await Promise.all(aTraces.map((t) => redis.get(`${prefix}resv:${t}`)));
    expect(quick.map((q) => q.status)).toEqual(quick.map(() => 200));
    const cut = aTraces.filter((_, i) => atKill[i]?.startsWith('L|'));
    expect(cut.length, `A's reservations when it died: ${atKill.join(', ')}`).toBeGreaterThan(0);
    await a.exited;
    const aEnded = await Promise.all(onA.map((s) => s.result));

    const bEnded = await Promise.all(onB.map((s) => s.result));
    const finished = [...aEnded, ...bEnded].filter((s): s is CallResult => !!s && s.status === 200 && String(s.body).includes('[DONE]'));
    expect(bEnded.every((s) => s?.status === 200 && String(s.body).includes('[DONE]'))).toBe(true);

    // B releases A's reservations once their lease ran out and writes what A left in the journal.
    const r = await until(
      "A's reservations to be released and its charges written",
      async () => {
        const bal = await redisBalance(userId);
        return bal.held === 0 && bal.pending === 0 && (await ledgerQuiet()) ? bal : undefined;
      },
      30_000,
      50,
    );
    const released = Date.now() - killedAt;
    // The lease, then at most one maintenance tick of B (a third of the lease); 2 s more for a starved machine.
    expect(released).toBeLessThan((LEASE_S + LEASE_S / 3 + 2) * 1000);
    for (const t of cut) expect(await redis.get(`${prefix}resv:${t}`)).toBe('X');

    const { rows } = await sql.query('SELECT trace_id, total_price FROM call_logs WHERE trace_id = ANY($1)', [quick.map((q) => q.trace)]);
    expect(rows.map((row) => row.trace_id).sort()).toEqual(quick.map((q) => q.trace).sort());
    expect(rows.every((row) => Number(row.total_price) > 0)).toBe(true);
    const logged = await sql.query('SELECT trace_id FROM call_logs WHERE status = 1 AND trace_id = ANY($1)', [finished.map((s) => s.trace)]);
    expect(logged.rows.length).toBe(finished.length);
    const after = await dbBalance(userId);
    expect(after.quota).toBe(start - after.charged);
    expect(after.used).toBe(after.charged);
    if (r.base !== null) expect(r.base).toBe(after.quota);
  }, 60_000);

  it('drains a stream in flight on SIGTERM and writes its log before exiting', async () => {
    const { userId, key } = await account(50_000_000, b);
    const stream = streamChat(b, key, 'drain me [[mock:chunks=10]] [[mock:chunk_delay=150]]');
    const trace = await stream.started;
    const signalled = Date.now();
    b.child.kill('SIGTERM');
    const s = await stream.result;
    // The whole stream, to its end, well after the signal (nine more chunks, 150 ms apart).
    expect(s?.status).toBe(200);
    expect(String(s?.body)).toContain('"finish_reason":"stop"');
    expect(String(s?.body)).toContain('[DONE]');
    expect(Date.now() - signalled).toBeGreaterThan(1000);
    expect(await b.exited).toBe(0);
    // Nobody else is left to write it: B did, before it exited.
    const { rows } = await sql.query('SELECT status, total_price FROM call_logs WHERE trace_id = $1', [trace]);
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].total_price)).toBeGreaterThan(0);
    const after = await dbBalance(userId);
    expect(after.quota).toBe(50_000_000 - after.charged);
    expect(await redisBalance(userId)).toMatchObject({ held: 0, pending: 0 });
  }, 60_000);

  it('ends with every balance adding up to its records (`npm run ledger:verify` on the shared database)', async () => {
    // Whatever an instance journaled, a live one has written (or both are gone and nothing is pending).
    await until('the shared journal to be written', ledgerQuiet, 20_000, 100);
    const verify = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/ledger-verify.mjs')], { cwd: ROOT, env: { ...process.env, DATABASE_URL: database.url }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    verify.stdout!.on('data', (c: Buffer) => (out += String(c)));
    verify.stderr!.on('data', (c: Buffer) => (out += String(c)));
    const code = await new Promise<number | null>((r) => verify.once('exit', r));
    expect(code, out).toBe(0);
    expect(out).toContain('No drift.');
  }, 60_000);
});
