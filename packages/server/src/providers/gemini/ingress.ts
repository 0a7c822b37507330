// Gemini's own API as an ingress (POST /v1beta/models/{model}:generateContent): a client's
// GenerateContentRequest → the OpenAI chat request every family's adapter reads, and a chat answer →
// GenerateContentResponse. Pure transforms; gateway/gemini-native.ts does the I/O and the checks.
//
// Gemini's function calls usually carry no id, OpenAI's tool messages must name the call they answer:
// calls without one get `call_<turn>_<n>` (stable when the conversation is sent again with one more
// turn, so upstream prompt caches still match), and each functionResponse answers the earliest open call
// with its id, else with its name, else the earliest open call.
import { asArray, asRecord, isRecord, parseArguments, str, type Json } from '../shape';
import type { ChatMessage, ChatRequest, ChatResponse, ContentPart, ToolCall, Usage } from '../types';
import { effortOfBudget } from '../reasoning';

/** A text, or the text parts of a Content (systemInstruction may be either). */
function instructionText(v: unknown): string {
  if (typeof v === 'string') return v;
  return asArray(asRecord(v).parts)
    .map((p) => str(asRecord(p).text) ?? '')
    .filter(Boolean)
    .join('\n');
}

/** The media fields in either spelling the API accepts (`inlineData` / `inline_data`, `mimeType` / `mime_type`). */
const media = (p: Json, camel: string, snake: string): Json | undefined => {
  const v = p[camel] ?? p[snake];
  return isRecord(v) ? v : undefined;
};
const mimeOf = (m: Json): string => str(m.mimeType) ?? str(m.mime_type) ?? 'application/octet-stream';

/** A user part other than a function response: text, inline bytes (audio stays audio), a file URI. */
function userPart(p: Json): ContentPart | undefined {
  if (typeof p.text === 'string') return p.thought === true || !p.text ? undefined : { type: 'text', text: p.text };
  const inline = media(p, 'inlineData', 'inline_data');
  if (inline) {
    const mime = mimeOf(inline);
    const data = str(inline.data) ?? '';
    if (mime.startsWith('audio/')) return { type: 'input_audio', input_audio: { data, format: mime.slice(6).replace(/^mpeg$/, 'mp3').replace(/^x-/, '') } };
    return { type: 'image_url', image_url: { url: `data:${mime};base64,${data}` } };
  }
  const file = media(p, 'fileData', 'file_data');
  const uri = file && (str(file.fileUri) ?? str(file.file_uri));
  return uri ? { type: 'image_url', image_url: { url: uri } } : undefined;
}

/** A function's result as the tool message's text: `{output: "text"}` (Gemini's convention) is the text. */
function resultText(response: unknown): string {
  const r = asRecord(response);
  const keys = Object.keys(r);
  if (keys.length === 1 && (keys[0] === 'output' || keys[0] === 'result') && typeof r[keys[0]] === 'string') return r[keys[0]] as string;
  return JSON.stringify(response ?? {});
}

interface OpenCall {
  id: string;
  name: string;
}

function answeredCall(open: OpenCall[], id: string | undefined, name: string): OpenCall | undefined {
  let i = id ? open.findIndex((c) => c.id === id) : -1;
  if (i < 0) i = open.findIndex((c) => c.name === name);
  if (i < 0) i = open.length ? 0 : -1;
  return i < 0 ? undefined : open.splice(i, 1)[0];
}

/** contents (user/model turns) → OpenAI messages, function calls and responses paired by id. */
export function geminiToChatMessages(contents: unknown[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  let open: OpenCall[] = [];
  contents.forEach((c, turn) => {
    const content = asRecord(c);
    const parts = asArray(content.parts).filter(isRecord);
    if (content.role === 'model') {
      const text = parts.map((p) => (typeof p.text === 'string' && p.thought !== true ? p.text : '')).join('');
      const calls: ToolCall[] = parts
        .map((p) => asRecord(p.functionCall ?? p.function_call))
        .filter((fc) => typeof fc.name === 'string')
        .map((fc, n) => ({ id: str(fc.id) || `call_${turn}_${n}`, type: 'function', function: { name: fc.name as string, arguments: JSON.stringify(fc.args ?? {}) } }));
      open = calls.map((call) => ({ id: call.id, name: call.function.name }));
      if (!text && !calls.length) return;
      messages.push(calls.length ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text });
      return;
    }
    // A user turn: its function responses first, as tool messages right after the calls they answer.
    const rest: ContentPart[] = [];
    for (const p of parts) {
      const fr = p.functionResponse ?? p.function_response;
      if (isRecord(fr)) {
        const name = str(fr.name) ?? '';
        const call = answeredCall(open, str(fr.id), name);
        // A response to no call (the history was cut): its content still reaches the model, as text.
        if (call) messages.push({ role: 'tool', tool_call_id: call.id, content: resultText(fr.response) });
        else rest.push({ type: 'text', text: `${name}: ${resultText(fr.response)}` });
        continue;
      }
      const part = userPart(p);
      if (part) rest.push(part);
    }
    if (!rest.length) return;
    const only = rest.length === 1 ? rest[0] : undefined;
    messages.push({ role: 'user', content: only?.type === 'text' ? only.text : rest });
  });
  return messages;
}

