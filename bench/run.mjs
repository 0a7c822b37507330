// @ts-check
// `npm run bench`: the mock provider alone, a bare Node proxy in front of it (bench/bare-proxy.mjs: the
// physical limit of our runtime) and the product's gateway in front of it, each in its own process,
// measured in the same run by load generators in their own processes (wrk or autocannon at concurrency 64,
// bench/client.mjs for exact concurrency-1 latency and time to first streamed byte, interleaved). The
// gateway's targets are ratios to the bare proxy's figures, so the machine's noise cancels. Prints the
// table of docs/BENCHMARKS.md and writes it to bench/out/results.md. Exits non-zero only when the harness
// itself fails; a missed target is a finding, not a crash.
//
// Environment: BENCH_QUICK=1 shortens every phase (a smoke run of the harness, figures meaningless);
// BENCH_CPU_PROF=1 writes a V8 CPU profile of the gateway under load to bench/out/prof/;
// BENCH_NODE_ARGS="--max-old-space-size=128" passes Node flags to the product (to try tunings);
// BENCH_LOAD=wrk|autocannon picks the concurrency-64 load generator (default: wrk when installed);
// BENCH_BUNDLE=path runs the product from another build (one in packages/server, beside its writer
// thread's module: A/B runs of two revisions); BENCH_STATS_OFF=1 switches the statistics job off.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { agentChatBody, bareEventLoopP99, chatBody, client, eventLoopDelayP99, gitRevision, load, loadTool, mergeLoads, procStats, scrapeMetrics, settle } from './load.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const PLAN = QUICK
  ? { c1Seconds: 2, c1Warmup: 1, c64Seconds: 3, c64Rounds: 1, c64Warmup: 1, steadySeconds: 2, ttfbCount: 40, warmup: 50, agentSeconds: 2, agentRounds: 1, agentWarmup: 1 }
  : { c1Seconds: 10, c1Warmup: 5, c64Seconds: 10, c64Rounds: 2, c64Warmup: 3, steadySeconds: 10, ttfbCount: 300, warmup: 200, agentSeconds: 10, agentRounds: 2, agentWarmup: 3 };
/** Connections for the agent-sized bodies: a team's agents, not a flood (each call is ~25× the work of a ping). */
const AGENT_CONNECTIONS = 16;
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const OUT = h.at('bench/out');

// Issue 16. Ratios are the gateway's figure over the bare proxy's in the same run; the rest are absolute.
// The added p50 at c=1 is the earlier absolute target, kept: it still separates a lean gateway from a slow one.
const TARGETS = { cpuRatio: 2, addedP99Ratio: 2, addedTtfb: 1, eldP99: 5, rssMb: 150, addedP50: 0.5 };

const fix = (/** @type {number} */ v, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const ms = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v.toFixed(2)} ms` : 'n/a');
const plusMs = (/** @type {number} */ v) => (Number.isFinite(v) ? `${v >= 0 ? '+' : ''}${v.toFixed(2)} ms` : 'n/a');
const rps = (/** @type {number} */ v) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} req/s` : 'n/a');
const us = (/** @type {number} */ v) => (Number.isFinite(v) ? `${Math.round(v)} µs` : 'n/a');
const mb = (/** @type {number} */ v) => (Number.isFinite(v) ? `${Math.round(v)} MB` : 'n/a');
/** Gateway over bare proxy; meaningless when the bare figure is not positive (an added latency lost in noise). */
const ratio = (/** @type {number} */ gw, /** @type {number} */ bare) => (Number.isFinite(gw) && Number.isFinite(bare) && bare > 0 ? gw / bare : NaN);
const times = (/** @type {number} */ r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : 'n/a');
const verdict = (/** @type {boolean} */ ok, /** @type {number} */ v) => (!Number.isFinite(v) ? '? n/a' : ok ? '✅ met' : '❌ not met');

/**
 * @typedef {object} Party  one process measured
 * @property {string} name
 * @property {string} url
 * @property {string} key
 * @property {number} pid
 */

