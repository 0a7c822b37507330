// @ts-check
// `npm run bench`: the mock provider alone, then the product's gateway in front of it, each in its own
// process, measured by load generators in their own processes (autocannon for throughput, bench/client.mjs
// for exact concurrency-1 latency and time to first streamed byte). Prints the table of
// docs/BENCHMARKS.md and writes it to bench/out/results.md. Exits non-zero only when the harness
// itself fails; a missed target is a finding, not a crash.
//
// Environment: BENCH_QUICK=1 shortens every phase (a smoke run of the harness, figures meaningless);
// BENCH_CPU_PROF=1 writes a V8 CPU profile of the gateway under load to bench/out/prof/;
// BENCH_NODE_ARGS="--max-old-space-size=128" passes Node flags to the product (to try tunings).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { autocannon as runAutocannon, chatBody, client, gitRevision, procStats } from './load.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const PLAN = QUICK
  ? { c1Seconds: 2, c64Seconds: 3, c64Warmup: 1, ttfbCount: 40, warmup: 50 }
  : { c1Seconds: 10, c64Seconds: 15, c64Warmup: 3, ttfbCount: 300, warmup: 200 };
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const USER = 'bench@example.com';
const OUT = h.at('bench/out');

const TARGETS = { addedP50: 0.5, rps: 2000, addedTtfb: 2, rssMb: 200 };
const PORTKEY = { addedP50: '+1.1 ms', rps: '~900 req/s', addedTtfb: '+29 ms', rss: '—' };

/** Non-streaming chat load through autocannon. @param {{ url: string, key: string, connections: number, seconds: number }} o */
const autocannon = (o) => runAutocannon({ ...o, body: chatBody(MODEL) });

const ms = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : 'n/a');
const plusMs = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(2)} ms` : 'n/a');
const rps = (/** @type {number} */ v) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} req/s` : 'n/a');
const mb = (/** @type {number} */ v) => (Number.isFinite(v) ? `${Math.round(v)} MB` : 'n/a');
const verdict = (/** @type {boolean} */ ok, /** @type {number} */ v) => (!Number.isFinite(v) ? '?' : ok ? '✅ met' : '❌ missed');

