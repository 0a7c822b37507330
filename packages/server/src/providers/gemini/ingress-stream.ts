// OpenAI chat chunks → Gemini `streamGenerateContent?alt=sse` events, for Gemini clients of other
// families' models. Text and thoughts go out as they come; function calls are sent whole (Gemini never
// streams a call's arguments), so their pieces are gathered per candidate and sent in the last event,
// with every candidate's finishReason and the billed usageMetadata.
import type { ChatChunk, Usage } from '../types';
import { functionCallPart, toGeminiFinish, toUsageMetadata, type GeminiOutPart } from './ingress';

interface Gathering {
  id: string;
  name: string;
  arguments: string;
}

export interface GeminiSseState {
  model: string;
  responseId: string;
  thoughts: boolean;
  /** Candidates seen, with their finish_reason once it came (null until then). */
  finish: Map<number, string | null>;
  /** Tool calls being gathered, per candidate, by OpenAI's call index. */
  calls: Map<number, Map<number, Gathering>>;
}

export function newGeminiSseState(model: string, thoughts: boolean): GeminiSseState {
  return { model, responseId: '', thoughts, finish: new Map(), calls: new Map() };
}

const event = (state: GeminiSseState, candidates: unknown[]) => ({ candidates, modelVersion: state.model, responseId: state.responseId });

/** The events one chunk gives now: at most one, with a candidate per choice that has text or thoughts. */
export function chunkToGeminiEvents(chunk: ChatChunk, state: GeminiSseState): object[] {
  state.responseId ||= chunk.id;
  const candidates: unknown[] = [];
  for (const choice of chunk.choices) {
    const index = choice.index;
    if (!state.finish.has(index)) state.finish.set(index, null);
    if (choice.finish_reason) state.finish.set(index, choice.finish_reason);
    const d = choice.delta;
    for (const t of d.tool_calls ?? []) {
      const calls = state.calls.get(index) ?? new Map<number, Gathering>();
      state.calls.set(index, calls);
      const call = calls.get(t.index) ?? { id: '', name: '', arguments: '' };
      calls.set(t.index, call);
      call.id ||= t.id ?? '';
      call.name ||= t.function?.name ?? '';
      call.arguments += t.function?.arguments ?? '';
    }
    const parts: GeminiOutPart[] = [];
    if (state.thoughts && d.reasoning_content) parts.push({ text: d.reasoning_content, thought: true });
    if (d.content) parts.push({ text: d.content });
    if (parts.length) candidates.push({ content: { role: 'model', parts }, index });
  }
  return candidates.length ? [event(state, candidates)] : [];
}

/** The last event: the gathered function calls, each candidate's finishReason and the usage billed. */
export function finishGeminiEvent(state: GeminiSseState, billed: Usage): object {
  if (state.finish.size === 0) state.finish.set(0, 'stop');
  const candidates = [...state.finish.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, reason]) => {
      const calls = [...(state.calls.get(index)?.entries() ?? [])].sort(([a], [b]) => a - b).map(([, c]) => c);
      // A call id the upstream left out: one per stream, numbered like geminiToChatMessages' own.
      const parts = calls.map((c, n) => functionCallPart({ ...c, id: c.id || `call_${state.responseId}_${index}_${n}` }));
      return { content: { role: 'model', parts }, finishReason: toGeminiFinish(reason), index };
    });
  return { ...event(state, candidates), usageMetadata: toUsageMetadata(billed) };
}
