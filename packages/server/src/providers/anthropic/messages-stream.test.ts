import { describe, expect, it } from 'vitest';
import { openaiUsage } from '../openai/chat';
import type { ChatChunk, Usage } from '../types';
import chunks from './fixtures/openai-tool-chunks.json';
import { chunkToAnthropicEvents, finishAnthropicEvents, newMessagesSseState, type AnthropicSseEvent } from './messages-stream';

/** As the gateway feeds them: each chunk with the usage its adapter read so far. */
function convert(list: ChatChunk[]): AnthropicSseEvent[] {
  const state = newMessagesSseState('claude-alias');
  let known: Usage | undefined;
  return [
    ...list.flatMap((c) => {
      known = openaiUsage(c.usage) ?? known;
      return chunkToAnthropicEvents(c, state, known);
    }),
    ...finishAnthropicEvents(state),
    ...finishAnthropicEvents(state),
  ];
}

describe('OpenAI chunks → Anthropic SSE events', () => {
  const events = convert(chunks as ChatChunk[]);

  it('emits the full Messages event sequence', () => {
    expect(events.map((e) => `${e.event}${'index' in e.data ? `#${String(e.data.index)}` : ''}`)).toEqual([
      'message_start',
      'content_block_start#0',
      'content_block_delta#0',
      'content_block_stop#0',
      'content_block_start#1',
      'content_block_delta#1',
      'content_block_delta#1',
      'content_block_stop#1',
      'content_block_start#2',
      'content_block_delta#2',
      'content_block_delta#2',
      'content_block_stop#2',
      'content_block_start#3',
      'content_block_delta#3',
      'content_block_stop#3',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
  });

  it('carries id, blocks, deltas, stop reason and usage', () => {
    expect(events[0]?.data.message).toMatchObject({ id: 'msg_9x', model: 'claude-alias', role: 'assistant', content: [] });
    expect(events[1]?.data.content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });
    expect(events[2]?.data.delta).toEqual({ type: 'thinking_delta', thinking: 'Thinking' });
    expect(events[5]?.data.delta).toEqual({ type: 'text_delta', text: 'Let me ' });
    expect(events[8]?.data.content_block).toEqual({ type: 'tool_use', id: 'call_a', name: 'get_weather', input: {} });
    const args = events.filter((e) => e.data.index === 2 && e.event === 'content_block_delta').map((e) => (e.data.delta as { partial_json: string }).partial_json);
    expect(JSON.parse(args.join(''))).toEqual({ location: 'Paris' });
    expect(events[12]?.data.content_block).toEqual({ type: 'tool_use', id: 'call_b', name: 'get_time', input: {} });
    const usage = { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 100, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 30 };
    expect(events[15]?.data).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage });
  });

  it("announces input tokens in message_start: the first chunk's usage, else the gateway's count", () => {
    const counted = newMessagesSseState('m');
    counted.inputTokens = 42;
    const [start] = chunkToAnthropicEvents(chunks[0] as ChatChunk, counted);
    expect(start?.data.message).toMatchObject({ usage: { input_tokens: 42, output_tokens: 0 } });
    const told = newMessagesSseState('m');
    told.inputTokens = 42;
    const [fromUpstream] = chunkToAnthropicEvents(chunks[0] as ChatChunk, told, { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32, cached_tokens: 10, cache_write_tokens: 5 });
    expect(fromUpstream?.data.message).toMatchObject({ usage: { input_tokens: 15, cache_read_input_tokens: 10, cache_creation_input_tokens: 5, output_tokens: 0 } });
  });

  it('still produces a well-formed message for an empty stream', () => {
    expect(convert([]).map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});
