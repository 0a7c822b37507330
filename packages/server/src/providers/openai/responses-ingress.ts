// The Responses API as an ingress protocol: a Responses request → the canonical chat request, and the
// canonical answer (ChatResponse, or ChatChunks as they stream) → a Response object or its event
// sequence. Pure: ids, times and the echo of the request come in through `ResponseMeta`.
import type { ChatMessage, ChatRequest, ChatResponse, ContentPart, ToolCall, Usage } from '../types';
import { asArray, asRecord, isRecord, nowSeconds, parseArguments, randomId, str } from '../shape';
import type { CustomToolCallItem, FunctionCallItem, InputContent, InputItem, OutputItem, OutputMessage, ReasoningItem, ResponseObject, ResponsesEvent, ResponsesRequest, ResponsesUsage, TextFormat } from './responses-wire';

/** What a converted request cannot carry, named for the 400 a non-Responses upstream answers with. */
export interface ChatConversion {
  chat: ChatRequest;
  /** Features with no chat equivalent (built-in tools, file inputs…): fine natively, refused otherwise. */
  unsupported: string[];
  tools: ToolNames;
}

/** How the client named a tool that chat knows by one flat function name. */
interface ToolName {
  name: string;
  namespace?: string;
  /** A freeform (`custom`) tool: chat sees a function of one string, `input`. */
  custom?: boolean;
}

/** Chat function name → the client's tool: namespaced tools become `namespace__name` functions. */
export type ToolNames = Map<string, ToolName>;

const chatToolName = (name: string, namespace?: string) => (namespace ? `${namespace}__${name}` : name);

/** The argument a freeform tool's raw input travels in as a chat function call. */
const CUSTOM_INPUT = { type: 'object', properties: { input: { type: 'string', description: 'The raw input for the tool.' } }, required: ['input'], additionalProperties: false };

const textOf = (content: string | InputContent[] | undefined): string =>
  typeof content === 'string' ? content : asArray(content).map((p) => str(asRecord(p).text) ?? str(asRecord(p).refusal) ?? '').join('');

function partsOf(content: string | InputContent[], unsupported: string[]): string | ContentPart[] {
  if (typeof content === 'string') return content;
  const parts: ContentPart[] = [];
  for (const p of asArray(content)) {
    const part = asRecord(p);
    if (part.type === 'input_text' || part.type === 'output_text') parts.push({ type: 'text', text: str(part.text) ?? '' });
    else if (part.type === 'refusal') parts.push({ type: 'text', text: str(part.refusal) ?? '' });
    else if (part.type === 'input_image' && str(part.image_url)) {
      const detail = part.detail === 'low' || part.detail === 'high' ? part.detail : 'auto';
      parts.push({ type: 'image_url', image_url: { url: str(part.image_url)!, detail } });
    } else if (part.type === 'input_image') unsupported.push('input_image.file_id');
    else unsupported.push(`content type ${String(part.type)}`);
  }
  return parts;
}

/** Input items → chat messages: consecutive function calls join one assistant turn, as chat wants. */
function messagesOf(items: InputItem[], unsupported: string[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const raw of items) {
    const item = raw as InputItem & { type?: string };
    const type = item.type ?? 'message';
    if (type === 'message') {
      const m = item as { role: ChatMessage['role']; content: string | InputContent[] };
      out.push({ role: m.role, content: m.role === 'assistant' ? textOf(m.content) : partsOf(m.content, unsupported) });
    } else if (type === 'function_call' || type === 'custom_tool_call') {
      const f = item as FunctionCallItem | CustomToolCallItem;
      const args = f.type === 'custom_tool_call' ? JSON.stringify({ input: f.input }) : f.arguments;
      const call: ToolCall = { id: f.call_id, type: 'function', function: { name: chatToolName(f.name, f.namespace), arguments: args } };
      const last = out.at(-1);
      if (last?.role === 'assistant') (last.tool_calls ??= []).push(call);
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const o = item as { call_id: string; output: string | InputContent[] };
      out.push({ role: 'tool', tool_call_id: o.call_id, content: textOf(o.output) });
    } else if (type === 'reasoning') {
      // Reasoning of an earlier turn: chat upstreams take none back (native Responses routes keep it).
      continue;
    } else unsupported.push(`input item type ${type}`);
  }
  return out;
}

