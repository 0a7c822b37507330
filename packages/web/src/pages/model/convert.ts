// The model form's values ⇄ the wire (docs/ORIGINAL-API.md §3.5, §5.9). The form holds every price block with its
// `*_ratio` fields as `*_price` in $ per 1M tokens; the body carries ratios (× 0.5) and only the block
// the model's type (or its Midjourney corp) uses. Forward keywords are rows of keyword → target model.
import { ForwardRule, MatchRule, forwardConfigSchema, type ForwardConfig, type ForwardConfigWire } from '@fastgate/core/entities/catalogue';
import { ModelType, modelResource, type Model, type ModelFields } from '@fastgate/core/entities/model';
import { BillingMethod, BillingRule, QUOTA_KEYS, type ModelQuotas } from '@fastgate/core/entities/model-quota';
import type { z } from 'zod';
import type { modelCreateSchema } from '@fastgate/core/entities/model';
import { priceToRatio, quotaKeyOf, ratioToPrice, type QuotaKey } from '../../components/price/pricing';

/** A quota block as the form holds it: each `x_ratio` becomes `x_price` ($ / 1M tokens), numbers may be empty. */
export type Priced<T> = T extends readonly (infer U)[]
  ? Priced<U>[]
  : T extends object
    ? { [K in keyof T as K extends `${infer P}_ratio` ? `${P}_price` : K]?: Priced<T[K]> }
    : T;

type PricedQuotas = { [K in QuotaKey]: Priced<NonNullable<ModelQuotas[K]>> };

interface KeywordRow {
  /** One keyword; `|` inside it reads "or" (docs/ORIGINAL-GATEWAY.md §1.4). */
  keyword?: string;
  target_model?: string;
}

/** Rule "all" forwards to one fixed model or round-robins over several. */
export type AllMode = 'fixed' | 'round_robin';

export interface ForwardValues {
  forward_rule: ForwardConfig['forward_rule'];
  all_mode: AllMode;
  target_model?: string;
  target_models?: string[];
  match_rule: number[];
  decision_model?: string;
  rows: KeywordRow[];
  content_length?: number;
}

/**
 * The form's values: the model's fields as declared (core entities/model.ts), except the price blocks
 * (priced, above), forwarding (rows, above) and fallback (cleared ids as undefined for the pickers). A new
 * plain field needs no change here.
 */
type Converted = QuotaKey | 'forward_config' | 'fallback_config';
/** Fields a new model's form starts without. */
type Required = 'corp' | 'name' | 'model' | 'type' | 'base_url' | 'path' | 'remark';
export type ModelFormValues = PricedQuotas &
  Partial<Pick<ModelFields, Required>> &
  Omit<ModelFields, Converted | Required> & {
    forward: ForwardValues;
    fallback_config: { model_agent?: string; model?: string };
  };

/** What the API takes (defaults filled server-side by the same core schema). */
export type ModelBody = z.input<typeof modelCreateSchema>;

const RATIO = /_ratio$/;
const PRICE = /_price$/;

/** Renames `from` keys to `to` keys at any depth, converting their numbers; cleared inputs (null) are dropped. */
function mapKeys(value: unknown, from: RegExp, to: string, convert: (n: number) => number): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, from, to, convert));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => (from.test(k) ? [k.replace(from, to), typeof v === 'number' ? convert(v) : v] : [k, mapKeys(v, from, to, convert)])),
  );
}

export const ratiosToPrices = <T>(block: T): Priced<T> => mapKeys(block, RATIO, '_price', ratioToPrice) as Priced<T>;
export const pricesToRatios = <T>(block: Priced<T>): T => mapKeys(block, PRICE, '_ratio', priceToRatio) as T;

/** Blank blocks of a new model: billing methods chosen, prices left for the admin to enter. */
function emptyQuotas(): PricedQuotas {
  const text = () => ({ billing_method: BillingMethod.Ratio });
  return {
    text_quota: text(),
    image_quota: { billing_method: BillingMethod.Fixed, generation_quotas: [{ quality: 'standard', width: 1024, height: 1024, is_default: true }] },
    audio_quota: text(),
    multimodal_quota: { billing_rule: BillingRule.Official, text_quota: text(), vision_quotas: [], search_quotas: [] },
    realtime_quota: { text_quota: text(), audio_quota: text() },
    multimodal_audio_quota: { text_quota: text(), audio_quota: text() },
    midjourney_quotas: [],
    digital_human_quota: { unit: 'second' },
    audio_clone_quota: { unit: 'call' },
    video_second_creation_quota: { unit: 'second' },
  };
}

