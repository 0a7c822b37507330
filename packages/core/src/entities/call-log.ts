// Call logs (docs/SPEC.md §2.4 log screens, §3.12 call-log fields; docs/ORIGINAL-API.md §1.6, §3.14): one row per upstream
// attempt; a request's attempts share a trace id. Money is always quota units on our wire.
import { z } from 'zod';
import { dateRangeFilter, idField, pageSchema } from '../schemas/common';
import { numberish } from '../schemas/encodings';
import { idListField, ownerIdFilter } from '../schemas/usage-limits';
import { quotaToUsd, ratioToUsdPer1M } from '../money';
import { ModelType } from './model';

/** The six log screens and the model types each one shows. */
export const LOG_KINDS = ['chat', 'image', 'audio', 'virtualman', 'audioclone', 'videosecondcreation'] as const;
export type LogKind = (typeof LOG_KINDS)[number];
export const LOG_KIND_TYPES: Record<LogKind, readonly number[]> = {
  chat: [ModelType.Text, ModelType.ImageToText, ModelType.Embedding, ModelType.Multimodal, ModelType.MultimodalRealtime, ModelType.MultimodalSpeech, ModelType.MultimodalEmbedding],
  image: [ModelType.TextToImage, ModelType.ImageToImage],
  audio: [ModelType.TextToSpeech, ModelType.SpeechToText],
  virtualman: [ModelType.DigitalHuman],
  audioclone: [ModelType.AudioClone],
  videosecondcreation: [ModelType.VideoSecondCreation],
};

/** `/log/<kind>/page|detail|copy/field|export|batch/operate` (export and batch for every kind; batch admin only). */
export const logPath = (kind: LogKind, verb: 'page' | 'detail' | 'copy/field' | 'export' | 'batch/operate') => `/log/${kind}/${verb}`;

export { LogStatus } from './log-status';
export const LOG_STATUSES = [1, 2, 3, -1] as const;
/** Also as text, "" when cleared, as the original console sends it (schemas/encodings.ts). */
const logStatusFilter = numberish(z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(-1), z.literal(-100)]).optional()).transform((v) => (v === 0 ? undefined : v));

/** "YYYY-MM-DD HH:mm:ss" pair (a bare date is accepted: whole days). */
const reqTimeRange = dateRangeFilter;

export const logFilterSchema = z.object({
  trace_id: z.string().trim().max(64).optional(),
  user_id: ownerIdFilter,
  app_id: ownerIdFilter,
  /** An app key: the full key matches exactly; a fragment matches the masked form. */
  key: z.string().trim().max(200).optional(),
  /** Model names (exact). */
  models: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  /** Model agent ids (admin only; ignored for others). */
  model_agents: idListField.optional(),
  /** Total time at least this many ms. */
  total_time: z.coerce.number().int().min(0).max(86_400_000).optional(),
  status: logStatusFilter,
  req_time: reqTimeRange,
});
export type LogFilter = z.infer<typeof logFilterSchema>;

export const logPageSchema = pageSchema.extend(logFilterSchema.shape);

/**
 * Export: `ids` win; otherwise the filter applies and, for the chat log (docs/SPEC.md §2.4), both ends of
 * `req_time` and a result (`status`) are required. Ranges longer than the statistics query limit's
 * days (see LOG_EXPORT_MAX_DAYS) are refused.
 */
export const logExportSchema = logFilterSchema.extend({ ids: idListField.optional() });
export const LOG_EXPORT_MAX_DAYS = 93;

/** docs/ORIGINAL-API.md §2.9: export file names per kind, Chinese whatever the UI language. */
export const LOG_EXPORT_FILES: Record<LogKind, string> = {
  chat: '聊天日志.xlsx',
  image: '绘图日志.xlsx',
  audio: '音频日志.xlsx',
  virtualman: '数字人日志.xlsx',
  audioclone: '声音克隆日志.xlsx',
  videosecondcreation: '视频二创日志.xlsx',
};

/** Admin batch: `delete` + ids, or `time` + value [from, to] (+ user_id, status list). */
export const logBatchSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('delete'), ids: idListField.min(1) }),
  z.object({
    action: z.literal('time'),
    value: z.array(z.string().max(19)).length(2),
    user_id: ownerIdFilter,
    status: z.array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(-1)])).max(4).optional(),
  }),
]);
export type LogBatchInput = z.infer<typeof logBatchSchema>;

/** `copy/field`: `creator` is the app key (owner, its reseller, admins); `key` the provider key (admin). */
export const logCopyFieldSchema = z.object({ id: idField, field: z.enum(['key', 'creator']) });

