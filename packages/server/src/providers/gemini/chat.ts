// OpenAI chat ⇄ Gemini generateContent (the non-stream half; stream.ts reads the SSE answers).
import { asArray, asRecord, contentText, isRecord, nowSeconds, num, parseArguments, parseDataUrl, randomId, str, tryParse } from '../shape';
import type { ChatChoice, ChatMessage, ChatRequest, ChatResponse, ContentPart, ToolCall, Usage } from '../types';
import type { GeminiContent, GeminiPart, GeminiRequest } from './wire';
import { budgetOfEffort } from '../reasoning';
import { toChatUsage, usageOf } from '../usage';

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', gif: 'image/gif', webp: 'image/webp', heic: 'image/heic', heif: 'image/heif' };

/** data: URLs are inlined. Other URLs go as file_data, which Gemini only fetches for URIs it knows
 *  (Files API, some public hosts); the media type is guessed from the extension. */
function imagePart(url: string): GeminiPart {
  const data = parseDataUrl(url);
  if (data) return { inline_data: { mime_type: data.mediaType, data: data.data } };
  const ext = /\.(\w+)(?:[?#]|$)/.exec(url)?.[1]?.toLowerCase() ?? '';
  return { file_data: { mime_type: IMAGE_TYPES[ext] ?? 'image/jpeg', file_uri: url } };
}

function contentParts(content: string | ContentPart[] | null): GeminiPart[] {
  if (content === null) return [];
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  const parts: GeminiPart[] = [];
  for (const p of content) {
    if (p.type === 'text' && p.text) parts.push({ text: p.text });
    else if (p.type === 'image_url') parts.push(imagePart(p.image_url.url));
    else if (p.type === 'input_audio') parts.push({ inline_data: { mime_type: `audio/${p.input_audio.format}`, data: p.input_audio.data } });
  }
  return parts;
}

/** Gemini's functionResponse needs the function name, which OpenAI's tool message does not repeat:
 *  it is looked up in the nearest earlier assistant tool call with that id. */
function toolName(messages: ChatMessage[], upTo: number, id: string | undefined): string {
  for (let i = upTo - 1; i >= 0; i--) {
    const call = messages[i]?.tool_calls?.find((c) => c.id === id);
    if (call) return call.function.name;
  }
  return id ?? 'tool';
}

function toolResponse(content: ChatMessage['content']): Record<string, unknown> {
  const text = contentText(content);
  const parsed = tryParse(text);
  // Gemini wants an object; other results go under "output", as its docs suggest.
  return isRecord(parsed) ? parsed : { output: parsed ?? text };
}

function toGeminiContents(messages: ChatMessage[]): GeminiContent[] {
  const out: GeminiContent[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'system' || m.role === 'developer') return;
    let role: GeminiContent['role'] = 'user';
    let parts: GeminiPart[];
    if (m.role === 'tool') parts = [{ functionResponse: { name: toolName(messages, i, m.tool_call_id), response: toolResponse(m.content) } }];
    else if (m.role === 'assistant') {
      role = 'model';
      parts = [...contentParts(m.content), ...(m.tool_calls ?? []).map((c) => ({ functionCall: { name: c.function.name, args: parseArguments(c.function.arguments) } }))];
    } else parts = contentParts(m.content);
    if (parts.length === 0) return;
    // Gemini wants user/model turns to alternate: same-role neighbours (parallel tool results) merge.
    const last = out.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  });
  return out;
}

/** Gemini's schema dialect rejects some JSON-Schema keywords that OpenAI tool schemas often carry. */
function cleanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanSchema);
  if (!isRecord(schema)) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$schema' && k !== 'additionalProperties').map(([k, v]) => [k, cleanSchema(v)]));
}

function toolConfig(choice: unknown): GeminiRequest['toolConfig'] {
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  const name = str(asRecord(asRecord(choice).function).name);
  return name ? { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } } : undefined;
}

function generationConfig(req: ChatRequest): Record<string, unknown> {
  const format = asRecord(req.response_format);
  const schema = asRecord(format.json_schema).schema;
  const config: Record<string, unknown> = {
    maxOutputTokens: req.max_completion_tokens ?? req.max_tokens,
    temperature: req.temperature,
    topP: req.top_p,
    stopSequences: typeof req.stop === 'string' ? [req.stop] : req.stop,
    candidateCount: req.n,
    seed: req.seed,
    presencePenalty: req.presence_penalty,
    frequencyPenalty: req.frequency_penalty,
    responseMimeType: format.type === 'json_object' || format.type === 'json_schema' ? 'application/json' : undefined,
    responseJsonSchema: schema,
    // An effort becomes a thinking budget, and the thoughts come back as reasoning_content.
    thinkingConfig: budgetOfEffort(req.reasoning_effort) ? { thinkingBudget: budgetOfEffort(req.reasoning_effort), includeThoughts: true } : undefined,
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
}

export function toGeminiRequest(req: ChatRequest): GeminiRequest {
  const body: GeminiRequest = { contents: toGeminiContents(req.messages) };
  const system = req.messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => contentText(m.content)).filter(Boolean);
  if (system.length) body.systemInstruction = { parts: system.map((text) => ({ text })) };
  const config = generationConfig(req);
  if (Object.keys(config).length) body.generationConfig = config;
  if (req.tools?.length) {
    body.tools = [{ functionDeclarations: req.tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters === undefined ? undefined : cleanSchema(t.function.parameters) })) }];
    const tc = toolConfig(req.tool_choice);
    if (tc) body.toolConfig = tc;
  }
  return body;
}