function emptyForward(): ForwardValues {
  return { forward_rule: ForwardRule.All, all_mode: 'fixed', target_models: [], match_rule: [MatchRule.Regex], rows: [{}] };
}

/** Starting values of the create form: the declared defaults. */
export function newModelValues(): ModelFormValues {
  const { fallback_config: _fallback, ...defaults } = modelResource.defaults();
  return { ...emptyQuotas(), ...defaults, type: ModelType.Text, forward: emptyForward(), fallback_config: {} };
}

const orUndefined = (id: string | undefined) => id || undefined;

export function forwardToValues(f: ForwardConfigWire | ForwardConfig | null | undefined): ForwardValues {
  if (!f) return emptyForward();
  const keywords = f.forward_rule === ForwardRule.Keywords;
  return {
    forward_rule: f.forward_rule,
    all_mode: f.forward_rule === ForwardRule.All && !f.target_model && f.target_models.length ? 'round_robin' : 'fixed',
    target_model: orUndefined(f.target_model),
    target_models: keywords ? [] : f.target_models,
    match_rule: f.match_rule.length ? f.match_rule : [MatchRule.Regex],
    decision_model: orUndefined(f.decision_model),
    rows: keywords && f.keywords.length ? f.keywords.map((keyword, i) => ({ keyword, target_model: orUndefined(f.target_models[i]) })) : [{}],
    content_length: f.content_length || undefined,
  };
}

/** Only what the chosen rule uses; the rest is cleared so a switched rule leaves nothing stale behind. */
export function forwardToBody(f: ForwardValues): ForwardConfig {
  const rule = f.forward_rule;
  const rows = rule === ForwardRule.Keywords ? f.rows.filter((r) => r.keyword?.trim() || r.target_model) : [];
  const roundRobin = rule === ForwardRule.All && f.all_mode === 'round_robin';
  const matchRule = rule === ForwardRule.Keywords ? [...f.match_rule].sort() : [];
  return {
    forward_rule: rule,
    match_rule: matchRule as ForwardConfig['match_rule'],
    target_model: rule === ForwardRule.ContentLength || (rule === ForwardRule.All && !roundRobin) ? (f.target_model ?? '') : '',
    decision_model: matchRule.includes(MatchRule.Smart) ? (f.decision_model ?? '') : '',
    target_models: rule === ForwardRule.Keywords ? rows.map((r) => r.target_model ?? '') : roundRobin ? (f.target_models ?? []) : [],
    keywords: rows.map((r) => r.keyword?.trim() ?? ''),
    content_length: rule === ForwardRule.ContentLength ? (f.content_length ?? 0) : 0,
    used_quota: 0,
  };
}

/** A detail row → form values (ratios shown as $ / 1M; absent blocks blank). */
export function toFormValues(m: Model): ModelFormValues {
  const blank = emptyQuotas();
  const quotas = Object.fromEntries(QUOTA_KEYS.map((k) => [k, m[k] !== undefined ? ratiosToPrices(m[k]) : blank[k]])) as PricedQuotas;
  const { forward_config, fallback_config, ...fields } = modelResource.pick(m);
  const defaults = modelResource.defaults();
  return {
    ...defaults,
    ...fields,
    ...quotas,
    preset_config: { ...defaults.preset_config, ...fields.preset_config },
    forward: forwardToValues(forward_config),
    fallback_config: { model_agent: orUndefined(fallback_config?.model_agent), model: orUndefined(fallback_config?.model) },
  };
}

/** Form values → create/update body; `corpCode` decides whether Midjourney prices apply. */
export function toRequestBody(v: ModelFormValues, corpCode?: string): ModelBody {
  const key = quotaKeyOf(v.type, corpCode);
  const forward = forwardToBody(v.forward);
  // Switched off, forwarding keeps its settings when they are complete (so switching back on restores them).
  const keepForward = v.is_enable_forward || forwardConfigSchema.safeParse(forward).success;
  const { fallback_config, ...fields } = modelResource.pick(v);
  const body: ModelBody = {
    ...Object.fromEntries(Object.entries(fields).filter(([k]) => !QUOTA_KEYS.includes(k as QuotaKey))),
    corp: v.corp ?? '',
    name: v.name?.trim() ?? '',
    model: v.model?.trim() ?? '',
    type: v.type ?? ModelType.Text,
    forward_config: keepForward ? forward : undefined,
    fallback_config: { model_agent: fallback_config?.model_agent ?? '', model: fallback_config?.model ?? '' },
  };
  if (key) (body as Record<string, unknown>)[key] = pricesToRatios(v[key]);
  return body;
}
