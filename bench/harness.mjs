// @ts-check
// Shared by `npm run bench` and `npm run demo`: starts the mock provider, the product and (for the
// benchmark) the bare reference proxy in their own processes (so none shares an event loop with the load
// generator or with another) and configures the product through the console API, the way an admin and a
// user would in the console.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLE } from '../scripts/fresh-builds.mjs';

export { BUNDLE };
export { ensureBundle, ensureConsole } from '../scripts/fresh-builds.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const at = (/** @type {string[]} */ ...p) => path.join(root, ...p);

/** One row of a Markdown table, as every report here prints them. */
export const tableRow = (/** @type {(string | number)[]} */ cells) => `| ${cells.join(' | ')} |`;

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/** True when something already listens on the port (the demo wants a fixed one). */
export function portInUse(/** @type {number} */ port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * @typedef {object} Proc
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid
 * @property {string[]} lines  stdout + stderr lines seen so far (for log parsing and error reports)
 * @property {Promise<number | null>} exited
 * @property {() => Promise<void>} stop
 */

/**
 * The Node flags `npm start` runs the product with (package.json's start script is their one home), so
 * the benchmark and the demo measure and run what users run.
 * @returns {string[]}
 */
export function startFlags() {
  const start = JSON.parse(fs.readFileSync(at('package.json'), 'utf8')).scripts.start;
  // Valued (`--max-semi-space-size=8`) and plain (`--no-allocation-site-pretenuring`) alike.
  return start.match(/--[\w-]+(?:=\S+)?/g) ?? [];
}

/**
 * "With auth, limits, reservation, settlement and the call log all on" (issue 16): every rate-limit window
 * an app can carry (requests, tokens and per-IP requests; per second, minute and day), at the highest value
 * the console takes, so each call is counted in all of them and none is ever refused.
 */
export const EVERY_LIMIT = Object.fromEntries(['rps', 'rpm', 'rpd', 'tps', 'tpm', 'tpd', 'ips', 'ipm', 'ipd'].map((k) => [k, 1_000_000_000]));

/** Every child started here, so cleanup() can stop them whatever went wrong. */
const children = new Set();

/**
 * Starts a child process and keeps its output lines. `echo` copies warnings/errors to our stderr.
 * @param {string} name
 * @param {string[]} args  arguments to `node`
 * @param {{ env?: NodeJS.ProcessEnv, echo?: (line: string) => boolean, launcher?: string[] }} [opts]  `launcher`: a
 *   command that runs node in the same process (valgrind and its options: bench/instructions.mjs)
 * @returns {Proc}
 */
export function startNode(name, args, opts = {}) {
  const [command, ...prefix] = [...(opts.launcher ?? []), process.execPath];
  const child = spawn(/** @type {string} */ (command), [...prefix, ...args], { cwd: root, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (!child.pid) throw new Error(`${name}: could not start`);
  /** @type {string[]} */
  const lines = [];
  const take = (/** @type {import('node:stream').Readable} */ stream) => {
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (/** @type {string} */ chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        // Bounded: a long load run with a chatty log level must not grow this without end.
        if (lines.length < 5000) lines.push(line);
        if (opts.echo?.(line)) process.stderr.write(`[${name}] ${line}\n`);
      }
    });
  };
  take(/** @type {import('node:stream').Readable} */ (child.stdout));
  take(/** @type {import('node:stream').Readable} */ (child.stderr));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  /** @type {Proc} */
  const proc = {
    child,
    pid: child.pid,
    lines,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // The product closes gracefully (flushes its ledger); give it a moment, then insist.
        const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
        if (!done) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      children.delete(proc);
    },
  };
  children.add(proc);
  return proc;
}

/** Stops every child still running (idempotent). */
export async function stopAll() {
  await Promise.all([...children].map((p) => p.stop()));
}