function toolChoiceOf(choice: ResponsesRequest['tool_choice'], unsupported: string[]): unknown {
  if (choice === undefined || typeof choice === 'string') return choice;
  if ((choice.type === 'function' || choice.type === 'custom') && choice.name) return { type: 'function', function: { name: chatToolName(choice.name, str(choice.namespace)) } };
  if (choice.type === 'allowed_tools') return str(choice.mode) ?? 'auto';
  unsupported.push(`tool_choice ${choice.type}`);
  return undefined;
}

function responseFormatOf(format: TextFormat | undefined): unknown {
  if (format?.type === 'json_object') return { type: 'json_object' };
  if (format?.type === 'json_schema') {
    return { type: 'json_schema', json_schema: { name: format.name ?? 'response', schema: format.schema, ...(format.description ? { description: format.description } : {}), ...(format.strict != null ? { strict: format.strict } : {}) } };
  }
  return undefined;
}

/**
 * A Responses request (its input already expanded with any previous response's turns) → the canonical
 * chat request. Instructions lead as the system message; built-in tools and other features chat cannot
 * express are listed in `unsupported`, never silently dropped.
 */
export function responsesToChat(req: ResponsesRequest, input: InputItem[]): ChatConversion {
  const unsupported: string[] = [];
  const messages: ChatMessage[] = [];
  if (req.instructions) messages.push({ role: 'system', content: req.instructions });
  messages.push(...messagesOf(input, unsupported));
  const names: ToolNames = new Map();
  const functionOf = (tool: Record<string, unknown>, namespace?: string) => {
    const name = str(tool.name) ?? '';
    const custom = tool.type === 'custom';
    names.set(chatToolName(name, namespace), { name, ...(namespace ? { namespace } : {}), ...(custom ? { custom } : {}) });
    const format = custom && isRecord(tool.format) && str(tool.format.definition) ? `\nInput format (${str(tool.format.syntax) ?? 'grammar'}):\n${str(tool.format.definition)}` : '';
    const description = `${str(tool.description) ?? ''}${format}`;
    const fn = { name: chatToolName(name, namespace), ...(description ? { description } : {}), parameters: custom ? CUSTOM_INPUT : (tool.parameters ?? { type: 'object', properties: {} }), ...(typeof tool.strict === 'boolean' && !custom ? { strict: tool.strict } : {}) };
    return { type: 'function' as const, function: fn };
  };
  const tools = asArray(req.tools).flatMap((t) => {
    const tool = asRecord(t);
    if (tool.type === 'function' || tool.type === 'custom') return [functionOf(tool)];
    if (tool.type === 'namespace') return asArray(tool.tools).map((inner) => functionOf(asRecord(inner), str(tool.name)));
    unsupported.push(`tool type ${String(tool.type)}`);
    return [];
  });
  const chat: ChatRequest = { model: req.model, messages };
  if (req.stream) Object.assign(chat, { stream: true, stream_options: { include_usage: true } });
  if (tools.length) chat.tools = tools;
  const toolChoice = toolChoiceOf(req.tool_choice, unsupported);
  if (toolChoice !== undefined && tools.length) chat.tool_choice = toolChoice;
  if (typeof req.parallel_tool_calls === 'boolean' && tools.length) chat.parallel_tool_calls = req.parallel_tool_calls;
  if (typeof req.max_output_tokens === 'number') chat.max_completion_tokens = req.max_output_tokens;
  if (typeof req.temperature === 'number') chat.temperature = req.temperature;
  if (typeof req.top_p === 'number') chat.top_p = req.top_p;
  if (req.user) chat.user = req.user;
  const format = responseFormatOf(req.text?.format);
  if (format) chat.response_format = format;
  if (req.reasoning?.effort) chat.reasoning_effort = req.reasoning.effort;
  return { chat, unsupported, tools: names };
}

/** The input as items: a string is one user message. */
export function inputItems(input: ResponsesRequest['input']): InputItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return asArray(input) as InputItem[];
}

