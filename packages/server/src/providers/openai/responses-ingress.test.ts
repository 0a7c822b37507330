import { describe, expect, it } from 'vitest';
import type { ChatChunk } from '../types';
import { chatToResponse, newResponseMeta, responsesToChat, ResponsesStream } from './responses-ingress';
import type { ResponsesRequest } from './responses-wire';

const chunk = (delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk => ({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('Responses → chat', () => {
  it('flattens namespaced and freeform tools into chat functions and maps their calls back', () => {
    const req: ResponsesRequest = {
      model: 'm',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'call_1', name: 'close_agent', namespace: 'agents', arguments: '{"id":1}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'closed' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'call_2', output: 'ok' },
      ],
      tools: [
        { type: 'namespace', name: 'agents', description: 'Agents', tools: [{ type: 'function', name: 'close_agent', parameters: { type: 'object', properties: { id: { type: 'number' } } } }] },
        { type: 'custom', name: 'apply_patch', description: 'Patch files', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
      ],
      tool_choice: { type: 'function', name: 'close_agent', namespace: 'agents' },
    };
    const { chat, tools, unsupported } = responsesToChat(req, req.input as never);
    expect(unsupported).toEqual([]);
    expect(chat.tools?.map((t) => t.function.name)).toEqual(['agents__close_agent', 'apply_patch']);
    expect(chat.tools?.[1]?.function.description).toContain('start: "x"');
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'agents__close_agent' } });
    expect(chat.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', function: { name: 'agents__close_agent', arguments: '{"id":1}' } }] });
    expect(chat.messages[3]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_2', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' } }] });
    expect(chat.messages[4]).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'ok' });

    const meta = newResponseMeta(req, 'm', tools);
    const answer = chatToResponse(
      { id: 'x', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'agents__close_agent', arguments: '{}' } }, { id: 'call_4', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"diff"}' } }] } }] },
      meta,
      { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 },
    );
    expect(answer.output).toMatchObject([
      { type: 'function_call', call_id: 'call_3', name: 'close_agent', namespace: 'agents', arguments: '{}' },
      { type: 'custom_tool_call', call_id: 'call_4', name: 'apply_patch', input: 'diff' },
    ]);
  });

  it('lists what chat cannot carry instead of dropping it', () => {
    const req: ResponsesRequest = { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file_1' }] }], tools: [{ type: 'web_search' }], tool_choice: { type: 'file_search' } };
    expect(responsesToChat(req, req.input as never).unsupported).toEqual(['content type input_file', 'tool type web_search', 'tool_choice file_search']);
  });
});

describe('chat chunks → Responses events', () => {
  it('writes reasoning, text and a tool call as items in order, each closed before the next opens', () => {
    const stream = new ResponsesStream(newResponseMeta({ model: 'm', input: 'x' }, 'm', new Map()));
    const events = [
      ...stream.chunk(chunk({ role: 'assistant', reasoning_content: 'think' })),
      ...stream.chunk(chunk({ content: 'Hi' })),
      ...stream.chunk(chunk({ tool_calls: [{ index: 0, id: 'call_9', type: 'function', function: { name: 'f', arguments: '' } }] })),
      ...stream.chunk(chunk({ tool_calls: [{ index: 0, function: { name: '', arguments: '{"a":1}' } }] }, 'tool_calls')),
      ...stream.finish({ prompt_tokens: 5, completion_tokens: 7, total_tokens: 12, cached_tokens: 2 }).events,
    ];
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const completed = events.at(-1)!.response as { output: { type: string }[]; usage: unknown };
    expect(completed.output.map((o) => o.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(completed.usage).toEqual({ input_tokens: 5, input_tokens_details: { cached_tokens: 2, cache_write_tokens: 0 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 });
  });

  it('ends as incomplete when the answer hit its token limit', () => {
    const stream = new ResponsesStream(newResponseMeta({ model: 'm', input: 'x', max_output_tokens: 3 }, 'm', new Map()));
    stream.chunk(chunk({ content: 'abc' }, 'length'));
    const { events, response } = stream.finish({ prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });
    expect(events.at(-1)!.type).toBe('response.incomplete');
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, max_output_tokens: 3 });
  });
});
