// @ts-check
// `npm run bench:logs`: call logs, bills and the dashboard at 1,000,000 rows (issue 6), on SQLite and on
// PostgreSQL. Per database: a fresh store seeded by `npm run seed:logs` (its own process), then the
// product from its bundle (bench/harness.mjs, as `npm start` runs it), signed in as the admin, a
// reseller and the heaviest user. Every call is measured from this process over one kept-alive
// connection, sequentially, after warm-up: the figure is the server's time plus a localhost round trip.
// Then a chat-log export of ~100,000 rows, timed, with the product's RSS sampled every 50 ms.
// Prints the table of docs/BENCHMARKS.md and writes it to bench/out/logs-results.md (+ .json). Exits
// non-zero only when the harness fails; a missed target is a finding.
//
// Environment: BENCH_ROWS (default 1000000), BENCH_DIALECTS (default "sqlite,postgres"),
// BENCH_DATABASE_URL or TEST_DATABASE_URL (server to create the PostgreSQL database on; default
// postgres://postgres@127.0.0.1:5432/test), BENCH_QUICK=1 fewer samples, BENCH_KEEP=1 keeps the seeded
// stores (for EXPLAIN) and BENCH_REUSE=<dir>[,<dir>] measures kept stores again without seeding (the
// product still migrates them, so a new index is picked up).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import * as h from './harness.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((s) => s.trim()).filter(Boolean);
const PG_BASE = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REUSE = (process.env.BENCH_REUSE ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const KEEP = process.env.BENCH_KEEP === '1' || REUSE.length > 0;
const QUICK = process.env.BENCH_QUICK === '1';
const SAMPLES = QUICK ? 8 : 30;
const WARMUP = QUICK ? 1 : 3;
const EXPORT_ROWS = 100_000;
const PASSWORD = 'Bench#12345';
const TIME_ZONE = process.env.TIME_ZONE || 'Asia/Shanghai';
const OUT = h.at('bench/out');
const TARGETS = { logPage: 100, dashboard: 100, bill: 50, exportRssMb: 300 };

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
async function seed(/** @type {string} */ dataDir, /** @type {string | undefined} */ databaseUrl) {
  const env = { ...process.env, DATA_DIR: dataDir, ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD: PASSWORD };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const proc = h.startNode('seed', ['--import', 'tsx', h.at('packages/server/src/seed/seed-logs.ts'), '--rows', String(ROWS), '--seed', '20261122', '--password', PASSWORD, '--json'], {
    env,
    echo: (l) => /rows\/s|failed|Error/.test(l) && !l.startsWith('{'),
  });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`seed:logs exited ${code}:\n${proc.lines.slice(-20).join('\n')}`);
  const summary = JSON.parse(proc.lines.filter((l) => l.startsWith('{')).pop() ?? '{}');
  return { summary, log: proc.lines.filter((l) => !l.startsWith('{')) };
}

