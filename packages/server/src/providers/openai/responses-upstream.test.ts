import { describe, expect, it } from 'vitest';
import { chatAdapterOf, providers } from '../index';
import type { ChatChunk, ChatRequest, StreamStep, UpstreamTarget } from '../types';
import { azureResponsesUpstream, newResponsesUpstreamState, parseResponsesAnswer, responsesUpstream, toResponsesBody } from './responses-upstream';

const target: UpstreamTarget = { baseUrl: 'https://api.openai.com', path: '', key: 'sk-test', model: 'gpt-5-mini' };
const weather = { type: 'function' as const, function: { name: 'get_weather', description: 'The weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };

describe('chatAdapterOf', () => {
  it('picks the Responses conversion only for OpenAI-family and Azure agents with wire_api responses', () => {
    expect(chatAdapterOf({ family: 'openai', wire: 'responses' })).toBe(responsesUpstream);
    expect(chatAdapterOf({ family: 'azure', wire: 'responses' })).toBe(azureResponsesUpstream);
    expect(chatAdapterOf({ family: 'openai', wire: 'chat' })).toBe(providers.openai.chat);
    // Anthropic and Gemini have their own protocol: the setting means nothing there.
    expect(chatAdapterOf({ family: 'anthropic', wire: 'responses' })).toBe(providers.anthropic.chat);
    expect(chatAdapterOf({ family: 'gemini', wire: 'responses' })).toBe(providers.gemini.chat);
  });
});

describe('Responses upstream request', () => {
  it('posts to /v1/responses with bearer auth, honouring the base version and the agent path', () => {
    const r = responsesUpstream.buildRequest(target, { model: 'alias', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.url).toBe('https://api.openai.com/v1/responses');
    expect(r.headers).toEqual({ authorization: 'Bearer sk-test', 'content-type': 'application/json' });
    expect(JSON.parse(r.body)).toEqual({ model: 'gpt-5-mini', input: [{ type: 'message', role: 'user', content: 'hi' }], store: false });
    const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
    expect(responsesUpstream.buildRequest({ ...target, baseUrl: 'https://host/api/v1/' }, req).url).toBe('https://host/api/v1/responses');
    expect(responsesUpstream.buildRequest({ ...target, path: '/openai/v2/responses' }, req).url).toBe('https://api.openai.com/openai/v2/responses');
  });

  it("goes to Azure's v1 API with the api-key header, or to the agent's path", () => {
    const req = { model: 'm', messages: [{ role: 'user' as const, content: 'x' }] };
    const az = { ...target, baseUrl: 'https://res.openai.azure.com/', key: 'az-key' };
    const r = azureResponsesUpstream.buildRequest(az, req);
    expect(r.url).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(r.headers).toEqual({ 'api-key': 'az-key', 'content-type': 'application/json' });
    expect(azureResponsesUpstream.buildRequest({ ...az, baseUrl: 'https://res.openai.azure.com/openai/v1' }, req).url).toBe('https://res.openai.azure.com/openai/v1/responses');
    expect(azureResponsesUpstream.buildRequest({ ...az, path: '?api-version=preview' }, req).url).toBe('https://res.openai.azure.com/openai/v1/responses?api-version=preview');
    expect(azureResponsesUpstream.buildRequest({ ...az, path: '/openai/deployments/{deployment}/responses?api-version=2025-04-01-preview' }, req).url).toBe(
      'https://res.openai.azure.com/openai/deployments/gpt-5-mini/responses?api-version=2025-04-01-preview',
    );
  });

  it('turns a whole tool conversation into instructions and input items', () => {
    const request: ChatRequest = {
      model: 'alias',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } }] },
        { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
        { role: 'assistant', content: 'It is 21 °C.' },
        { role: 'system', content: 'Now answer in French.' },
        { role: 'user', content: 'Merci' },
      ],
      tools: [weather],
    };
    const body = toResponsesBody('gpt-5', request);
    expect(body.instructions).toBe('Be brief.\n\nUse metric units.');
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather here?' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me look.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'It is 21 °C.' }] },
      { type: 'message', role: 'developer', content: 'Now answer in French.' },
      { type: 'message', role: 'user', content: 'Merci' },
    ]);
    // Flat function tools; chat's non-strict default said explicitly (Responses would go strict).
    expect(body.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'The weather of a city', parameters: weather.function.parameters, strict: false }]);
  });

  it('maps the options that have a Responses equivalent and drops chat-only ones', () => {
    const body = toResponsesBody('gpt-5', {
      model: 'alias',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'f', strict: true, parameters: { type: 'object', properties: {}, additionalProperties: false } } as never }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      parallel_tool_calls: false,
      max_tokens: 50,
      max_completion_tokens: 80,
      temperature: 0.2,
      top_p: 0.9,
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
      reasoning_effort: 'low',
      verbosity: 'low',
      user: 'u-1',
      metadata: { k: 'v' },
      n: 2,
      stop: ['\n'],
      frequency_penalty: 1,
      logprobs: true,
      seed: 3,
    });
    expect(body).toEqual({
      model: 'gpt-5',
      input: [{ type: 'message', role: 'user', content: 'hi' }],
      store: false,
      stream: true,
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object', properties: {}, additionalProperties: false }, strict: true }],
      tool_choice: { type: 'function', name: 'f' },
      parallel_tool_calls: false,
      max_output_tokens: 80,
      temperature: 0.2,
      top_p: 0.9,
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true }, verbosity: 'low' },
      reasoning: { effort: 'low' },
      user: 'u-1',
      metadata: { k: 'v' },
    });
    // Below OpenAI's minimum of 16, the limit is raised to it; tool_choice goes only with tools.
    expect(toResponsesBody('m', { model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 7, response_format: { type: 'json_object' }, tool_choice: 'required' })).toEqual({
      model: 'm',
      input: [{ type: 'message', role: 'user', content: 'x' }],
      store: false,
      max_output_tokens: 16,
      text: { format: { type: 'json_object' } },
    });
  });

  it('does not mutate the caller request', () => {
    const request: ChatRequest = { model: 'a', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }], tools: [weather] };
    const copy = structuredClone(request);
    responsesUpstream.buildRequest(target, request);
    expect(request).toEqual(copy);
  });
});

