// The small pieces of OpenAI's surface that clients rely on, through the official openai SDK against the
// real app fronting the mock: GET /v1/models/{id}, trailing slashes, x-request-id (the SDK's
// `_request_id`) on every answer, streamed images refused before any upstream call, and converted chat
// answers (Gemini, Anthropic) with unique ids and the fields OpenAI's schema requires.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, startServer } from './helpers';
import { resetUpstreams, settled, world, type World } from './gateway-fixtures';

const HEX32 = /^[0-9a-f]{32}$/;
const SLASHED = 'acme/slash-model';

/** A Gemini upstream that always asks for the weather: the mock answers text only. */
function toolCallingGemini(seen: unknown[]): http.Server {
  return http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      seen.push(JSON.parse(raw) as unknown);
      const answer = {
        candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
        modelVersion: 'gemini-tools',
      };
      if (req.url?.includes(':streamGenerateContent')) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
}

describe.each(dialects)('the gateway surface on %s', (dialect) => {
  let w: World;
  let gemini: http.Server;
  const geminiSeen: unknown[] = [];

  const call = (method: string, path: string, body?: unknown, key = w.key) =>
    fetch(`${w.server.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });

  beforeAll(async () => {
    w = await world(dialect);
    const model = async (corp: string, body: Record<string, unknown>) => {
      const r = await w.admin.post('/api/v1/model/create', { corp, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 }, ...body });
      if (r.body.code !== 0) throw new Error(`model ${String(body.name)}: ${r.body.message}`);
      return r.body.data.id as string;
    };
    const agent = async (corp: string, name: string, baseUrl: string, models: string[]) => {
      const r = await w.admin.post('/api/v1/model/agent/create', { corp, name, base_url: baseUrl, models, key: `sk-${name}-key`, lb_strategy: 1 });
      if (r.body.code !== 0) throw new Error(`agent ${name}: ${r.body.message}`);
    };
    const corp = async (code: string) => (await w.admin.post('/api/v1/corp/create', { name: code, code, is_public: true })).body.data.id as string;
    // Beside gpt-test: a name with a slash, a model the key may not use, an image model.
    await agent(w.corp, 'extra', w.mock.url, [
      await model(w.corp, { name: SLASHED, model: 'gpt-4o-mini' }),
      await model(w.corp, { name: 'private-model', model: 'gpt-4o', is_public: false }),
      await model(w.corp, { name: 'img-test', model: 'img-test', type: 2, image_quota: { billing_method: 2, fixed_quota: 50, generation_quotas: [{ quality: '', width: 1024, height: 1024, fixed_quota: 70 }] } }),
    ]);
    const anthropic = await corp('Anthropic');
    await agent(anthropic, 'claude', w.mock.url, [await model(anthropic, { name: 'claude-test', model: 'claude-test' })]);
    const google = await corp('Google');
    await agent(google, 'gemini', w.mock.url, [await model(google, { name: 'gemini-test', model: 'gemini-test' })]);
    gemini = toolCallingGemini(geminiSeen);
    await new Promise<void>((r) => gemini.listen(0, '127.0.0.1', r));
    await agent(google, 'gemini-tools', `http://127.0.0.1:${(gemini.address() as AddressInfo).port}`, [await model(google, { name: 'gemini-tools', model: 'gemini-tools' })]);
    await settled(w);
  });
  afterAll(async () => {
    gemini?.close();
    await w?.close();
  });
  beforeEach(() => resetUpstreams(w));

  describe('GET /v1/models/{id}', () => {
    it('answers the Model object the list has, also for names with slashes', async () => {
      const list = await w.openai.models.list();
      const listed = new Map(list.data.map((m) => [m.id, m]));
      const model = await w.openai.models.retrieve('gpt-test');
      expect(model).toEqual({ id: 'gpt-test', object: 'model', created: expect.any(Number), owned_by: 'OpenAI' });
      expect(model).toEqual(listed.get('gpt-test'));
      // The SDK sends `acme%2Fslash-model`; the route takes the rest of the path, decoded.
      expect(await w.openai.models.retrieve(SLASHED)).toEqual(listed.get(SLASHED));
      const raw = await call('GET', `/v1/models/${SLASHED}`);
      expect(await raw.json()).toEqual(listed.get(SLASHED));
    });

    it('answers 404 model_not_found in the OpenAI shape for a model the key may not use or that does not exist', async () => {
      for (const id of ['private-model', 'no-such-model']) {
        const err = (await w.openai.models.retrieve(id).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
        expect(err, id).toBeInstanceOf(OpenAI.NotFoundError);
        expect(err.error).toEqual({ message: `The model \`${id}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', code: 'model_not_found', param: null });
      }
      // Without a key it is the key that is refused, as on the list.
      expect((await call('GET', '/v1/models/gpt-test', undefined, 'sk-wrong')).status).toBe(401);
    });
  });

  describe('trailing slashes', () => {
    it('serves every gateway route with a trailing slash as without', async () => {
      const chat = await call('POST', '/v1/chat/completions/', { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
      expect(chat.status).toBe(200);
      expect(((await chat.json()) as OpenAI.ChatCompletion).choices[0]!.message.content).toBe('Hello from mock gpt-test! You said: hi');
      const list = await call('GET', '/v1/models/');
      expect(((await list.json()) as { object: string }).object).toBe('list');
      expect(((await (await call('GET', '/v1/models/gpt-test/')).json()) as { id: string }).id).toBe('gpt-test');
      const streamed = await call('POST', '/v1/chat/completions/', { model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
      expect(streamed.headers.get('content-type')).toContain('text/event-stream');
      expect(await streamed.text()).toContain('data: [DONE]');
      // Unknown paths stay the gateway's 404, slash or not.
      for (const path of ['/v1/', '/v1/nope/', '/v1/chat/completions/extra/']) {
        const res = await call('POST', path, { model: 'gpt-test' });
        expect(res.status, path).toBe(404);
        expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe('unknown_url');
      }
    });

    it('keeps the console API answering (routes, sign-in, its 404s), its trailing slashes tolerated too', async () => {
      for (const path of ['/api/v1/corp/list', '/api/v1/corp/list/']) {
        const res = await w.admin.raw('GET', path);
        expect(res.status, path).toBe(200);
        expect(((await res.json()) as { code: number }).code, path).toBe(0);
      }
      // Signed-out still refused, and unknown console paths still the envelope's 404.
      expect((await fetch(`${w.server.url}/api/v1/corp/list/`)).status).toBe(401);
      const missing = await w.admin.raw('GET', '/api/v1/no-such-thing/');
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { code: number }).code).not.toBe(0);
    });
  });

  describe('x-request-id', () => {
    it('is the trace id on JSON answers, SSE streams and errors, so the SDK has a _request_id', async () => {
      const json = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).withResponse();
      expect(json.request_id).toMatch(HEX32);
      expect(json.request_id).toBe(json.response.headers.get('x-trace-id'));
      const plain = await w.openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
      expect(plain._request_id).toMatch(HEX32);

      const stream = await w.openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], stream: true }).withResponse();
      let chunks = 0;
      for await (const c of stream.data) chunks += c.choices.length;
      expect(chunks).toBeGreaterThan(0);
      expect(stream.request_id).toMatch(HEX32);
      expect(stream.request_id).toBe(stream.response.headers.get('x-trace-id'));

      expect((await w.openai.models.list().withResponse()).request_id).toMatch(HEX32);

      // Errors: the route's own, admission's, the upstream's, and the not-found handler's.
      const errors = [
        await w.openai.models.retrieve('no-such-model').catch((e: unknown) => e),
        await new OpenAI({ apiKey: 'sk-wrong', baseURL: `${w.server.url}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e),
        await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: '[[mock:status=400]]' }] }).catch((e: unknown) => e),
      ] as InstanceType<typeof OpenAI.APIError>[];
      expect(errors.map((e) => e.status)).toEqual([404, 401, 400]);
      for (const e of errors) expect(e.requestID).toMatch(HEX32);
      const unknown = await call('GET', '/v1/nope');
      expect(unknown.headers.get('x-request-id')).toMatch(HEX32);
      expect(unknown.headers.get('x-request-id')).toBe(unknown.headers.get('x-trace-id'));
    });
  });

  describe('images.generate({stream: true})', () => {
    it('is refused with 400 in the OpenAI shape before any upstream call, never retried as a 502', async () => {
      await w.flush();
      const quota = await w.quotaOf(w.user.userId);
      const err = (await w.openai.images.generate({ model: 'img-test', prompt: 'a cat', stream: true }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_parameter' });
      expect(w.mock.requests).toEqual([]);
      await w.flush();
      expect(await w.quotaOf(w.user.userId)).toBe(quota);
      // Without stream the same call goes through.
      const images = await w.openai.images.generate({ model: 'img-test', prompt: 'a cat', stream: false });
      expect(images.data).toHaveLength(1);
      expect(w.mock.requests.filter((r) => r.path === '/v1/images/generations')).toHaveLength(1);
    });
  });

  describe('converted chat answers', () => {
    const ask = (model: string) => w.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    const askStream = async (model: string) => {
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const c of await w.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true })) chunks.push(c);
      return chunks;
    };

    it('have a unique random id per answer on Gemini, plain and streamed', async () => {
      const [a, b] = [await ask('gemini-test'), await ask('gemini-test')];
      expect(a.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
      expect(b.id).not.toBe(a.id);
      const [s1, s2] = [await askStream('gemini-test'), await askStream('gemini-test')];
      expect(new Set(s1.map((c) => c.id)).size).toBe(1);
      expect(s1[0]!.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
      expect(s2[0]!.id).not.toBe(s1[0]!.id);
    });

    it('give Gemini tool calls random ids that differ every turn, and still find the function by id', async () => {
      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather?' }];
      const first = await w.openai.chat.completions.create({ model: 'gemini-tools', messages, tools });
      const call1 = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      expect(call1.id).toMatch(/^call_[0-9a-f]{32}$/);
      messages.push(first.choices[0]!.message as OpenAI.ChatCompletionAssistantMessageParam, { role: 'tool', tool_call_id: call1.id, content: '{"temp":21}' });
      const second = await w.openai.chat.completions.create({ model: 'gemini-tools', messages, tools });
      const call2 = second.choices[0]!.message.tool_calls![0]!;
      expect(call2.id).toMatch(/^call_[0-9a-f]{32}$/);
      expect(call2.id).not.toBe(call1.id);
      // The tool result went up under the function's name, looked up by the random id.
      expect(JSON.stringify(geminiSeen.at(-1))).toContain('"functionResponse":{"name":"get_weather"');
      const streamed: string[] = [];
      for await (const c of await w.openai.chat.completions.create({ model: 'gemini-tools', messages, tools, stream: true })) {
        for (const t of c.choices[0]?.delta.tool_calls ?? []) if (t.id) streamed.push(t.id);
      }
      expect(streamed).toHaveLength(1);
      expect(streamed[0]).toMatch(/^call_[0-9a-f]{32}$/);
      expect([call1.id, call2.id]).not.toContain(streamed[0]);
    });

    it.each(['gemini-test', 'claude-test'])('carry logprobs and refusal as null (%s), streamed chunks logprobs too', async (model) => {
      const answer = await ask(model);
      expect(answer.choices[0]!.logprobs).toBeNull();
      expect(answer.choices[0]!.message.refusal).toBeNull();
      const chunks = await askStream(model);
      const choices = chunks.flatMap((c) => c.choices);
      expect(choices.length).toBeGreaterThan(0);
      for (const c of choices) expect(c).toHaveProperty('logprobs', null);
    });
  });
});

// The router ignores trailing slashes app-wide: a built console (static files registered one route per
// file, the SPA fallback in the not-found handler) must still start and answer as before.
describe('the built console under a router that ignores trailing slashes', () => {
  it('starts, serves its files and client routes, and keeps the API 404s in the envelope', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fg-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const server = await startServer('sqlite', { WEB_DIST: dist });
    try {
      const asset = await fetch(`${server.url}/assets/app.js`);
      expect(asset.status).toBe(200);
      expect(await asset.text()).toBe('console.log(1)');
      for (const route of ['/login', '/login/', '/app/list/']) {
        const page = await fetch(server.url + route);
        expect(page.status, route).toBe(200);
        expect(await page.text(), route).toContain('<title>console</title>');
      }
      const api = await fetch(`${server.url}/api/v1/no/such/route/`);
      expect(api.status).toBe(404);
      expect(((await api.json()) as { code: number }).code).not.toBe(0);
    } finally {
      await server.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
