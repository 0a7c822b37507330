// @ts-check
// Load generation and kernel accounting shared by the gateway benchmarks (bench/run.mjs, bench/scale.mjs):
// wrk or autocannon and bench/client.mjs in their own processes, per-process CPU and memory read from /proc
// (Linux), and the revision measured.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as h from './harness.mjs';

/** CPU seconds (utime + stime) in a /proc `stat` file: a process's, or one of its threads' (`task/<tid>/stat`). */
function statCpuSec(/** @type {string} */ file) {
  // utime and stime are fields 14 and 15, counted after the ")" that ends the command name.
  const stat = fs.readFileSync(file, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** CPU seconds of a process's main thread (its first task) so far (Linux). */
export const mainThreadCpuSec = (/** @type {number} */ pid) => statCpuSec(`/proc/${pid}/task/${pid}/stat`);

/** Kernel accounting of a process (Linux): resident set now and its high-water mark, CPU seconds used. */
export function procStats(/** @type {number} */ pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (/** @type {string} */ field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024, cpuSec: statCpuSec(`/proc/${pid}/stat`) };
  } catch {
    return { rssMb: NaN, hwmMb: NaN, cpuSec: NaN };
  }
}

/**
 * Waits until process `pid` uses under 5 % of a core over half a second (what it does after a load, such as
 * the product's statistics job catching up, is done), at most `maxMs`; the share it used last.
 */
export async function settle(/** @type {number} */ pid, maxMs = 30_000, idleShare = 0.05) {
  const until = Date.now() + maxMs;
  for (;;) {
    const before = procStats(pid).cpuSec;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const share = (procStats(pid).cpuSec - before) / 0.5;
    if (!(share >= idleShare) || Date.now() >= until) return share;
  }
}

/**
 * One load on process `pid` once every process in `idle` has settled (a party still finishing its last batch or
 * collection must not be billed to the next): the load's result, the CPU seconds the process and its main thread
 * used meanwhile, and the window it ran in (µs of the monotonic clock, the one V8's profiles stamp samples with).
 * `idleShare`: the share of a core below which a process counts as idle (settle); a profiled one never drops
 * below its sampler's ~12 %.
 * @param {number} pid @param {number[]} idle @param {{ url: string, key: string, connections: number, seconds: number, body: string }} o
 * @param {'wrk' | 'autocannon'} tool
 */
export async function measuredLoad(pid, idle, o, tool, idleShare = 0.05) {
  for (const q of idle) await settle(q, undefined, idleShare);
  const cpu0 = procStats(pid).cpuSec;
  const main0 = mainThreadCpuSec(pid);
  const from = Number(process.hrtime.bigint() / 1000n);
  const res = await load(o, tool);
  const window = /** @type {[number, number]} */ ([from, Number(process.hrtime.bigint() / 1000n)]);
  return { res, cpuSec: procStats(pid).cpuSec - cpu0, mainSec: mainThreadCpuSec(pid) - main0, window };
}

/**
 * CPU seconds used so far by every running process named `comm` (e.g. "postgres", "redis-server"), the
 * data stores the instances share; with `title`, only those whose command line contains it (a PostgreSQL
 * backend's names its database). Backends that already exited are not counted.
 */
export function commCpuSec(/** @type {string} */ comm, /** @type {string | undefined} */ title = undefined) {
  let sum = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue;
      if (title && !fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(title)) continue;
      const cpu = procStats(Number(entry)).cpuSec;
      if (Number.isFinite(cpu)) sum += cpu;
    } catch {
      // gone meanwhile
    }
  }
  return sum;
}

/** CPU seconds the whole machine spent busy (every process, ours and others'), from /proc/stat. */
export function machineBusySec() {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait.
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return (total - (cpu[3] ?? 0) - (cpu[4] ?? 0)) / 100;
  } catch {
    return NaN;
  }
}

/** The chat body every benchmark sends. */
export function chatBody(/** @type {string} */ model, stream = false) {
  return JSON.stringify({ model, messages: [{ role: 'user', content: 'ping' }], ...(stream ? { stream: true } : {}) });
}

