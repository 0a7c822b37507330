// Reservations before the upstream call (ARCHITECTURE: estimate and reserve, settle after; docs/ORIGINAL-GATEWAY.md §7.2).
// An estimate must be cheap (it runs on every request, before any byte goes upstream: no tokenizer) and
// should not be below the settled charge, or the balance can dip below zero by the difference.
import type { ModelQuotas } from '@fastgate/core/entities/model-quota';
import type { ChatMessage, ChatRequest, Usage } from '../providers/types';
import { clean } from './decimal';
import { audioTokens, chatExtras, countCharacters, imageTokens } from './media';
import { imageCount, priceChatDearest, priceEmbedding, priceImage, priceSpeech, priceTranscription, type Price } from './price';

/**
 * fastTokens' costs below U+0800 (every 1- and 2-byte UTF-8 character) looked up rather than branched on:
 * which branch a letter, a space or a digit takes is the text's own pattern, which the processor failed to
 * predict, and the lookups took ~30 % off an agent's 150 KB prompt (docs/BENCHMARKS.md, twenty-sixth session).
 */
const TABLED = 0x800;
/** The class of each unit: 0 other, 1 lower-case letter, 2 upper-case letter. */
const LETTER = new Uint8Array(TABLED);
/** Tenths of a token for each unit after each class (`prev * TABLED + unit`). */
const TENTHS = new Uint8Array(3 * TABLED);
for (let c = 0; c < TABLED; c++) {
  const lower = c >= 97 && c <= 122;
  const upper = c >= 65 && c <= 90;
  LETTER[c] = lower ? 1 : upper ? 2 : 0;
  for (let prev = 0; prev < 3; prev++) TENTHS[prev * TABLED + c] = lower ? (prev ? 4 : 10) : upper ? (prev === 2 ? 6 : 10) : c === 32 ? 3 : 10;
}

/**
 * A fast upper bound of the tokens of `text` for cl100k and o200k, in one pass over UTF-16 units, in tenths
 * of a token. Tuned against gpt-tokenizer (estimate.test.ts): a letter costs 1 when it starts a run (or
 * switches to upper case) and 0.4 / 0.6 (lower / upper) when it continues one — enough for base64 and
 * mixed-case ids; digits, punctuation and control characters 1 (each is one byte, at most one token); a space
 * 0.3; 2-byte UTF-8 letters (Cyrillic, Greek, Arabic…) 1; other BMP characters (CJK, kana, Hangul, Indic,
 * Thai) 2; astral characters (emoji) 3. Measured over prose it is ~2× the real count (English, German,
 * Russian, Chinese, Japanese), ~2× for code, ~1.6× for JSON, ≥1× for base64, numbers and emoji.
 * Known to fall short: archaic/rare CJK ideographs (up to 3 tokens each) and strings of random lower-case
 * letters (~0.55 tokens per letter): by up to a third, which the settle then charges.
 */
export function fastTokens(text: string | null | undefined): number {
  if (!text) return 0;
  let tenths = 0;
  let prev = 0; // 0 other, 1 lower-case letter, 2 upper-case letter
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < TABLED) {
      tenths += TENTHS[prev * TABLED + c]!;
      prev = LETTER[c]!;
      continue;
    }
    prev = 0;
    if (c >= 0xd800 && c <= 0xdbff) tenths += 30;
    else if (c < 0xdc00 || c > 0xdfff) tenths += 20;
  }
  return Math.ceil(tenths / 10);
}

/** The chat overhead of docs/ORIGINAL-GATEWAY.md §1.12 (3 per message + role, name + 1, 3 priming) over `fastTokens`; images at their max. */
export function estimatePromptTokens(messages: readonly ChatMessage[], tools?: unknown): number {
  let total = 3;
  for (const m of messages) {
    total += 4;
    if (m.name) total += fastTokens(m.name) + 1;
    if (typeof m.content === 'string') total += fastTokens(m.content);
    else if (Array.isArray(m.content)) {
      for (const part of m.content) {
        if (part.type === 'text') total += fastTokens(part.text);
        else if (part.type === 'image_url') total += imageTokens(part.image_url.detail, 'max');
        else if (part.type === 'input_audio') total += audioTokens(part.input_audio.data.length);
      }
    }
    for (const call of m.tool_calls ?? []) total += fastTokens(call.function.name) + fastTokens(call.function.arguments);
    if (m.tool_call_id) total += fastTokens(m.tool_call_id);
  }
  if (Array.isArray(tools) && tools.length) total += fastTokens(JSON.stringify(tools));
  return total;
}

