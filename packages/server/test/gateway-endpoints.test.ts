// The OpenAI endpoints besides chat, through the official SDK: completions, embeddings, images, speech,
// transcriptions, moderations — the mock's answer, the exact charge, the log row; and the bad inputs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

const answer = (model: string, said: string) => `Hello from mock ${model}! You said: ${said}`;
/** The mock's token count (packages/mock-provider/src/text.ts). */
const tokens = (text: string) => Math.ceil(text.length / 4);

/** A mono 16-bit 16 kHz WAV of `seconds` of silence: 32 000 bytes per second after a 44-byte header. */
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

describe.each(dialects)('gateway endpoints on %s', (dialect) => {
  let w: World;
  /** An upstream that answers transcriptions in verbose_json, with the audio's duration. */
  let verbose: http.Server;

  const logOf = async (traceId: string | null) => {
    await w.flush();
    return w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('trace_id', '=', traceId ?? '').orderBy('attempt', 'desc').executeTakeFirstOrThrow();
  };
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${w.server.url}/v1/${path}`, { method: 'POST', headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json', ...headers }, body });

  beforeAll(async () => {
    w = await world(dialect);
    const create = async (body: Record<string, unknown>) => {
      const r = await w.admin.post('/api/v1/model/create', { corp: w.corp, is_public: true, is_enable_model_agent: true, ...body });
      if (r.body.code !== 0) throw new Error(`model ${String(body.name)}: ${r.body.message}`);
      return r.body.data.id as string;
    };
    const models = [
      await create({ name: 'emb-test', model: 'emb-test', type: 7, text_quota: { billing_method: 1, prompt_ratio: 3 } }),
      await create({ name: 'img-test', model: 'img-test', type: 2, image_quota: { billing_method: 2, fixed_quota: 50, generation_quotas: [{ quality: '', width: 1024, height: 1024, fixed_quota: 70 }] } }),
      await create({ name: 'tts-test', model: 'tts-test', type: 5, audio_quota: { billing_method: 1, prompt_ratio: 2 } }),
      await create({ name: 'stt-test', model: 'stt-test', type: 6, audio_quota: { billing_method: 1, prompt_ratio: 10 } }),
    ];
    const agent = await w.admin.post('/api/v1/model/agent/create', { corp: w.corp, name: 'media', base_url: w.mock.url, models, key: 'sk-mock-media-key', lb_strategy: 1 });
    if (agent.body.code !== 0) throw new Error(`agent: ${agent.body.message}`);
    // A text model behind an Anthropic agent: no OpenAI-style endpoints there.
    const anthropic = (await w.admin.post('/api/v1/corp/create', { name: 'Anthropic', code: 'Anthropic', is_public: true })).body.data.id as string;
    const claude = (await w.admin.post('/api/v1/model/create', { corp: anthropic, name: 'claude-test', model: 'claude-test', type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } })).body.data.id as string;
    await w.admin.post('/api/v1/model/agent/create', { corp: anthropic, name: 'claude', base_url: w.mock.url, models: [claude], key: 'sk-mock-claude-key', lb_strategy: 1 });
    verbose = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ task: 'transcribe', language: 'english', duration: 2.5, text: 'verbose words', segments: [] })));
    });
    await new Promise<void>((r) => verbose.listen(0, '127.0.0.1', r));
    const sttVerbose = await create({ name: 'stt-verbose', model: 'stt-verbose', type: 6, audio_quota: { billing_method: 1, prompt_ratio: 10 } });
    const url = `http://127.0.0.1:${(verbose.address() as AddressInfo).port}`;
    await w.admin.post('/api/v1/model/agent/create', { corp: w.corp, name: 'verbose', base_url: url, models: [sttVerbose], key: 'sk-verbose', lb_strategy: 1 });
    await settled(w);
  });
  afterAll(async () => {
    verbose?.close();
    await w?.close();
  });
  beforeEach(() => {
    w.mock.faults.clear();
    w.mock.requests.length = 0;
  });

  it('answers legacy completions and charges the chat price', async () => {
    const before = await w.quotaOf(w.user.userId);
    const { data, response } = await w.openai.completions.create({ model: 'gpt-test', prompt: 'ping', max_tokens: 50 }).withResponse();
    expect(data.choices[0]!.text).toBe(answer('gpt-test', 'ping'));
    expect(data.model).toBe('gpt-test');
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/completions', model: 'gpt-test' });
    const cost = 1 + tokens(answer('gpt-test', 'ping')) * 2;
    const log = await logOf(response.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/completions', total_price: cost, prompt: 'ping', prompt_tokens: 1 });
    expect(await w.quotaOf(w.user.userId)).toBe(before - cost);
  });

  it('streams legacy completions', async () => {
    const before = await w.quotaOf(w.user.userId);
    const stream = await w.openai.completions.create({ model: 'gpt-test', prompt: 'hi there', stream: true });
    let text = '';
    for await (const chunk of stream) {
      expect(chunk.model).toBe('gpt-test');
      expect(chunk.usage ?? undefined).toBeUndefined();
      text += chunk.choices[0]?.text ?? '';
    }
    expect(text).toBe(answer('gpt-test', 'hi there'));
    // Usage was asked for upstream although the client did not ask for it.
    expect((w.mock.requests[0]!.body as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before - (2 + tokens(text) * 2));
  });

  it('answers embeddings priced on prompt tokens', async () => {
    const before = await w.quotaOf(w.user.userId);
    const { data, response } = await w.openai.embeddings.create({ model: 'emb-test', input: 'hello world' }).withResponse();
    expect(data.model).toBe('emb-test');
    expect(data.data[0]!.embedding).toHaveLength(8);
    expect(data.usage.prompt_tokens).toBe(3);
    const log = await logOf(response.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/embeddings', total_price: 9, prompt: 'hello world', model: 'emb-test' });
    expect(await w.quotaOf(w.user.userId)).toBe(before - 9);
  });

  it('generates images at the per-image price of their size', async () => {
    const before = await w.quotaOf(w.user.userId);
    const { data, response } = await w.openai.images.generate({ model: 'img-test', prompt: 'a cat', n: 2, size: '1024x1024' }).withResponse();
    expect(data.data).toHaveLength(2);
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/images/generations', model: 'img-test' });
    const log = await logOf(response.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/images/generations', total_price: 140, prompt: 'a cat' });
    expect(await w.quotaOf(w.user.userId)).toBe(before - 140);
  });

  it('relays speech audio with its content type, priced per character', async () => {
    const before = await w.quotaOf(w.user.userId);
    const res = await w.openai.audio.speech.create({ model: 'tts-test', voice: 'alloy', input: 'Hello world' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const audio = Buffer.from(await res.arrayBuffer());
    expect(audio.subarray(0, 3).toString()).toBe('ID3');
    expect(audio.length).toBe(3 + 11 * 16);
    const log = await logOf(res.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/audio/speech', total_price: 22, prompt: 'Hello world' });
    expect(await w.quotaOf(w.user.userId)).toBe(before - 22);
  });

  it('forwards a transcription upload and prices it by seconds (WAV header, else the size estimate)', async () => {
    const before = await w.quotaOf(w.user.userId);
    const file = wav(1);
    const { data, response } = await w.openai.audio.transcriptions.create({ model: 'stt-test', file: await toFile(file, 'a.wav') }).withResponse();
    // The mock saw the whole multipart body (the model's value swapped for the same-length upstream id).
    expect(data.text).toMatch(/^Mock transcription of \d+ bytes\.$/);
    expect(Number(/of (\d+) bytes/.exec(data.text)![1])).toBeGreaterThan(file.length);
    expect(w.mock.requests[0]).toMatchObject({ path: '/v1/audio/transcriptions' });
    const log = await logOf(response.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/audio/transcriptions', total_price: 10, model: 'stt-test', completion: data.text });
    expect(await w.quotaOf(w.user.userId)).toBe(before - 10);
    // Not a WAV: 48 000 bytes at the 16 000 bytes-per-second guess = 3 s.
    await w.openai.audio.transcriptions.create({ model: 'stt-test', file: await toFile(Buffer.alloc(48_000, 7), 'a.mp3') });
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before - 10 - 30);
  });

  it("prices a transcription by the upstream's verbose_json duration", async () => {
    const before = await w.quotaOf(w.user.userId);
    const r = await w.openai.audio.transcriptions.create({ model: 'stt-verbose', file: await toFile(wav(1), 'a.wav'), response_format: 'verbose_json' });
    expect(r).toMatchObject({ text: 'verbose words', duration: 2.5 });
    await w.flush();
    // 2.5 s × 10, although the file's header says 1 s.
    expect(await w.quotaOf(w.user.userId)).toBe(before - 25);
  });

  it('answers moderations for free but logs them', async () => {
    const before = await w.quotaOf(w.user.userId);
    const { data, response } = await w.openai.moderations.create({ model: 'gpt-test', input: 'I will kill the process' }).withResponse();
    expect(data.results[0]!.flagged).toBe(true);
    expect(data.model).toBe('gpt-test');
    const log = await logOf(response.headers.get('x-trace-id'));
    expect(log).toMatchObject({ status: 1, endpoint: '/v1/moderations', total_price: 0, prompt: 'I will kill the process' });
    expect(await w.quotaOf(w.user.userId)).toBe(before);
  });

  it('refuses an endpoint the model type or family does not serve, before any upstream call and without a charge', async () => {
    const before = await w.quotaOf(w.user.userId);
    await expect(w.openai.embeddings.create({ model: 'gpt-test', input: 'x' })).rejects.toMatchObject({ status: 400, code: 'unsupported_endpoint' });
    await expect(w.openai.images.generate({ model: 'emb-test', prompt: 'x' })).rejects.toMatchObject({ status: 400, code: 'unsupported_endpoint' });
    // The right type, but an Anthropic route: Anthropic has no legacy completions.
    await expect(w.openai.completions.create({ model: 'claude-test', prompt: 'x' })).rejects.toMatchObject({ status: 400, code: 'unsupported_endpoint' });
    expect(w.mock.requests).toHaveLength(0);
    await w.flush();
    expect(await w.quotaOf(w.user.userId)).toBe(before);
  });

  it('answers bad input in the OpenAI shape: 413, invalid JSON, wrong types, unknown model, bad key', async () => {
    const huge = await post('embeddings', JSON.stringify({ model: 'emb-test', input: 'x'.repeat(11 * 1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: 'request_too_large' } });
    const bad = await post('completions', '{oops');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_json', type: 'invalid_request_error' } });
    const typed = await post('embeddings', JSON.stringify({ model: 'emb-test', input: 5 }));
    expect(typed.status).toBe(400);
    const speech = await post('audio/speech', JSON.stringify({ model: 'tts-test', voice: 'alloy', input: 'x', speed: 'fast' }));
    expect(speech.status).toBe(400);
    expect(await speech.json()).toMatchObject({ error: { code: 'invalid_type' } });
    const notMultipart = await post('audio/transcriptions', JSON.stringify({ model: 'stt-test' }));
    expect(notMultipart.status).toBe(415);
    await expect(w.openai.embeddings.create({ model: 'nope', input: 'x' })).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    const stranger = new OpenAI({ apiKey: 'sk-FastAPInotakey', baseURL: `${w.server.url}/v1`, maxRetries: 0 });
    await expect(stranger.images.generate({ model: 'img-test', prompt: 'x' })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(w.mock.requests).toHaveLength(0);
  });

  it('sent every answer once and hit no unhandled error', () => {
    expect(w.server.logs.join('')).not.toMatch(/FST_ERR_REP_ALREADY_SENT|unhandled gateway error|Reply was already sent/);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
