// Prices of one call in integer quota units (docs/SPEC.md §3.4 price blocks, §9 500000 = $1; docs/ORIGINAL-GATEWAY.md §1.13 legacy
// formula). Pure: the caller passes the model's quotas, the usage and the group discount in basis points.
//
// Which block prices a chat call (`chatBlock`), by model type (core ModelType):
//   1 text, 3 image→text, anything else        → text_quota
//   100 multimodal, 103 multimodal embedding    → multimodal_quota.text_quota (+ vision_quotas, search_*)
//   101 multimodal realtime                     → realtime_quota {text_quota, audio_quota, fixed_quota}
//   102 multimodal speech                       → multimodal_audio_quota (same shape)
// When the type's own block is missing the model's text_quota is used; when that is missing too the call is
// `unpriced` (charged 0, flagged so the caller logs it). Other endpoints: images → image_quota, embeddings →
// text_quota (103: multimodal_quota.text_quota), speech and transcription → audio_quota, digital human /
// audio clone / video second creation → their unit blocks (`priceUnit`). Midjourney prices (midjourney_quotas)
// are kept by the console, but the gateway has no Midjourney proxy to charge them yet.
//
// Every price is a list of line items (core LineItem: input, cached input, cache writes, output, reasoning,
// audio, images, searches, per-call fees, units) priced by one function, `charge`: one ceil over the exact
// sum of every item (not one per item: less rounding up than the original's ceil per item, docs/ORIGINAL-GATEWAY.md §1.13),
// then the discount ceil(base × discountBp / 10000). Every returned quota is a non-negative safe integer.
import type { LineItem, LineKind, LineUnit } from '@fastgate/core/entities/call-log';
import { BillingMethod, type ContextTier, type ModelQuotas, type TextQuota } from '@fastgate/core/entities/model-quota';
import { ModelType } from '@fastgate/core/entities/model';
import type { Usage } from '../providers/types';
import { clean, cleanBp, priceTotal } from './decimal';
import type { ChatExtras, SearchContextSize, VisionMode } from './media';

/**
 * Usage as billed: the canonical usage (providers/types.ts). Its `audio` share is priced apart for realtime
 * (101) and multimodal-speech (102) models by their audio_quota, and billed as text for the other types.
 */
export type BillableUsage = Usage;

export type PriceBlock = keyof ModelQuotas;

interface PriceDetail {
  /** The block used, or null when the model has none for this call. */
  block: PriceBlock | null;
  method: 'ratio' | 'fixed' | 'none';
  /** Before the discount: the items' sum, rounded up once. */
  base_quota: number;
  discount_bp: number;
  /** What was priced; quantities of 0 are left out. */
  items: LineItem[];
}

export interface Price {
  quota: number;
  /** No price block: charged 0. The caller should log it (an admin forgot to price the model). */
  unpriced: boolean;
  detail: PriceDetail;
}

export interface ChatPrice extends Price {
  /** The token ratios that priced the call (a context tier's when one applied), for the call log. */
  prompt_ratio: number;
  completion_ratio: number;
}

/** A line before its price is worked out. */
type Line = Omit<LineItem, 'quota'>;

/** quantity × unit price for the log, float noise off (9 decimals: far below a unit; the charge itself is
 *  the exact BigInt sum). Cheaper than toPrecision: the estimate prices every request several times. */
const product = (quantity: number, unitPrice: number) => Math.round(quantity * unitPrice * 1e9) / 1e9;

/**
 * THE pricing function: line items → their exact sum rounded up once (the base), then the discount. Lines
 * of quantity 0 are dropped; negative, NaN and infinite quantities or prices count as 0 (they never bill,
 * nor refund).
 */
function charge(block: PriceBlock | null, method: PriceDetail['method'], lines: readonly Line[], bp: number): Price {
  const items: LineItem[] = [];
  for (const l of lines) {
    const quantity = clean(l.quantity);
    if (!quantity) continue;
    const unit_price = clean(l.unit_price);
    const item: LineItem = { kind: l.kind, unit: l.unit, quantity, unit_price, quota: product(quantity, unit_price) };
    if (l.tier) item.tier = l.tier;
    if (l.detail) item.detail = l.detail;
    items.push(item);
  }
  const { base, quota } = priceTotal(items, bp);
  return {
    quota,
    unpriced: block === null,
    detail: { block, method, base_quota: base, discount_bp: cleanBp(bp), items },
  };
}