/** Completion budget when the client sets none, and the most a client's max_tokens may reserve. */
const DEFAULT_MAX_TOKENS = 4096;
/** The largest output window of current models (gpt-5: 128K): a bigger max_tokens can't be used anyway. */
const MAX_TOKENS_CAP = 131_072;
const MAX_CHOICES = 128;

/** A model's declared output limit (0 = none) as the completion budget's default and cap: more can't be used. */
export const outputBounds = (maxOutputTokens: number): Pick<EstimateChatInput, 'defaultMaxTokens' | 'maxTokensCap'> =>
  maxOutputTokens > 0 ? { defaultMaxTokens: maxOutputTokens, maxTokensCap: maxOutputTokens } : {};

export interface EstimateChatInput {
  quotas: Partial<ModelQuotas> | undefined;
  type: number;
  request: ChatRequest;
  discountBp: number;
  /** Config (passed in, never read here): the budget without max_tokens, and the cap on a client's. */
  defaultMaxTokens?: number;
  maxTokensCap?: number;
}

export interface Estimate {
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  unpriced: boolean;
}

/**
 * A reservation that may shrink to fit a balance: `quota` pays for the whole completion budget, `floor`
 * for the prompt and one completion token per choice (less than that and the call is refused), and
 * `fit(q)` tells the completion tokens per choice `q` units pay for, so a smaller hold becomes the cap
 * the upstream is sent.
 */
export interface Budget {
  quota: number;
  floor: number;
  fit(quota: number): number;
}

export type ChatEstimate = Estimate & Budget;

/**
 * Chat reservation: the estimated prompt plus the completion budget (max_completion_tokens, else max_tokens,
 * else the default; capped; × n choices), priced by `priceChat` with the same extras the settle sees. As the
 * settle may split the prompt into cached, cache-written (5 minutes or 1 hour) or audio tokens and the completion into audio, each side is priced
 * at its most expensive reading, so the reservation covers any split, whatever cap it shrinks to.
 */
