// Which price blocks a model uses, and its prices as dollars for tables (docs/ORIGINAL-API.md §2.10, §3.5): ratios
// are quota units per token, shown as $ per 1M tokens (ratio × 2, as providers publish them); fixed
// quotas are units per call (or per unit), shown as $ (÷ 500000).
import { isCorpCode } from '@fastgate/core/entities/corp';
import { ModelType, type ModelTypeValue } from '@fastgate/core/entities/model';
import { BillingMethod, type ModelQuotas, type TextQuota } from '@fastgate/core/entities/model-quota';
import { quotaToUsd, ratioToUsdPer1M, usdPer1MToRatio } from '@fastgate/core/money';

/** Float noise off: 0.1 × 3 and friends come back as the number a person typed. */
const clean = (n: number) => Number(n.toPrecision(12));

/** $ per 1M tokens → ratio (what the server stores). */
export const priceToRatio = usdPer1MToRatio;
/** Ratio → $ per 1M tokens (what the form shows). */
export const ratioToPrice = ratioToUsdPer1M;

/** 200000 → "200K", 1000000 → "1M": a context threshold as providers write it. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000 && n % 100_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1_000 && n % 100 === 0) return `${n / 1_000}K`;
  return String(n);
}

/** "$0.002": up to 10 decimals, no exponent, no grouping. */
export function formatDollars(usd: number): string {
  return `$${usd.toLocaleString('en-US', { maximumFractionDigits: 10, useGrouping: false })}`;
}

export type QuotaKey = keyof ModelQuotas;

/** Midjourney's corp code switches to its own pricing block (docs/ORIGINAL-API.md §3.7). */
const isMidjourney = (code?: string) => isCorpCode(code, 'Midjourney');
/** OpenAI prices web search per search-context size; Google charges one flat search price. */
export const searchStyle = (code?: string): 'sizes' | 'flat' | undefined => (isCorpCode(code, 'OpenAI') ? 'sizes' : isCorpCode(code, 'Google') ? 'flat' : undefined);

/** The one price block a model of this type (and corp) is billed by. */
export function quotaKeyOf(type: number | undefined, corpCode?: string): QuotaKey | undefined {
  if (isMidjourney(corpCode)) return 'midjourney_quotas';
  switch (type as ModelTypeValue | undefined) {
    case ModelType.Text:
    case ModelType.ImageToText:
    case ModelType.Embedding:
    case ModelType.MultimodalEmbedding:
      return 'text_quota';
    case ModelType.TextToImage:
    case ModelType.ImageToImage:
      return 'image_quota';
    case ModelType.TextToSpeech:
    case ModelType.SpeechToText:
      return 'audio_quota';
    case ModelType.Multimodal:
      return 'multimodal_quota';
    case ModelType.MultimodalRealtime:
      return 'realtime_quota';
    case ModelType.MultimodalSpeech:
      return 'multimodal_audio_quota';
    case ModelType.DigitalHuman:
      return 'digital_human_quota';
    case ModelType.AudioClone:
      return 'audio_clone_quota';
    case ModelType.VideoSecondCreation:
      return 'video_second_creation_quota';
    default:
      return undefined;
  }
}

/** What one price is for; pages translate `label` and `per`. */
type PriceLabel =
  | 'prompt'
  | 'completion'
  | 'cached'
  | 'cacheWrite'
  | 'cacheWrite1h'
  | 'fixed'
  | 'text'
  | 'input'
  | 'output'
  | 'image'
  | 'vision'
  | 'search'
  | 'audioPrompt'
  | 'audioCompletion'
  | 'midjourney'
  | 'unit';
type PricePer = '1m' | 'call' | 'image' | 'search' | 'second' | 'minute' | 'character';

export interface PriceLine {
  label: PriceLabel;
  usd: number;
  per: PricePer;
  /** Rows of a price table beside the one shown (other sizes, modes, actions). */
  more?: number;
  /** What the row is: a size, a mode or an action. */
  detail?: string;
  /** A context tier's price: the prompt length above which it applies. */
  above?: number;
}

const perM = (label: PriceLabel, ratio: number | undefined): PriceLine => ({ label, usd: ratioToPrice(ratio ?? 0), per: '1m' });
const perCall = (label: PriceLabel, quota: number | undefined, per: PricePer = 'call'): PriceLine => ({ label, usd: quotaToUsd(quota ?? 0), per });

