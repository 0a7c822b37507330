// Google's Gemini API on /v1beta through the official @google/genai SDK, against the real app fronting
// the mock: passed through natively to a Gemini-family model and converted onto an OpenAI-family one,
// JSON and streams, function calls over two turns, countTokens (never billed or logged), models.list/get,
// the key as x-goog-api-key or ?key=, and every error in Google's shape. Billed like chat.
import { GoogleGenAI, Type, type Content, type GenerateContentResponse } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { countChatPrompt } from '../src/billing/tokens';
import { geminiToChatRequest } from '../src/providers/gemini/ingress';
import { dialects } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);
/** Both test models cost 1 per prompt token and 2 per completion token. */
const cost = (prompt: number, completion: number) => prompt + completion * 2;

const weatherTool = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'The weather of a city',
      parameters: { type: Type.OBJECT, properties: { city: { type: Type.STRING, description: 'The city' } }, required: ['city'] },
    },
  ],
};

const googleError = (status: number, name: string) => ({ error: { code: status, status: name, message: expect.any(String) } });

/** The SDK's ApiError carries the JSON body as its message. */
async function rejection(p: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await p;
  } catch (err) {
    const e = err as { status: number; message: string };
    return { status: e.status, body: JSON.parse(e.message) as unknown };
  }
  throw new Error('expected a rejection');
}

