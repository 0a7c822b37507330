import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatResponse } from '../providers/types';
import { chunkWithOpenAiNulls, withOpenAiNulls } from './chat';

describe("the fields OpenAI's schema requires on chat answers", () => {
  it('fills logprobs and message.refusal with null, keeping an upstream’s own values', () => {
    const answer: ChatResponse = {
      id: 'x',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' },
        { index: 1, message: { role: 'assistant', content: null, refusal: 'no' }, finish_reason: 'stop', logprobs: { content: [] } },
      ],
    };
    expect(withOpenAiNulls(answer).choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'hi', refusal: null }, finish_reason: 'stop', logprobs: null },
      { index: 1, message: { role: 'assistant', content: null, refusal: 'no' }, finish_reason: 'stop', logprobs: { content: [] } },
    ]);
  });

  it('puts logprobs on stream choices, and passes junk choices of a relayed body without throwing', () => {
    const chunk: ChatChunk = { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'a' }, finish_reason: null }] };
    expect(chunkWithOpenAiNulls(chunk).choices[0]).toEqual({ index: 0, delta: { content: 'a' }, finish_reason: null, logprobs: null });
    const junk = { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [null, { index: 0 }] } as unknown as ChatResponse;
    expect(withOpenAiNulls(junk).choices).toEqual([null, { index: 0, logprobs: null }]);
  });
});
