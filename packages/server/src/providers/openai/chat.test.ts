import { describe, expect, it } from 'vitest';
import type { ChatRequest, UpstreamTarget } from '../types';
import { openaiChat, parseOpenAIResponse, toOpenAIBody } from './chat';
import chatResponse from './fixtures/chat-response.json';
import toolResponse from './fixtures/chat-tool-response.json';
import streamEvents from './fixtures/stream-events.json';

const target: UpstreamTarget = { baseUrl: 'https://api.openai.com', path: '', key: 'sk-test', model: 'gpt-4o-mini' };
const req = (extra: Partial<ChatRequest> = {}): ChatRequest => ({ model: 'alias', messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }], ...extra });

describe('openai chat request', () => {
  it('sets the upstream model, URL and bearer auth, and keeps unknown fields', () => {
    const r = openaiChat.buildRequest(target, req({ seed: 7, logprobs: true }));
    expect(r.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(r.headers).toEqual({ authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ model: 'gpt-4o-mini', seed: 7, logprobs: true });
    expect(body.stream_options).toBeUndefined();
  });

  it('forces include_usage on streams unless the client set stream_options', () => {
    expect(toOpenAIBody('gpt-4o', req({ stream: true })).stream_options).toEqual({ include_usage: true });
    expect(toOpenAIBody('gpt-4o', req({ stream: true, stream_options: { include_usage: false } })).stream_options).toEqual({ include_usage: false });
    // stream_options without stream is a 400 at OpenAI.
    expect(toOpenAIBody('gpt-4o', req({ stream_options: { include_usage: true } }))).not.toHaveProperty('stream_options');
  });

  it.each(['o1', 'o1-mini', 'o3-mini', 'o4-mini', 'gpt-5', 'gpt-5-nano', 'openai/o3'])('moves max_tokens to max_completion_tokens for %s', (model) => {
    const body = toOpenAIBody(model, req({ max_tokens: 100 }));
    expect(body.max_completion_tokens).toBe(100);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('keeps max_tokens for other models and an explicit max_completion_tokens wins', () => {
    expect(toOpenAIBody('gpt-4o', req({ max_tokens: 100 })).max_tokens).toBe(100);
    expect(toOpenAIBody('omni-moderation', req({ max_tokens: 1 })).max_tokens).toBe(1);
    expect(toOpenAIBody('o3', req({ max_tokens: 100, max_completion_tokens: 50 })).max_completion_tokens).toBe(50);
  });

  it('turns system into developer for o1/o3 only', () => {
    expect(toOpenAIBody('o1', req()).messages[0]?.role).toBe('developer');
    expect(toOpenAIBody('o3-mini-2025-01-31', req()).messages[0]?.role).toBe('developer');
    expect(toOpenAIBody('o4-mini', req()).messages[0]?.role).toBe('system');
    expect(toOpenAIBody('gpt-4o', req()).messages[0]?.role).toBe('system');
  });

  it('sends what the copying version sent, and the request itself when nothing changes', () => {
    // The version that copied every body: the reference for the text sent upstream.
    const copying = (model: string, request: ChatRequest): ChatRequest => {
      const body: ChatRequest = { ...request, model };
      if (body.stream) {
        if (body.stream_options === undefined) body.stream_options = { include_usage: true };
      }
      else delete body.stream_options;
      if (/^(?:[\w.-]+\/)?(?:o\d|gpt-5)/i.test(model) && body.max_tokens !== undefined) {
        body.max_completion_tokens ??= body.max_tokens;
        delete body.max_tokens;
      }
      if (/^(?:[\w.-]+\/)?o[13](?:$|-)/i.test(model)) body.messages = body.messages.map((m) => (m.role === 'system' ? { ...m, role: 'developer' } : m));
      return body;
    };
    const cases: [string, ChatRequest][] = [];
    for (const model of ['gpt-4o', 'alias', 'o1', 'o3-mini', 'gpt-5', 'org/o4-mini'])
      for (const extra of [{}, { stream: true }, { stream: false }, { stream: true, stream_options: { include_usage: false } }, { stream_options: { include_usage: true } }, { stream: true, stream_options: undefined }, { max_tokens: 9 }, { stream: true, max_tokens: 9, max_completion_tokens: 4 }] as Partial<ChatRequest>[])
        cases.push([model, req({ ...extra, model })], [model, req(extra)]);
    for (const [model, request] of cases) {
      const before = JSON.stringify(request);
      expect(JSON.stringify(toOpenAIBody(model, request))).toBe(JSON.stringify(copying(model, request)));
      expect(JSON.stringify(request)).toBe(before);
    }
    const plain = req({ model: 'gpt-4o', stream: false });
    expect(toOpenAIBody('gpt-4o', plain)).toBe(plain);
  });

  it('does not mutate the caller request', () => {
    const r = req({ stream: true, max_tokens: 10 });
    toOpenAIBody('o1', r);
    expect(r).toEqual(req({ stream: true, max_tokens: 10 }));
  });
});

describe('openai chat response', () => {
  it('keeps the body and reads usage with cached tokens', () => {
    const { body, usage } = parseOpenAIResponse(chatResponse);
    expect(body.choices[0]?.message.content).toBe('Hello! How can I assist you today?');
    expect(body.system_fingerprint).toBe('fp_50cad350e4');
    expect(usage).toEqual({ prompt_tokens: 1219, completion_tokens: 10, total_tokens: 1229, cached_tokens: 1024 });
  });

  it('passes tool calls through', () => {
    const { body, usage } = parseOpenAIResponse(toolResponse);
    expect(body.choices[0]?.message.tool_calls?.[0]?.function.name).toBe('get_current_weather');
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
    expect(usage).toEqual({ prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 });
  });

  it('rejects a body that is not a chat completion', () => {
    expect(() => parseOpenAIResponse({ object: 'list' })).toThrow(/not a chat completion/);
  });
});

describe('openai stream', () => {
  it('passes chunks through, reads the usage chunk and stops at [DONE]', () => {
    const state = openaiChat.newStreamState();
    const steps = streamEvents.map((data) => openaiChat.parseStreamEvent({ data }, state));
    const text = steps.flatMap((s) => s.chunks).map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hello!');
    expect(steps[4]?.usage).toEqual({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
    expect(steps[0]?.usage).toBeUndefined();
    expect(steps[5]).toEqual({ chunks: [], done: true });
  });

  it('ignores non-JSON data and surfaces an in-stream error object', () => {
    const state = openaiChat.newStreamState();
    expect(openaiChat.parseStreamEvent({ data: ': keep-alive' }, state)).toEqual({ chunks: [] });
    const step = openaiChat.parseStreamEvent({ data: '{"error":{"message":"Rate limit reached","type":"requests","code":429}}' }, state);
    expect(step.error).toMatchObject({ status: 429, message: 'Rate limit reached', type: 'requests', code: '429' });
  });
});