const unpriced = (bp: number): Price => charge(null, 'none', [], bp);
const isFixed = (q: { billing_method?: number }) => q.billing_method === BillingMethod.Fixed;
const line = (kind: LineKind, unit: LineUnit, quantity: number, unit_price: number, more?: Pick<Line, 'tier' | 'detail'>): Line => (more ? { kind, unit, quantity, unit_price, ...more } : { kind, unit, quantity, unit_price });
/** A price entered as integer units (fixed quotas): anything else is rounded up, never down. */
const whole = (q: number | undefined) => Math.ceil(clean(q));

interface ChatBlock {
  name: PriceBlock;
  text: TextQuota;
  /** Realtime / multimodal speech: audio token prices and the block's per-call price. */
  audio?: TextQuota;
  fixed_quota?: number;
  multimodal?: NonNullable<ModelQuotas['multimodal_quota']>;
}

/** The type → block mapping in the header. */
export function chatBlock(quotas: Partial<ModelQuotas> | undefined, type: number): ChatBlock | undefined {
  const q = quotas ?? {};
  if ((type === ModelType.Multimodal || type === ModelType.MultimodalEmbedding) && q.multimodal_quota) {
    return { name: 'multimodal_quota', text: q.multimodal_quota.text_quota, multimodal: q.multimodal_quota };
  }
  const mixedName = type === ModelType.MultimodalRealtime ? 'realtime_quota' : type === ModelType.MultimodalSpeech ? 'multimodal_audio_quota' : undefined;
  const mixed = mixedName && q[mixedName];
  if (mixedName && mixed) return { name: mixedName, text: mixed.text_quota, audio: mixed.audio_quota, fixed_quota: mixed.fixed_quota };
  return q.text_quota ? { name: 'text_quota', text: q.text_quota } : undefined;
}

/** The token prices that apply to one call. */
interface TokenRates {
  input: number;
  cached: number;
  write_5m: number;
  write_1h: number;
  output: number;
  /** The context tier applied: its threshold. */
  tier?: number;
}

/**
 * The block's token prices for a prompt of `promptTokens`: those of the highest context tier it passes
 * (strictly longer than the threshold, as Claude and Gemini price), a tier's unset (0) ratios keeping the
 * block's; then "0 = not set" fallbacks: cached and cache writes → prompt, 1-hour writes → cache writes.
 */
function tokenRates(text: Partial<TextQuota> | undefined, promptTokens: number): TokenRates {
  const t = text ?? {};
  const tier = tierFor(t.tiers, promptTokens);
  const input = rate(tier?.prompt_ratio, t.prompt_ratio);
  const write5m = rate(tier?.cache_write_ratio, t.cache_write_ratio) || input;
  const rates: TokenRates = {
    input,
    cached: rate(tier?.cached_ratio, t.cached_ratio) || input,
    write_5m: write5m,
    write_1h: rate(tier?.cache_write_1h_ratio, t.cache_write_1h_ratio) || write5m,
    output: rate(tier?.completion_ratio, t.completion_ratio),
  };
  if (tier) rates.tier = tier.above_tokens;
  return rates;
}

/** The highest context tier a prompt of `promptTokens` passes. Stored blocks are not re-validated on read: a
 *  missing or malformed tier list counts as none. (A loop, not filter + reduce: every call prices twice.) */
function tierFor(tiers: unknown, promptTokens: number): ContextTier | undefined {
  if (!Array.isArray(tiers)) return undefined;
  let best: ContextTier | undefined;
  for (const x of tiers as (ContextTier | null | undefined)[]) {
    if (x && clean(x.above_tokens) > 0 && promptTokens > x.above_tokens && (!best || x.above_tokens > best.above_tokens)) best = x;
  }
  return best;
}

/**
 * A tier's ratio, or the block's where the tier leaves it unset (0). Given the two values, not a key to read
 * them by: one keyed read site for five names was megamorphic, ~3k instructions a call (docs/BENCHMARKS.md,
 * twenty-first session).
 */
const rate = (ofTier: number | undefined, ofBlock: number | undefined) => clean(ofTier) || clean(ofBlock);

/** A count from the usage: a non-negative integer, at most `cap`. */
const count = (n: number | undefined, cap = Number.MAX_SAFE_INTEGER) => Math.min(cap, Math.floor(clean(n)));

/**
 * The usage split into token lines, each token in exactly one: prompt = audio + cache reads + cache writes
 * (1 h, then 5 min) + input; completion = audio + reasoning + output. Details larger than what is left of
 * their total are capped (an upstream may report nonsense; nothing is billed twice).
 */