/**
 * The kind of body a coding agent sends (Claude Code, Codex CLI): a system prompt, 100 turns of prose and
 * code, 20 tools with JSON schemas, ~150 KB of ASCII, the same text every run. The gateway parses, checks,
 * estimates and re-serialises all of it; a proxy passes the bytes.
 */
export function agentChatBody(/** @type {string} */ model) {
  const messages = [{ role: 'system', content: 'You are a coding agent working in a TypeScript repository. '.repeat(40) }];
  for (let i = 0; i < 100; i++) {
    messages.push(
      i % 2
        ? { role: 'assistant', content: `Here is the change to src/app${i}.ts:\n${'const value = compute(input, options); // keeps the order\n'.repeat(30)}` }
        : { role: 'user', content: `Please look at src/app${i}.ts and fix the failing test. ${'The handler returns early when the list is empty, and the caller never sees the error. '.repeat(16)}` },
    );
  }
  const tools = Array.from({ length: 20 }, (_, i) => ({
    type: 'function',
    function: { name: `tool_${i}`, description: `Runs step ${i} of the edit`, parameters: { type: 'object', properties: { path: { type: 'string', description: 'the file' }, edits: { type: 'array', items: { type: 'object', properties: { find: { type: 'string' }, replace: { type: 'string' } } } } }, required: ['path'] } },
  }));
  return JSON.stringify({ model, messages, tools });
}

/**
 * autocannon in its own process (not in ours, not in the servers'): its JSON result, plus `loadCpuSec`,
 * the CPU seconds autocannon itself used (sampled every 200 ms while it ran, so the last moments are missed).
 * @param {{ url: string, key: string, connections: number, seconds: number, body: string }} o
 * @returns {Promise<any>}
 */
export function autocannon(o) {
  const args = [
    fileURLToPath(import.meta.resolve('autocannon/autocannon.js')),
    ...['-c', String(o.connections), '-d', String(o.seconds), '-m', 'POST', '-b', o.body],
    ...['-H', 'content-type=application/json', '-H', `authorization=Bearer ${o.key}`],
    '--json',
    '--no-progress',
    `${o.url}/v1/chat/completions`,
  ];
  return runLoad('autocannon', process.execPath, args, (out, loadCpuSec) => ({ ...JSON.parse(out.trim().split('\n').pop() ?? ''), loadCpuSec }));
}

/**
 * A load generator in its own process: `parse` reads its output (and throws when it cannot) with the CPU
 * seconds the generator used; `cleanup` runs once it exited.
 * @template T
 * @param {string} name
 * @param {string} command
 * @param {string[]} args
 * @param {(out: string, loadCpuSec: number) => T} parse
 * @param {() => void} [cleanup]
 * @returns {Promise<T>}
 */
function runLoad(name, command, args, parse, cleanup = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: h.root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const cpu = cpuSampler(child);
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const loadCpuSec = cpu();
      cleanup();
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(parse(out, loadCpuSec));
      } catch (e) {
        reject(new Error(`${name} failed (${e instanceof Error ? e.message : e}): ${(err || out).slice(-500)}`));
      }
    });
  });
}

/**
 * @typedef {object} LoadResult  one load run, whichever tool made it
 * @property {'wrk' | 'autocannon'} tool
 * @property {number} seconds
 * @property {number} total  answers
 * @property {number} ok  2xx answers
 * @property {number} non2xx
 * @property {number} errors  socket errors
 * @property {number} timeouts
 * @property {number} rps
 * @property {{ p50: number, p90: number, p99: number, max: number }} latency  ms
 * @property {number} loadCpuSec  CPU seconds the load generator itself used
 */

/**
 * The CPU seconds a child process has used, sampled every 200 ms while it runs (so its last moments are
 * missed); the returned function stops the sampling and answers.
 * @param {import('node:child_process').ChildProcess} child
 */
function cpuSampler(child) {
  let cpu = 0;
  const timer = setInterval(() => {
    const s = child.pid ? procStats(child.pid).cpuSec : NaN;
    if (Number.isFinite(s)) cpu = s;
  }, 200);
  return () => {
    clearInterval(timer);
    return cpu;
  };
}

