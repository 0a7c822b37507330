// OpenAI's Responses API on the wire: the parts the gateway reads and writes. Shapes follow OpenAI's
// OpenAPI description (CreateResponse, Response, ResponseStreamEvent); fields the gateway never reads
// are left to `[extra: string]: unknown` and pass through on native routes.

export interface ResponsesUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export type InputContent =
  | { type: 'input_text'; text: string }
  | { type: 'output_text'; text: string; annotations?: unknown[] }
  | { type: 'refusal'; refusal: string }
  | { type: 'input_image'; image_url?: string | null; file_id?: string | null; detail?: 'low' | 'high' | 'auto' }
  | { type: 'input_file'; file_data?: string; file_id?: string; file_url?: string; filename?: string };

interface MessageItem {
  type?: 'message';
  id?: string;
  role: 'user' | 'assistant' | 'system' | 'developer';
  content: string | InputContent[];
  status?: string;
}

export interface FunctionCallItem {
  type: 'function_call';
  id?: string;
  call_id: string;
  name: string;
  /** The namespace tool the function belongs to. */
  namespace?: string;
  arguments: string;
  status?: string;
}

/** A call of a freeform (`custom`) tool: raw text input instead of JSON arguments. */
export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id?: string;
  call_id: string;
  name: string;
  namespace?: string;
  input: string;
  status?: string;
}

interface FunctionCallOutputItem {
  type: 'function_call_output' | 'custom_tool_call_output';
  id?: string;
  call_id: string;
  output: string | InputContent[];
  status?: string;
}

export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: { type: 'summary_text'; text: string }[];
  encrypted_content?: string | null;
  status?: string;
}

/** An input item. `item_reference` and the built-in tools' items are refused before conversion. */
export type InputItem = MessageItem | FunctionCallItem | CustomToolCallItem | FunctionCallOutputItem | ReasoningItem;

export interface FunctionTool {
  type: 'function';
  name: string;
  description?: string | null;
  parameters?: unknown;
  strict?: boolean | null;
}

export interface TextFormat {
  type: 'text' | 'json_object' | 'json_schema';
  name?: string;
  schema?: unknown;
  description?: string;
  strict?: boolean | null;
}

/** POST /v1/responses. */
export interface ResponsesRequest {
  model: string;
  input?: string | InputItem[];
  instructions?: string | null;
  tools?: (FunctionTool | { type: string; [extra: string]: unknown })[];
  tool_choice?: 'none' | 'auto' | 'required' | { type: string; name?: string; [extra: string]: unknown };
  text?: { format?: TextFormat; verbosity?: string };
  reasoning?: { effort?: string | null; summary?: string | null } | null;
  max_output_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  parallel_tool_calls?: boolean | null;
  store?: boolean | null;
  stream?: boolean | null;
  previous_response_id?: string | null;
  metadata?: Record<string, string> | null;
  user?: string;
  [extra: string]: unknown;
}

type OutputContent = { type: 'output_text'; text: string; annotations: unknown[]; logprobs?: unknown[] } | { type: 'refusal'; refusal: string };

export interface OutputMessage {
  type: 'message';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: OutputContent[];
}

export type OutputItem = OutputMessage | (FunctionCallItem & { id: string; status: string }) | (CustomToolCallItem & { id: string; status: string }) | ReasoningItem;

/** The Response object: what create answers, GET returns and the stream's lifecycle events carry. */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'completed' | 'failed' | 'in_progress' | 'incomplete' | 'cancelled' | 'queued';
  error: { code: string; message: string } | null;
  incomplete_details: { reason: string } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  model: string;
  output: OutputItem[];
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  temperature: number | null;
  text: { format: TextFormat };
  tool_choice: unknown;
  tools: unknown[];
  top_p: number | null;
  truncation: 'auto' | 'disabled';
  usage: ResponsesUsage | null;
  user: string | null;
  metadata: Record<string, string>;
  [extra: string]: unknown;
}

/** One server-sent event of a streamed response: its `type` is also the SSE event name. */
export interface ResponsesEvent {
  type: string;
  sequence_number?: number;
  [field: string]: unknown;
}
