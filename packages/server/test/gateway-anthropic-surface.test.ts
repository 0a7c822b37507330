// The Anthropic API's surface around /v1/messages, through the official Anthropic SDK against the real
// app fronting the mock: count_tokens (passed through to Anthropic-family upstreams, counted locally for
// others, never billed or logged), Anthropic's error shape on every /v1/messages* path, real
// input_tokens in message_start of converted streams, and the client's anthropic-* headers upstream.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countChatPrompt } from '../src/billing/tokens';
import { anthropicToChatRequest } from '../src/providers/anthropic/messages';
import { dialects } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);

const tool = { name: 'get_weather', description: 'The weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

describe.each(dialects)('the Anthropic surface of the gateway on %s', (dialect) => {
  let w: World;
  let client: Anthropic;
  let claudeId: string;

  const callLogs = async () => {
    await w.flush();
    const row = await w.server.app.ctx.db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const keyId = async () => (await w.server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', w.appId).executeTakeFirstOrThrow()).id;
  const configureKey = async (settings: Record<string, unknown>) => {
    expect((await w.user.post('/api/v1/app/key/config', { id: await keyId(), ...settings })).body.code).toBe(0);
    await settled(w);
  };

  beforeAll(async () => {
    w = await world(dialect);
    for (const [code, name] of [
      ['Anthropic', 'claude-test'],
      ['Google', 'gemini-test'],
    ] as const) {
      const corp = (await w.admin.post('/api/v1/corp/create', { name: code, code, is_public: true })).body.data.id as string;
      const created = await w.admin.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
      if (created.body.code !== 0) throw new Error(created.body.message);
      if (code === 'Anthropic') claudeId = created.body.data.id;
      const agent = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${code} agent`, base_url: w.mock.url, models: [created.body.data.id], key: `sk-mock-${code.toLowerCase()}-key` });
      if (agent.body.code !== 0) throw new Error(agent.body.message);
    }
    await settled(w);
    client = new Anthropic({ apiKey: w.key, baseURL: w.server.url, maxRetries: 0 });
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  describe('POST /v1/messages/count_tokens', () => {
    it("passes an Anthropic-family model through to the upstream's count_tokens, unbilled and unlogged", async () => {
      const [logs, quota] = [await callLogs(), await w.quotaOf(w.user.userId)];
      const body = { model: 'claude-test', system: 'You are terse.', messages: [{ role: 'user' as const, content: 'How many tokens is this?' }], tools: [tool] };
      const { data, response } = await client.messages.countTokens(body).withResponse();
      // The mock counts system + turns (the same number its messages report as input_tokens).
      expect(data).toEqual({ input_tokens: tokens('You are terse.\nHow many tokens is this?') });
      expect(response.headers.get('x-trace-id')).toBeTruthy();
      expect(w.mock.requests).toHaveLength(1);
      expect(w.mock.requests[0]).toMatchObject({ method: 'POST', path: '/v1/messages/count_tokens', key: 'sk-mock-anthropic-key', model: 'claude-test', body: { ...body, model: 'claude-test' } });
      expect(await callLogs()).toBe(logs);
      expect(await w.quotaOf(w.user.userId)).toBe(quota);
    });

    it("counts locally for other families with the gateway's tokenizer, calling no upstream", async () => {
      const [logs, quota] = [await callLogs(), await w.quotaOf(w.user.userId)];
      const body = { model: 'gpt-test', system: 'You are terse.', messages: [{ role: 'user' as const, content: 'How many tokens is this, with a tool?' }], tools: [tool] };
      const chat = anthropicToChatRequest(body);
      const expected = countChatPrompt(chat.messages, 'gpt-test', chat.tools);
      expect(await client.messages.countTokens(body)).toEqual({ input_tokens: expected });
      // System prompt and tools count: without them the number is smaller.
      expect(expected).toBeGreaterThan(countChatPrompt(anthropicToChatRequest({ messages: body.messages }).messages, 'gpt-test'));
      expect(w.mock.requests).toHaveLength(0);
      expect(await callLogs()).toBe(logs);
      expect(await w.quotaOf(w.user.userId)).toBe(quota);
    });

    it('counts locally when an Anthropic-compatible upstream has no count_tokens (404)', async () => {
      const messages = [{ role: 'user' as const, content: 'no counting here [[mock:status=404]]' }];
      const { input_tokens } = await client.messages.countTokens({ model: 'claude-test', messages });
      expect(input_tokens).toBe(countChatPrompt(anthropicToChatRequest({ messages }).messages, 'claude-test'));
      expect(w.mock.requests.map((r) => r.path)).toEqual(['/v1/messages/count_tokens']);
    });

    it("refuses like /v1/messages, in Anthropic's error shape", async () => {
      const body = { model: 'claude-test', messages: [{ role: 'user' as const, content: 'x' }] };
      await expect(client.messages.countTokens({ ...body, model: 'nope' })).rejects.toMatchObject({ status: 404, error: { type: 'error', error: { type: 'not_found_error' } } });
      const stranger = new Anthropic({ apiKey: 'sk-FastAPInotakey', baseURL: w.server.url, maxRetries: 0 });
      await expect(stranger.messages.countTokens(body)).rejects.toMatchObject({ status: 401, error: { type: 'error', error: { type: 'authentication_error' } } });
      const raw = await fetch(`${w.server.url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-test' }) });
      expect(raw.status).toBe(400);
      expect(await raw.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      // The upstream's own refusal keeps its status and message, and is not retried elsewhere.
      await expect(client.messages.countTokens({ ...body, messages: [{ role: 'user', content: 'x [[mock:status=400]] [[mock:error=prompt is too long]]' }] })).rejects.toMatchObject({
        status: 400,
        error: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } },
      });
      expect(w.mock.requests).toHaveLength(1);
    });

    it("follows the key's model list and rate limit", async () => {
      try {
        // Allowed only gpt-test: claude-test is unknown to this key, as on /v1/messages.
        await configureKey({ models: [w.model] });
        await expect(client.messages.countTokens({ model: 'claude-test', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404, error: { error: { type: 'not_found_error' } } });
        await expect(client.messages.create({ model: 'claude-test', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 404 });
        await configureKey({ models: [w.model, claudeId], rate_limits: { rpm: 2 } });
        await client.messages.countTokens({ model: 'gpt-test', messages: [{ role: 'user', content: 'one' }] });
        await client.messages.countTokens({ model: 'claude-test', messages: [{ role: 'user', content: 'two' }] });
        await expect(client.messages.countTokens({ model: 'gpt-test', messages: [{ role: 'user', content: 'three' }] })).rejects.toMatchObject({ status: 429, error: { error: { type: 'rate_limit_error' } } });
      } finally {
        await configureKey({ models: [], rate_limits: { rpm: 0 } });
      }
    });
  });

  it('answers unknown /v1/messages* paths and methods with Anthropic-shaped 404s', async () => {
    // The SDK's batches API: the gateway does not serve it, and says so the way Anthropic does.
    await expect(client.messages.batches.list()).rejects.toMatchObject({ status: 404, error: { type: 'error', error: { type: 'not_found_error' } } });
    for (const [method, path] of [
      ['POST', '/v1/messages/batches'],
      ['GET', '/v1/messages/batches/msgbatch_01'],
      ['POST', '/v1/messages/nope'],
      ['GET', '/v1/messages'],
      ['DELETE', '/v1/messages/count_tokens'],
    ]) {
      const post = method === 'POST';
      const res = await fetch(`${w.server.url}${path}`, { method, headers: { 'x-api-key': w.key, ...(post ? { 'content-type': 'application/json' } : {}) }, body: post ? '{}' : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json(), `${method} ${path}`).toEqual({ type: 'error', error: { type: 'not_found_error', message: `Unknown request URL: ${method} ${path}.` } });
    }
    // Even a body the gateway cannot parse gets Anthropic's shape there.
    const broken = await fetch(`${w.server.url}/v1/messages/batches`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body: '{oops' });
    expect(await broken.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    // Elsewhere under /v1 the OpenAI shape stays.
    const other = await fetch(`${w.server.url}/v1/nope`, { method: 'POST', headers: { authorization: `Bearer ${w.key}` } });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'unknown_url' } });
  });

  describe('input_tokens in message_start of converted streams', () => {
    const startAndFinal = async (model: string, content: string) => {
      const stream = client.messages.stream({ model, max_tokens: 100, system: 'Answer briefly.', messages: [{ role: 'user', content }] });
      let start: Anthropic.Usage | undefined;
      stream.on('streamEvent', (e) => {
        if (e.type === 'message_start') start = { ...e.message.usage };
      });
      const final = await stream.finalMessage();
      return { start: start!, final: final.usage };
    };

    it("announces the gateway's count of the prompt for an OpenAI-family upstream; message_delta has the upstream's", async () => {
      const content = 'What is the capital of France?';
      const { start, final } = await startAndFinal('gpt-test', content);
      const chat = anthropicToChatRequest({ system: 'Answer briefly.', messages: [{ role: 'user', content }] });
      expect(start).toMatchObject({ input_tokens: countChatPrompt(chat.messages, 'gpt-test'), output_tokens: 0 });
      expect(start.input_tokens).toBeGreaterThan(0);
      // The SDK takes the exact (billed) count from message_delta.
      expect(final.input_tokens).toBe(tokens(`Answer briefly.\n${content}`));
    });

    it("announces the upstream's own count when its first chunk carries usage (Gemini)", async () => {
      const content = 'What is the capital of Spain?';
      const { start, final } = await startAndFinal('gemini-test', content);
      expect(w.mock.requests[0]!.path).toBe('/v1beta/models/gemini-test:streamGenerateContent');
      expect(start).toMatchObject({ input_tokens: tokens(`Answer briefly.\n${content}`), output_tokens: 0 });
      expect(final.input_tokens).toBe(start.input_tokens);
    });
  });

  it("refuses Anthropic's server tools by name when the upstream is not Anthropic, calling no upstream", async () => {
    const request = client.messages.create({ model: 'gpt-test', max_tokens: 64, messages: [{ role: 'user', content: 'search the web' }], tools: [{ type: 'web_search_20250305', name: 'web_search' }] });
    await expect(request).rejects.toMatchObject({ status: 400, error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('web_search_20250305') } } });
    expect(w.mock.requests).toHaveLength(0);
  });

  describe('anthropic-version and anthropic-beta', () => {
    const seen = (path: string) => w.mock.requests.filter((r) => r.path === path).map((r) => [r.headers['anthropic-version'], r.headers['anthropic-beta']]);

    it("forwards the client's headers to an Anthropic-family upstream (messages, stream, count_tokens)", async () => {
      const beta = 'prompt-caching-2024-07-31,token-efficient-tools-2025-02-19';
      const versioned = new Anthropic({ apiKey: w.key, baseURL: w.server.url, maxRetries: 0, defaultHeaders: { 'anthropic-version': '2099-01-01', 'anthropic-beta': beta } });
      const body = { model: 'claude-test', max_tokens: 20, messages: [{ role: 'user' as const, content: 'hi' }] };
      await versioned.messages.create(body);
      await versioned.messages.stream(body).finalMessage();
      expect(seen('/v1/messages')).toEqual([
        ['2099-01-01', beta],
        ['2099-01-01', beta],
      ]);
      await versioned.messages.countTokens({ model: body.model, messages: body.messages });
      expect(seen('/v1/messages/count_tokens')).toEqual([['2099-01-01', beta]]);
    });

    it('sends our version when the client names none, and no anthropic-* header to other families', async () => {
      const post = (path: string, body: unknown) => fetch(`${w.server.url}${path}`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const body = { model: 'claude-test', max_tokens: 20, messages: [{ role: 'user' as const, content: 'hi' }] };
      expect((await post('/v1/messages', body)).status).toBe(200);
      expect((await post('/v1/messages/count_tokens', { model: body.model, messages: body.messages })).status).toBe(200);
      expect([...seen('/v1/messages'), ...seen('/v1/messages/count_tokens')]).toEqual([
        ['2023-06-01', undefined],
        ['2023-06-01', undefined],
      ]);
      await client.messages.create({ ...body, model: 'gpt-test' });
      expect(w.mock.requests.at(-1)).toMatchObject({ path: '/v1/chat/completions' });
      expect(Object.keys(w.mock.requests.at(-1)!.headers).filter((h) => h.startsWith('anthropic-'))).toEqual([]);
    });
  });

  it('sent every answer once and hit no unhandled error', () => {
    expect(w.server.logs.join('')).not.toMatch(/FST_ERR_REP_ALREADY_SENT|unhandled gateway error|Reply was already sent/);
  });
});
