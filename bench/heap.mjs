// @ts-check
// `npm run bench:heap`: what a call in flight keeps reachable, the gateway's beside the bare proxy's
// (bench/bare-proxy.mjs). Each is warmed up at concurrency 64, then V8 writes a heap snapshot of it at rest and
// one in the middle of another load at c=64 (`--heapsnapshot-signal`: a full collection first, so only what is
// reachable counts). The second minus the first, over the calls in flight (the HTTP answers open, `ServerResponse`
// objects), is what each call holds while it waits: what every scavenge finds alive and copies, the collector's
// main cost at c=64 (`BENCH_AB_GC=1 npm run bench:ab` measures that). By kind of object, then the closures by the
// function they are (the bundle's through its source map), most numerous first.
//
// Environment: BENCH_HEAP_SECONDS (default 5) of load before the snapshot under load; BENCH_BUNDLE, another build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as h from './harness.mjs';
import { BUNDLE, bundleMap, functionOf, sourceOf } from './frames.mjs';
import { chatBody, load, loadTool } from './load.mjs';

const SECONDS = Number(process.env.BENCH_HEAP_SECONDS ?? 5);
const WARMUP_SECONDS = 8;
const MODEL = 'gpt-bench';
const PASSWORD = 'Bench#12345';
const OUT = h.at('bench/out');

/** @typedef {{ n: number, bytes: number }} Tally */
/** @typedef {{ kinds: Map<string, Tally>, closures: Map<string, Tally>, objects: Map<string, Tally>, answers: number }} Census what one snapshot holds */

/** The kind of object a node is, for the first table. */
function kindOf(/** @type {string} */ type, /** @type {string} */ name) {
  if (type === 'closure') return 'closures';
  if (name === 'system / Context') return 'closure contexts';
  if (name === 'Generator') return 'suspended async functions';
  if (name === 'Promise' || name === 'system / PromiseReaction') return 'promises and their reactions';
  if (type === 'object' && name === 'Object') return 'plain objects';
  if (type.endsWith('string')) return 'strings';
  if (type === 'array') return 'V8\'s arrays (elements, properties, frames)';
  if (type === 'code' || name === 'FastTimer') return '(left out: compiled code, undici\'s timer wheel)';
  return 'other objects';
}

/** Counts a heap snapshot's objects by kind and its closures by function. */
function census(/** @type {string} */ file, /** @type {import('node:module').SourceMap | undefined} */ map) {
  const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
  const { meta } = snap.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [types] = meta.node_types;
  const [edgeTypes] = meta.edge_types;
  const { nodes, edges, strings } = snap;
  const count = nodes.length / nf;
  /** Each node's first edge. */
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + 4] * ef;
    firstEdge[i + 1] = e;
  }
  /** @type {Map<number, [line: number, column: number]>} */
  const locations = new Map();
  for (let i = 0; i < snap.locations.length; i += meta.location_fields.length) locations.set(snap.locations[i] / nf, [snap.locations[i + 2], snap.locations[i + 3]]);
  /** The node an edge named `name` of node `i` leads to. */
  const follow = (/** @type {number} */ i, /** @type {string} */ name) => {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) {
      const t = edgeTypes[edges[e]];
      if (t !== 'element' && t !== 'hidden' && strings[edges[e + 1]] === name) return edges[e + 2] / nf;
    }
    return undefined;
  };
  /** A plain object's first property names: which of the code's object literals it is. */
  const keysOf = (/** @type {number} */ i) => {
    const keys = [];
    for (let e = firstEdge[i]; e < firstEdge[i + 1] && keys.length < 4; e += ef) if (edgeTypes[edges[e]] === 'property') keys.push(strings[edges[e + 1]]);
    return `{ ${keys.join(', ')}${keys.length === 4 ? ', …' : ''} }`;
  };
  /** @type {Census} */
  const c = { kinds: new Map(), closures: new Map(), objects: new Map(), answers: 0 };
  const add = (/** @type {Map<string, Tally>} */ m, /** @type {string} */ k, /** @type {number} */ bytes) => {
    const t = m.get(k) ?? { n: 0, bytes: 0 };
    t.n++;
    t.bytes += bytes;
    m.set(k, t);
  };
  for (let i = 0; i < count; i++) {
    const type = types[nodes[i * nf]];
    const name = strings[nodes[i * nf + 1]];
    const bytes = nodes[i * nf + 3];
    add(c.kinds, kindOf(type, name), bytes);
    if (type === 'object' && name === 'ServerResponse') c.answers++;
    // Objects by constructor, plain ones by their first keys (`system / …` are V8's own).
    if (type === 'object' && !name.startsWith('system /')) add(c.objects, name === 'Object' ? keysOf(i) : name, bytes);
    if (type !== 'closure') continue;
    // A bound function is named for what it binds.
    const fn = name === 'native_bind' ? follow(i, 'bound_function') : i;
    const shared = fn === undefined ? undefined : follow(fn, 'shared');
    const script = shared === undefined ? undefined : follow(shared, 'script_or_debug_info');
    const [line, column] = (fn !== undefined && locations.get(fn)) || [-1, -1];
    const frame = { functionName: fn === undefined ? '' : strings[nodes[fn * nf + 1]], url: script === undefined ? '' : strings[nodes[script * nf + 1]], lineNumber: line, columnNumber: column };
    const label = frame.url ? `${functionOf(frame, map)} ${sourceOf(frame, map)}` : `${frame.functionName || '(anonymous)'} (V8's: a promise's resolve or reject, a builtin)`;
    add(c.closures, `${name === 'native_bind' ? 'bound ' : ''}${label}`, bytes);
  }
  return c;
}

