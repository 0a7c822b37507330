// The gateway's native `/v1/messages` route (docs/ORIGINAL-GATEWAY.md §2.1).
// (a) Anthropic upstream: the client's body goes through with only the model replaced; usage is read
//     from the answer or the events on the way back.
// (b) Any other upstream: the Anthropic request becomes an OpenAI ChatRequest for that family's adapter,
//     and its ChatResponse comes back as an Anthropic message (streams: ./messages-stream.ts).
import { asArray, asRecord, isRecord, num, parseArguments, str, tryParse } from '../shape';
import type { ChatMessage, ChatRequest, ChatResponse, ContentPart, StreamEvent, ToolCall, UpstreamRequest, UpstreamTarget, Usage } from '../types';
import { anthropicHeaders, anthropicUrl, countTokensUrl, type AnthropicClientHeaders } from './api';
import { openaiUsage } from '../openai/chat';
import { anthropicUsage } from './chat';
import { mergeAnthropicUsage } from './stream';
import type { AnthropicBlock, AnthropicResponse, AnthropicUsage } from './wire';

// ---- (a) pass-through to an Anthropic upstream ----

export function buildMessagesRequest(target: UpstreamTarget, body: Record<string, unknown>, client?: AnthropicClientHeaders): UpstreamRequest {
  return { url: anthropicUrl(target), headers: anthropicHeaders(target.key, client), body: JSON.stringify({ ...body, model: target.model }) };
}

/** `/v1/messages/count_tokens`: the client's body with only the model replaced, like a message. */
export function buildCountTokensRequest(target: UpstreamTarget, body: Record<string, unknown>, client?: AnthropicClientHeaders): UpstreamRequest {
  return { url: countTokensUrl(target), headers: anthropicHeaders(target.key, client), body: JSON.stringify({ ...body, model: target.model }) };
}

export function messagesUsage(json: unknown): Usage | undefined {
  const u = asRecord(json).usage;
  return isRecord(u) ? anthropicUsage(u) : undefined;
}

/** Cumulative usage of a pass-through stream; `state` starts as `{}`. Returns the usage so far when
 *  this event changed it (message_start, message_delta). */
export function messagesStreamUsage(event: StreamEvent, state: AnthropicUsage): Usage | undefined {
  const json = asRecord(tryParse(event.data));
  const changed =
    json.type === 'message_start' ? mergeAnthropicUsage(state, asRecord(json.message).usage) : json.type === 'message_delta' ? mergeAnthropicUsage(state, json.usage) : false;
  return changed ? anthropicUsage(state) : undefined;
}

// ---- (b) Anthropic client, non-Anthropic upstream ----

function blocksOf(content: unknown): Record<string, unknown>[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content).filter(isRecord);
}

function imagePart(source: Record<string, unknown>): ContentPart | undefined {
  if (source.type === 'base64') return { type: 'image_url', image_url: { url: `data:${str(source.media_type) ?? 'image/png'};base64,${str(source.data) ?? ''}` } };
  if (source.type === 'url' && str(source.url)) return { type: 'image_url', image_url: { url: str(source.url) ?? '' } };
  return undefined;
}

function textOf(content: unknown): string {
  return blocksOf(content)
    .map((b) => (b.type === 'text' ? (str(b.text) ?? '') : ''))
    .join('');
}

const isClientTool = (t: Record<string, unknown>) => t.type === undefined || t.type === 'custom';

/** Anthropic's server tools in a request (web_search_…, code_execution_…, bash_…): only an Anthropic
 *  upstream runs them, so a converted request that asks for one is refused by name (gateway/messages.ts). */
export function serverTools(body: Record<string, unknown>): string[] {
  return asArray(body.tools).filter(isRecord).filter((t) => !isClientTool(t)).map((t) => String(t.type));
}

/** One Anthropic turn → OpenAI messages: tool_result blocks become `tool` messages (placed first, as
 *  OpenAI wants them right after the assistant's tool_calls); thinking blocks are dropped. */
function fromTurn(role: string, content: unknown): ChatMessage[] {
  const out: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  for (const b of blocksOf(content)) {
    if (b.type === 'text') parts.push({ type: 'text', text: str(b.text) ?? '' });
    else if (b.type === 'image') {
      const p = imagePart(asRecord(b.source));
      if (p) parts.push(p);
    } else if (b.type === 'tool_use') calls.push({ id: str(b.id) ?? '', type: 'function', function: { name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) } });
    else if (b.type === 'tool_result') out.push({ role: 'tool', tool_call_id: str(b.tool_use_id) ?? '', content: textOf(b.content) });
  }
  if (role === 'assistant') {
    const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (text || calls.length) out.push({ role: 'assistant', content: text || null, ...(calls.length ? { tool_calls: calls } : {}) });
  } else if (parts.length) {
    // Plain text stays a string: the widest-supported shape across OpenAI-compatible hosts.
    const textOnly = parts.every((p) => p.type === 'text');
    out.push({ role: 'user', content: textOnly ? parts.map((p) => (p.type === 'text' ? p.text : '')).join('') : parts });
  }
  return out;
}