/** The prices set in a block (or a context tier of it): prompt and completion always, the others when set. */
function tokenLines(q: Partial<Omit<TextQuota, 'tiers'>>, prefix: 'text' | 'audio', above?: number): PriceLine[] {
  const lines = [perM(prefix === 'audio' ? 'audioPrompt' : 'prompt', q.prompt_ratio), perM(prefix === 'audio' ? 'audioCompletion' : 'completion', q.completion_ratio)];
  if (q.cached_ratio) lines.push(perM('cached', q.cached_ratio));
  if (q.cache_write_ratio) lines.push(perM('cacheWrite', q.cache_write_ratio));
  if (q.cache_write_1h_ratio) lines.push(perM('cacheWrite1h', q.cache_write_1h_ratio));
  return above === undefined ? lines : lines.filter((l) => l.usd).map((l) => ({ ...l, above }));
}

function textLines(q: Partial<TextQuota> | undefined, prefix: 'text' | 'audio' = 'text'): PriceLine[] {
  if (!q) return [];
  if (q.billing_method === BillingMethod.Fixed) return [perCall('fixed', q.fixed_quota)];
  const tiers = [...(q.tiers ?? [])].sort((a, b) => a.above_tokens - b.above_tokens);
  return [...tokenLines(q, prefix), ...tiers.flatMap((tier) => tokenLines(tier, prefix, tier.above_tokens))];
}

/** The row marked default, else the first; with how many others the table holds. */
function pick<R extends { is_default?: boolean }>(rows: readonly R[] | undefined): { row: R; more: number } | undefined {
  if (!rows?.length) return undefined;
  return { row: rows.find((r) => r.is_default) ?? rows[0]!, more: rows.length - 1 };
}

/** Every price a model shows in a table, in dollars, for the block its type (and corp) uses. */
export function priceLines(m: ModelQuotas & { type: number; corp_code?: string }): PriceLine[] {
  const key = quotaKeyOf(m.type, m.corp_code);
  switch (key) {
    case 'text_quota':
    case 'audio_quota':
      return textLines(m[key]);
    case 'image_quota': {
      const q = m.image_quota;
      if (!q) return [];
      if (q.billing_method === BillingMethod.Fixed) {
        const p = pick(q.generation_quotas);
        if (!p) return [perCall('image', q.fixed_quota, 'image')];
        const size = [p.row.quality, p.row.width && p.row.height ? `${p.row.width}×${p.row.height}` : ''].filter(Boolean).join(' ');
        return [{ ...perCall('image', p.row.fixed_quota, 'image'), more: p.more, detail: size }];
      }
      return [perM('text', q.text_ratio), perM('input', q.input_ratio), perM('output', q.output_ratio), ...(q.cached_ratio ? [perM('cached', q.cached_ratio)] : [])];
    }
    case 'multimodal_quota': {
      const q = m.multimodal_quota;
      if (!q) return [];
      const lines = textLines(q.text_quota);
      const vision = pick(q.vision_quotas);
      if (vision) lines.push({ ...perCall('vision', vision.row.fixed_quota, 'image'), more: vision.more, detail: vision.row.mode });
      const search = pick(q.search_quotas);
      if (search) lines.push({ ...perCall('search', search.row.fixed_quota, 'search'), more: search.more, detail: search.row.search_context_size });
      else if (q.search_quota) lines.push(perCall('search', q.search_quota, 'search'));
      return lines;
    }
    case 'realtime_quota':
    case 'multimodal_audio_quota': {
      const q = m[key];
      if (!q) return [];
      const lines = [...textLines(q.text_quota), ...textLines(q.audio_quota, 'audio')];
      if (q.fixed_quota) lines.push(perCall('fixed', q.fixed_quota));
      return lines;
    }
    case 'midjourney_quotas': {
      const p = pick(m.midjourney_quotas?.map((r) => ({ ...r, is_default: r.action === 'IMAGINE' })));
      return p ? [{ ...perCall('midjourney', p.row.fixed_quota), more: p.more, detail: p.row.name || p.row.action }] : [];
    }
    case 'digital_human_quota':
    case 'audio_clone_quota':
    case 'video_second_creation_quota': {
      const q = m[key];
      return q ? [perCall('unit', q.fixed_quota, q.unit)] : [];
    }
    default:
      return [];
  }
}

/** The same prices after a group discount (a fraction, 1 = full price). */
export function discounted(lines: readonly PriceLine[], discount: number): PriceLine[] {
  return lines.map((l) => ({ ...l, usd: clean(l.usd * discount) }));
}