async function main() {
  const startedAt = new Date();
  const load0 = os.loadavg();
  const tool = loadTool();
  await h.ensureBundle();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-bench-'));
  const cleanup = async () => {
    await h.stopAll();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // Ctrl-C or a kill: stop what we started, then leave.
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping the mock, the bare proxy and the product…`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    console.log('Starting the mock provider, the bare proxy and the product…');
    const mock = await h.startMock(await h.freePort());
    const port = await h.freePort();
    const appKey = await h.prepareProduct({ port, dataDir, mockUrl: mock.url, password: PASSWORD, model: MODEL });
    const profiling = process.env.BENCH_CPU_PROF === '1';
    if (profiling) fs.mkdirSync(path.join(OUT, 'prof'), { recursive: true });
    const nodeArgs = [
      ...(process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean),
      ...(profiling ? ['--cpu-prof', `--cpu-prof-dir=${path.join(OUT, 'prof')}`] : []),
    ];
    // /metrics answers loopback anyway; the token is what a deployer gives the Prometheus that scrapes it.
    const metricsToken = randomBytes(16).toString('hex');
    const product = await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'warn', nodeArgs, env: { METRICS_TOKEN: metricsToken } });
    const bare = await h.startBareProxy(await h.freePort(), mock.url);
    await h.smokeChat(mock.url, 'sk-direct', MODEL);
    await h.smokeChat(bare.url, 'sk-direct', MODEL);
    await h.smokeChat(product.url, appKey, MODEL);

    /** @type {Party} */
    const direct = { name: 'direct', url: mock.url, key: 'sk-direct', pid: mock.proc.pid };
    /** @type {Party} */
    const bareP = { name: 'bare', url: bare.url, key: 'sk-direct', pid: bare.proc.pid };
    /** @type {Party} */
    const gateway = { name: 'gateway', url: product.url, key: appKey, pid: product.proc.pid };
    const parties = [direct, bareP, gateway];
    const targets = parties.map(({ name, url, key }) => ({ name, url, key }));

    console.log(`(a) concurrency 1: ${PLAN.c1Warmup} s warm-up, then ${PLAN.c1Seconds} s per target (mock, bare proxy, gateway), interleaved…`);
    // The warm-up by time: in a process just started, V8's optimising compiler keeps its helper threads busy for
    // the first ~4 s of load, long after 200 calls (docs/BENCHMARKS.md, twenty-fifth session).
    const c1 = client({ mode: 'latency', targets, model: MODEL, seconds: PLAN.c1Seconds, rounds: 10, warmupSeconds: PLAN.c1Warmup });

    console.log(`(b) concurrency 64 (${tool}): ${PLAN.c64Warmup} s warm-up each, then ${PLAN.c64Rounds} × ${PLAN.c64Seconds / PLAN.c64Rounds} s per target, interleaved…`);
    for (const p of parties) await load({ url: p.url, key: p.key, connections: 64, seconds: PLAN.c64Warmup, body: chatBody(MODEL) }, tool);
    /** @type {Record<string, { runs: import('./load.mjs').LoadResult[], cpuSec: number, mockCpuSec: number, peakRss: number }>} */
    const acc = Object.fromEntries(parties.map((p) => [p.name, { runs: [], cpuSec: 0, mockCpuSec: 0, peakRss: procStats(p.pid).rssMb }]));
    /** @type {[import('./load.mjs').Sample[], import('./load.mjs').Sample[]][]} */
    const eldWindows = [];
    const sampler = setInterval(() => parties.forEach((p) => (acc[p.name].peakRss = Math.max(acc[p.name].peakRss, procStats(p.pid).rssMb))), 200);
    try {
      // Rounds in turn (round r starts with party r mod 3), so a change in the machine's background load
      // hits every party's figures alike, as bench/client.mjs does at concurrency 1.
      for (let r = 0; r < PLAN.c64Rounds; r++) {
        for (const p of [...parties.slice(r % 3), ...parties.slice(0, r % 3)]) {
          // Scraped right before and after: prom-client's event-loop histogram restarts at each scrape.
          const metricsBefore = p === gateway ? await scrapeMetrics(p.url, metricsToken) : undefined;
          const before = { self: procStats(p.pid), mock: procStats(mock.proc.pid) };
          const res = await load({ url: p.url, key: p.key, connections: 64, seconds: PLAN.c64Seconds / PLAN.c64Rounds, body: chatBody(MODEL) }, tool);
          const after = { self: procStats(p.pid), mock: procStats(mock.proc.pid) };
          if (metricsBefore) eldWindows.push([metricsBefore, await scrapeMetrics(p.url, metricsToken)]);
          const a = acc[p.name];
          a.runs.push(res);
          a.cpuSec += after.self.cpuSec - before.self.cpuSec;
          a.mockCpuSec += after.mock.cpuSec - before.mock.cpuSec;
        }
      }
    } finally {
      clearInterval(sampler);
    }
    /** One party's c=64 figures: the load's result and the kernel's accounting of the party's process. */
    const c64 = (/** @type {Party} */ p) => {
      const a = acc[p.name];
      const r = mergeLoads(a.runs);
      const now = procStats(p.pid);
      return {
        load: r,
        cpuSec: a.cpuSec,
        mockCpuSec: a.mockCpuSec,
        // CPU of the party's own process per successful answer: the issue's "CPU per request".
        cpuPerReqUs: (a.cpuSec * 1e6) / r.ok,
        peakRss: Math.max(a.peakRss, now.rssMb),
        hwmMb: now.hwmMb,
        errors: r.non2xx + r.errors + r.timeouts,
      };
    };
    const run64 = { direct: c64(direct), bare: c64(bareP), gateway: c64(gateway) };
    const eld = eventLoopDelayP99(eldWindows);

    // Saturated (c=64 above), every turn of the loop serves dozens of calls, so its delay is the queue's
    // length, not a stall. The loop's own health is read under a steady load the gateway keeps up with:
    // half the throughput it reached, arriving evenly (bench/client.mjs's paced mode, up to 64 in flight).
    const steadyRate = run64.gateway.load.rps / 2;
    console.log(`(d) event-loop delay under a steady ${Math.round(steadyRate)} req/s (half the gateway's c=64 throughput), ${PLAN.steadySeconds} s…`);
    const steadyBefore = await scrapeMetrics(gateway.url, metricsToken);
    const steady = client({ mode: 'paced', targets: [targets[2]], model: MODEL, seconds: PLAN.steadySeconds, rate: steadyRate, connections: 64, warmup: 0 }).gateway;
    const eldSteady = eventLoopDelayP99([[steadyBefore, await scrapeMetrics(gateway.url, metricsToken)]]);
    // The reference: the bare proxy under the same paced load, read the same way, once the product is idle
    // (its statistics job catches up on the c=64 rounds' rows after them). The target is absolute, but what
    // the runtime alone shows on this machine says how much of the product's figure is its own.
    await settle(gateway.pid);
    // Read and dropped: a read resets the bare proxy's histogram, so the next covers the paced load alone.
    await bareEventLoopP99(bare.url);
    const steadyBare = client({ mode: 'paced', targets: [targets[1]], model: MODEL, seconds: PLAN.steadySeconds, rate: steadyRate, connections: 64, warmup: 0 }).bare;
    const eldSteadyBare = await bareEventLoopP99(bare.url);

    console.log(`(c) streaming: ${PLAN.ttfbCount} sequential requests per target, interleaved…`);
    const ttfb = client({ mode: 'ttfb', targets, model: MODEL, count: PLAN.ttfbCount, warmup: Math.min(PLAN.warmup, 100) });

    // Last, so the peak RSS above is the ping load's, as before: what coding agents send, for context (no target).
    const agentBody = agentChatBody(MODEL);
    console.log(`(e) agent-sized body (${Math.round(agentBody.length / 1024)} KB), concurrency ${AGENT_CONNECTIONS}: ${PLAN.agentWarmup} s warm-up each, then ${PLAN.agentRounds} × ${PLAN.agentSeconds / PLAN.agentRounds} s per proxy, in turns…`);
    const proxies = [bareP, gateway];
    for (const p of proxies) await load({ url: p.url, key: p.key, connections: AGENT_CONNECTIONS, seconds: PLAN.agentWarmup, body: agentBody }, tool);
    const agentAcc = Object.fromEntries(proxies.map((p) => [p.name, { cpuSec: 0, ok: 0, errors: 0 }]));
    for (let r = 0; r < PLAN.agentRounds; r++) {
      for (const p of r % 2 ? [...proxies].reverse() : proxies) {
        const before = procStats(p.pid).cpuSec;
        const res = await load({ url: p.url, key: p.key, connections: AGENT_CONNECTIONS, seconds: PLAN.agentSeconds / PLAN.agentRounds, body: agentBody }, tool);
        const a = agentAcc[p.name];
        a.cpuSec += procStats(p.pid).cpuSec - before;
        a.ok += res.ok;
        a.errors += res.non2xx + res.errors + res.timeouts;
      }
    }
    const agentUs = (/** @type {Party} */ p) => (agentAcc[p.name].cpuSec * 1e6) / agentAcc[p.name].ok;
    const agent = { bodyBytes: agentBody.length, connections: AGENT_CONNECTIONS, bare: { ...agentAcc.bare, cpuPerReqUs: agentUs(bareP) }, gateway: { ...agentAcc.gateway, cpuPerReqUs: agentUs(gateway) } };

    const load1 = os.loadavg();
    const added = (/** @type {Record<string, { p50: number, p99: number }>} */ r, /** @type {'p50' | 'p99'} */ q) => ({ bare: r.bare[q] - r.direct[q], gateway: r.gateway[q] - r.direct[q] });
    const p50 = added(c1, 'p50');
    const p99 = added(c1, 'p99');
    const t50 = added(ttfb, 'p50');
    const t99 = added(ttfb, 'p99');
    const { direct: d, bare: b, gateway: g } = run64;
    const cpuRatio = ratio(g.cpuPerReqUs, b.cpuPerReqUs);
    const p99Ratio = ratio(p99.gateway, p99.bare);
    const rss = (/** @type {typeof g} */ x) => Math.max(x.hwmMb, x.peakRss);
    const errors = d.errors + b.errors + g.errors;
    const lat = (/** @type {typeof g} */ x) => `${fix(x.load.latency.p50, 1)} / ${fix(x.load.latency.p99, 1)} ms`;

    const table = [
      h.tableRow(['Measure', 'Mock direct', 'Bare proxy', 'Gateway', 'Gateway / bare', 'Target', 'Met?']),
      h.tableRow(Array(7).fill('---')),
      h.tableRow(['Throughput, c=64, non-streamed', rps(d.load.rps), rps(b.load.rps), rps(g.load.rps), times(ratio(g.load.rps, b.load.rps)), '—', '—']),
      h.tableRow(['Errors at c=64 (non-2xx, socket, timeouts)', String(d.errors), String(b.errors), String(g.errors), '—', '0', verdict(errors === 0, errors)]),
      h.tableRow(['CPU per request at c=64 (own process)', us(d.cpuPerReqUs), us(b.cpuPerReqUs), `**${us(g.cpuPerReqUs)}**`, `**${times(cpuRatio)}**`, `≤ ${TARGETS.cpuRatio}× bare`, verdict(cpuRatio <= TARGETS.cpuRatio, cpuRatio)]),
      h.tableRow(['Added p50 latency, c=1', `${ms(c1.direct.p50)} (base)`, plusMs(p50.bare), `**${plusMs(p50.gateway)}**`, times(ratio(p50.gateway, p50.bare)), `≤ +${TARGETS.addedP50} ms`, verdict(p50.gateway <= TARGETS.addedP50, p50.gateway)]),
      h.tableRow(['Added p99 latency, c=1', `${ms(c1.direct.p99)} (base)`, plusMs(p99.bare), `**${plusMs(p99.gateway)}**`, `**${times(p99Ratio)}**`, `≤ ${TARGETS.addedP99Ratio}× bare`, verdict(p99Ratio <= TARGETS.addedP99Ratio, p99Ratio)]),
      h.tableRow(['Added time to first streamed byte, p50', `${ms(ttfb.direct.p50)} (base)`, plusMs(t50.bare), `**${plusMs(t50.gateway)}**`, times(ratio(t50.gateway, t50.bare)), `≤ +${TARGETS.addedTtfb} ms`, verdict(t50.gateway <= TARGETS.addedTtfb, t50.gateway)]),
      h.tableRow(['Added time to first streamed byte, p99', `${ms(ttfb.direct.p99)} (base)`, plusMs(t99.bare), plusMs(t99.gateway), times(ratio(t99.gateway, t99.bare)), '—', '—']),
      h.tableRow([`Latency at c=64, p50 / p99 (${tool})`, lat(d), lat(b), lat(g), '—', '—', '—']),
      h.tableRow([`Event-loop delay p99 under a steady load (${rps(steady.rate)}, half the c=64 throughput; product /metrics)`, '—', ms(eldSteadyBare), `**${ms(eldSteady.p99)}**`, times(ratio(eldSteady.p99, eldSteadyBare)), `≤ ${TARGETS.eldP99} ms`, verdict(eldSteady.p99 <= TARGETS.eldP99, eldSteady.p99)]),
      h.tableRow(['Event-loop delay p99 at c=64, saturated (the queue, for context)', '—', '—', ms(eld.p99), '—', '—', '—']),
      h.tableRow([`CPU per request, an agent-sized body (${Math.round(agent.bodyBytes / 1024)} KB, c=${agent.connections}; for context)`, '—', us(agent.bare.cpuPerReqUs), us(agent.gateway.cpuPerReqUs), times(ratio(agent.gateway.cpuPerReqUs, agent.bare.cpuPerReqUs)), '—', '—']),
      h.tableRow(['Peak RSS under load (VmHWM; sampled every 200 ms)', `${mb(rss(d))}`, `${mb(rss(b))} (${mb(b.peakRss)})`, `**${mb(rss(g))}** (${mb(g.peakRss)})`, times(ratio(rss(g), rss(b))), `≤ ${TARGETS.rssMb} MB`, verdict(rss(g) <= TARGETS.rssMb, rss(g))]),
    ].join('\n');

    const cores = (/** @type {number} */ sec, /** @type {number} */ wall) => fix(sec / wall);
    // At the start only: by the end the benchmark's own processes have raised the load average themselves.
    const busy = load0[0] > 1;
    const notes = [
      `Product and bare proxy started with \`node ${[...h.startFlags(), ...nodeArgs].join(' ')}\` (the bare proxy without BENCH_NODE_ARGS / profiling); \`npm start\`'s flags come from package.json.`,
      `Run ${startedAt.toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${os.platform()} ${os.release()}; revision ${gitRevision()}.`,
      `Load average (1 min) ${load0[0].toFixed(2)} at start, ${load1[0].toFixed(2)} at end${busy ? ' — **the machine was busy: the figures are noisy**' : ''}.`,
      `Concurrency 1: ${c1.direct.n} direct, ${c1.bare.n} bare-proxy and ${c1.gateway.n} gateway requests (bench/client.mjs, one kept-alive connection each, interleaved, after ${PLAN.c1Warmup} s of warm-up each), ${c1.direct.errors + c1.bare.errors + c1.gateway.errors} errors.`,
      `Concurrency 64: ${tool === 'wrk' ? 'wrk, 1 thread' : 'autocannon'}, 64 connections, ${PLAN.c64Warmup} s warm-up each, then ${PLAN.c64Rounds} interleaved round(s) of ${PLAN.c64Seconds / PLAN.c64Rounds} s per target; ${d.load.total} direct, ${b.load.total} bare-proxy and ${g.load.total} gateway answers. Latency at c=64: the rounds' mean p50, the worst round's p99.`,
      `Cores busy per run (of ${os.cpus().length}): mock run — mock ${cores(d.cpuSec, d.load.seconds)}, ${tool} ${cores(d.load.loadCpuSec, d.load.seconds)}; bare run — bare proxy ${cores(b.cpuSec, b.load.seconds)}, mock ${cores(b.mockCpuSec, b.load.seconds)}, ${tool} ${cores(b.load.loadCpuSec, b.load.seconds)}; gateway run — gateway ${cores(g.cpuSec, g.load.seconds)}, mock ${cores(g.mockCpuSec, g.load.seconds)}, ${tool} ${cores(g.load.loadCpuSec, g.load.seconds)}.`,
      `CPU per request: the process's utime + stime (/proc/<pid>/stat) during the measured run over its 2xx answers.`,
      `Event-loop delay: ${eld.source}. Steady load: bench/client.mjs paced (the n-th request sent at n / rate s, up to 64 in flight), ${Math.round(steadyRate)} req/s asked for ${PLAN.steadySeconds} s, ${rps(steady.rate)} answered, ${steady.errors} errors, latency p50 ${ms(steady.p50)} / p99 ${ms(steady.p99)}; the bare proxy then took the same load (${rps(steadyBare.rate)} answered, ${steadyBare.errors} errors, p99 ${ms(steadyBare.p99)}), its delay read by bench/bare-proxy.mjs the same way.`,
      `Streaming: ${ttfb.direct.n} + ${ttfb.bare.n} + ${ttfb.gateway.n} sequential requests, time from sending to the first \`data:\` chunk.`,
      `Agent-sized body (bench/load.mjs \`agentChatBody\`: a system prompt, 100 turns, 20 tools): ${tool}, ${agent.connections} connections, ${PLAN.agentWarmup} s warm-up each, then ${PLAN.agentRounds} round(s) of ${PLAN.agentSeconds / PLAN.agentRounds} s per proxy in turns, after the other measures (the peak RSS is read before it); ${agent.bare.ok} bare-proxy and ${agent.gateway.ok} gateway answers, ${agent.bare.errors + agent.gateway.errors} errors.`,
      ...(QUICK ? ['**BENCH_QUICK=1: shortened smoke run, figures not meaningful.**'] : []),
    ];

    const report = `## Gateway benchmark\n\n${table}\n\n${notes.map((n) => `- ${n}`).join('\n')}\n`;
    console.log(`\n${report}`);
    fs.mkdirSync(OUT, { recursive: true });
    fs.writeFileSync(path.join(OUT, 'results.md'), report);
    fs.writeFileSync(path.join(OUT, 'results.json'), JSON.stringify({ startedAt, load: [load0, load1], tool, targets: TARGETS, c1, c64: run64, c64Rounds: Object.fromEntries(Object.entries(acc).map(([k, v]) => [k, v.runs])), eld, eldSteady, eldSteadyBare, steady, steadyBare, ttfb, agent }, null, 2));
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