/** The request as the Response object echoes it, and the ids an answer needs. */
export interface ResponseMeta {
  id: string;
  createdAt: number;
  model: string;
  request: ResponsesRequest;
  /** The client's names of the tools chat calls by flat names. */
  tools: ToolNames;
}

export function toResponsesUsage(usage: Usage | null | undefined): ResponsesUsage {
  const u = usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.cached_tokens ?? 0, cache_write_tokens: u.cache_write_tokens ?? 0 },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_tokens ?? 0 },
    total_tokens: u.total_tokens || u.prompt_tokens + u.completion_tokens,
  };
}

/** The Response object around `output`, echoing what the request set. */
function responseShell(meta: ResponseMeta, status: ResponseObject['status'], output: OutputItem[], usage: ResponsesUsage | null, finishReason?: string | null): ResponseObject {
  const r = meta.request;
  const incomplete = finishReason === 'length' ? 'max_output_tokens' : finishReason === 'content_filter' ? 'content_filter' : undefined;
  return {
    id: meta.id,
    object: 'response',
    created_at: meta.createdAt,
    status: status === 'completed' && incomplete ? 'incomplete' : status,
    error: null,
    incomplete_details: status === 'completed' && incomplete ? { reason: incomplete } : null,
    instructions: r.instructions ?? null,
    max_output_tokens: r.max_output_tokens ?? null,
    model: meta.model,
    output,
    parallel_tool_calls: r.parallel_tool_calls ?? true,
    previous_response_id: r.previous_response_id ?? null,
    reasoning: { effort: r.reasoning?.effort ?? null, summary: r.reasoning?.summary ?? null },
    store: r.store !== false,
    temperature: r.temperature ?? 1,
    text: { format: r.text?.format ?? { type: 'text' } },
    tool_choice: r.tool_choice ?? 'auto',
    tools: r.tools ?? [],
    top_p: r.top_p ?? 1,
    truncation: 'disabled',
    usage,
    user: r.user ?? null,
    metadata: r.metadata ?? {},
  };
}

const message = (id: string, text: string, status: OutputMessage['status'] = 'completed'): OutputMessage => ({
  type: 'message',
  id,
  status,
  role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
});

const reasoning = (id: string, text: string): ReasoningItem => ({ type: 'reasoning', id, summary: [{ type: 'summary_text', text }] });

/** A whole chat answer → the Response object (choice 0: a response has one answer). */
export function chatToResponse(answer: ChatResponse, meta: ResponseMeta, billed: Usage): ResponseObject {
  const choice = answer.choices.find((c) => c.index === 0) ?? answer.choices[0];
  const output: OutputItem[] = [];
  const m = choice?.message;
  if (m?.reasoning_content) output.push(reasoning(randomId('rs_'), m.reasoning_content));
  if (m?.refusal) output.push({ type: 'message', id: randomId('msg_'), status: 'completed', role: 'assistant', content: [{ type: 'refusal', refusal: m.refusal }] });
  if (m?.content) output.push(message(randomId('msg_'), m.content));
  for (const t of m?.tool_calls ?? []) output.push(callItem(meta.tools, t.id, t.function.name, t.function.arguments));
  return responseShell(meta, 'completed', output, toResponsesUsage(billed), choice?.finish_reason);
}

type OpenItem =
  | { kind: 'message'; index: number; item: OutputMessage; text: string }
  | { kind: 'reasoning'; index: number; item: ReasoningItem; text: string }
  | { kind: 'call'; index: number; item: Extract<OutputItem, { call_id: string }>; chatName: string; args: string };

/**
 * Chat chunks → the Responses event sequence: response.created / in_progress first, then per output item
 * output_item.added → (content_part.added → output_text.delta… → output_text.done → content_part.done |
 * function_call_arguments.delta… → .done | reasoning summary parts) → output_item.done, and at the end
 * response.completed with the usage as billed. Items are written in the order their first delta came.
 */
