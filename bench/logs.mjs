// @ts-check
// `npm run bench:logs`: call logs, bills and the dashboard at 1,000,000 and 10,000,000 rows (issues 6 and 16),
// on SQLite and on PostgreSQL. Per database and row count: a fresh store seeded by `npm run seed:logs` (its
// own process), then the product from its bundle (bench/harness.mjs, as `npm start` runs it), signed in as
// the admin, a reseller and the heaviest user. Every call is measured from this process over one kept-alive
// connection, sequentially, after warm-up: the figure is the server's time plus a localhost round trip.
// Then chat-log exports of ~100,000 rows and (on stores of 5M rows or more) ~1,000,000 rows, timed, with the
// product's RSS sampled every 50 ms: flat memory = the peak does not grow with the rows. On the largest store
// of each database, the insert path: the gateway's CPU per non-streamed chat request (auth, reservation,
// settlement, call log) on that store and on an empty one, alternately in the same run, and their ratio.
// Prints the tables of docs/BENCHMARKS.md and writes them to bench/out/logs-results.md (+ .json). Exits
// non-zero only when the harness fails; a missed target is a finding.
//
// Environment: BENCH_ROWS (default "1000000,10000000"; a comma list), BENCH_DIALECTS (default
// "sqlite,postgres"), BENCH_DATABASE_URL or TEST_DATABASE_URL (server to create the PostgreSQL databases on;
// default postgres://postgres@127.0.0.1:5432/test), BENCH_QUICK=1 fewer samples and, unless BENCH_ROWS is
// set, 100,000 rows (a smoke run, minutes), BENCH_KEEP=1 keeps the seeded stores (for EXPLAIN) and
// BENCH_REUSE=<dir>[,<dir>] measures kept stores again without seeding (the product still migrates them,
// so a new index is picked up); BENCH_INSERT=0 skips the insert path; BENCH_FROM=<logs-results.json>[,…] prints one report from earlier runs;
// BENCH_PORT_BASE=N listens on N, N+1, … (a shared machine's assigned range) instead of free ports;
// BENCH_EXPORT=0 skips the exports; BENCH_OUT=<dir> writes the results there instead of bench/out.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as h from './harness.mjs';
import { autocannon, chatBody, commCpuSec, gitRevision, procStats } from './load.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const ROWS = (process.env.BENCH_ROWS ?? (QUICK ? '100000' : '1000000,10000000')).split(',').map((s) => Number(s.trim().replace(/_/g, '')));
if (ROWS.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_ROWS: a comma list of row counts, got ${process.env.BENCH_ROWS}`);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((s) => s.trim()).filter(Boolean);
const PG_BASE = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REUSE = (process.env.BENCH_REUSE ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const KEEP = process.env.BENCH_KEEP === '1' || REUSE.length > 0;
/** BENCH_INSERT=0 skips the insert-path measure. */
const INSERT_PATH = process.env.BENCH_INSERT !== '0';
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 0);
let portsTaken = 0;
/** The next port of BENCH_PORT_BASE's range, else any free one. */
const nextPort = () => (PORT_BASE > 0 ? Promise.resolve(PORT_BASE + portsTaken++) : h.freePort());
const FROM = (process.env.BENCH_FROM ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const SAMPLES = QUICK ? 8 : 30;
const WARMUP = QUICK ? 1 : 3;
/** Export sizes; the second only on stores big enough to hold it in the 60-day window (and under xlsx's 1,048,576 rows). */
const EXPORT_ROWS = [100_000, 1_000_000];
const BIG_EXPORT_MIN_STORE = 5_000_000;
const PASSWORD = 'Bench#12345';
const TIME_ZONE = process.env.TIME_ZONE || 'Asia/Shanghai';
const OUT = process.env.BENCH_OUT ? path.resolve(process.env.BENCH_OUT) : h.at('bench/out');
/** BENCH_EXPORT=0 skips the exports (dashboard and insert-path runs only). */
const EXPORTS = process.env.BENCH_EXPORT !== '0';
/** Issue 16: log page ≤ 100 ms, dashboard and bill ≤ 50 ms (p95); export in flat memory; insert-path CPU within 10 %. */
const TARGETS = { logPage: 100, dashboard: 50, bill: 50, exportRssMb: 300, exportGrowthSlackMb: 30, cpuRatio: 1.1 };
const LOAD = QUICK ? { warmup: 2, seconds: 4, rounds: 1 } : { warmup: 3, seconds: 10, rounds: 2 };
const CONNECTIONS = 8;

/** "YYYY-MM-DD HH:mm:ss" in the product's time zone. */
function wireTime(/** @type {number} */ ms) {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}
const DAY = 86_400_000;
/** [00:00:00 of (today − days + 1), today 23:59:59], the console's "last N days". */
const lastDays = (/** @type {number} */ days) => [`${wireTime(Date.now() - (days - 1) * DAY).slice(0, 10)} 00:00:00`, `${wireTime(Date.now()).slice(0, 10)} 23:59:59`];

/** Resident set of a process now and its peak so far (Linux /proc), in MB. */
function rss(/** @type {number} */ pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (/** @type {string} */ field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { now: NaN, peak: NaN };
  }
}

/** A console session over one kept-alive connection (sequential calls, so the timings are the server's). */
class Session {
  /** @param {string} base @param {string} name */
  constructor(base, name) {
    this.url = new URL(base);
    this.name = name;
    this.token = '';
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }

  /**
   * @param {'GET' | 'POST'} method @param {string} url @param {unknown} [body]
   * @param {(chunk: Buffer) => void} [sink] receives the body instead of buffering it
   * @returns {Promise<{ ms: number, status: number, type: string, json: any, bytes: number }>}
   */
  request(method, url, body, sink) {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const start = process.hrtime.bigint();
      const req = http.request(
        new URL(`/api/v1${url}`, this.url),
        {
          method,
          agent: this.agent,
          headers: {
            'accept-language': 'en-US',
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
            // The XSRF check only compares the cookie with the header.
            cookie: 'XSRF-TOKEN=bench',
            'x-xsrf-token': 'bench',
          },
        },
        (res) => {
          /** @type {Buffer[]} */
          const chunks = [];
          let bytes = 0;
          res.on('data', (/** @type {Buffer} */ c) => {
            bytes += c.length;
            if (sink) sink(c);
            else chunks.push(c);
          });
          res.on('end', () => {
            const ms = Number(process.hrtime.bigint() - start) / 1e6;
            const type = String(res.headers['content-type'] ?? '');
            let json = null;
            if (!sink && type.includes('json')) {
              try {
                json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
              } catch {
                json = null;
              }
            }
            resolve({ ms, status: res.statusCode ?? 0, type, json, bytes });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** The call's data, or an error naming the call and the envelope. */
  async ok(/** @type {'GET' | 'POST'} */ method, /** @type {string} */ url, /** @type {unknown} */ body) {
    const r = await this.request(method, url, body);
    if (r.status !== 200 || r.json?.code !== 0) throw new Error(`${this.name} ${method} ${url}: HTTP ${r.status} ${r.json ? `${r.json.code} ${r.json.message}` : ''}`);
    return r.json.data;
  }

  async login(/** @type {'admin' | 'reseller' | 'user'} */ channel, /** @type {string} */ account, /** @type {string} */ password) {
    this.token = (await this.ok('POST', '/auth/login', { account, password, channel, method: 'account' })).token;
  }

  close() {
    this.agent.destroy();
  }
}

/** @param {number[]} xs @param {number} q */
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
};

/**
 * p50/p95 of one call: warm-up, then SAMPLES sequential requests, each must answer code 0.
 * @returns {Promise<{ p50: number, p95: number, n: number, error?: string }>}
 */
async function measure(/** @type {Session} */ s, /** @type {'GET' | 'POST'} */ method, /** @type {string} */ url, /** @type {unknown} */ body) {
  /** @type {number[]} */
  const times = [];
  try {
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const r = await s.request(method, url, body);
      if (r.status !== 200 || r.json?.code !== 0) throw new Error(`HTTP ${r.status} ${r.json ? `${r.json.code} ${r.json.message}` : r.type}`);
      if (i >= WARMUP) times.push(r.ms);
    }
  } catch (err) {
    return { p50: NaN, p95: NaN, n: times.length, error: err instanceof Error ? err.message : String(err) };
  }
  return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), n: times.length };
}

/** Runs `npm run seed:logs` in its own process against the store; resolves with its JSON summary. */
async function seed(/** @type {string} */ dataDir, /** @type {string | undefined} */ databaseUrl, /** @type {number} */ rows) {
  const env = { ...process.env, DATA_DIR: dataDir, ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD: PASSWORD };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const proc = h.startNode('seed', ['--import', 'tsx', h.at('packages/server/src/seed/seed-logs.ts'), '--rows', String(rows), '--seed', '20261122', '--password', PASSWORD, '--json'], {
    env,
    echo: (l) => /rows\/s|failed|Error/.test(l) && !l.startsWith('{'),
  });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`seed:logs exited ${code}:\n${proc.lines.slice(-20).join('\n')}`);
  const summary = JSON.parse(proc.lines.filter((l) => l.startsWith('{')).pop() ?? '{}');
  return { summary, log: proc.lines.filter((l) => !l.startsWith('{')) };
}

/** A fresh PostgreSQL database on the configured server; `drop` removes it. */
async function freshPostgres(/** @type {string} */ tag) {
  const name = `fg_bench_logs_${tag}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_BASE);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** What a seeded store needs to be measured again (written into its data folder). */
