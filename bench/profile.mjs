// @ts-check
// `npm run bench:profile`: where the gateway's main thread spends its time at concurrency 64, beside the bare
// proxy's (bench/bare-proxy.mjs), by the code the samples fall in: the kernel's socket writes, Node's own
// library, undici, Fastify, our packages, the garbage collector; then file by file and function by function. Both run under `--cpu-prof` and are loaded in
// turns, each round from idle, as in bench:ab; only the samples inside a party's measured rounds count, and
// their shares become µs a call with the main thread's CPU that /proc read over the same rounds. What the main
// thread does not do (the SQLite writer thread, V8's helper threads) is one more line. The bundle's frames are
// mapped to their sources by its source map (scripts/build-server.mjs writes one).
//
// A sampled run is slower than a plain one (the profiler's own work lands on the main thread, its sampling
// thread among the others): the rows say where the time goes, `npm run bench` and `npm run bench:ab` how much
// there is.
//
// Environment: BENCH_PROFILE_ROUNDS rounds (default 4) of BENCH_PROFILE_SECONDS (default 5) per party, in turns
// after an 8 s warm-up each; BENCH_PROFILE_INTERVAL_US (default 200) between samples; BENCH_PROFILE_STATISTICS=1
// keeps the statistics job on (off by default, as in bench:ab: a read-back falling in one party's rounds and not
// the other's is noise here); BENCH_BUNDLE, another build (as for `npm run bench`), its map beside it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { BUNDLE, bundleMap, functionOf, sourceOf } from './frames.mjs';
import { chatBody, load, loadTool, measuredLoad } from './load.mjs';

const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_PROFILE_ROUNDS ?? 4);
const INTERVAL_US = Number(process.env.BENCH_PROFILE_INTERVAL_US ?? 200);
const STATISTICS = process.env.BENCH_PROFILE_STATISTICS === '1';
const WARMUP_SECONDS = 8;
/** The share of a core below which a profiled party counts as idle (load.mjs `settle`). */
const PROFILED_IDLE = 0.3;
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const OUT = h.at('bench/out');

/**
 * @typedef {{ callFrame: import('./frames.mjs').Frame, id: number }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number }} Profile
 * @typedef {{ name: string, calls: number, mainUs: number, otherUs: number, byGroup: Map<string, number>, byFile: Map<string, number>, byFunction: Map<string, number>, busy: number }} Measured
 */

/** The group a source belongs to: the rows of the table. */
function groupOf(/** @type {string} */ source) {
  if (source === 'writev' || source === 'writeUtf8String' || source === 'writeBuffer' || source === 'writeLatin1String') return 'socket writes (the kernel)';
  if (source === '(garbage collector)') return 'garbage collector (main thread)';
  if (source === '(program)') return 'V8 outside JavaScript';
  if (source.startsWith('node_modules/undici/')) return 'undici';
  if (/^node_modules\/(fastify|find-my-way|avvio|secure-json-parse|light-my-request|fast-json-stringify|@fastify\/)/.test(source)) return 'Fastify';
  if (source.startsWith('node_modules/')) return 'other dependencies';
  if (source.startsWith('packages/') || source.startsWith('bench/')) return 'our code (bench/bare-proxy.mjs for the bare proxy)';
  if (source.startsWith('wasm')) return 'llhttp (undici\'s HTTP parser, WebAssembly)';
  return 'Node\'s library and its natives';
}

/**
 * The samples of `profile` taken inside `windows` (µs of the monotonic clock V8 stamps them with), by source and
 * by function (`<function> :<line> <source>`): a file's share alone hides which of its functions is hot.
 */
function samplesByFrame(/** @type {Profile} */ profile, /** @type {[number, number][]} */ windows, /** @type {import('node:module').SourceMap | undefined} */ map) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const perNode = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (windows.some(([from, to]) => t >= from && t <= to)) perNode.set(profile.samples[i], (perNode.get(profile.samples[i]) ?? 0) + 1);
  }
  /** @type {Map<string, number>} */
  const bySource = new Map();
  /** @type {Map<string, number>} */
  const byFunction = new Map();
  for (const [id, n] of perNode) {
    const node = nodes.get(id);
    if (!node) continue;
    const source = sourceOf(node.callFrame, map);
    bySource.set(source, (bySource.get(source) ?? 0) + n);
    if (source === '(idle)') continue;
    // V8's natives and its own entries (`writev`, the collector) have no file: their name is their source.
    const fn = node.callFrame.url ? `${functionOf(node.callFrame, map)} ${source}` : source;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + n);
  }
  return { bySource, byFunction };
}