describe.each(dialects)('the Gemini-native API (/v1beta) on %s', (dialect) => {
  let w: World;
  let ai: GoogleGenAI;

  const post = (path: string, body: unknown, headers: Record<string, string> = { 'x-goog-api-key': w.key }) =>
    fetch(`${w.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const logOf = async (traceId: string | null | undefined) => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', traceId ?? '').orderBy('attempt', 'desc').executeTakeFirstOrThrow();
  };
  const callLogs = async () => {
    await w.flush();
    return Number((await w.server.app.ctx.db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  };
  const traceOf = (r: GenerateContentResponse) => r.sdkHttpResponse?.headers?.['x-trace-id'];
  const quota = async () => {
    await w.flush();
    return w.quotaOf(w.user.userId);
  };

  beforeAll(async () => {
    w = await world(dialect);
    const corp = (await w.admin.post('/api/v1/corp/create', { name: 'Google', code: 'Google', is_public: true })).body.data.id as string;
    const created = await w.admin.post('/api/v1/model/create', { corp, name: 'gemini-test', model: 'gemini-test', type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });
    if (created.body.code !== 0) throw new Error(created.body.message);
    const agent = await w.admin.post('/api/v1/model/agent/create', { corp, name: 'gemini', base_url: w.mock.url, models: [created.body.data.id], key: 'sk-mock-google-key' });
    if (agent.body.code !== 0) throw new Error(agent.body.message);
    await settled(w);
    ai = new GoogleGenAI({ apiKey: w.key, httpOptions: { baseUrl: w.server.url } });
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  describe('a Gemini-family model: native passthrough', () => {
    it('generateContent: the client body goes upstream as sent, the answer comes back with the requested model, billed at its price', async () => {
      const before = await quota();
      const response = await ai.models.generateContent({ model: 'gemini-test', contents: 'ping', config: { systemInstruction: 'Be brief.', temperature: 0.2 } });
      const text = answer('gemini-test', 'ping');
      expect(response.text).toBe(text);
      expect(response.modelVersion).toBe('gemini-test');
      const prompt = tokens('Be brief.\nping');
      expect(response.usageMetadata).toMatchObject({ promptTokenCount: prompt, candidatesTokenCount: tokens(text) });
      expect(w.mock.requests).toHaveLength(1);
      expect(w.mock.requests[0]).toMatchObject({
        path: '/v1beta/models/gemini-test:generateContent',
        key: 'sk-mock-google-key',
        body: { contents: [{ role: 'user', parts: [{ text: 'ping' }] }], systemInstruction: { parts: [{ text: 'Be brief.' }] }, generationConfig: { temperature: 0.2 } },
      });
      expect(await quota()).toBe(before - cost(prompt, tokens(text)));
      const log = await logOf(traceOf(response));
      expect(log).toMatchObject({ status: 1, endpoint: '/v1beta/models/gemini-test:generateContent', total_price: cost(prompt, tokens(text)), prompt: 'ping', completion: text, stream: 0 });
    });

    it('passes every field of a raw body through untouched (thinkingConfig, safetySettings, upper-case schemas)', async () => {
      const body = {
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [{ functionDeclarations: [{ name: 'f', parameters: { type: 'OBJECT', properties: { x: { type: 'STRING' } } } }] }, { googleSearch: {} }],
        toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
        safetySettings: [{ category: 'HARM_CATEGORY_HATE_SPEECH', threshold: 'BLOCK_NONE' }],
        generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 8192 }, topK: 64, maxOutputTokens: 50 },
      };
      const res = await post('/v1beta/models/models%2Fgemini-test:generateContent', body);
      expect(res.status).toBe(200);
      expect(w.mock.requests[0]!.body).toEqual(body);
      expect(((await res.json()) as { modelVersion: string }).modelVersion).toBe('gemini-test');
    });

    it('generateContentStream relays the events with the requested model and bills the final usage', async () => {
      const before = await quota();
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-test', contents: 'stream me please' })) chunks.push(chunk);
      const text = answer('gemini-test', 'stream me please');
      expect(chunks.length).toBeGreaterThan(2);
      expect(chunks.map((c) => c.text).join('')).toBe(text);
      expect(chunks.every((c) => c.modelVersion === 'gemini-test')).toBe(true);
      expect(chunks.at(-1)!.candidates![0]!.finishReason).toBe('STOP');
      expect(w.mock.requests[0]).toMatchObject({ path: '/v1beta/models/gemini-test:streamGenerateContent' });
      const prompt = tokens('stream me please');
      expect(chunks.at(-1)!.usageMetadata).toMatchObject({ promptTokenCount: prompt, candidatesTokenCount: tokens(text) });
      expect(await quota()).toBe(before - cost(prompt, tokens(text)));
      const log = await logOf(traceOf(chunks[0]!));
      expect(log).toMatchObject({ status: 1, endpoint: '/v1beta/models/gemini-test:streamGenerateContent', stream: 1, completion: text });
    });

    it('calls a function and takes its response over two turns, JSON and stream', async () => {
      const config = { tools: [weatherTool] };
      const first = await ai.models.generateContent({ model: 'gemini-test', contents: 'What is the weather in Paris?', config });
      expect(first.functionCalls).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
      expect(first.candidates![0]!.finishReason).toBe('STOP');
      const history: Content[] = [
        { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
        first.candidates![0]!.content!,
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 21 } } }] },
      ];
      const second = await ai.models.generateContent({ model: 'gemini-test', contents: history, config });
      expect(second.text).toBe(answer('gemini-test', '{"temp":21}'));
      expect(w.mock.requests[1]!.body).toMatchObject({ contents: history });
      const streamed: GenerateContentResponse[] = [];
      for await (const c of await ai.models.generateContentStream({ model: 'gemini-test', contents: 'weather in Rome?', config })) streamed.push(c);
      expect(streamed.flatMap((c) => c.functionCalls ?? [])).toEqual([{ name: 'get_weather', args: { city: 'Paris' } }]);
    });

    it('answers a stream without alt=sse as a JSON array', async () => {
      const res = await post('/v1beta/models/gemini-test:streamGenerateContent', { contents: [{ parts: [{ text: 'array' }] }] });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await res.json()) as { candidates: { content: { parts: { text: string }[] } }[]; modelVersion: string }[];
      expect(body).toHaveLength(1);
      expect(body[0]).toMatchObject({ modelVersion: 'gemini-test', candidates: [{ content: { parts: [{ text: answer('gemini-test', 'array') }] } }] });
    });

    it("relays the upstream's refusal with its status name, and a stream that breaks midway ends with an error event", async () => {
      const refused = await rejection(ai.models.generateContent({ model: 'gemini-test', contents: 'x [[mock:status=400]] [[mock:error=Request contains an invalid argument.]]' }));
      expect(refused).toEqual({ status: 400, body: { error: { code: 400, message: 'Request contains an invalid argument.', status: 'INVALID_ARGUMENT' } } });
      const res = await post('/v1beta/models/gemini-test:streamGenerateContent?alt=sse', { contents: [{ parts: [{ text: 'one two three four five [[mock:fail_after=2]]' }] }] });
      const text = await res.text();
      expect(text).toContain('"modelVersion":"gemini-test"');
      expect(text).toMatch(/data: \{"error":\{"code":502,"message":"The upstream stream broke[^"]*","status":"UNAVAILABLE"\}\}\n\n$/);
      expect(await logOf(res.headers.get('x-trace-id'))).toMatchObject({ status: -1, stream: 1 });
    });
  });

  describe('an OpenAI-family model: converted through chat', () => {
    it('generateContent becomes a chat completion, and the answer a GenerateContentResponse billed at the model price', async () => {
      const before = await quota();
      const response = await ai.models.generateContent({ model: 'gpt-test', contents: 'ping', config: { systemInstruction: 'Be brief.', maxOutputTokens: 64, temperature: 0.5, stopSequences: ['END'] } });
      const text = answer('gpt-test', 'ping');
      expect(response.text).toBe(text);
      expect(response).toMatchObject({ modelVersion: 'gpt-test', candidates: [{ finishReason: 'STOP', index: 0, content: { role: 'model' } }] });
      expect(response.responseId).toMatch(/^chatcmpl-/);
      expect(w.mock.requests[0]).toMatchObject({
        path: '/v1/chat/completions',
        body: { model: 'gpt-test', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'ping' }], max_tokens: 64, temperature: 0.5, stop: ['END'] },
      });
      // The OpenAI mock counts the text of every message.
      const prompt = tokens('Be brief.\nping');
      expect(response.usageMetadata).toEqual({ promptTokenCount: prompt, candidatesTokenCount: tokens(text), totalTokenCount: prompt + tokens(text) });
      expect(await quota()).toBe(before - cost(prompt, tokens(text)));
      expect(await logOf(traceOf(response))).toMatchObject({ status: 1, endpoint: '/v1beta/models/gpt-test:generateContent', total_price: cost(prompt, tokens(text)), completion: text });
    });

    it('streams the chat answer as SSE GenerateContentResponses, the usage and finishReason on the last one', async () => {
      const before = await quota();
      const chunks: GenerateContentResponse[] = [];
      for await (const chunk of await ai.models.generateContentStream({ model: 'gpt-test', contents: 'hi there' })) chunks.push(chunk);
      const text = answer('gpt-test', 'hi there');
      expect(chunks.map((c) => c.text ?? '').join('')).toBe(text);
      const last = chunks.at(-1)!;
      expect(last.candidates![0]).toMatchObject({ finishReason: 'STOP', content: { role: 'model', parts: [] } });
      const prompt = tokens('hi there');
      expect(last.usageMetadata).toEqual({ promptTokenCount: prompt, candidatesTokenCount: tokens(text), totalTokenCount: prompt + tokens(text) });
      expect(chunks.slice(0, -1).every((c) => c.usageMetadata === undefined && c.modelVersion === 'gpt-test')).toBe(true);
      expect(w.mock.requests[0]!.body).toMatchObject({ stream: true, messages: [{ role: 'user', content: 'hi there' }] });
      expect(await quota()).toBe(before - cost(prompt, tokens(text)));
      expect(await logOf(traceOf(chunks[0]!))).toMatchObject({ status: 1, endpoint: '/v1beta/models/gpt-test:streamGenerateContent', stream: 1 });
    });

    it('maps function declarations and calls, pairing the response with the call over two turns', async () => {
      const config = { tools: [weatherTool] };
      const first = await ai.models.generateContent({ model: 'gpt-test', contents: 'What is the weather in Paris?', config });
      // The upstream's call id goes along (Gemini's FunctionCall has an optional id).
      const id = first.functionCalls?.[0]?.id;
      expect(id).toMatch(/^call_/);
      expect(first.functionCalls).toEqual([{ id, name: 'get_weather', args: { city: 'Paris' } }]);
      expect(first.candidates![0]!.finishReason).toBe('STOP');
      // Upper-case OpenAPI types became JSON Schema.
      expect(w.mock.requests[0]!.body).toMatchObject({
        tools: [{ type: 'function', function: { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string', description: 'The city' } }, required: ['city'] } } }],
      });
      // Gemini CLI sends the call back without the id: the response is paired by order and name.
      const call = { ...first.candidates![0]!.content!.parts![0]!.functionCall!, id: undefined };
      const history: Content[] = [
        { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
        { role: 'model', parts: [{ functionCall: call }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 21 } } }] },
      ];
      const chunks: GenerateContentResponse[] = [];
      for await (const c of await ai.models.generateContentStream({ model: 'gpt-test', contents: history, config })) chunks.push(c);
      expect(chunks.map((c) => c.text ?? '').join('')).toBe(answer('gpt-test', '{"temp":21}'));
      expect(w.mock.requests[1]!.body).toMatchObject({
        messages: [
          { role: 'user', content: 'What is the weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_1_0', content: '{"temp":21}' },
        ],
      });
      // With the id the answer gave, that id pairs them.
      await ai.models.generateContent({ model: 'gpt-test', contents: [history[0]!, first.candidates![0]!.content!, { role: 'user', parts: [{ functionResponse: { id, name: 'get_weather', response: { output: 'sunny' } } }] }], config });
      expect(w.mock.requests[2]!.body).toMatchObject({ messages: [{}, { tool_calls: [{ id }] }, { role: 'tool', tool_call_id: id, content: 'sunny' }] });
    });

    it("refuses Gemini's built-in tools by name when the upstream is not Gemini, calling no upstream", async () => {
      const res = await post('/v1beta/models/gpt-test:generateContent', { contents: [{ role: 'user', parts: [{ text: 'search' }] }], tools: [{ googleSearch: {} }, { codeExecution: {} }] });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { status: string; message: string } };
      expect(body.error.status).toBe('INVALID_ARGUMENT');
      expect(body.error.message).toContain('googleSearch, codeExecution');
      expect(w.mock.requests).toHaveLength(0);
    });

    it('answers a stream without alt=sse as a one-element JSON array', async () => {
      const res = await post('/v1beta/models/gpt-test:streamGenerateContent', { contents: [{ role: 'user', parts: [{ text: 'array' }] }] });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject([{ modelVersion: 'gpt-test', candidates: [{ content: { parts: [{ text: answer('gpt-test', 'array') }] }, finishReason: 'STOP' }] }]);
      expect(w.mock.requests[0]!.body).not.toHaveProperty('stream', true);
    });
  });

  describe('countTokens', () => {
    it("passes a Gemini-family model through to the upstream's countTokens, unbilled and unlogged", async () => {
      const [logs, before] = [await callLogs(), await quota()];
      const counted = await ai.models.countTokens({ model: 'gemini-test', contents: 'How many tokens is this?' });
      expect(counted.totalTokens).toBe(tokens('How many tokens is this?'));
      expect(w.mock.requests).toHaveLength(1);
      expect(w.mock.requests[0]).toMatchObject({ path: '/v1beta/models/gemini-test:countTokens', key: 'sk-mock-google-key', body: { contents: [{ role: 'user', parts: [{ text: 'How many tokens is this?' }] }] } });
      // A generateContentRequest names the upstream model.
      const res = await post('/v1beta/models/gemini-test:countTokens', { generateContentRequest: { model: 'models/gemini-test', contents: [{ parts: [{ text: 'abcdefgh' }] }], systemInstruction: { parts: [{ text: 'abcd' }] } } });
      expect(await res.json()).toEqual({ totalTokens: tokens('abcd\nabcdefgh') });
      expect(w.mock.requests[1]!.body).toMatchObject({ generateContentRequest: { model: 'models/gemini-test' } });
      expect(await callLogs()).toBe(logs);
      expect(await quota()).toBe(before);
    });

    it("counts locally for other families with the gateway's tokenizer, calling no upstream", async () => {
      const [logs, before] = [await callLogs(), await quota()];
      const contents = [{ role: 'user', parts: [{ text: 'How many tokens is this, counted by the gateway?' }] }];
      const counted = await ai.models.countTokens({ model: 'gpt-test', contents });
      expect(counted.totalTokens).toBe(countChatPrompt(geminiToChatRequest('gpt-test', { contents }).messages, 'gpt-test'));
      expect(counted.totalTokens).toBeGreaterThan(0);
      expect(w.mock.requests).toHaveLength(0);
      expect(await callLogs()).toBe(logs);
      expect(await quota()).toBe(before);
    });

    it('refuses an unknown model and a bad body in Google\'s shape', async () => {
      expect(await rejection(ai.models.countTokens({ model: 'nope', contents: 'x' }))).toEqual({ status: 404, body: googleError(404, 'NOT_FOUND') });
      const res = await post('/v1beta/models/gpt-test:countTokens', { contents: [] });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(googleError(400, 'INVALID_ARGUMENT'));
    });
  });

  describe('models', () => {
    it("lists the caller's models in Gemini's shape and gets one by id or name", async () => {
      const pager = await ai.models.list();
      const names: string[] = [];
      for await (const m of pager) names.push(m.name!);
      expect(names.sort()).toEqual(['models/gemini-test', 'models/gpt-test']);
      const model = await ai.models.get({ model: 'gemini-test' });
      expect(model).toMatchObject({ name: 'models/gemini-test', displayName: 'gemini-test', supportedActions: ['generateContent', 'streamGenerateContent', 'countTokens'] });
      expect(await ai.models.get({ model: 'models/gpt-test' })).toMatchObject({ name: 'models/gpt-test' });
      expect(await rejection(ai.models.get({ model: 'nope' }))).toEqual({ status: 404, body: googleError(404, 'NOT_FOUND') });
    });

    it('pages with pageSize and pageToken', async () => {
      const get = async (q: string) => (await fetch(`${w.server.url}/v1beta/models${q}`, { headers: { 'x-goog-api-key': w.key } })).json() as Promise<{ models: { name: string }[]; nextPageToken?: string }>;
      const first = await get('?pageSize=1');
      expect(first.models).toHaveLength(1);
      expect(first.nextPageToken).toBe('1');
      const second = await get(`?pageSize=1&pageToken=${first.nextPageToken}`);
      expect(second.models).toHaveLength(1);
      expect(second.nextPageToken).toBeUndefined();
      expect(second.models[0]!.name).not.toBe(first.models[0]!.name);
      const bad = await fetch(`${w.server.url}/v1beta/models?pageSize=lots`, { headers: { 'x-goog-api-key': w.key } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual(googleError(400, 'INVALID_ARGUMENT'));
    });
  });

  describe('keys', () => {
    it('takes the key from ?key=, and keeps it out of every log and the call log', async () => {
      const res = await fetch(`${w.server.url}/v1beta/models/gpt-test:generateContent?key=${encodeURIComponent(w.key)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ parts: [{ text: 'query key' }] }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe(res.headers.get('x-trace-id'));
      const log = await logOf(res.headers.get('x-trace-id'));
      expect(log.endpoint).toBe('/v1beta/models/gpt-test:generateContent');
      expect(JSON.stringify(log)).not.toContain(w.key);
      const listed = await fetch(`${w.server.url}/v1beta/models?key=${encodeURIComponent(w.key)}`);
      expect(listed.status).toBe(200);
      const access = w.server.logs.filter((l) => l.includes('/v1beta/models'));
      expect(access.length).toBeGreaterThan(0);
      expect(w.server.logs.join('')).not.toContain(w.key);
      // Counted as the gateway face, by route pattern.
      expect(await w.server.app.ctx.metrics.text()).toMatch(/fastgate_http_requests_total\{face="gateway",method="POST",route="\/v1beta\/models\/\*",status="200"\}/);
    });

    it("refuses a wrong or missing key with 401 in Google's shape", async () => {
      const stranger = new GoogleGenAI({ apiKey: 'sk-FastAPInotakey', httpOptions: { baseUrl: w.server.url } });
      expect(await rejection(stranger.models.generateContent({ model: 'gpt-test', contents: 'x' }))).toEqual({ status: 401, body: googleError(401, 'UNAUTHENTICATED') });
      expect(await rejection(stranger.models.list())).toEqual({ status: 401, body: googleError(401, 'UNAUTHENTICATED') });
      const none = await post('/v1beta/models/gpt-test:generateContent', { contents: [{ parts: [{ text: 'x' }] }] }, {});
      expect(none.status).toBe(401);
      expect(await none.json()).toEqual(googleError(401, 'UNAUTHENTICATED'));
      const wrongQuery = await post('/v1beta/models/gpt-test:generateContent?key=nope', { contents: [{ parts: [{ text: 'x' }] }] }, {});
      expect(wrongQuery.status).toBe(401);
      expect(w.mock.requests).toHaveLength(0);
    });
  });

  describe("errors in Google's shape", () => {
    it('an unknown model is a 404 NOT_FOUND, JSON and stream', async () => {
      expect(await rejection(ai.models.generateContent({ model: 'nope', contents: 'x' }))).toEqual({ status: 404, body: googleError(404, 'NOT_FOUND') });
      expect(await rejection(ai.models.generateContentStream({ model: 'nope', contents: 'x' }))).toEqual({ status: 404, body: googleError(404, 'NOT_FOUND') });
    });

    it('a bad body is a 400 INVALID_ARGUMENT, and costs nothing', async () => {
      const before = await quota();
      for (const body of ['{oops', '[]', {}, { contents: 'hi' }, { contents: [] }, { contents: [{ parts: 'hi' }] }, { contents: [{ role: 'system', parts: [{ text: 'x' }] }] }, { contents: [{ parts: [] }] }, { contents: [{ parts: [{ text: 'x' }] }], generationConfig: { temperature: 'hot' } }, { contents: [{ parts: [{ text: 'x' }] }], tools: {} }]) {
        const res = await post('/v1beta/models/gpt-test:generateContent', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(await res.json(), JSON.stringify(body)).toEqual(googleError(400, 'INVALID_ARGUMENT'));
        expect(res.headers.get('x-request-id')).toBeTruthy();
      }
      const huge = await post('/v1beta/models/gpt-test:generateContent', { contents: [{ parts: [{ text: 'x'.repeat(11 * 1024 * 1024) }] }] });
      expect(huge.status).toBe(413);
      expect(await huge.json()).toMatchObject({ error: { code: 413, status: 'INVALID_ARGUMENT' } });
      expect(w.mock.requests).toHaveLength(0);
      expect(await quota()).toBe(before);
    });

    it('unknown methods and paths are 404 NOT_FOUND, the query never echoed', async () => {
      for (const [method, path] of [
        ['POST', '/v1beta/models/gpt-test:embedContent'],
        ['POST', '/v1beta/models/gpt-test'],
        ['GET', '/v1beta/models/gpt-test:generateContent'],
        ['POST', '/v1beta/files'],
        ['GET', '/v1beta/cachedContents?key=secret-in-query'],
        ['DELETE', '/v1beta/models/gpt-test'],
      ]) {
        const res = await fetch(`${w.server.url}${path}`, { method, headers: { 'x-goog-api-key': w.key, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) }, body: method === 'POST' ? '{}' : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
        const body = await res.json();
        expect(body, `${method} ${path}`).toEqual({ error: { code: 404, message: `Unknown request URL: ${method} ${path.split('?')[0]}.`, status: 'NOT_FOUND' } });
        expect(res.headers.get('x-request-id'), `${method} ${path}`).toBeTruthy();
      }
    });

    it("a rate limit is 429 RESOURCE_EXHAUSTED, on calls and counts alike", async () => {
      const keyId = (await w.server.app.ctx.db.selectFrom('app_keys').select('id').where('app_id', '=', w.appId).executeTakeFirstOrThrow()).id;
      const configure = async (settings: Record<string, unknown>) => {
        expect((await w.user.post('/api/v1/app/key/config', { id: keyId, ...settings })).body.code).toBe(0);
        await settled(w);
      };
      try {
        await configure({ rate_limits: { rpm: 2 } });
        await ai.models.countTokens({ model: 'gpt-test', contents: 'one' });
        await ai.models.generateContent({ model: 'gpt-test', contents: 'two' });
        const refused = await rejection(ai.models.generateContent({ model: 'gpt-test', contents: 'three' }));
        expect(refused).toEqual({ status: 429, body: googleError(429, 'RESOURCE_EXHAUSTED') });
      } finally {
        await configure({ rate_limits: { rpm: 0 } });
      }
    });
  });

  it('sent every answer once and hit no unhandled error', () => {
    expect(w.server.logs.join('')).not.toMatch(/FST_ERR_REP_ALREADY_SENT|unhandled gateway error|Reply was already sent/);
  });
});