export class ResponsesStream {
  private seq = 0;
  private started = false;
  private readonly output: OutputItem[] = [];
  private open: OpenItem | null = null;
  /** Chat tool_calls index → its output item (arguments may keep coming after other deltas). */
  private readonly calls = new Map<number, Extract<OpenItem, { kind: 'call' }>>();
  private finishReason: string | null = null;

  constructor(private readonly meta: ResponseMeta) {}

  private event(type: string, fields: Record<string, unknown>): ResponsesEvent {
    return { type, sequence_number: this.seq++, ...fields };
  }

  /** response.created and response.in_progress, once. */
  start(): ResponsesEvent[] {
    if (this.started) return [];
    this.started = true;
    const response = responseShell(this.meta, 'in_progress', [], null);
    return [this.event('response.created', { response }), this.event('response.in_progress', { response })];
  }

  private close(out: ResponsesEvent[]): void {
    const open = this.open;
    if (!open) return;
    this.open = null;
    const base = { item_id: open.item.id, output_index: open.index };
    if (open.kind === 'message') {
      open.item.content = [{ type: 'output_text', text: open.text, annotations: [], logprobs: [] }];
      open.item.status = 'completed';
      out.push(this.event('response.output_text.done', { ...base, content_index: 0, text: open.text, logprobs: [] }));
      out.push(this.event('response.content_part.done', { ...base, content_index: 0, part: open.item.content[0] }));
    } else if (open.kind === 'reasoning') {
      open.item.summary = [{ type: 'summary_text', text: open.text }];
      out.push(this.event('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: open.text }));
      out.push(this.event('response.reasoning_summary_part.done', { ...base, summary_index: 0, part: open.item.summary[0] }));
    } else {
      // The finished item as chatToResponse writes it; a freeform tool's input goes out whole here, as
      // its JSON wrapping cannot be unwrapped piece by piece.
      const done = callItem(this.meta.tools, open.item.call_id, open.chatName, open.args, open.item.id);
      if (done.type === 'function_call') out.push(this.event('response.function_call_arguments.done', { ...base, name: done.name, arguments: done.arguments }));
      else {
        const input = done.type === 'custom_tool_call' ? done.input : '';
        out.push(this.event('response.custom_tool_call_input.delta', { ...base, delta: input }));
        out.push(this.event('response.custom_tool_call_input.done', { ...base, input }));
      }
      this.output[open.index] = done;
      out.push(this.event('response.output_item.done', { output_index: open.index, item: done }));
      return;
    }
    out.push(this.event('response.output_item.done', { output_index: open.index, item: open.item }));
  }

  private add(item: OutputItem, out: ResponsesEvent[]): number {
    this.close(out);
    const index = this.output.push(item) - 1;
    const added = item.type === 'message' ? { ...item, content: [] } : item.type === 'reasoning' ? { ...item, summary: [] } : item;
    out.push(this.event('response.output_item.added', { output_index: index, item: added }));
    return index;
  }

  private text(delta: string, out: ResponsesEvent[]): void {
    if (this.open?.kind !== 'message') {
      const item = message(randomId('msg_'), '', 'in_progress');
      item.content = [];
      const index = this.add(item, out);
      this.open = { kind: 'message', index, item, text: '' };
      out.push(this.event('response.content_part.added', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } }));
    }
    this.open.text += delta;
    out.push(this.event('response.output_text.delta', { item_id: this.open.item.id, output_index: this.open.index, content_index: 0, delta, logprobs: [] }));
  }

