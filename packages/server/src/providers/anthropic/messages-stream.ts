// OpenAI chunks → Anthropic Messages SSE events, for an Anthropic-format client on `/v1/messages`
// whose model is served by a non-Anthropic upstream. The gateway feeds every chunk in order, then calls
// finishAnthropicEvents once at upstream EOF: OpenAI sends usage *after* finish_reason, and Anthropic
// wants it in message_delta, so message_delta/message_stop can only be written at the very end.
import type { ChatChunk, Usage } from '../types';
import { stopReason, toAnthropicUsage } from './messages';

export interface AnthropicSseEvent {
  event: string;
  data: Record<string, unknown>;
}

type OpenBlock = { kind: 'text' | 'thinking' } | { kind: 'tool'; toolIndex: number };

export interface MessagesSseState {
  id: string;
  model: string;
  started: boolean;
  finished: boolean;
  /** Index the next content block gets. */
  nextBlock: number;
  open: (OpenBlock & { index: number }) | null;
  /** OpenAI tool_calls index → Anthropic block index. */
  toolBlocks: Map<number, number>;
  finishReason: string | null;
  usage: Usage | null;
  /** Input tokens for message_start when no chunk before it carried usage (the gateway's count). */
  inputTokens: number;
}

export function newMessagesSseState(model: string): MessagesSseState {
  return { id: '', model, started: false, finished: false, nextBlock: 0, open: null, toolBlocks: new Map(), finishReason: null, usage: null, inputTokens: 0 };
}

function start(state: MessagesSseState, id: string, out: AnthropicSseEvent[]): void {
  if (state.started) return;
  state.started = true;
  state.id = id.startsWith('msg_') ? id : `msg_${id.replace(/^chatcmpl-/, '') || 'gateway'}`;
  // Anthropic clients read input_tokens here (LangChain only here); output is counted in message_delta.
  const known = state.usage?.prompt_tokens ? toAnthropicUsage(state.usage) : undefined;
  const usage = known ? { ...known, output_tokens: 0 } : { input_tokens: state.inputTokens, output_tokens: 0 };
  const message = { id: state.id, type: 'message', role: 'assistant', model: state.model, content: [], stop_reason: null, stop_sequence: null, usage };
  out.push({ event: 'message_start', data: { type: 'message_start', message } });
}

function close(state: MessagesSseState, out: AnthropicSseEvent[]): void {
  if (!state.open) return;
  out.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index: state.open.index } });
  state.open = null;
}

function open(state: MessagesSseState, block: OpenBlock, contentBlock: Record<string, unknown>, out: AnthropicSseEvent[]): number {
  close(state, out);
  const index = state.nextBlock++;
  state.open = { ...block, index };
  out.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: contentBlock } });
  return index;
}

function delta(index: number, d: Record<string, unknown>): AnthropicSseEvent {
  return { event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } };
}

/** `known`: the (canonical) usage the upstream reported so far. */
export function chunkToAnthropicEvents(chunk: ChatChunk, state: MessagesSseState, known?: Usage): AnthropicSseEvent[] {
  const out: AnthropicSseEvent[] = [];
  if (state.finished) return out;
  if (known) state.usage = known;
  start(state, chunk.id ?? '', out);
  // Anthropic messages have one answer: only choice 0 is carried.
  const choice = chunk.choices?.find((c) => c.index === 0);
  if (!choice) return out;
  const d = choice.delta ?? {};
  if (d.reasoning_content) {
    const index = state.open?.kind === 'thinking' ? state.open.index : open(state, { kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' }, out);
    out.push(delta(index, { type: 'thinking_delta', thinking: d.reasoning_content }));
  }
  if (d.content) {
    const index = state.open?.kind === 'text' ? state.open.index : open(state, { kind: 'text' }, { type: 'text', text: '' }, out);
    out.push(delta(index, { type: 'text_delta', text: d.content }));
  }
  for (const tc of d.tool_calls ?? []) {
    let index = state.toolBlocks.get(tc.index);
    if (index === undefined) {
      index = open(state, { kind: 'tool', toolIndex: tc.index }, { type: 'tool_use', id: tc.id ?? `toolu_${tc.index}`, name: tc.function?.name ?? '', input: {} }, out);
      state.toolBlocks.set(tc.index, index);
    }
    if (tc.function?.arguments) out.push(delta(index, { type: 'input_json_delta', partial_json: tc.function.arguments }));
  }
  if (choice.finish_reason) {
    close(state, out);
    state.finishReason = choice.finish_reason;
  }
  return out;
}

/** Closes the message: last open block, message_delta (stop reason and usage), message_stop. */
export function finishAnthropicEvents(state: MessagesSseState): AnthropicSseEvent[] {
  const out: AnthropicSseEvent[] = [];
  if (state.finished) return out;
  start(state, '', out);
  close(state, out);
  state.finished = true;
  out.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stopReason(state.finishReason), stop_sequence: null }, usage: toAnthropicUsage(state.usage) } });
  out.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return out;
}