const KEPT = 'bench-seed.json';

/** The database name of a PostgreSQL URL (its backends carry it in their process titles). */
const dbName = (/** @type {string | undefined} */ url) => (url ? new URL(url).pathname.slice(1) : undefined);

/**
 * A chat-log export of ~`target` rows (a request-time range ending now, sized from the page's totals),
 * with the product's RSS sampled every 50 ms. `count` reads the file back (slow for a million rows).
 * @param {Session} admin @param {{ proc: h.Proc }} product @param {{ window: { start: number } }} summary
 * @param {string} dataDir @param {number} target @param {boolean} count
 */
async function exportRows(admin, product, summary, dataDir, target, count) {
  const countFrom = async (/** @type {number} */ from) => (await admin.ok('POST', '/log/chat/page', { current: 1, pageSize: 1, status: 1, req_time: [wireTime(from), wireTime(Date.now())] })).paging?.total ?? 0;
  let from = Date.now() - 7 * DAY;
  let matched = await countFrom(from);
  for (let i = 0; i < 6 && matched > 0 && Math.abs(matched - target) > target * 0.03; i++) {
    from = Math.max(summary.window.start, Date.now() - ((Date.now() - from) * target) / matched);
    matched = await countFrom(from);
    if (from === summary.window.start) break;
  }
  const exportBody = { status: 1, req_time: [wireTime(from), wireTime(Date.now())] };
  console.log(`  exporting ${matched.toLocaleString('en-US')} rows (${exportBody.req_time.join(' → ')})…`);
  const before = rss(product.proc.pid);
  let peak = before.now;
  const sampler = setInterval(() => (peak = Math.max(peak, rss(product.proc.pid).now)), 50);
  const file = path.join(dataDir, 'export.xlsx');
  const out = fs.createWriteStream(file);
  let exp;
  try {
    exp = await admin.request('POST', '/log/chat/export', exportBody, (c) => out.write(c));
  } finally {
    clearInterval(sampler);
    await new Promise((r) => out.end(r));
  }
  const after = rss(product.proc.pid);
  peak = Math.max(peak, after.now);
  const ok = exp.status === 200 && exp.type.includes('sheet');
  const rows = ok && count ? await xlsxRows(file) : NaN;
  fs.rmSync(file, { force: true });
  return {
    target,
    matched,
    rows,
    seconds: exp.ms / 1000,
    mb: exp.bytes / 1e6,
    rssBefore: before.now,
    rssPeak: peak,
    hwm: after.peak,
    ...(ok ? {} : { error: `HTTP ${exp.status} ${exp.type}` }),
  };
}

