import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../types';
import { chunkToGeminiEvents, finishGeminiEvent, newGeminiSseState } from './ingress-stream';

const chunk = (choices: ChatChunk['choices'], usage?: ChatChunk['usage']): ChatChunk => ({ id: 'chatcmpl-9', object: 'chat.completion.chunk', created: 1, model: 'm', choices, ...(usage ? { usage } : {}) });
const billed = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };

describe('chat chunks → Gemini SSE events', () => {
  it('sends text as it comes and ends with finishReason and the billed usage', () => {
    const state = newGeminiSseState('gemini-x', false);
    const events = [
      chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'Hel' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { content: 'lo', reasoning_content: 'hidden' }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
      chunk([], billed),
    ].flatMap((c) => chunkToGeminiEvents(c, state));
    expect(events).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }], modelVersion: 'gemini-x', responseId: 'chatcmpl-9' },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0 }], modelVersion: 'gemini-x', responseId: 'chatcmpl-9' },
    ]);
    expect(finishGeminiEvent(state, billed)).toEqual({
      candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
      modelVersion: 'gemini-x',
      responseId: 'chatcmpl-9',
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
    });
  });

  it('sends thoughts when asked, and gathers streamed tool calls into whole functionCall parts', () => {
    const state = newGeminiSseState('g', true);
    const events = [
      chunk([{ index: 0, delta: { reasoning_content: 'Let me think' }, finish_reason: null }]),
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } }] }, finish_reason: null }]),
      // Continuation deltas carry no name (the chunk type says they do).
      chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } as { name: string; arguments: string } }, { index: 1, function: { name: 'get_time', arguments: '' } }] }, finish_reason: null }]),
      chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
    ].flatMap((c) => chunkToGeminiEvents(c, state));
    // Only the thought went out before the end: calls are never sent in pieces.
    expect(events).toEqual([{ candidates: [{ content: { role: 'model', parts: [{ text: 'Let me think', thought: true }] }, index: 0 }], modelVersion: 'g', responseId: 'chatcmpl-9' }]);
    expect(finishGeminiEvent(state, billed)).toMatchObject({
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { id: 'call_chatcmpl-9_0_1', name: 'get_time', args: {} } }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
    });
  });

  it('keeps candidates apart and gives each its own finish reason', () => {
    const state = newGeminiSseState('g', false);
    const events = chunkToGeminiEvents(
      chunk([
        { index: 0, delta: { content: 'A' }, finish_reason: null },
        { index: 1, delta: { content: 'B' }, finish_reason: 'length' },
      ]),
      state,
    );
    expect(events).toHaveLength(1);
    expect((events[0] as { candidates: unknown[] }).candidates).toEqual([
      { content: { role: 'model', parts: [{ text: 'A' }] }, index: 0 },
      { content: { role: 'model', parts: [{ text: 'B' }] }, index: 1 },
    ]);
    expect((finishGeminiEvent(state, billed) as { candidates: { finishReason: string; index: number }[] }).candidates.map((c) => [c.index, c.finishReason])).toEqual([
      [0, 'STOP'],
      [1, 'MAX_TOKENS'],
    ]);
  });

  it('always ends with a finish reason, even for a stream that gave no choice', () => {
    const state = newGeminiSseState('g', false);
    expect(finishGeminiEvent(state, billed)).toMatchObject({ candidates: [{ finishReason: 'STOP', index: 0 }] });
  });
});