/** A fresh PostgreSQL database on the configured server; `drop` removes it. */
async function freshPostgres() {
  const name = `fg_bench_logs_${process.pid}`;
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

/**
 * Everything measured on one database: a fresh store, or a kept one (`reuse`, a data folder).
 * @param {'sqlite' | 'postgres'} dialect @param {string} [reuse]
 */
async function runDialect(dialect, reuse) {
  const dataDir = reuse ?? fs.mkdtempSync(path.join(os.tmpdir(), `fg-bench-logs-${dialect}-`));
  const kept = reuse ? JSON.parse(fs.readFileSync(path.join(reuse, KEPT), 'utf8')) : undefined;
  const db = kept ? (kept.databaseUrl ? { url: kept.databaseUrl, drop: async () => {} } : undefined) : dialect === 'postgres' ? await freshPostgres() : undefined;
  /** @type {Session[]} */
  const sessions = [];
  let product;
  try {
    let summary = kept?.summary;
    if (summary) console.log(`\n[${dialect}] reusing ${summary.rows.toLocaleString('en-US')} seeded call logs in ${dataDir}`);
    else {
      console.log(`\n[${dialect}] seeding ${ROWS.toLocaleString('en-US')} call logs…`);
      summary = (await seed(dataDir, db?.url)).summary;
      fs.writeFileSync(path.join(dataDir, KEPT), JSON.stringify({ dialect, databaseUrl: db?.url, summary }));
      console.log(`[${dialect}] seeded in ${summary.seconds.total.toFixed(1)} s (call logs ${summary.seconds.logs.toFixed(1)} s, statistics ${summary.seconds.statistics?.toFixed(1)} s)`);
    }

    product = await h.startProduct({ port: await h.freePort(), dataDir, databaseUrl: db?.url, adminPassword: PASSWORD, logLevel: 'warn' });
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

    // Export: a request-time range (ending now) holding ~100,000 successful chat calls.
    const countFrom = async (/** @type {number} */ from) => (await admin.ok('POST', '/log/chat/page', { current: 1, pageSize: 1, status: 1, req_time: [wireTime(from), wireTime(Date.now())] })).paging?.total ?? 0;
    let from = Date.now() - 7 * DAY;
    let matched = await countFrom(from);
    for (let i = 0; i < 5 && matched > 0 && Math.abs(matched - EXPORT_ROWS) > EXPORT_ROWS * 0.03; i++) {
      from = Math.max(summary.window.start, Date.now() - ((Date.now() - from) * EXPORT_ROWS) / matched);
      matched = await countFrom(from);
    }
    const exportBody = { status: 1, req_time: [wireTime(from), wireTime(Date.now())] };
    console.log(`[${dialect}] exporting ${matched.toLocaleString('en-US')} rows (${exportBody.req_time.join(' → ')})…`);
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
    const exportRows = exp.status === 200 && exp.type.includes('sheet') ? await xlsxRows(file) : NaN;
    const exported = {
      matched,
      rows: exportRows,
      seconds: exp.ms / 1000,
      mb: exp.bytes / 1e6,
      rssBefore: before.now,
      rssPeak: peak,
      hwm: after.peak,
      ...(exp.status !== 200 || !exp.type.includes('sheet') ? { error: `HTTP ${exp.status} ${exp.type}` } : {}),
    };
    return { dialect, summary, results, exported };
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

function gitRevision() {
  const rev = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: h.root, encoding: 'utf8' }).stdout?.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: h.root, encoding: 'utf8' }).stdout?.trim();
  return rev ? `${rev}${dirty ? ' + uncommitted changes' : ''}` : 'unknown';
}

