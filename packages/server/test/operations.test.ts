// Operations: GET /metrics (what it counts, who may read it), GET /ready, the OpenAPI document at
// /api/docs, structured logs with the trace id and without secrets, and graceful shutdown of the real
// entry point (a child process) with streams in flight.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricsAllowed } from '../src/ops/index';
import { gracefulShutdown } from '../src/ops/shutdown';
import { PROVIDER_KEYS, world, type World } from './gateway-fixtures';
import { ADMIN_PASSWORD, admin, dialects, startServer, type TestServer } from './helpers';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Every sample of a Prometheus text answer: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const scrape = async (base: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe.each(dialects)('GET /metrics on %s', (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w?.close());

  it('counts a gateway call: request, upstream attempt, tokens and spend by the values of its call log', async () => {
    const before = samples((await scrape(w.server.url)).text);
    const res = await fetch(`${w.server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'count me in the metrics' }] }),
    });
    expect(res.status).toBe(200);
    await res.json();
    const trace = res.headers.get('x-trace-id')!;
    await w.flush();
    const row = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', trace).executeTakeFirstOrThrow();
    expect(row.prompt_tokens).toBeGreaterThan(0);
    expect(row.total_price).toBeGreaterThan(0);

    const now = await scrape(w.server.url);
    expect(now.status).toBe(200);
    expect(now.type).toContain('text/plain');
    const after = samples(now.text);
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta('fastgate_tokens_total{model="gpt-test",kind="prompt"}')).toBe(row.prompt_tokens);
    expect(delta('fastgate_tokens_total{model="gpt-test",kind="completion"}')).toBe(row.completion_tokens);
    expect(delta('fastgate_spend_quota_total{model="gpt-test"}')).toBe(row.total_price);
    expect(delta('fastgate_call_logs_total{model="gpt-test",status="1"}')).toBe(1);
    expect(delta('fastgate_http_requests_total{face="gateway",method="POST",route="/v1/chat/completions",status="200"}')).toBe(1);
    expect(delta('fastgate_http_request_duration_seconds_count{face="gateway",method="POST",route="/v1/chat/completions",status_class="2xx"}')).toBe(1);
    expect(delta('fastgate_upstream_attempts_total{family="openai",status_class="2xx"}')).toBe(1);

    // Queue depths read at scrape time, from memory and from this dialect's database.
    expect(after.get('fastgate_ledger_pending{kind="logs"}')).toBe(0);
    expect(after.get('fastgate_tasks_pending{status="queued"}')).toBe(0);
    expect(after.get('fastgate_statistics_pending_logs')).toBeGreaterThanOrEqual(1);
    expect(after.get('fastgate_statistics_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(after.get('fastgate_http_requests_in_flight{face="gateway"}')).toBe(0);
    // Process metrics come along; nothing names a user, an app or a key.
    expect(after.has('process_resident_memory_bytes')).toBe(true);
    expect([...after.keys()].filter((k) => /[{,](user|user_id|app|app_id|key|app_key|email|ip)=/.test(k))).toEqual([]);
    for (const secret of [w.key, PROVIDER_KEYS[0]!, 'gw-user-']) expect(now.text).not.toContain(secret);
  });

  it('labels refused calls for models outside the catalogue as `unknown`: a caller cannot grow the label set', async () => {
    const before = samples((await scrape(w.server.url)).text);
    const names = Array.from({ length: 3 }, () => `no-such-model-${Math.random().toString(36).slice(2, 10)}`);
    for (const model of names) {
      const res = await fetch(`${w.server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      await res.text();
    }
    await w.flush();
    const now = await scrape(w.server.url);
    for (const model of names) expect(now.text).not.toContain(model);
    const after = samples(now.text);
    const unknown = [...after].filter(([k]) => k.startsWith('fastgate_call_logs_total{model="unknown"')).reduce((n, [k, v]) => n + v - (before.get(k) ?? 0), 0);
    expect(unknown).toBe(names.length);
  });

  it('counts failed upstream attempts by family and status class', async () => {
    for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, status: 500, error: 'upstream exploded', times: 1 });
    const before = samples((await scrape(w.server.url)).text);
    const r = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'fail twice' }] });
    expect(r.choices).toHaveLength(1);
    const after = samples((await scrape(w.server.url)).text);
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta('fastgate_upstream_errors_total{family="openai",status_class="5xx"}')).toBe(2);
    expect(delta('fastgate_upstream_attempts_total{family="openai",status_class="5xx"}')).toBe(2);
    expect(delta('fastgate_upstream_attempts_total{family="openai",status_class="2xx"}')).toBe(1);
  });
});