/**
 * Everything measured on one database at one size: a fresh store, or a kept one (`reuse`, a data folder).
 * `insertPath`: also the gateway's CPU per request on this store against an empty one.
 * @param {'sqlite' | 'postgres'} dialect @param {number} rows @param {string | undefined} reuse @param {boolean} insertPath
 */
async function runDialect(dialect, rows, reuse, insertPath) {
  const dataDir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), `fg-bench-logs-${dialect}-${rows}-`));
  const kept = reuse ? JSON.parse(fs.readFileSync(path.join(reuse, KEPT), 'utf8')) : undefined;
  const db = kept ? (kept.databaseUrl ? { url: kept.databaseUrl, drop: async () => {} } : undefined) : dialect === 'postgres' ? await freshPostgres(String(rows)) : undefined;
  /** @type {Session[]} */
  const sessions = [];
  let product;
  try {
    let summary = kept?.summary;
    if (summary) console.log(`\n[${dialect}] reusing ${summary.rows.toLocaleString('en-US')} seeded call logs in ${dataDir}`);
    else {
      console.log(`\n[${dialect}] seeding ${rows.toLocaleString('en-US')} call logs…`);
      summary = (await seed(dataDir, db?.url, rows)).summary;
      fs.writeFileSync(path.join(dataDir, KEPT), JSON.stringify({ dialect, databaseUrl: db?.url, summary }));
      console.log(`[${dialect}] seeded in ${summary.seconds.total.toFixed(1)} s (call logs ${summary.seconds.logs.toFixed(1)} s, statistics ${summary.seconds.statistics?.toFixed(1)} s)`);
    }
    const storeMb = dialect === 'sqlite' ? fileMb(path.join(dataDir, 'fastgate.db')) : await pgMb(db?.url);

    product = await h.startProduct({ port: await nextPort(), dataDir, databaseUrl: db?.url, adminPassword: PASSWORD, logLevel: 'warn' });
    const admin = new Session(product.url, 'admin');
    const reseller = new Session(product.url, 'reseller');
    const user = new Session(product.url, 'user');
    sessions.push(admin, reseller, user);
    await admin.login('admin', 'admin', PASSWORD);
    await reseller.login('reseller', summary.reseller.account, PASSWORD);
    await user.login('user', summary.heavy.account, PASSWORD);

    /** @type {{ group: string, call: string, role: string, p50: number, p95: number, n: number, error?: string, note?: string }[]} */
    const results = [];
    const add = async (/** @type {string} */ group, /** @type {string} */ call, /** @type {Session} */ s, /** @type {'GET' | 'POST'} */ method, /** @type {string} */ url, /** @type {unknown} */ body, note = '') => {
      const r = await measure(s, method, url, body);
      results.push({ group, call, role: s.name, ...r, ...(note ? { note } : {}) });
    };

    console.log(`[${dialect}] measuring (${WARMUP} warm-up + ${SAMPLES} requests per call)…`);
    // The filtered log page: the heaviest user, its favourite model, the last 7 days.
    const week = lastDays(7);
    const filter = { current: 1, pageSize: 20, models: [summary.heavy.model], req_time: week };
    const page = await user.ok('POST', '/log/chat/page', filter);
    const pageNote = `${page.paging?.total ?? '?'} matching rows`;
    await add('log', 'log/chat/page (user + model + 7 days)', user, 'POST', '/log/chat/page', filter, pageNote);
    await add('log', 'log/chat/page (user + model + 7 days)', admin, 'POST', '/log/chat/page', { ...filter, user_id: summary.heavy.user_id }, pageNote);

    for (const s of [admin, reseller, user]) {
      await add('dashboard', 'dashboard/base/data', s, 'GET', '/dashboard/base/data');
      for (const days of [7, 15, 30]) await add('dashboard', `dashboard/call/data/${days}`, s, 'GET', `/dashboard/call/data/${days}`);
      for (const type of ['user', 'app', 'model', ...(s === user ? ['app_key'] : [])]) {
        for (const days of [1, 7, 15, 30]) await add('dashboard', `dashboard/data/top ${type} ${days}d`, s, 'GET', `/dashboard/data/top?days=${days}&data_type=${type}`);
      }
      for (const days of [7, 30]) await add('dashboard', `dashboard/model/percent/${days}`, s, 'GET', `/dashboard/model/percent/${days}`);
      await add('dashboard', 'dashboard/per/second', s, 'POST', '/dashboard/per/second', {});
      await add('dashboard', 'dashboard/per/minute', s, 'POST', '/dashboard/per/minute', {});
      await add('dashboard', 'dashboard/expense', s, 'GET', '/dashboard/expense');
    }

    const month = lastDays(30).map((d) => d.slice(0, 10));
    for (const s of [admin, user]) {
      await add('bill', 'finance/bill/page', s, 'POST', '/finance/bill/page', { current: 1, pageSize: 20 });
      await add('bill', 'finance/bill/page (30-day range)', s, 'POST', '/finance/bill/page', { current: 1, pageSize: 20, stat_date: month });
    }

    // Exports: ~100,000 rows, and ~1,000,000 on a store that holds them.
    const exports = [];
    for (const target of EXPORTS ? EXPORT_ROWS.filter((n) => n <= 100_000 || summary.rows >= BIG_EXPORT_MIN_STORE) : []) {
      exports.push(await exportRows(admin, product, summary, dataDir, target, target <= 100_000));
    }
    for (const s of sessions) s.close();
    sessions.length = 0;
    await product.proc.stop();
    product = undefined;

    const insert = insertPath ? await measureInsertPath(dialect, dataDir, db?.url) : undefined;
    return { dialect, rows: summary.rows, storeMb, summary, results, exports, insert };
  } finally {
    for (const s of sessions) s.close();
    await product?.proc.stop();
    if (KEEP) console.log(`[${dialect}] data kept: BENCH_REUSE=${dataDir}${db ? ` (DATABASE_URL=${db.url})` : ''}`);
    else {
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

const fileMb = (/** @type {string} */ file) => {
  try {
    return fs.statSync(file).size / 1024 / 1024;
  } catch {
    return NaN;
  }
};

async function pgMb(/** @type {string | undefined} */ url) {
  if (!url) return NaN;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query('SELECT pg_database_size(current_database()) AS b')).rows[0].b) / 1024 / 1024;
  } finally {
    await c.end();
  }
}

