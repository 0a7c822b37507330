// Anthropic's /v1/messages through the official Anthropic SDK: converted onto an OpenAI-family model and
// passed through to an Anthropic one, JSON and streams, billed like chat, errors in Anthropic's shape.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);

describe.each(dialects)('gateway /v1/messages on %s', (dialect) => {
  let w: World;
  let client: Anthropic;

  const logOf = async (traceId: string | null) => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', traceId ?? '').orderBy('attempt', 'desc').executeTakeFirstOrThrow();
  };

  beforeAll(async () => {
    w = await world(dialect);
    const corp = (await w.admin.post('/api/v1/corp/create', { name: 'Anthropic', code: 'Anthropic', is_public: true })).body.data.id as string;
    const created = await w.admin.post('/api/v1/model/create', { corp, name: 'claude-test', model: 'claude-test', type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
    if (created.body.code !== 0) throw new Error(created.body.message);
    await w.admin.post('/api/v1/model/agent/create', { corp, name: 'claude', base_url: w.mock.url, models: [created.body.data.id], key: 'sk-mock-claude-key', lb_strategy: 1 });
    await settled(w);
    // The SDK sends the key as x-api-key.
    client = new Anthropic({ apiKey: w.key, baseURL: w.server.url, maxRetries: 0 });
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  it('converts an Anthropic request for an OpenAI-family model and bills it like chat', async () => {
    const before = await w.quotaOf(w.user.userId);
    const { data, response } = await client.messages.create({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'ping' }] }).withResponse();
    const text = answer('gpt-test', 'ping');
    expect(data).toMatchObject({ type: 'message', role: 'assistant', model: 'gpt-test', stop_reason: 'end_turn', content: [{ type: 'text', text }] });
    expect(data.usage).toMatchObject({ input_tokens: 1, output_tokens: tokens(text) });
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/chat/completions', model: 'gpt-test' });
    const cost = 1 + tokens(text) * 2;
    const log = await logOf(response.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/messages', total_price: cost, prompt: 'ping', completion: text });
    expect(await w.quotaOf(w.user.userId)).toBe(before - cost);
  });

  it('streams a converted answer as Anthropic events', async () => {
    const before = await w.quotaOf(w.user.userId);
    const stream = client.messages.stream({ model: 'gpt-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi there' }] });
    const types: string[] = [];
    stream.on('streamEvent', (e) => types.push(e.type));
    const message = await stream.finalMessage();
    const text = answer('gpt-test', 'hi there');
    expect(message.content).toHaveLength(1);
    expect(message.content[0]).toMatchObject({ type: 'text', text });
    expect(message.model).toBe('gpt-test');
    expect(message.usage.output_tokens).toBe(tokens(text));
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(types).toContain('message_delta');
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before - (2 + tokens(text) * 2));
  });

  it('passes an Anthropic model through natively, JSON and stream', async () => {
    const before = await w.quotaOf(w.user.userId);
    const text = answer('claude-test', 'ping');
    const json = await client.messages.create({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'ping' }] });
    expect(json).toMatchObject({ model: 'claude-test', content: [{ type: 'text', text }], usage: { input_tokens: 1, output_tokens: tokens(text) } });
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/messages', model: 'claude-test', key: 'sk-mock-claude-key' });
    const stream = client.messages.stream({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'ping' }] });
    const message = await stream.finalMessage();
    expect(message.model).toBe('claude-test');
    expect(message.content[0]).toMatchObject({ type: 'text', text });
    expect(message.usage.output_tokens).toBe(tokens(text));
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before - 2 * (1 + tokens(text) * 2));
  });

  it('accepts the key as Bearer too', async () => {
    const res = await fetch(`${w.server.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'yo' }] }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: 'message', content: [{ text: answer('gpt-test', 'yo') }] });
  });

  it("answers errors in Anthropic's shape with the same status, and charges nothing", async () => {
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    await expect(client.messages.create({ model: 'nope', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 404,
      error: { type: 'error', error: { type: 'not_found_error' } },
    });
    const stranger = new Anthropic({ apiKey: 'sk-FastAPInotakey', baseURL: w.server.url, maxRetries: 0 });
    await expect(stranger.messages.create({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({
      status: 401,
      error: { type: 'error', error: { type: 'authentication_error' } },
    });
    const post = (body: string) => fetch(`${w.server.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body });
    const bad = await post('{oops');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    const noMax = await post(JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] }));
    expect(noMax.status).toBe(400);
    const huge = await post(JSON.stringify({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(11 * 1024 * 1024) }] }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ type: 'error', error: { type: 'request_too_large' } });
    // An upstream failure keeps its status, in Anthropic's shape.
    await expect(client.messages.create({ model: 'gpt-test', max_tokens: 10, messages: [{ role: 'user', content: 'x [[mock:status=400]] [[mock:error=prompt is too long]]' }] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long' } },
    });
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before);
  });

  it('ends a stream that breaks midway with an Anthropic error event', async () => {
    for (const model of ['gpt-test', 'claude-test']) {
      const body = { model, max_tokens: 100, stream: true, messages: [{ role: 'user' as const, content: 'one two three four [[mock:fail_after=2]]' }] };
      const res = await fetch(`${w.server.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': w.key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.text();
      expect(text).toContain('event: message_start');
      expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"api_error"/);
      expect(text).not.toContain('message_stop');
      // The SDK surfaces it as an error.
      await expect(client.messages.stream(body).finalMessage()).rejects.toThrow();
      const log = await logOf(res.headers.get('x-trace-id'));
      expect(log).toMatchObject({ status: -1, stream: 1 });
      expect(log.err_msg).toMatch(/stream broke/);
    }
  });

  it('sent every answer once and hit no unhandled error', () => {
    expect(w.server.logs.join('')).not.toMatch(/FST_ERR_REP_ALREADY_SENT|unhandled gateway error|Reply was already sent/);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
