// An OpenAI-family (or Azure) upstream that speaks only the Responses API (agent wire_api 'responses'):
// the canonical chat request → POST /v1/responses, and its Response object or event stream → chat. Any
// ingress (chat, /v1/messages, Gemini-native, Responses) reaches such a host through this one adapter.
// The gateway keeps its own conversation state, so every request is self-contained and `store: false`.
import { azureHeaders } from '../azure/api';
import { asArray, asRecord, contentText, isRecord, nowSeconds, num, str, tryParse } from '../shape';
import type { ChatAdapter, ChatChunk, ChatMessage, ChatRequest, ChatResponse, StreamStep, ToolCall, UpstreamError, UpstreamTarget, Usage } from '../types';
import { overrideUrl, resolveUrl, trimBase } from '../url';
import { openaiHeaders } from './api';
import type { FunctionTool, InputContent, InputItem, ResponsesRequest, TextFormat } from './responses-wire';
import { toChatUsage, usageOf } from '../usage';

type Json = Record<string, unknown>;

/** OpenAI refuses max_output_tokens below 16 (chat takes any limit): a smaller limit, e.g. a probe's
 *  max_tokens 1, is raised to it so the call works rather than failing with a 400. */
export const MIN_OUTPUT_TOKENS = 16;

/** A chat content part → Responses input content; assistant text is `output_text`, as OpenAI wants it. */
function inputContent(content: ChatMessage['content'], role: ChatMessage['role']): string | InputContent[] {
  if (typeof content === 'string') return role === 'assistant' ? [{ type: 'output_text', text: content }] : content;
  const parts: InputContent[] = [];
  for (const raw of asArray(content)) {
    const p = asRecord(raw);
    if (p.type === 'text') parts.push(role === 'assistant' ? { type: 'output_text', text: str(p.text) ?? '' } : { type: 'input_text', text: str(p.text) ?? '' });
    else if (p.type === 'image_url') {
      const image = asRecord(p.image_url);
      const detail = image.detail === 'low' || image.detail === 'high' ? image.detail : 'auto';
      parts.push({ type: 'input_image', image_url: str(image.url) ?? str(p.image_url) ?? '', detail });
    } else if (p.type === 'file') {
      const f = asRecord(p.file);
      parts.push({ type: 'input_file', ...(str(f.file_data) ? { file_data: str(f.file_data) } : {}), ...(str(f.file_id) ? { file_id: str(f.file_id) } : {}), ...(str(f.filename) ? { filename: str(f.filename) } : {}) });
    } else if (p.type === 'input_audio') {
      // Not a Responses content type at OpenAI: sent as is, so a host that takes it can, and OpenAI
      // answers a 400 the client sees, rather than the audio vanishing silently.
      parts.push(p as unknown as InputContent);
    }
  }
  return parts;
}

/** Leading system/developer messages become `instructions`; later ones stay in place as developer turns. */
function splitInstructions(messages: ChatMessage[]): { instructions: string; rest: ChatMessage[] } {
  let i = 0;
  const lead: string[] = [];
  while (i < messages.length && (messages[i]!.role === 'system' || messages[i]!.role === 'developer')) lead.push(contentText(messages[i++]!.content));
  return { instructions: lead.filter(Boolean).join('\n\n'), rest: messages.slice(i) };
}

function inputOf(messages: ChatMessage[]): InputItem[] {
  const items: InputItem[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      items.push({ type: 'function_call_output', call_id: m.tool_call_id ?? '', output: contentText(m.content) });
      continue;
    }
    const role = m.role === 'system' ? 'developer' : m.role;
    const hasContent = typeof m.content === 'string' ? m.content !== '' : asArray(m.content).length > 0;
    if (hasContent || (role !== 'assistant' && !m.tool_calls?.length)) items.push({ type: 'message', role, content: inputContent(m.content ?? '', m.role) });
    for (const t of asArray(m.tool_calls)) {
      const call = asRecord(t);
      const fn = asRecord(call.function);
      items.push({ type: 'function_call', call_id: str(call.id) ?? '', name: str(fn.name) ?? '', arguments: str(fn.arguments) ?? '' });
    }
  }
  return items;
}

