// OpenAI chat ⇄ Anthropic Messages (the non-stream half; stream.ts converts the event stream).
//
// response_format (Messages has no JSON mode that every Claude model takes): the answer is asked for as
// the input of a forced tool, OUTPUT_TOOL, whose input_schema is the client's json_schema — or, for
// json_object, any object (a tool input is always a JSON object, so the answer is valid JSON, which a
// system instruction could not promise). That tool_use comes back as the message's text content (its
// input as a JSON string) with finish_reason `stop`; streamed, its input_json_delta pieces are content
// deltas. The adapter sees the answer without the request, so the tool is recognised by its name alone.
// With the client's own tools:
// - tool_choice absent or `auto`: the output tool joins them and Claude must call one of them (`any`):
//   a client tool (tool_calls, as usual) or the answer (content);
// - `none`: the output tool is forced, the client's tools stay listed but uncalled;
// - `required` or a named function: the client wants a tool call now; the output tool is left out.
import { asRecord, contentText, isRecord, nowSeconds, num, parseArguments, parseDataUrl, str } from '../shape';
import type { ChatMessage, ChatRequest, ChatResponse, ContentPart, ToolCall, Usage } from '../types';
import type { AnthropicBlock, AnthropicMessage, AnthropicRequest, AnthropicResponse, AnthropicTool, AnthropicToolChoice, AnthropicUsage } from './wire';
import { DEFAULT_MAX_TOKENS } from './wire';
import { budgetOfEffort } from '../reasoning';
import { toChatUsage, usageOf } from '../usage';

function imageBlock(url: string): AnthropicBlock {
  const data = parseDataUrl(url);
  return data ? { type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } } : { type: 'image', source: { type: 'url', url } };
}

/** OpenAI content → Anthropic blocks. Audio has no Anthropic equivalent and is dropped; empty text is
 *  dropped because Messages rejects empty text blocks. */
function contentBlocks(content: string | ContentPart[] | null): AnthropicBlock[] {
  if (content === null) return [];
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  const blocks: AnthropicBlock[] = [];
  for (const part of content) {
    if (part.type === 'text' && part.text) blocks.push({ type: 'text', text: part.text });
    else if (part.type === 'image_url') blocks.push(imageBlock(part.image_url.url));
  }
  return blocks;
}

function toolUse(call: ToolCall): AnthropicBlock {
  return { type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call.function.arguments) };
}

function messageBlocks(m: ChatMessage): { role: 'user' | 'assistant'; blocks: AnthropicBlock[] } {
  if (m.role === 'tool') {
    return { role: 'user', blocks: [{ type: 'tool_result', tool_use_id: m.tool_call_id ?? '', content: contentText(m.content) }] };
  }
  if (m.role === 'assistant') return { role: 'assistant', blocks: [...contentBlocks(m.content), ...(m.tool_calls ?? []).map(toolUse)] };
  return { role: 'user', blocks: contentBlocks(m.content) };
}

/** Non-system messages → Messages turns. Consecutive turns of one role are merged (tool results
 *  and the user text after them become one user turn), as Messages requires alternating roles. */
function toAnthropicMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') continue;
    const { role, blocks } = messageBlocks(m);
    if (blocks.length === 0) continue;
    const last = out.at(-1);
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  }
  return out;
}

function systemText(messages: ChatMessage[]): string | undefined {
  const parts = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => contentText(m.content));
  const text = parts.filter(Boolean).join('\n\n');
  return text || undefined;
}

function toolChoice(choice: unknown, parallel: unknown): AnthropicToolChoice | undefined {
  const noParallel = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'auto') return { type: 'auto', ...noParallel };
  if (choice === 'required') return { type: 'any', ...noParallel };
  if (choice === 'none') return { type: 'none' };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') return { type: 'tool', name: choice.function.name, ...noParallel };
  return parallel === false ? { type: 'auto', disable_parallel_tool_use: true } : undefined;
}

/** The tool that carries a response_format answer; a name no client tool is expected to have. */
export const OUTPUT_TOOL = 'structured_output';

