// The rest of the OpenAI-style surface (issue 12): /v1/rerank, /v1/images/edits, /v1/audio/translations,
// the `param` of the streamed-images refusal, and response_format on Claude (a forced output tool) and
// Gemini (responseJsonSchema) — each through the real app and the mock over HTTP: the upstream request,
// the answer, the exact charge and the log row, and bad input answered 400 in OpenAI's shape.
import OpenAI, { toFile } from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countText } from '../src/billing/tokens';
import { OUTPUT_TOOL } from '../src/providers/anthropic/chat';
import { dialects } from './helpers';
import { resetUpstreams, settled, world, type World } from './gateway-fixtures';

/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A mono 16-bit 16 kHz WAV of `seconds` of silence. */
function wav(seconds: number): Buffer {
  const data = 32_000 * seconds;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(16_000, 24);
  b.writeUInt32LE(32_000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(data, 40);
  return b;
}

/** A multipart body written by hand, for the forms the SDK would not send. */
function form(fields: Record<string, string> | [string, string][], files: Record<string, Buffer> = {}): { body: Buffer; type: string } {
  const b = 'fg-boundary-7';
  const parts = [
    ...(Array.isArray(fields) ? fields : Object.entries(fields)).map(([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ...Object.entries(files).map(([k, v]) => Buffer.concat([Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"; filename="${k}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`), v, Buffer.from('\r\n')])),
  ];
  return { body: Buffer.concat([...parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)), Buffer.from(`--${b}--\r\n`)]), type: `multipart/form-data; boundary=${b}` };
}

const Person = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()), kind: z.enum(['friend', 'foe']), address: z.object({ city: z.string() }), nickname: z.string().nullable() });
/** What the mock samples for Person (packages/mock-provider/src/structured.ts). */
const SAMPLE = { name: 'mock', age: 0, tags: ['mock'], kind: 'friend', address: { city: 'mock' }, nickname: 'mock' };

describe.each(dialects)('more of the gateway surface on %s', (dialect) => {
  let w: World;

  const post = (path: string, body: string | Buffer, type = 'application/json') =>
    fetch(`${w.server.url}/v1/${path}`, { method: 'POST', headers: { authorization: `Bearer ${w.key}`, 'content-type': type }, body });
  const postForm = (path: string, fields: Record<string, string> | [string, string][], files?: Record<string, Buffer>) => {
    const f = form(fields, files);
    return post(path, f.body, f.type);
  };
  /** The user's quota once every charge so far is written. */
  const balance = async () => {
    await w.flush();
    return w.quotaOf(w.user.userId);
  };
  const logOf = async (traceId: string | null) => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', traceId ?? '').orderBy('attempt', 'desc').executeTakeFirstOrThrow();
  };
  /** A 400 in OpenAI's shape naming `param`, with no upstream call and no charge. */
  const refused = async (res: Response | Promise<Response>, param: string | null, code?: string) => {
    const r = await res;
    const body = (await r.json()) as { error: Record<string, unknown> };
    expect(r.status, JSON.stringify(body)).toBe(400);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param, ...(code ? { code } : {}) });
    expect(typeof body.error.message).toBe('string');
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  };

  beforeAll(async () => {
    w = await world(dialect);
    const model = async (corp: string, body: Record<string, unknown>) => {
      const r = await w.admin.post('/api/v1/model/create', { corp, is_public: true, is_enable_model_agent: true, ...body });
      if (r.body.code !== 0) throw new Error(`model ${String(body.name)}: ${r.body.message}`);
      return r.body.data.id as string;
    };
    const agent = async (corp: string, name: string, models: string[], extra: Record<string, unknown> = {}) => {
      const r = await w.admin.post('/api/v1/model/agent/create', { corp, name, base_url: w.mock.url, models, key: `sk-${name}-key`, lb_strategy: 1, ...extra });
      if (r.body.code !== 0) throw new Error(`agent ${name}: ${r.body.message}`);
    };
    const corp = async (code: string) => (await w.admin.post('/api/v1/corp/create', { name: code, code, is_public: true })).body.data.id as string;
    await agent(w.corp, 'extras', [
      await model(w.corp, { name: 'rerank-test', model: 'jina-reranker-v2', type: 7, text_quota: { billing_method: 1, prompt_ratio: 2 } }),
      await model(w.corp, { name: 'rerank-fixed', model: 'rerank-fixed', type: 7, text_quota: { billing_method: 2, fixed_quota: 30 } }),
      await model(w.corp, { name: 'img-edit', model: 'img-upstream', type: 2, image_quota: { billing_method: 2, fixed_quota: 50, generation_quotas: [{ quality: '', width: 1024, height: 1024, fixed_quota: 70 }] } }),
      await model(w.corp, { name: 'stt-test', model: 'stt-upstream', type: 6, audio_quota: { billing_method: 1, prompt_ratio: 10 } }),
    ]);
    // A rerank-only agent: a dead base URL, its path the full rerank URL (Cohere-style hosts need one).
    await agent(w.corp, 'rerank-path', [await model(w.corp, { name: 'rerank-path', model: 'rerank-path', type: 7, text_quota: { billing_method: 1, prompt_ratio: 1 } })], {
      base_url: 'http://127.0.0.1:9',
      path: `${w.mock.url}/v1/rerank`,
    });
    const anthropic = await corp('Anthropic');
    await agent(anthropic, 'claude', [
      await model(anthropic, { name: 'claude-test', model: 'claude-test', type: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } }),
      await model(anthropic, { name: 'claude-rerank', model: 'claude-rerank', type: 7, text_quota: { billing_method: 1, prompt_ratio: 1 } }),
    ]);
    const google = await corp('Google');
    await agent(google, 'gemini', [await model(google, { name: 'gemini-test', model: 'gemini-test', type: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 } })]);
    await settled(w);
  });
  afterAll(async () => {
    await w?.close();
  });
  beforeEach(() => resetUpstreams(w));

  describe('POST /v1/rerank', () => {
    const QUERY = 'black cat';
    const DOCS = ['a dog in the yard', { text: 'the black cat sat' }, 'cat food'];
    const texts = DOCS.map((d) => (typeof d === 'string' ? d : d.text));

    it('passes through with the model replaced, answers ranked results and bills the reported tokens at the prompt price', async () => {
      const before = await balance();
      const res = await post('rerank', JSON.stringify({ model: 'rerank-test', query: QUERY, documents: DOCS, top_n: 2, return_documents: true }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { id: string; model: string; results: unknown[]; usage: { total_tokens: number } };
      expect(body.model).toBe('rerank-test');
      expect(body.id).toMatch(/^rerank-/);
      expect(body.results).toEqual([
        { index: 1, relevance_score: 1, document: { text: 'the black cat sat' } },
        { index: 2, relevance_score: 0.5, document: { text: 'cat food' } },
      ]);
      expect(w.mock.requests).toHaveLength(1);
      expect(w.mock.requests[0]).toMatchObject({ path: '/v1/rerank', model: 'jina-reranker-v2', body: { query: QUERY, documents: DOCS, top_n: 2, return_documents: true } });
      const reported = texts.reduce((n, d) => n + tokens(QUERY) + tokens(d), 0);
      expect(body.usage.total_tokens).toBe(reported);
      const log = await logOf(res.headers.get('x-trace-id'));
      expect(log).toMatchObject({ status: 1, endpoint: '/v1/rerank', model: 'rerank-test', prompt: QUERY, prompt_tokens: reported, total_price: 2 * reported });
      expect(await balance()).toBe(before - 2 * reported);
    });

    it('counts the tokens itself when the upstream reports only search units (query + document, per document)', async () => {
      w.mock.faults.add({ key: 'sk-extras-key', no_usage: true, times: 1 });
      const before = await balance();
      const res = await post('rerank', JSON.stringify({ model: 'rerank-test', query: QUERY, documents: DOCS }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { meta: unknown; results: unknown[] };
      expect(body.meta).toEqual({ billed_units: { search_units: 1 } });
      expect(body.results).toHaveLength(3);
      const counted = texts.reduce((n, d) => n + countText(QUERY, 'jina-reranker-v2') + countText(d, 'jina-reranker-v2'), 0);
      expect(counted).toBeGreaterThan(0);
      expect((await logOf(res.headers.get('x-trace-id'))).total_price).toBe(2 * counted);
      expect(await balance()).toBe(before - 2 * counted);
    });

    it('bills a fixed-price reranker per search unit of up to 100 documents', async () => {
      const before = await balance();
      const one = await post('rerank', JSON.stringify({ model: 'rerank-fixed', query: 'q', documents: ['a', 'b'] }));
      expect(one.status).toBe(200);
      expect((await logOf(one.headers.get('x-trace-id'))).total_price).toBe(30);
      const docs = Array.from({ length: 150 }, (_, i) => `doc ${i}`);
      const two = await post('rerank', JSON.stringify({ model: 'rerank-fixed', query: 'doc 7', documents: docs, top_n: 3 }));
      expect(((await two.json()) as { results: { index: number }[] }).results.map((r) => r.index)).toEqual([7, 0, 1]);
      expect((await logOf(two.headers.get('x-trace-id'))).total_price).toBe(60);
      expect(await balance()).toBe(before - 90);
    });

    it("follows an agent path written for rerank, not the base URL's default", async () => {
      const res = await post('rerank', JSON.stringify({ model: 'rerank-path', query: 'x', documents: ['x'] }));
      expect(res.status).toBe(200);
      expect(w.mock.requests.map((r) => r.path)).toEqual(['/v1/rerank']);
    });

    it('refuses families without a rerank API and models of other types, before any upstream call and without a charge', async () => {
      const before = await balance();
      const claude = await post('rerank', JSON.stringify({ model: 'claude-rerank', query: 'x', documents: ['x'] }));
      expect(claude.status).toBe(400);
      const err = ((await claude.json()) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('unsupported_endpoint');
      expect(err.message).toContain('/v1/rerank');
      await refused(post('rerank', JSON.stringify({ model: 'gpt-test', query: 'x', documents: ['x'] })), null, 'unsupported_endpoint');
      expect(w.mock.requests).toHaveLength(0);
      expect(await balance()).toBe(before);
    });

    it.each([
      ['no documents', { query: 'q' }, 'documents'],
      ['empty documents', { query: 'q', documents: [] }, 'documents'],
      ['documents not an array', { query: 'q', documents: 'a b c' }, 'documents'],
      ['more than 1000 documents', { query: 'q', documents: Array.from({ length: 1001 }, () => 'd') }, 'documents'],
      ['a document of the wrong shape', { query: 'q', documents: ['a', 5] }, 'documents[1]'],
      ['an object document without text', { query: 'q', documents: [{ content: 'a' }] }, 'documents[0]'],
      ['no query', { documents: ['a'] }, 'query'],
      ['an empty query', { query: '  ', documents: ['a'] }, 'query'],
      ['top_n 0', { query: 'q', documents: ['a'], top_n: 0 }, 'top_n'],
      ['top_n 1.5', { query: 'q', documents: ['a'], top_n: 1.5 }, 'top_n'],
      ['top_n a string', { query: 'q', documents: ['a'], top_n: '2' }, null],
      ['return_documents a string', { query: 'q', documents: ['a'], return_documents: 'yes' }, null],
    ])('answers %s with 400 in the OpenAI shape', async (_name, body, param) => {
      await refused(post('rerank', JSON.stringify({ model: 'rerank-test', ...body })), param);
      expect(w.mock.requests).toHaveLength(0);
    });

    it('answers a body that is not a JSON object, or names no model, with 400', async () => {
      await refused(post('rerank', '{oops'), null, 'invalid_json');
      await refused(post('rerank', '[1]'), null);
      await refused(post('rerank', JSON.stringify({ query: 'q', documents: ['a'] })), null, 'model_required');
    });
  });

  describe('POST /v1/images/edits', () => {
    it('forwards the upload with the model swapped and bills it like a generation', async () => {
      const before = await balance();
      const { data, response } = await w.openai.images.edit({ model: 'img-edit', image: await toFile(PNG, 'a.png', { type: 'image/png' }), prompt: 'add a hat', n: 2, size: '1024x1024' }).withResponse();
      expect(data.data).toHaveLength(2);
      expect(data.data?.[0]?.revised_prompt).toBe('add a hat (1 image(s))');
      expect(w.mock.requests).toHaveLength(1);
      expect(w.mock.requests[0]).toMatchObject({ path: '/v1/images/edits', model: 'img-upstream', body: { fields: { model: 'img-upstream', prompt: 'add a hat', n: '2', size: '1024x1024' }, files: { image: [PNG.length] } } });
      const log = await logOf(response.headers.get('x-trace-id'));
      expect(log).toMatchObject({ status: 1, endpoint: '/v1/images/edits', model: 'img-edit', prompt: 'add a hat', completion: '2 image(s)', total_price: 140 });
      expect(await balance()).toBe(before - 140);
    });

    it('takes several images (image[]) and a mask; an unknown size is the fixed price', async () => {
      const before = await balance();
      const image = [await toFile(PNG, 'a.png', { type: 'image/png' }), await toFile(PNG, 'b.png', { type: 'image/png' })];
      const data = await w.openai.images.edit({ model: 'img-edit', image, mask: await toFile(PNG, 'm.png', { type: 'image/png' }), prompt: 'merge', response_format: 'b64_json' });
      expect(data.data?.[0]?.b64_json).toBe(PNG.toString('base64'));
      expect(data.data?.[0]?.revised_prompt).toBe('merge (2 image(s), masked)');
      expect(w.mock.requests[0]!.body).toMatchObject({ files: { 'image[]': [PNG.length, PNG.length], mask: [PNG.length] } });
      expect(await balance()).toBe(before - 50);
    });

    it('answers bad forms with 400 naming the field (415 when not multipart), never calling upstream', async () => {
      const image = { image: PNG };
      await refused(postForm('images/edits', { model: 'img-edit', prompt: 'x' }), 'image', 'invalid_file');
      await refused(postForm('images/edits', { model: 'img-edit', prompt: 'x' }, { image: Buffer.alloc(0) }), 'image', 'invalid_file');
      await refused(postForm('images/edits', { model: 'img-edit' }, image), 'prompt');
      await refused(postForm('images/edits', { model: 'img-edit', prompt: 'x', n: 'two' }, image), 'n');
      await refused(postForm('images/edits', { model: 'img-edit', prompt: 'x', stream: 'true' }, image), 'stream', 'unsupported_parameter');
      await refused(postForm('images/edits', { prompt: 'x' }, image), 'model', 'model_required');
      // A second value the upstream might read instead of ours: billed as one thing, served as another.
      await refused(postForm('images/edits', [['model', 'img-edit'], ['prompt', 'x'], ['model', 'gpt-image-1']], image), 'model', 'duplicate_field');
      await refused(postForm('images/edits', [['model', 'img-edit'], ['prompt', 'x'], ['n', '1'], ['n', '10']], image), 'n', 'duplicate_field');
      await refused(post('images/edits', Buffer.from('--x\r\nnot a form'), 'multipart/form-data; boundary=x'), null, 'invalid_multipart');
      const json = await post('images/edits', JSON.stringify({ model: 'img-edit', prompt: 'x' }));
      expect(json.status).toBe(415);
      expect(((await json.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
      // The SDK's own call without an image reaches us as a form without one.
      await expect(w.openai.images.edit({ model: 'img-edit', prompt: 'x' } as unknown as OpenAI.ImageEditParams)).rejects.toMatchObject({ status: 400, param: 'image' });
      expect(w.mock.requests).toHaveLength(0);
    });
  });

  describe('POST /v1/audio/translations', () => {
    it('forwards the upload like a transcription and prices it by seconds', async () => {
      const before = await balance();
      const { data, response } = await w.openai.audio.translations.create({ model: 'stt-test', file: await toFile(wav(1), 'a.wav') }).withResponse();
      expect(data.text).toMatch(/^Mock English translation of \d+ bytes\.$/);
      expect(w.mock.requests[0]).toMatchObject({ path: '/v1/audio/translations', model: 'stt-upstream' });
      const log = await logOf(response.headers.get('x-trace-id'));
      expect(log).toMatchObject({ status: 1, endpoint: '/v1/audio/translations', model: 'stt-test', completion: data.text, total_price: 10 });
      expect(await balance()).toBe(before - 10);
    });

    it('answers a missing or empty file, or no model, with 400 naming the field', async () => {
      await refused(postForm('audio/translations', { model: 'stt-test' }), 'file', 'invalid_file');
      await refused(postForm('audio/translations', { model: 'stt-test' }, { file: Buffer.alloc(0) }), 'file', 'invalid_file');
      await refused(postForm('audio/translations', {}, { file: wav(1) }), 'model', 'model_required');
      const twoFiles = form({ model: 'stt-test' }, { file: wav(1) });
      const second = form({}, { file: wav(5) }).body.subarray(0, -'--fg-boundary-7--\r\n'.length);
      await refused(post('audio/translations', Buffer.concat([second, twoFiles.body]), twoFiles.type), 'file', 'duplicate_field');
      // The transcription route shares the checks.
      await refused(postForm('audio/transcriptions', { model: 'stt-test' }), 'file', 'invalid_file');
      expect(w.mock.requests).toHaveLength(0);
    });
  });

  it("refuses streamed image generation with param 'stream'", async () => {
    const err = (await w.openai.images.generate({ model: 'img-edit', prompt: 'a cat', stream: true }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toMatchObject({ code: 'unsupported_parameter', param: 'stream', type: 'invalid_request_error' });
    expect(w.mock.requests).toHaveLength(0);
  });

  describe('response_format on Claude: a forced output tool', () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Describe a friend.' }];

    it('parses with chat.completions.parse and zodResponseFormat, billed on the usage', async () => {
      const before = await balance();
      const { data, response } = await w.openai.chat.completions.parse({ model: 'claude-test', messages, response_format: zodResponseFormat(Person, 'person') }).withResponse();
      const choice = data.choices[0]!;
      expect(choice.finish_reason).toBe('stop');
      expect(choice.message.parsed).toEqual(SAMPLE);
      expect(JSON.parse(choice.message.content!)).toEqual(SAMPLE);
      expect(choice.message.tool_calls ?? []).toEqual([]);
      // The upstream was asked for the output tool, forced, with the schema minus its $schema.
      const sent = w.mock.requests[0]!.body as { tools: { name: string; description: string; input_schema: Record<string, unknown> }[]; tool_choice: unknown };
      expect(sent.tools).toHaveLength(1);
      expect(sent.tools[0]).toMatchObject({ name: OUTPUT_TOOL, input_schema: { type: 'object', required: Object.keys(SAMPLE), additionalProperties: false } });
      expect(sent.tools[0]!.description).toContain('`person`');
      expect(sent.tools[0]!.input_schema).not.toHaveProperty('$schema');
      expect(sent.tool_choice).toEqual({ type: 'tool', name: OUTPUT_TOOL });
      const usage = data.usage!;
      expect(usage.completion_tokens).toBe(tokens(JSON.stringify(SAMPLE)));
      const cost = usage.prompt_tokens + 2 * usage.completion_tokens;
      const log = await logOf(response.headers.get('x-trace-id'));
      expect(log).toMatchObject({ status: 1, model: 'claude-test', total_price: cost, completion: JSON.stringify(SAMPLE) });
      expect(await balance()).toBe(before - cost);
    });

    it('streams the JSON as content deltas, parsed by the stream helper', async () => {
      const stream = w.openai.chat.completions.stream({ model: 'claude-test', messages, response_format: zodResponseFormat(Person, 'person'), stream_options: { include_usage: true } });
      const deltas: string[] = [];
      stream.on('chunk', (c) => {
        expect(c.choices[0]?.delta.tool_calls).toBeUndefined();
        if (c.choices[0]?.delta.content) deltas.push(c.choices[0].delta.content);
      });
      const done = await stream.finalChatCompletion();
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(JSON.stringify(SAMPLE));
      expect(done.choices[0]!.message.parsed).toEqual(SAMPLE);
      expect(done.choices[0]!.finish_reason).toBe('stop');
      expect(done.usage?.completion_tokens).toBe(tokens(JSON.stringify(SAMPLE)));
    });

    it('answers json_object with a JSON object (any object schema)', async () => {
      const r = await w.openai.chat.completions.create({ model: 'claude-test', messages, response_format: { type: 'json_object' } });
      expect(JSON.parse(r.choices[0]!.message.content!)).toEqual({});
      expect((w.mock.requests[0]!.body as { tools: unknown[] }).tools).toEqual([expect.objectContaining({ name: OUTPUT_TOOL, input_schema: { type: 'object', additionalProperties: true } })]);
    });

    it("keeps the client's tools: Claude must call one of them or answer (any)", async () => {
      const tools: OpenAI.ChatCompletionTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const r = await w.openai.chat.completions.create({ model: 'claude-test', messages, tools, response_format: zodResponseFormat(Person, 'person') });
      expect(r.choices[0]!.message.content).toBeTypeOf('string');
      const sent = w.mock.requests[0]!.body as { tools: { name: string }[]; tool_choice: unknown };
      expect(sent.tools.map((t) => t.name)).toEqual(['get_weather', OUTPUT_TOOL]);
      expect(sent.tool_choice).toEqual({ type: 'any' });
    });
  });

  it('maps response_format to responseMimeType and responseJsonSchema on Gemini', async () => {
    const format = zodResponseFormat(Person, 'person');
    await w.openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], response_format: format });
    const sent = w.mock.requests[0]!.body as { generationConfig: Record<string, unknown> };
    expect(sent.generationConfig).toMatchObject({ responseMimeType: 'application/json', responseJsonSchema: format.json_schema.schema });
  });
});
