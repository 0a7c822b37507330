// OpenAI-shaped answers: chat (JSON and SSE), completions, embeddings, images, audio, moderations, models.
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { usageDetails, type Fault } from './faults';
import { sendJson, sleep, sseData, startSse } from './http';
import { answerFor, countTokens, embeddingFor, pieces } from './text';

interface ChatMessage {
  role: string;
  content: unknown;
}

/** All text of a message list, the way the mock counts prompt tokens. */
function messagesText(messages: ChatMessage[] | undefined): string {
  return (messages ?? [])
    .map((m) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? '').join('') : ''))
    .join('\n');
}

export function openaiError(res: ServerResponse, status: number, message: string, code?: string): void {
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, code: code ?? null, param: null } });
}

/** Writes chunks until done, or destroys the socket after `fail_after` chunks, or falls silent after `stall_after`. */
export async function streamPieces(res: ServerResponse, parts: string[], fault: Fault, write: (part: string, index: number) => void): Promise<boolean> {
  for (let i = 0; i < parts.length; i++) {
    if (fault.fail_after !== undefined && i >= fault.fail_after) {
      // Let what was written reach the client first, as a real upstream dying mid-answer would.
      await sleep(20);
      res.destroy();
      return false;
    }
    if (fault.stall_after !== undefined && i >= fault.stall_after) {
      // Silent but connected until the client gives up.
      await new Promise<void>((resolve) => res.once('close', () => resolve()));
      return false;
    }
    write(parts[i]!, i);
    if (fault.chunk_delay) await sleep(fault.chunk_delay);
  }
  return true;
}

/** The mock calls a tool when tools are given and the conversation ends with a user asking about the
 *  weather: a tool result (or anything else) as the last turn gets a text answer, so two-turn tests end. */
export const WEATHER = /\bweather\b/i;
/** The arguments of every mock tool call. */
export const TOOL_ARGUMENTS = '{"city":"Paris"}';
/** A fresh tool-call id, as real upstreams give (clients key tool results on it). */
export const randomHex = () => randomUUID().replace(/-/g, '');

/** Pieces of the tool arguments to stream (4 unless the fault says how many). */
export const argumentPieces = (fault: Fault) => pieces(TOOL_ARGUMENTS, fault.chunks ?? 4);

