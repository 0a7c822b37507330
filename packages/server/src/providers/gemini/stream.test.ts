import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../types';
import callEvents from './fixtures/stream-function-call.json';
import textEvents from './fixtures/stream-text.json';
import { newGeminiStreamState, parseGeminiStreamEvent } from './stream';

const run = (events: string[]) => {
  const state = newGeminiStreamState(1700000000);
  return events.map((data) => parseGeminiStreamEvent({ data }, state));
};
const deltas = (chunks: ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta);

describe('Gemini SSE → OpenAI chunks', () => {
  it('converts a text stream, announces the role once and ends with usage', () => {
    const steps = run(textEvents);
    const chunks = steps.flatMap((s) => s.chunks);
    expect(deltas(chunks).slice(0, 3)).toEqual([{ role: 'assistant', content: 'Hello' }, { content: ' there' }, { content: '!' }]);
    expect(chunks[2]?.choices[0]?.finish_reason).toBe('stop');
    expect(chunks[0]).toMatchObject({ id: 'resp-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gemini-2.0-flash' });
    expect(steps[0]?.done).toBeUndefined();
    expect(steps[2]?.done).toBe(true);
    expect(steps[2]?.usage).toEqual({ prompt_tokens: 8, completion_tokens: 3, total_tokens: 11 });
    expect(chunks[3]).toMatchObject({ choices: [], usage: { prompt_tokens: 8, completion_tokens: 3, total_tokens: 11 } });
  });

  it('numbers tool calls across events and finishes with tool_calls', () => {
    const chunks = run(callEvents).flatMap((s) => s.chunks);
    const calls = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: expect.stringMatching(/^call_[0-9a-f]{32}$/), type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
      { index: 1, id: expect.stringMatching(/^call_[0-9a-f]{32}$/), type: 'function', function: { name: 'get_time', arguments: '{}' } },
    ]);
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
    // Another turn's calls never reuse an id (a counter would say call_0_0 again).
    const again = run(callEvents).flatMap((s) => s.chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []));
    expect(new Set([...calls, ...again].map((c) => c.id)).size).toBe(4);
  });

  it('gives a stream without a responseId one random id for all its chunks', () => {
    const bare = textEvents.map((e) => JSON.stringify({ ...(JSON.parse(e) as Record<string, unknown>), responseId: undefined }));
    const ids = (events: string[]) => new Set(run(events).flatMap((s) => s.chunks.map((c) => c.id)));
    const [first, second] = [ids(bare), ids(bare)];
    expect(first.size).toBe(1);
    expect([...first][0]).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect([...second][0]).not.toBe([...first][0]);
  });

  it('reports an error event and ignores junk', () => {
    const state = newGeminiStreamState();
    expect(parseGeminiStreamEvent({ data: 'not json' }, state)).toEqual({ chunks: [] });
    const step = parseGeminiStreamEvent({ data: '{"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}' }, state);
    expect(step.error).toEqual({ status: 503, message: 'The model is overloaded.', type: 'server_error', code: 'UNAVAILABLE' });
  });

  it('ends a blocked prompt with content_filter', () => {
    const step = parseGeminiStreamEvent({ data: '{"promptFeedback":{"blockReason":"SAFETY"}}' }, newGeminiStreamState());
    expect(step.done).toBe(true);
    expect(step.chunks[0]?.choices[0]?.finish_reason).toBe('content_filter');
  });
});