/** Chat's nested function tools → Responses' flat ones. Responses treats a tool with no `strict` as
 *  strict when its schema allows; chat's default is non-strict, so it is said explicitly. */
function toolsOf(tools: unknown): FunctionTool[] {
  return asArray(tools).flatMap((t) => {
    const tool = asRecord(t);
    if (tool.type !== 'function') return [];
    const fn = asRecord(tool.function);
    return [{ type: 'function', name: str(fn.name) ?? '', ...(str(fn.description) ? { description: str(fn.description) } : {}), parameters: fn.parameters ?? { type: 'object', properties: {} }, strict: fn.strict === true }];
  });
}

function toolChoiceOf(choice: unknown): ResponsesRequest['tool_choice'] {
  if (choice === 'none' || choice === 'auto' || choice === 'required') return choice;
  const name = str(asRecord(asRecord(choice).function).name);
  return name ? { type: 'function', name } : undefined;
}

function formatOf(format: unknown): TextFormat | undefined {
  const f = asRecord(format);
  if (f.type === 'json_object' || f.type === 'text') return { type: f.type };
  if (f.type !== 'json_schema') return undefined;
  const s = asRecord(f.json_schema);
  return { type: 'json_schema', name: str(s.name) ?? 'response', schema: s.schema ?? {}, ...(str(s.description) ? { description: str(s.description) } : {}), ...(typeof s.strict === 'boolean' ? { strict: s.strict } : {}) };
}

/** The Responses body for a chat request. Chat-only fields (n, stop, penalties, logprobs, seed…) have no
 *  Responses equivalent and are left out rather than sent to be refused. */
export function toResponsesBody(model: string, request: ChatRequest): ResponsesRequest {
  const { instructions, rest } = splitInstructions(request.messages);
  const body: ResponsesRequest = { model, input: inputOf(rest), store: false };
  if (instructions) body.instructions = instructions;
  if (request.stream) body.stream = true;
  const tools = toolsOf(request.tools);
  if (tools.length) {
    body.tools = tools;
    const choice = toolChoiceOf(request.tool_choice);
    if (choice !== undefined) body.tool_choice = choice;
    if (typeof request.parallel_tool_calls === 'boolean') body.parallel_tool_calls = request.parallel_tool_calls;
  }
  const max = request.max_completion_tokens ?? request.max_tokens;
  if (typeof max === 'number') body.max_output_tokens = Math.max(MIN_OUTPUT_TOKENS, max);
  if (typeof request.temperature === 'number') body.temperature = request.temperature;
  if (typeof request.top_p === 'number') body.top_p = request.top_p;
  const format = formatOf(request.response_format);
  const verbosity = str(request.verbosity);
  if (format || verbosity) body.text = { ...(format ? { format } : {}), ...(verbosity ? { verbosity } : {}) };
  const effort = str(request.reasoning_effort);
  if (effort) body.reasoning = { effort };
  if (request.user) body.user = request.user;
  // Fields both APIs share under one name.
  for (const k of ['metadata', 'service_tier', 'prompt_cache_key', 'safety_identifier']) if (request[k] !== undefined) (body as Json)[k] = request[k];
  return body;
}

/** OpenAI: the agent's path, else /v1/responses under the base URL. Azure: its v1 API
 *  (`{base}/openai/v1/responses`, no deployment in the path), or the agent's path as written. */
export function responsesUrl(target: UpstreamTarget, azure: boolean): string {
  if (!azure) return resolveUrl(target.baseUrl, target.path, '/v1/responses');
  const [pathPart = '', query = ''] = target.path.trim().split('?', 2);
  const q = query ? `?${query}` : '';
  if (pathPart) return overrideUrl(target.baseUrl, pathPart.replace(/\{(?:deployment|model)\}/g, encodeURIComponent(target.model))) + q;
  return `${trimBase(target.baseUrl).replace(/\/openai(?:\/v1)?$/i, '')}/openai/v1/responses${q}`;
}

/** Responses usage → the gateway's Usage (cache reads and writes, reasoning). */
export function responsesUsage(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const input = asRecord(u.input_tokens_details);
  return usageOf(num(u.input_tokens), num(u.output_tokens), num(u.total_tokens), {
    cached_tokens: num(input.cached_tokens),
    cache_write_tokens: num(input.cache_write_tokens),
    reasoning_tokens: num(asRecord(u.output_tokens_details).reasoning_tokens),
  });
}

