// @ts-check
// `npm run bench:ab -- <revision A> [<revision B>]`: two builds of the product side by side, with the bare
// proxy, at concurrency 64, in turns. `npm run bench` measures one build's CPU a call in two 5 s rounds, and
// on the shared machines that figure swings by a fifth between runs (docs/BENCHMARKS.md): a change worth a
// few per cent cannot be told from that. Here both builds run in the same session against the same mock,
// round after round, in the six orders in turn (so a burst of background load, or a party still finishing
// its last batch, hits every party alike), each party's turn starting once every party is idle. What is
// reported is the ratio B/A of each round, with their median and mean: the noise the builds share cancels
// round by round. Each figure is split into the main thread and the rest (the SQLite writer thread, V8's
// helpers), read from /proc/<pid>/task.
//
// A revision is anything git names (a commit, a branch, HEAD~3); it is built in a temporary worktree by its
// own build script, with this checkout's node_modules. "." (the default for B) is the working tree as it is.
//
// The statistics job is switched off in both: it reads the rows back every 10 s, and a round it falls in cost
// a fifth more than one it did not. BENCH_AB_STATISTICS=1 keeps it on, for a change to the job itself.
//
// BENCH_AB_GC=1 also runs both builds with `--trace-gc-nvp` and reports, a call, what V8's scavenges found alive
// and their pauses, for the main thread's isolate and the others (the writer thread's): a change meant to keep
// less alive reads there plainly where the CPU's noise hides it (the twenty-ninth session's serialized hand-off
// kept nothing of a batch's rows on the main thread, and the writer thread's scavenges found 1.5 KB a call more).
//
// Environment: BENCH_AB_ROUNDS rounds (default 12: each order twice) of BENCH_AB_SECONDS (default 5) per
// party, after a warm-up of 8 s each; BENCH_AB_STATISTICS=1; BENCH_AB_GC=1; BENCH_AB_NODE_ARGS_A and BENCH_AB_NODE_ARGS_B,
// Node flags added after `npm start`'s for that build (the same revision twice with two flags compares the
// flags: `BENCH_AB_NODE_ARGS_B=--max-semi-space-size=16 npm run bench:ab -- HEAD HEAD`). `npm start`'s own flags are
// this checkout's package.json's, for both builds: an older revision runs with today's flags.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { chatBody, load, loadTool, measuredLoad, procStats } from './load.mjs';

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 12);
const SECONDS = Number(process.env.BENCH_AB_SECONDS ?? 5);
const WARMUP_SECONDS = 8;
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const OUT = h.at('bench/out');
const STATISTICS = process.env.BENCH_AB_STATISTICS === '1';
const GC = process.env.BENCH_AB_GC === '1';
/** Extra Node flags for build A or B. */
const nodeArgs = (/** @type {'A' | 'B'} */ name) => (process.env[`BENCH_AB_NODE_ARGS_${name}`] ?? '').split(' ').filter(Boolean);

/**
 * @typedef {{ alive: number, promoted: number, pauseUs: number }} GcShare what the scavenges of one round found alive
 * (survived in the young generation and promoted, bytes) and their pauses, each a call
 */

/**
 * One round's `--trace-gc-nvp` lines summed by isolate: the main thread's (`mainIsolate`) and the others, a call.
 * @param {string[]} lines @param {string} mainIsolate @param {number} calls
 * @returns {{ main: GcShare, others: GcShare }}
 */
function gcShares(lines, mainIsolate, calls) {
  const field = (/** @type {string} */ line, /** @type {string} */ name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  const share = (/** @type {string[]} */ scavenges) => ({
    alive: scavenges.reduce((a, l) => a + field(l, 'new_space_survived') + field(l, 'promoted'), 0) / calls,
    promoted: scavenges.reduce((a, l) => a + field(l, 'promoted'), 0) / calls,
    pauseUs: (scavenges.reduce((a, l) => a + field(l, 'pause'), 0) * 1000) / calls,
  });
  const scavenges = lines.filter(isScavenge);
  return { main: share(scavenges.filter((l) => isolateOf(l) === mainIsolate)), others: share(scavenges.filter((l) => isolateOf(l) !== mainIsolate)) };
}

/** Whether a `--trace-gc-nvp` line is a scavenge's. */
const isScavenge = (/** @type {string} */ line) => / gc=s /.test(line);

/** The isolate a `--trace-gc-nvp` line is of: `[pid:0x…]`. */
const isolateOf = (/** @type {string} */ line) => /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];

