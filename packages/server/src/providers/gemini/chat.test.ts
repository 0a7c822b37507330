import { describe, expect, it } from 'vitest';
import type { ChatRequest, UpstreamTarget } from '../types';
import { fromGeminiResponse, toGeminiRequest } from './chat';
import blocked from './fixtures/response-blocked.json';
import callResponse from './fixtures/response-function-call.json';
import textResponse from './fixtures/response-text.json';
import { geminiAdapter } from './index';

const CALL_ID = /^call_[0-9a-f]{32}$/;

const target: UpstreamTarget = { baseUrl: 'https://generativelanguage.googleapis.com', path: '', key: 'AIza-test', model: 'gemini-2.0-flash' };

const conversation: ChatRequest = {
  model: 'gemini',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } }, { type: 'image_url', image_url: { url: 'https://example.com/x.webp' } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } }, { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
    { role: 'tool', tool_call_id: 'call_2', content: '12:00' },
    { role: 'assistant', content: 'It is 21°C.' },
    { role: 'user', content: 'Thanks' },
  ],
  tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false, properties: { location: { type: 'string' } } } } }],
  tool_choice: { type: 'function', function: { name: 'get_weather' } },
  max_tokens: 256,
  temperature: 0.2,
  top_p: 0.8,
  stop: ['END'],
  response_format: { type: 'json_object' },
};

describe('OpenAI chat → Gemini generateContent', () => {
  it('builds URLs and the key header', () => {
    const r = geminiAdapter.chat.buildRequest(target, { model: 'g', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent');
    expect(r.headers).toEqual({ 'x-goog-api-key': 'AIza-test', 'content-type': 'application/json' });
    expect(JSON.parse(r.body)).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    const s = geminiAdapter.chat.buildRequest(target, { model: 'g', messages: [], stream: true });
    expect(s.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse');
  });

  it('converts roles, images, tool calls and tool results', () => {
    const body = toGeminiRequest(conversation);
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather?' }, { inline_data: { mime_type: 'image/png', data: 'iVBOR' } }, { file_data: { mime_type: 'image/webp', file_uri: 'https://example.com/x.webp' } }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Paris' } } }, { functionCall: { name: 'get_time', args: {} } }] },
      // Parallel tool results merge into one user turn; the name comes from the matching call.
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', response: { temp: 21 } } }, { functionResponse: { name: 'get_time', response: { output: '12:00' } } }],
      },
      { role: 'model', parts: [{ text: 'It is 21°C.' }] },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
  });

  it('converts generation parameters, tools and tool_choice', () => {
    const body = toGeminiRequest(conversation);
    expect(body.generationConfig).toEqual({ maxOutputTokens: 256, temperature: 0.2, topP: 0.8, stopSequences: ['END'], responseMimeType: 'application/json' });
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } }] }]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
    expect(toGeminiRequest({ ...conversation, tool_choice: 'none' }).toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(toGeminiRequest({ ...conversation, tool_choice: 'required' }).toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(toGeminiRequest({ ...conversation, tool_choice: 'auto' }).toolConfig).toBeUndefined();
    expect(toGeminiRequest({ model: 'g', messages: [], stop: 'x', max_completion_tokens: 5 }).generationConfig).toEqual({ stopSequences: ['x'], maxOutputTokens: 5 });
  });
});

describe('Gemini answer → OpenAI chat response', () => {
  it('reads text, thoughts, finish reason and usage (thinking counts as completion)', () => {
    const { body, usage } = fromGeminiResponse(textResponse, 1700000000);
    expect(body).toMatchObject({ id: 'pZmRaOGxC4mj1dkP1cHm4Ag', object: 'chat.completion', created: 1700000000, model: 'gemini-2.5-flash' });
    expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?', reasoning_content: 'Let me think.' }, finish_reason: 'stop' }]);
    expect(usage).toEqual({ prompt_tokens: 12, completion_tokens: 29, total_tokens: 41, cached_tokens: 4, reasoning_tokens: 20 });
  });

  it('reads function calls as tool_calls', () => {
    const { body, usage } = fromGeminiResponse(callResponse);
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: expect.stringMatching(CALL_ID), type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
          { id: expect.stringMatching(CALL_ID), type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
    expect(usage).toEqual({ prompt_tokens: 70, completion_tokens: 12, total_tokens: 82 });
  });

  it('gives calls and answers without Gemini ids random ids, unique per call and per answer', () => {
    const ids = [fromGeminiResponse(callResponse), fromGeminiResponse(callResponse)].flatMap(({ body }) => body.choices[0]!.message.tool_calls!.map((c) => c.id));
    expect(new Set(ids).size).toBe(4);
    const bare = { candidates: textResponse.candidates };
    const [a, b] = [fromGeminiResponse(bare, 1700000000).body.id, fromGeminiResponse(bare, 1700000000).body.id];
    expect(a).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
    // An id Gemini gave is kept (the function call's own id, the answer's responseId).
    const withId = { candidates: [{ content: { role: 'model', parts: [{ functionCall: { id: 'fc-1', name: 'f', args: {} } }] }, finishReason: 'STOP' }] };
    expect(fromGeminiResponse(withId).body.choices[0]!.message.tool_calls![0]!.id).toBe('fc-1');
  });

  it.each([
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['OTHER', 'stop'],
  ])('maps finishReason %s → %s', (reason, finish) => {
    const json = { ...textResponse, candidates: [{ ...textResponse.candidates[0], finishReason: reason }] };
    expect(fromGeminiResponse(json).body.choices[0]?.finish_reason).toBe(finish);
  });

  it('answers a blocked prompt with content_filter', () => {
    const { body, usage } = fromGeminiResponse(blocked);
    expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' }]);
    expect(usage).toEqual({ prompt_tokens: 8, completion_tokens: 0, total_tokens: 8 });
  });

  it('rejects a body that is not a Gemini answer', () => {
    expect(() => fromGeminiResponse({ foo: 1 })).toThrow(/not a Gemini answer/);
  });
});

describe('reasoning_effort → thinkingConfig', () => {
  it('asks for a budget by effort and for the thoughts', () => {
    const body = toGeminiRequest({ model: 'g', messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'low' });
    expect(body.generationConfig).toMatchObject({ thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
    expect(toGeminiRequest({ model: 'g', messages: [{ role: 'user', content: 'x' }] }).generationConfig?.thinkingConfig).toBeUndefined();
  });
});