/** OpenAI's usage, with the details directives asked for (cache writes as OpenRouter reports them). */
function chatUsage(prompt: number, answer: number, fault: Fault) {
  const d = usageDetails(fault);
  const prompt_tokens = prompt + d.cached + d.write5m + d.write1h;
  const completion_tokens = answer + d.reasoning;
  const usage = { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
  if (!d.any) return usage;
  const written = d.write5m + d.write1h;
  return {
    ...usage,
    prompt_tokens_details: { cached_tokens: d.cached, audio_tokens: 0, ...(written ? { cache_write_tokens: written } : {}) },
    completion_tokens_details: { reasoning_tokens: d.reasoning, audio_tokens: 0 },
  };
}

export async function chatCompletion(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void> {
  const model = String(body.model ?? 'mock');
  const prompt = messagesText(body.messages);
  const answer = fault.reply ?? answerFor(model, prompt.split('\n').at(-1) ?? '');
  // A tool call is billed like the text it replaces.
  const usage = chatUsage(countTokens(prompt), countTokens(answer), fault);
  const id = `chatcmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  const last = Array.isArray(body.messages) ? (body.messages.at(-1) as ChatMessage | undefined) : undefined;
  const asked = Array.isArray(body.tools) && body.tools.length > 0 && last?.role === 'user' && WEATHER.test(messagesText([last]));
  const call = asked ? { id: `call_${randomHex()}`, name: String(body.tools[0].function?.name ?? 'tool') } : undefined;
  if (!body.stream) {
    const message = call
      ? { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: TOOL_ARGUMENTS } }] }
      : { role: 'assistant', content: answer };
    sendJson(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: call ? 'tool_calls' : 'stop' }], ...(fault.no_usage ? {} : { usage }) });
    return;
  }
  startSse(res);
  const base = { id, object: 'chat.completion.chunk', created, model };
  const delta = (d: Record<string, unknown>) => sseData(res, { ...base, choices: [{ index: 0, delta: d, finish_reason: null }] });
  let done: boolean;
  if (call) {
    // Like OpenAI: the first chunk names the call with empty arguments, then the arguments in pieces.
    delta({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    done = await streamPieces(res, argumentPieces(fault), fault, (part) => delta({ tool_calls: [{ index: 0, function: { arguments: part } }] }));
  } else {
    delta({ role: 'assistant', content: '' });
    done = await streamPieces(res, pieces(answer, fault.chunks), fault, (part) => delta({ content: part }));
  }
  if (!done) return;
  sseData(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: call ? 'tool_calls' : 'stop' }] });
  if (body.stream_options?.include_usage && !fault.no_usage) sseData(res, { ...base, choices: [], usage });
  sseData(res, '[DONE]');
  res.end();
}

export async function completion(res: ServerResponse, body: Record<string, any>, fault: Fault): Promise<void> {
  const model = String(body.model ?? 'mock');
  const prompt = Array.isArray(body.prompt) ? body.prompt.join('\n') : String(body.prompt ?? '');
  const text = answerFor(model, prompt);
  const usage = { prompt_tokens: countTokens(prompt), completion_tokens: countTokens(text), total_tokens: countTokens(prompt) + countTokens(text) };
  const id = `cmpl-${randomUUID()}`;
  const created = Math.floor(Date.now() / 1000);
  if (!body.stream) {
    sendJson(res, 200, { id, object: 'text_completion', created, model, choices: [{ index: 0, text, finish_reason: 'stop', logprobs: null }], ...(fault.no_usage ? {} : { usage }) });
    return;
  }
  startSse(res);
  const done = await streamPieces(res, pieces(text, fault.chunks), fault, (part) => sseData(res, { id, object: 'text_completion', created, model, choices: [{ index: 0, text: part, finish_reason: null, logprobs: null }] }));
  if (!done) return;
  sseData(res, { id, object: 'text_completion', created, model, choices: [{ index: 0, text: '', finish_reason: 'stop', logprobs: null }], ...(body.stream_options?.include_usage ? { usage } : {}) });
  sseData(res, '[DONE]');
  res.end();
}

export function embeddings(res: ServerResponse, body: Record<string, any>): void {
  const inputs: string[] = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
  const dims = Number(body.dimensions) > 0 ? Number(body.dimensions) : 8;
  const prompt = inputs.reduce((n, s) => n + countTokens(s), 0);
  sendJson(res, 200, {
    object: 'list',
    model: body.model,
    data: inputs.map((s, index) => {
      const v = embeddingFor(s, dims);
      // The official SDKs ask for base64 (little-endian float32) by default.
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(v).buffer).toString('base64') : v;
      return { object: 'embedding', index, embedding };
    }),
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  });
}

export function images(res: ServerResponse, body: Record<string, any>): void {
  const n = Math.min(Math.max(Number(body.n) || 1, 1), 10);
  const b64 = body.response_format === 'b64_json';
  // A 1×1 PNG.
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  sendJson(res, 200, {
    created: Math.floor(Date.now() / 1000),
    data: Array.from({ length: n }, (_, i) => (b64 ? { b64_json: png, revised_prompt: body.prompt } : { url: `https://mock.invalid/image-${i}.png`, revised_prompt: body.prompt })),
  });
}

export function speech(res: ServerResponse, body: Record<string, any>): void {
  // Not real audio: a fixed ID3-tagged byte string whose length follows the input, enough for clients.
  const bytes = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(Math.min(String(body.input ?? '').length * 16, 1 << 20), 1)]);
  res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': bytes.length });
  res.end(bytes);
}

export function transcription(res: ServerResponse, size: number): void {
  sendJson(res, 200, { text: `Mock transcription of ${size} bytes.` });
}

const MODERATION_CATEGORIES = ['harassment', 'harassment/threatening', 'hate', 'hate/threatening', 'illicit', 'illicit/violent', 'self-harm', 'self-harm/intent', 'self-harm/instructions', 'sexual', 'sexual/minors', 'violence', 'violence/graphic'];

export function moderation(res: ServerResponse, body: Record<string, any>): void {
  const inputs: string[] = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
  sendJson(res, 200, {
    id: `modr-${randomUUID()}`,
    model: body.model ?? 'omni-moderation-latest',
    results: inputs.map((s) => {
      const flagged = /\bkill\b/i.test(s);
      // Every category OpenAI reports, violence the only one the mock ever flags.
      const categories = Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, c === 'violence' && flagged]));
      const category_scores = Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, c === 'violence' && flagged ? 0.9 : 0.01]));
      const category_applied_input_types = Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, ['text']]));
      return { flagged, categories, category_scores, category_applied_input_types };
    }),
  });
}

export function models(res: ServerResponse, ids: string[]): void {
  sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'mock' })) });
}
