// The contract between the gateway pipeline and the provider adapters: adapters are pure
// transforms — no I/O, no retries, no billing, no config reads. The gateway owns everything else.
// The gateway speaks OpenAI chat internally: every adapter converts to and from it.

/**
 * The canonical usage every adapter reads its provider's into (OpenAI's totals: prompt_tokens counts every
 * input token, cache reads and writes included; completion_tokens every output token, reasoning included).
 * The details are parts of those totals, present when the provider says so.
 */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Of prompt_tokens: read from the provider's cache. */
  cached_tokens?: number;
  /** Of prompt_tokens: written to the provider's cache (Anthropic cache_creation_input_tokens, Responses cache_write_tokens). */
  cache_write_tokens?: number;
  /** Of cache_write_tokens: those kept one hour (Anthropic's ephemeral_1h); the rest are 5-minute writes. */
  cache_write_1h_tokens?: number;
  /** Of completion_tokens: reasoning (thinking) tokens. */
  reasoning_tokens?: number;
  /** Of the totals: audio tokens (OpenAI's *_tokens_details.audio_tokens). */
  audio?: { prompt_tokens: number; completion_tokens: number };
  /** Server-side web searches the provider ran (Anthropic server_tool_use.web_search_requests). */
  search_calls?: number;
}

/** Usage as OpenAI chat writes it, in answers and chunks (usage.ts `toChatUsage` builds it). */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number; audio_tokens?: number; [extra: string]: unknown };
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number; [extra: string]: unknown };
  [extra: string]: unknown;
}

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } };

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

/** The OpenAI chat request; unknown fields pass through to OpenAI-family upstreams untouched. */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  n?: number;
  stop?: string | string[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  user?: string;
  [extra: string]: unknown;
}

export interface ChatChoice {
  index: number;
  /** `refusal` and `logprobs` are required (nullable) by OpenAI's schema; the OpenAI writer fills them. */
  message: { role: 'assistant'; content: string | null; refusal?: string | null; tool_calls?: ToolCall[]; reasoning_content?: string };
  finish_reason: string | null;
  logprobs?: unknown;
}

export interface ChatResponse {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: ChatChoice[];
  usage?: ChatUsage;
  [extra: string]: unknown;
}

export interface ChatChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: 'assistant'; content?: string | null; tool_calls?: (Partial<ToolCall> & { index: number })[]; reasoning_content?: string };
    finish_reason: string | null;
    logprobs?: unknown;
  }[];
  usage?: ChatUsage | null;
  [extra: string]: unknown;
}

/** Where one upstream attempt goes: from the model agent (or the model's own base_url) and a key. */
export interface UpstreamTarget {
  /** e.g. https://api.openai.com — without a trailing slash. */
  baseUrl: string;
  /** The agent's path override ('' = the family's default path for the endpoint). */
  path: string;
  /** The provider key in plain text (never logged). */
  key: string;
  /** The upstream model id after forwarding and replacement. */
  model: string;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One parsed server-sent event (framing is parsed once in the gateway with eventsource-parser). */
export interface StreamEvent {
  event?: string;
  data: string;
}

export interface StreamStep {
  chunks: ChatChunk[];
  /** Usage seen in this event; later values overwrite earlier ones field by field. */
  usage?: Usage;
  /** The upstream signalled the end of the answer. */
  done?: boolean;
  /** The upstream reported a failure inside the stream (Anthropic `error` event, an OpenAI-compatible
   *  host's `{"error": …}` chunk): the gateway ends the stream with it instead of waiting for EOF. */
  error?: UpstreamError;
}

/** An upstream failure in OpenAI's error shape, with what the gateway needs to decide retry/disable. */
export interface UpstreamError {
  status: number;
  message: string;
  type: string;
  code: string | null;
  /** How long the upstream asked to wait (its retry-after / rate-limit reset headers; gateway/retry-after.ts). */
  retryAfterMs?: number;
}

export interface ChatAdapter<State> {
  buildRequest(target: UpstreamTarget, request: ChatRequest): UpstreamRequest;
  /** `json` is the upstream's parsed body; the response's `model` is set by the gateway afterwards. */
  parseResponse(json: unknown): { body: ChatResponse; usage?: Usage };
  newStreamState(): State;
  parseStreamEvent(event: StreamEvent, state: State): StreamStep;
}

/** OpenAI endpoints other than chat, passed through with the model replaced (OpenAI-family only). */
export type PassthroughEndpoint = 'completions' | 'embeddings' | 'images/generations' | 'audio/speech' | 'audio/transcriptions' | 'moderations'
  | 'rerank' | 'images/edits' | 'audio/translations';

/** Where a provider's async task stands (digital human, audio clone, video second creation). */
export interface UpstreamTaskState {
  status: 'queued' | 'processing' | 'succeeded' | 'failed';
  audio_url: string;
  video_url: string;
  cover_url: string;
  /** Seconds of media produced; 0 when the provider does not say. */
  duration: number;
  /** The provider's reason, when it failed. */
  error: string;
}

/** A provider's task API: submit returns the provider's task id, polls read its state. */
export interface TaskAdapter {
  submit(target: UpstreamTarget, kind: string, input: Record<string, unknown>): UpstreamRequest;
  /** The provider's id of the task just submitted; undefined when the answer has none. */
  parseSubmitted(json: unknown): string | undefined;
  /** A GET request (its body is empty). */
  poll(target: UpstreamTarget, upstreamId: string): UpstreamRequest;
  /** undefined when the answer is not a task state. */
  parseState(json: unknown): UpstreamTaskState | undefined;
}

export interface ProviderAdapter {
  chat: ChatAdapter<any>;
  /** Async tasks, for the families whose hosts have them. */
  tasks?: TaskAdapter;
  /** Request for a non-chat OpenAI endpoint, or undefined when the family has none. */
  passthrough?(target: UpstreamTarget, endpoint: PassthroughEndpoint, contentType: string): { url: string; headers: Record<string, string> };
  /** The upstream's error body (any shape) → an OpenAI-shaped error. */
  mapError(status: number, bodyText: string): UpstreamError;
}
