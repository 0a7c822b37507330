// @ts-check
// Load generation and kernel accounting shared by the gateway benchmarks (bench/run.mjs, bench/scale.mjs):
// autocannon and bench/client.mjs in their own processes, per-process CPU and memory read from /proc
// (Linux), and the revision measured.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as h from './harness.mjs';

/** Kernel accounting of a process (Linux): resident set now and its high-water mark, CPU seconds used. */
export function procStats(/** @type {number} */ pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (/** @type {string} */ field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    // utime and stime are fields 14 and 15, counted after the ")" that ends the command name.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024, cpuSec: ticks / 100 };
  } catch {
    return { rssMb: NaN, hwmMb: NaN, cpuSec: NaN };
  }
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
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: h.root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let cpu = 0;
    const sampler = setInterval(() => {
      const s = child.pid ? procStats(child.pid).cpuSec : NaN;
      if (Number.isFinite(s)) cpu = s;
    }, 200);
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(sampler);
      const line = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve({ ...JSON.parse(line), loadCpuSec: cpu });
      } catch (e) {
        reject(new Error(`autocannon failed (${e instanceof Error ? e.message : e}): ${err.slice(-500)}`));
      }
    });
  });
}

/**
 * bench/client.mjs in its own process.
 * @param {import('./client.mjs').Job} job
 * @returns {Record<string, { n: number, errors: number, p50: number, p90: number, p99: number, mean: number }>}
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
