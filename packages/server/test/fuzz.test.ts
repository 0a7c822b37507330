// Hostile input (issue 7): every console route (app.consoleRoutes, signed in with a role it allows)
// and every gateway endpoint gets a fixed, seeded set of malformed, oversized, wrong-typed and
// injection-shaped bodies. Never a 5xx, never a stack trace or a source path in the answer; a refused
// call writes nothing (row counts of every table); a hostile but valid value is stored and answered
// as written; the server still answers /health and no prototype got polluted.
import type { RouteInfo } from '../src/http/route-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROUTE_RULES } from './authz-routes';
import { rowCounts, tableNames } from './db-state';
import { settled } from './gateway-fixtures';
import { pauseSchedule } from './stat-fixtures';
import { Client, dialects, signedIn } from './helpers';
import { callRoute, fillParams, readAnswer, type Answer } from './route-call';
import { taskWorld, type TaskWorld } from './task-fixtures';
import { BROKEN_TEXT, HOSTILE_TEXT, fieldVariants, kindOf, pickSome, sample, seeded, shapeOf } from './zod-sample';

const SEED = 20_261_122;
/** Wrong values tried per field (besides one hostile and one broken text for string fields). */
const PER_FIELD = 2;
/**
 * Each run's time budget: ~5,000 console requests took 43–46 s on PostgreSQL alone on a 2-core machine, and
 * past 120 s in the whole suite beside two other test files (a timed-out run's requests still in flight then
 * wrote into the next test's row counts).
 */
const RUN_MS = 300_000;
/** Just over the console's and the gateway's 10 MB body limit. */
const OVER_LIMIT = 'x'.repeat(10 * 1024 * 1024 + 16);
/** Stack frames, source paths and runtime internals must never reach a client. */
// File names are bounded ({1,100}): an unbounded `[\w-]+\.` backtracks quadratically over an answer that
// echoes a 200 KB model name, which blocked the event loop (and the server in it) for minutes.
const INTERNALS = /\n\s+at |node:internal|\/work\/|node_modules|[\w-]{1,100}\.tsx?:\d+|[\w-]{1,100}\.m?js:\d+|\bSqliteError\b|\bkysely\b|syntax error at or near|violates .* constraint/i;

type Raw = { body: string; type?: string; label: string };

