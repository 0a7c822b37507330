// OpenAI chat: the gateway's own format, so the request is mostly passed through. What changes is
// what the upstream needs (docs/ORIGINAL-GATEWAY.md §1.8): the real model id, usage in streams, and the
// parameter renames of the reasoning models.
import { asRecord, isRecord, num, tryParse } from '../shape';
import type { ChatAdapter, ChatChunk, ChatRequest, ChatResponse, StreamStep, Usage } from '../types';
import { openaiChatUrl, openaiHeaders } from './api';
import { mapOpenAIError } from './error';
import { usageOf } from '../usage';

/** o1/o3/o4/gpt-5 reject `max_tokens` and want `max_completion_tokens`. */
const COMPLETION_TOKENS_MODELS = /^(?:[\w.-]+\/)?(?:o\d|gpt-5)/i;
/** o1 and o3 take instructions as `developer`, not `system`. */
const DEVELOPER_ROLE_MODELS = /^(?:[\w.-]+\/)?o[13](?:$|-)/i;

/**
 * The body sent to an OpenAI-protocol upstream (Azure reuses it). `request` is never changed; it comes
 * back as it is when nothing needs to change (the gateway's own copy, model set, on a plain non-stream
 * call): one more copy of a client's body cost ~4 µs a call (docs/BENCHMARKS.md, eleventh pass).
 */
export function toOpenAIBody(model: string, request: ChatRequest): ChatRequest {
  // Without stream_options, OpenAI streams carry no usage and the gateway would have to count tokens
  // itself; to stream_options on a non-stream call OpenAI answers 400.
  const streaming = Boolean(request.stream);
  const renames = COMPLETION_TOKENS_MODELS.test(model) && request.max_tokens !== undefined;
  const developer = DEVELOPER_ROLE_MODELS.test(model);
  const asIs = request.model === model && (streaming ? request.stream_options !== undefined : !('stream_options' in request));
  if (asIs && !renames && !developer) return request;
  const body: ChatRequest = { ...request, model };
  if (!streaming) delete body.stream_options;
  else if (body.stream_options === undefined) body.stream_options = { include_usage: true };
  if (renames) {
    body.max_completion_tokens ??= body.max_tokens;
    delete body.max_tokens;
  }
  if (developer) {
    body.messages = body.messages.map((m) => (m.role === 'system' ? { ...m, role: 'developer' } : m));
  }
  return body;
}

/**
 * OpenAI usage (also found on compatible hosts) → the gateway's Usage: cache reads (DeepSeek says
 * prompt_cache_hit_tokens), cache writes (OpenRouter's prompt_tokens_details.cache_write_tokens, or
 * Anthropic's own field on hosts that relay Claude), reasoning and audio tokens.
 */
export function openaiUsage(u: unknown): Usage | undefined {
  if (!isRecord(u)) return undefined;
  const input = asRecord(u.prompt_tokens_details);
  const output = asRecord(u.completion_tokens_details);
  return usageOf(num(u.prompt_tokens), num(u.completion_tokens), num(u.total_tokens), {
    cached_tokens: num(input.cached_tokens) || num(u.prompt_cache_hit_tokens),
    cache_write_tokens: num(input.cache_write_tokens) || num(u.cache_creation_input_tokens),
    reasoning_tokens: num(output.reasoning_tokens),
    audio_prompt: num(input.audio_tokens),
    audio_completion: num(output.audio_tokens),
  });
}

export function parseOpenAIResponse(json: unknown): { body: ChatResponse; usage?: Usage } {
  if (!isRecord(json) || !Array.isArray(json.choices)) throw new Error('upstream returned a body that is not a chat completion');
  return { body: json as ChatResponse, usage: openaiUsage(json.usage) };
}

/** One `data:` event of an OpenAI stream: a chunk, `[DONE]`, or (compatible hosts) an error object. */
function parseOpenAIStreamEvent(data: string): StreamStep {
  const text = data.trim();
  if (text === '[DONE]') return { chunks: [], done: true };
  const json = tryParse(text);
  if (!isRecord(json)) return { chunks: [] };
  if (json.error !== undefined && json.choices === undefined) {
    // Some hosts report failures inside the stream with an HTTP 200 already sent.
    const code = num(asRecord(json.error).code);
    return { chunks: [], error: mapOpenAIError(code >= 400 && code < 600 ? code : 500, text) };
  }
  if (!Array.isArray(json.choices)) return { chunks: [] };
  const step: StreamStep = { chunks: [json as ChatChunk] };
  const usage = openaiUsage(json.usage);
  if (usage) step.usage = usage;
  return step;
}

/** OpenAI streams are stateless chunk by chunk. */
export type OpenAIStreamState = Record<string, never>;

export const openaiChat: ChatAdapter<OpenAIStreamState> = {
  buildRequest(target, request) {
    return {
      url: openaiChatUrl(target),
      headers: openaiHeaders(target.key),
      body: JSON.stringify(toOpenAIBody(target.model, request)),
    };
  },
  parseResponse: parseOpenAIResponse,
  newStreamState: () => ({}),
  parseStreamEvent: (event) => parseOpenAIStreamEvent(event.data),
};
