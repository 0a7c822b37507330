import { describe, expect, it } from 'vitest';
import type { ChatResponse } from '../types';
import { chatResponseToGemini, geminiToChatMessages, geminiToChatRequest, reasoningEffort, toGeminiFinish, toJsonSchema } from './ingress';

describe('Gemini request → chat request', () => {
  it('maps turns and media: text, inline data (images and audio), file URIs; thoughts are dropped', () => {
    const messages = geminiToChatMessages([
      {
        role: 'user',
        parts: [{ text: 'Look' }, { inlineData: { mimeType: 'image/png', data: 'iVBOR' } }, { inline_data: { mime_type: 'audio/mpeg', data: 'SUQz' } }, { fileData: { mimeType: 'image/jpeg', fileUri: 'https://x/y.jpg' } }],
      },
      { role: 'model', parts: [{ text: 'hmm', thought: true }, { text: 'A cat.' }] },
      { parts: [{ text: 'Thanks' }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
          { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
          { type: 'image_url', image_url: { url: 'https://x/y.jpg' } },
        ],
      },
      { role: 'assistant', content: 'A cat.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('gives id-less calls stable ids and pairs responses by id, then name, then order', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Weather and time?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_time', args: {} } }] },
      // Answered out of order: paired by name.
      { role: 'user', parts: [{ functionResponse: { name: 'get_time', response: { output: '12:00' } } }, { functionResponse: { name: 'get_weather', response: { temp: 21 } } }] },
      { role: 'model', parts: [{ text: 'Checking again.' }, { functionCall: { id: 'abc', name: 'get_weather', args: { city: 'Rome' } } }, { functionCall: { name: 'x', args: {} } }] },
      // By id; then a response whose name matches nothing takes the earliest open call.
      { role: 'user', parts: [{ functionResponse: { id: 'abc', name: 'get_weather', response: { temp: 25 } } }, { functionResponse: { name: 'renamed', response: {} } }, { text: 'and now?' }] },
    ];
    const messages = geminiToChatMessages(contents);
    expect(messages).toEqual([
      { role: 'user', content: 'Weather and time?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_1_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1_1', content: '12:00' },
      { role: 'tool', tool_call_id: 'call_1_0', content: '{"temp":21}' },
      {
        role: 'assistant',
        content: 'Checking again.',
        tool_calls: [
          { id: 'abc', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          { id: 'call_3_1', type: 'function', function: { name: 'x', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'abc', content: '{"temp":25}' },
      { role: 'tool', tool_call_id: 'call_3_1', content: '{}' },
      { role: 'user', content: 'and now?' },
    ]);
    // The same conversation gives the same ids (upstream prompt caches match it again).
    expect(geminiToChatMessages(contents)).toEqual(messages);
  });

  it('keeps a response to no call as text', () => {
    expect(geminiToChatMessages([{ role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { found: true } } }] }])).toEqual([{ role: 'user', content: 'lookup: {"found":true}' }]);
  });

  it('maps the system instruction, tools, tool config and generation config', () => {
    const req = geminiToChatRequest('m', {
      systemInstruction: { role: 'system', parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      tools: [
        { functionDeclarations: [{ name: 'a', description: 'A', parameters: { type: 'OBJECT', properties: { q: { type: 'STRING' } } } }, { name: 'b', parametersJsonSchema: { type: 'object', additionalProperties: false } }, { name: 'c' }] },
        { googleSearch: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'b'] } },
      generationConfig: { maxOutputTokens: 100, temperature: 0.3, topP: 0.9, topK: 40, stopSequences: ['x'], candidateCount: 2, seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.2, thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } },
    });
    expect(req).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.\nBe kind.' },
        { role: 'user', content: 'hi' },
      ],
      max_tokens: 100,
      temperature: 0.3,
      top_p: 0.9,
      stop: ['x'],
      n: 2,
      seed: 7,
      presence_penalty: 0.1,
      frequency_penalty: 0.2,
      reasoning_effort: 'high',
      // ANY with names: only those functions, any of them required.
      tools: [
        { type: 'function', function: { name: 'a', description: 'A', parameters: { type: 'object', properties: { q: { type: 'string' } } } } },
        { type: 'function', function: { name: 'b', parameters: { type: 'object', additionalProperties: false } } },
      ],
      tool_choice: 'required',
    });
  });

  it.each([
    [{ mode: 'AUTO' }, 'auto'],
    [{ mode: 'NONE' }, 'none'],
    [{ mode: 'ANY' }, 'required'],
    [{ mode: 'ANY', allowedFunctionNames: ['a'] }, { type: 'function', function: { name: 'a' } }],
  ])('maps functionCallingConfig %j to tool_choice', (config, choice) => {
    const req = geminiToChatRequest('m', { contents: [], tools: [{ functionDeclarations: [{ name: 'a' }] }], toolConfig: { functionCallingConfig: config } });
    expect(req.tool_choice).toEqual(choice);
  });

  it('asks for JSON output with the schema given', () => {
    const json = (config: object) => geminiToChatRequest('m', { contents: [], generationConfig: config }).response_format;
    expect(json({ responseMimeType: 'application/json' })).toEqual({ type: 'json_object' });
    expect(json({ responseMimeType: 'application/json', responseSchema: { type: 'ARRAY', items: { type: 'INTEGER' } } })).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'array', items: { type: 'integer' } } } });
    expect(json({ responseMimeType: 'application/json', responseJsonSchema: { type: 'object' } })).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema: { type: 'object' } } });
    expect(json({ responseMimeType: 'text/plain', responseSchema: { type: 'STRING' } })).toBeUndefined();
  });

  it('turns thinking settings into a reasoning effort where one is named', () => {
    expect(reasoningEffort({ thinkingLevel: 'LOW' })).toBe('low');
    expect(reasoningEffort({ thinkingBudget: 512 })).toBe('low');
    expect(reasoningEffort({ thinkingBudget: 8192 })).toBe('medium');
    expect(reasoningEffort({ thinkingBudget: 24576 })).toBe('high');
    expect(reasoningEffort({ thinkingBudget: 0 })).toBeUndefined();
    expect(reasoningEffort({ thinkingBudget: -1, includeThoughts: true })).toBeUndefined();
    expect(reasoningEffort({ thinkingLevel: 'EXTREME' })).toBeUndefined();
  });
});