async function main() {
  const startedAt = new Date();
  const load0 = os.loadavg();
  await h.ensureBundle();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-bench-'));
  const cleanup = async () => {
    await h.stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // Ctrl-C or a kill: stop what we started, then leave.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the mock and the product…`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    console.log('Starting the mock provider and the product…');
    const mock = await h.startMock(await h.freePort());
    const port = await h.freePort();
    // Configure at log level info: the product logs the user's e-mail code there (no mail server).
    let product = await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'info' });
    const { appKey } = await h.configure(product, { mockUrl: mock.url, adminPassword: PASSWORD, model: MODEL, userEmail: USER, userPassword: PASSWORD, quota: 1e13 });
    await product.proc.stop();
    const profiling = process.env.BENCH_CPU_PROF === '1';
    if (profiling) fs.mkdirSync(path.join(OUT, 'prof'), { recursive: true });
    const nodeArgs = [
      ...(process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
      ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${path.join(OUT, 'prof')}`] : []),
    ];
    product = await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'warn', nodeArgs });
    await h.smokeChat(mock.url, 'sk-direct', MODEL);
    await h.smokeChat(product.url, appKey, MODEL);

    const direct = { name: 'direct', url: mock.url, key: 'sk-direct' };
    const gateway = { name: 'gateway', url: product.url, key: appKey };

    console.log(`(a) concurrency 1: ${PLAN.c1Seconds} s per target, interleaved…`);
    const c1 = client({ mode: 'latency', targets: [direct, gateway], model: MODEL, seconds: PLAN.c1Seconds, rounds: 10, warmup: PLAN.warmup });

    console.log(`(b) concurrency 64: ${PLAN.c64Seconds} s on the mock, then ${PLAN.c64Warmup} s warm-up + ${PLAN.c64Seconds} s through the gateway…`);
    const c64Direct = await autocannon({ url: mock.url, key: 'sk-direct', connections: 64, seconds: PLAN.c64Seconds });
    await autocannon({ url: product.url, key: appKey, connections: 64, seconds: PLAN.c64Warmup });
    const before = { gw: procStats(product.proc.pid), mock: procStats(mock.proc.pid) };
    let peakRss = before.gw.rssMb;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, procStats(product.proc.pid).rssMb)), 200);
    let c64Gateway;
    try {
      c64Gateway = await autocannon({ url: product.url, key: appKey, connections: 64, seconds: PLAN.c64Seconds });
    } finally {
      clearInterval(sampler);
    }
    const after = { gw: procStats(product.proc.pid), mock: procStats(mock.proc.pid) };
    peakRss = Math.max(peakRss, after.gw.rssMb);

    console.log(`(c) streaming: ${PLAN.ttfbCount} sequential requests per target, interleaved…`);
    const ttfb = client({ mode: 'ttfb', targets: [direct, gateway], model: MODEL, count: PLAN.ttfbCount, warmup: Math.min(PLAN.warmup, 100) });

    const addedP50 = c1.gateway.p50 - c1.direct.p50;
    const addedP99 = c1.gateway.p99 - c1.direct.p99;
    const addedTtfb = ttfb.gateway.p50 - ttfb.direct.p50;
    const gwErrors = c64Gateway.errors + c64Gateway.timeouts + c64Gateway.non2xx;
    const directErrors = c64Direct.errors + c64Direct.timeouts + c64Direct.non2xx;
    const gwRps = c64Gateway.requests.average;
    const seconds = PLAN.c64Seconds;
    const cores = (/** @type {number} */ a, /** @type {number} */ b) => ((b - a) / seconds).toFixed(2);
    const load1 = os.loadavg();

    const table = [
      '| Measure | Mock direct | Through the gateway | Gateway figure | Target | Met? | Portkey |',
      '|---|---|---|---|---|---|---|',
      `| p50 latency, concurrency 1 | ${ms(c1.direct.p50)} | ${ms(c1.gateway.p50)} | **${plusMs(addedP50)}** added | ≤ +${TARGETS.addedP50} ms | ${verdict(addedP50 <= TARGETS.addedP50, addedP50)} | ${PORTKEY.addedP50} |`,
      `| p99 latency, concurrency 1 | ${ms(c1.direct.p99)} | ${ms(c1.gateway.p99)} | ${plusMs(addedP99)} added | — | — | — |`,
      `| Throughput, concurrency 64 (non-streaming) | ${rps(c64Direct.requests.average)} | ${rps(gwRps)} | **${rps(gwRps)}**, ${gwErrors} errors | ≥ ${TARGETS.rps.toLocaleString('en-US')} req/s, 0 errors | ${verdict(gwRps >= TARGETS.rps && gwErrors === 0, gwRps)} | ${PORTKEY.rps} |`,
      `| p50 / p99 latency, concurrency 64 | ${c64Direct.latency.p50} / ${c64Direct.latency.p99} ms | ${c64Gateway.latency.p50} / ${c64Gateway.latency.p99} ms | (autocannon, whole ms) | — | — | — |`,
      `| Time to first streamed byte (p50) | ${ms(ttfb.direct.p50)} | ${ms(ttfb.gateway.p50)} | **${plusMs(addedTtfb)}** added | ≤ +${TARGETS.addedTtfb} ms | ${verdict(addedTtfb <= TARGETS.addedTtfb, addedTtfb)} | ${PORTKEY.addedTtfb} |`,
      `| Gateway RSS under load (peak, sampled every 200 ms) | — | ${mb(peakRss)} | **${mb(peakRss)}** (VmHWM ${mb(after.gw.hwmMb)}) | ≤ ${TARGETS.rssMb} MB | ${verdict(peakRss <= TARGETS.rssMb, peakRss)} | ${PORTKEY.rss} |`,
    ].join('\n');

    const busy = load0[0] > 1.5 || load1[0] > 1.5;
    const notes = [
      ...(nodeArgs.length ? [`Product started with \`node ${nodeArgs.join(' ')}\`.`] : []),
      `Run ${startedAt.toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}; revision ${gitRevision()}.`,
      `Load average (1 min) ${load0[0].toFixed(2)} at start, ${load1[0].toFixed(2)} at end${busy ? ' — **the machine was busy: the figures are noisy**' : ''}.`,
      `Concurrency 1: ${c1.direct.n} direct and ${c1.gateway.n} gateway requests (bench/client.mjs, one kept-alive connection each, interleaved), ${c1.direct.errors + c1.gateway.errors} errors.`,
      `Concurrency 64: autocannon ${seconds} s each; ${c64Direct.requests.total} direct requests (${directErrors} errors), ${c64Gateway.requests.total} through the gateway (${c64Gateway.non2xx} non-2xx, ${c64Gateway.errors} errors, ${c64Gateway.timeouts} timeouts).`,
      `CPU during the gateway run: gateway ${cores(before.gw.cpuSec, after.gw.cpuSec)} cores, mock ${cores(before.mock.cpuSec, after.mock.cpuSec)} cores (the rest: autocannon and other processes).`,
      `Streaming: ${ttfb.direct.n} + ${ttfb.gateway.n} sequential requests, time from sending to the first \`data:\` chunk; p99 direct ${ms(ttfb.direct.p99)}, gateway ${ms(ttfb.gateway.p99)}.`,
      ...(QUICK ? ['**BENCH_QUICK=1: shortened smoke run, figures not meaningful.**'] : []),
    ];

    const report = `## Gateway benchmark\n\n${table}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`;
    console.log(`\n${report}`);
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'results.md'), report);
    fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify({ startedAt, load: [load0, load1], c1, c64Direct, c64Gateway, ttfb, peakRss, before, after }, null, 2));
    console.log(`Written to ${path.relative(process.cwd(), path.join(OUT, 'results.md'))}`);
    if (profiling) {
      // The profile is written when the process exits.
      await product.proc.stop();
      console.log(`CPU profile in ${path.relative(process.cwd(), path.join(OUT, 'prof'))}/ (open in Chrome DevTools → Performance)`);
    }
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error('bench failed:', err instanceof Error ? err.stack : err);
  process.exitCode = 1;
});
