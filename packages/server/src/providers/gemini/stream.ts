// Gemini `streamGenerateContent?alt=sse` → OpenAI chunks. Each event is a whole GenerateContentResponse
// holding the next piece of each candidate; usageMetadata is cumulative. The state keeps the id, the role
// announcement and the tool-call numbering per candidate across events.
import { asArray, asRecord, isRecord, nowSeconds, randomId, str, tryParse } from '../shape';
import type { ChatChunk, StreamEvent, StreamStep } from '../types';
import { mapGeminiError } from './api';
import { geminiFinish, geminiUsage, readParts } from './chat';
import { toChatUsage } from '../usage';

export interface GeminiStreamState {
  id: string;
  created: number;
  model: string;
  /** Candidates whose first chunk (carrying role) was sent. */
  started: Set<number>;
  /** Tool calls sent so far per candidate: the next call's OpenAI index. */
  calls: Map<number, number>;
}

export function newGeminiStreamState(created = nowSeconds()): GeminiStreamState {
  return { id: '', created, model: '', started: new Set(), calls: new Map() };
}

export function parseGeminiStreamEvent(event: StreamEvent, state: GeminiStreamState): StreamStep {
  const json = tryParse(event.data);
  if (!isRecord(json)) return { chunks: [] };
  if (isRecord(json.error)) {
    const status = typeof json.error.code === 'number' ? json.error.code : 500;
    return { chunks: [], error: mapGeminiError(status, event.data) };
  }
  // One id for the whole stream: Gemini's responseId, else a random one (chat.ts says why).
  state.id ||= str(json.responseId) ?? randomId('chatcmpl-');
  state.model = str(json.modelVersion) ?? state.model;
  const base = { id: state.id, object: 'chat.completion.chunk' as const, created: state.created, model: state.model };
  const chunks: ChatChunk[] = [];
  const candidates = asArray(json.candidates).filter(isRecord);
  let finished = candidates.length > 0;
  candidates.forEach((c, i) => {
    const index = typeof c.index === 'number' ? c.index : i;
    const first = state.calls.get(index) ?? 0;
    const { text, reasoning, calls } = readParts(asRecord(c.content).parts);
    state.calls.set(index, first + calls.length);
    const delta: ChatChunk['choices'][number]['delta'] = {};
    if (!state.started.has(index)) {
      state.started.add(index);
      delta.role = 'assistant';
    }
    if (text) delta.content = text;
    if (reasoning) delta.reasoning_content = reasoning;
    // Gemini sends each call whole, so one delta carries id, name and all arguments.
    if (calls.length) delta.tool_calls = calls.map((call, k) => ({ index: first + k, ...call }));
    const finish = geminiFinish(str(c.finishReason), first + calls.length > 0);
    if (!finish) finished = false;
    if (Object.keys(delta).length || finish) chunks.push({ ...base, choices: [{ index, delta, finish_reason: finish }] });
  });
  if (candidates.length === 0 && str(asRecord(json.promptFeedback).blockReason)) {
    // The prompt itself was blocked: no candidate will ever come.
    chunks.push({ ...base, choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: 'content_filter' }] });
    finished = true;
  }
  const usage = geminiUsage(json.usageMetadata);
  // Like OpenAI's include_usage, end with a usage-only chunk so clients see the usage.
  if (finished && usage) chunks.push({ ...base, choices: [], usage: toChatUsage(usage) });
  const step: StreamStep = { chunks };
  if (usage) step.usage = usage;
  if (finished) step.done = true;
  return step;
}
