// A model's prices (docs/ORIGINAL-API.md §3.5, docs/SPEC.md §3.4). Ratios are quota units per token: the console enters $/1M
// tokens and sends price × 0.5 (500000 units = $1); the server stores ratios. Fixed quotas are integer units
// per call (or per unit where a block says so). All blocks live in models.quotas and are flat on the wire.
import { z } from 'zod';
import { boolField, decimalField, intField, numberish } from '../schemas/encodings';
import { quotaField } from '../schemas/usage-limits';

/** 1 ratio (per token), 2 fixed quota (per call). */
export const BillingMethod = { Ratio: 1, Fixed: 2 } as const;
/** Multimodal billing: 1 by the official usage, 2 by the system's own counting. */
export const BillingRule = { Official: 1, System: 2 } as const;

const ratioValue = decimalField(0, 1_000_000_000);
const optionalRatio = ratioValue.optional();
const ratio = ratioValue.default(0);
const fixed = quotaField.default(0);
const billingMethod = numberish(z.union([z.literal(BillingMethod.Ratio), z.literal(BillingMethod.Fixed)])).default(BillingMethod.Ratio);

/** At most one `is_default` row in a price table. */
const oneDefault = <T extends { is_default: boolean }>(rows: T[]) => rows.filter((r) => r.is_default).length <= 1;
const table = <S extends z.ZodType<{ is_default: boolean }>>(row: S) => z.array(row).max(200).default([]).refine(oneDefault, 'only one default');

/**
 * A context-length tier (Claude's and Gemini's long-context prices): a call whose prompt (cache reads and
 * writes included) is longer than `above_tokens` is priced wholly by the highest tier it passes. A ratio
 * left at 0 keeps the block's own; the block's fallbacks (cached → prompt, …) then apply as usual.
 */
const contextTierSchema = z.object({
  above_tokens: intField(1, 100_000_000),
  prompt_ratio: ratio,
  completion_ratio: ratio,
  cached_ratio: ratio,
  cache_write_ratio: ratio,
  cache_write_1h_ratio: ratio,
});
export type ContextTier = z.infer<typeof contextTierSchema>;
const distinctThresholds = (tiers: ContextTier[]) => new Set(tiers.map((t) => t.above_tokens)).size === tiers.length;

/**
 * Token prices. `cached_ratio` prices prompt tokens read from the provider's cache, `cache_write_ratio` those
 * written to it (Anthropic's 5-minute writes, or the one write price of other providers) and
 * `cache_write_1h_ratio` Anthropic's 1-hour writes; 0 means "not set": cached and writes fall back to
 * prompt_ratio, 1-hour writes to cache_write_ratio. Reasoning tokens are output (completion_ratio).
 */
export const textQuotaSchema = z.object({
  billing_method: billingMethod,
  prompt_ratio: ratio,
  completion_ratio: ratio,
  cached_ratio: ratio,
  // Optional (not defaulted): blocks stored before them are read as they are, and mean "not set".
  cache_write_ratio: optionalRatio,
  cache_write_1h_ratio: optionalRatio,
  tiers: z.array(contextTierSchema).max(10).refine(distinctThresholds, 'one tier per threshold').optional(),
  fixed_quota: fixed,
});
export type TextQuota = z.infer<typeof textQuotaSchema>;

export const IMAGE_QUALITIES = ['standard', 'hd', 'low', 'medium', 'high', 'auto'] as const;
const imageQuotaSchema = z.object({
  billing_method: billingMethod,
  /** Per-image prices by quality × size. */
  generation_quotas: table(
    z.object({
      quality: z.string().trim().max(20).default(''),
      width: intField(0, 100_000),
      height: intField(0, 100_000),
      fixed_quota: fixed,
      is_default: boolField.default(false),
    }),
  ),
  text_ratio: ratio,
  input_ratio: ratio,
  output_ratio: ratio,
  cached_ratio: ratio,
  fixed_quota: fixed,
});

export const VISION_MODES = ['low', 'high', 'auto'] as const;
export const SEARCH_CONTEXT_SIZES = ['low', 'medium', 'high'] as const;
const multimodalQuotaSchema = z.object({
  billing_rule: numberish(z.union([z.literal(BillingRule.Official), z.literal(BillingRule.System)])).default(BillingRule.Official),
  text_quota: textQuotaSchema.default(textQuotaSchema.parse({})),
  vision_quotas: table(z.object({ mode: z.enum(VISION_MODES), fixed_quota: fixed, is_default: boolField.default(false) })),
  /** Flat price of one search (Google-style). */
  search_quota: fixed,
  /** Per search-context-size prices (OpenAI-style). */
  search_quotas: table(z.object({ search_context_size: z.enum(SEARCH_CONTEXT_SIZES), fixed_quota: fixed, is_default: boolField.default(false) })),
});

/** Realtime and multimodal-audio models price text and audio tokens apart. */
const mixedQuotaSchema = z.object({
  text_quota: textQuotaSchema.default(textQuotaSchema.parse({})),
  audio_quota: textQuotaSchema.default(textQuotaSchema.parse({})),
  fixed_quota: fixed,
});

export const MIDJOURNEY_ACTIONS = ['IMAGINE', 'UPSCALE', 'VARIATION', 'REROLL', 'DESCRIBE', 'BLEND', 'SHORTEN', 'INPAINT', 'ZOOM', 'PAN', 'SWAP_FACE'] as const;
const midjourneyQuotaSchema = z.object({
  name: z.string().trim().min(1).max(100),
  action: z.enum(MIDJOURNEY_ACTIONS),
  path: z.string().trim().max(300).default(''),
  fixed_quota: fixed,
});

/**
 * Digital human, audio clone and video second creation (docs/SPEC.md §3.4; never published, designed by analogy):
 * a fixed quota per unit of work, e.g. per second of generated video or per call.
 */
export const QUOTA_UNITS = ['call', 'second', 'minute', 'character'] as const;
const unitQuotaSchema = z.object({ fixed_quota: fixed, unit: z.enum(QUOTA_UNITS).default('call') });

/** Every price block a model may carry; each is optional (a model of type 1 only needs text_quota). */
export const modelQuotasSchema = z.object({
  text_quota: textQuotaSchema.optional(),
  image_quota: imageQuotaSchema.optional(),
  audio_quota: textQuotaSchema.optional(),
  multimodal_quota: multimodalQuotaSchema.optional(),
  realtime_quota: mixedQuotaSchema.optional(),
  multimodal_audio_quota: mixedQuotaSchema.optional(),
  midjourney_quotas: z.array(midjourneyQuotaSchema).max(100).optional(),
  digital_human_quota: unitQuotaSchema.optional(),
  audio_clone_quota: unitQuotaSchema.optional(),
  video_second_creation_quota: unitQuotaSchema.optional(),
});
export type ModelQuotas = z.infer<typeof modelQuotasSchema>;
export const QUOTA_KEYS = Object.keys(modelQuotasSchema.shape) as (keyof ModelQuotas)[];
