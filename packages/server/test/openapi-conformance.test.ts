// Every answer of the OpenAI-shaped endpoints validates against OpenAI's published OpenAPI schema for
// it (clients/openai-schemas.json, a subset of the description): chat completions and each of their
// stream chunks on every upstream family, completions, models, embeddings, moderations, images,
// responses (JSON, stored, input items, and each streamed event) and error bodies. Raw HTTP, so what
// is validated is exactly what a client receives, not what an SDK made of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from './helpers';
import { settled, world, type World } from './gateway-fixtures';
import { violations } from './clients/openai-schema';

type Json = Record<string, any>;

const FAMILIES = [
  { model: 'gpt-test', corp: 'OpenAI' },
  { model: 'claude-test', corp: 'Anthropic' },
  { model: 'gemini-test', corp: 'Google' },
  { model: 'gpt-wire-responses', corp: 'OpenAI', wire_api: 'responses' },
] as const;
const CHAT_MODELS = FAMILIES.map((f) => f.model);
const weatherTool = { type: 'function', function: { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } };
const responsesTool = { type: 'function', name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }, strict: true };

/** The JSON payloads of an SSE body, [DONE] left out. */
function sseData(text: string): Json[] {
  return text
    .split('\n\n')
    .flatMap((frame) => frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()))
    .filter((d) => d && d !== '[DONE]')
    .map((d) => JSON.parse(d) as Json);
}