const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_ONE = new Set(['items', 'not', 'additionalProperties', 'contains']);
/** int64 fields that the REST API also accepts as strings. */
const COUNTS = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

/**
 * Gemini's OpenAPI-style Schema (upper-case types like "STRING", `nullable`, `propertyOrdering`) → JSON
 * Schema as OpenAI tools and structured outputs read it. Walks schema positions only, so a property
 * that is itself named `type` keeps its name.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'propertyOrdering' || k === 'nullable') continue;
    if (k === 'type') out.type = typeof v === 'string' ? v.toLowerCase() : Array.isArray(v) ? v.map((t) => (typeof t === 'string' ? t.toLowerCase() : t)) : v;
    else if (SCHEMA_MAPS.has(k) && isRecord(v)) out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, toJsonSchema(s)]));
    else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) out[k] = v.map(toJsonSchema);
    else if (SCHEMA_ONE.has(k)) out[k] = toJsonSchema(v);
    else if (COUNTS.has(k) && typeof v === 'string' && /^\d+$/.test(v)) out[k] = Number(v);
    else out[k] = v;
  }
  if (out.type === 'type_unspecified') delete out.type;
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

type ChatTool = NonNullable<ChatRequest['tools']>[number];

/** Gemini's built-in tools in a request (googleSearch, codeExecution, urlContext…): only a Gemini upstream
 *  runs them, so a converted request that asks for one is refused by name (gateway/gemini-native.ts). */
export function hostedTools(tools: unknown): string[] {
  return asArray(tools).flatMap((t) => Object.keys(asRecord(t)).filter((k) => k !== 'functionDeclarations' && k !== 'function_declarations'));
}

/** tools[].functionDeclarations → OpenAI tools (the built-in ones: hostedTools). */
function chatTools(tools: unknown): ChatTool[] {
  return asArray(tools)
    .flatMap((t) => asArray(asRecord(t).functionDeclarations ?? asRecord(t).function_declarations))
    .filter((d): d is Json => isRecord(d) && typeof d.name === 'string')
    .map((d) => {
      const fn: ChatTool['function'] = { name: d.name as string };
      if (typeof d.description === 'string') fn.description = d.description;
      const parameters = d.parametersJsonSchema ?? (d.parameters === undefined ? undefined : toJsonSchema(d.parameters));
      if (parameters !== undefined) fn.parameters = parameters;
      return { type: 'function', function: fn };
    });
}

/** functionCallingConfig → tool_choice: AUTO/VALIDATED auto, NONE none, ANY required (one allowed name: that function). */
function toolChoice(config: unknown): { choice?: unknown; allowed?: string[] } {
  const fc = asRecord(asRecord(config).functionCallingConfig ?? asRecord(config).function_calling_config);
  const mode = str(fc.mode)?.toUpperCase();
  const allowed = asArray(fc.allowedFunctionNames ?? fc.allowed_function_names).filter((n): n is string => typeof n === 'string');
  if (mode === 'NONE') return { choice: 'none' };
  if (mode === 'ANY') return allowed.length === 1 ? { choice: { type: 'function', function: { name: allowed[0] } }, allowed } : { choice: 'required', allowed: allowed.length ? allowed : undefined };
  if (mode === 'AUTO' || mode === 'VALIDATED') return { choice: 'auto' };
  return {};
}

const LEVELS = new Set(['minimal', 'low', 'medium', 'high']);

/**
 * thinkingConfig → reasoning_effort: a thinkingLevel names it; a positive thinkingBudget is bucketed on
 * the gateway's one scale (providers/reasoning.ts). A budget of 0 (off) or -1 (dynamic) says nothing
 * OpenAI's field can, and is left out.
 */
export function reasoningEffort(thinking: unknown): string | undefined {
  const t = asRecord(thinking);
  const level = str(t.thinkingLevel)?.toLowerCase();
  if (level && LEVELS.has(level)) return level;
  return effortOfBudget(t.thinkingBudget);
}

/** Whether the client asked for the model's thoughts (they come back as `thought: true` parts). */
export const wantsThoughts = (body: Json): boolean => asRecord(asRecord(body.generationConfig).thinkingConfig).includeThoughts === true;