/** A list row (docs/ORIGINAL-API.md §3.14 trimmed row; our names per docs/SPEC.md §3.12). */
export interface CallLogRow {
  id: string;
  trace_id: string;
  user_id: number;
  app_id: number;
  corp: string;
  corp_name: string;
  model: string;
  type: number;
  stream: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  /** The charge in quota units, as the original console reads it (docs/SPEC.md §3.12.1); the same as total_price. */
  total_tokens: number;
  /** prompt + completion tokens. */
  token_count: number;
  /** Charge in quota units. */
  total_price: number;
  conn_time: number;
  duration: number;
  total_time: number;
  /** "YYYY-MM-DD HH:mm:ss". */
  req_time: string;
  status: number;
  /** Masked app key. */
  creator: string;
  /** Admin only. */
  internal_time?: number;
  is_smart_match?: boolean;
  model_agent_name?: string;
  real_model?: string;
}

/**
 * What one priced quantity of a call is for. Token kinds split the usage so nothing counts twice: input +
 * cached_input + cache writes (+ audio_input) = prompt tokens, output + reasoning (+ audio_output) =
 * completion tokens. image_input is a per-image (vision) price, or image tokens of token-priced image
 * models; request is a per-call fee; unit a per-unit price (seconds, minutes, characters of task models).
 */
export const LINE_KINDS = [
  'input', 'cached_input', 'cache_write_5m', 'cache_write_1h', 'output', 'reasoning', 'audio_input', 'audio_output', 'image_input', 'image_output', 'search', 'request', 'unit',
] as const;
export type LineKind = (typeof LINE_KINDS)[number];
export const LINE_UNITS = ['token', 'image', 'search', 'call', 'character', 'second', 'minute'] as const;
export type LineUnit = (typeof LINE_UNITS)[number];

/** One line of a call's price: quantity × unit price, before the call's single rounding up and its discount. */
export interface LineItem {
  kind: LineKind;
  unit: LineUnit;
  quantity: number;
  /** Quota units per unit (a token ratio, or a fixed quota per image, search or call). */
  unit_price: number;
  /** quantity × unit_price in quota units, to 9 decimals (may be fractional; the charge sums them exactly). */
  quota: number;
  /** The context tier that priced it: its `above_tokens`. */
  tier?: number;
  /** Which row of a price table: a vision mode, a search context size. */
  detail?: string;
}

/** A line item's unit price in dollars: per 1M tokens for token lines, else per unit. */
export function unitPriceUsd(item: Pick<LineItem, 'unit' | 'unit_price'>): number {
  return item.unit === 'token' ? ratioToUsdPer1M(item.unit_price) : quotaToUsd(item.unit_price);
}

/**
 * How the charge came about: the line items (logs written before they were kept have none: then
 * (prompt × prompt_ratio + completion × completion_ratio) × discount), summed, rounded up once, discounted.
 */
export interface SpendBreakdown {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  prompt_ratio: number;
  completion_ratio: number;
  /** Fraction, e.g. 0.8. */
  discount: number;
  total_price: number;
  line_items: LineItem[];
}

export interface CallLogAttempt {
  id: string;
  attempt: number;
  status: number;
  model: string;
  real_model: string;
  conn_time: number;
  duration: number;
  total_time: number;
  total_price: number;
  err_msg: string;
  /** Admin only. */
  model_agent_name?: string;
  key?: string;
}

/** The original's `text_quota` (docs/SPEC.md §3.12.1): 1 = by tokens (ratios per token), 2 = per call (fixed_quota). */
export interface TextQuota {
  billing_method: 1 | 2;
  prompt_ratio: number;
  completion_ratio: number;
  cached_ratio: number;
  fixed_quota: number;
}

export interface CallLogDetail extends CallLogRow {
  /** The original console's detail fields (docs/SPEC.md §3.12.1): host is not recorded (''); search_tokens counts searches. */
  text_quota: TextQuota;
  multimodal_quota: { text_quota: TextQuota; vision_quotas: [] };
  host: string;
  search_tokens: number;
  cache_write_tokens: number;
  cache_hit_tokens: number;
  /** Admin only ('' / null for others). */
  real_model_name: string;
  model_agent: { id: string; name: string; corp?: string; base_url?: string; path?: string; weight?: number; lb_strategy?: number; status?: number } | null;
  app_key_id: string;
  group_id: string;
  group_name: string;
  discount: number;
  endpoint: string;
  /** The request messages (JSON-decoded when kept), the prompt and completion texts. */
  messages: unknown;
  prompt: string;
  completion: string;
  cached_tokens: number;
  prompt_ratio: number;
  completion_ratio: number;
  spend: SpendBreakdown;
  retry: { is_retry: boolean; retry_count: number; err_msg: string };
  client_ip: string;
  err_msg: string;
  created_at: string;
  /** Every attempt of the same trace, in order (this one included). */
  attempts: CallLogAttempt[];
  /** Admin only. */
  model_id?: string;
  name?: string;
  key?: string;
  is_enable_model_agent?: boolean;
  model_agent_id?: string;
  real_model_id?: string;
  remote_ip?: string;
}

/** `POST /dashboard/per/second` and `/per/minute` take the log filter. */
export interface PerSecond { rps: number; tps: number }
export interface PerMinute { rpm: number; tpm: number }