describe('Gemini schemas → JSON Schema', () => {
  it('lower-cases types in schema positions only, and turns nullable into a null type', () => {
    const schema = {
      type: 'OBJECT',
      propertyOrdering: ['type', 'tags'],
      properties: {
        // A property named "type" keeps its name; its own schema is converted.
        type: { type: 'STRING', enum: ['A', 'B'], nullable: true },
        tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1' },
        any: { anyOf: [{ type: 'NUMBER' }, { type: 'BOOLEAN' }] },
        loose: { type: 'TYPE_UNSPECIFIED', description: 'anything' },
      },
      required: ['type'],
    };
    expect(toJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        type: { type: ['string', 'null'], enum: ['A', 'B'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
        any: { anyOf: [{ type: 'number' }, { type: 'boolean' }] },
        loose: { description: 'anything' },
      },
      required: ['type'],
    });
  });
});

describe('chat answer → GenerateContentResponse', () => {
  const answer: ChatResponse = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'upstream',
    choices: [
      { index: 0, message: { role: 'assistant', content: 'Let me check.', reasoning_content: 'thinking…', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' },
      { index: 1, message: { role: 'assistant', content: 'Cut' }, finish_reason: 'length' },
    ],
  };

  it('writes parts, finish reasons, usage and the requested model', () => {
    expect(chatResponseToGemini(answer, { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, cached_tokens: 4 }, 'gemini-x', false)).toEqual({
      candidates: [
        { content: { role: 'model', parts: [{ text: 'Let me check.' }, { functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }] }, finishReason: 'STOP', index: 0 },
        { content: { role: 'model', parts: [{ text: 'Cut' }] }, finishReason: 'MAX_TOKENS', index: 1 },
      ],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15, cachedContentTokenCount: 4 },
      modelVersion: 'gemini-x',
      responseId: 'chatcmpl-1',
    });
  });

  it('adds thoughts only when the client asked for them', () => {
    const parts = chatResponseToGemini(answer, { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }, 'g', true).candidates as { content: { parts: unknown[] } }[];
    expect(parts[0]!.content.parts[0]).toEqual({ text: 'thinking…', thought: true });
  });

  it('maps finish reasons', () => {
    expect(['stop', 'tool_calls', 'length', 'content_filter', 'weird', null].map(toGeminiFinish)).toEqual(['STOP', 'STOP', 'MAX_TOKENS', 'SAFETY', 'OTHER', 'STOP']);
  });
});