/** Polls a URL until it answers, failing fast when the process died. */
export async function waitReady(/** @type {Proc} */ proc, /** @type {string} */ url, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  let dead = false;
  proc.exited.then(() => (dead = true));
  while (Date.now() < until) {
    if (dead) throw new Error(`process ${proc.pid} exited before answering ${url}:\n${proc.lines.slice(-20).join('\n')}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no answer from ${url} after ${timeoutMs} ms:\n${proc.lines.slice(-20).join('\n')}`);
}

/** The mock upstream on its own port, in its own process. */
export async function startMock(/** @type {number} */ port) {
  // `node --import tsx` (not the tsx CLI, which forks a second process) so the pid we hold is the server's.
  const proc = startNode('mock', ['--import', 'tsx', at('packages/mock-provider/src/main.ts'), String(port)], { echo: (l) => /error/i.test(l) });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(proc, `${url}/health`);
  return { proc, url };
}

/**
 * The bare reference proxy (bench/bare-proxy.mjs) in its own process, in front of `upstreamUrl`, with the
 * Node flags `npm start` gives the product (so their memory is compared like for like).
 * @param {number} port @param {string} upstreamUrl
 * @param {{ launcher?: string[], readyMs?: number, nodeArgs?: string[] }} [o]  see startNode; how long it may take to answer;
 *   Node flags after `npm start`'s (bench/profile.mjs profiles it)
 */
export async function startBareProxy(port, upstreamUrl, o = {}) {
  const proc = startNode('bare-proxy', [...startFlags(), ...(o.nodeArgs ?? []), at('bench/bare-proxy.mjs'), String(port), upstreamUrl], { echo: (l) => /error/i.test(l), launcher: o.launcher });
  const url = `http://127.0.0.1:${port}`;
  // Passed through to the mock's /health.
  await waitReady(proc, `${url}/health`, o.readyMs);
  return { proc, url };
}

/**
 * The product from its bundle, in its own process, SQLite under dataDir (or PostgreSQL at `databaseUrl`).
 * `env` adds settings on top (e.g. REDIS_URL and a MASTER_KEY shared by several instances).
 * `launcher` and `readyMs` as for startBareProxy; `bundle` another build than BENCH_BUNDLE's or this checkout's (bench/ab.mjs).
 * @param {{ port: number, host?: string, dataDir: string, databaseUrl?: string, adminPassword: string, logLevel: string, webDist?: string, nodeArgs?: string[], env?: Record<string, string>, launcher?: string[], readyMs?: number, bundle?: string }} o
 */
export async function startProduct(o) {
  const env = { ...process.env };
  // A fresh database of ours: whatever the caller's shell points at is not ours to load.
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'MASTER_KEY', 'WEB_DIST']) delete env[name];
  Object.assign(env, {
    DATA_DIR: o.dataDir,
    PORT: String(o.port),
    HOST: o.host ?? '127.0.0.1',
    ADMIN_ACCOUNT: 'admin',
    ADMIN_PASSWORD: o.adminPassword,
    LOG_LEVEL: o.logLevel,
    // A missing folder = API only (config.ts); the benchmark does not serve the console.
    WEB_DIST: o.webDist ?? path.join(o.dataDir, 'no-web'),
    NODE_ENV: 'production',
  });
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  Object.assign(env, o.env);
  const proc = startNode('product', [...startFlags(), ...(o.nodeArgs ?? []), o.bundle ?? process.env.BENCH_BUNDLE ?? BUNDLE], { env, echo: (l) => (/"level":(4|5|6)0/.test(l) && !l.includes('console is not built')) || /^\s*(Error|at )/.test(l), launcher: o.launcher });
  const url = `http://127.0.0.1:${o.port}`;
  await waitReady(proc, `${url}/health`, o.readyMs);
  return { proc, url };
}

/**
 * A data folder made ready for a benchmark's product: the product started in it at log level info (the user's
 * e-mail code is logged there; no mail server), configured (configure(): the bench user with every rate limit),
 * stopped. The caller starts it again as it means to measure it (its log level, flags, launcher). Its app key.
 * @param {{ port: number, dataDir: string, mockUrl: string, password: string, model: string, statisticsOff?: boolean, bundle?: string }} o
 */
export async function prepareProduct(o) {
  const setup = await startProduct({ port: o.port, dataDir: o.dataDir, adminPassword: o.password, logLevel: 'info', bundle: o.bundle });
  const { appKey } = await configure(setup, { mockUrl: o.mockUrl, adminPassword: o.password, model: o.model, userEmail: 'bench@example.com', userPassword: o.password, quota: 1e13, rateLimits: EVERY_LIMIT, statisticsOff: o.statisticsOff });
  await setup.proc.stop();
  return appKey;
}

/** An HTTP client like the console: keeps the XSRF cookie and echoes it in the header. */
export class Client {
  token = '';
  xsrf = '';
  /** @param {string} base */
  constructor(base) {
    this.base = base;
  }