/** A Response object as OpenAI answers it (fields the adapter ignores trimmed). */
const response = (output: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'resp_1',
  object: 'response',
  created_at: 1741476542,
  status: 'completed',
  incomplete_details: null,
  model: 'gpt-5-mini-2025-08-07',
  output,
  usage: { input_tokens: 328, input_tokens_details: { cached_tokens: 256 }, output_tokens: 52, output_tokens_details: { reasoning_tokens: 12 }, total_tokens: 380 },
  ...extra,
});

describe('Responses upstream answer', () => {
  it('reads text, reasoning summary and usage with cached tokens', () => {
    const { body, usage } = parseResponsesAnswer(
      response([
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thinking.' }, { type: 'summary_text', text: 'Done.' }] },
        { type: 'message', id: 'msg_1', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }, { type: 'output_text', text: ' there', annotations: [] }] },
      ]),
    );
    expect(body).toMatchObject({ id: 'resp_1', object: 'chat.completion', created: 1741476542, model: 'gpt-5-mini-2025-08-07' });
    expect(body.choices).toEqual([{ index: 0, message: { role: 'assistant', content: 'Hello there', reasoning_content: 'Thinking.\n\nDone.' }, finish_reason: 'stop' }]);
    expect(usage).toEqual({ prompt_tokens: 328, completion_tokens: 52, total_tokens: 380, cached_tokens: 256, reasoning_tokens: 12 });
  });

  it('turns function_call items into tool_calls keyed by call_id', () => {
    const { body } = parseResponsesAnswer(
      response([
        { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
        { type: 'function_call', id: 'fc_2', call_id: 'call_b', name: 'get_time', arguments: '{}', status: 'completed' },
      ]),
    );
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      finish_reason: 'tool_calls',
    });
  });

  it('says length for an answer cut at max_output_tokens, and keeps refusals apart', () => {
    const cut = parseResponsesAnswer(response([{ type: 'message', content: [{ type: 'output_text', text: 'Hel' }] }], { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }));
    expect(cut.body.choices[0]!.finish_reason).toBe('length');
    const refused = parseResponsesAnswer(response([{ type: 'message', content: [{ type: 'refusal', refusal: 'I cannot help.' }] }]));
    expect(refused.body.choices[0]!.message).toEqual({ role: 'assistant', content: null, refusal: 'I cannot help.' });
  });

  it('refuses a body that is not a Response, and tolerates a missing usage', () => {
    expect(() => parseResponsesAnswer({ choices: [] })).toThrow(/not a Response/);
    expect(() => parseResponsesAnswer('oops')).toThrow();
    const { body, usage } = parseResponsesAnswer({ output: [] });
    expect(usage).toBeUndefined();
    expect(body.choices[0]!.message.content).toBe('');
  });
});

/** Runs events through one stream state; returns every step. */
function run(events: Record<string, unknown>[]): StreamStep[] {
  const state = newResponsesUpstreamState(1);
  return events.map((e) => responsesUpstream.parseStreamEvent({ event: String(e.type), data: JSON.stringify(e) }, state));
}
const chunks = (steps: StreamStep[]): ChatChunk[] => steps.flatMap((s) => s.chunks);
const created = { type: 'response.created', sequence_number: 0, response: { id: 'resp_9', model: 'gpt-5-mini', created_at: 1700000000, status: 'in_progress', output: [], usage: null } };
const completed = (extra: Record<string, unknown> = {}) => ({
  type: 'response.completed',
  response: { id: 'resp_9', status: 'completed', output: [], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, total_tokens: 15 }, ...extra },
});