/** finishReason → finish_reason; a STOP that ended with function calls is OpenAI's tool_calls. */
export function geminiFinish(reason: string | undefined, hasCalls: boolean): string | null {
  if (!reason) return null;
  if (reason === 'MAX_TOKENS') return 'length';
  if (['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY'].includes(reason)) return 'content_filter';
  return hasCalls ? 'tool_calls' : 'stop';
}

/** Tokens of one modality in a `*TokensDetails` list ([{ modality: 'AUDIO', tokenCount }]). */
const modalityTokens = (details: unknown, modality: string) =>
  asArray(details).reduce<number>((sum, d) => sum + (asRecord(d).modality === modality ? num(asRecord(d).tokenCount) : 0), 0);

/**
 * usageMetadata → Usage. promptTokenCount includes the cached content; candidatesTokenCount excludes the
 * thoughts, which are billed as output: they count as completion, and as its reasoning share.
 */
export function geminiUsage(meta: unknown): Usage | undefined {
  if (!isRecord(meta)) return undefined;
  const thoughts = num(meta.thoughtsTokenCount);
  return usageOf(num(meta.promptTokenCount), num(meta.candidatesTokenCount) + thoughts, num(meta.totalTokenCount), {
    cached_tokens: num(meta.cachedContentTokenCount),
    reasoning_tokens: thoughts,
    audio_prompt: modalityTokens(meta.promptTokensDetails, 'AUDIO'),
    audio_completion: modalityTokens(meta.candidatesTokensDetails, 'AUDIO'),
  });
}

/** One candidate's parts → text, thoughts and tool calls. */
export function readParts(parts: unknown): { text: string; reasoning: string; calls: ToolCall[] } {
  let text = '';
  let reasoning = '';
  const calls: ToolCall[] = [];
  for (const p of asArray(parts).filter(isRecord)) {
    if (typeof p.text === 'string') {
      if (p.thought === true) reasoning += p.text;
      else text += p.text;
    } else if (isRecord(p.functionCall)) {
      const fc = p.functionCall;
      // Gemini ids are optional. Ours are random, like OpenAI's: a counter would give every turn the same
      // `call_0_0`, and clients that key tool results by id would mix turns up (toolName above needs
      // only uniqueness within the conversation).
      const id = str(fc.id) ?? randomId('call_');
      calls.push({ id, type: 'function', function: { name: str(fc.name) ?? '', arguments: JSON.stringify(fc.args ?? {}) } });
    }
  }
  return { text, reasoning, calls };
}

export function fromGeminiResponse(json: unknown, created = nowSeconds()): { body: ChatResponse; usage?: Usage } {
  if (!isRecord(json) || (json.candidates === undefined && json.promptFeedback === undefined)) throw new Error('upstream returned a body that is not a Gemini answer');
  const choices: ChatChoice[] = asArray(json.candidates)
    .filter(isRecord)
    .map((c, i) => {
      const index = typeof c.index === 'number' ? c.index : i;
      const { text, reasoning, calls } = readParts(asRecord(c.content).parts);
      const message: ChatChoice['message'] = { role: 'assistant', content: calls.length && !text ? null : text };
      if (calls.length) message.tool_calls = calls;
      if (reasoning) message.reasoning_content = reasoning;
      return { index, message, finish_reason: geminiFinish(str(c.finishReason), calls.length > 0) ?? 'stop' };
    });
  // A prompt blocked by safety filters has no candidates, only promptFeedback.blockReason.
  if (choices.length === 0) choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: 'content_filter' });
  const usage = geminiUsage(json.usageMetadata);
  // Gemini's responseId is unique per answer; without one, a random id (never the time: not unique).
  const body: ChatResponse = { id: str(json.responseId) ?? randomId('chatcmpl-'), object: 'chat.completion', created, model: str(json.modelVersion) ?? '', choices };
  if (usage) body.usage = toChatUsage(usage);
  return { body, usage };
}