function toolChoiceOf(tc: unknown): unknown {
  const c = asRecord(tc);
  if (c.type === 'any') return 'required';
  if (c.type === 'none') return 'none';
  if (c.type === 'tool' && str(c.name)) return { type: 'function', function: { name: str(c.name) } };
  return c.type === 'auto' ? 'auto' : undefined;
}

export function anthropicToChatRequest(body: unknown): ChatRequest {
  const b = asRecord(body);
  const messages: ChatMessage[] = [];
  const system = textOf(b.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const m of asArray(b.messages).filter(isRecord)) messages.push(...fromTurn(str(m.role) ?? 'user', m.content));
  const req: ChatRequest = { model: str(b.model) ?? '', messages };
  if (typeof b.max_tokens === 'number') req.max_tokens = b.max_tokens;
  if (typeof b.temperature === 'number') req.temperature = b.temperature;
  if (typeof b.top_p === 'number') req.top_p = b.top_p;
  const stop = asArray(b.stop_sequences).filter((s): s is string => typeof s === 'string');
  if (stop.length) req.stop = stop;
  if (b.stream === true) req.stream = true;
  const tools = asArray(b.tools).filter(isRecord).filter((t) => str(t.name) && isClientTool(t));
  if (tools.length) {
    req.tools = tools.map((t) => ({ type: 'function', function: { name: str(t.name) ?? '', description: str(t.description), parameters: t.input_schema } }));
    const choice = toolChoiceOf(b.tool_choice);
    if (choice !== undefined) req.tool_choice = choice;
    if (asRecord(b.tool_choice).disable_parallel_tool_use === true) req.parallel_tool_calls = false;
  }
  const user = str(asRecord(b.metadata).user_id);
  if (user) req.user = user;
  // Structured output: output_config.format (and the beta's output_format) name a JSON schema.
  const format = asRecord(asRecord(b.output_config).format ?? b.output_format);
  if (format.type === 'json_schema' && isRecord(format.schema)) req.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format.schema, strict: true } };
  return req;
}

/** finish_reason → stop_reason (the inverse of chat.ts finishReason). */
export function stopReason(finish: string | null | undefined): string {
  if (finish === 'length') return 'max_tokens';
  if (finish === 'tool_calls' || finish === 'function_call') return 'tool_use';
  if (finish === 'content_filter') return 'refusal';
  return 'end_turn';
}

/** The canonical usage → Anthropic's, as its API writes it: input_tokens exclude cache reads and writes,
 *  the writes split by lifetime; searches only when some were counted. */
export function toAnthropicUsage(u: Usage | undefined | null): AnthropicUsage & { input_tokens: number; output_tokens: number } {
  const read = num(u?.cached_tokens);
  const written = num(u?.cache_write_tokens);
  const written1h = Math.min(num(u?.cache_write_1h_tokens), written);
  const usage: AnthropicUsage & { input_tokens: number; output_tokens: number } = {
    input_tokens: Math.max(num(u?.prompt_tokens) - read - written, 0),
    cache_creation_input_tokens: written,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: written - written1h, ephemeral_1h_input_tokens: written1h },
    output_tokens: num(u?.completion_tokens),
  };
  if (u?.search_calls) usage.server_tool_use = { web_search_requests: u.search_calls };
  return usage;
}

function toolUseBlock(call: ToolCall): AnthropicBlock {
  return { type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) };
}

export function chatResponseToAnthropic(res: ChatResponse, model: string): AnthropicResponse {
  const choice = res.choices[0];
  const content: AnthropicBlock[] = [];
  if (choice?.message.reasoning_content) content.push({ type: 'thinking', thinking: choice.message.reasoning_content, signature: '' });
  if (choice?.message.content) content.push({ type: 'text', text: choice.message.content });
  for (const call of choice?.message.tool_calls ?? []) content.push(toolUseBlock(call));
  const id = res.id.startsWith('msg_') ? res.id : `msg_${res.id.replace(/^chatcmpl-/, '')}`;
  return { id, type: 'message', role: 'assistant', model, content, stop_reason: stopReason(choice?.finish_reason), stop_sequence: null, usage: toAnthropicUsage(openaiUsage(res.usage)) };
}