/** `busy` minus `rest`, a call in flight. */
function perCall(/** @type {Map<string, Tally>} */ busy, /** @type {Map<string, Tally>} */ rest, /** @type {number} */ calls) {
  /** @type {Map<string, Tally>} */
  const out = new Map();
  for (const [k, t] of busy) {
    const r = rest.get(k) ?? { n: 0, bytes: 0 };
    out.set(k, { n: (t.n - r.n) / calls, bytes: (t.bytes - r.bytes) / calls });
  }
  return out;
}

/** The last character of a file. */
function lastByte(/** @type {string} */ file) {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(1);
    fs.readSync(fd, buf, 0, 1, Math.max(0, fs.fstatSync(fd).size - 1));
    return buf.toString();
  } finally {
    fs.closeSync(fd);
  }
}

/** A heap snapshot of process `pid`, written into `dir` (its --diagnostic-dir): the file, once whole. */
async function snapshot(/** @type {number} */ pid, /** @type {string} */ dir) {
  const before = new Set(fs.readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    // Whole once it ends its JSON and grows no more (V8 collects first, then writes it in pieces).
    const full = path.join(dir, file);
    let size = -1;
    while (Date.now() < until) {
      const now = fs.statSync(full).size;
      if (now > 0 && now === size && lastByte(full) === '}') return full;
      size = now;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`no heap snapshot of ${pid} in ${dir}`);
}

/**
 * The party's census at rest and under load, a call in flight.
 * @param {string} name @param {{ proc: { pid: number }, url: string }} party @param {string} key @param {string} dir
 * @param {import('node:module').SourceMap | undefined} map @param {'wrk' | 'autocannon'} tool
 */
async function measure(name, party, key, dir, map, tool) {
  const body = chatBody(MODEL);
  await load({ url: party.url, key, connections: 64, seconds: WARMUP_SECONDS, body }, tool);
  await new Promise((r) => setTimeout(r, 2000));
  const rest = census(await snapshot(party.proc.pid, dir), map);
  const loading = load({ url: party.url, key, connections: 64, seconds: SECONDS + 10, body }, tool);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const busy = census(await snapshot(party.proc.pid, dir), map);
  await loading;
  const calls = busy.answers - rest.answers;
  if (calls <= 0) throw new Error(`${name}: no call in flight at the snapshot`);
  return { name, calls, kinds: perCall(busy.kinds, rest.kinds, calls), closures: perCall(busy.closures, rest.closures, calls), objects: perCall(busy.objects, rest.objects, calls) };
}

async function main() {
  await h.ensureBundle();
  const map = bundleMap();
  const tool = loadTool();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-heap-'));
  try {
    const dir = (/** @type {string} */ name) => {
      const d = path.join(work, name);
      fs.mkdirSync(d, { recursive: true });
      return d;
    };
    const flags = (/** @type {string} */ name) => ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir(name)}`];
    const mock = await h.startMock(await h.freePort());
    const port = await h.freePort();
    const dataDir = path.join(work, 'data');
    const appKey = await h.prepareProduct({ port, dataDir, mockUrl: mock.url, password: PASSWORD, model: MODEL, statisticsOff: true, bundle: BUNDLE });
    const gateway = await h.startProduct({ port, dataDir, adminPassword: PASSWORD, logLevel: 'warn', nodeArgs: flags('gateway'), bundle: BUNDLE });
    const bare = await h.startBareProxy(await h.freePort(), mock.url, { nodeArgs: flags('bare') });
    console.log(`Concurrency 64 (${tool}): ${WARMUP_SECONDS} s warm-up, a heap snapshot at rest and one ${SECONDS} s into a load, each proxy in turn…`);
    const b = await measure('bare proxy', bare, 'sk-direct', dir('bare'), map, tool);
    const g = await measure('gateway', gateway, appKey, dir('gateway'), map, tool);
    report(b, g);
  } finally {
    await h.stopAll();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** @param {Awaited<ReturnType<typeof measure>>} bare @param {Awaited<ReturnType<typeof measure>>} gateway */
function report(bare, gateway) {
  const n = (/** @type {Tally | undefined} */ t) => (t ? t.n.toFixed(1) : '0');
  const b = (/** @type {Tally | undefined} */ t) => (t ? `${Math.round(t.bytes)} B` : '0 B');
  const kinds = [...gateway.kinds.keys()].sort((x, y) => (gateway.kinds.get(y)?.bytes ?? 0) - (gateway.kinds.get(x)?.bytes ?? 0));
  const total = (/** @type {Map<string, Tally>} */ m) => [...m].filter(([k]) => !k.startsWith('(')).reduce((a, [, t]) => ({ n: a.n + t.n, bytes: a.bytes + t.bytes }), { n: 0, bytes: 0 });
  const closures = [...gateway.closures].filter(([, t]) => t.n >= 0.5).sort((x, y) => y[1].n - x[1].n);
  const objects = [...gateway.objects].filter(([, t]) => t.n >= 0.5).sort((x, y) => y[1].bytes - x[1].bytes);
  const lines = [
    `## What a call in flight keeps reachable at c=64 (heap snapshots under load minus at rest; ${gateway.calls} calls in flight for the gateway, ${bare.calls} for the bare proxy)`,
    '',
    h.tableRow(['Kind', 'Gateway: objects', 'bytes', 'Bare proxy: objects', 'bytes']),
    h.tableRow(Array(5).fill('---')),
    ...kinds.map((k) => h.tableRow([k, n(gateway.kinds.get(k)), b(gateway.kinds.get(k)), n(bare.kinds.get(k)), b(bare.kinds.get(k))])),
    h.tableRow(['**all but what is left out**', n(total(gateway.kinds)), b(total(gateway.kinds)), n(total(bare.kinds)), b(total(bare.kinds))]),
    '',
    '### The gateway\'s closures a call in flight, by function (at least one call in two)',
    '',
    h.tableRow(['Closures', 'Bytes', 'Function and source']),
    h.tableRow(Array(3).fill('---')),
    ...closures.map(([k, t]) => h.tableRow([t.n.toFixed(1), Math.round(t.bytes), k.replace(/\|/g, '\\|')])),
    '',
    '### The gateway\'s objects a call in flight, by constructor (plain objects by their first keys; at least one call in two), beside the bare proxy\'s',
    '',
    h.tableRow(['Objects', 'Bytes', 'Bare proxy: objects', 'Constructor or keys']),
    h.tableRow(Array(4).fill('---')),
    ...objects.map(([k, t]) => h.tableRow([t.n.toFixed(1), Math.round(t.bytes), n(bare.objects.get(k)), k.replace(/\|/g, '\\|')])),
    '',
    `- Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}; ${new Date().toISOString()}. Both under \`npm start\`'s flags; the statistics job off.`,
    '- A snapshot pauses the process while V8 writes it; the load then finds its connections waiting, not gone.',
  ];
  console.log(`\n${lines.join('\n')}`);
  fs.mkdirSync(OUT, { recursive: true });
  fs.writeFileSync(path.join(OUT, 'heap.md'), `${lines.join('\n')}\n`);
  console.log('\nWritten to bench/out/heap.md');
}

await main();