function tokenLines(lines: Line[], usage: BillableUsage, rates: TokenRates, audio: TextQuota | undefined): void {
  const prompt = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  const audioIn = audio ? count(usage.audio?.prompt_tokens, prompt) : 0;
  const cached = count(usage.cached_tokens, prompt - audioIn);
  const written = count(usage.cache_write_tokens, prompt - audioIn - cached);
  const written1h = count(usage.cache_write_1h_tokens, written);
  const audioOut = audio ? count(usage.audio?.completion_tokens, completion) : 0;
  const reasoning = count(usage.reasoning_tokens, completion - audioOut);
  const tier = rates.tier ? { tier: rates.tier } : undefined;
  // Only the lines with tokens: charge() drops the others, and most calls have two.
  const add = (kind: LineKind, quantity: number, price: number, tiered = true) => {
    if (quantity > 0) lines.push(line(kind, 'token', quantity, price, tiered ? tier : undefined));
  };
  add('input', prompt - audioIn - cached - written, rates.input);
  add('cached_input', cached, rates.cached);
  add('cache_write_5m', written - written1h, rates.write_5m);
  add('cache_write_1h', written1h, rates.write_1h);
  add('audio_input', audioIn, clean(audio?.prompt_ratio), false);
  add('output', completion - audioOut - reasoning, rates.output);
  add('reasoning', reasoning, rates.output);
  add('audio_output', audioOut, clean(audio?.completion_ratio), false);
}

export interface PriceChatInput {
  quotas: Partial<ModelQuotas> | undefined;
  type: number;
  usage: BillableUsage;
  discountBp: number;
  extras?: ChatExtras;
}

/**
 * Chat (and completions, responses, messages, Gemini) price. Ratio: the token lines (`tokenLines`) at the
 * block's rates (`tokenRates`), plus the mixed block's per-call fee. Fixed: the block's fixed_quota per
 * call, replacing the token lines. Vision and search prices add in both methods (they are separate prices
 * the admin chose to set); searches are the upstream's count when it reports one, else the request's.
 */
export function priceChat({ quotas, type, usage, discountBp, extras }: PriceChatInput): ChatPrice {
  const block = chatBlock(quotas, type);
  if (!block) return { ...unpriced(discountBp), prompt_ratio: 0, completion_ratio: 0 };
  const { text, audio } = block;
  const rates = tokenRates(text, count(usage.prompt_tokens));
  const fixed = isFixed(text);
  const lines: Line[] = [];
  if (fixed) lines.push(line('request', 'call', 1, whole(clean(block.fixed_quota) || clean(text.fixed_quota))));
  else {
    tokenLines(lines, usage, rates, audio);
    if (whole(block.fixed_quota)) lines.push(line('request', 'call', 1, whole(block.fixed_quota)));
  }
  if (block.multimodal) {
    const searches = usage.search_calls === undefined ? extras?.search : { ...extras?.search, calls: usage.search_calls };
    lines.push(...visionLines(block.multimodal, extras?.images), ...searchLines(block.multimodal, searches));
  }
  const price = charge(block.name, fixed ? 'fixed' : 'ratio', lines, discountBp);
  // Listed, not spread: an object spread here was the most expensive line of a call's pricing.
  return { quota: price.quota, unpriced: price.unpriced, detail: price.detail, prompt_ratio: rates.input, completion_ratio: rates.output };
}

/**
 * The dearest price the settle could put on `prompt` + `completion` tokens (the chat reservation, estimate.ts):
 * every prompt token at the highest rate a prompt token can be billed at (input, cache read, cache write 5 min
 * or 1 h, audio), every completion token at the highest completion rate (output, audio). A price is a sum of
 * tokens × rate plus parts no split touches (the per-call fee, images, searches, and the context tier, which
 * follows the prompt's total), so this is the maximum over every split of the usage, priced once.
 */
export function priceChatDearest(input: Omit<PriceChatInput, 'usage'> & { prompt: number; completion: number }): ChatPrice {
  const { prompt, completion } = input;
  const usage: BillableUsage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
  const block = chatBlock(input.quotas, input.type);
  if (block && !isFixed(block.text)) {
    const r = tokenRates(block.text, count(prompt));
    const audioIn = block.audio ? clean(block.audio.prompt_ratio) : 0;
    const top = Math.max(r.input, r.cached, r.write_5m, r.write_1h, audioIn);
    const audio = { prompt_tokens: 0, completion_tokens: 0 };
    // Plain input when it is the dearest (or ties): the usage as built.
    if (top !== r.input) {
      if (block.audio && top === audioIn) audio.prompt_tokens = prompt;
      else if (top === r.cached) usage.cached_tokens = prompt;
      else if (top === r.write_5m) usage.cache_write_tokens = prompt;
      else Object.assign(usage, { cache_write_tokens: prompt, cache_write_1h_tokens: prompt });
    }
    if (block.audio && clean(block.audio.completion_ratio) > r.output) audio.completion_tokens = completion;
    if (audio.prompt_tokens || audio.completion_tokens) usage.audio = audio;
  }
  return priceChat({ quotas: input.quotas, type: input.type, discountBp: input.discountBp, extras: input.extras, usage });
}

