import { describe, expect, it } from 'vitest';
import type { ChatResponse, UpstreamTarget } from '../types';
import clientRequest from './fixtures/client-request.json';
import textResponse from './fixtures/response-text.json';
import streamText from './fixtures/stream-text.json';
import { anthropicToChatRequest, buildMessagesRequest, chatResponseToAnthropic, messagesStreamUsage, messagesUsage } from './messages';
import type { AnthropicUsage } from './wire';

const target: UpstreamTarget = { baseUrl: 'https://api.anthropic.com/v1', path: '', key: 'sk-ant', model: 'claude-real' };

describe('native /v1/messages pass-through', () => {
  it('replaces only the model and keeps everything else', () => {
    const r = buildMessagesRequest(target, clientRequest, { beta: 'interleaved-thinking-2025-05-14' });
    expect(r.url).toBe('https://api.anthropic.com/v1/messages');
    expect(r.headers).toMatchObject({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14' });
    expect(JSON.parse(r.body)).toEqual({ ...clientRequest, model: 'claude-real' });
  });

  it('reads usage from a JSON answer', () => {
    expect(messagesUsage(textResponse)).toEqual({ prompt_tokens: 3895, completion_tokens: 503, total_tokens: 4398, cached_tokens: 1800 });
    expect(messagesUsage({ type: 'error' })).toBeUndefined();
  });

  it('accumulates usage from stream events', () => {
    const state: AnthropicUsage = {};
    const seen = streamText.map((e) => messagesStreamUsage(e, state));
    expect(seen[0]).toEqual({ prompt_tokens: 35, completion_tokens: 1, total_tokens: 36, cached_tokens: 10 });
    expect(seen[6]).toEqual({ prompt_tokens: 35, completion_tokens: 15, total_tokens: 50, cached_tokens: 10 });
    expect(seen.filter(Boolean)).toHaveLength(2);
  });
});

describe('Anthropic request → OpenAI ChatRequest', () => {
  const req = anthropicToChatRequest(clientRequest);

  it('converts system, turns, images, tool use and tool results', () => {
    expect(req.messages).toEqual([
      { role: 'system', content: 'You are a weather bot.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and the weather?' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
        ],
      },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'toolu_01', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_01', content: '15 degrees' },
      { role: 'user', content: [{ type: 'text', text: 'And a photo:' }, { type: 'image_url', image_url: { url: 'https://example.com/p.png' } }] },
      { role: 'user', content: 'Short answer please.' },
    ]);
  });

  it('converts parameters and client tools (server tools are dropped)', () => {
    expect(req).toMatchObject({ model: 'claude-sonnet-4-20250514', max_tokens: 1024, stop: ['###'], temperature: 0.3, stream: true, user: 'user-42', tool_choice: 'auto', parallel_tool_calls: false });
    expect(req.tools).toEqual([{ type: 'function', function: { name: 'get_weather', description: 'Get the weather', parameters: clientRequest.tools[0]?.input_schema } }]);
    expect(req).not.toHaveProperty('top_k');
  });

  it('maps tool_choice any/tool/none', () => {
    const base = { messages: [], tools: [clientRequest.tools[0]] };
    expect(anthropicToChatRequest({ ...base, tool_choice: { type: 'any' } }).tool_choice).toBe('required');
    expect(anthropicToChatRequest({ ...base, tool_choice: { type: 'none' } }).tool_choice).toBe('none');
    expect(anthropicToChatRequest({ ...base, tool_choice: { type: 'tool', name: 'get_weather' } }).tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });

  it('accepts a string system and string content', () => {
    expect(anthropicToChatRequest({ model: 'm', system: 'sys', messages: [{ role: 'user', content: 'hi' }] }).messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'hi' },
    ]);
  });
});

describe('OpenAI ChatResponse → Anthropic message', () => {
  const res: ChatResponse = {
    id: 'chatcmpl-abc',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: 'On it.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }] }, finish_reason: 'tool_calls' }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, prompt_tokens_details: { cached_tokens: 60 } },
  };

  it('builds content blocks, stop reason and usage', () => {
    expect(chatResponseToAnthropic(res, 'claude-alias')).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'claude-alias',
      content: [
        { type: 'text', text: 'On it.' },
        { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'Paris' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 60, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 20 },
    });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    [null, 'end_turn'],
  ])('maps finish_reason %s → %s', (finish, stop) => {
    const r = { ...res, choices: [{ index: 0, message: { role: 'assistant' as const, content: 'x' }, finish_reason: finish }] };
    expect(chatResponseToAnthropic(r, 'm').stop_reason).toBe(stop);
  });
});

describe('structured output asked through Messages', () => {
  it('maps output_config.format and the beta output_format to a json_schema response_format', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const base = { model: 'm', max_tokens: 64, messages: [{ role: 'user', content: 'x' }] };
    for (const extra of [{ output_config: { format: { type: 'json_schema', schema } } }, { output_format: { type: 'json_schema', schema } }]) {
      expect(anthropicToChatRequest({ ...base, ...extra }).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema, strict: true } });
    }
    expect(anthropicToChatRequest({ ...base, output_config: { effort: 'high' } }).response_format).toBeUndefined();
  });
});