const [revA, revB = '.'] = process.argv.slice(2);
if (!revA) {
  console.error('usage: npm run bench:ab -- <revision A> [<revision B>, default: the working tree]');
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-ab-'));
const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { cwd: h.root, encoding: 'utf8' }).trim();
/** @type {string[]} */
const worktrees = [];

/** The bundle of a revision: the working tree's own (rebuilt when stale), or one built in a worktree. */
async function bundleOf(/** @type {string} */ rev) {
  if (rev === '.') {
    await h.ensureBundle();
    return h.BUNDLE;
  }
  const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
  const dir = path.join(work, commit.slice(0, 12));
  if (!fs.existsSync(dir)) {
    git('worktree', 'add', '--detach', dir, commit);
    worktrees.push(dir);
    // The revision's sources with this checkout's dependencies (a revision that changed them is not comparable here).
    fs.symlinkSync(h.at('node_modules'), path.join(dir, 'node_modules'));
    console.log(`Building ${rev} (${commit.slice(0, 12)})…`);
    execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: dir, stdio: 'inherit' });
  }
  return path.join(dir, 'packages/server/dist/main.mjs');
}

/**
 * @typedef {{ name: string, url: string, key: string, pid: number, cpu: number[], main: number[], lines?: string[], isolate?: string, gc: { main: GcShare, others: GcShare }[] }} Party
 */

/**
 * A product from `bundle`, configured like `npm run bench` configures it, in its own data folder.
 * @returns {Promise<Party>}
 */
async function product(/** @type {'A' | 'B'} */ name, /** @type {string} */ bundle, /** @type {string} */ mockUrl) {
  const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
  const port = await h.freePort();
  const appKey = await h.prepareProduct({ port, dataDir, mockUrl, password: PASSWORD, model: MODEL, statisticsOff: !STATISTICS, bundle });
  const p = await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'warn', bundle, nodeArgs: [...nodeArgs(name), ...(GC ? ['--trace-gc-nvp'] : [])] });
  return { name, url: p.url, key: appKey, pid: p.proc.pid, cpu: [], main: [], lines: GC ? p.proc.lines : undefined, gc: [] };
}

const mean = (/** @type {number[]} */ v) => v.reduce((a, b) => a + b, 0) / v.length;
const sd = (/** @type {number[]} */ v) => {
  const m = mean(v);
  return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, v.length - 1));
};
const us = (/** @type {number} */ v) => `${Math.round(v)} µs`;
/** A build as the report names it: its revision, and its extra Node flags if any. */
const label = (/** @type {string} */ rev, /** @type {'A' | 'B'} */ name) => (nodeArgs(name).length ? `${rev} (${nodeArgs(name).join(' ')})` : rev);