/** Per image: the row of its detail mode (absent = `auto`, the provider default), else the default row;
 *  one line per row used. */
function visionLines(mm: ChatBlock['multimodal'], images: readonly (VisionMode | undefined)[] | undefined): Line[] {
  const rows = mm?.vision_quotas ?? [];
  if (!images?.length || !rows.length) return [];
  const byRow = new Map<(typeof rows)[number], number>();
  for (const mode of images) {
    const row = rows.find((r) => r.mode === (mode ?? 'auto')) ?? rows.find((r) => r.is_default);
    if (row) byRow.set(row, (byRow.get(row) ?? 0) + 1);
  }
  return [...byRow].map(([row, n]) => line('image_input', 'image', n, whole(row.fixed_quota), { detail: row.mode }));
}

/**
 * Per search call: with a context size (OpenAI web_search_options) the matching search_quotas row, else its
 * default row, else the flat search_quota; without one (Google-style tool) the flat search_quota, else the
 * default row.
 */
function searchLines(mm: ChatBlock['multimodal'], search: Partial<NonNullable<ChatExtras['search']>> | undefined): Line[] {
  const calls = count(search?.calls);
  if (!mm || !calls) return [];
  const rows = mm.search_quotas ?? [];
  const byDefault = rows.find((r) => r.is_default)?.fixed_quota;
  const size: SearchContextSize | undefined = search?.context_size;
  const each = size
    ? (rows.find((r) => r.search_context_size === size)?.fixed_quota ?? byDefault ?? mm.search_quota)
    : clean(mm.search_quota) || (byDefault ?? 0);
  return [line('search', 'search', calls, whole(each), size ? { detail: size } : {})];
}

/** Token usage of a token-billed image model (gpt-image-1 style `usage`). */
export interface ImageUsage {
  text_tokens: number;
  image_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
}

export interface PriceImageInput {
  quotas: Partial<ModelQuotas> | undefined;
  /** Images requested; missing or invalid = 1 (the OpenAI default). */
  n?: number;
  /** 'WxH' (also W×H, W*H); anything else matches no row. */
  size?: string;
  quality?: string;
  discountBp: number;
  usage?: ImageUsage;
}

/**
 * Images (types 2, 4). Ratio billing with a token usage: ceil(text × text_ratio + image in × input_ratio
 * + cached × cached_ratio + output × output_ratio). Otherwise per image (`imageUnitQuota`) × n.
 */
export function priceImage({ quotas, n, size, quality, discountBp, usage }: PriceImageInput): Price {
  const block = quotas?.image_quota;
  if (!block) return unpriced(discountBp);
  if (!isFixed(block) && usage) {
    return charge('image_quota', 'ratio', [
      line('input', 'token', usage.text_tokens, block.text_ratio),
      line('image_input', 'token', usage.image_tokens, block.input_ratio),
      line('cached_input', 'token', usage.cached_tokens ?? 0, clean(block.cached_ratio) || clean(block.input_ratio)),
      line('image_output', 'token', usage.output_tokens, block.output_ratio),
    ], discountBp);
  }
  return charge('image_quota', 'fixed', [line('image_output', 'image', imageCount(n), imageUnitQuota(block, size, quality))], discountBp);
}

export const imageCount = (n: number | undefined) => Math.max(1, Math.floor(clean(n)));

/**
 * Per-image price: the generation_quotas row with this size and quality (a row with an empty quality
 * matches any quality, after exact rows), else the is_default row, else image_quota.fixed_quota.
 */
function imageUnitQuota(block: NonNullable<ModelQuotas['image_quota']>, size: string | undefined, quality: string | undefined): number {
  const rows = block.generation_quotas ?? [];
  const dim = parseSize(size);
  const q = (quality ?? '').trim().toLowerCase();
  const sized = dim ? rows.filter((r) => r.width === dim.width && r.height === dim.height) : [];
  const row = sized.find((r) => r.quality.toLowerCase() === q) ?? sized.find((r) => r.quality === '') ?? rows.find((r) => r.is_default);
  return Math.ceil(clean(row ? row.fixed_quota : block.fixed_quota));
}

