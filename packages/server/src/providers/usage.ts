// The canonical usage (types.ts Usage) built from a provider's counters, and written back as OpenAI chat's
// usage object. Each adapter reads its provider's fields; what they mean is said once, on Usage.
import { asRecord, isRecord } from './shape';
import type { ChatUsage, Usage } from './types';

type Details = Omit<Usage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens' | 'audio' | 'search_calls'> & { audio_prompt?: number; audio_completion?: number };

/** Totals plus the details a provider reported; zero details are left out (absent = none). */
export function usageOf(prompt: number, completion: number, total: number, details: Details = {}): Usage {
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total || prompt + completion };
  const { audio_prompt = 0, audio_completion = 0, ...rest } = details;
  for (const [k, v] of Object.entries(rest) as [keyof typeof rest, number | undefined][]) if (v) usage[k] = v;
  if (audio_prompt || audio_completion) usage.audio = { prompt_tokens: audio_prompt, completion_tokens: audio_completion };
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
