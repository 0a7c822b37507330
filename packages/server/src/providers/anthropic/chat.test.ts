import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatRequest, UpstreamTarget } from '../types';
import { fromAnthropicResponse, OUTPUT_TOOL, toAnthropicRequest } from './chat';
import textResponse from './fixtures/response-text.json';
import toolResponse from './fixtures/response-tool-use.json';
import { anthropicAdapter } from './index';

const target: UpstreamTarget = { baseUrl: 'https://api.anthropic.com', path: '', key: 'sk-ant', model: 'claude-sonnet-4-20250514' };
const PNG = 'iVBORw0KGgo=';

const toolConversation: ChatRequest = {
  model: 'claude',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'developer', content: [{ type: 'text', text: 'Use tools.' }] },
    { role: 'user', content: [{ type: 'text', text: 'Weather here and now?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }, { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } }] },
    {
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
    { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '12:00' }] },
    { role: 'user', content: 'Thanks' },
  ],
  tools: [
    { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    { type: 'function', function: { name: 'get_time' } },
  ],
  tool_choice: 'required',
  parallel_tool_calls: false,
  stop: 'END',
  temperature: 1.5,
  top_p: 0.9,
  user: 'u-1',
};

describe('OpenAI chat → Anthropic Messages', () => {
  it('builds URL, headers and a minimal body (max_tokens defaults to 4096)', () => {
    const r = anthropicAdapter.chat.buildRequest(target, { model: 'claude', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.url).toBe('https://api.anthropic.com/v1/messages');
    expect(r.headers).toEqual({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(JSON.parse(r.body)).toEqual({ model: 'claude-sonnet-4-20250514', max_tokens: 4096, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  });

  it('converts system, images, tool calls, tool results and parameters', () => {
    const body = toAnthropicRequest('claude-x', toolConversation);
    expect(body.system).toBe('You are terse.\n\nUse tools.');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather here and now?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'get_time', input: {} },
        ],
      },
      // Both tool results and the next user text merge into one user turn.
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":21}' },
          { type: 'tool_result', tool_use_id: 'call_2', content: '12:00' },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } },
      { name: 'get_time', description: undefined, input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(body).toMatchObject({ stop_sequences: ['END'], temperature: 1, metadata: { user_id: 'u-1' }, max_tokens: 4096 });
    expect(body).not.toHaveProperty('top_p');
    expect(toAnthropicRequest('m', { model: 'm', messages: [], top_p: 0.5 }).top_p).toBe(0.5);
  });

  it('uses max_completion_tokens or max_tokens, and maps tool_choice variants', () => {
    expect(toAnthropicRequest('m', { model: 'm', messages: [], max_tokens: 10 }).max_tokens).toBe(10);
    expect(toAnthropicRequest('m', { model: 'm', messages: [], max_tokens: 10, max_completion_tokens: 20 }).max_tokens).toBe(20);
    const tools = toolConversation.tools;
    expect(toAnthropicRequest('m', { model: 'm', messages: [], tools, tool_choice: { type: 'function', function: { name: 'get_time' } } }).tool_choice).toEqual({ type: 'tool', name: 'get_time' });
    expect(toAnthropicRequest('m', { model: 'm', messages: [], tools, tool_choice: 'none' }).tool_choice).toEqual({ type: 'none' });
    expect(toAnthropicRequest('m', { model: 'm', messages: [], tools }).tool_choice).toBeUndefined();
    expect(toAnthropicRequest('m', { model: 'm', messages: [], stream: true, stop: [' ', 'x'] })).toMatchObject({ stream: true, stop_sequences: ['x'] });
  });
});

describe('Anthropic message → OpenAI chat response', () => {
  it('reads text, stop reason and usage with cache reads', () => {
    const { body, usage } = fromAnthropicResponse(textResponse, 1700000000);
    expect(body).toMatchObject({ id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF', object: 'chat.completion', created: 1700000000, model: 'claude-sonnet-4-20250514' });
    expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Hi! My name is Claude.' }, finish_reason: 'stop' }]);
    // input_tokens excludes cache reads; OpenAI's prompt_tokens includes them.
    expect(usage).toEqual({ prompt_tokens: 3895, completion_tokens: 503, total_tokens: 4398, cached_tokens: 1800 });
    // The chat answer writes it as OpenAI does, the details inside.
    expect(body.usage).toEqual({ prompt_tokens: 3895, completion_tokens: 503, total_tokens: 4398, prompt_tokens_details: { cached_tokens: 1800, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 } });
  });

  it('reads tool_use and thinking blocks', () => {
    const { body } = fromAnthropicResponse(toolResponse);
    const choice = body.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe("I'll check the weather in San Francisco.");
    expect(choice?.message.reasoning_content).toContain('call the tool');
    expect(choice?.message.tool_calls).toEqual([{ id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' } }]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
  ])('maps stop_reason %s → %s', (stop, finish) => {
    expect(fromAnthropicResponse({ ...textResponse, stop_reason: stop }).body.choices[0]?.finish_reason).toBe(finish);
  });

  it('gives null content when the answer is only tool calls', () => {
    const json = { ...toolResponse, content: [toolResponse.content[2]] };
    expect(fromAnthropicResponse(json).body.choices[0]?.message.content).toBeNull();
  });

  it('rejects a body that is not a message', () => {
    expect(() => fromAnthropicResponse({ type: 'error' })).toThrow(/not an Anthropic message/);
  });
});

describe('response_format → a forced output tool, and back', () => {
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
  const jsonSchema = { type: 'json_schema', json_schema: { name: 'place', description: 'Where it is.', schema, strict: true } };
  const ask = (extra: Partial<ChatRequest>) => toAnthropicRequest('m', { model: 'm', messages: [{ role: 'user', content: 'hi' }], ...extra });
  const getTime = { type: 'function' as const, function: { name: 'get_time' } };

  it('forces the output tool with the schema (its $schema dropped), the schema name in its description', () => {
    const body = ask({ response_format: jsonSchema });
    expect(body.tools).toEqual([{ name: OUTPUT_TOOL, description: 'Give your whole answer as a `place` object: the input of this tool. Where it is.', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: OUTPUT_TOOL });
  });

  it('takes any object for json_object, and leaves text and unknown formats alone', () => {
    expect(ask({ response_format: { type: 'json_object' } }).tools).toEqual([expect.objectContaining({ name: OUTPUT_TOOL, input_schema: { type: 'object', additionalProperties: true } })]);
    expect(ask({ response_format: { type: 'json_schema', json_schema: { name: 'x' } } }).tools?.[0]?.input_schema).toEqual({ type: 'object', additionalProperties: true });
    for (const format of [{ type: 'text' }, { type: 'xml' }, 'json', null]) {
      const body = ask({ response_format: format });
      expect(body).not.toHaveProperty('tools');
      expect(body).not.toHaveProperty('tool_choice');
    }
  });

  it("keeps the client's tools: any of them or the answer (auto), the answer only (none), the client's call (required, named)", () => {
    const auto = ask({ response_format: jsonSchema, tools: [getTime] });
    expect(auto.tools?.map((t) => t.name)).toEqual(['get_time', OUTPUT_TOOL]);
    expect(auto.tool_choice).toEqual({ type: 'any' });
    expect(ask({ response_format: jsonSchema, tools: [getTime], tool_choice: 'auto', parallel_tool_calls: false }).tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    const none = ask({ response_format: jsonSchema, tools: [getTime], tool_choice: 'none' });
    expect(none.tools?.map((t) => t.name)).toEqual(['get_time', OUTPUT_TOOL]);
    expect(none.tool_choice).toEqual({ type: 'tool', name: OUTPUT_TOOL });
    const required = ask({ response_format: jsonSchema, tools: [getTime], tool_choice: 'required' });
    expect(required.tools?.map((t) => t.name)).toEqual(['get_time']);
    expect(required.tool_choice).toEqual({ type: 'any' });
    const named = ask({ response_format: jsonSchema, tools: [getTime], tool_choice: { type: 'function', function: { name: 'get_time' } } });
    expect(named.tools?.map((t) => t.name)).toEqual(['get_time']);
    expect(named.tool_choice).toEqual({ type: 'tool', name: 'get_time' });
  });

  const message = (content: unknown[], stop = 'tool_use') => ({ ...textResponse, content, stop_reason: stop });
  const output = { type: 'tool_use', id: 'toolu_out', name: OUTPUT_TOOL, input: { city: 'Paris' } };

  it("answers the output tool's input as the text content, finish_reason stop", () => {
    const { body } = fromAnthropicResponse(message([{ type: 'text', text: 'Sure: ' }, output]));
    expect(body.choices[0]).toEqual({ index: 0, message: { role: 'assistant', content: '{"city":"Paris"}' }, finish_reason: 'stop' });
    // Cut short: still the JSON so far, and `length`.
    expect(fromAnthropicResponse(message([output], 'max_tokens')).body.choices[0]?.finish_reason).toBe('length');
  });

  it('keeps client tool calls beside it as tool_calls, finish_reason tool_calls', () => {
    const { body } = fromAnthropicResponse(message([{ type: 'tool_use', id: 'toolu_1', name: 'get_time', input: {} }, output]));
    expect(body.choices[0]?.message).toEqual({ role: 'assistant', content: '{"city":"Paris"}', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_time', arguments: '{}' } }] });
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
  });

  const sse = (data: Record<string, unknown>) => ({ event: String(data.type), data: JSON.stringify(data) });
  const streamOf = (blocks: { name: string; pieces: string[] }[]) => [
    sse({ type: 'message_start', message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 5, output_tokens: 1 } } }),
    ...blocks.flatMap((b, index) => [
      sse({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}`, name: b.name, input: {} } }),
      ...b.pieces.map((p) => sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } })),
      sse({ type: 'content_block_stop', index }),
    ]),
    sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
    sse({ type: 'message_stop' }),
  ];
  const runStream = (events: { event: string; data: string }[]) => {
    const state = anthropicAdapter.chat.newStreamState();
    return events.flatMap((e) => anthropicAdapter.chat.parseStreamEvent(e, state).chunks as ChatChunk[]);
  };

  it('streams the input_json_delta pieces of the output tool as content deltas, finish_reason stop', () => {
    const chunks = runStream(streamOf([{ name: OUTPUT_TOOL, pieces: ['{"ci', 'ty": "Par', 'is"}'] }]));
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('{"city": "Paris"}');
    expect(chunks.some((c) => c.choices[0]?.delta.tool_calls)).toBe(false);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('streams client tool calls beside it as tool_calls, finish_reason tool_calls', () => {
    const chunks = runStream(streamOf([{ name: 'get_time', pieces: ['{}'] }, { name: OUTPUT_TOOL, pieces: ['{}'] }]));
    expect(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((t) => t.index)).toEqual([0, 0]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
  });
});

describe('reasoning_effort → extended thinking', () => {
  const ask = (extra: Partial<ChatRequest>): ChatRequest => ({ model: 'c', messages: [{ role: 'user', content: 'think' }], max_tokens: 32000, temperature: 0.2, ...extra });

  it('asks for a thinking budget by effort, without sampling settings', () => {
    const body = toAnthropicRequest('c', ask({ reasoning_effort: 'medium' }));
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(body.temperature).toBeUndefined();
  });

  it('keeps the budget under the client cap, and leaves thinking off where Claude would refuse it', () => {
    expect(toAnthropicRequest('c', ask({ reasoning_effort: 'high', max_tokens: 4000 })).thinking).toEqual({ type: 'enabled', budget_tokens: 3999 });
    expect(toAnthropicRequest('c', ask({ reasoning_effort: 'high', max_tokens: 1000 })).thinking).toBeUndefined();
    const loop = ask({ reasoning_effort: 'low', messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: null, tool_calls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 't', content: 'ok' }] });
    expect(toAnthropicRequest('c', loop).thinking).toBeUndefined();
    expect(toAnthropicRequest('c', ask({ reasoning_effort: 'low', response_format: { type: 'json_object' } })).thinking).toBeUndefined();
    expect(toAnthropicRequest('c', ask({})).thinking).toBeUndefined();
  });
});
