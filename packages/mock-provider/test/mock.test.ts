import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../src/server';
import { countTokens } from '../src/text';

describe('mock provider', () => {
  let mock: MockProvider;
  let client: OpenAI;

  beforeAll(async () => {
    mock = await startMockProvider();
    client = new OpenAI({ apiKey: 'sk-test-1', baseURL: `${mock.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => mock?.close());
  beforeEach(() => {
    mock.faults.clear();
    mock.requests.length = 0;
  });

  it('answers chat with predictable content and usage', async () => {
    const r = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] });
    expect(r.choices[0]!.message.content).toBe('Hello from mock gpt-4o-mini! You said: ping');
    expect(r.usage).toEqual({ prompt_tokens: 1, completion_tokens: countTokens('Hello from mock gpt-4o-mini! You said: ping'), total_tokens: 1 + 11 });
    expect(mock.requests[0]).toMatchObject({ path: '/v1/chat/completions', key: 'sk-test-1', model: 'gpt-4o-mini' });
  });

  it('streams chat with a usage chunk when asked', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi there' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe('Hello from mock gpt-4o! You said: hi there');
    expect(usage).toMatchObject({ prompt_tokens: 2 });
  });

  it('injects faults by prompt directive and per key', async () => {
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '[[mock:status=503]] hi' }] })).rejects.toMatchObject({ status: 503 });
    mock.faults.add({ key: 'sk-test-1', status: 401, error: 'Incorrect API key provided', times: 1 });
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ status: 401 });
    // The key fault was used up.
    expect((await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })).choices).toHaveLength(1);
    await expect(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '[[mock:reset]]' }] })).rejects.toThrow();
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '[[mock:fail_after=2]] a b c d e' }], stream: true });
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const c of stream) got.push(c.choices[0]?.delta.content ?? '');
      })(),
    ).rejects.toThrow();
    expect(got.join('')).toBe('Hello from ');
    const slow = new OpenAI({ apiKey: 'k', baseURL: `${mock.url}/v1`, maxRetries: 0, timeout: 200 });
    await expect(slow.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '[[mock:timeout]]' }] })).rejects.toThrow(/timed out/i);
  });

  it('stalls a stream after N chunks, holding the connection open until the client leaves', async () => {
    const ac = new AbortController();
    const res = await fetch(`${mock.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: '[[mock:stall_after=2]] a b c d' }] }),
      signal: ac.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    // Read until 300 ms pass without a byte: the stall.
    for (;;) {
      const next = await Promise.race([reader.read(), new Promise<'idle'>((r) => setTimeout(() => r('idle'), 300))]);
      if (next === 'idle') break;
      if (next.done) throw new Error('the stream ended instead of stalling');
      text += new TextDecoder().decode(next.value);
    }
    const contents = [...text.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]);
    expect(contents).toEqual(['', 'Hello ', 'from ']);
    expect(text).not.toContain('[DONE]');
    ac.abort();
    await reader.cancel().catch(() => undefined);
  });

  it('serves embeddings, images, speech, transcriptions, moderations and models', async () => {
    const e = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    expect(e.data).toHaveLength(2);
    expect(e.data[0]!.embedding).toHaveLength(8);
    expect((await client.images.generate({ model: 'dall-e-3', prompt: 'cat', n: 2 })).data).toHaveLength(2);
    const audio = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'hello' });
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(3);
    const t = await client.audio.transcriptions.create({ model: 'whisper-1', file: new File([new Uint8Array(100)], 'a.mp3') });
    expect(t.text).toMatch(/Mock transcription/);
    expect((await client.moderations.create({ input: 'I will kill it' })).results[0]!.flagged).toBe(true);
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4o-mini');
  });

  it('speaks Anthropic Messages, JSON and stream, with its error shape', async () => {
    const anthropic = new Anthropic({ apiKey: 'sk-ant-1', baseURL: mock.url, maxRetries: 0 });
    const m = await anthropic.messages.create({ model: 'claude-3-5-sonnet', max_tokens: 100, messages: [{ role: 'user', content: 'yo' }] });
    expect(m.content[0]).toMatchObject({ type: 'text', text: 'Hello from mock claude-3-5-sonnet! You said: yo' });
    expect(m.usage.input_tokens).toBe(1);
    const stream = anthropic.messages.stream({ model: 'claude-3-5-sonnet', max_tokens: 100, messages: [{ role: 'user', content: 'yo' }] });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ text: 'Hello from mock claude-3-5-sonnet! You said: yo' });
    expect(final.usage.output_tokens).toBeGreaterThan(1);
    await expect(anthropic.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: '[[mock:status=429]]' }] })).rejects.toMatchObject({ status: 429 });
  });

  it('counts Messages tokens like its messages report them, and wants anthropic-version', async () => {
    const anthropic = new Anthropic({ apiKey: 'sk-ant-1', baseURL: mock.url, maxRetries: 0 });
    const body = { model: 'claude-3-5-sonnet', system: 'be brief', messages: [{ role: 'user' as const, content: 'count these words' }] };
    const { input_tokens } = await anthropic.messages.countTokens(body);
    expect(input_tokens).toBe(countTokens('be brief\ncount these words'));
    expect((await anthropic.messages.create({ ...body, max_tokens: 10 })).usage.input_tokens).toBe(input_tokens);
    expect(mock.requests[0]).toMatchObject({ path: '/v1/messages/count_tokens', key: 'sk-ant-1', headers: { 'anthropic-version': expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) as string } });
    const unversioned = await fetch(`${mock.url}/v1/messages/count_tokens`, { method: 'POST', headers: { 'x-api-key': 'k', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(unversioned.status).toBe(400);
    expect(await unversioned.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
  });

  it('speaks Gemini generateContent, JSON and SSE', async () => {
    const body = { contents: [{ role: 'user', parts: [{ text: 'hola' }] }] };
    const r = await fetch(`${mock.url}/v1beta/models/gemini-1.5-flash:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': 'g1', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await r.json()) as { candidates: { content: { parts: { text: string }[] } }[]; usageMetadata: { promptTokenCount: number } };
    expect(json.candidates[0]!.content.parts[0]!.text).toBe('Hello from mock gemini-1.5-flash! You said: hola');
    expect(json.usageMetadata.promptTokenCount).toBe(1);
    const s = await fetch(`${mock.url}/v1beta/models/gemini-1.5-flash:streamGenerateContent?alt=sse&key=g1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await s.text();
    expect(text.match(/^data: /gm)!.length).toBeGreaterThan(2);
    expect(text).toContain('"finishReason":"STOP"');
  });

  it('serves Azure deployments and rejects a missing key', async () => {
    const r = await fetch(`${mock.url}/openai/deployments/my-gpt/chat/completions?api-version=2024-06-01`, {
      method: 'POST',
      headers: { 'api-key': 'az1', 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }),
    });
    expect(((await r.json()) as { model: string }).model).toBe('my-gpt');
    const none = await fetch(`${mock.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
  });
  describe('async tasks', () => {
    const submit = (body: Record<string, unknown>, key = 'sk-task') =>
      fetch(`${mock.url}/v1/tasks`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const poll = async (id: string, key = 'sk-task') => {
      const r = await fetch(`${mock.url}/v1/tasks/${id}`, { headers: { authorization: `Bearer ${key}` } });
      return { status: r.status, body: (await r.json()) as Record<string, any> };
    };

    it('queues a task and finishes it at the second poll with URLs derived from its id', async () => {
      const r = await submit({ model: 'dh-1', kind: 'video', text: 'hello', duration: 42 });
      const queued = (await r.json()) as { id: string; status: string };
      expect(queued).toMatchObject({ status: 'queued', object: 'task', model: 'dh-1' });
      expect(queued.id).toMatch(/^mtask-\d{6}$/);
      const first = await poll(queued.id);
      expect(first.body).toMatchObject({ status: 'processing', progress: 50, video_url: '', duration: 0, error: null });
      const second = await poll(queued.id);
      expect(second.body).toMatchObject({
        status: 'succeeded',
        progress: 100,
        audio_url: '',
        video_url: `${mock.url}/files/${queued.id}.mp4`,
        cover_url: `${mock.url}/files/${queued.id}.jpg`,
        duration: 42,
        error: null,
      });
      expect(mock.requests.map((q) => `${q.method} ${q.path} ${q.model}`)).toEqual(['POST /v1/tasks dh-1', `GET /v1/tasks/${queued.id} dh-1`, `GET /v1/tasks/${queued.id} dh-1`]);
    });

    it('follows directives: fail, stall, polls, queued, duration, and a submission error', async () => {
      const failed = (await (await submit({ model: 'ac-1', kind: 'audio', text: '[[mock:task=fail]][[mock:error=voice rejected]][[mock:polls=1]]' })).json()) as { id: string };
      expect((await poll(failed.id)).body).toMatchObject({ status: 'failed', audio_url: '', error: { message: 'voice rejected' } });

      const stalled = (await (await submit({ model: 'dh-1', text: '[[mock:task=stall]][[mock:queued=1]]' })).json()) as { id: string };
      expect((await poll(stalled.id)).body.status).toBe('queued');
      for (let i = 0; i < 5; i++) expect((await poll(stalled.id)).body).toMatchObject({ status: 'processing', progress: 99 });

      const slow = (await (await submit({ model: 'ac-1', kind: 'audio', text: '[[mock:polls=3]][[mock:duration=7]]' })).json()) as { id: string };
      expect((await poll(slow.id)).body.status).toBe('processing');
      expect((await poll(slow.id)).body.status).toBe('processing');
      expect((await poll(slow.id)).body).toMatchObject({ status: 'succeeded', audio_url: `${mock.url}/files/${slow.id}.mp3`, video_url: '', duration: 7 });

      const refused = await submit({ model: 'dh-1', text: '[[mock:status=503]]' });
      expect(refused.status).toBe(503);
      expect((await submit({ text: 'no model' })).status).toBe(400);
      expect((await poll('mtask-none')).status).toBe(404);
    });

    it('takes task outcomes from a per-key fault', async () => {
      mock.faults.add({ key: 'sk-task-2', model: 'vsc-1', task: 'fail', polls: 1, times: 1 });
      const t = (await (await submit({ model: 'vsc-1', video_url: 'https://x/a.mp4' }, 'sk-task-2')).json()) as { id: string };
      expect((await poll(t.id, 'sk-task-2')).body.status).toBe('failed');
      // Used up: the next task of that key succeeds (with the default duration).
      const next = (await (await submit({ model: 'vsc-1', kind: 'videosecondcreation' }, 'sk-task-2')).json()) as { id: string };
      await poll(next.id, 'sk-task-2');
      expect((await poll(next.id, 'sk-task-2')).body).toMatchObject({ status: 'succeeded', duration: 10 });
    });
  });
});
