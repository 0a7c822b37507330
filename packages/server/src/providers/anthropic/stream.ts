// Anthropic Messages SSE → OpenAI chunks. The Messages stream is stateful (ids and usage come first,
// tool calls are identified by block index), so everything the conversion remembers lives in an explicit
// per-stream state object — never in module variables.
import { asRecord, isRecord, nowSeconds, num, str, tryParse } from '../shape';
import type { ChatChunk, StreamEvent, StreamStep, ToolCall, Usage } from '../types';
import { statusOfErrorType } from './api';
import { anthropicUsage, finishReason, OUTPUT_TOOL } from './chat';
import type { AnthropicUsage } from './wire';
import { toChatUsage } from '../usage';

export interface AnthropicStreamState {
  id: string;
  model: string;
  created: number;
  /** Usage so far: message_start has the input side, message_delta the (cumulative) output side. */
  usage: AnthropicUsage;
  /** Content block index → OpenAI tool_calls index, for blocks that are tool_use. */
  toolIndex: Map<number, number>;
  /** Content block indexes of the response_format output tool (chat.ts): their input is the content. */
  outputBlocks: Set<number>;
}

export function newAnthropicStreamState(created = nowSeconds()): AnthropicStreamState {
  return { id: '', model: '', created, usage: {}, toolIndex: new Map(), outputBlocks: new Set() };
}

/** Later usage fields overwrite earlier ones; absent or null fields keep what was seen. */
export function mergeAnthropicUsage(into: AnthropicUsage, u: unknown): boolean {
  if (!isRecord(u)) return false;
  let changed = false;
  for (const k of ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const) {
    if (typeof u[k] === 'number') {
      into[k] = u[k];
      changed = true;
    }
  }
  for (const k of ['cache_creation', 'server_tool_use'] as const) {
    if (isRecord(u[k])) {
      into[k] = { ...into[k], ...u[k] };
      changed = true;
    }
  }
  return changed;
}

function chunk(state: AnthropicStreamState, delta: ChatChunk['choices'][number]['delta'], finish: string | null = null): ChatChunk {
  return { id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

function usageChunk(state: AnthropicStreamState, usage: Usage): ChatChunk {
  return { id: state.id, object: 'chat.completion.chunk', created: state.created, model: state.model, choices: [], usage: toChatUsage(usage) };
}

function blockStart(state: AnthropicStreamState, index: number, block: Record<string, unknown>): ChatChunk[] {
  if (block.type !== 'tool_use') return [];
  if (block.name === OUTPUT_TOOL) {
    state.outputBlocks.add(index);
    return [];
  }
  const toolIndex = state.toolIndex.size;
  state.toolIndex.set(index, toolIndex);
  return [chunk(state, { tool_calls: [{ index: toolIndex, id: str(block.id) ?? '', type: 'function', function: { name: str(block.name) ?? '', arguments: '' } }] })];
}

function blockDelta(state: AnthropicStreamState, index: number, delta: Record<string, unknown>): ChatChunk[] {
  switch (delta.type) {
    case 'text_delta':
      return [chunk(state, { content: str(delta.text) ?? '' })];
    case 'thinking_delta':
      return [chunk(state, { reasoning_content: str(delta.thinking) ?? '' })];
    case 'input_json_delta': {
      if (state.outputBlocks.has(index)) return [chunk(state, { content: str(delta.partial_json) ?? '' })];
      const toolIndex = state.toolIndex.get(index);
      if (toolIndex === undefined) return [];
      // OpenAI sends the name only in a call's first delta; the contract types it as always present.
      const fn = { arguments: str(delta.partial_json) ?? '' } as ToolCall['function'];
      return [chunk(state, { tool_calls: [{ index: toolIndex, function: fn }] })];
    }
    default:
      // signature_delta and future delta types carry nothing an OpenAI client can use.
      return [];
  }
}

export function parseAnthropicStreamEvent(event: StreamEvent, state: AnthropicStreamState): StreamStep {
  const json = asRecord(tryParse(event.data));
  const type = str(json.type) ?? event.event;
  switch (type) {
    case 'message_start': {
      const msg = asRecord(json.message);
      state.id = str(msg.id) ?? state.id;
      state.model = str(msg.model) ?? state.model;
      mergeAnthropicUsage(state.usage, msg.usage);
      return { chunks: [chunk(state, { role: 'assistant', content: '' })], usage: anthropicUsage(state.usage) };
    }
    case 'content_block_start':
      return { chunks: blockStart(state, num(json.index), asRecord(json.content_block)) };
    case 'content_block_delta':
      return { chunks: blockDelta(state, num(json.index), asRecord(json.delta)) };
    case 'message_delta': {
      const changed = mergeAnthropicUsage(state.usage, json.usage);
      const stop = str(asRecord(json.delta).stop_reason);
      const answered = state.outputBlocks.size > 0 && state.toolIndex.size === 0;
      const step: StreamStep = { chunks: stop ? [chunk(state, {}, finishReason(stop, answered))] : [] };
      if (changed) step.usage = anthropicUsage(state.usage);
      return step;
    }
    case 'message_stop': {
      // OpenAI streams end with a usage-only chunk (include_usage); emit the same so clients see usage.
      const usage = anthropicUsage(state.usage);
      return { chunks: [usageChunk(state, usage)], usage, done: true };
    }
    case 'error': {
      const err = asRecord(json.error);
      const errType = str(err.type) ?? 'api_error';
      return { chunks: [], error: { status: statusOfErrorType(errType), message: str(err.message) ?? 'upstream stream error', type: errType, code: null } };
    }
    default:
      // ping, content_block_stop and unknown future events produce nothing.
      return { chunks: [] };
  }
}
