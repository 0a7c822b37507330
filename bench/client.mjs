// @ts-check
// The benchmark's own small client, run in its own process by bench/run.mjs and bench/scale.mjs: exact
// sub-millisecond latencies at concurrency 1 (autocannon's histogram keeps whole milliseconds, too coarse
// for a 0.5 ms budget), time to the first streamed `data:` chunk, and a paced load (an open-loop arrival
// rate, for the event-loop delay under a steady load).
//
//   node bench/client.mjs '<json {mode, targets, seconds?, rounds?, count?, model}>'
//
// Prints one JSON line: { [target name]: { n, errors, p50, p90, p99, mean } } in milliseconds.
// Targets (the mock, the bare proxy, the gateway) are measured interleaved (round-robin), so a burst of
// load from elsewhere on the machine hits every target's figures alike instead of skewing whichever ran
// at that moment.
import http from 'node:http';

/** @typedef {{ name: string, url: string, key: string }} Target */
/**
 * `paced`: the first target alone, `rate` requests per second sent at evenly spaced moments whatever the
 * answers (open loop, up to `connections` in flight; a request that finds none free is counted as an error).
 * `warmupSeconds` (latency): the warm-up by time instead of `warmup` calls, in rounds as the measure.
 * @typedef {{ mode: 'latency' | 'ttfb' | 'paced', targets: Target[], model: string, seconds?: number, rounds?: number, count?: number, warmup?: number, warmupSeconds?: number, rate?: number, connections?: number }} Job
 */

const job = /** @type {Job} */ (JSON.parse(process.argv[2] ?? '{}'));

// One kept-alive connection per target: concurrency 1 and no TCP handshakes in the figures (paced: a pool).
const sockets = job.mode === 'paced' ? (job.connections ?? 64) : 1;
const agents = new Map(job.targets.map((t) => [t.name, new http.Agent({ keepAlive: true, maxSockets: sockets })]));

const bodies = {
  plain: Buffer.from(JSON.stringify({ model: job.model, messages: [{ role: 'user', content: 'ping' }] })),
  stream: Buffer.from(JSON.stringify({ model: job.model, messages: [{ role: 'user', content: 'ping' }], stream: true })),
};

/**
 * One request; resolves with [total ms, ms to the first `data:` chunk (streams) or NaN], or rejects.
 * @param {Target} t @param {boolean} stream
 * @returns {Promise<[number, number]>}
 */
function call(t, stream) {
  const body = stream ? bodies.stream : bodies.plain;
  const url = new URL('/v1/chat/completions', t.url);
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    let first = NaN;
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: agents.get(t.name),
        headers: { 'content-type': 'application/json', 'content-length': body.length, authorization: `Bearer ${t.key}` },
      },
      (res) => {
        let seen = '';
        res.setEncoding('utf8');
        res.on('data', (/** @type {string} */ chunk) => {
          if (stream && Number.isNaN(first)) {
            seen += chunk;
            if (seen.includes('data:')) first = Number(process.hrtime.bigint() - start) / 1e6;
          }
        });
        res.on('end', () => {
          const total = Number(process.hrtime.bigint() - start) / 1e6;
          if (res.statusCode !== 200) reject(new Error(`${t.name}: HTTP ${res.statusCode}`));
          else if (stream && Number.isNaN(first)) reject(new Error(`${t.name}: stream without a data: chunk`));
          else resolve([total, first]);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);

/** @param {number[]} xs @param {number} errors */
function summary(xs, errors) {
  const s = [...xs].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return { n: s.length, errors, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), mean };
}

async function main() {
  const stream = job.mode === 'ttfb';
  /** @type {Record<string, number[]>} */
  const samples = Object.fromEntries(job.targets.map((t) => [t.name, []]));
  /** @type {Record<string, number>} */
  const errors = Object.fromEntries(job.targets.map((t) => [t.name, 0]));

  /** @param {Target} t */
  const one = async (t) => {
    try {
      const [total, first] = await call(t, stream);
      samples[t.name].push(stream ? first : total);
    } catch {
      errors[t.name]++;
    }
  };
  /** @param {Target} t */
  const unrecorded = (t) => call(t, stream).catch(() => undefined);

  // Round i starts with target i mod n: each target goes first (and last) equally often.
  const turn = (/** @type {number} */ i) => {
    const k = i % job.targets.length;
    return [...job.targets.slice(k), ...job.targets.slice(0, k)];
  };
  /** Rounds of a slice of `seconds` / `rounds` per target, each target in turn (the latency mode's shape). */
  const inRounds = async (/** @type {number} */ seconds, /** @type {number} */ rounds, /** @type {(t: Target) => Promise<unknown>} */ each) => {
    const slice = (seconds * 1000) / rounds;
    for (let r = 0; r < rounds; r++) {
      for (const t of turn(r)) {
        const until = performance.now() + slice;
        while (performance.now() < until) await each(t);
      }
    }
  };

  // Warm-up (JIT, connection pools, the gateway's caches); not recorded. By time where asked: V8's optimising
  // compiler keeps the helper threads busy for seconds of load, far past 200 calls for the gateway's code.
  if (job.warmupSeconds) await inRounds(job.warmupSeconds, job.rounds ?? 10, unrecorded);
  else for (let i = 0; i < (job.warmup ?? 200); i++) for (const t of job.targets) await unrecorded(t);

  if (job.mode === 'paced') {
    // Not autocannon's --overallRate: that lets every connection send flat out until its share of the
    // second is spent, then idles, so a "steady" 1,600 req/s arrives as a saturating burst each second.
    // Here the n-th request leaves at n / rate seconds (checked every millisecond).
    const t = job.targets[0];
    const rate = job.rate ?? 100;
    const total = Math.round(rate * (job.seconds ?? 10));
    const started = performance.now();
    const inFlight = new Set();
    let sent = 0;
    await new Promise((resolve) => {
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
        for (; sent < due; sent++) {
          if (inFlight.size >= sockets) {
            errors[t.name]++;
            continue;
          }
          const p = one(t).finally(() => inFlight.delete(p));
          inFlight.add(p);
        }
        if (sent < total) setTimeout(tick, 1);
        else resolve(undefined);
      };
      tick();
    });
    await Promise.all(inFlight);
    const seconds = (performance.now() - started) / 1000;
    for (const a of agents.values()) a.destroy();
    process.stdout.write(`${JSON.stringify({ [t.name]: { ...summary(samples[t.name], errors[t.name]), rate: samples[t.name].length / seconds } })}\n`);
    return;
  }
  if (job.mode === 'latency') {
    // Rounds of a slice per target, alternating which target goes first.
    await inRounds(job.seconds ?? 10, job.rounds ?? 10, one);
  } else {
    for (let i = 0; i < (job.count ?? 300); i++) {
      const order = turn(i);
      for (const t of order) await one(t);
    }
  }
  for (const a of agents.values()) a.destroy();
  const out = Object.fromEntries(job.targets.map((t) => [t.name, summary(samples[t.name], errors[t.name])]));
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
