import { describe, expect, it } from 'vitest';
import type { ChatChunk, ChatResponse } from '../providers/types';
import { chunkWithOpenAiNulls, completionOf, withOpenAiNulls } from './chat';

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

describe('the completion text an answer is billed and logged by', () => {
  // What it was written as before it became a loop: the reference.
  const joined = (a: ChatResponse) => a.choices.map((c) => (c.message.content ?? '') + (c.message.tool_calls ?? []).map((t) => t.function.arguments).join('')).join('\n');
  const call = (args: unknown) => ({ id: 'c', type: 'function', function: { name: 'f', arguments: args } });
  const answers = [
    [],
    [{ content: 'hello' }],
    [{ content: null }],
    [{ content: 'a' }, { content: 'b' }, { content: null }],
    [{ content: null, tool_calls: [call('{"x":1}'), call('{"y":2}')] }],
    [{ content: 'see:', tool_calls: [call(undefined), call(null), call('{}')] }],
    [{ content: '' }, { content: 'x', tool_calls: [] }],
  ].map((messages) => ({ choices: messages.map((message, index) => ({ index, message: { role: 'assistant', ...message }, finish_reason: 'stop' })) }) as unknown as ChatResponse);

  it('is each choice\'s content and tool-call arguments, choices a line apart', () => {
    for (const a of answers) expect(completionOf(a)).toBe(joined(a));
    expect(completionOf(answers[5]!)).toBe('see:{}');
  });
});