describe('Responses upstream stream', () => {
  it('streams text as content deltas, then finish, usage and done on response.completed', () => {
    const steps = run([
      created,
      { type: 'response.in_progress', response: {} },
      { type: 'response.output_item.added', output_index: 0, item: { id: 'msg_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] } },
      { type: 'response.content_part.added', item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } },
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hel', logprobs: [] },
      { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'lo', logprobs: [] },
      { type: 'response.output_text.done', item_id: 'msg_1', output_index: 0, content_index: 0, text: 'Hello' },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'msg_1', type: 'message' } },
      completed(),
    ]);
    const all = chunks(steps);
    expect(all.map((c) => c.choices[0]?.delta)).toEqual([{ role: 'assistant', content: 'Hel' }, { content: 'lo' }, {}, undefined]);
    expect(all.every((c) => c.id === 'resp_9' && c.model === 'gpt-5-mini' && c.created === 1700000000)).toBe(true);
    expect(all.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(all.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    expect(steps.at(-1)).toMatchObject({ done: true, usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    expect(steps.slice(0, -1).some((s) => s.done || s.usage)).toBe(false);
  });

  it('streams function calls with their chat index, id and name first, then argument pieces', () => {
    const steps = run([
      created,
      { type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '{"city":' },
      { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta: '"Paris"}' },
      { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: '{"city":"Paris"}' },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { type: 'response.output_item.added', output_index: 1, item: { id: 'fc_2', type: 'function_call', call_id: 'call_b', name: 'get_time', arguments: '' } },
      // A host that sends the arguments only whole.
      { type: 'response.function_call_arguments.done', item_id: 'fc_2', output_index: 1, arguments: '{}' },
      completed(),
    ]);
    const calls = chunks(steps).flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '' } },
      { index: 0, function: { arguments: '{"city":' } },
      { index: 0, function: { arguments: '"Paris"}' } },
      { index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } },
      { index: 1, function: { arguments: '{}' } },
    ]);
    expect(chunks(steps).find((c) => c.choices[0]?.finish_reason)?.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('streams reasoning summaries as reasoning_content, parts as paragraphs', () => {
    const deltas = chunks(
      run([
        created,
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 0, part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 0, delta: 'First.' },
        { type: 'response.reasoning_summary_part.added', item_id: 'rs_1', output_index: 0, summary_index: 1, part: { type: 'summary_text', text: '' } },
        { type: 'response.reasoning_summary_text.delta', item_id: 'rs_1', output_index: 0, summary_index: 1, delta: 'Second.' },
      ]),
    ).map((c) => c.choices[0]?.delta.reasoning_content ?? '');
    expect(deltas.join('')).toBe('First.\n\nSecond.');
  });

  it('ends an incomplete response with finish_reason length and its usage', () => {
    const steps = run([created, { ...completed({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }), type: 'response.incomplete' }]);
    expect(steps[1]).toMatchObject({ done: true, usage: { prompt_tokens: 10 } });
    expect(steps[1]!.chunks[0]!.choices[0]!.finish_reason).toBe('length');
  });

  it('reports response.failed and error events as stream errors', () => {
    const [start, failed] = run([created, { type: 'response.failed', response: { id: 'resp_9', status: 'failed', error: { code: 'server_error', message: 'The model crashed.' } } }]);
    expect(failed!.error).toEqual({ status: 500, message: 'The model crashed.', type: 'server_error', code: 'server_error' });
    // Nothing went out before it, so the gateway may still try another key.
    expect([...start!.chunks, ...failed!.chunks]).toEqual([]);
    const [limited] = run([{ type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null }]);
    expect(limited!.error).toMatchObject({ status: 429, message: 'Slow down.', code: 'rate_limit_exceeded' });
    const [invalid] = run([{ type: 'error', code: 'invalid_prompt', message: 'Bad prompt.' }]);
    expect(invalid!.error).toMatchObject({ status: 400, type: 'invalid_request_error' });
  });

  it('ignores keep-alives, torn lines and unknown events', () => {
    const state = newResponsesUpstreamState();
    for (const data of ['', ': ping', '{"type":"response.output_text.del', '[DONE]', '{"type":"response.web_search_call.searching"}']) {
      expect(responsesUpstream.parseStreamEvent({ data }, state)).toEqual({ chunks: [] });
    }
  });
});
