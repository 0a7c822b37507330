// @ts-check
// `npm run bench:scale` (= `npm run bench -- --scale`, or `--instances N`): the gateway as 1, then 2 (… N)
// identical instances on one PostgreSQL and one Redis, behind a load balancer (bench/balancer.mjs), against
// the mock provider. Every party is its own process. Per instance count: throughput and latency of JSON
// and streaming chat at concurrency 64 through the balancer (autocannon), added latency at concurrency 1
// (bench/client.mjs, interleaved with the mock direct), CPU per request of the servers, the balancer and
// the mock (from /proc/<pid>/stat), the whole machine's busy cores, and each instance's peak RSS.
// Prints the table of docs/BENCHMARKS.md and writes bench/out/scale-results.md (+ .json). Exits
// non-zero only when the harness fails.
//
// Environment: BENCH_QUICK=1 shortens every phase (a smoke run, figures meaningless);
// BENCH_DATABASE_URL or TEST_DATABASE_URL (server to create a fresh PostgreSQL database on; default
// postgres://postgres@127.0.0.1:5432/test); BENCH_REDIS_URL or TEST_REDIS_URL (default
// redis://127.0.0.1:6379; the run's keys carry a prefix of its own and are deleted at the end; without a
// reachable Redis the instances run without one).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as h from './harness.mjs';
import { autocannon, chatBody, client, commCpuSec, gitRevision, machineBusySec, procStats } from './load.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const PLAN = QUICK ? { seconds: 3, warmup: 1, c1Seconds: 2, c1Warmup: 30 } : { seconds: 10, warmup: 3, c1Seconds: 6, c1Warmup: 100 };
const CONNECTIONS = 64;
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const USER = 'bench-scale@example.com';
const OUT = h.at('bench/out');
const PG_BASE = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/** `--instances N` (default 2): every count from 1 to N is measured. */
function maxInstances(/** @type {string[]} */ argv) {
  const i = argv.findIndex((a) => a === '--instances' || a.startsWith('--instances='));
  if (i < 0) return 2;
  const n = Number(argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 8) throw new Error(`--instances takes a whole number from 1 to 8, got ${argv[i + 1] ?? argv[i]}`);
  return n;
}

/** A fresh PostgreSQL database on the configured server; `drop` removes it. */
async function freshPostgres() {
  const name = `fg_bench_scale_${process.pid}`;
  const run = async (/** @type {string} */ sql) => {
    const c = new pg.Client({ connectionString: PG_BASE });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Redis with a key prefix of this run's own (REDIS_PREFIX), its keys deleted at the end; undefined when no Redis answers. */
async function redisForRun() {
  const prefix = `fg-bench-scale-${process.pid}:`;
  const { Redis } = await import('ioredis');
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  r.on('error', () => undefined);
  try {
    await r.connect();
    await r.ping();
  } catch {
    r.disconnect();
    return undefined;
  }
  return {
    url: REDIS_URL,
    prefix,
    async close() {
      try {
        for await (const keys of r.scanStream({ match: `${prefix}*`, count: 500 })) if (keys.length) await r.del(...keys);
      } finally {
        await r.quit().catch(() => undefined);
      }
    },
  };
}

/** @typedef {import('./harness.mjs').Proc} Proc */

/**
 * One autocannon run at concurrency 64 with the processes' CPU and RSS accounted around it.
 * @param {{ url: string, key: string, stream: boolean, seconds: number, servers: Proc[], balancer?: Proc, mock: Proc, database: string }} o
 */
async function phase(o) {
  const pids = o.servers.map((p) => p.pid);
  const stats = () => ({
    servers: pids.map(procStats),
    balancer: o.balancer ? procStats(o.balancer.pid) : undefined,
    mock: procStats(o.mock.pid),
    // Only the backends serving the benchmark's database (other work may share the server).
    postgres: commCpuSec('postgres', o.database),
    redis: commCpuSec('redis-server'),
    machine: machineBusySec(),
    at: performance.now(),
  });
  const before = stats();
  const peakRss = before.servers.map((s) => s.rssMb);
  const sampler = setInterval(() => pids.forEach((pid, i) => (peakRss[i] = Math.max(peakRss[i], procStats(pid).rssMb))), 200);
  let r;
  try {
    r = await autocannon({ url: o.url, key: o.key, connections: CONNECTIONS, seconds: o.seconds, body: chatBody(MODEL, o.stream) });
  } finally {
    clearInterval(sampler);
  }
  const after = stats();
  after.servers.forEach((s, i) => (peakRss[i] = Math.max(peakRss[i], s.rssMb)));
  const wall = (after.at - before.at) / 1000;
  const ok = Number(r['2xx']);
  const perServer = after.servers.map((s, i) => s.cpuSec - before.servers[i].cpuSec);
  const serversCpu = perServer.reduce((a, b) => a + b, 0);
  const balancerCpu = after.balancer && before.balancer ? after.balancer.cpuSec - before.balancer.cpuSec : NaN;
  const mockCpu = after.mock.cpuSec - before.mock.cpuSec;
  const stores = { postgres: after.postgres - before.postgres, redis: after.redis - before.redis };
  const cores = {
    perServer: perServer.map((c) => c / wall),
    servers: serversCpu / wall,
    balancer: balancerCpu / wall,
    mock: mockCpu / wall,
    postgres: stores.postgres / wall,
    redis: stores.redis / wall,
    autocannon: r.loadCpuSec / wall,
    machine: (after.machine - before.machine) / wall,
  };
  return {
    rps: r.requests.average,
    ok,
    errors: r.errors + r.timeouts + r.non2xx,
    p50: r.latency.p50,
    p99: r.latency.p99,
    /** CPU milliseconds per answered request. */
    cpuMs: { servers: (serversCpu * 1000) / ok, balancer: (balancerCpu * 1000) / ok, mock: (mockCpu * 1000) / ok, postgres: (stores.postgres * 1000) / ok, redis: (stores.redis * 1000) / ok },
    /** Cores busy on average during the run; `other` is the machine's busy time nothing above accounts for. */
    cores: { ...cores, other: cores.machine - cores.servers - (Number.isFinite(cores.balancer) ? cores.balancer : 0) - cores.mock - cores.postgres - cores.redis - cores.autocannon },
    peakRss,
    hwm: after.servers.map((s) => s.hwmMb),
  };
}

/** @typedef {Awaited<ReturnType<typeof phase>>} Phase */

const fix = (/** @type {number} */ v, d = 2) => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
const rps = (/** @type {number} */ v) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} req/s` : 'n/a');
const signed = (/** @type {number} */ v, d = 2) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(d)}` : 'n/a');
const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (Number.isFinite(a) && Number.isFinite(b) && a > 0 ? `×${(b / a).toFixed(2)}` : '—');

