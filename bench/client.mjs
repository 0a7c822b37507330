// @ts-check
// The benchmark's own small client, run in its own process by bench/run.mjs and bench/scale.mjs: exact
// sub-millisecond latencies at concurrency 1 (autocannon's histogram keeps whole milliseconds, too coarse
// for a 0.5 ms budget) and time to the first streamed `data:` chunk.
//
//   node bench/client.mjs '<json {mode, targets, seconds?, rounds?, count?, model}>'
//
// Prints one JSON line: { [target name]: { n, errors, p50, p90, p99, mean } } in milliseconds.
// Targets (the mock, the bare proxy, the gateway) are measured interleaved (round-robin), so a burst of
// load from elsewhere on the machine hits every target's figures alike instead of skewing whichever ran
// at that moment.
import http from 'node:http';

/** @typedef {{ name: string, url: string, key: string }} Target */
/** @typedef {{ mode: 'latency' | 'ttfb', targets: Target[], model: string, seconds?: number, rounds?: number, count?: number, warmup?: number }} Job */

const job = /** @type {Job} */ (JSON.parse(process.argv[2] ?? '{}'));

// One kept-alive connection per target: concurrency 1 and no TCP handshakes in the figures.
const agents = new Map(job.targets.map((t) => [t.name, new http.Agent({ keepAlive: true, maxSockets: 1 })]));

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

  // Warm-up (JIT, connection pools, the gateway's caches); not recorded.
  for (let i = 0; i < (job.warmup ?? 200); i++) for (const t of job.targets) await call(t, stream).catch(() => undefined);

  /** @param {Target} t */
  const one = async (t) => {
    try {
      const [total, first] = await call(t, stream);
      samples[t.name].push(stream ? first : total);
    } catch {
      errors[t.name]++;
    }
  };

  // Round i starts with target i mod n: each target goes first (and last) equally often.
  const turn = (/** @type {number} */ i) => {
    const k = i % job.targets.length;
    return [...job.targets.slice(k), ...job.targets.slice(0, k)];
  };

  if (job.mode === 'latency') {
    // Rounds of `slice` ms per target, alternating which target goes first.
    const rounds = job.rounds ?? 10;
    const slice = ((job.seconds ?? 10) * 1000) / rounds;
    for (let r = 0; r < rounds; r++) {
      const order = turn(r);
      for (const t of order) {
        const until = performance.now() + slice;
        while (performance.now() < until) await one(t);
      }
    }
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
