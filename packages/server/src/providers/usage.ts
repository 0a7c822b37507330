// The canonical usage (types.ts Usage) built from a provider's counters, and written back as OpenAI chat's
// usage object. Each adapter reads its provider's fields; what they mean is said once, on Usage.
import { asRecord, isRecord } from './shape';
import type { ChatUsage, Usage } from './types';

type Details = Omit<Usage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens' | 'audio' | 'search_calls'> & { audio_prompt?: number; audio_completion?: number };

/** Totals plus the details a provider reported; zero details are left out (absent = none). */
export function usageOf(prompt: number, completion: number, total: number, details: Details = {}): Usage {
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total || prompt + completion };
  // for…in, not a rest pattern and Object.entries: every answer's usage is read here (two copies and a pair per field).
  let audioPrompt = 0;
  let audioCompletion = 0;
  for (const k in details) {
    const key = k as keyof Details;
    const v = details[key];
    if (key === 'audio_prompt') audioPrompt = v ?? 0;
    else if (key === 'audio_completion') audioCompletion = v ?? 0;
    else if (v) usage[key] = v;
  }
  if (audioPrompt || audioCompletion) usage.audio = { prompt_tokens: audioPrompt, completion_tokens: audioCompletion };
  return usage;
}

/**
 * The usage as OpenAI chat writes it, with its details (OpenAI always sends cached, reasoning and audio
 * counts, 0 when none); cache writes as OpenRouter names them, only when there are some. `raw` is the
 * upstream's own usage object, when it spoke OpenAI: detail fields we do not model (predicted-output
 * tokens) are kept, its top-level extras (a host's `cost`) are not.
 */
export function toChatUsage(u: Usage, raw?: unknown): ChatUsage {
  const up = isRecord(raw) ? raw : {};
  const prompt: Record<string, unknown> = { ...asRecord(up.prompt_tokens_details), cached_tokens: u.cached_tokens ?? 0, audio_tokens: u.audio?.prompt_tokens ?? 0 };
  if (u.cache_write_tokens) prompt.cache_write_tokens = u.cache_write_tokens;
  const completion = { ...asRecord(up.completion_tokens_details), reasoning_tokens: u.reasoning_tokens ?? 0, audio_tokens: u.audio?.completion_tokens ?? 0 };
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.total_tokens, prompt_tokens_details: prompt, completion_tokens_details: completion };
}