/** Broken at the parser: the same for every route, so each route gets a seeded few of them. */
const PARSER_VARIANTS: Raw[] = [
  { label: 'malformed json', body: '{"a":' },
  { label: 'json with NaN', body: '{"id": NaN, "current": Infinity}' },
  { label: 'form', body: 'id=1&name=%3Cb%3E', type: 'application/x-www-form-urlencoded' },
  { label: 'xml', body: '<?xml version="1.0"?><a>1</a>', type: 'application/xml' },
  { label: 'multipart garbage', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n', type: 'multipart/form-data; boundary=zz' },
  { label: 'deep array', body: '['.repeat(100_000) + ']'.repeat(100_000) },
  { label: 'deep object', body: '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) },
  { label: 'empty body', body: '' },
];

/** Parsed fine but the wrong thing: every route's handler sees each of these. */
function shapeVariants(base: unknown): Raw[] {
  const json = JSON.stringify(base ?? {});
  return [
    { label: 'text/plain', body: json, type: 'text/plain' },
    { label: 'array body', body: '[]' },
    { label: 'array of base', body: `[${json}]` },
    { label: 'string body', body: '"\' OR 1=1 --"' },
    { label: 'null body', body: 'null' },
    { label: '__proto__', body: `{"__proto__":{"polluted":1},${json.slice(1)}` },
    { label: 'constructor.prototype', body: `{"constructor":{"prototype":{"polluted":1}},${json.slice(1)}` },
  ];
}

const rawVariants = (base: unknown): Raw[] => [...PARSER_VARIANTS, ...shapeVariants(base)];

const ROLE_ORDER = ['admin', 'reseller', 'user'] as const;

describe.each(dialects)('hostile input on %s', (dialect) => {
  let w: TaskWorld;
  let tables: string[];
  let routes: RouteInfo[];
  let clients: Record<(typeof ROLE_ORDER)[number], Client>;
  const counts = () => rowCounts(w.server, tables);

  beforeAll(async () => {
    w = await taskWorld(dialect);
    const create = async (body: Record<string, unknown>) => {
      const r = await w.admin.post('/api/v1/model/create', { corp: w.corp, is_public: true, is_enable_model_agent: true, ...body });
      if (r.body.code !== 0) throw new Error(`model ${String(body.name)}: ${r.body.message}`);
      return r.body.data.id as string;
    };
    const media = [
      await create({ name: 'emb-test', model: 'emb-test', type: 7, text_quota: { billing_method: 1, prompt_ratio: 1 } }),
      await create({ name: 'img-test', model: 'img-test', type: 2, image_quota: { billing_method: 2, fixed_quota: 50 } }),
      await create({ name: 'tts-test', model: 'tts-test', type: 5, audio_quota: { billing_method: 1, prompt_ratio: 1 } }),
      await create({ name: 'stt-test', model: 'stt-test', type: 6, audio_quota: { billing_method: 1, prompt_ratio: 1 } }),
    ];
    const agent = await w.admin.post('/api/v1/model/agent/create', { corp: w.corp, name: 'media', base_url: w.mock.url, models: media, key: 'sk-mock-media-key', lb_strategy: 1 });
    if (agent.body.code !== 0) throw new Error(`agent: ${agent.body.message}`);
    await settled(w);
    // The statistics job runs when a suite says; its cursor row is no request's doing.
    await pauseSchedule(w.admin);
    // The audit log records attempts by design (failed sign-ins of admins and resellers): not a write of the refused call.
    tables = (await tableNames(w.server)).filter((t) => t !== 'stat_cursors' && t !== 'audit_logs');
    routes = w.server.app.consoleRoutes;
    clients = { admin: w.admin, reseller: w.reseller, user: await signedIn(w.server, 'user', `fuzz-user-${dialect}@example.com`) };
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  /** Problems with one answer beyond the write check: a 5xx, internals in the body. */
  const answerProblems = (what: string, a: Answer): string[] => {
    const out: string[] = [];
    if (a.status >= 500) out.push(`${what}: HTTP ${a.status} ${a.text.slice(0, 200)}`);
    const leak = INTERNALS.exec(a.text);
    if (leak) out.push(`${what}: internals in the answer (${leak[0]}): ${a.text.slice(0, 200)}`);
    return out;
  };

  it('console: no 5xx, no internals, nothing written by a refused call, hostile text kept as written', async () => {
    const rand = seeded(SEED);
    const problems: string[] = [];
    const served = new Set(routes.map((r) => `${r.method} ${r.url}`));
    let requests = 0;
    let verbatim = 0;

    // Row counts after the last refused call: still the counts before the next one (nothing was written).
    let known: Record<string, number> | undefined;
    /** A record each create route made, by prefix: its update route's variants then change a real row. */
    const made = new Map<string, string>();
    const send = async (route: RouteInfo, client: Client, what: string, body: unknown, raw?: Raw): Promise<void> => {
      const before = known ?? (await counts());
      known = undefined;
      let answer: Answer;
      try {
        answer = raw
          ? await readAnswer(await client.raw(route.method, fillParams(route.url), route.method === 'GET' ? undefined : raw.body, raw.type ? { 'content-type': raw.type } : {}))
          : await callRoute(client, route.method, route.url, body);
      } catch (err) {
        problems.push(`${what}: no answer (${String((err as Error).cause ?? err)})`);
        return;
      }
      requests++;
      problems.push(...answerProblems(what, answer));
      const accepted = answer.status === 200 && answer.json?.code === 0;
      if (!accepted && answer.json) {
        const after = await counts();
        known = after;
        const changed = tables.filter((t) => before[t] !== after[t]).map((t) => `${t} ${before[t]}→${after[t]}`);
        if (changed.length) problems.push(`${what}: refused (${answer.json.code} ${answer.json.message}) but wrote ${changed.join(', ')}`);
      }
      // A hostile but valid name is stored and answered exactly as sent.
      if (accepted && !raw && /\/(create|update)$/.test(route.url) && body && typeof body === 'object') {
        const id = route.url.endsWith('/create') ? (answer.json?.data as { id?: unknown } | null)?.id : (body as { id?: unknown }).id;
        const prefix = route.url.replace(/\/(create|update)$/, '');
        if (typeof id === 'string') made.set(prefix, id);
        const detailUrl = `${prefix}/detail`;
        // Passwords are write-only: answered as '' by design.
        const texts = Object.entries(body).filter(([k, v]) => typeof v === 'string' && HOSTILE_TEXT.includes(v) && !k.includes('password'));
        if (typeof id === 'string' && served.has(`GET ${detailUrl}`) && texts.length) {
          const detail = await callRoute(client, 'GET', detailUrl, { id });
          const data = (detail.json?.data ?? {}) as Record<string, unknown>;
          for (const [field, value] of texts) {
            if (field in data && data[field] !== value) problems.push(`${what}: stored ${JSON.stringify(value)} came back as ${JSON.stringify(data[field])}`);
            else if (field in data) verbatim++;
          }
        }
      }
    };

    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const rule = ROUTE_RULES[key];
      if (!rule) continue;
      // Public routes anonymously; the others as the most privileged role they allow (most code paths).
      const role = rule === 'public' ? undefined : ROLE_ORDER.find((r) => rule.includes('*') || rule.includes(r));
      const client = role ? clients[role] : new Client(w.server.url);
      // The sign-out route would end the session every later call needs.
      if (key === 'POST /api/v1/auth/logout') continue;
      const shape = shapeOf(route.schema);
      const sampled = route.schema ? (sample(route.schema) ?? {}) : {};
      const own = route.url.endsWith('/update') ? made.get(route.url.replace(/\/update$/, '')) : undefined;
      const base = own ? { ...(sampled as object), id: own } : sampled;
      if (route.method === 'POST') {
        // A route without a schema reads its body itself (the upload): it gets every broken body.
        const broken = route.schema ? pickSome(rand, PARSER_VARIANTS, 3) : PARSER_VARIANTS;
        for (const raw of [...broken, ...shapeVariants(base)]) await send(route, client, `${key} [${raw.label}]`, undefined, raw);
      } else {
        for (const q of ['?id[]=1&id[]=2', '?id=%00', `?id=${encodeURIComponent("' OR 1=1 --")}`, `?id=${'9'.repeat(5000)}`, '?__proto__[polluted]=1', '?id=..%2F..%2Fetc%2Fpasswd']) {
          const answer = await readAnswer(await client.raw('GET', fillParams(route.url) + q));
          requests++;
          problems.push(...answerProblems(`${key} [query ${q.slice(0, 40)}]`, answer));
        }
      }
      for (const [i, [field, schema]] of Object.entries(shape).entries()) {
        const pool = fieldVariants(schema);
        const values = pickSome(rand, pool, PER_FIELD);
        // Always: one hostile and one unstorable text per string field, and the integer edges per number field.
        const kind = kindOf(schema);
        if (kind === 'string') values.push(HOSTILE_TEXT[i % HOSTILE_TEXT.length], BROKEN_TEXT[i % BROKEN_TEXT.length]);
        if (kind === 'number') values.push(2 ** 31, 1e308, 2 ** 53 + 2);
        for (const value of values) {
          const body = { ...(base as object), [field]: value };
          await send(route, client, `${key} ${field}=${JSON.stringify(value)?.slice(0, 60)}`, body);
        }
      }
    }
    // Over the body limit: a few routes are enough to show the limit answers cleanly.
    for (const key of ['POST /api/v1/app/create', 'POST /api/v1/auth/login', 'POST /api/v1/sys/site/update', 'POST /api/v1/sys/site/upload']) {
      const route = routes.find((r) => `${r.method} ${r.url}` === key)!;
      await send(route, clients.admin, `${key} [over the body limit]`, undefined, { label: 'huge', body: JSON.stringify({ name: OVER_LIMIT }) });
    }
    // An upload over its own 2 MB limit, and one that is no image.
    const upload = routes.find((r) => r.url === '/api/v1/sys/site/upload')!;
    const form = (bytes: string) => `--zz\r\nContent-Disposition: form-data; name="file"; filename="../../x.png"\r\nContent-Type: image/png\r\n\r\n${bytes}\r\n--zz--\r\n`;
    for (const [label, bytes] of [['3 MB file', 'p'.repeat(3 * 1024 * 1024)], ['not an image', '<svg onload=alert(1)>']]) {
      await send(upload, clients.admin, `upload [${label}]`, undefined, { label, body: form(bytes), type: 'multipart/form-data; boundary=zz' });
    }

    console.log(`console fuzz: ${requests} requests, ${verbatim} hostile names read back`);
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(routes.length * 10);
    // Some hostile names were accepted and read back (the verbatim check ran at all).
    expect(verbatim).toBeGreaterThan(40);
    expect((await fetch(`${w.server.url}/health`)).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, RUN_MS);

  it('gateway: no 5xx of its own, no internals, a refused call costs nothing and writes nothing', async () => {
    const rand = seeded(SEED + 1);
    const problems: string[] = [];
    const db = w.server.app.ctx.db;
    const quotaSum = async () => Number((await db.selectFrom('users').select((eb) => eb.fn.sum<number | string>('quota').as('q')).executeTakeFirstOrThrow()).q);
    let requests = 0;

    const send = async (what: string, method: string, path: string, body?: string | Buffer, type = 'application/json', auth = `Bearer ${w.key}`) => {
      await w.flush();
      const before = await counts();
      const quota = await quotaSum();
      let answer: Answer;
      try {
        answer = await readAnswer(await fetch(`${w.server.url}${path}`, { method, headers: { authorization: auth, ...(body !== undefined ? { 'content-type': type } : {}) }, body }));
      } catch (err) {
        problems.push(`${what}: no answer (${String((err as Error).cause ?? err)})`);
        return;
      }
      requests++;
      // An accepted task was charged its estimate, and its end moves the difference (a refund, mostly): ended
      // here, not by the app's own 5-second poll in the middle of a later refused call's balance check.
      const task = answer.json as unknown as { object?: unknown; id?: unknown } | undefined;
      const taskId = task?.object === 'task' ? task.id : undefined;
      if (answer.status < 400 && method === 'POST' && typeof taskId === 'string') await w.untilEnded(taskId);
      const code = (answer.json as unknown as { error?: { code?: string } } | undefined)?.error?.code;
      // 502/503 relay an upstream's own failure; a 500 or internal_error would be the gateway's.
      if (answer.status === 500 || code === 'internal_error') problems.push(`${what}: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
      const leak = INTERNALS.exec(answer.text);
      if (leak) problems.push(`${what}: internals in the answer (${leak[0]}): ${answer.text.slice(0, 200)}`);
      if (answer.status >= 400) {
        await w.flush();
        const after = await counts();
        // A call that reached the upstream and failed is logged (never charged); nothing else changes.
        const changed = tables.filter((t) => t !== 'call_logs' && before[t] !== after[t]).map((t) => `${t} ${before[t]}→${after[t]}`);
        if (changed.length) problems.push(`${what}: refused (${answer.status}) but wrote ${changed.join(', ')}`);
        const spent = quota - (await quotaSum());
        if (spent !== 0) problems.push(`${what}: refused (${answer.status}) but charged ${spent}`);
      }
    };

    const wavFile = Buffer.concat([Buffer.from('RIFF\x24\x7d\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x80\x3e\x00\x00\x00\x7d\x00\x00\x02\x00\x10\x00data\x00\x7d\x00\x00', 'latin1'), Buffer.alloc(32_000)]);
    const multipart = (fields: Record<string, string>, file?: Buffer, boundary = 'fuzzboundary') => {
      const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
      const head = Buffer.from(parts.join(''), 'utf8');
      const filePart = file ? Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`), file, Buffer.from('\r\n')]) : Buffer.alloc(0);
      return Buffer.concat([head, filePart, Buffer.from(`--${boundary}--\r\n`)]);
    };

    const endpoints: [string, Record<string, unknown>][] = [
      ['/v1/chat/completions', { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 }],
      ['/v1/completions', { model: 'gpt-test', prompt: 'hi', max_tokens: 8 }],
      ['/v1/embeddings', { model: 'emb-test', input: 'hi' }],
      ['/v1/moderations', { model: 'emb-test', input: 'hi' }],
      ['/v1/images/generations', { model: 'img-test', prompt: 'a cat', n: 1, size: '1024x1024' }],
      ['/v1/audio/speech', { model: 'tts-test', input: 'hi', voice: 'alloy' }],
      ['/v1/messages', { model: 'gpt-test', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/messages/count_tokens', { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/responses', { model: 'gpt-test', input: 'hi', max_output_tokens: 16 }],
      ['/v1/rerank', { model: 'emb-test', query: 'hi', documents: ['a', 'b'] }],
      ['/v1beta/models/gpt-test:generateContent', { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }],
      ['/v1/tasks/audio', { model: 'ac-test', text: 'hi' }],
      ['/v1/tasks/video', { model: 'dh-test', text: 'hi' }],
      ['/v1/tasks/videosecondcreation', { model: 'vsc-test', video_url: 'https://example.com/v.mp4' }],
    ];
    const pool = fieldVariants(z.string().max(100));
    for (const [path, base] of endpoints) {
      for (const raw of rawVariants(base)) await send(`${path} [${raw.label}]`, 'POST', path, raw.body, raw.type ?? 'application/json');
      for (const field of [...Object.keys(base), 'stream', 'temperature', 'user', ...(path.startsWith('/v1/tasks/') ? ['people_id', 'audio_url', 'duration'] : [])]) {
        for (const value of [...pickSome(rand, pool, PER_FIELD + 1), BROKEN_TEXT[0], HOSTILE_TEXT[0]]) {
          await send(`${path} ${field}=${JSON.stringify(value)?.slice(0, 60)}`, 'POST', path, JSON.stringify({ ...base, [field]: value }));
        }
      }
      if (path === '/v1/chat/completions' || path.startsWith('/v1/messages')) {
        for (const content of [...BROKEN_TEXT, ...HOSTILE_TEXT.slice(0, 3), [{ type: 'text', text: 'a\u0000b' }], [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }], { $gt: '' }]) {
          await send(`${path} content=${JSON.stringify(content).slice(0, 60)}`, 'POST', path, JSON.stringify({ ...base, messages: [{ role: 'user', content }] }));
        }
        for (const role of ['__proto__', 'system\u0000', 123, null]) await send(`${path} role=${JSON.stringify(role)}`, 'POST', path, JSON.stringify({ ...base, messages: [{ role, content: 'hi' }] }));
      }
    }
    // Responses input items and stored-response ids that are no such thing.
    for (const input of [[{ role: 'user', content: [{ type: 'input_text', text: 'a\u0000b' }] }], [{ type: 'function_call_output', call_id: '__proto__', output: { $gt: '' } }], [{ type: '__proto__' }], [null], [{ type: 'reasoning', summary: 'x' }], [{ role: 'user', content: [{ type: 'input_image', image_url: 'file:///etc/passwd' }] }]]) {
      await send(`/v1/responses input=${JSON.stringify(input).slice(0, 60)}`, 'POST', '/v1/responses', JSON.stringify({ model: 'gpt-test', input }));
    }
    for (const id of ['../../etc/passwd', '%00', "' OR 1=1 --", 'x'.repeat(5000), '__proto__', 'resp_x/input_items?limit=-1&order=sideways']) {
      await send(`GET /v1/responses/${id.slice(0, 30)}`, 'GET', `/v1/responses/${id}`);
      await send(`DELETE /v1/responses/${id.slice(0, 30)}`, 'DELETE', `/v1/responses/${id}`);
      await send(`previous_response_id=${id.slice(0, 30)}`, 'POST', '/v1/responses', JSON.stringify({ model: 'gpt-test', input: 'hi', previous_response_id: id }));
    }
    await send('previous_response_id=NUL', 'POST', '/v1/responses', JSON.stringify({ model: 'gpt-test', input: 'hi', previous_response_id: 'resp_\u0000' }));
    for (const path of ['/v1beta/models/..%2F..%2Fadmin:generateContent', '/v1beta/models/gpt-test:__proto__', '/v1beta/models/%00:countTokens', `/v1beta/models/${'x'.repeat(3000)}:generateContent`]) {
      await send(`POST ${path.slice(0, 50)}`, 'POST', path, JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }));
    }
    // Over the body limit.
    await send('/v1/chat/completions [over the body limit]', 'POST', '/v1/chat/completions', JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: OVER_LIMIT }] }));
    // Transcriptions: multipart, broken in every way a form can be.
    const stt = '/v1/audio/transcriptions';
    const form = 'multipart/form-data; boundary=fuzzboundary';
    for (const [label, body, type] of [
      ['valid', multipart({ model: 'stt-test' }, wavFile), form],
      ['no file', multipart({ model: 'stt-test' }), form],
      ['no model', multipart({}, wavFile), form],
      ['hostile model', multipart({ model: "' OR 1=1 --" }, wavFile), form],
      ['NUL model', multipart({ model: 'stt\u0000test' }, wavFile), form],
      ['wrong boundary', multipart({ model: 'stt-test' }, wavFile), 'multipart/form-data; boundary=other'],
      ['no boundary', multipart({ model: 'stt-test' }, wavFile), 'multipart/form-data'],
      ['truncated', multipart({ model: 'stt-test' }, wavFile).subarray(0, 200), form],
      ['garbage', Buffer.from('\x00\x01\x02garbage'), form],
      ['json instead', Buffer.from(JSON.stringify({ model: 'stt-test' })), 'application/json'],
      ['huge field', multipart({ model: 'stt-test', prompt: 'p'.repeat(2_000_000) }, wavFile), form],
    ] as [string, Buffer, string][]) {
      await send(`${stt} [${label}]`, 'POST', stt, body, type);
    }
    // Task ids, model lists and keys that are no such thing.
    for (const id of ['../../etc/passwd', '%00', "' OR 1=1 --", 'x'.repeat(5000), '__proto__', '%2e%2e%2f']) await send(`GET /v1/tasks/${id.slice(0, 30)}`, 'GET', `/v1/tasks/${id}`);
    for (const kind of ['..%2F..%2Fadmin', 'constructor', 'x'.repeat(3000)]) await send(`POST /v1/tasks/${kind.slice(0, 30)}`, 'POST', `/v1/tasks/${kind}`, JSON.stringify({ model: 'ac-test', text: 'hi' }));
    await send('GET /v1/models?x', 'GET', `/v1/models?__proto__[polluted]=1&limit=${'9'.repeat(400)}`);
    for (const id of ['..%2F..%2Fadmin', '%00', '__proto__', 'constructor', 'x'.repeat(5000), 'gpt-test%2F%2F', '%E0%A4%A']) await send(`GET /v1/models/${id.slice(0, 30)}`, 'GET', `/v1/models/${id}`);
    for (const auth of ['', 'Bearer ', "Bearer ' OR 1=1 --", `Bearer ${'k'.repeat(10_000)}`, 'Basic Zm9vOmJhcg==', `Bearer ${w.key}\u00ff`]) {
      await send(`chat with authorization ${JSON.stringify(auth.slice(0, 30))}`, 'POST', '/v1/chat/completions', JSON.stringify(endpoints[0]![1]), 'application/json', auth);
    }

    // Every call log and charge of the run was written as built: a row the database refuses would be set
    // aside by the ledger (billing/ledger-quarantine.ts), still a defect in what the gateway stores.
    await w.flush();
    const ledgerTrouble = (l: string) => l.includes('writing call logs and charges failed') || l.includes('the database refused');
    for (const line of w.server.logs.filter(ledgerTrouble)) problems.push(`ledger: ${line.slice(0, 300)}`);
    console.log(`gateway fuzz: ${requests} requests`);
    expect(problems).toEqual([]);
    expect(requests).toBeGreaterThan(400);
    expect((await fetch(`${w.server.url}/health`)).status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, RUN_MS);
});