  private thought(delta: string, out: ResponsesEvent[]): void {
    if (this.open?.kind !== 'reasoning') {
      const item = reasoning(randomId('rs_'), '');
      const index = this.add(item, out);
      this.open = { kind: 'reasoning', index, item, text: '' };
      out.push(this.event('response.reasoning_summary_part.added', { item_id: item.id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } }));
    }
    this.open.text += delta;
    out.push(this.event('response.reasoning_summary_text.delta', { item_id: this.open.item.id, output_index: this.open.index, summary_index: 0, delta }));
  }

  private call(tc: { index: number; id?: string; function?: { name?: string; arguments?: string } }, out: ResponsesEvent[]): void {
    let open = this.calls.get(tc.index);
    if (!open) {
      const chatName = tc.function?.name ?? '';
      const shown = callItem(this.meta.tools, tc.id || randomId('call_'), chatName, '');
      const item = { ...shown, status: 'in_progress' } as Extract<OutputItem, { call_id: string }>;
      const index = this.add(item, out);
      open = { kind: 'call', index, item, chatName, args: '' };
      this.calls.set(tc.index, open);
      this.open = open;
    }
    const delta = tc.function?.arguments ?? '';
    // Chat upstreams finish one call's arguments before the next item starts (OpenAI, and the Anthropic
    // and Gemini adapters, never interleave), so a call that is no longer open has nothing more to come.
    if (!delta || this.open !== open) return;
    open.args += delta;
    if (open.item.type === 'function_call') out.push(this.event('response.function_call_arguments.delta', { item_id: open.item.id, output_index: open.index, delta }));
  }

  /** One chat chunk's deltas (choice 0) as events; the first call also writes the lifecycle start. */
  chunk(chunk: { choices: { index: number; delta: { content?: string | null; reasoning_content?: string; tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[] }): ResponsesEvent[] {
    const out = this.start();
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) return out;
    const d = choice.delta ?? {};
    if (d.reasoning_content) this.thought(d.reasoning_content, out);
    if (d.content) this.text(d.content, out);
    for (const tc of d.tool_calls ?? []) this.call(tc, out);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return out;
  }

  /** Closes the open item and completes the response with the usage as billed. */
  finish(billed: Usage): { events: ResponsesEvent[]; response: ResponseObject } {
    const out = this.start();
    this.close(out);
    const response = responseShell(this.meta, 'completed', this.output, toResponsesUsage(billed), this.finishReason);
    out.push(this.event(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response }));
    return { events: out, response };
  }

  /** The upstream broke after the stream began: the response fails with the reason. */
  fail(message: string): ResponsesEvent[] {
    const out = this.start();
    this.close(out);
    const response = { ...responseShell(this.meta, 'failed', this.output, null), error: { code: 'server_error', message } };
    out.push(this.event('response.failed', { response }));
    return out;
  }
}

/**
 * A turn's input as stored for GET …/input_items, in the shape OpenAI lists items: every item with an id
 * and a status, message content as parts (a string becomes one input_text, or output_text for the
 * assistant). Clients send most items without ids.
 */
export function withItemIds(items: InputItem[]): (InputItem & { id: string })[] {
  return items.map((item) => {
    const rec = item as InputItem & { id?: string; type?: string; status?: string };
    const type = rec.type ?? 'message';
    const prefix = type === 'message' ? 'msg_' : type === 'function_call' ? 'fc_' : type === 'custom_tool_call' ? 'ctc_' : type.endsWith('_output') ? 'fco_' : 'item_';
    const out = { ...rec, type, id: rec.id ?? randomId(prefix), status: rec.status ?? 'completed' } as InputItem & { id: string };
    if (out.type === 'message' && typeof out.content === 'string') {
      out.content = [out.role === 'assistant' ? { type: 'output_text', text: out.content, annotations: [] } : { type: 'input_text', text: out.content }];
    }
    return out;
  });
}

export const newResponseMeta = (request: ResponsesRequest, model: string, tools: ToolNames): ResponseMeta => ({ id: randomId('resp_'), createdAt: nowSeconds(), model, request, tools });

/** A finished chat tool call as the client's output item: a function call (namespaced or not) or a
 *  freeform tool's call with its raw input. */
function callItem(tools: ToolNames, callId: string, chatName: string, args: string, id?: string): OutputItem {
  const known = tools.get(chatName) ?? { name: chatName };
  const namespace = known.namespace ? { namespace: known.namespace } : {};
  if (known.custom) {
    const input = parseArguments(args).input;
    return { type: 'custom_tool_call', id: id ?? randomId('ctc_'), call_id: callId, name: known.name, input: typeof input === 'string' ? input : args, status: 'completed', ...namespace };
  }
  return { type: 'function_call', id: id ?? randomId('fc_'), call_id: callId, name: known.name, arguments: args, status: 'completed', ...namespace };
}
