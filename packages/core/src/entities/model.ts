// Model: what clients ask the gateway for, its prices and its routing (docs/ORIGINAL-API.md §3.5, docs/SPEC.md §3.4, §4.5).
import { z } from 'zod';
import { boolField, intField, numberish } from '../schemas/encodings';
import { INT4_MAX, dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { forwardColumn, forwardConfigFields, forwardWhenEnabled, ForwardRule, idList, lbStrategyField, LbStrategy, type ForwardConfigWire } from './catalogue';
import { modelQuotasSchema, QUOTA_KEYS, type ModelQuotas } from './model-quota';
import { defineResource, flag, json, parseJson, type Fields, type StoredColumns } from '../resource';
import type { UpstreamWire } from '../protocols';

export const MODEL_PREFIX = '/model';

/** docs/SPEC.md §4.5 and docs/ORIGINAL-API.md §3.5. */
export const ModelType = {
  Text: 1,
  TextToImage: 2,
  ImageToText: 3,
  ImageToImage: 4,
  TextToSpeech: 5,
  SpeechToText: 6,
  Embedding: 7,
  Multimodal: 100,
  MultimodalRealtime: 101,
  MultimodalSpeech: 102,
  MultimodalEmbedding: 103,
  DigitalHuman: 1000,
  AudioClone: 1001,
  VideoSecondCreation: 1002,
} as const;
export type ModelTypeValue = (typeof ModelType)[keyof typeof ModelType];
export const MODEL_TYPES = Object.values(ModelType) as ModelTypeValue[];

/** Picker labels (the model tree's middle level uses them too). */
export const MODEL_TYPE_LABELS: Record<ModelTypeValue, { 'zh-CN': string; 'en-US': string }> = {
  1: { 'zh-CN': '文生文', 'en-US': 'Text to text' },
  2: { 'zh-CN': '文生图', 'en-US': 'Text to image' },
  3: { 'zh-CN': '图生文', 'en-US': 'Image to text' },
  4: { 'zh-CN': '图生图', 'en-US': 'Image to image' },
  5: { 'zh-CN': '文生语音', 'en-US': 'Text to speech' },
  6: { 'zh-CN': '语音生文', 'en-US': 'Speech to text' },
  7: { 'zh-CN': '向量', 'en-US': 'Embedding' },
  100: { 'zh-CN': '多模态', 'en-US': 'Multimodal' },
  101: { 'zh-CN': '多模态实时', 'en-US': 'Multimodal realtime' },
  102: { 'zh-CN': '多模态语音', 'en-US': 'Multimodal speech' },
  103: { 'zh-CN': '多模态向量', 'en-US': 'Multimodal embedding' },
  1000: { 'zh-CN': '数字人', 'en-US': 'Digital human' },
  1001: { 'zh-CN': '声音克隆', 'en-US': 'Audio clone' },
  1002: { 'zh-CN': '视频二创', 'en-US': 'Video second creation' },
};

/** Request and response body format: 1 the gateway's unified (OpenAI) shape, 2 the vendor's own. */
export const DataFormat = { Unified: 1, Official: 2 } as const;

const modelTypeField = numberish(z.union(MODEL_TYPES.map((t) => z.literal(t)) as unknown as [z.ZodLiteral<ModelTypeValue>, z.ZodLiteral<ModelTypeValue>]));
const dataFormatField = numberish(z.union([z.literal(DataFormat.Unified), z.literal(DataFormat.Official)])).default(DataFormat.Unified);

export const presetConfigSchema = z.object({
  is_support_system_role: boolField.default(true),
  system_role_prompt: z.string().max(20_000).default(''),
  min_tokens: intField(0, 10_000_000).default(0),
  max_tokens: intField(0, 10_000_000).default(0),
  is_support_stream: boolField.default(true),
});
export type PresetConfig = z.infer<typeof presetConfigSchema>;

const fallbackConfigSchema = z.object({ model_agent: z.string().trim().max(32).default(''), model: z.string().trim().max(32).default('') });
export type FallbackConfig = z.infer<typeof fallbackConfigSchema>;
const noFallback = (): FallbackConfig => ({ model_agent: '', model: '' });

/** Token counts a model declares: up to 100M; 0 = not declared. */
const tokenCount = intField(0, 100_000_000).default(0);

/** Models forward by rules 1–3; rule 4 (used quota) belongs to groups. */
const modelForwardSchema = forwardConfigFields.refine((f) => f.forward_rule !== ForwardRule.UsedQuota, { path: ['forward_rule'], message: '1 | 2 | 3' });

const modelBase = z
  .object({
    corp: idField,
    name: name100,
    /** Upstream model id; may contain `*` (a regex catch-all, docs/ORIGINAL-GATEWAY.md §1.3). */
    model: name100,
    type: modelTypeField,
    base_url: z.string().trim().max(500).default(''),
    path: z.string().trim().max(300).default(''),
    remark: remarkField.default(''),
    request_data_format: dataFormatField,
    response_data_format: dataFormatField,
    is_public: boolField.default(false),
    groups: idList,
    is_enable_preset_config: boolField.default(false),
    preset_config: presetConfigSchema.default(presetConfigSchema.parse({})),
    is_enable_model_agent: boolField.default(false),
    lb_strategy: lbStrategyField.default(LbStrategy.RoundRobin),
    model_agents: idList,
    is_enable_forward: boolField.default(false),
    forward_config: modelForwardSchema.optional(),
    is_enable_fallback: boolField.default(false),
    fallback_config: fallbackConfigSchema.default(noFallback),
    /** The model's context window and output limit in tokens: listed on `/v1/models`; the output limit bounds a call's reservation when the call sets none. */
    context_window: tokenCount,
    max_output_tokens: tokenCount,
    status: statusField.default(1),
  })
  .extend(modelQuotasSchema.shape);

/**
 * The model resource. Group and agent links are kept on the groups and agents (catalogue/links.ts);
 * the price blocks are packed into one `quotas` column.
 */
export const modelResource = defineResource({
  prefix: MODEL_PREFIX,
  fields: modelBase,
  columns: {
    is_public: flag,
    is_enable_preset_config: flag,
    preset_config: json(() => presetConfigSchema.parse({})),
    is_enable_model_agent: flag,
    is_enable_forward: flag,
    forward_config: forwardColumn,
    is_enable_fallback: flag,
    fallback_config: json(noFallback),
  },
  virtual: ['groups', 'model_agents', ...QUOTA_KEYS],
});
export type ModelFields = Fields<typeof modelResource>;

/** The price blocks, packed into the `quotas` column: only the blocks a model has. */
export const quotasColumn = {
  encode: (m: Partial<ModelQuotas>): string => JSON.stringify(Object.fromEntries(QUOTA_KEYS.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]))),
  decode: (text: string): ModelQuotas => parseJson<ModelQuotas>(text, {}),
};