describe('who may read /metrics', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { METRICS_TOKEN: 'metrics-secret-token' });
  });
  afterAll(() => server?.close());

  it('answers loopback callers, refuses requests that came through a proxy unless they bring the token', async () => {
    expect((await scrape(server.url)).status).toBe(200);
    const proxied = await scrape(server.url, { 'x-forwarded-for': '203.0.113.7' });
    expect(proxied.status).toBe(403);
    expect(proxied.text).not.toContain('fastgate_');
    expect((await scrape(server.url, { 'x-real-ip': '203.0.113.7' })).status).toBe(403);
    expect((await scrape(server.url, { 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer wrong' })).status).toBe(403);
    expect((await scrape(server.url, { 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer metrics-secret-token' })).status).toBe(200);
  });

  it('decides by the peer address: public peers need the token, private ones do not', () => {
    const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ headers, socket: { remoteAddress } }) as never;
    expect(metricsAllowed(req('203.0.113.9'), undefined)).toBe(false);
    expect(metricsAllowed(req('203.0.113.9'), 't0k')).toBe(false);
    expect(metricsAllowed(req('203.0.113.9', { authorization: 'Bearer t0k' }), 't0k')).toBe(true);
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.10', 'fd00::1']) expect(metricsAllowed(req(ip), undefined)).toBe(true);
    for (const ip of ['172.32.0.1', '8.8.8.8', '2001:db8::1']) expect(metricsAllowed(req(ip), undefined)).toBe(false);
  });
});

describe('GET /ready', () => {
  it('is ready on SQLite, and names the database when PostgreSQL goes away', async () => {
    const lite = await startServer('sqlite');
    try {
      const r = await fetch(`${lite.url}/ready`);
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ ready: true, checks: { database: 'ok' } });
    } finally {
      await lite.close();
    }

    const server = await startServer('postgres');
    try {
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
      // Drop the database under the running app (its connections are terminated with it).
      const url = new URL(server.app.ctx.config.databaseUrl!);
      const name = url.pathname.slice(1);
      url.pathname = '/postgres';
      const c = new pg.Client({ connectionString: url.toString() });
      await c.connect();
      await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await c.end();
      const started = Date.now();
      const down = await fetch(`${server.url}/ready`);
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ ready: false, checks: { database: 'down' } });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(server.logs.some((l) => l.includes('readiness probe failed'))).toBe(true);
      // The process itself is still up.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('GET /ready with Redis', () => {
  it('pings the Redis the instance uses, and names it when it goes away', async () => {
    // A Redis of its own, so this test can stop it.
    const port = await freePort();
    const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    try {
      for (let i = 0; await refused(port); i++) {
        if (i > 50) throw new Error('redis-server did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
      const server = await startServer('sqlite', { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: `fg-ops-${process.pid}:` });
      try {
        const ok = await fetch(`${server.url}/ready`);
        expect(ok.status).toBe(200);
        expect(await ok.json()).toEqual({ ready: true, checks: { database: 'ok', redis: 'ok' } });
        redis.kill('SIGKILL');
        await new Promise((r) => redis.once('exit', r));
        const started = Date.now();
        const down = await fetch(`${server.url}/ready`);
        expect(down.status).toBe(503);
        expect(await down.json()).toEqual({ ready: false, checks: { database: 'ok', redis: 'down' } });
        expect(Date.now() - started).toBeLessThan(3000);
      } finally {
        await server.close();
      }
    } finally {
      if (redis.exitCode === null) redis.kill('SIGKILL');
    }
  });
});

describe('the OpenAPI document', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
  });
  afterAll(() => server?.close());

  it('is valid OpenAPI 3.1 with every console route, its roles and its input schema, and the gateway', async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const doc = JSON.parse(text);
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);

    const routes = server.app.consoleRoutes;
    expect(routes.length).toBeGreaterThan(100);
    for (const r of routes) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url}`).toBeTruthy();
      expect(op['x-roles']).toEqual(r.public ? [] : r.roles);
    }
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);

    // Spot checks: a body schema from zod, a query from zod, a public route, a path parameter, the gateway.
    const create = doc.paths['/api/v1/corp/create'].post;
    expect(create['x-roles']).toEqual(['admin']);
    expect(create.security).toEqual([{ session: [] }]);
    const body = create.requestBody.content['application/json'].schema;
    expect(body.type).toBe('object');
    expect(body.properties.name.type).toBe('string');
    expect(body.required).toContain('name');
    const detail = doc.paths['/api/v1/corp/detail'].get;
    expect(detail.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'query', required: true })]));
    const login = doc.paths['/api/v1/auth/login'].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('password');
    expect(doc.paths['/api/v1/corp/page'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/PageEnvelope');
    expect(doc.paths['/api/v1/dashboard/call/data/{days}'].get.parameters[0]).toMatchObject({ name: 'days', in: 'path' });
    for (const p of ['/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/images/generations', '/v1/audio/speech', '/v1/audio/transcriptions', '/v1/moderations', '/v1/messages', '/v1/messages/count_tokens']) {
      expect(doc.paths[p].post, p).toBeTruthy();
    }
    expect(doc.paths['/v1/models'].get).toBeTruthy();
    expect(doc.paths['/v1/tasks/{task}'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/TaskSubmit');
    expect(doc.components.schemas.TaskSubmit.properties.model.type).toBe('string');
    expect(doc.components.schemas.ChatCompletionRequest.required).toEqual(['model', 'messages']);

    // Public, and the same bytes the second time (built once).
    expect(await (await fetch(`${server.url}/api/docs`)).text()).toBe(text);
  });

  it('has a self-contained HTML viewer', async () => {
    const res = await fetch(`${server.url}/api/docs/ui`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain("fetch('/api/docs')");
    expect(html).not.toMatch(/<script[^>]+src=|https?:\/\/(?!json-schema)/);
  });
});

describe('structured logs', () => {
  let w: World;
  beforeAll(async () => {
    w = await world('sqlite');
  });
  afterAll(() => w?.close());

  it('tag every line of a gateway call with its trace id and never carry the app key or a provider key', async () => {
    for (const key of PROVIDER_KEYS) w.mock.faults.add({ key, status: 500, error: 'upstream exploded', times: 1 });
    const res = await fetch(`${w.server.url}/v1/chat/completions?key=${w.key}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'log me' }] }),
    });
    expect(res.status).toBe(200);
    await res.json();
    const trace = res.headers.get('x-trace-id')!;
    expect(trace).toMatch(/^[0-9a-f]{32}$/);
    await w.flush();
    const rows = await w.server.app.ctx.db.selectFrom('call_logs').select('trace_id').where('trace_id', '=', trace).execute();
    expect(rows.length).toBe(3);

    const lines = w.server.logs.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = lines.filter((l) => l.trace_id === trace);
    const messages = mine.map((l) => l.msg);
    expect(messages.filter((m) => m === 'upstream attempt failed')).toHaveLength(2);
    expect(mine.find((l) => l.msg === 'request')).toMatchObject({ method: 'POST', path: '/v1/chat/completions', route: '/v1/chat/completions', status: 200 });
    // Gateway lines carry trace_id, never a bare req_id.
    expect(lines.filter((l) => typeof l.path === 'string' && (l.path as string).startsWith('/v1/') && !l.trace_id)).toEqual([]);

    const all = w.server.logs.join('');
    for (const secret of [w.key, ...PROVIDER_KEYS, ADMIN_PASSWORD]) expect(all).not.toContain(secret);
  });

  it('tag console lines with the request id the caller sees, and log paths without their query', async () => {
    const a = await admin(w.server);
    const res = await a.raw('GET', '/api/v1/corp/list?token=session-token-in-query');
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const line = w.server.logs
      .flatMap((chunk) => chunk.split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.req_id === id && l.msg === 'request');
    expect(line).toMatchObject({ method: 'GET', path: '/api/v1/corp/list', route: '/api/v1/corp/list', status: 200 });
    expect(w.server.logs.join('')).not.toContain('session-token-in-query');
    expect(w.server.logs.join('')).not.toContain(a.token);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const sock = net.connect(port, '127.0.0.1');
    sock.once('connect', () => {
      sock.destroy();
      resolve(false);
    });
    sock.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

/** Reads an SSE answer to its end: the text of its chunks and whether [DONE] came. */
async function readStream(res: Response, onFirst: () => void): Promise<{ text: string; done: boolean }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let raw = '';
  let first = true;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      raw += decoder.decode(value, { stream: true });
      if (first && raw.includes('data: {')) {
        first = false;
        onFirst();
      }
    }
  } catch {
    // Cut by the server: what arrived is what counts.
  }
  const text = raw
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
    .join('');
  return { text, done: raw.includes('data: [DONE]') };
}

