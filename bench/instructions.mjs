// @ts-check
// `npm run bench:instructions`: the work a call costs, counted in instructions instead of seconds. The bare
// proxy and the product each run under valgrind's callgrind (on every machine of ours), called at
// concurrency 1 by this script; after a warm-up the counters are zeroed, a fixed number of calls is made and
// the counters are dumped, thread by thread. An instruction count does not move with what else the machine
// is doing, so two builds can be told apart by a few per cent, where `npm run bench`'s CPU seconds swing by
// ±10 % between runs on these shared machines (docs/BENCHMARKS.md, twentieth session).
//
// What carries over to a native run is the main thread's count (and the SQLite writer thread's): callgrind
// runs one thread at a time, so V8's helper threads spin far longer than they do natively, and their
// figures are printed for completeness only. Instructions are not time either: cache misses and the kernel's
// work (system calls, waking other processes) are not in them. Run it alone: with a second valgrind beside it
// the gateway's count read ~10 % higher (V8's compiler and collector work on timers; docs/BENCHMARKS.md,
// twenty-first session).
//
// The warm-up is long because under valgrind V8's optimising compiler, on helper threads that wait for their
// turn, keeps finishing code for thousands of calls: the main thread's count falls until then. The counted
// calls are many so that the collector's full collections (one every few thousand gateway calls) average out.
//
// Environment: BENCH_QUICK=1 for a smoke run (a short warm-up: figures too high); BENCH_BUNDLE as in bench/run.mjs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { chatBody, gitRevision } from './load.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const PLAN = QUICK ? { warmup: 200, calls: 100 } : { warmup: 8000, calls: 6000 };
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const OUT = h.at('bench/out');
/** Starting node under valgrind takes a while; the first calls, while it compiles, take longer still. */
const READY_MS = 180_000;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-instr-'));
const vgdbPrefix = path.join(work, 'vgdb');
// vgdb names its pipes after $HOST as valgrind saw it: the product is started with HOST=127.0.0.1 (its
// listen address), so the bare proxy and callgrind_control get the same.
process.env.HOST = '127.0.0.1';

const cleanup = async () => {
  await h.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
};

/** valgrind and its options, a dump file per thread under `work`, named after `name`. */
const callgrind = (/** @type {string} */ name) => [
  'valgrind',
  '--tool=callgrind',
  '--separate-threads=yes',
  // V8 writes and rewrites machine code at run time: callgrind must notice.
  '--smc-check=all-non-file',
  `--vgdb-prefix=${vgdbPrefix}`,
  `--callgrind-out-file=${path.join(work, name)}.%p`,
  '--dump-instr=no',
  '--compress-strings=no',
];

const body = Buffer.from(chatBody(MODEL));

/** One chat call on the kept-alive connection: its status. */
function call(/** @type {string} */ base, /** @type {string} */ key, /** @type {http.Agent} */ agent) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/v1/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${key}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const control = (/** @type {number} */ pid, /** @type {string} */ action) => execFileSync('callgrind_control', [`--vgdb-prefix=${vgdbPrefix}`, action, String(pid)], { stdio: 'ignore' });

/**
 * Warms the party up, counts `PLAN.calls` calls and returns the instructions a call per thread (thread 1
 * is the main thread), from the dump callgrind wrote for them.
 * @param {string} name @param {{ proc: import('./harness.mjs').Proc, url: string }} party @param {string} key
 */
async function measure(name, party, key) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < PLAN.warmup; i++) await call(party.url, key, agent);
  control(party.proc.pid, '--zero');
  let ok = 0;
  for (let i = 0; i < PLAN.calls; i++) if ((await call(party.url, key, agent)) === 200) ok++;
  control(party.proc.pid, '--dump');
  agent.destroy();
  await party.proc.stop();
  if (ok !== PLAN.calls) throw new Error(`${name}: ${PLAN.calls - ok} of ${PLAN.calls} calls failed`);
  // The requested dump is part 1: <name>.<pid>.1-<thread>.
  const prefix = `${name}.${party.proc.pid}.1-`;
  /** @type {Map<number, number>} */
  const threads = new Map();
  for (const file of fs.readdirSync(work).filter((f) => f.startsWith(prefix))) {
    const text = fs.readFileSync(path.join(work, file), 'utf8');
    const ir = Number(/^summary: (\d+)/m.exec(text)?.[1] ?? /^totals: (\d+)/m.exec(text)?.[1] ?? 0);
    threads.set(Number(file.slice(prefix.length)), ir / ok);
  }
  if (!threads.has(1)) throw new Error(`${name}: no dump of the main thread in ${work}`);
  return threads;
}

const k = (/** @type {number} */ n) => `${Math.round(n / 1000).toLocaleString('en-US')}k`;

async function main() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  }
  await h.ensureBundle();
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  try {
    console.log(`Instructions a call under callgrind: ${PLAN.warmup} calls to warm up, then ${PLAN.calls} counted, at concurrency 1…`);
    const mock = await h.startMock(await h.freePort());
    const port = await h.freePort();
    const appKey = await h.prepareProduct({ port, dataDir, mockUrl: mock.url, password: PASSWORD, model: MODEL });

    const bare = await h.startBareProxy(await h.freePort(), mock.url, { launcher: callgrind('bare'), readyMs: READY_MS });
    const bareThreads = await measure('bare', bare, 'sk-direct');
    const product = await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'warn', launcher: callgrind('gateway'), readyMs: READY_MS });
    const gatewayThreads = await measure('gateway', product, appKey);

    const main = (/** @type {Map<number, number>} */ t) => /** @type {number} */ (t.get(1));
    const others = (/** @type {Map<number, number>} */ t) =>
      [...t]
        .filter(([n, ir]) => n !== 1 && ir >= 1000)
        .sort(([a], [b]) => a - b)
        .map(([n, ir]) => `${n}: ${k(ir)}`)
        .join(', ');
    const lines = [
      '## Instructions a call (callgrind, concurrency 1)',
      '',
      '| Party | Main thread | Other threads (valgrind runs one at a time: not as natively) |',
      '| --- | --- | --- |',
      `| Bare proxy | ${k(main(bareThreads))} | ${others(bareThreads)} |`,
      `| Gateway | **${k(main(gatewayThreads))}** | ${others(gatewayThreads)} |`,
      `| Gateway / bare, main thread | **${(main(gatewayThreads) / main(bareThreads)).toFixed(2)}×** | |`,
      '',
      `- ${PLAN.calls} calls counted after ${PLAN.warmup} to warm up, each party alone; revision ${gitRevision()}, Node ${process.version}, ${new Date().toISOString()}.`,
      '- The gateway\'s SQLite writer thread is its last thread (started at the first batch); the threads in between are V8\'s helpers.',
      ...(QUICK ? ['- **BENCH_QUICK=1: a smoke run.**'] : []),
    ];
    console.log(`\n${lines.join('\n')}`);
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'instructions.md'), `${lines.join('\n')}\n`);
    console.log('\nWritten to bench/out/instructions.md');
  } finally {
    await cleanup();
  }
}

// Ctrl-C or a kill: stop what we started, then leave.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

await main();
