// The mock's Responses API and its tool calls in every family it owns here (chat, Anthropic, Responses),
// read through the official SDKs, which check the shapes as real clients do.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../src/server';
import { answerFor, countTokens } from '../src/text';

const chatTool: OpenAI.ChatCompletionTool = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const responsesTool: OpenAI.Responses.FunctionTool = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false };
const anthropicTool = { name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } };

describe('mock provider: Responses API and tool calls', () => {
  let mock: MockProvider;
  let client: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    mock = await startMockProvider();
    client = new OpenAI({ apiKey: 'sk-test-1', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: 'sk-ant-1', baseURL: mock.url, maxRetries: 0 });
  });
  afterAll(() => mock?.close());
  beforeEach(() => {
    mock.faults.clear();
    mock.requests.length = 0;
  });

  describe('POST /v1/responses', () => {
    it('answers JSON with the echo text and usage counted from instructions and every input item', async () => {
      const r = await client.responses.create({ model: 'gpt-4o', instructions: 'be brief', input: [{ role: 'user', content: 'one' }, { role: 'assistant', content: 'two' }, { role: 'user', content: [{ type: 'input_text', text: 'three' }] }] });
      const text = answerFor('gpt-4o', 'three');
      expect(r).toMatchObject({ object: 'response', status: 'completed', model: 'gpt-4o', instructions: 'be brief', error: null, previous_response_id: null });
      expect(r.id).toMatch(/^resp_[0-9a-f]{32}$/);
      expect(r.output).toEqual([{ type: 'message', id: expect.stringMatching(/^msg_/) as string, role: 'assistant', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] }]);
      expect(r.output_text).toBe(text);
      const input = countTokens('be brief\none\ntwo\nthree');
      expect(r.usage).toEqual({ input_tokens: input, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: countTokens(text), output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + countTokens(text) });
      expect(mock.requests[0]).toMatchObject({ method: 'POST', path: '/v1/responses', key: 'sk-test-1', model: 'gpt-4o' });
    });

    it('streams the full event sequence with sequence numbers, item ids and indexes', async () => {
      const stream = await client.responses.create({ model: 'gpt-4o', input: 'hi there', stream: true });
      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const e of stream) events.push(e);
      const text = answerFor('gpt-4o', 'hi there');
      const deltas = events.filter((e) => e.type === 'response.output_text.delta');
      expect(events.map((e) => e.type)).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        ...deltas.map(() => 'response.output_text.delta'),
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
      expect(deltas.length).toBeGreaterThan(2);
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
      const itemId = (events[2] as OpenAI.Responses.ResponseOutputItemAddedEvent).item.id;
      expect(deltas.every((d) => d.item_id === itemId && d.output_index === 0 && d.content_index === 0 && Array.isArray(d.logprobs))).toBe(true);
      expect(deltas.map((d) => d.delta).join('')).toBe(text);
      const done = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
      expect(done.response).toMatchObject({ status: 'completed', output: [{ id: itemId, content: [{ text }] }], usage: { input_tokens: countTokens('hi there'), output_tokens: countTokens(text) } });
      // The SDK's own stream helper assembles the same answer.
      expect((await client.responses.stream({ model: 'gpt-4o', input: 'hi there' }).finalResponse()).output_text).toBe(text);
    });

    it('calls the first function tool about the weather, JSON and streamed, then echoes the tool output', async () => {
      const r = await client.responses.create({ model: 'gpt-4o', input: 'What is the weather in Paris?', tools: [responsesTool] });
      const call = r.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
      expect(call.id).toMatch(/^fc_/);
      expect(call.call_id).toMatch(/^call_[0-9a-f]{32}$/);
      const again = await client.responses.create({ model: 'gpt-4o', input: 'weather?', tools: [responsesTool] });
      expect((again.output[0] as OpenAI.Responses.ResponseFunctionToolCall).call_id).not.toBe(call.call_id);

      const events: OpenAI.Responses.ResponseStreamEvent[] = [];
      for await (const e of await client.responses.create({ model: 'gpt-4o', input: 'weather in Paris?', tools: [responsesTool], stream: true })) events.push(e);
      const args = events.filter((e) => e.type === 'response.function_call_arguments.delta');
      expect(args.length).toBeGreaterThan(1);
      expect(args.map((e) => e.delta).join('')).toBe('{"city":"Paris"}');
      expect(events.find((e) => e.type === 'response.output_item.added')).toMatchObject({ item: { type: 'function_call', name: 'get_weather', arguments: '', status: 'in_progress' } });
      expect(events.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({ arguments: '{"city":"Paris"}' });
      expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { output: [{ type: 'function_call', arguments: '{"city":"Paris"}', status: 'completed' }] } });

      // Second turn: the call and its output go back; the answer quotes the output, with no new call.
      const second = await client.responses.create({
        model: 'gpt-4o',
        tools: [responsesTool],
        input: [{ role: 'user', content: 'What is the weather in Paris?' }, { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments }, { type: 'function_call_output', call_id: call.call_id, output: '{"temp":21}' }],
      });
      expect(second.output_text).toBe(answerFor('gpt-4o', '{"temp":21}'));
      expect(second.output_text).toContain('{"temp":21}');
    });

    it('honours faults: reply, no_usage, status, fail_after mid-stream', async () => {
      const r = await client.responses.create({ model: 'm', input: '[[mock:reply=Fixed answer]] [[mock:no_usage]] hi' });
      expect(r.output_text).toBe('Fixed answer');
      expect(r.usage).toBeNull();
      await expect(client.responses.create({ model: 'm', input: '[[mock:status=429]]' })).rejects.toMatchObject({ status: 429 });
      const got: string[] = [];
      await expect(
        (async () => {
          for await (const e of await client.responses.create({ model: 'm', input: '[[mock:fail_after=2]] a b c d', stream: true })) if (e.type === 'response.output_text.delta') got.push(e.delta);
        })(),
      ).rejects.toThrow();
      expect(got.join('')).toBe('Hello from ');
    });

    it('keeps nothing: previous_response_id is refused and a stored response is not found', async () => {
      await expect(client.responses.create({ model: 'm', input: 'x', previous_response_id: 'resp_123' })).rejects.toMatchObject({ status: 400 });
      await expect(client.responses.retrieve('resp_123')).rejects.toMatchObject({ status: 404 });
      const r = await fetch(`${mock.url}/v1/responses/resp_%zz`, { headers: { authorization: 'Bearer k' } });
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
    });

    it("serves Azure's v1 path", async () => {
      const r = await fetch(`${mock.url}/openai/v1/responses`, { method: 'POST', headers: { 'api-key': 'az1', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'my-gpt', input: 'x' }) });
      expect(((await r.json()) as { output: { content: { text: string }[] }[] }).output[0]!.content[0]!.text).toBe(answerFor('my-gpt', 'x'));
    });
  });

  describe('chat completions', () => {
    it('calls a tool with a fresh call id, JSON and streamed as OpenAI streams it', async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'weather in Paris?' }];
      const a = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: [chatTool] });
      const b = await client.chat.completions.create({ model: 'gpt-4o', messages, tools: [chatTool] });
      const call = a.choices[0]!.message.tool_calls![0]!;
      expect(a.choices[0]!.finish_reason).toBe('tool_calls');
      expect(call).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
      expect(call.id).toMatch(/^call_[0-9a-f]{32}$/);
      expect(b.choices[0]!.message.tool_calls![0]!.id).not.toBe(call.id);

      const deltas: OpenAI.ChatCompletionChunk.Choice[] = [];
      for await (const c of await client.chat.completions.create({ model: 'gpt-4o', messages, tools: [chatTool], stream: true })) deltas.push(...c.choices);
      const calls = deltas.flatMap((d) => d.delta.tool_calls ?? []);
      expect(calls[0]).toMatchObject({ index: 0, type: 'function', id: expect.stringMatching(/^call_/) as string, function: { name: 'get_weather', arguments: '' } });
      expect(calls.length).toBeGreaterThan(2);
      expect(calls.slice(1).every((c) => c.index === 0 && c.id === undefined && c.function?.name === undefined)).toBe(true);
      expect(calls.map((c) => c.function?.arguments ?? '').join('')).toBe('{"city":"Paris"}');
      expect(deltas.at(-1)!.finish_reason).toBe('tool_calls');
      // The SDK's stream helper assembles the call.
      const final = await client.chat.completions.stream({ model: 'gpt-4o', messages, tools: [chatTool] }).finalChatCompletion();
      expect(final.choices[0]!.message.tool_calls![0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } });
    });

    it('answers the tool result with text that quotes it', async () => {
      const r = await client.chat.completions.create({
        model: 'gpt-4o',
        tools: [chatTool],
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
          { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
        ],
      });
      expect(r.choices[0]!.message.content).toBe(answerFor('gpt-4o', '{"temp":21}'));
      expect(r.choices[0]!.finish_reason).toBe('stop');
    });
  });

  describe('Anthropic Messages', () => {
    it('answers a tool_use block, JSON and streamed as input_json_delta pieces, then quotes the tool result', async () => {
      const base = { model: 'claude-3-5-sonnet', max_tokens: 100, tools: [anthropicTool] };
      const m = await anthropic.messages.create({ ...base, messages: [{ role: 'user', content: 'weather in Paris?' }] });
      expect(m.stop_reason).toBe('tool_use');
      const use = m.content[0] as Anthropic.ToolUseBlock;
      expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
      expect(use.id).toMatch(/^toolu_[0-9a-f]{32}$/);

      const events: Anthropic.RawMessageStreamEvent[] = [];
      for await (const e of await anthropic.messages.create({ ...base, messages: [{ role: 'user', content: 'weather in Paris?' }], stream: true })) events.push(e);
      expect(events.find((e) => e.type === 'content_block_start')).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'get_weather', input: {} } });
      const pieces = events.flatMap((e) => (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta' ? [e.delta.partial_json] : []));
      expect(pieces.length).toBeGreaterThan(1);
      expect(pieces.join('')).toBe('{"city":"Paris"}');
      expect(events.find((e) => e.type === 'message_delta')).toMatchObject({ delta: { stop_reason: 'tool_use' } });
      const final = await anthropic.messages.stream({ ...base, messages: [{ role: 'user', content: 'weather in Paris?' }] }).finalMessage();
      expect(final.content[0]).toMatchObject({ type: 'tool_use', input: { city: 'Paris' } });

      const second = await anthropic.messages.create({
        ...base,
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: use.id, name: use.name, input: use.input }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '{"temp":21}' }] },
        ],
      });
      expect(second.stop_reason).toBe('end_turn');
      expect(second.content[0]).toMatchObject({ type: 'text', text: answerFor('claude-3-5-sonnet', '{"temp":21}') });
    });

    it('answers text without tools or without the weather', async () => {
      const m = await anthropic.messages.create({ model: 'c', max_tokens: 10, tools: [anthropicTool], messages: [{ role: 'user', content: 'hello' }] });
      expect(m).toMatchObject({ stop_reason: 'end_turn', content: [{ type: 'text', text: answerFor('c', 'hello') }] });
      const plain = await anthropic.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'weather?' }] });
      expect(plain.content[0]!.type).toBe('text');
    });
  });
});