/**
 * The insert path against the table's size: the gateway (and, on PostgreSQL, its database's backends)
 * CPU per non-streamed chat request through the full path, on the seeded store and on an empty one, each
 * configured like a newcomer would (harness.configure, names the seed does not use), measured alternately
 * `LOAD.rounds` times with autocannon at `CONNECTIONS` connections.
 * @param {'sqlite' | 'postgres'} dialect @param {string} bigDir @param {string | undefined} bigUrl
 */
async function measureInsertPath(dialect, bigDir, bigUrl) {
  console.log(`[${dialect}] insert path: CPU per request on an empty store and on this one…`);
  const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), `fg-bench-logs-${dialect}-empty-`));
  const emptyDb = dialect === 'postgres' ? await freshPostgres('empty') : undefined;
  const mock = await h.startMock(await nextPort());
  /** @type {{ name: string, proc: h.Proc, url: string, key: string, dbName?: string }[]} */
  const stores = [];
  try {
    const tag = Date.now().toString(36);
    // A name of this run's own: a kept store (BENCH_REUSE) still has the last run's model, routed to its mock.
    const model = `gpt-bench-insert-${tag}`;
    for (const [name, dataDir, url] of /** @type {const} */ ([['empty', emptyDir, emptyDb?.url], ['seeded', bigDir, bigUrl]])) {
      // Info level: the product logs the new user's e-mail code there (no mail server); requests are not logged.
      const product = await h.startProduct({ port: await nextPort(), dataDir, databaseUrl: url, adminPassword: PASSWORD, logLevel: 'info' });
      const { appKey } = await h.configure(product, { mockUrl: mock.url, adminPassword: PASSWORD, model, userEmail: `insert-${tag}@bench.example.com`, userPassword: PASSWORD, quota: 1e13, corpName: `Bench-${tag}` });
      await h.smokeChat(product.url, appKey, model);
      stores.push({ name, proc: product.proc, url: product.url, key: appKey, dbName: dbName(url) });
    }
    /** @type {Record<string, { requests: number, cpuSec: number, dbCpuSec: number, errors: number }>} */
    const sums = {};
    for (let round = 0; round < LOAD.rounds; round++) {
      for (const s of round % 2 ? [...stores].reverse() : stores) {
        await autocannon({ url: s.url, key: s.key, connections: CONNECTIONS, seconds: LOAD.warmup, body: chatBody(model) });
        const cpu0 = procStats(s.proc.pid).cpuSec;
        const db0 = s.dbName ? commCpuSec('postgres', s.dbName) : 0;
        const r = await autocannon({ url: s.url, key: s.key, connections: CONNECTIONS, seconds: LOAD.seconds, body: chatBody(model) });
        const sum = (sums[s.name] ??= { requests: 0, cpuSec: 0, dbCpuSec: 0, errors: 0 });
        sum.requests += r.requests.total;
        sum.cpuSec += procStats(s.proc.pid).cpuSec - cpu0;
        sum.dbCpuSec += s.dbName ? commCpuSec('postgres', s.dbName) - db0 : 0;
        sum.errors += r.errors + r.timeouts + r.non2xx;
      }
    }
    const per = (/** @type {string} */ name) => {
      const s = sums[name];
      return { ...s, usPerRequest: (s.cpuSec * 1e6) / s.requests, dbUsPerRequest: (s.dbCpuSec * 1e6) / s.requests, rps: s.requests / (LOAD.seconds * LOAD.rounds) };
    };
    const empty = per('empty');
    const seeded = per('seeded');
    return { empty, seeded, ratio: seeded.usPerRequest / empty.usPerRequest, dbRatio: dialect === 'postgres' ? (seeded.usPerRequest + seeded.dbUsPerRequest) / (empty.usPerRequest + empty.dbUsPerRequest) : NaN };
  } finally {
    for (const s of stores) await s.proc.stop();
    await mock.proc.stop();
    await emptyDb?.drop();
    fs.rmSync(emptyDir, { recursive: true, force: true });
  }
}