async function main() {
  const tool = loadTool();
  if (tool !== 'wrk') console.log('(wrk is not installed: autocannon generates the load)');
  const bundles = { A: await bundleOf(revA), B: await bundleOf(revB) };
  const mock = await h.startMock(await h.freePort());
  const A = await product('A', bundles.A, mock.url);
  const B = await product('B', bundles.B, mock.url);
  const bare = await h.startBareProxy(await h.freePort(), mock.url);
  /** @type {Party} */
  const bareP = { name: 'bare', url: bare.url, key: 'sk-direct', pid: bare.proc.pid, cpu: [], main: [], gc: [] };
  const parties = [A, B, bareP];
  const body = chatBody(MODEL);
  console.log(`Concurrency 64 (${tool}): ${WARMUP_SECONDS} s warm-up each, then ${ROUNDS} rounds of ${SECONDS} s per party, in turns…`);
  for (const p of parties) await load({ url: p.url, key: p.key, connections: 64, seconds: WARMUP_SECONDS, body }, tool);
  // The main thread's isolate: the one that collected most during the warm-up (the writer thread's allocates little).
  for (const p of [A, B]) p.isolate = mostCommon((p.lines ?? []).filter(isScavenge).map(isolateOf));
  // The six orders in turn, so that each party follows each other one as often (a product still finishing
  // its last batch or collection slows the next party on the other core).
  const orders = [[A, B, bareP], [B, bareP, A], [bareP, A, B], [A, bareP, B], [B, A, bareP], [bareP, B, A]];
  const pids = parties.map((p) => p.pid);
  for (let r = 0; r < ROUNDS; r++) {
    for (const p of orders[r % orders.length]) {
      // The round's lines only (startNode keeps at most 5,000 of a process's).
      p.lines?.splice(0);
      const { res, cpuSec, mainSec } = await measuredLoad(p.pid, pids, { url: p.url, key: p.key, connections: 64, seconds: SECONDS, body }, tool);
      if (res.ok === 0) throw new Error(`${p.name}: no answer succeeded in round ${r + 1}`);
      p.cpu.push((cpuSec * 1e6) / res.ok);
      p.main.push((mainSec * 1e6) / res.ok);
      if (p.lines && p.isolate) p.gc.push(gcShares(p.lines, p.isolate, res.ok));
    }
  }
  const perRound = A.cpu.map((a, i) => B.cpu[i] / a);
  const r = mean(perRound);
  const sorted = [...perRound].sort((x, y) => x - y);
  const median = (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
  const half = (2 * sd(perRound)) / Math.sqrt(perRound.length);
  const lines = [
    `## A/B at concurrency 64: A = ${label(revA, 'A')}, B = ${label(revB === '.' ? 'the working tree' : revB, 'B')}`,
    '',
    h.tableRow(['Party', 'CPU a call (mean of rounds)', 'Main thread', 'Other threads', '/ bare', 'Peak RSS', 'Rounds']),
    h.tableRow(Array(7).fill('---')),
    ...parties.map((p) => h.tableRow([p.name, us(mean(p.cpu)), us(mean(p.main)), us(mean(p.cpu) - mean(p.main)), `${(mean(p.cpu) / mean(bareP.cpu)).toFixed(2)}×`, `${Math.round(procStats(p.pid).hwmMb)} MB`, p.cpu.map((c) => Math.round(c)).join(', ')])),
    '',
    `- **B / A: ${median.toFixed(3)}**, the median of the rounds' ratios (a round now and then runs a fifth slower than the rest, on any party); their mean ${r.toFixed(3)} ±${half.toFixed(3)} (two standard errors); per round ${perRound.map((x) => x.toFixed(2)).join(', ')}.`,
    `- The statistics job ${STATISTICS ? 'on' : 'off'} in both; ${ROUNDS} rounds of ${SECONDS} s per party in turns after ${WARMUP_SECONDS} s of warm-up each; ${tool}, 64 connections; Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}; load average ${os.loadavg()[0].toFixed(2)} at the end; ${new Date().toISOString()}.`,
    '- CPU a call: the process\'s utime + stime over its 2xx answers; the main thread is the process\'s first task.',
    ...(GC ? gcReport([A, B]) : []),
  ];
  console.log(`\n${lines.join('\n')}`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'ab.md'), `${lines.join('\n')}\n`);
  console.log('\nWritten to bench/out/ab.md');
}

/** The value `values` hold most often. */
function mostCommon(/** @type {(string | undefined)[]} */ values) {
  const counts = new Map();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1])[0]?.[0];
}

/** BENCH_AB_GC's table: the means over the rounds of what the scavenges found alive a call, by isolate. */
function gcReport(/** @type {Party[]} */ parties) {
  const avg = (/** @type {Party} */ p, /** @type {(g: { main: GcShare, others: GcShare }) => number} */ pick) => Math.round(mean(p.gc.map(pick)) * 10) / 10;
  return [
    '',
    '### Scavenges a call (`--trace-gc-nvp`, means of the rounds)',
    '',
    h.tableRow(['Party', 'Main: alive (B)', 'Main: promoted (B)', 'Main: pause (µs)', 'Other isolates: alive (B)', 'Other isolates: pause (µs)']),
    h.tableRow(Array(6).fill('---')),
    ...parties.map((p) => h.tableRow([p.name, ...[avg(p, (g) => g.main.alive), avg(p, (g) => g.main.promoted), avg(p, (g) => g.main.pauseUs), avg(p, (g) => g.others.alive), avg(p, (g) => g.others.pauseUs)].map(String)])),
  ];
}

const cleanup = async () => {
  await h.stopAll();
  for (const dir of worktrees) git('worktree', 'remove', '--force', dir);
  fs.rmSync(work, { recursive: true, force: true });
};
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}
try {
  await main();
} finally {
  await cleanup();
}
