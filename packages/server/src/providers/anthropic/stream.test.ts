import { describe, expect, it } from 'vitest';
import type { StreamStep } from '../types';
import errors from './fixtures/errors.json';
import streamText from './fixtures/stream-text.json';
import streamTools from './fixtures/stream-tool-use.json';
import { anthropicAdapter } from './index';
import { newAnthropicStreamState, parseAnthropicStreamEvent } from './stream';

function run(events: { event: string; data: string }[]): StreamStep[] {
  const state = newAnthropicStreamState(1700000000);
  return events.map((e) => parseAnthropicStreamEvent(e, state));
}

describe('Anthropic Messages SSE → OpenAI chunks', () => {
  it('converts a text stream with usage across events', () => {
    const steps = run(streamText);
    const chunks = steps.flatMap((s) => s.chunks);
    expect(chunks[0]).toEqual({ id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY', object: 'chat.completion.chunk', created: 1700000000, model: 'claude-sonnet-4-20250514', choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Hello!');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');
    // message_start: input side (25 + 10 cached), message_delta: cumulative output.
    expect(steps[0]?.usage).toEqual({ prompt_tokens: 35, completion_tokens: 1, total_tokens: 36, cached_tokens: 10 });
    expect(steps[6]?.usage).toEqual({ prompt_tokens: 35, completion_tokens: 15, total_tokens: 50, cached_tokens: 10 });
    const last = steps.at(-1);
    expect(last?.done).toBe(true);
    const wire = { prompt_tokens: 35, completion_tokens: 15, total_tokens: 50, prompt_tokens_details: { cached_tokens: 10, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 } };
    expect(last?.chunks).toEqual([expect.objectContaining({ choices: [], usage: wire })]);
    // ping and content_block_stop produce nothing.
    expect(steps[2]).toEqual({ chunks: [] });
    expect(steps[5]).toEqual({ chunks: [] });
  });

  it('converts tool_use blocks to indexed tool_call deltas', () => {
    const chunks = run(streamTools).flatMap((s) => s.chunks);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls[0]).toEqual({ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } });
    const args = (i: number) => calls.filter((c) => c.index === i).map((c) => c.function?.arguments ?? '').join('');
    expect(JSON.parse(args(0))).toEqual({ location: 'San Francisco, CA' });
    expect(calls.find((c) => c.index === 1 && c.id)).toMatchObject({ id: 'toolu_02', function: { name: 'get_time' } });
    expect(args(1)).toBe('{}');
    // Later deltas carry no name (OpenAI sends it once).
    expect(calls.filter((c) => c.function?.name !== undefined)).toHaveLength(2);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('keeps state per stream', () => {
    const a = anthropicAdapter.chat.newStreamState();
    const b = anthropicAdapter.chat.newStreamState();
    anthropicAdapter.chat.parseStreamEvent(streamTools[0] as { event: string; data: string }, a);
    const step = anthropicAdapter.chat.parseStreamEvent(streamText[0] as { event: string; data: string }, b);
    expect(step.chunks[0]?.id).toBe('msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY');
  });

  it('reports an in-stream error event', () => {
    const step = parseAnthropicStreamEvent(errors.stream_error, newAnthropicStreamState());
    expect(step).toEqual({ chunks: [], error: { status: 529, message: 'Overloaded', type: 'overloaded_error', code: null } });
  });

  it('falls back to the SSE event name when data has no type', () => {
    const state = newAnthropicStreamState();
    expect(parseAnthropicStreamEvent({ event: 'message_stop', data: '{}' }, state).done).toBe(true);
  });
});