export function parseSize(size: string | undefined): { width: number; height: number } | undefined {
  const m = /^\s*(\d{1,6})\s*[x×*]\s*(\d{1,6})\s*$/i.exec(size ?? '');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}

/** Embeddings: prompt tokens × prompt_ratio (type 103 by multimodal_quota.text_quota), or fixed per call. */
export function priceEmbedding(input: { quotas: Partial<ModelQuotas> | undefined; type: number; prompt_tokens: number; discountBp: number }): Price {
  const block = chatBlock(input.quotas, input.type === ModelType.MultimodalEmbedding ? input.type : ModelType.Text);
  if (!block) return unpriced(input.discountBp);
  if (isFixed(block.text)) return charge(block.name, 'fixed', [line('request', 'call', 1, whole(block.text.fixed_quota))], input.discountBp);
  return charge(block.name, 'ratio', [line('input', 'token', count(input.prompt_tokens), block.text.prompt_ratio)], input.discountBp);
}

/**
 * Text to speech (type 5): audio_quota.prompt_ratio is quota per input character (Unicode code point —
 * not UTF-8 bytes, which overcharged CJK 3×, docs/ORIGINAL-GATEWAY.md §7.9). Fixed billing: fixed_quota per call.
 */
export function priceSpeech(input: { quotas: Partial<ModelQuotas> | undefined; characters: number; discountBp: number }): Price {
  return priceAudio(input.quotas, line('input', 'character', count(input.characters), 0), input.discountBp);
}

/**
 * Speech to text (type 6): audio_quota.prompt_ratio is quota per second of input audio (fractional seconds
 * are priced exactly, then rounded up once). Fixed billing: fixed_quota per call.
 */
export function priceTranscription(input: { quotas: Partial<ModelQuotas> | undefined; seconds: number; discountBp: number }): Price {
  return priceAudio(input.quotas, line('audio_input', 'second', input.seconds, 0), input.discountBp);
}

/** `measured`: what audio_quota.prompt_ratio prices, its unit price left to fill. */
function priceAudio(quotas: Partial<ModelQuotas> | undefined, measured: Line, bp: number): Price {
  const block = quotas?.audio_quota;
  if (!block) return unpriced(bp);
  if (isFixed(block)) return charge('audio_quota', 'fixed', [line('request', 'call', 1, whole(block.fixed_quota))], bp);
  return charge('audio_quota', 'ratio', [{ ...measured, unit_price: block.prompt_ratio }], bp);
}

/**
 * Digital human, audio clone, video second creation: fixed_quota per unit of `block.unit` (call, second,
 * minute, character); `units` is measured in that unit and may be fractional (e.g. 12.5 s), rounded up once.
 */
export function priceUnit(
  block: { fixed_quota: number; unit?: string } | undefined,
  units: number,
  discountBp = 10_000,
  name: PriceBlock = 'digital_human_quota',
): Price {
  if (!block) return unpriced(discountBp);
  const unit = block.unit === 'second' || block.unit === 'minute' || block.unit === 'character' ? block.unit : 'call';
  return charge(name, 'fixed', [line('unit', unit, units, block.fixed_quota)], discountBp);
}

/** The unit price block of each task model type. */
export const UNIT_BLOCKS: Partial<Record<number, 'digital_human_quota' | 'audio_clone_quota' | 'video_second_creation_quota'>> = {
  [ModelType.DigitalHuman]: 'digital_human_quota',
  [ModelType.AudioClone]: 'audio_clone_quota',
  [ModelType.VideoSecondCreation]: 'video_second_creation_quota',
};

/** `priceUnit` with the block picked by model type (1000 digital human, 1001 audio clone, 1002 video second creation). */
export function priceUnitFor(input: { quotas: Partial<ModelQuotas> | undefined; type: number; units: number; discountBp: number }): Price {
  const name = UNIT_BLOCKS[input.type];
  return name ? priceUnit(input.quotas?.[name], input.units, input.discountBp, name) : unpriced(input.discountBp);
}

/** The usage-source rule of a model (docs/ORIGINAL-GATEWAY.md §1.12): only multimodal_quota carries one; 1 = official. */
export function billingRuleOf(quotas: Partial<ModelQuotas> | undefined): 1 | 2 {
  return quotas?.multimodal_quota?.billing_rule === 2 ? 2 : 1;
}
