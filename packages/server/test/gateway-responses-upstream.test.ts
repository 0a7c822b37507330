// Upstreams that speak only the Responses API (model agent wire_api 'responses', issue 12): the agent
// setting through the console, then chat and Anthropic /v1/messages calls — JSON, streamed and tool calls
// over two turns — and a Gemini-native call, converted to POST /v1/responses on the mock, billed exactly
// from the mock's usage and logged. Azure agents go to the v1 API's /openai/v1/responses. (The Responses
// ingress sends such agents its body natively: gateway-responses.test.ts.)
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);
/** The models' price: 1 per prompt token, 2 per completion token. */
const price = (prompt: number, completion: number) => prompt + completion * 2;

const chatTool: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const claudeTool = { name: 'get_weather', description: 'The weather of a city', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] } };

describe.each(dialects)('Responses-API upstreams on %s', (dialect) => {
  let w: World;
  let claude: Anthropic;
  let agentId: string;
  let agentBody: Record<string, unknown>;

  /** The user's quota with every pending charge written. */
  const quota = async () => {
    await w.flush();
    return w.quotaOf(w.user.userId);
  };
  const lastLog = async () => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
  };
  /** What the mock was sent, the one request of the call. */
  const upstream = () => {
    expect(w.mock.requests).toHaveLength(1);
    return w.mock.requests[0]! as { path: string; key: string; model: string; body: Record<string, any> };
  };

  async function addModel(corpCode: string, name: string, agent: Record<string, unknown>) {
    const corp = (await w.admin.post('/api/v1/corp/create', { name: `${corpCode} ${name}`, code: corpCode, is_public: true })).body.data.id as string;
    const created = await w.admin.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
    if (created.body.code !== 0) throw new Error(created.body.message);
    const body = { corp, name: `${name} agent`, base_url: w.mock.url, models: [created.body.data.id], key: `sk-mock-${name}-key`, ...agent };
    const made = await w.admin.post('/api/v1/model/agent/create', body);
    if (made.body.code !== 0) throw new Error(made.body.message);
    return { id: made.body.data.id as string, body };
  }

  beforeAll(async () => {
    w = await world(dialect);
    ({ id: agentId, body: agentBody } = await addModel('OpenAI', 'resp-test', { wire_api: 'responses' }));
    await addModel('Azure', 'azure-resp', { wire_api: 'responses' });
    await settled(w);
    claude = new Anthropic({ apiKey: w.key, baseURL: w.server.url, maxRetries: 0 });
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  describe('the agent setting', () => {
    it("defaults to 'chat', keeps 'responses' through detail, page and update, and refuses anything else", async () => {
      expect((await w.admin.get('/api/v1/model/agent/detail', { id: w.agent })).body.data.wire_api).toBe('chat');
      expect((await w.admin.get('/api/v1/model/agent/detail', { id: agentId })).body.data.wire_api).toBe('responses');
      const page = await w.admin.post('/api/v1/model/agent/page', { name: 'resp-test agent' });
      expect(page.body.data.items.map((a: { wire_api: string }) => a.wire_api)).toEqual(['responses']);
      const bad = await w.admin.post('/api/v1/model/agent/update', { ...agentBody, id: agentId, key: '', wire_api: 'grpc' });
      expect(bad.body.code).not.toBe(0);
      expect((await w.admin.get('/api/v1/model/agent/detail', { id: agentId })).body.data.wire_api).toBe('responses');
      // Switched to chat, the same model goes to /v1/chat/completions; switched back, to /v1/responses.
      const keyIds = (await w.admin.get('/api/v1/model/agent/detail', { id: agentId })).body.data.keys.map((k: { id: string }) => k.id);
      for (const [wire, path] of [['chat', '/v1/chat/completions'], ['responses', '/v1/responses']] as const) {
        const r = await w.admin.post('/api/v1/model/agent/update', { ...agentBody, id: agentId, key: '', key_ids: keyIds, wire_api: wire });
        expect(r.body.code).toBe(0);
        await settled(w);
        w.mock.requests.length = 0;
        await w.openai.chat.completions.create({ model: 'resp-test', messages: [{ role: 'user', content: 'which way?' }] });
        expect(upstream().path).toBe(path);
      }
    });
  });

  describe('POST /v1/chat/completions', () => {
    it('answers from /v1/responses, billed exactly from the upstream usage and logged', async () => {
      const before = await quota();
      const r = await w.openai.chat.completions.create({ model: 'resp-test', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'ping' }], max_tokens: 64, temperature: 0.5, n: 1, stop: ['x'] });
      const text = answer('resp-test', 'ping');
      expect(r).toMatchObject({ object: 'chat.completion', model: 'resp-test', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] });
      const sent = upstream();
      expect(sent).toMatchObject({ path: '/v1/responses', key: 'sk-mock-resp-test-key', model: 'resp-test' });
      // A Responses body: instructions, input items, no chat-only fields, nothing stored upstream.
      expect(sent.body).toEqual({ model: 'resp-test', instructions: 'Be brief.', input: [{ type: 'message', role: 'user', content: 'ping' }], max_output_tokens: 64, temperature: 0.5, store: false });
      // The mock counts the instructions and the input.
      const prompt = tokens('Be brief.\nping');
      expect(r.usage).toMatchObject({ prompt_tokens: prompt, completion_tokens: tokens(text), total_tokens: prompt + tokens(text) });
      const log = await lastLog();
      expect(log).toMatchObject({ endpoint: '/v1/chat/completions', model: 'resp-test', status: 1, stream: 0, prompt_tokens: prompt, completion_tokens: tokens(text), total_price: price(prompt, tokens(text)) });
      expect(await w.quotaOf(w.user.userId)).toBe(before - price(prompt, tokens(text)));
    });

    it('streams the Responses events as chat chunks with usage, billed the same way', async () => {
      const before = await quota();
      const stream = await w.openai.chat.completions.create({ model: 'resp-test', messages: [{ role: 'user', content: 'hi there' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage: OpenAI.CompletionUsage | null | undefined;
      let finish: string | null | undefined;
      let chunks = 0;
      for await (const chunk of stream) {
        chunks++;
        expect(chunk.model).toBe('resp-test');
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text).toBe(answer('resp-test', 'hi there'));
      expect(chunks).toBeGreaterThan(4);
      expect(finish).toBe('stop');
      expect(upstream()).toMatchObject({ path: '/v1/responses', body: { stream: true, store: false } });
      expect(upstream().body).not.toHaveProperty('stream_options');
      const prompt = tokens('hi there');
      expect(usage).toMatchObject({ prompt_tokens: prompt, completion_tokens: tokens(text) });
      expect(await lastLog()).toMatchObject({ stream: 1, status: 1, total_price: price(prompt, tokens(text)) });
      expect(await w.quotaOf(w.user.userId)).toBe(before - price(prompt, tokens(text)));
    });

    it('calls a tool and continues over two turns, JSON then streamed', async () => {
      const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'What is the weather in Paris?' };
      const first = await w.openai.chat.completions.create({ model: 'resp-test', messages: [question], tools: [chatTool], tool_choice: 'auto' });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
      // The call id is the upstream's call_id, so the tool result finds its call again.
      expect(call.id).toMatch(/^call_[0-9a-f]{32}$/);
      expect(upstream().body).toMatchObject({ tools: [{ type: 'function', name: 'get_weather', parameters: chatTool.function.parameters, strict: false }], tool_choice: 'auto' });

      w.mock.requests.length = 0;
      const messages: OpenAI.ChatCompletionMessageParam[] = [question, first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: '{"temp":21}' }];
      const second = await w.openai.chat.completions.create({ model: 'resp-test', messages, tools: [chatTool] });
      expect(second.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: answer('resp-test', '{"temp":21}') } });
      expect(upstream().body.input).toEqual([
        { type: 'message', role: 'user', content: 'What is the weather in Paris?' },
        { type: 'function_call', call_id: call.id, name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: call.id, output: '{"temp":21}' },
      ]);
      // Billed from the upstream's usage: the prompt is the question and the tool output (the mock's rule).
      const prompt = tokens('What is the weather in Paris?\n\n{"temp":21}');
      expect(await lastLog()).toMatchObject({ prompt_tokens: prompt, total_price: price(prompt, tokens(answer('resp-test', '{"temp":21}'))) });

      // Streamed: the call arrives as deltas the SDK assembles.
      w.mock.requests.length = 0;
      const streamed = await w.openai.chat.completions.stream({ model: 'resp-test', messages: [question], tools: [chatTool] }).finalChatCompletion();
      expect(streamed.choices[0]!.finish_reason).toBe('tool_calls');
      const sc = streamed.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(sc.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
      expect(sc.id).toMatch(/^call_/);
      expect(upstream()).toMatchObject({ path: '/v1/responses', body: { stream: true } });
    });

    it("relays an upstream error in OpenAI's shape and ends a broken stream with an error", async () => {
      await expect(w.openai.chat.completions.create({ model: 'resp-test', messages: [{ role: 'user', content: '[[mock:status=400]] [[mock:error=Bad input here]]' }] })).rejects.toMatchObject({ status: 400 });
      expect(w.mock.requests.every((r) => r.path === '/v1/responses')).toBe(true);
      const before = await quota();
      const got: string[] = [];
      const { data: stream, response } = await w.openai.chat.completions.create({ model: 'resp-test', messages: [{ role: 'user', content: '[[mock:fail_after=2]] a b c d' }], stream: true }).withResponse();
      await expect(
        (async () => {
          for await (const c of stream) got.push(c.choices[0]?.delta.content ?? '');
        })(),
      ).rejects.toThrow(/stream broke/);
      expect(got.join('')).toBe('Hello from ');
      // What reached the client is billed, counted locally; the call is logged as failed.
      await w.flush();
      const log = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', response.headers.get('x-trace-id') ?? '').executeTakeFirstOrThrow();
      expect(log).toMatchObject({ status: -1, stream: 1 });
      expect(log.total_price).toBeGreaterThan(0);
      expect(await quota()).toBe(before - log.total_price);
    });
  });

  describe('POST /v1/messages (Anthropic SDK)', () => {
    it('answers from /v1/responses, JSON and streamed, billed from the upstream usage', async () => {
      const before = await quota();
      const m = await claude.messages.create({ model: 'resp-test', max_tokens: 100, system: 'Be brief.', messages: [{ role: 'user', content: 'ping' }] });
      const text = answer('resp-test', 'ping');
      expect(m).toMatchObject({ type: 'message', role: 'assistant', model: 'resp-test', stop_reason: 'end_turn', content: [{ type: 'text', text }] });
      expect(upstream()).toMatchObject({ path: '/v1/responses', body: { instructions: 'Be brief.', input: [{ type: 'message', role: 'user', content: 'ping' }], max_output_tokens: 100, store: false } });
      const prompt = tokens('Be brief.\nping');
      expect(m.usage).toMatchObject({ input_tokens: prompt, output_tokens: tokens(text) });
      expect(await lastLog()).toMatchObject({ endpoint: '/v1/messages', model: 'resp-test', status: 1, total_price: price(prompt, tokens(text)) });
      expect(await w.quotaOf(w.user.userId)).toBe(before - price(prompt, tokens(text)));

      w.mock.requests.length = 0;
      const final = await claude.messages.stream({ model: 'resp-test', max_tokens: 100, messages: [{ role: 'user', content: 'hi there' }] }).finalMessage();
      expect(final.content).toEqual([expect.objectContaining({ type: 'text', text: answer('resp-test', 'hi there') })]);
      expect(final.usage).toMatchObject({ input_tokens: tokens('hi there'), output_tokens: tokens(answer('resp-test', 'hi there')) });
      expect(upstream()).toMatchObject({ path: '/v1/responses', body: { stream: true } });
      expect(await lastLog()).toMatchObject({ endpoint: '/v1/messages', stream: 1, total_price: price(tokens('hi there'), tokens(answer('resp-test', 'hi there'))) });
    });

    it('uses a tool over two turns, the streamed call assembled by the SDK', async () => {
      const question = { role: 'user' as const, content: 'What is the weather in Paris?' };
      const first = await claude.messages.create({ model: 'resp-test', max_tokens: 100, tools: [claudeTool], messages: [question] });
      expect(first.stop_reason).toBe('tool_use');
      const use = first.content.find((b) => b.type === 'tool_use');
      expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
      expect(upstream().body.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'The weather of a city', parameters: claudeTool.input_schema, strict: false }]);
      if (use?.type !== 'tool_use') throw new Error('no tool_use');

      w.mock.requests.length = 0;
      const second = await claude.messages.create({
        model: 'resp-test',
        max_tokens: 100,
        tools: [claudeTool],
        messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"temp":21}' }] }],
      });
      expect(second).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: answer('resp-test', '{"temp":21}') }] });
      expect(upstream().body.input).toEqual([
        { type: 'message', role: 'user', content: 'What is the weather in Paris?' },
        { type: 'function_call', call_id: use.id, name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: use.id, output: '{"temp":21}' },
      ]);

      const streamed = await claude.messages.stream({ model: 'resp-test', max_tokens: 100, tools: [claudeTool], messages: [question] }).finalMessage();
      expect(streamed.stop_reason).toBe('tool_use');
      expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    });
  });

  it('answers the Gemini-native ingress from /v1/responses too, billed from the upstream usage', async () => {
    const before = await quota();
    const res = await fetch(`${w.server.url}/v1beta/models/resp-test:generateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': w.key },
      body: JSON.stringify({ systemInstruction: { parts: [{ text: 'Be brief.' }] }, contents: [{ role: 'user', parts: [{ text: 'ping' }] }] }),
    });
    expect(res.status).toBe(200);
    const text = answer('resp-test', 'ping');
    const body = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[]; usageMetadata: { promptTokenCount: number; candidatesTokenCount: number } };
    expect(body.candidates[0]!.content.parts.map((p) => p.text).join('')).toBe(text);
    expect(upstream()).toMatchObject({ path: '/v1/responses', body: { instructions: 'Be brief.', input: [{ type: 'message', role: 'user', content: 'ping' }], store: false } });
    const prompt = tokens('Be brief.\nping');
    expect(body.usageMetadata).toMatchObject({ promptTokenCount: prompt, candidatesTokenCount: tokens(text) });
    expect(await quota()).toBe(before - price(prompt, tokens(text)));
  });

  it("sends an Azure agent's calls to the v1 API's /openai/v1/responses with its api-key", async () => {
    const r = await w.openai.chat.completions.create({ model: 'azure-resp', messages: [{ role: 'user', content: 'ping' }] });
    expect(r.choices[0]!.message.content).toBe(answer('azure-resp', 'ping'));
    expect(upstream()).toMatchObject({ path: '/openai/v1/responses', key: 'sk-mock-azure-resp-key', model: 'azure-resp', body: { store: false } });
    expect((w.mock.requests[0] as { headers: Record<string, string> }).headers['api-key']).toBe('sk-mock-azure-resp-key');
  });
});