/** The newest profile in `dir`. */
function readProfile(/** @type {string} */ dir) {
  const file = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => path.join(dir, f)).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  if (!file) throw new Error(`no CPU profile was written to ${dir}`);
  return /** @type {Profile} */ (JSON.parse(fs.readFileSync(file, 'utf8')));
}

/**
 * @typedef {{ name: string, proc: h.Proc, url: string, key: string, dir: string, windows: [number, number][], calls: number, mainSec: number, cpuSec: number }} Party
 */

/** One measured round of `party` at c=64, from idle: its window and its CPU added up. */
async function round(/** @type {Party} */ party, /** @type {Party[]} */ all, /** @type {'wrk' | 'autocannon'} */ tool) {
  const body = chatBody(MODEL);
  // Under --cpu-prof an idle party still spends 11–14 % of a core on its sampler: at the default 5 % every wait ran its full 30 s.
  const { res, cpuSec, mainSec, window } = await measuredLoad(party.proc.pid, all.map((p) => p.proc.pid), { url: party.url, key: party.key, connections: 64, seconds: SECONDS, body }, tool, PROFILED_IDLE);
  party.windows.push(window);
  party.calls += res.ok;
  party.mainSec += mainSec;
  party.cpuSec += cpuSec;
}

/** A party's profile (written when it exits) attributed: its windows' samples, in µs a call of its main thread. */
async function attribute(/** @type {Party} */ party, /** @type {import('node:module').SourceMap | undefined} */ map) {
  await party.proc.stop();
  const { bySource, byFunction: samplesByFunction } = samplesByFrame(readProfile(party.dir), party.windows, map);
  let busy = 0;
  for (const [source, n] of bySource) if (source !== '(idle)') busy += n;
  if (busy === 0) throw new Error(`${party.name}: no samples fell in the measured windows`);
  const mainUs = (party.mainSec * 1e6) / party.calls;
  /** @type {Map<string, number>} */
  const byGroup = new Map();
  /** @type {Map<string, number>} */
  const byFile = new Map();
  for (const [source, n] of bySource) {
    if (source === '(idle)') continue;
    const us = (n / busy) * mainUs;
    byGroup.set(groupOf(source), (byGroup.get(groupOf(source)) ?? 0) + us);
    byFile.set(source, (byFile.get(source) ?? 0) + us);
  }
  const byFunction = new Map([...samplesByFunction].map(([fn, n]) => [fn, (n / busy) * mainUs]));
  /** @type {Measured} */
  const measured = { name: party.name, calls: party.calls, mainUs, otherUs: (party.cpuSec * 1e6) / party.calls - mainUs, byGroup, byFile, byFunction, busy };
  return measured;
}