describe('graceful shutdown', () => {
  it('closes as soon as the last stream ends, not when idle keep-alive connections time out', async () => {
    const w = await world('sqlite');
    const dataDir = w.server.app.ctx.config.dataDir;
    try {
      // Keep-alive connections in the client's pool: one idle, one carrying the stream.
      expect((await fetch(`${w.server.url}/health`)).status).toBe(200);
      const res = await fetch(`${w.server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: '[[mock:chunks=6]] [[mock:chunk_delay=100]] drain me' }] }),
      });
      const exit: number[] = [];
      const shutdown = gracefulShutdown(w.server.app, 30_000, (code) => exit.push(code, Date.now()));
      // SIGTERM once the first chunk arrived: the stream is in flight.
      const stream = await readStream(res, () => void shutdown('SIGTERM'));
      const endAt = Date.now();
      expect(stream.done).toBe(true);
      for (let i = 0; !exit.length && i < 250; i++) await new Promise((r) => setTimeout(r, 20));
      expect(exit[0]).toBe(0);
      // Far under the idle keep-alive connections' timeout (Fastify's 72 s), with room for a loaded machine's
      // close (the ledger's last batch, the writer thread): one clean-clone CI run took 1.54 s.
      expect(exit[1]! - endAt).toBeLessThan(5000);
      expect(w.server.app.ops.draining).toBe(true);
      expect(w.server.logs.join('')).toContain('shut down cleanly');
    } finally {
      await w.mock.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('graceful shutdown of the real entry point', () => {
  it('on SIGTERM stops accepting, finishes a stream in flight, cuts one past the timeout, writes both calls and exits 0', async () => {
    const w = await world('sqlite');
    const dataDir = w.server.app.ctx.config.dataDir;
    await w.server.app.close();
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.join(here, '..'),
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_S: '3', WEB_DIST: path.join(dataDir, 'no-web'), ADMIN_ACCOUNT: 'admin', ADMIN_PASSWORD },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
    try {
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        if ((await fetch(`${base}/health`).catch(() => undefined))?.ok) break;
        if (i > 150) throw new Error(`the server did not start:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const stream = (directive: string) =>
        fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-test', stream: true, messages: [{ role: 'user', content: `${directive} tell me a long story` }] }),
        });
      // One stream ends within the drain time (8 chunks, 150 ms apart); the other stalls after 2 chunks.
      const [short, long] = await Promise.all([stream('[[mock:chunks=8]] [[mock:chunk_delay=150]]'), stream('[[mock:stall_after=2]] [[mock:chunk_delay=50]]')]);
      expect(short.status).toBe(200);
      expect(long.status).toBe(200);
      let started = 0;
      let signalled = 0;
      const onFirst = () => {
        if (++started === 2) {
          signalled = Date.now();
          child.kill('SIGTERM');
        }
      };
      const reading = Promise.all([readStream(short, onFirst), readStream(long, onFirst)]);
      await new Promise((r) => setTimeout(r, 400));
      expect(signalled).toBeGreaterThan(0);
      expect(await refused(port)).toBe(true);
      const [a, b] = await reading;
      expect(a.done).toBe(true);
      expect(b.done).toBe(false);
      const { code, at } = await exited;
      expect(code).toBe(0);
      // Cut at the 3 s timeout, not held open by keep-alive connections.
      expect(at - signalled).toBeGreaterThan(2500);
      expect(at - signalled).toBeLessThan(8000);

      const lines = out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
      const msgs = lines.map((l) => l.msg);
      expect(msgs).toEqual(expect.arrayContaining([expect.stringContaining('shutting down'), expect.stringContaining('shutdown timeout'), 'shut down cleanly']));
      const traces = [short.headers.get('x-trace-id')!, long.headers.get('x-trace-id')!];
      for (const t of traces) expect(lines.some((l) => l.trace_id === t && l.msg === 'request')).toBe(true);

      // Both calls were written before the process ended: the finished one whole, the cut one as
      // aborted and charged for what was delivered; the user's balance paid exactly their sum.
      const db = new SQLite(path.join(dataDir, 'fastgate.db'), { readonly: true });
      try {
        const rows = traces.map((t) => db.prepare('select status, completion_tokens, total_price from call_logs where trace_id = ?').get(t) as { status: number; completion_tokens: number; total_price: number });
        expect(rows[0]).toMatchObject({ status: 1 });
        expect(rows[1]).toMatchObject({ status: 2 });
        expect(rows[0]!.completion_tokens).toBeGreaterThan(0);
        expect(rows[1]!.total_price).toBeGreaterThan(0);
        const user = db.prepare('select quota, used_quota from users where user_id = ?').get(w.user.userId) as { quota: number; used_quota: number };
        expect(user.used_quota).toBe(rows[0]!.total_price + rows[1]!.total_price);
      } finally {
        db.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await w.mock.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