/**
 * The markdown table: a column per instance count, and how the last grew from the first.
 * @param {{ json: Phase, stream: Phase }} direct
 * @param {{ n: number, json: Phase, stream: Phase, c1: Record<string, { p50: number, p99: number, n: number, errors: number }> }[]} runs
 */
function table(direct, runs) {
  const first = runs[0];
  const last = runs.at(-1) ?? first;
  const head = ['Measure', 'Mock direct', ...runs.map((r) => `${r.n} instance${r.n > 1 ? 's' : ''}`), `${last.n} ÷ ${first.n}`];
  /** @type {string[][]} */
  const rows = [];
  const row = (/** @type {string} */ name, /** @type {string} */ d, /** @type {(r: typeof first) => string} */ cell, /** @type {string} */ growth) => rows.push([name, d, ...runs.map(cell), growth]);
  for (const kind of /** @type {const} */ (['json', 'stream'])) {
    const label = kind === 'json' ? 'JSON' : 'streaming';
    row(`Throughput, ${label}, c${CONNECTIONS}`, rps(direct[kind].rps), (r) => `**${rps(r[kind].rps)}**`, ratio(first[kind].rps, last[kind].rps));
    row(
      `p50 / p99 latency, ${label}, c${CONNECTIONS} (added vs mock direct)`,
      `${direct[kind].p50} / ${direct[kind].p99} ms`,
      (r) => `${r[kind].p50} / ${r[kind].p99} ms (${signed(r[kind].p50 - direct[kind].p50, 0)} / ${signed(r[kind].p99 - direct[kind].p99, 0)})`,
      '—',
    );
  }
  const added = (/** @type {typeof first} */ r, /** @type {'p50' | 'p99'} */ q) => r.c1.gateway[q] - r.c1.direct[q];
  row('Added latency p50 / p99, concurrency 1, JSON', '—', (r) => `${signed(added(r, 'p50'))} / ${signed(added(r, 'p99'))} ms`, '—');
  for (const kind of /** @type {const} */ (['json', 'stream'])) {
    const label = kind === 'json' ? 'JSON' : 'streaming';
    row(`Server CPU per request, ${label} (all instances)`, '—', (r) => `**${fix(r[kind].cpuMs.servers, 3)} ms**`, ratio(first[kind].cpuMs.servers, last[kind].cpuMs.servers));
  }
  const perReq = (/** @type {Phase} */ p) => `${fix(p.cpuMs.balancer, 3)} · ${fix(p.cpuMs.mock, 3)} · ${fix(p.cpuMs.postgres, 3)} · ${fix(p.cpuMs.redis, 3)} ms`;
  row('CPU per request, JSON: balancer · mock · PostgreSQL · Redis', perReq(direct.json).replace(/^n\/a/, '—'), (r) => perReq(r.json), '—');
  const cores = (/** @type {Phase} */ p) =>
    `${fix(p.cores.servers)}${p.cores.perServer.length > 1 ? ` (${p.cores.perServer.map((c) => fix(c)).join(' + ')})` : ''} · ${fix(p.cores.balancer)} · ${fix(p.cores.mock)} · ${fix(p.cores.postgres)} · ${fix(p.cores.redis)} · ${fix(p.cores.autocannon)} · ${fix(p.cores.other)}`;
  row(`Cores busy, JSON run, of ${os.cpus().length}: servers (each) · balancer · mock · PostgreSQL · Redis · autocannon · other processes`, cores(direct.json).replace(/^0\.00/, '—').replace(' · n/a', ' · —'), (r) => cores(r.json), '—');
  const peak = (/** @type {typeof first} */ r) => r.json.peakRss.map((v, i) => Math.max(v, r.stream.peakRss[i]));
  row('Peak RSS per instance (sampled every 200 ms)', '—', (r) => peak(r).map((v) => `${Math.round(v)} MB`).join(' / '), ratio(Math.max(...peak(first)), Math.max(...peak(last))));
  row('Errors (non-2xx, socket, timeouts)', `${direct.json.errors + direct.stream.errors}`, (r) => `${r.json.errors + r.stream.errors}`, '—');
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

async function main() {
  const startedAt = new Date();
  const load0 = os.loadavg();
  const max = maxInstances(process.argv.slice(2));
  await h.ensureBundle();
  /** @type {string[]} */
  const dirs = [];
  const dataDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-bench-scale-'));
    dirs.push(d);
    return d;
  };
  const db = await freshPostgres();
  const redis = await redisForRun();
  const cleanup = async () => {
    await h.stopAll();
    await db.drop().catch((e) => console.error(`dropping the benchmark database: ${e}`));
    await redis?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  };
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping what the benchmark started…`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    // Every instance must read the secrets the others sealed: one master key for all.
    const env = { MASTER_KEY: crypto.randomBytes(32).toString('hex'), ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix } : {}) };
    console.log(`Starting the mock provider; configuring on PostgreSQL${redis ? ' and Redis' : ' (no Redis answered)'}…`);
    const mock = await h.startMock(await h.freePort());
    const setup = await h.startProduct({ port: await h.freePort(), dataDir: dataDir(), databaseUrl: db.url, adminPassword: PASSWORD, logLevel: 'info', env });
    const { appKey } = await h.configure(setup, { mockUrl: mock.url, adminPassword: PASSWORD, model: MODEL, userEmail: USER, userPassword: PASSWORD, quota: 1e13 });
    await setup.proc.stop();

    const seconds = PLAN.seconds;
    console.log(`Mock direct: ${seconds} s JSON, ${seconds} s streaming at concurrency ${CONNECTIONS}…`);
    const direct = {
      json: await phase({ url: mock.url, key: 'sk-direct', stream: false, seconds, servers: [], mock: mock.proc, database: db.name }),
      stream: await phase({ url: mock.url, key: 'sk-direct', stream: true, seconds, servers: [], mock: mock.proc, database: db.name }),
    };

    const runs = [];
    /** Whether the instances use Redis, as their readiness check says (older builds ignore REDIS_URL). */
    let redisMode = false;
    for (let n = 1; n <= max; n++) {
      console.log(`${n} instance${n > 1 ? 's' : ''}: starting, ${PLAN.warmup} s warm-up, ${seconds} s JSON, ${seconds} s streaming, ${PLAN.c1Seconds} s at concurrency 1…`);
      const products = [];
      for (let i = 0; i < n; i++) products.push(await h.startProduct({ port: await h.freePort(), dataDir: dataDir(), databaseUrl: db.url, adminPassword: PASSWORD, logLevel: 'warn', env }));
      const lbPort = await h.freePort();
      const balancer = h.startNode('balancer', [h.at('bench/balancer.mjs'), String(lbPort), ...products.map((p) => new URL(p.url).port)], { echo: (l) => /error/i.test(l) });
      const url = `http://127.0.0.1:${lbPort}`;
      await h.waitReady(balancer, `${url}/health`);
      for (const p of products) await h.smokeChat(p.url, appKey, MODEL);
      const ready = await fetch(`${products[0].url}/ready`).then((r) => r.json()).catch(() => ({}));
      redisMode = ready?.checks?.redis === 'ok';
      await h.smokeChat(url, appKey, MODEL);
      const servers = products.map((p) => p.proc);
      await autocannon({ url, key: appKey, connections: CONNECTIONS, seconds: PLAN.warmup, body: chatBody(MODEL) });
      const json = await phase({ url, key: appKey, stream: false, seconds, servers, balancer, mock: mock.proc, database: db.name });
      const stream = await phase({ url, key: appKey, stream: true, seconds, servers, balancer, mock: mock.proc, database: db.name });
      // One kept-alive connection: it stays on one instance, so this is the per-request cost through the balancer.
      const c1 = client({ mode: 'latency', targets: [{ name: 'direct', url: mock.url, key: 'sk-direct' }, { name: 'gateway', url, key: appKey }], model: MODEL, seconds: PLAN.c1Seconds, rounds: 6, warmup: PLAN.c1Warmup });
      runs.push({ n, json, stream, c1 });
      await balancer.stop();
      for (const p of products) await p.proc.stop();
    }

    const load1 = os.loadavg();
    const last = runs.at(-1) ?? runs[0];
    const notes = [
      `Run ${startedAt.toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}; revision ${gitRevision()}.`,
      `Load average (1 min) ${load0[0].toFixed(2)} at start, ${load1[0].toFixed(2)} at end${load0[0] > 1.5 || load1[0] > 1.5 ? ' — **the machine was busy: the figures are noisy**' : ''}.`,
      `Instances: the bundle as \`npm start\` runs it, LOG_LEVEL=warn, one fresh PostgreSQL database, ${redis ? `REDIS_URL set${redisMode ? '' : ', which this build does not use yet: limits, reservations and the change bus are per process'}` : 'no Redis (none answered): limits, reservations and the change bus are per process'}; one shared MASTER_KEY.`,
      `Load: autocannon -c ${CONNECTIONS} for ${seconds} s per phase through bench/balancer.mjs (TCP, least connections), after a ${PLAN.warmup} s warm-up; requests answered: ${runs.map((r) => `${r.n} → ${r.json.ok} JSON + ${r.stream.ok} streams`).join('; ')}.`,
      `Concurrency 1: bench/client.mjs, ${PLAN.c1Seconds} s per target interleaved with the mock direct (${runs.map((r) => `${r.c1.gateway.n} gateway requests, ${r.c1.gateway.errors} errors`).join('; ')}).`,
      `CPU per request = CPU seconds the processes used during the phase (/proc/<pid>/stat) ÷ requests answered with 2xx. PostgreSQL: the backends serving the benchmark's database; Redis: the whole redis-server (shared with anything else using it); other processes: the machine's busy time (/proc/stat) that none of these account for.`,
      `Where the cores went (JSON run): ${runs.map((r) => `${r.n} instance${r.n > 1 ? 's' : ''}: servers ${fix(r.json.cores.servers)}, everything else ${fix(r.json.cores.machine - r.json.cores.servers)}, of ${os.cpus().length}`).join('; ')}. When the servers' share cannot grow, neither can throughput: more instances on the same cores only add per-process overhead. What carries over to instances on machines of their own is CPU per request.`,
      `Growth from ${runs[0].n} to ${last.n} instances: JSON throughput ${ratio(runs[0].json.rps, last.json.rps)}, streaming ${ratio(runs[0].stream.rps, last.stream.rps)}; server CPU per request ${ratio(runs[0].json.cpuMs.servers, last.json.cpuMs.servers)} (JSON), ${ratio(runs[0].stream.cpuMs.servers, last.stream.cpuMs.servers)} (streaming).`,
      ...(QUICK ? ['**BENCH_QUICK=1: shortened smoke run, figures not meaningful.**'] : []),
    ];
    const report = `## Scale-out benchmark: 1 → ${last.n} instances behind a load balancer\n\n${table(direct, runs)}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`;
    console.log(`\n${report}`);
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'scale-results.md'), report);
    fs.writeFileSync(path.join(OUT, 'scale-results.json'), JSON.stringify({ startedAt, load: [load0, load1], redis: !!redis, redisMode, direct, runs }, null, 2));
    console.log(`Written to ${path.relative(process.cwd(), path.join(OUT, 'scale-results.md'))}`);
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error('bench (scale) failed:', err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