/** Switched-on forwarding and fallback need their settings; an output limit fits in the context window. */
const complete = <S extends z.ZodType<z.infer<typeof modelBase>>>(s: S) =>
  forwardWhenEnabled(s)
    .refine((m) => !m.is_enable_forward || m.forward_config, { path: ['forward_config'], message: 'required' })
    .refine((m) => !m.is_enable_fallback || m.fallback_config.model_agent || m.fallback_config.model, { path: ['fallback_config'], message: 'required' })
    .refine((m) => !m.context_window || m.max_output_tokens <= m.context_window, { path: ['max_output_tokens'], message: '≤ context_window' });

export const modelCreateSchema = complete(modelBase);
export type ModelCreate = z.infer<typeof modelCreateSchema>;
export const modelUpdateSchema = complete(modelBase.extend({ id: idField }));

export const modelPageSchema = pageSchema.extend({
  corp: z.string().trim().max(32).optional(),
  name: textFilter,
  model: textFilter,
  type: numberish(z.union([z.literal(0), modelTypeField]).optional()),
  /** Admin only: models in this group. */
  group: z.string().trim().max(32).optional(),
  remark: textFilter,
  status: statusFilter,
  created_at: dateRangeFilter,
});

/** `POST /model/permissions`: the models granted to one record (docs/ORIGINAL-API.md §3.5). */
const MODEL_PERMISSION_ACTIONS = ['user', 'app', 'key', 'agent', 'fallback', 'group'] as const;
export const modelPermissionsSchema = z.object({
  id: z.union([idField, intField(1, INT4_MAX).transform(String)]),
  action: z.enum(MODEL_PERMISSION_ACTIONS),
  corp: z.string().trim().max(32).optional(),
  name: textFilter,
  model: textFilter,
  type: numberish(z.union([z.literal(0), modelTypeField]).optional()),
  status: statusFilter,
});

/** Batch actions beside status/delete (docs/ORIGINAL-API.md §2.8): value true/false, or "all" with the settings. */
export const modelBatchAgentSchema = z.object({ lb_strategy: lbStrategyField.default(LbStrategy.RoundRobin), model_agents: idList });
export const modelBatchForwardSchema = z.object({ target_model: idField });
export const modelBatchFallbackSchema = z.object({ fallback_config: fallbackConfigSchema.refine((f) => f.model_agent || f.model, 'required') });

/** A row of `GET /model/list` and of permissions results. */
export type ModelListItem = { id: string } & Pick<StoredColumns<typeof modelResource>, 'corp' | 'name' | 'model' | 'type' | 'status'>;

/** The fields every caller of a model sees; the rest (endpoint, routing, groups) are the admin's. */
export const MODEL_PUBLIC_FIELDS = ['corp', 'name', 'model', 'type', 'request_data_format', 'response_data_format', 'context_window', 'max_output_tokens', 'status'] as const;

/** What every view of a model shows: those fields, its prices, the corp's name and code, and the record times. */
type ModelCommon = ModelListItem &
  Pick<ModelFields, (typeof MODEL_PUBLIC_FIELDS)[number] | (typeof QUOTA_KEYS)[number]> & {
    corp_name: string;
    corp_code: string;
    created_at: string;
    updated_at: string;
  };

/** The admin's view: every field, with the names of the records it refers to. */
export type Model = ModelCommon &
  Omit<ModelFields, 'forward_config' | 'fallback_config'> & {
    group_names: string[];
    model_agent_names: string[];
    /** What its upstreams speak (each serving agent's, or its own endpoint's): the protocol matrix's input. */
    upstream_wires: UpstreamWire[];
    forward_config: ForwardConfigWire | null;
    fallback_config: FallbackConfig & { model_agent_name: string; model_name: string };
  };

/**
 * "My model" (reseller, user): what the account may call, with the discount of the group the gateway
 * would bill it through (1 = full price when no group applies). Routing internals are withheld.
 */
export type MyModel = ModelCommon & {
  group: string;
  group_name: string;
  discount: number;
};

export interface ModelTreeNode {
  title: string;
  value: string;
  key: string;
  children?: ModelTreeNode[];
}