/**
 * The load generator of the concurrency-64 runs: wrk when it is installed, else autocannon; BENCH_LOAD=wrk
 * or BENCH_LOAD=autocannon chooses. wrk is a C program: it spends several times less CPU per request than
 * autocannon (Node), and on 2 cores the load generator's CPU is taken from the servers measured.
 * @returns {'wrk' | 'autocannon'}
 */
export function loadTool() {
  const want = process.env.BENCH_LOAD;
  if (want === 'autocannon') return 'autocannon';
  const found = !spawnSync('wrk', ['-v'], { encoding: 'utf8' }).error;
  if (want === 'wrk' && !found) throw new Error('BENCH_LOAD=wrk, but wrk is not installed (apt-get install wrk)');
  return found ? 'wrk' : 'autocannon';
}

const luaString = (/** @type {string} */ s) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`;

/** wrk's Lua script: POSTs `body` with the key, and prints one JSON summary line when done (latencies in µs). */
function wrkScript(/** @type {string} */ body, /** @type {string} */ key) {
  return [
    'wrk.method = "POST"',
    `wrk.body = ${luaString(body)}`,
    'wrk.headers["Content-Type"] = "application/json"',
    `wrk.headers["Authorization"] = ${luaString(`Bearer ${key}`)}`,
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('\\nWRK-JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',`,
    '    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))',
    'end',
  ].join('\n');
}

/**
 * wrk in its own process, one thread (one core's worth of epoll serves 64 connections with room to spare).
 * @param {{ url: string, key: string, connections: number, seconds: number, body: string }} o
 * @returns {Promise<LoadResult>}
 */
export function wrk(o) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-wrk-'));
  const script = path.join(dir, 'post.lua');
  fs.writeFileSync(script, wrkScript(o.body, o.key));
  const args = ['-t', '1', '-c', String(o.connections), '-d', `${o.seconds}s`, '--timeout', '10s', '-s', script, `${o.url}/v1/chat/completions`];
  return runLoad(
    'wrk',
    'wrk',
    args,
    (out, loadCpuSec) => {
      const line = /^WRK-JSON (.*)$/m.exec(out)?.[1];
      if (!line) throw new Error('no summary line');
      const r = JSON.parse(line);
      const seconds = r.duration_us / 1e6;
      // wrk counts answers with a status of 400 or more as `status` errors (and none below: no 3xx here).
      return {
        tool: /** @type {const} */ ('wrk'),
        seconds,
        total: r.requests,
        ok: r.requests - r.status,
        non2xx: r.status,
        errors: r.connect + r.read + r.write,
        timeouts: r.timeout,
        rps: r.requests / seconds,
        latency: { p50: r.p50 / 1000, p90: r.p90 / 1000, p99: r.p99 / 1000, max: r.max / 1000 },
        loadCpuSec,
      };
    },
    () => fs.rmSync(dir, { recursive: true, force: true }),
  );
}

/**
 * A chat load at fixed concurrency with the tool loadTool() picks, as one LoadResult.
 * @param {{ url: string, key: string, connections: number, seconds: number, body: string }} o
 * @param {'wrk' | 'autocannon'} [tool]
 * @returns {Promise<LoadResult>}
 */
export async function load(o, tool = loadTool()) {
  if (tool === 'wrk') return wrk(o);
  const r = await autocannon(o);
  return {
    tool: 'autocannon',
    seconds: o.seconds,
    total: r.requests.total,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    rps: r.requests.total / o.seconds,
    // autocannon's histogram keeps whole milliseconds.
    latency: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    loadCpuSec: r.loadCpuSec,
  };
}

/**
 * bench/client.mjs in its own process.
 * @param {import('./client.mjs').Job} job
 * @returns {Record<string, { n: number, errors: number, p50: number, p90: number, p99: number, mean: number, rate?: number }>}
 */