async function main() {
  await h.ensureBundle();
  const map = bundleMap();
  if (!map) console.log(`(no source map at ${BUNDLE}.map: the bundle's frames count as one file)`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-profile-'));
  try {
    const mock = await h.startMock(await h.freePort());
    const port = await h.freePort();
    const dataDir = path.join(work, 'data');
    const appKey = await h.prepareProduct({ port, dataDir, mockUrl: mock.url, password: PASSWORD, model: MODEL, statisticsOff: !STATISTICS, bundle: BUNDLE });
    const profArgs = (/** @type {string} */ dir) => ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${INTERVAL_US}`];
    const party = (/** @type {string} */ name, /** @type {{ proc: h.Proc, url: string }} */ p, /** @type {string} */ key, /** @type {string} */ dir) =>
      /** @type {Party} */ ({ name, proc: p.proc, url: p.url, key, dir, windows: [], calls: 0, mainSec: 0, cpuSec: 0 });
    const bareDir = path.join(work, 'bare');
    const gatewayDir = path.join(work, 'gateway');
    const bareP = party('bare proxy', await h.startBareProxy(await h.freePort(), mock.url, { nodeArgs: profArgs(bareDir) }), 'sk-direct', bareDir);
    const gatewayP = party('gateway', await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'warn', nodeArgs: profArgs(gatewayDir), bundle: BUNDLE }), appKey, gatewayDir);
    const both = [bareP, gatewayP];
    const tool = loadTool();
    console.log(`Concurrency 64 (${tool}) under --cpu-prof: ${WARMUP_SECONDS} s warm-up each, then ${ROUNDS} rounds of ${SECONDS} s per party in turns…`);
    for (const p of both) await load({ url: p.url, key: p.key, connections: 64, seconds: WARMUP_SECONDS, body: chatBody(MODEL) }, tool);
    // In turns, the order alternating, so a burst of the machine's other work falls on both alike.
    for (let r = 0; r < ROUNDS; r++) for (const p of r % 2 ? [...both].reverse() : both) await round(p, both, tool);
    const bare = await attribute(bareP, map);
    const gateway = await attribute(gatewayP, map);
    report(bare, gateway);
  } finally {
    await h.stopAll();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function report(/** @type {Measured} */ bare, /** @type {Measured} */ gateway) {
  const us = (/** @type {number | undefined} */ v) => `${(v ?? 0).toFixed(1)} µs`;
  const groups = [...new Set([...gateway.byGroup.keys(), ...bare.byGroup.keys()])].sort((a, b) => (gateway.byGroup.get(b) ?? 0) - (gateway.byGroup.get(a) ?? 0));
  const total = (/** @type {Measured} */ m) => m.mainUs + m.otherUs;
  // By file, the gateway's extra over the bare proxy's first: where the difference is made.
  const files = [...new Set([...gateway.byFile.keys(), ...bare.byFile.keys()])]
    .map((f) => /** @type {const} */ ([f, bare.byFile.get(f) ?? 0, gateway.byFile.get(f) ?? 0]))
    .sort((a, b) => b[2] - b[1] - (a[2] - a[1]))
    .slice(0, 30);
  // By function, the gateway's own time first (self time: what runs in the function itself, not its callees).
  const functions = [...gateway.byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30);
  const lines = [
    '## Where a call\'s CPU goes at concurrency 64 (bench:profile)',
    '',
    h.tableRow(['Where', 'Bare proxy', 'Gateway', 'Gateway − bare']),
    h.tableRow(['---', '---', '---', '---']),
    ...groups.map((g) => h.tableRow([g, us(bare.byGroup.get(g)), us(gateway.byGroup.get(g)), us((gateway.byGroup.get(g) ?? 0) - (bare.byGroup.get(g) ?? 0))])),
    h.tableRow(['**Main thread**', `**${us(bare.mainUs)}**`, `**${us(gateway.mainUs)}**`, us(gateway.mainUs - bare.mainUs)]),
    h.tableRow(['Other threads (the SQLite writer, V8\'s helpers, the profiler\'s sampling thread)', us(bare.otherUs), us(gateway.otherUs), us(gateway.otherUs - bare.otherUs)]),
    h.tableRow(['**Process**', `**${us(total(bare))}**`, `**${us(total(gateway))}**`, us(total(gateway) - total(bare))]),
    '',
    'By file (the natives V8 names, such as `writev`, count as files), the gateway\'s extra over the bare proxy\'s first:',
    '',
    h.tableRow(['File', 'Bare proxy', 'Gateway', 'Gateway − bare']),
    h.tableRow(['---', '---', '---', '---']),
    ...files.map(([f, b, g]) => h.tableRow([f, us(b), us(g), us(g - b)])),
    '',
    'By function (self time, the line its code starts at), the gateway\'s largest first:',
    '',
    h.tableRow(['Function', 'Bare proxy', 'Gateway']),
    h.tableRow(['---', '---', '---']),
    ...functions.map(([fn, g]) => h.tableRow([`\`${fn.replaceAll('|', '\\|')}\``, us(bare.byFunction.get(fn)), us(g)])),
    '',
    `- ${ROUNDS} rounds of ${SECONDS} s at c=64 per party in turns, each from idle, after ${WARMUP_SECONDS} s of warm-up each; ${bare.calls} and ${gateway.calls} answers; ${bare.busy} and ${gateway.busy} busy samples every ${INTERVAL_US} µs; the statistics job ${STATISTICS ? 'on' : 'off'}.`,
    '- A row: its share of the main thread\'s busy samples times the main thread\'s CPU a call (/proc, the same rounds). Profiled runs are slower than plain ones.',
    `- Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}; load average ${os.loadavg()[0].toFixed(2)} at the end; ${new Date().toISOString()}.`,
  ];
  console.log(`\n${lines.join('\n')}`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'profile.md'), `${lines.join('\n')}\n`);
  console.log('\nWritten to bench/out/profile.md');
}

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => void h.stopAll().finally(() => process.exit(130)));
}
await main();