/** response_format → the output tool; undefined for `text`, none, or a type we do not know. */
function outputTool(format: unknown): AnthropicTool | undefined {
  const f = asRecord(format);
  const anyObject = { type: 'object', additionalProperties: true };
  if (f.type === 'json_object') return { name: OUTPUT_TOOL, description: 'Give your whole answer as a JSON object: the input of this tool.', input_schema: anyObject };
  if (f.type !== 'json_schema') return undefined;
  const spec = asRecord(f.json_schema);
  const name = str(spec.name);
  const description = [`Give your whole answer as ${name ? `a \`${name}\`` : 'an'} object: the input of this tool.`, str(spec.description)].filter(Boolean).join(' ');
  // `$schema` only names a dialect (zod's says draft-07); Messages reads every schema as draft 2020-12.
  const schema = isRecord(spec.schema) ? Object.fromEntries(Object.entries(spec.schema).filter(([k]) => k !== '$schema')) : anyObject;
  return { name: OUTPUT_TOOL, description, input_schema: schema };
}

/** Whether the client's tool_choice leaves room for the output tool (see the header). */
const outputAllowed = (choice: unknown) => choice === undefined || choice === null || choice === 'auto' || choice === 'none';

export function toAnthropicRequest(model: string, req: ChatRequest): AnthropicRequest {
  const body: AnthropicRequest = { model, messages: toAnthropicMessages(req.messages), max_tokens: req.max_completion_tokens ?? req.max_tokens ?? DEFAULT_MAX_TOKENS };
  const system = systemText(req.messages);
  if (system) body.system = system;
  // OpenAI's temperature goes to 2, Anthropic's stops at 1 (it answers 400 above that).
  if (typeof req.temperature === 'number') body.temperature = Math.min(Math.max(req.temperature, 0), 1);
  // Newer Claude models (Sonnet 4.5, Opus 4.1 and later) reject temperature and top_p together, and
  // OpenAI clients often send both: temperature wins.
  if (typeof req.top_p === 'number' && body.temperature === undefined) body.top_p = req.top_p;
  const stop = (typeof req.stop === 'string' ? [req.stop] : (req.stop ?? [])).filter((s) => s.trim() !== '');
  if (stop.length) body.stop_sequences = stop;
  if (req.stream) body.stream = true;
  if (req.tools?.length) {
    body.tools = req.tools.map((t) => ({ name: t.function.name, description: t.function.description, input_schema: t.function.parameters ?? { type: 'object', properties: {} } }));
    const choice = toolChoice(req.tool_choice, req.parallel_tool_calls);
    if (choice) body.tool_choice = choice;
  }
  const output = outputTool(req.response_format);
  if (output && outputAllowed(req.tool_choice)) {
    const own = body.tools ?? [];
    body.tools = [...own, output];
    const noParallel = req.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
    body.tool_choice = own.length && req.tool_choice !== 'none' ? { type: 'any', ...noParallel } : { type: 'tool', name: OUTPUT_TOOL };
  }
  if (typeof req.user === 'string' && req.user) body.metadata = { user_id: req.user };
  const thinking = thinkingFor(req, body);
  if (thinking) {
    body.thinking = thinking;
    // Claude takes no sampling settings while it thinks.
    delete body.temperature;
    delete body.top_p;
  }
  return body;
}

/**
 * reasoning_effort → extended thinking, where Claude can take it as chat clients use it: the budget fits
 * under max_tokens (never raised past what the client capped and the gateway reserved), no tool is forced
 * (thinking refuses a forced tool_choice), and the conversation has no earlier tool call — Claude wants
 * the signed thinking blocks of a tool loop back, and chat clients do not keep them.
 */
function thinkingFor(req: ChatRequest, body: AnthropicRequest): { type: 'enabled'; budget_tokens: number } | undefined {
  const wanted = budgetOfEffort(req.reasoning_effort);
  if (!wanted) return undefined;
  const budget = Math.min(wanted, body.max_tokens - 1);
  const forced = body.tool_choice?.type === 'any' || body.tool_choice?.type === 'tool';
  if (budget < 1024 || forced || req.messages.some((m) => m.tool_calls?.length)) return undefined;
  return { type: 'enabled', budget_tokens: budget };
}

/** stop_reason → finish_reason. refusal is Claude declining for safety, which OpenAI calls a filter.
 *  `answered`: the only tool called was the output tool, so the answer is complete text (`stop`). */
export function finishReason(stop: string | null | undefined, answered = false): string | null {
  switch (stop) {
    case null:
    case undefined:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return answered ? 'stop' : 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/**
 * Anthropic's input_tokens exclude cache reads and writes; the canonical prompt_tokens include them, so the
 * three are summed. Writes split by lifetime in `cache_creation` (5 minutes, 1 hour); thinking tokens are
 * inside output_tokens, which Anthropic does not split. Web searches are counted per request.
 */
export function anthropicUsage(u: AnthropicUsage): Usage {
  const read = num(u.cache_read_input_tokens);
  const lifetimes = asRecord(u.cache_creation);
  const written1h = num(lifetimes.ephemeral_1h_input_tokens);
  const written = Math.max(num(u.cache_creation_input_tokens), num(lifetimes.ephemeral_5m_input_tokens) + written1h);
  const prompt = num(u.input_tokens) + read + written;
  const usage = usageOf(prompt, num(u.output_tokens), 0, { cached_tokens: read, cache_write_tokens: written, cache_write_1h_tokens: written1h });
  const searches = asRecord(u.server_tool_use).web_search_requests;
  if (typeof searches === 'number' && Number.isFinite(searches)) usage.search_calls = searches;
  return usage;
}

export function fromAnthropicResponse(json: unknown, created = nowSeconds()): { body: ChatResponse; usage?: Usage } {
  if (!isRecord(json) || !Array.isArray(json.content)) throw new Error('upstream returned a body that is not an Anthropic message');
  const res = json as unknown as AnthropicResponse;
  let text = '';
  let reasoning = '';
  const calls: ToolCall[] = [];
  let output: string | undefined;
  for (const b of res.content) {
    if (b.type === 'text') text += b.text;
    else if (b.type === 'thinking') reasoning += b.thinking;
    else if (b.type === 'tool_use' && b.name === OUTPUT_TOOL) output = JSON.stringify(b.input ?? {});
    else if (b.type === 'tool_use') calls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } });
  }
  // The structured answer is the content: any text around it would make it unparseable.
  const content = output ?? (calls.length && !text ? null : text);
  const message: ChatResponse['choices'][number]['message'] = { role: 'assistant', content };
  if (calls.length) message.tool_calls = calls;
  if (reasoning) message.reasoning_content = reasoning;
  const usage = isRecord(res.usage) ? anthropicUsage(res.usage) : undefined;
  const body: ChatResponse = { id: res.id, object: 'chat.completion', created, model: res.model, choices: [{ index: 0, message, finish_reason: finishReason(res.stop_reason, output !== undefined && !calls.length) }] };
  if (usage) body.usage = toChatUsage(usage);
  return { body, usage };
}