/** Why the answer ended, in chat's words. */
function finishOf(response: Json, calledTools: boolean): string {
  const reason = str(asRecord(response.incomplete_details).reason);
  if (reason === 'max_output_tokens') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

const summaryText = (item: Json): string =>
  [...asArray(item.summary), ...asArray(item.content)].map((s) => str(asRecord(s).text) ?? '').filter(Boolean).join('\n\n');

export function parseResponsesAnswer(json: unknown): { body: ChatResponse; usage?: Usage } {
  if (!isRecord(json) || !Array.isArray(json.output)) throw new Error('upstream returned a body that is not a Response');
  let content = '';
  let refusal = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  for (const raw of json.output) {
    const item = asRecord(raw);
    if (item.type === 'message') {
      for (const p of asArray(item.content)) {
        const part = asRecord(p);
        if (part.type === 'output_text') content += str(part.text) ?? '';
        else if (part.type === 'refusal') refusal += str(part.refusal) ?? '';
      }
    } else if (item.type === 'function_call') {
      toolCalls.push({ id: str(item.call_id) ?? str(item.id) ?? '', type: 'function', function: { name: str(item.name) ?? '', arguments: str(item.arguments) ?? '' } });
    } else if (item.type === 'reasoning') {
      reasoning += (reasoning ? '\n\n' : '') + summaryText(item);
    }
  }
  const message: ChatResponse['choices'][number]['message'] = { role: 'assistant', content: content || (toolCalls.length || refusal ? null : '') };
  if (refusal) message.refusal = refusal;
  if (toolCalls.length) message.tool_calls = toolCalls;
  if (reasoning) message.reasoning_content = reasoning;
  const usage = responsesUsage(json.usage);
  const body: ChatResponse = {
    id: str(json.id) ?? '',
    object: 'chat.completion',
    created: num(json.created_at) || nowSeconds(),
    model: str(json.model) ?? '',
    choices: [{ index: 0, message, finish_reason: finishOf(json, toolCalls.length > 0) }],
  };
  if (usage) body.usage = toChatUsage(usage);
  return { body, usage };
}

export interface ResponsesUpstreamState {
  id: string;
  model: string;
  created: number;
  /** A chunk went out (the first one carries the role). */
  started: boolean;
  /** Output item id (or `#output_index`) → its chat tool_calls index and the arguments streamed so far. */
  calls: Map<string, { index: number; args: string }>;
}

export const newResponsesUpstreamState = (created = nowSeconds()): ResponsesUpstreamState => ({ id: '', model: '', created, started: false, calls: new Map() });

type Delta = ChatChunk['choices'][number]['delta'];

function chunk(state: ResponsesUpstreamState, delta: Delta & { refusal?: string }, finish: string | null = null): ChatChunk {
  if (!state.started) {
    state.started = true;
    delta = { role: 'assistant', ...delta };
  }
  return { id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

const itemKey = (json: Json, item?: Json): string => str(item?.id) ?? str(json.item_id) ?? `#${num(json.output_index)}`;

/** A function call item seen for the first time: its chat index, id and name. */
function openCall(state: ResponsesUpstreamState, key: string, item: Json): ChatChunk[] {
  if (state.calls.has(key)) return [];
  const index = state.calls.size;
  state.calls.set(key, { index, args: '' });
  return [chunk(state, { tool_calls: [{ index, id: str(item.call_id) ?? key, type: 'function', function: { name: str(item.name) ?? '', arguments: '' } }] })];
}

function callArgs(state: ResponsesUpstreamState, key: string, delta: string): ChatChunk[] {
  const call = state.calls.get(key);
  if (!call || !delta) return [];
  call.args += delta;
  // The name went in the call's first delta; the contract types it as always present.
  return [chunk(state, { tool_calls: [{ index: call.index, function: { arguments: delta } as ToolCall['function'] }] })];
}

/** Arguments a host sent only whole (in .done or output_item.done): whatever the deltas did not carry. */
function restOfArgs(state: ResponsesUpstreamState, key: string, full: string | undefined): ChatChunk[] {
  const call = state.calls.get(key);
  if (!call || full === undefined || !full.startsWith(call.args)) return [];
  return callArgs(state, key, full.slice(call.args.length));
}

/** response.failed / error → an OpenAI-shaped error with the status its code implies. */
function streamError(err: Json): UpstreamError {
  const code = str(err.code) ?? null;
  const status = code === 'rate_limit_exceeded' ? 429 : code && /^invalid|_invalid|not_found|unsupported/.test(code) ? 400 : 500;
  return { status, message: str(err.message) ?? 'upstream stream error', type: status === 429 ? 'rate_limit_exceeded' : status === 400 ? 'invalid_request_error' : 'server_error', code };
}

function parseResponsesEvent(data: string, event: string | undefined, state: ResponsesUpstreamState): StreamStep {
  // Keep-alive comments and torn lines parse to nothing and relay nothing.
  const json = asRecord(tryParse(data));
  const type = str(json.type) ?? event;
  const response = asRecord(json.response);
  switch (type) {
    case 'response.created':
      state.id = str(response.id) ?? state.id;
      state.model = str(response.model) ?? state.model;
      state.created = num(response.created_at) || state.created;
      // No chunk yet: a response that fails before its first delta is still a failure the gateway may
      // retry with another key, which it cannot once anything reached the client.
      return { chunks: [] };
    case 'response.output_item.added':
    case 'response.output_item.done': {
      const item = asRecord(json.item);
      if (item.type !== 'function_call') return { chunks: [] };
      const key = itemKey(json, item);
      const opened = openCall(state, key, item);
      return { chunks: type === 'response.output_item.done' ? [...opened, ...restOfArgs(state, key, str(item.arguments))] : opened };
    }
    case 'response.output_text.delta':
      return { chunks: str(json.delta) ? [chunk(state, { content: str(json.delta) })] : [] };
    case 'response.refusal.delta':
      return { chunks: str(json.delta) ? [chunk(state, { refusal: str(json.delta) })] : [] };
    case 'response.reasoning_summary_text.delta':
    case 'response.reasoning_text.delta':
      return { chunks: str(json.delta) ? [chunk(state, { reasoning_content: str(json.delta) })] : [] };
    case 'response.reasoning_summary_part.added':
      // Summary parts read as paragraphs.
      return { chunks: num(json.summary_index) > 0 ? [chunk(state, { reasoning_content: '\n\n' })] : [] };
    case 'response.function_call_arguments.delta':
      return { chunks: callArgs(state, itemKey(json), str(json.delta) ?? '') };
    case 'response.function_call_arguments.done':
      return { chunks: restOfArgs(state, itemKey(json), str(json.arguments)) };
    case 'response.completed':
    case 'response.incomplete': {
      const usage = responsesUsage(response.usage);
      const chunks = [chunk(state, {}, finishOf(response, state.calls.size > 0))];
      // OpenAI chat streams end with a usage-only chunk (include_usage); the same here.
      if (usage) chunks.push({ id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices: [], usage: toChatUsage(usage) });
      return { chunks, ...(usage ? { usage } : {}), done: true };
    }
    case 'response.failed':
      return { chunks: [], error: streamError({ message: 'the upstream response failed', ...asRecord(response.error) }) };
    case 'error':
      return { chunks: [], error: streamError(isRecord(json.error) ? json.error : json) };
    default:
      // in_progress, content_part.*, output_text.done, annotations and unknown future events carry nothing new.
      return { chunks: [] };
  }
}

function adapter(azure: boolean): ChatAdapter<ResponsesUpstreamState> {
  return {
    buildRequest(target, request) {
      return {
        url: responsesUrl(target, azure),
        headers: azure ? azureHeaders(target.key) : openaiHeaders(target.key),
        body: JSON.stringify(toResponsesBody(target.model, request)),
      };
    },
    parseResponse: parseResponsesAnswer,
    newStreamState: () => newResponsesUpstreamState(),
    parseStreamEvent: (event, state) => parseResponsesEvent(event.data, event.event, state),
  };
}

export const responsesUpstream = adapter(false);
export const azureResponsesUpstream = adapter(true);