/** Data rows of the first sheet of an xlsx file (streamed: the file is large). */
async function xlsxRows(/** @type {string} */ file) {
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit', sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', entries: 'ignore' });
  let rows = 0;
  for await (const sheet of reader) {
    for await (const _row of /** @type {AsyncIterable<unknown>} */ (/** @type {unknown} */ (sheet))) rows++;
    break;
  }
  return rows - 1;
}

const fmt = (/** @type {number} */ v) => (Number.isFinite(v) ? (v < 10 ? v.toFixed(1) : Math.round(v).toString()) : 'n/a');
const cell = (/** @type {{ p50: number, p95: number, error?: string } | undefined} */ r) => (!r ? '—' : r.error ? `error: ${r.error.slice(0, 80)}` : `${fmt(r.p50)} / ${fmt(r.p95)}`);
const int = (/** @type {number} */ n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const rowsLabel = (/** @type {number} */ n) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : `${Math.round(n / 1e3)}k`);
const dialectLabel = (/** @type {string} */ d) => (d === 'sqlite' ? 'SQLite' : 'PostgreSQL');
const met = (/** @type {boolean} */ ok) => (ok ? '✅ met' : '❌ not met');

/** @typedef {Awaited<ReturnType<typeof runDialect>>} Run */

/** The latency table of the stores of one size. @param {Run[]} runs */
function latencyTable(runs) {
  const roles = ['admin', 'reseller', 'user'];
  const target = (/** @type {string} */ group) => (group === 'log' ? TARGETS.logPage : group === 'bill' ? TARGETS.bill : TARGETS.dashboard);
  /** @type {Map<string, { group: string, call: string }>} */
  const calls = new Map();
  for (const run of runs) for (const r of run.results) calls.set(r.call, { group: r.group, call: r.call });
  const head = ['Call', 'Target (p95)', ...runs.flatMap((run) => roles.map((role) => `${dialectLabel(run.dialect)} ${role}`)), 'Met?'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  let missed = 0;
  for (const { group, call } of calls.values()) {
    const limit = target(group);
    const all = runs.flatMap((run) => run.results.filter((r) => r.call === call));
    const ok = all.every((r) => !r.error && r.p95 <= limit);
    if (!ok) missed++;
    const cells = runs.flatMap((run) => roles.map((role) => cell(run.results.find((r) => r.call === call && r.role === role))));
    lines.push(`| ${call} | ≤ ${limit} ms | ${cells.join(' | ')} | ${ok ? '✅' : '❌'} |`);
  }
  return { lines, missed };
}

/** Every export, and whether memory stayed flat (the peak's growth over the RSS before does not grow with the rows). @param {Run[]} runs */
function exportTable(runs) {
  const lines = ['| Store | Export | Rows exported (matched) | Time | xlsx | Product RSS before → peak | Growth | VmHWM |', '|---|---|---|---|---|---|---|---|'];
  let missed = 0;
  /** @type {string[]} */
  const verdicts = [];
  for (const run of runs) {
    for (const e of run.exports) {
      lines.push(
        `| ${dialectLabel(run.dialect)} ${rowsLabel(run.rows)} | ~${rowsLabel(e.target)} | ${Number.isFinite(e.rows) ? int(e.rows) : 'not read back'} (${int(e.matched)}) | ${e.seconds.toFixed(1)} s | ${e.mb.toFixed(0)} MB | ${Math.round(e.rssBefore)} → **${Math.round(e.rssPeak)} MB** | +${Math.round(e.rssPeak - e.rssBefore)} MB | ${Math.round(e.hwm)} MB |${e.error ? ` error: ${e.error}` : ''}`,
      );
    }
    const small = run.exports[0];
    const big = run.exports[1];
    const under = run.exports.every((e) => !e.error && e.rssPeak < TARGETS.exportRssMb);
    const flat = !big || big.rssPeak - big.rssBefore <= small.rssPeak - small.rssBefore + TARGETS.exportGrowthSlackMb;
    if (!under || !flat) missed++;
    verdicts.push(
      `${dialectLabel(run.dialect)} ${rowsLabel(run.rows)}: peak < ${TARGETS.exportRssMb} MB ${met(under)}` +
        (big ? `; flat (growth at ~${rowsLabel(big.target)} rows ≤ growth at ~${rowsLabel(small.target)} + ${TARGETS.exportGrowthSlackMb} MB) ${met(flat)}` : ''),
    );
  }
  return { lines, verdicts, missed };
}

/** The insert path's CPU per request, empty store against the largest. @param {Run[]} runs */
function insertTable(runs) {
  const withInsert = runs.filter((r) => r.insert);
  if (!withInsert.length) return { lines: [], missed: 0 };
  const lines = [
    '| Database | Store | Requests (req/s) | Gateway CPU per request | + database backends | Ratio seeded / empty (gateway) | Target | Met? |',
    '|---|---|---|---|---|---|---|---|',
  ];
  let missed = 0;
  for (const run of withInsert) {
    const i = /** @type {NonNullable<Run['insert']>} */ (run.insert);
    const ok = i.ratio <= TARGETS.cpuRatio && i.empty.errors + i.seeded.errors === 0;
    if (!ok) missed++;
    const db = (/** @type {{ dbUsPerRequest: number, usPerRequest: number }} */ s) => (run.dialect === 'postgres' ? `${Math.round(s.dbUsPerRequest)} µs (total ${Math.round(s.usPerRequest + s.dbUsPerRequest)} µs)` : 'in-process');
    lines.push(`| ${dialectLabel(run.dialect)} | empty | ${int(i.empty.requests)} (${int(i.empty.rps)}), ${i.empty.errors} errors | ${Math.round(i.empty.usPerRequest)} µs | ${db(i.empty)} | | | |`);
    lines.push(
      `| ${dialectLabel(run.dialect)} | ${rowsLabel(run.rows)} rows | ${int(i.seeded.requests)} (${int(i.seeded.rps)}), ${i.seeded.errors} errors | ${Math.round(i.seeded.usPerRequest)} µs | ${db(i.seeded)} | **${i.ratio.toFixed(2)}**${Number.isFinite(i.dbRatio) ? ` (with the database: ${i.dbRatio.toFixed(2)})` : ''} | ≤ ${TARGETS.cpuRatio.toFixed(2)} | ${met(ok)} |`,
    );
  }
  return { lines, missed };
}

/** @param {Run[]} runs */
function report(runs, /** @type {Date} */ startedAt, /** @type {number[]} */ load0) {
  const sections = [];
  let missed = 0;
  for (const rows of [...new Set(runs.map((r) => r.rows))].sort((a, b) => a - b)) {
    const t = latencyTable(runs.filter((r) => r.rows === rows));
    missed += t.missed;
    sections.push(`### ${rows.toLocaleString('en-US')} rows\n\nEach cell: p50 / p95 in ms.\n\n${t.lines.join('\n')}`);
  }
  const ex = exportTable(runs);
  missed += ex.missed;
  sections.push(`### Export (admin, chat log, \`status: 1\` + a request-time range ending now)\n\n${ex.lines.join('\n')}\n\n${ex.verdicts.map((v) => `- ${v}`).join('\n')}`);
  const ins = insertTable(runs);
  missed += ins.missed;
  if (ins.lines.length)
    sections.push(
      `### Insert path: gateway CPU per request against the table's size\n\nNon-streamed chat through the full path (auth, reservation, settlement, call log) with autocannon at ${CONNECTIONS} connections, ${LOAD.rounds} × ${LOAD.seconds} s per store after ${LOAD.warmup} s warm-up, the empty and the seeded store alternately.\n\n${ins.lines.join('\n')}`,
    );
  const load1 = os.loadavg();
  const busy = load0[0] > 1.5 || load1[0] > 1.5;
  const notes = [
    `Run ${startedAt.toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}; revision ${gitRevision()}.`,
    `Load average (1 min) ${load0[0].toFixed(2)} at start, ${load1[0].toFixed(2)} at end${busy ? ' — **the machine was busy: the figures are noisy**' : ''}.`,
    ...runs.map((r) => {
      const s = r.summary;
      const st = s.statuses;
      return `${dialectLabel(r.dialect)} ${rowsLabel(r.rows)}: seeded ${s.rows.toLocaleString('en-US')} rows (${s.requests.toLocaleString('en-US')} requests; status 1: ${st['1']}, 2: ${st['2']}, 3: ${st['3']}, -1: ${st['-1']}) in ${s.seconds.logs.toFixed(0)} s (${Math.round(s.rows / s.seconds.logs).toLocaleString('en-US')} rows/s), statistics ${s.seconds.statistics?.toFixed(0) ?? '—'} s${s.seconds.analyze ? `, VACUUM (ANALYZE) ${s.seconds.analyze.toFixed(0)} s` : ''}; store ${int(r.storeMb)} MB; log page filter: ${r.results.find((x) => x.note)?.note ?? '?'}.`;
    }),
    `Latency cells: p50 / p95 in ms over ${SAMPLES} sequential requests after ${WARMUP} warm-up, one kept-alive connection, measured in the benchmark's process (server time + a localhost round trip).`,
    ...(QUICK ? ['**BENCH_QUICK=1: fewer samples, shorter loads.**'] : []),
  ];
  const sizes = [...new Set(runs.map((r) => r.rows))].sort((a, b) => a - b).map(rowsLabel).join(' and ');
  return { text: `## Call logs, bills and dashboard at ${sizes} rows\n\n${sections.join('\n\n')}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`, missed };
}

async function main() {
  const startedAt = new Date();
  const load0 = os.loadavg();
  await h.ensureBundle();
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping…`);
      void h.stopAll().finally(() => process.exit(130));
    });
  }
  /** @type {{ dialect: 'sqlite' | 'postgres', rows: number, reuse?: string }[]} */
  const plan = [];
  if (REUSE.length) {
    for (const dir of REUSE) {
      const kept = JSON.parse(fs.readFileSync(path.join(dir, KEPT), 'utf8'));
      plan.push({ dialect: kept.dialect, rows: kept.summary.rows, reuse: dir });
    }
  } else {
    for (const d of DIALECTS) {
      if (d !== 'sqlite' && d !== 'postgres') throw new Error(`BENCH_DIALECTS: sqlite or postgres, got ${d}`);
      for (const rows of [...ROWS].sort((a, b) => a - b)) plan.push({ dialect: d, rows });
    }
  }
  const runs = [];
  // BENCH_FROM=<results.json>[,…]: only the report, from earlier runs' bench/out/logs-results.json (runs
  // made one database at a time on a shared machine, printed as one table).
  for (const file of FROM) runs.push(...JSON.parse(fs.readFileSync(file, 'utf8')).runs);
  if (FROM.length) plan.length = 0;
  for (const p of plan) {
    // The insert path on the largest store of each database.
    const largest = Math.max(...plan.filter((x) => x.dialect === p.dialect).map((x) => x.rows));
    runs.push(await runDialect(p.dialect, p.rows, p.reuse, INSERT_PATH && p.rows === largest));
  }
  const { text, missed } = report(runs, startedAt, load0);
  console.log(`\n${text}`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'logs-results.md'), text);
  fs.writeFileSync(path.join(OUT, 'logs-results.json'), JSON.stringify({ startedAt, rows: ROWS, runs }, null, 2));
  console.log(`Written to ${path.relative(process.cwd(), path.join(OUT, 'logs-results.md'))}${missed ? ` — ${missed} target(s) not met` : ' — every target met'}`);
}

main().catch(async (err) => {
  console.error('bench:logs failed:', err instanceof Error ? err.stack : err);
  await h.stopAll();
  process.exitCode = 1;
});