  /** @param {string} url @param {unknown} body @returns {Promise<{code: number, message: string, data: any}>} */
  async post(url, body = {}) {
    if (!this.xsrf) {
      const health = await fetch(`${this.base}/health`);
      const cookie = health.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
      if (cookie) this.xsrf = cookie.split(';')[0].split('=')[1];
    }
    const res = await fetch(this.base + url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'accept-language': 'en-US',
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(this.xsrf ? { cookie: `XSRF-TOKEN=${this.xsrf}`, 'x-xsrf-token': this.xsrf } : {}),
      },
      body: JSON.stringify(body),
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
    if (cookie) this.xsrf = cookie.split(';')[0].split('=')[1];
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`POST ${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
    }
  }

  /** A GET of the console API; throws unless it answered code 0. @param {string} url */
  async get(url) {
    const res = await fetch(this.base + url, { headers: { 'accept-language': 'en-US', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) } });
    const r = /** @type {{code: number, message: string, data: any}} */ (await res.json());
    if (r.code !== 0) throw new Error(`GET ${url}: ${r.code} ${r.message}`);
    return r.data;
  }

  /** Like post() but throws unless the API answered code 0. */
  async ok(/** @type {string} */ url, /** @type {unknown} */ body = {}) {
    const r = await this.post(url, body);
    if (r.code !== 0) throw new Error(`POST ${url}: ${r.code} ${r.message}`);
    return r.data;
  }
}

/** The verification code the product logged for `email` (no mail server is configured). */
async function loggedCode(/** @type {Proc} */ proc, /** @type {string} */ email) {
  for (let i = 0; i < 50; i++) {
    for (const line of [...proc.lines].reverse()) {
      if (!line.includes('mail not sent') || !line.toLowerCase().includes(email.toLowerCase())) continue;
      const code = /mail not sent:.*?\b(\d{6})\b/.exec(line)?.[1];
      if (code) return code;
    }
    await sleep(100);
  }
  throw new Error(`no verification code for ${email} in the product's log (is LOG_LEVEL below info?)`);
}

/**
 * Configures a running product as a newcomer would: as admin a corp, a priced model and a model agent
 * pointing at the mock; then a user registered by email code, recharged by the admin with `quota`
 * (a deal record, as every balance must have: `npm run ledger:verify` holds on the result); then that
 * user's app with its key, under `rateLimits` when given (the app's limits: rps, rpm, tpm, …).
 * @param {{ proc: Proc, url: string }} product
 * `statisticsOff` switches the statistics job off (default: BENCH_STATS_OFF).
 * @param {{ mockUrl: string, adminPassword: string, model: string, userEmail: string, userPassword: string, quota: number, corpName?: string, rateLimits?: Record<string, number>, statisticsOff?: boolean }} o
 */
export async function configure(product, o) {
  const admin = new Client(product.url);
  admin.token = (await admin.ok('/api/v1/auth/login', { account: 'admin', password: o.adminPassword, channel: 'admin', method: 'account' })).token;
  // bench/run.mjs's BENCH_STATS_OFF: the statistics job's share of a run, measured by its absence.
  if (o.statisticsOff ?? process.env.BENCH_STATS_OFF) await admin.ok('/api/v1/sys/config/update', { action: 'statistics', statistics: { open: false } });
  // corpName: another vendor name when the store already has an "OpenAI" (bench/logs.mjs on a seeded store).
  const corp = (await admin.ok('/api/v1/corp/create', { name: o.corpName ?? 'OpenAI', code: 'OpenAI', is_public: true })).id;
  const model = (
    await admin.ok('/api/v1/model/create', {
      corp,
      name: o.model,
      model: o.model,
      type: 1,
      is_public: true,
      is_enable_model_agent: true,
      text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 },
    })
  ).id;
  // Two upstream keys, as a real deployment would rotate between.
  await admin.ok('/api/v1/model/agent/create', { corp, name: 'mock', base_url: o.mockUrl, models: [model], key: 'sk-mock-1\nsk-mock-2' });

  const user = new Client(product.url);
  await user.ok('/api/v1/common/email-code', { email: o.userEmail, action: 'register', channel: 'user' });
  const code = await loggedCode(product.proc, o.userEmail);
  user.token = (await user.ok('/api/v1/auth/register', { account: o.userEmail, password: o.userPassword, code, channel: 'user' })).token;
  const { user_id } = await user.get('/api/v1/user/info');
  await admin.ok('/api/v1/admin/user/recharge', { user_id, quota: o.quota });
  const app = await user.ok('/api/v1/app/create', { name: 'Demo-app', is_create_key: true, ...(o.rateLimits ? { rate_limits: o.rateLimits } : {}) });
  if (!app.key) throw new Error(`app/create answered no key: ${JSON.stringify(app)}`);
  return { appKey: /** @type {string} */ (app.key) };
}

/** One chat call through an OpenAI-compatible base URL; throws unless it answers 200 with a choice. */
export async function smokeChat(/** @type {string} */ base, /** @type {string} */ key, /** @type {string} */ model) {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'ping' }] }),
  });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"choices"')) throw new Error(`chat via ${base}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}