/** @param {Awaited<ReturnType<typeof runDialect>>[]} runs */
function report(runs, /** @type {Date} */ startedAt, /** @type {number[]} */ load0) {
  const roles = ['admin', 'reseller', 'user'];
  const target = (/** @type {string} */ group) => (group === 'log' ? TARGETS.logPage : group === 'bill' ? TARGETS.bill : TARGETS.dashboard);
  /** @type {Map<string, { group: string, call: string }>} */
  const calls = new Map();
  for (const run of runs) for (const r of run.results) calls.set(r.call, { group: r.group, call: r.call });
  const head = ['Call', 'Target (p95)', ...runs.flatMap((run) => roles.map((role) => `${run.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${role}`)), 'Met?'];
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
  const exportHead = ['Export (admin, chat log, status + range)', ...runs.map((run) => (run.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL')), 'Target', 'Met?'];
  const rssOk = runs.every((run) => !run.exported.error && run.exported.rssPeak < TARGETS.exportRssMb && run.exported.hwm < TARGETS.exportRssMb);
  const exportLines = [
    `| ${exportHead.join(' | ')} |`,
    `|${exportHead.map(() => '---').join('|')}|`,
    `| rows exported (matched) | ${runs.map((r) => `${r.exported.rows.toLocaleString('en-US')} (${r.exported.matched.toLocaleString('en-US')})`).join(' | ')} | ~${EXPORT_ROWS.toLocaleString('en-US')} | — |`,
    `| time | ${runs.map((r) => `${r.exported.seconds.toFixed(1)} s (${r.exported.mb.toFixed(1)} MB xlsx)`).join(' | ')} | — | — |`,
    `| product RSS before → peak (sampled every 50 ms) | ${runs.map((r) => `${Math.round(r.exported.rssBefore)} → **${Math.round(r.exported.rssPeak)} MB**`).join(' | ')} | < ${TARGETS.exportRssMb} MB | ${rssOk ? '✅' : '❌'} |`,
    `| product VmHWM (peak since start) | ${runs.map((r) => `${Math.round(r.exported.hwm)} MB`).join(' | ')} | < ${TARGETS.exportRssMb} MB | ${rssOk ? '✅' : '❌'} |`,
    ...runs.filter((r) => r.exported.error).map((r) => `| error (${r.dialect}) | ${r.exported.error} | | |`),
  ];
  const seeded = Math.max(...runs.map((r) => r.summary.rows));
  const load1 = os.loadavg();
  const busy = load0[0] > 1.5 || load1[0] > 1.5;
  const notes = [
    `Run ${startedAt.toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}; revision ${gitRevision()}.`,
    `Load average (1 min) ${load0[0].toFixed(2)} at start, ${load1[0].toFixed(2)} at end${busy ? ' — **the machine was busy: the figures are noisy**' : ''}.`,
    ...runs.map((r) => {
      const s = r.summary;
      const st = s.statuses;
      return `${r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: seeded ${s.rows.toLocaleString('en-US')} rows (${s.requests.toLocaleString('en-US')} requests; status 1: ${st['1']}, 2: ${st['2']}, 3: ${st['3']}, -1: ${st['-1']}) in ${s.seconds.logs.toFixed(1)} s (${Math.round(s.rows / s.seconds.logs).toLocaleString('en-US')} rows/s), statistics built in ${s.seconds.statistics?.toFixed(1) ?? '—'} s; heaviest user ${s.heavy.account} (favourite model ${s.heavy.model}), reseller ${s.reseller.account}.`;
    }),
    `Each cell: p50 / p95 in ms over ${SAMPLES} sequential requests after ${WARMUP} warm-up, one kept-alive connection, measured in the benchmark's process (server time + a localhost round trip). ${runs[0]?.results.find((r) => r.note)?.note ? `Log page filter matches ${runs.map((r) => `${r.results.find((x) => x.note)?.note} (${r.dialect})`).join(', ')}.` : ''}`,
    ...(QUICK ? ['**BENCH_QUICK=1: fewer samples.**'] : []),
    ...(seeded !== 1_000_000 ? [`**${seeded.toLocaleString('en-US')} rows: not the 1,000,000-row figure.**`] : []),
  ];
  return { text: `## Call logs, bills and dashboard at ${seeded.toLocaleString('en-US')} rows\n\n${lines.join('\n')}\n\n${exportLines.join('\n')}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`, missed: missed + (rssOk ? 0 : 1) };
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
  const runs = [];
  if (REUSE.length) for (const dir of REUSE) runs.push(await runDialect(JSON.parse(fs.readFileSync(path.join(dir, KEPT), 'utf8')).dialect, dir));
  else {
    for (const d of DIALECTS) {
      if (d !== 'sqlite' && d !== 'postgres') throw new Error(`BENCH_DIALECTS: sqlite or postgres, got ${d}`);
      runs.push(await runDialect(d));
    }
  }
  const { text, missed } = report(runs, startedAt, load0);
  console.log(`\n${text}`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'logs-results.md'), text);
  fs.writeFileSync(path.join(OUT, 'logs-results.json'), JSON.stringify({ startedAt, rows: ROWS, runs }, null, 2));
  console.log(`Written to ${path.relative(process.cwd(), path.join(OUT, 'logs-results.md'))}${missed ? ` — ${missed} target(s) missed` : ''}`);
}

main().catch(async (err) => {
  console.error('bench:logs failed:', err instanceof Error ? err.stack : err);
  await h.stopAll();
  process.exitCode = 1;
});