export function client(job) {
  const r = spawnSync(process.execPath, [h.at('bench/client.mjs'), JSON.stringify(job)], { cwd: h.root, encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`bench/client.mjs ${job.mode} failed (${r.status ?? r.signal}): ${r.stderr.slice(-800)}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}');
}

/** The commit measured, and whether the work tree differed from it. */
export function gitRevision() {
  const rev = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: h.root, encoding: 'utf8' }).stdout?.trim();
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: h.root, encoding: 'utf8' }).stdout?.trim();
  return rev ? `${rev}${dirty ? ' + uncommitted changes' : ''}` : 'unknown';
}

/** @typedef {{ name: string, labels: Record<string, string>, value: number }} Sample  one line of Prometheus text */

/** The samples of a Prometheus text exposition (comments and malformed lines skipped). */
export function parseMetrics(/** @type {string} */ text) {
  /** @type {Sample[]} */
  const out = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    /** @type {Record<string, string>} */
    const labels = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    const value = m[3] === '+Inf' ? Infinity : Number(m[3]);
    if (!Number.isNaN(value)) out.push({ name: m[1], labels, value });
  }
  return out;
}

/** GET /metrics of a product, with the scrape token a deployer gives its Prometheus. @returns {Promise<Sample[]>} */
export async function scrapeMetrics(/** @type {string} */ url, /** @type {string} */ token) {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`GET /metrics: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  return parseMetrics(await res.text());
}

/**
 * The product's event-loop delay p99 (ms) over load windows, each a pair of /metrics scrapes taken right
 * before and right after it, and where the figure came from: prom-client's default
 * `nodejs_eventloop_lag_p99_seconds`, whose monitorEventLoopDelay histogram is reset at every scrape, so each
 * figure covers one window (the worst is taken); it records whole timer intervals (10 ms resolution), so the
 * 10 ms are taken off.
 * @param {[before: Sample[], after: Sample[]][]} windows
 * @returns {{ p99: number, source: string }}
 */
export function eventLoopDelayP99(windows) {
  const name = 'nodejs_eventloop_lag_p99_seconds';
  if (!windows.some(([, after]) => after.some((s) => s.name === name))) return { p99: NaN, source: 'no event-loop delay metric on /metrics' };
  const v = Math.max(...windows.map(([, after]) => after.find((s) => s.name === name)?.value ?? NaN));
  const worst = windows.length > 1 ? `, worst of ${windows.length} windows` : '';
  return { p99: Math.max(0, v * 1000 - 10), source: `prom-client's ${name} minus its 10 ms timer (reset at each scrape, so it covers the load${worst})` };
}

/**
 * The bare proxy's event-loop delay p99 (ms) since its last read, measured as the product's is (a 10 ms
 * monitorEventLoopDelay, reset at each read, the 10 ms taken off): bench/bare-proxy.mjs answers it itself.
 */
export async function bareEventLoopP99(/** @type {string} */ url) {
  const res = await fetch(`${url}/__bare/eventloop-p99`);
  if (!res.ok) throw new Error(`bare proxy event-loop read: HTTP ${res.status}`);
  const { p99Seconds } = /** @type {{ p99Seconds: number }} */ (await res.json());
  return Math.max(0, p99Seconds * 1000 - 10);
}

/**
 * Rounds of one target's load as one result: counts, durations and CPU summed; of the latencies, p50 is
 * the answer-weighted mean of the rounds' and p90, p99 and max the worst round's (percentiles do not add up).
 * @param {LoadResult[]} runs
 * @returns {LoadResult}
 */
export function mergeLoads(runs) {
  const sum = (/** @type {(r: LoadResult) => number} */ f) => runs.reduce((a, r) => a + f(r), 0);
  const worst = (/** @type {(r: LoadResult) => number} */ f) => Math.max(...runs.map(f));
  const total = sum((r) => r.total);
  const seconds = sum((r) => r.seconds);
  return {
    tool: runs[0].tool,
    seconds,
    total,
    ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    rps: total / seconds,
    latency: { p50: sum((r) => r.latency.p50 * r.total) / (total || 1), p90: worst((r) => r.latency.p90), p99: worst((r) => r.latency.p99), max: worst((r) => r.latency.max) },
    loadCpuSec: sum((r) => r.loadCpuSec),
  };
}