describe.each(dialects)('OpenAI OpenAPI conformance on %s', (dialect) => {
  let w: World;

  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${w.server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key ?? w.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };
  /** A 200 JSON answer that conforms to `schema`. */
  const conformingJson = async (schema: string, method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    expect(res.status, res.text).toBe(200);
    const json = JSON.parse(res.text) as Json;
    expect(violations(schema, json).join('\n'), res.text).toBe('');
    return json;
  };
  /** A 200 event stream whose every payload conforms to `schema`. */
  const conformingStream = async (schema: string, path: string, body: Json) => {
    const res = await call('POST', path, body);
    expect(res.status, res.text).toBe(200);
    expect(res.type).toContain('text/event-stream');
    const events = sseData(res.text);
    expect(events.length).toBeGreaterThan(0);
    for (const [i, event] of events.entries()) expect(violations(schema, event).join('\n'), `event ${i}: ${JSON.stringify(event)}`).toBe('');
    return events;
  };

  beforeAll(async () => {
    w = await world(dialect);
    const corps = new Map<string, string>([['OpenAI', w.corp]]);
    const create = async (corp: string, body: Json) => {
      const r = await w.admin.post('/api/v1/model/create', { corp, is_public: true, is_enable_model_agent: true, ...body });
      if (r.body.code !== 0) throw new Error(`model ${String(body.name)}: ${r.body.message}`);
      return r.body.data.id as string;
    };
    for (const f of FAMILIES.slice(1)) {
      if (!corps.has(f.corp)) corps.set(f.corp, (await w.admin.post('/api/v1/corp/create', { name: f.corp, code: f.corp, is_public: true })).body.data.id);
      const corp = corps.get(f.corp)!;
      const id = await create(corp, { name: f.model, model: f.model, type: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
      const agent = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${f.model} agent`, base_url: w.mock.url, models: [id], key: `sk-mock-${f.model}-key`, ...('wire_api' in f ? { wire_api: f.wire_api } : {}) });
      if (agent.body.code !== 0) throw new Error(agent.body.message);
    }
    const media = [
      await create(w.corp, { name: 'emb-test', model: 'emb-test', type: 7, text_quota: { billing_method: 1, prompt_ratio: 3 } }),
      await create(w.corp, { name: 'img-test', model: 'img-test', type: 2, image_quota: { billing_method: 2, fixed_quota: 50 } }),
    ];
    const agent = await w.admin.post('/api/v1/model/agent/create', { corp: w.corp, name: 'media', base_url: w.mock.url, models: media, key: 'sk-mock-media-key' });
    if (agent.body.code !== 0) throw new Error(agent.body.message);
    await settled(w);
  }, 60_000);
  afterAll(() => w?.close());

  it('the validator catches what breaks a client', async () => {
    const answer = await conformingJson('CreateChatCompletionResponse', 'POST', '/v1/chat/completions', { model: 'gpt-test', messages: [{ role: 'user', content: 'Say hi' }] });
    delete answer.choices[0].message.role;
    expect(violations('CreateChatCompletionResponse', answer)).toEqual([expect.stringContaining("must have required property 'role'")]);
    expect(violations('CreateChatCompletionResponse', { ...answer, choices: 'none' })).not.toEqual([]);
    expect(violations('ResponseStreamEvent', { type: 'response.output_text.delta', sequence_number: 1, delta: 'x' })).not.toEqual([]);
    expect(violations('ResponseStreamEvent', { type: 'response.nope', sequence_number: 1 })).toEqual(['ResponseStreamEvent: no branch for "response.nope"']);
  });

  describe('chat completions', () => {
    it.each(CHAT_MODELS)('JSON, plain and with a tool call, on %s', async (model) => {
      const plain = await conformingJson('CreateChatCompletionResponse', 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Say hi' }] });
      expect(plain.choices[0].message.content).toContain(`Hello from mock ${model}!`);
      const tool = await conformingJson('CreateChatCompletionResponse', 'POST', '/v1/chat/completions', { model, messages: [{ role: 'user', content: "What's the weather in Paris?" }], tools: [weatherTool] });
      expect(tool.choices[0].message.tool_calls[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    });

    it.each(CHAT_MODELS)('each stream chunk, plain and with a tool call, on %s', async (model) => {
      const plain = await conformingStream('CreateChatCompletionStreamResponse', '/v1/chat/completions', { model, messages: [{ role: 'user', content: 'Say hi' }], stream: true, stream_options: { include_usage: true } });
      expect(plain.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: expect.any(Number) } });
      const tool = await conformingStream('CreateChatCompletionStreamResponse', '/v1/chat/completions', { model, messages: [{ role: 'user', content: "What's the weather in Paris?" }], tools: [weatherTool], stream: true });
      expect(tool.some((c) => c.choices[0]?.delta?.tool_calls)).toBe(true);
    });
  });

  it('completions, JSON and each stream chunk', async () => {
    await conformingJson('CreateCompletionResponse', 'POST', '/v1/completions', { model: 'gpt-test', prompt: 'Say hi', max_tokens: 20 });
    // The description has no schema of its own for completion chunks: they are completions.
    await conformingStream('CreateCompletionResponse', '/v1/completions', { model: 'gpt-test', prompt: 'Say hi', stream: true });
  });

  it('models: list and retrieve', async () => {
    const list = await conformingJson('ListModelsResponse', 'GET', '/v1/models');
    expect(list.data.map((m: Json) => m.id)).toEqual(expect.arrayContaining(['gpt-test', 'claude-test', 'emb-test']));
    await conformingJson('Model', 'GET', '/v1/models/claude-test');
  });

  it('embeddings', async () => {
    await conformingJson('CreateEmbeddingResponse', 'POST', '/v1/embeddings', { model: 'emb-test', input: ['one', 'two'], encoding_format: 'float' });
  });

  it('moderations', async () => {
    await conformingJson('CreateModerationResponse', 'POST', '/v1/moderations', { model: 'gpt-test', input: 'I will kill the process' });
  });

  it('images', async () => {
    await conformingJson('ImagesResponse', 'POST', '/v1/images/generations', { model: 'img-test', prompt: 'a cat', response_format: 'b64_json' });
  });

  describe('responses', () => {
    it.each(CHAT_MODELS)('JSON, stored, its input items and a function call on %s', async (model) => {
      const r = await conformingJson('Response', 'POST', '/v1/responses', { model, input: 'Say hi' });
      expect(r.output_text ?? r.output[0].content[0].text).toContain(`Hello from mock ${model}!`);
      await conformingJson('Response', 'GET', `/v1/responses/${r.id}`);
      await conformingJson('ResponseItemList', 'GET', `/v1/responses/${r.id}/input_items`);
      const tool = await conformingJson('Response', 'POST', '/v1/responses', { model, input: "What's the weather in Paris?", tools: [responsesTool] });
      expect(tool.output.find((o: Json) => o.type === 'function_call')).toMatchObject({ name: 'get_weather' });
    });

    it.each(CHAT_MODELS)('each streamed event, text and a function call, on %s', async (model) => {
      const text = await conformingStream('ResponseStreamEvent', '/v1/responses', { model, input: 'Say hi', stream: true });
      expect(text.at(-1)).toMatchObject({ type: 'response.completed' });
      expect(violations('Response', text.at(-1)!.response).join('\n')).toBe('');
      const tool = await conformingStream('ResponseStreamEvent', '/v1/responses', { model, input: "What's the weather in Paris?", tools: [responsesTool], stream: true });
      expect(tool.map((e) => e.type)).toContain('response.function_call_arguments.done');
    });
  });

  it('error bodies', async () => {
    const cases: [string, string, unknown, string | undefined, number][] = [
      ['POST', '/v1/chat/completions', { model: 'gpt-test', messages: [{ role: 'user', content: 'x' }] }, 'sk-FastAPInotakey', 401],
      ['POST', '/v1/chat/completions', { model: 'nope', messages: [{ role: 'user', content: 'x' }] }, undefined, 404],
      ['POST', '/v1/chat/completions', '{oops', undefined, 400],
      ['POST', '/v1/chat/completions', { model: 'gpt-test', messages: 'hi' }, undefined, 400],
      ['POST', '/v1/responses', { model: 'gpt-test' }, undefined, 400],
      ['GET', '/v1/responses/resp_nope', undefined, undefined, 404],
      ['POST', '/v1/embeddings', { model: 'emb-test' }, undefined, 400],
      ['GET', '/v1/models/nope', undefined, undefined, 404],
      ['POST', '/v1/nope', {}, undefined, 404],
      // The upstream's own refusal, relayed.
      ['POST', '/v1/chat/completions', { model: 'gpt-test', messages: [{ role: 'user', content: 'x [[mock:status=400]]' }] }, undefined, 400],
    ];
    for (const [method, path, body, key, status] of cases) {
      const res = await call(method, path, body, key);
      expect(res.status, `${method} ${path} ${res.text}`).toBe(status);
      expect(violations('ErrorResponse', JSON.parse(res.text)).join('\n'), `${method} ${path} ${res.text}`).toBe('');
    }
  });
});
