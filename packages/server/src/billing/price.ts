// Prices of one call in integer quota units (SPEC §3 price blocks, §9 500000 = $1; reference §1.13 legacy
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
// audio clone / video second creation → their unit blocks (`priceUnit`), Midjourney → midjourney_quotas.
//
// Rounding: one ceil over the exact sum of every token term (not one per term: less rounding up than the
// reference, §7 "exact integer billing"), per-call extras added as integers, then the discount
// ceil(base × discountBp / 10000). Every returned quota is a non-negative safe integer.
import { BillingMethod, type ModelQuotas, type TextQuota } from '@fastgate/core/entities/model-quota';
import { ModelType } from '@fastgate/core/entities/model';
import type { Usage } from '../providers/types';
import { ceilSum, clean, cleanBp, discount, toQuota } from './decimal';
import type { ChatExtras, SearchContextSize, VisionMode } from './media';

/**
 * Usage as billed. `audio` is the audio share of prompt_tokens / completion_tokens (OpenAI's
 * `*_tokens_details.audio_tokens`): included in the totals, priced apart for realtime (101) and
 * multimodal-speech (102) models by their audio_quota, ignored (billed as text) for the other types.
 */
export interface BillableUsage extends Usage {
  audio?: { prompt_tokens: number; completion_tokens: number };
}

export type PriceBlock = keyof ModelQuotas;

export interface PriceDetail {
  /** The block used, or null when the model has none for this call. */
  block: PriceBlock | null;
  method: 'ratio' | 'fixed' | 'none';
  /** Before the discount. */
  base_quota: number;
  discount_bp: number;
  /** Chat: the token split that was priced. */
  tokens?: { uncached_prompt: number; cached: number; completion: number; audio_prompt: number; audio_completion: number };
  cached_ratio?: number;
  vision_quota?: number;
  search_quota?: number;
  /** Images, units, Midjourney: the per-item price and the count. */
  unit_quota?: number;
  count?: number;
}

export interface Price {
  quota: number;
  /** No price block: charged 0. The caller should log it (an admin forgot to price the model). */
  unpriced: boolean;
  detail: PriceDetail;
}

export interface ChatPrice extends Price {
  /** The text ratios, for the call log (SPEC §3 call log: prompt_ratio, completion_ratio). */
  prompt_ratio: number;
  completion_ratio: number;
}

function result(block: PriceBlock | null, method: PriceDetail['method'], base: bigint, bp: number, more: Partial<PriceDetail> = {}): Price {
  return {
    quota: toQuota(discount(base, bp)),
    unpriced: block === null,
    detail: { block, method, base_quota: toQuota(base), discount_bp: cleanBp(bp), ...more },
  };
}

const unpriced = (bp: number): Price => result(null, 'none', 0n, bp);
const isFixed = (q: { billing_method?: number }) => q.billing_method === BillingMethod.Fixed;
/** An integer-valued price (fixed quotas are integers by schema; anything else is rounded up, never down). */
const units = (q: number) => ceilSum([[1, q]]);

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

export interface PriceChatInput {
  quotas: Partial<ModelQuotas> | undefined;
  type: number;
  usage: BillableUsage;
  discountBp: number;
  extras?: ChatExtras;
}

/**
 * Chat (and completions, responses) price. Ratio: ceil(uncached × prompt_ratio + cached × cached_ratio
 * + completion × completion_ratio [+ audio terms]) where cached_ratio falls back to prompt_ratio when 0
 * (legacy TextQuota: 0 = "not set"). Fixed: the block's fixed_quota per call, replacing the token terms.
 * Vision and search extras add in both methods (they are separate prices the admin chose to set).
 */
export function priceChat({ quotas, type, usage, discountBp, extras }: PriceChatInput): ChatPrice {
  const block = chatBlock(quotas, type);
  if (!block) return { ...unpriced(discountBp), prompt_ratio: 0, completion_ratio: 0 };
  const { text, audio } = block;
  const prompt = Math.floor(clean(usage.prompt_tokens));
  const completion = Math.floor(clean(usage.completion_tokens));
  const audioIn = audio ? Math.min(prompt, Math.floor(clean(usage.audio?.prompt_tokens))) : 0;
  const audioOut = audio ? Math.min(completion, Math.floor(clean(usage.audio?.completion_tokens))) : 0;
  const cached = Math.min(prompt - audioIn, Math.floor(clean(usage.cached_tokens)));
  const uncached = prompt - audioIn - cached;
  const textOut = completion - audioOut;
  const cachedRatio = clean(text.cached_ratio) || clean(text.prompt_ratio);

  const vision = visionQuota(block.multimodal, extras?.images);
  const search = searchQuota(block.multimodal, extras?.search);
  const extra = vision + search;
  const fixed = isFixed(text);
  const base = fixed
    ? units(clean(block.fixed_quota) || clean(text.fixed_quota)) + extra
    : ceilSum([
        [uncached, text.prompt_ratio],
        [cached, cachedRatio],
        [textOut, text.completion_ratio],
        [audioIn, audio?.prompt_ratio ?? 0],
        [audioOut, audio?.completion_ratio ?? 0],
      ]) + extra;
  const price = result(block.name, fixed ? 'fixed' : 'ratio', base, discountBp, {
    tokens: { uncached_prompt: uncached, cached, completion: textOut, audio_prompt: audioIn, audio_completion: audioOut },
    cached_ratio: cachedRatio,
    ...(vision ? { vision_quota: toQuota(vision) } : {}),
    ...(search ? { search_quota: toQuota(search) } : {}),
  });
  return { ...price, prompt_ratio: clean(text.prompt_ratio), completion_ratio: clean(text.completion_ratio) };
}