export function estimateChat(input: EstimateChatInput): ChatEstimate {
  const { quotas, type, request, discountBp } = input;
  const prompt = estimatePromptTokens(request.messages ?? [], request.tools);
  const choices = choicesOf(request);
  const completion = completionBudget(request, input.defaultMaxTokens ?? DEFAULT_MAX_TOKENS, input.maxTokensCap ?? MAX_TOKENS_CAP);
  const extras = chatExtras(request);
  const priceAt = (completion: number): Price => priceChatDearest({ quotas, type, discountBp, extras, prompt, completion });
  const best = priceAt(completion);
  const quota = best?.quota ?? 0;
  const perChoice = completion / choices;
  return {
    quota,
    prompt_tokens: prompt,
    completion_tokens: completion,
    unpriced: best?.unpriced ?? true,
    floor: Math.min(quota, priceAt(choices)?.quota ?? 0),
    fit(q) {
      // Prices only grow with the completion: the largest per-choice count within `q`, by halving.
      if (q >= quota) return perChoice;
      let lo = 0;
      let hi = perChoice;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if ((priceAt(mid * choices)?.quota ?? 0) <= q) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
  };
}

const choicesOf = (request: Pick<ChatRequest, 'n'>) => Math.min(MAX_CHOICES, Math.max(1, Math.floor(clean(request.n))));

export function completionBudget(request: Pick<ChatRequest, 'max_tokens' | 'max_completion_tokens' | 'n'>, defaultMax: number, cap: number): number {
  const asked = Math.floor(clean(request.max_completion_tokens)) || Math.floor(clean(request.max_tokens)) || Math.floor(clean(defaultMax));
  return Math.min(asked, Math.floor(clean(cap)) || asked) * choicesOf(request);
}

/** The completion limit per choice a chat request carries (as adapters read it), if any. */
export function completionCap(request: Pick<ChatRequest, 'max_tokens' | 'max_completion_tokens'>): number | undefined {
  const cap = Math.floor(clean(request.max_completion_tokens)) || Math.floor(clean(request.max_tokens));
  return cap > 0 ? cap : undefined;
}

/** Lowers a chat request's completion limit to `tokens` per choice: in the field(s) the client used, max_tokens when it used none. */
export function capCompletion(request: Pick<ChatRequest, 'max_tokens' | 'max_completion_tokens'>, tokens: number): void {
  const lower = (v: number | undefined) => (v !== undefined && v !== null && clean(v) > 0 ? Math.min(Math.floor(clean(v)), tokens) : undefined);
  const completion = lower(request.max_completion_tokens);
  const max = lower(request.max_tokens);
  if (completion !== undefined) request.max_completion_tokens = completion;
  if (max !== undefined || completion === undefined) request.max_tokens = max ?? tokens;
}

/**
 * Never bills past the cap an upstream was sent: completion tokens above the request's limit (× n) are
 * an upstream ignoring it, and the reservation only covered the limit.
 */
export function clampCompletion<U extends Usage>(usage: U, request: Pick<ChatRequest, 'max_tokens' | 'max_completion_tokens' | 'n'>): U {
  const cap = completionCap(request);
  if (cap === undefined) return usage;
  const limit = cap * choicesOf(request);
  if (usage.completion_tokens <= limit) return usage;
  const out: U = { ...usage, completion_tokens: limit, total_tokens: usage.prompt_tokens + limit };
  // The parts of the completion stay within it.
  if (usage.reasoning_tokens !== undefined) out.reasoning_tokens = Math.min(usage.reasoning_tokens, limit);
  if (usage.audio) out.audio = { ...usage.audio, completion_tokens: Math.min(usage.audio.completion_tokens, limit) };
  return out;
}

/**
 * Output tokens of one token-billed image (gpt-image-1's published table, the largest size per quality;
 * `auto` and unknown qualities as high). Input images of edits are not visible here and not reserved.
 */
const IMAGE_OUTPUT_TOKENS: Record<string, number> = { low: 408, medium: 1584, high: 6240 };

/** Images: the per-image price × n and, for token billing, prompt + n × output tokens — whichever is more. */
export function estimateImage(input: { quotas: Partial<ModelQuotas> | undefined; n?: number; size?: string; quality?: string; prompt?: string; discountBp: number }): Estimate {
  const count = imageCount(input.n);
  const output = (IMAGE_OUTPUT_TOKENS[(input.quality ?? '').toLowerCase()] ?? IMAGE_OUTPUT_TOKENS.high) * count;
  const prompt = fastTokens(input.prompt);
  const table = priceImage({ ...input, usage: undefined });
  const tokens = priceImage({ ...input, usage: { text_tokens: prompt, image_tokens: 0, output_tokens: output } });
  return { quota: Math.max(table.quota, tokens.quota), prompt_tokens: prompt, completion_tokens: output, unpriced: table.unpriced };
}

/** Embeddings: `input` as the API takes it (a string, strings, or token arrays — counted exactly). */
export function estimateEmbedding(input: { quotas: Partial<ModelQuotas> | undefined; type: number; input: unknown; discountBp: number }): Estimate {
  const prompt = embeddingTokens(input.input);
  const price = priceEmbedding({ quotas: input.quotas, type: input.type, prompt_tokens: prompt, discountBp: input.discountBp });
  return { quota: price.quota, prompt_tokens: prompt, completion_tokens: 0, unpriced: price.unpriced };
}

function embeddingTokens(input: unknown): number {
  if (typeof input === 'string') return fastTokens(input);
  if (!Array.isArray(input)) return 0;
  if (input.every((x) => typeof x === 'number')) return input.length;
  return input.reduce<number>((sum, x) => sum + embeddingTokens(x), 0);
}

/** Text to speech: characters are exact and cheap to count, so this is the settled price. */
export function estimateSpeech(input: { quotas: Partial<ModelQuotas> | undefined; input: string; discountBp: number }): Estimate {
  const price = priceSpeech({ quotas: input.quotas, characters: countCharacters(input.input), discountBp: input.discountBp });
  return { quota: price.quota, prompt_tokens: 0, completion_tokens: 0, unpriced: price.unpriced };
}

/**
 * Upper bound of an upload's duration: speech codecs go down to ~16 kbit/s (2000 bytes per second), so a
 * file can't last longer than bytes / 2000 seconds (a 25 MB upload: ~3.5 h).
 */
export function maxAudioSeconds(bytes: number): number {
  return Math.ceil(clean(bytes) / 2000);
}

/** Speech to text: `seconds` is an upper bound the caller knows (the container's header, or `maxAudioSeconds`). */
export function estimateTranscription(input: { quotas: Partial<ModelQuotas> | undefined; seconds: number; discountBp: number }): Estimate {
  const price = priceTranscription(input);
  return { quota: price.quota, prompt_tokens: 0, completion_tokens: 0, unpriced: price.unpriced };
}