function responseFormat(config: Json): ChatRequest['response_format'] {
  if (str(config.responseMimeType) !== 'application/json') return undefined;
  const schema = config.responseJsonSchema ?? config.response_json_schema ?? (config.responseSchema === undefined ? undefined : toJsonSchema(config.responseSchema));
  return schema === undefined ? { type: 'json_object' } : { type: 'json_schema', json_schema: { name: 'response', schema } };
}

/** generationConfig → the OpenAI sampling fields (topK has none and is left out). */
function sampling(config: Json): Partial<ChatRequest> {
  const stop = asArray(config.stopSequences).filter((s): s is string => typeof s === 'string');
  const fields: Partial<ChatRequest> = {
    max_tokens: config.maxOutputTokens as number | undefined,
    temperature: config.temperature as number | undefined,
    top_p: config.topP as number | undefined,
    n: config.candidateCount as number | undefined,
    stop: stop.length ? stop : undefined,
    presence_penalty: config.presencePenalty,
    frequency_penalty: config.frequencyPenalty,
    seed: config.seed,
    response_format: responseFormat(config),
    reasoning_effort: reasoningEffort(config.thinkingConfig),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** A GenerateContentRequest (already checked for shape) → the OpenAI chat request for `model`. */
export function geminiToChatRequest(model: string, body: Json): ChatRequest {
  const messages = geminiToChatMessages(asArray(body.contents));
  const system = instructionText(body.systemInstruction ?? body.system_instruction);
  if (system) messages.unshift({ role: 'system', content: system });
  const req: ChatRequest = { model, messages, ...sampling(asRecord(body.generationConfig ?? body.generation_config)) };
  const { choice, allowed } = toolChoice(body.toolConfig ?? body.tool_config);
  let tools = chatTools(body.tools);
  // ANY with allowed names: only those may be called.
  if (allowed) tools = tools.filter((t) => allowed.includes(t.function.name));
  if (tools.length) {
    req.tools = tools;
    if (choice !== undefined) req.tool_choice = choice;
  }
  return req;
}

const FINISH: Record<string, string> = { stop: 'STOP', tool_calls: 'STOP', function_call: 'STOP', length: 'MAX_TOKENS', content_filter: 'SAFETY' };

/** OpenAI finish_reason → Gemini finishReason (calls end with STOP there). */
export const toGeminiFinish = (reason: string | null | undefined): string => (reason ? (FINISH[reason] ?? 'OTHER') : 'STOP');

/** A billed usage → usageMetadata: the thoughts (reasoning) apart from candidatesTokenCount, as Gemini counts them. */
export function toUsageMetadata(usage: Usage): Json {
  const thoughts = Math.min(usage.reasoning_tokens ?? 0, usage.completion_tokens);
  const meta: Json = { promptTokenCount: usage.prompt_tokens, candidatesTokenCount: usage.completion_tokens - thoughts, totalTokenCount: usage.total_tokens };
  if (usage.cached_tokens) meta.cachedContentTokenCount = usage.cached_tokens;
  if (thoughts) meta.thoughtsTokenCount = thoughts;
  return meta;
}

export type GeminiOutPart = { text: string; thought?: true } | { functionCall: { id: string; name: string; args: Json } };

/** A tool call as Gemini's functionCall part; its id goes along, and comes back on the functionResponse. */
export const functionCallPart = (call: { id: string; name: string; arguments: string }): GeminiOutPart => ({ functionCall: { id: call.id, name: call.name, args: parseArguments(call.arguments) } });

/** A chat answer → GenerateContentResponse for the model the client asked for. */
export function chatResponseToGemini(answer: ChatResponse, billed: Usage, model: string, thoughts: boolean): Json {
  const candidates = answer.choices.map((c, i) => {
    const parts: GeminiOutPart[] = [];
    if (thoughts && c.message.reasoning_content) parts.push({ text: c.message.reasoning_content, thought: true });
    if (c.message.content) parts.push({ text: c.message.content });
    for (const call of c.message.tool_calls ?? []) parts.push(functionCallPart({ id: call.id, ...call.function }));
    return { content: { role: 'model', parts }, finishReason: toGeminiFinish(c.finish_reason), index: typeof c.index === 'number' ? c.index : i };
  });
  return { candidates, usageMetadata: toUsageMetadata(billed), modelVersion: model, responseId: answer.id };
}

/** A Gemini answer's text (thoughts and call arguments included), for the log and local counting. */
export function geminiAnswerText(json: unknown): string {
  return asArray(asRecord(json).candidates)
    .flatMap((c) => asArray(asRecord(asRecord(c).content).parts))
    .map((p) => {
      const part = asRecord(p);
      return str(part.text) ?? (isRecord(part.functionCall) ? JSON.stringify(part.functionCall.args ?? {}) : '');
    })
    .join('');
}