/** Per image: the row of its detail mode (absent = `auto`, the provider default), else the default row. */
function visionQuota(mm: ChatBlock['multimodal'], images: readonly (VisionMode | undefined)[] | undefined): bigint {
  const rows = mm?.vision_quotas ?? [];
  if (!images?.length || !rows.length) return 0n;
  let sum = 0n;
  for (const mode of images) {
    const row = rows.find((r) => r.mode === (mode ?? 'auto')) ?? rows.find((r) => r.is_default);
    if (row) sum += units(row.fixed_quota);
  }
  return sum;
}

/**
 * Per search call: with a context size (OpenAI web_search_options) the matching search_quotas row, else its
 * default row, else the flat search_quota; without one (Google-style tool) the flat search_quota, else the
 * default row.
 */
function searchQuota(mm: ChatBlock['multimodal'], search: ChatExtras['search']): bigint {
  const calls = Math.floor(clean(search?.calls));
  if (!mm || !calls) return 0n;
  const rows = mm.search_quotas ?? [];
  const byDefault = rows.find((r) => r.is_default)?.fixed_quota;
  const size: SearchContextSize | undefined = search?.context_size;
  const each = size
    ? (rows.find((r) => r.search_context_size === size)?.fixed_quota ?? byDefault ?? mm.search_quota)
    : clean(mm.search_quota) || (byDefault ?? 0);
  return units(each) * BigInt(calls);
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
    const base = ceilSum([
      [usage.text_tokens, block.text_ratio],
      [usage.image_tokens, block.input_ratio],
      [usage.cached_tokens ?? 0, clean(block.cached_ratio) || clean(block.input_ratio)],
      [usage.output_tokens, block.output_ratio],
    ]);
    return result('image_quota', 'ratio', base, discountBp);
  }
  const count = imageCount(n);
  const each = imageUnitQuota(block, size, quality);
  return result('image_quota', 'fixed', units(each) * BigInt(count), discountBp, { unit_quota: each, count });
}

export const imageCount = (n: number | undefined) => Math.max(1, Math.floor(clean(n)));

/**
 * Per-image price: the generation_quotas row with this size and quality (a row with an empty quality
 * matches any quality, after exact rows), else the is_default row, else image_quota.fixed_quota.
 */
export function imageUnitQuota(block: NonNullable<ModelQuotas['image_quota']>, size: string | undefined, quality: string | undefined): number {
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
  if (isFixed(block.text)) return result(block.name, 'fixed', units(block.text.fixed_quota), input.discountBp);
  return result(block.name, 'ratio', ceilSum([[Math.floor(clean(input.prompt_tokens)), block.text.prompt_ratio]]), input.discountBp);
}

/**
 * Text to speech (type 5): audio_quota.prompt_ratio is quota per input character (Unicode code point —
 * not UTF-8 bytes, which overcharged CJK 3×, reference §7.9). Fixed billing: fixed_quota per call.
 */
export function priceSpeech(input: { quotas: Partial<ModelQuotas> | undefined; characters: number; discountBp: number }): Price {
  return priceAudio(input.quotas, Math.floor(clean(input.characters)), input.discountBp);
}

/**
 * Speech to text (type 6): audio_quota.prompt_ratio is quota per second of input audio (fractional seconds
 * are priced exactly, then rounded up once). Fixed billing: fixed_quota per call.
 */
export function priceTranscription(input: { quotas: Partial<ModelQuotas> | undefined; seconds: number; discountBp: number }): Price {
  return priceAudio(input.quotas, clean(input.seconds), input.discountBp);
}

function priceAudio(quotas: Partial<ModelQuotas> | undefined, amount: number, bp: number): Price {
  const block = quotas?.audio_quota;
  if (!block) return unpriced(bp);
  if (isFixed(block)) return result('audio_quota', 'fixed', units(block.fixed_quota), bp);
  return result('audio_quota', 'ratio', ceilSum([[amount, block.prompt_ratio]]), bp, { count: amount });
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
  const count = clean(units);
  return result(name, 'fixed', ceilSum([[count, block.fixed_quota]]), discountBp, { unit_quota: Math.ceil(clean(block.fixed_quota)), count });
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

/** Midjourney: the per-action fixed price, matched by the proxied path first, then by action. */
export function priceMidjourney(input: { quotas: Partial<ModelQuotas> | undefined; action: string; path?: string; discountBp: number }): Price {
  const rows = input.quotas?.midjourney_quotas ?? [];
  const row = (input.path ? rows.find((r) => r.path && r.path === input.path) : undefined) ?? rows.find((r) => r.action === input.action);
  if (!row) return unpriced(input.discountBp);
  return result('midjourney_quotas', 'fixed', units(row.fixed_quota), input.discountBp, { unit_quota: row.fixed_quota, count: 1 });
}

/** The usage-source rule of a model (reference §1.12): only multimodal_quota carries one; 1 = official. */
export function billingRuleOf(quotas: Partial<ModelQuotas> | undefined): 1 | 2 {
  return quotas?.multimodal_quota?.billing_rule === 2 ? 2 : 1;
}
