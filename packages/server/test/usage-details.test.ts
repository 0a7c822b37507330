// Usage details and line items (issue 13), through the official SDKs against the mock: cache reads, cache
// writes (Anthropic's 5-minute and 1-hour), reasoning tokens. Each protocol's answer keeps them (chat JSON
// and stream, /v1/messages, /v1/responses, /v1beta), the call log stores them with the price's line items,
// the console's detail and export show them, and the charge is exact to the unit.
import { randomBytes } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LineItem } from '@fastgate/core/entities/call-log';
import { dialects } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);

/** Every test model's prices: input 1, output 2, cache reads 0.25, 5-minute writes 1.25, 1-hour writes 2. */
const PRICES = { billing_method: 1, prompt_ratio: 1, completion_ratio: 2, cached_ratio: 0.25, cache_write_ratio: 1.25, cache_write_1h_ratio: 2 };
const item = (kind: LineItem['kind'], quantity: number, unit_price: number, more: Partial<LineItem> = {}): LineItem => ({ kind, unit: 'token', quantity, unit_price, quota: quantity * unit_price, ...more });
const costOf = (items: LineItem[]) => Math.ceil(items.reduce((s, i) => s + i.quota, 0));

describe.each(dialects)('usage details and line items on %s', (dialect) => {
  let w: World;
  let claude: Anthropic;

  const quota = async () => {
    await w.flush();
    return w.quotaOf(w.user.userId);
  };
  const logOf = async (traceId: string | null | undefined) => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', traceId ?? '').orderBy('attempt', 'desc').executeTakeFirstOrThrow();
  };
  /** The call log of a call: its usage columns, its line items, its charge. */
  const expectLogged = async (traceId: string | null | undefined, items: LineItem[], usage: { cached?: number; written?: number; reasoning?: number }) => {
    const log = await logOf(traceId);
    expect(JSON.parse(log.line_items)).toEqual(items);
    expect(log).toMatchObject({ status: 1, cached_tokens: usage.cached ?? 0, cache_write_tokens: usage.written ?? 0, reasoning_tokens: usage.reasoning ?? 0, total_price: costOf(items) });
    return log;
  };

  async function addModel(corpCode: string, name: string, agent: Record<string, unknown> = {}, textQuota: Record<string, unknown> = PRICES) {
    const corp = (await w.admin.post('/api/v1/corp/create', { name: `${corpCode} ${name}`, code: corpCode, is_public: true })).body.data.id as string;
    const created = await w.admin.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: textQuota });
    if (created.body.code !== 0) throw new Error(created.body.message);
    const made = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${name} agent`, base_url: w.mock.url, models: [created.body.data.id], key: `sk-mock-${name}-key`, lb_strategy: 1, ...agent });
    if (made.body.code !== 0) throw new Error(made.body.message);
  }

  beforeAll(async () => {
    w = await world(dialect, { quota: 10_000_000 });
    await addModel('OpenAI', 'gpt-cache');
    await addModel('Anthropic', 'claude-cache');
    await addModel('Google', 'gemini-cache');
    await addModel('OpenAI', 'resp-cache', { wire_api: 'responses' });
    // A long-context tier from 20 prompt tokens up: any of these prompts passes it.
    await addModel('OpenAI', 'gpt-tier', {}, { ...PRICES, tiers: [{ above_tokens: 20, prompt_ratio: 3, completion_ratio: 5 }] });
    await settled(w);
    claude = new Anthropic({ apiKey: w.key, baseURL: w.server.url, maxRetries: 0 });
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  it('chat JSON keeps cache reads, cache writes and reasoning in its usage; the log prices each (OpenAI upstream)', async () => {
    const before = await quota();
    const content = 'cache me [[mock:cached=100]] [[mock:cache_write=40]] [[mock:reasoning=30]]';
    const { data, response } = await w.openai.chat.completions.create({ model: 'gpt-cache', messages: [{ role: 'user', content }] }).withResponse();
    const [p, a] = [tokens(content), tokens(answer('gpt-cache', 'cache me'))];
    expect(data.usage).toEqual({
      prompt_tokens: p + 140,
      completion_tokens: a + 30,
      total_tokens: p + 140 + a + 30,
      prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 40, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 30, audio_tokens: 0 },
    });
    const items = [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('output', a, 2), item('reasoning', 30, 2)];
    await expectLogged(response.headers.get('x-trace-id'), items, { cached: 100, written: 40, reasoning: 30 });
    expect(costOf(items)).toBe(p + 25 + 50 + 2 * a + 60);
    expect(await quota()).toBe(before - costOf(items));
  });

  it('a chat stream ends with the detailed usage when asked for it, billed the same', async () => {
    const before = await quota();
    const content = 'stream me [[mock:cached=8]] [[mock:reasoning=12]]';
    const { data: stream, response } = await w.openai.chat.completions.create({ model: 'gpt-cache', messages: [{ role: 'user', content }], stream: true, stream_options: { include_usage: true } }).withResponse();
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const [p, a] = [tokens(content), tokens(answer('gpt-cache', 'stream me'))];
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: p + 8,
      completion_tokens: a + 12,
      total_tokens: p + 8 + a + 12,
      prompt_tokens_details: { cached_tokens: 8, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 12, audio_tokens: 0 },
    });
    const items = [item('input', p, 1), item('cached_input', 8, 0.25), item('output', a, 2), item('reasoning', 12, 2)];
    await expectLogged(response.headers.get('x-trace-id'), items, { cached: 8, reasoning: 12 });
    expect(await quota()).toBe(before - costOf(items));
  });

  it('chat over an Anthropic upstream reports its cache writes, 5-minute and 1-hour priced apart', async () => {
    const before = await quota();
    const content = 'claude me [[mock:cached=100]] [[mock:cache_write=40]] [[mock:cache_write_1h=20]]';
    const { data, response } = await w.openai.chat.completions.create({ model: 'claude-cache', messages: [{ role: 'user', content }] }).withResponse();
    const [p, a] = [tokens(content), tokens(answer('claude-cache', 'claude me'))];
    expect(data.usage).toMatchObject({ prompt_tokens: p + 160, completion_tokens: a, prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 60 } });
    const items = [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('cache_write_1h', 20, 2), item('output', a, 2)];
    await expectLogged(response.headers.get('x-trace-id'), items, { cached: 100, written: 60 });
    expect(await quota()).toBe(before - costOf(items));
  });

  it('/v1/messages to Anthropic passes its cache usage through, JSON and stream, and bills each part', async () => {
    const before = await quota();
    const content = 'native me [[mock:cached=100]] [[mock:cache_write=40]] [[mock:cache_write_1h=20]]';
    const { data, response } = await claude.messages.create({ model: 'claude-cache', max_tokens: 100, messages: [{ role: 'user', content }] }).withResponse();
    const [p, a] = [tokens(content), tokens(answer('claude-cache', 'native me'))];
    const usage = { input_tokens: p, cache_read_input_tokens: 100, cache_creation_input_tokens: 60, cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 20 }, output_tokens: a };
    expect(data.usage).toEqual(usage);
    const items = [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('cache_write_1h', 20, 2), item('output', a, 2)];
    await expectLogged(response.headers.get('x-trace-id'), items, { cached: 100, written: 60 });

    const message = await claude.messages.stream({ model: 'claude-cache', max_tokens: 100, messages: [{ role: 'user', content }] }).finalMessage();
    expect(message.usage).toMatchObject(usage);
    expect(await quota()).toBe(before - 2 * costOf(items));
  });

  it('/v1/messages over an OpenAI upstream writes the usage in Anthropic’s terms', async () => {
    const content = 'convert me [[mock:cached=100]] [[mock:cache_write=40]] [[mock:reasoning=30]]';
    const { data, response } = await claude.messages.create({ model: 'gpt-cache', max_tokens: 100, messages: [{ role: 'user', content }] }).withResponse();
    const [p, a] = [tokens(content), tokens(answer('gpt-cache', 'convert me'))];
    // Anthropic's input_tokens leave out cache reads and writes; thinking is inside output_tokens.
    expect(data.usage).toMatchObject({ input_tokens: p, cache_read_input_tokens: 100, cache_creation_input_tokens: 40, cache_creation: { ephemeral_5m_input_tokens: 40, ephemeral_1h_input_tokens: 0 }, output_tokens: a + 30 });
    await expectLogged(response.headers.get('x-trace-id'), [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('output', a, 2), item('reasoning', 30, 2)], { cached: 100, written: 40, reasoning: 30 });
    // The stream's message_delta carries the same billed usage.
    const message = await claude.messages.stream({ model: 'gpt-cache', max_tokens: 100, messages: [{ role: 'user', content }] }).finalMessage();
    expect(message.usage).toMatchObject({ cache_read_input_tokens: 100, cache_creation_input_tokens: 40, output_tokens: a + 30 });
  });

  it('/v1/responses keeps cached, cache-write and reasoning counts, converted from chat and relayed natively', async () => {
    const content = 'respond [[mock:cached=100]] [[mock:cache_write=40]] [[mock:reasoning=30]]';
    const converted = await w.openai.responses.create({ model: 'gpt-cache', input: content }).withResponse();
    const p = tokens(content);
    expect(converted.data.usage).toEqual({
      input_tokens: p + 140,
      input_tokens_details: { cached_tokens: 100, cache_write_tokens: 40 },
      output_tokens: tokens(answer('gpt-cache', 'respond')) + 30,
      output_tokens_details: { reasoning_tokens: 30 },
      total_tokens: p + 140 + tokens(answer('gpt-cache', 'respond')) + 30,
    });
    const native = await w.openai.responses.create({ model: 'resp-cache', input: content }).withResponse();
    const a = tokens(answer('resp-cache', 'respond'));
    expect(native.data.usage).toMatchObject({ input_tokens_details: { cached_tokens: 100, cache_write_tokens: 40 }, output_tokens_details: { reasoning_tokens: 30 } });
    await expectLogged(native.response.headers.get('x-trace-id'), [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('output', a, 2), item('reasoning', 30, 2)], {
      cached: 100,
      written: 40,
      reasoning: 30,
    });
    // Chat over the Responses upstream: the same details, in chat's words.
    const chat = await w.openai.chat.completions.create({ model: 'resp-cache', messages: [{ role: 'user', content }] });
    expect(chat.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 40 }, completion_tokens_details: { reasoning_tokens: 30 } });
  });

  it('Gemini: usageMetadata keeps cached content and thoughts, natively and from a converted answer', async () => {
    const content = 'gemini me [[mock:cached=100]] [[mock:reasoning=30]]';
    const post = (model: string) =>
      fetch(`${w.server.url}/v1beta/models/${model}:generateContent`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': w.key }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: content }] }] }) });
    const p = tokens(content);
    const native = await post('gemini-cache');
    const a = tokens(answer('gemini-cache', 'gemini me'));
    expect(((await native.json()) as { usageMetadata: unknown }).usageMetadata).toEqual({ promptTokenCount: p + 100, candidatesTokenCount: a, totalTokenCount: p + 100 + a + 30, cachedContentTokenCount: 100, thoughtsTokenCount: 30 });
    await expectLogged(native.headers.get('x-trace-id'), [item('input', p, 1), item('cached_input', 100, 0.25), item('output', a, 2), item('reasoning', 30, 2)], { cached: 100, reasoning: 30 });
    // An OpenAI upstream's answer, written as Gemini's: thoughts apart from the candidates' count.
    const converted = (await (await post('gpt-cache')).json()) as { usageMetadata: unknown };
    const b = tokens(answer('gpt-cache', 'gemini me'));
    expect(converted.usageMetadata).toEqual({ promptTokenCount: p + 100, candidatesTokenCount: b, totalTokenCount: p + 100 + b + 30, cachedContentTokenCount: 100, thoughtsTokenCount: 30 });
    // Chat over the Gemini upstream.
    const chat = await w.openai.chat.completions.create({ model: 'gemini-cache', messages: [{ role: 'user', content }] });
    expect(chat.usage).toMatchObject({ prompt_tokens: p + 100, completion_tokens: a + 30, prompt_tokens_details: { cached_tokens: 100 }, completion_tokens_details: { reasoning_tokens: 30 } });
  });

  it('prices the whole call by the context tier its prompt passes', async () => {
    const before = await quota();
    const content = 'a long context prompt [[mock:cached=100]]';
    const { response } = await w.openai.chat.completions.create({ model: 'gpt-tier', messages: [{ role: 'user', content }] }).withResponse();
    const [p, a] = [tokens(content), tokens(answer('gpt-tier', 'a long context prompt'))];
    // The tier sets input and output; cached input keeps the block's 0.25.
    const items = [item('input', p, 3, { tier: 20 }), item('cached_input', 100, 0.25, { tier: 20 }), item('output', a, 5, { tier: 20 })];
    const log = await expectLogged(response.headers.get('x-trace-id'), items, { cached: 100 });
    expect(log).toMatchObject({ prompt_ratio: 3, completion_ratio: 5 });
    expect(await quota()).toBe(before - costOf(items));
  });

  it('the console shows each line item with its price, in the detail and the export', async () => {
    const content = 'console me [[mock:cached=100]] [[mock:cache_write=40]] [[mock:cache_write_1h=20]]';
    const { response } = await claude.messages.create({ model: 'claude-cache', max_tokens: 100, messages: [{ role: 'user', content }] }).withResponse();
    const log = await logOf(response.headers.get('x-trace-id'));
    const p = tokens(content);
    const a = tokens(answer('claude-cache', 'console me'));
    const items = [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('cache_write_1h', 20, 2), item('output', a, 2)];

    const detail = (await w.user.get('/api/v1/log/chat/detail', { id: log.id })).body.data;
    expect(detail.spend).toEqual({
      prompt_tokens: p + 160,
      completion_tokens: a,
      cached_tokens: 100,
      cache_write_tokens: 60,
      reasoning_tokens: 0,
      prompt_ratio: 1,
      completion_ratio: 2,
      discount: 1,
      total_price: costOf(items),
      line_items: items,
    });

    w.user.lang = 'en-US';
    const res = await w.user.raw('POST', '/api/v1/log/chat/export', JSON.stringify({ ids: [log.id] }));
    w.user.lang = 'zh-CN';
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const [head, row] = book.worksheets[0]!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1)) as [string[], unknown[]];
    const cell = (name: string) => row[head.indexOf(name)];
    expect([cell('Cache read tokens'), cell('Cache write tokens'), cell('Reasoning tokens')]).toEqual([100, 60, 0]);
    // $ per 1M tokens = ratio × 2; amounts are quota ÷ 500000.
    expect(cell('Line items')).toBe(
      [
        `Input ${p} × $2 / 1M tokens = $${p / 500_000}`,
        'Cache read 100 × $0.5 / 1M tokens = $0.00005',
        'Cache write (5 min) 40 × $2.5 / 1M tokens = $0.0001',
        'Cache write (1 h) 20 × $4 / 1M tokens = $0.00008',
        `Output ${a} × $4 / 1M tokens = $${(2 * a) / 500_000}`,
      ].join('; '),
    );
  });

  it('shows what it can of stored line items it cannot read (a newer kind, broken JSON), never an error', async () => {
    const { response } = await w.openai.chat.completions.create({ model: 'gpt-cache', messages: [{ role: 'user', content: 'stored' }] }).withResponse();
    const log = await logOf(response.headers.get('x-trace-id'));
    const db = w.server.app.ctx.db;
    const known = JSON.parse(log.line_items) as LineItem[];
    await db.updateTable('call_logs').set({ line_items: JSON.stringify([{ kind: 'teleport', unit: 'token', quantity: 1, unit_price: 1, quota: 1 }, { kind: 'input', unit: 'token', quantity: 'x' }, ...known]) }).where('id', '=', log.id).execute();
    expect((await w.user.get('/api/v1/log/chat/detail', { id: log.id })).body.data.spend.line_items).toEqual(known);
    const exported = await w.user.raw('POST', '/api/v1/log/chat/export', JSON.stringify({ ids: [log.id] }));
    expect(exported.status).toBe(200);
    expect((await exported.arrayBuffer()).byteLength).toBeGreaterThan(0);
    await db.updateTable('call_logs').set({ line_items: '{"broken' }).where('id', '=', log.id).execute();
    expect((await w.user.get('/api/v1/log/chat/detail', { id: log.id })).body.data.spend.line_items).toEqual([]);
  });

  it('refuses malformed cache and tier prices', async () => {
    const corp = (await w.admin.post('/api/v1/corp/create', { name: 'Bad prices', code: 'OpenAI', is_public: true })).body.data.id as string;
    const create = (text_quota: Record<string, unknown>) => w.admin.post('/api/v1/model/create', { corp, name: `bad-${Math.random().toString(36).slice(2, 8)}`, model: 'bad', type: 1, text_quota });
    for (const bad of [
      { ...PRICES, cache_write_ratio: -1 },
      { ...PRICES, cache_write_1h_ratio: 'free' },
      { ...PRICES, tiers: [{ above_tokens: 200_000 }, { above_tokens: 200_000 }] },
      { ...PRICES, tiers: [{ above_tokens: 0 }] },
      { ...PRICES, tiers: [{ above_tokens: 1.5 }] },
      { ...PRICES, tiers: Array.from({ length: 11 }, (_, i) => ({ above_tokens: i + 1 })) },
    ]) {
      const res = await create(bad);
      expect(res.status).toBeLessThan(500);
      expect(res.body.code).not.toBe(0);
    }
    expect((await create({ ...PRICES, tiers: [{ above_tokens: 200_000, prompt_ratio: 3 }] })).body.code).toBe(0);
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('usage details in Redis mode (skipped unless TEST_REDIS_URL is set)', () => {
  let w: World;
  const prefix = `fgtest:usage:${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    w = await world('postgres', { quota: 1_000_000, env: { REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_PREFIX: prefix }, textQuota: PRICES });
  });
  afterAll(async () => {
    const redis = w?.server.app.ctx.redis?.client;
    const keys = redis ? await redis.keys(`${prefix}*`) : [];
    if (keys.length) await redis!.del(...keys);
    await w?.close();
  });

  it('the line items and usage details reach the call log through the shared journal, charged exactly', async () => {
    const before = await w.quotaOf(w.user.userId);
    const content = 'redis [[mock:cached=100]] [[mock:cache_write=40]] [[mock:reasoning=30]]';
    const { response } = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }] }).withResponse();
    const [p, a] = [tokens(content), tokens(answer('gpt-test', 'redis'))];
    const items = [item('input', p, 1), item('cached_input', 100, 0.25), item('cache_write_5m', 40, 1.25), item('output', a, 2), item('reasoning', 30, 2)];
    await w.flush();
    const log = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', response.headers.get('x-trace-id') ?? '').executeTakeFirstOrThrow();
    expect(JSON.parse(log.line_items)).toEqual(items);
    expect(log).toMatchObject({ cached_tokens: 100, cache_write_tokens: 40, reasoning_tokens: 30, total_price: costOf(items) });
    expect(await w.quotaOf(w.user.userId)).toBe(before - costOf(items));
  });
});
