// Model agent: an upstream endpoint with its own keys, serving some models (docs/ORIGINAL-API.md §3.6, docs/SPEC.md §3.5).
import { z } from 'zod';
import { boolField } from '../schemas/encodings';
import { dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { idsFilter } from '../schemas/usage-limits';
import { defineResource, flag, ids, type Codec, type Fields } from '../resource';
import { idList, lbStrategyField, LbStrategy, weightField } from './catalogue';
import { KEY_LINE } from './provider-key';

export const MODEL_AGENT_PREFIX = '/model/agent';
/** The explicit reveal of one bound key (recorded in the audit log); detail and edit only show masks. */
export const MODEL_AGENT_KEY_REVEAL = `${MODEL_AGENT_PREFIX}/key/reveal`;

/** Newline-separated keys (docs/ORIGINAL-API.md §5.8) → the distinct non-empty lines. */
export function splitKeys(text: string): string[] {
  return [...new Set(text.split(/\r?\n/).map((k) => k.trim()).filter(Boolean))];
}

/**
 * The `key` field: several keys, one per line, each of docs/SPEC.md §5's format; "" = no keys. On update these
 * are the keys to add; a line equal to the mask of a bound key (what detail answers) keeps that key.
 */
export const providerKeysField = z
  .string()
  .max(2_000_000)
  .default('')
  .refine((text) => splitKeys(text).every((k) => KEY_LINE.test(k)), 'key.format')
  .refine((text) => splitKeys(text).length <= 5000, 'key.format');

const modelName = z.string().trim().min(1).max(100);

/**
 * The wire API an agent's upstream speaks: 'chat' (Chat Completions, the default) or 'responses' (the
 * Responses API, for OpenAI-family and Azure hosts that serve only /v1/responses). Every ingress is then
 * converted to and from it. Ignored for Anthropic and Gemini upstreams, which have their own protocol.
 */
export const WIRE_APIS = ['chat', 'responses'] as const;
export type WireApi = (typeof WIRE_APIS)[number];

/** The wire API's column: anything but 'responses' (rows older than the field) reads as 'chat'. */
const wireApiColumn: Codec<WireApi, string> = { encode: (w) => w, decode: (s) => (s === 'responses' ? 'responses' : 'chat') };

const agentBase = z.object({
  corp: idField,
  name: name100,
  base_url: z.string().trim().min(1).max(500),
  path: z.string().trim().max(300).default(''),
  wire_api: z.enum(WIRE_APIS).default('chat'),
  weight: weightField.default(1),
  models: idList,
  /** Renames on the way upstream: replace_models[i] → target_models[i] (docs/ORIGINAL-GATEWAY.md §1.5). */
  is_enable_model_replace: boolField.default(false),
  replace_models: z.array(modelName).max(500).default([]),
  target_models: z.array(modelName).max(500).default([]),
  is_never_disable: boolField.default(false),
  lb_strategy: lbStrategyField.default(LbStrategy.RoundRobin),
  key: providerKeysField,
  /** Flags given to the keys created from `key` (docs/ORIGINAL-API.md §3.6). */
  is_agents_only: boolField.default(true),
  is_never_disable_key: boolField.default(false),
  fallback_models: idList,
  remark: remarkField.default(''),
  status: statusField.default(1),
});

/**
 * The model agent resource. The keys typed into `key` and their flags are not the agent's columns: they
 * become provider_keys rows bound to it (server catalogue/agent-keys.ts).
 */
export const modelAgentResource = defineResource({
  prefix: MODEL_AGENT_PREFIX,
  fields: agentBase,
  columns: {
    wire_api: wireApiColumn,
    models: ids,
    is_enable_model_replace: flag,
    replace_models: ids,
    target_models: ids,
    is_never_disable: flag,
    fallback_models: ids,
  },
  virtual: ['key', 'is_agents_only', 'is_never_disable_key'],
});
type ModelAgentFields = Fields<typeof modelAgentResource>;

const pairs = <S extends z.ZodType<z.infer<typeof agentBase>>>(s: S) =>
  s.refine((a) => a.replace_models.length === a.target_models.length, { path: ['target_models'], message: 'one per replace_models entry' });

export const modelAgentCreateSchema = pairs(agentBase);
export type ModelAgentCreate = z.infer<typeof modelAgentCreateSchema>;
/** `key_ids`: bound keys to keep (by id, from detail's `keys`), so an edit never sends their secrets back. */
export const modelAgentUpdateSchema = pairs(agentBase.extend({ id: idField, key_ids: z.array(idField).max(5000).default([]) }));

export const modelAgentKeyRevealSchema = z.object({ id: idField, key_id: idField });

export const modelAgentPageSchema = pageSchema.extend({
  corp: z.string().trim().max(32).optional(),
  name: textFilter,
  base_url: textFilter,
  path: textFilter,
  models: idsFilter,
  remark: textFilter,
  status: statusFilter,
  created_at: dateRangeFilter,
});

/** A row of `GET /model/agent/list`. */
export type ModelAgentListItem = { id: string } & Pick<ModelAgentFields, 'corp' | 'name' | 'status'>;

export interface AgentKey {
  id: string;
  /** Masked. */
  key: string;
  status: number;
}

/** An agent on the wire: its stored fields, the names of the records it refers to, its keys' summary, its auto-disable state and times. */
export type ModelAgent = ModelAgentListItem &
  Omit<ModelAgentFields, 'key' | 'is_agents_only' | 'is_never_disable_key'> & {
    corp_name: string;
    model_names: string[];
    fallback_model_names: string[];
    /** Number of provider keys bound to the agent. */
    key_count: number;
    /** Detail only: the bound keys' masks, one per line (the full key only through MODEL_AGENT_KEY_REVEAL). */
    key?: string;
    /** Detail only: the bound keys, masked, with the ids an update keeps them by. */
    keys?: AgentKey[];
    /** Detail only: true when every bound key has the flag (so the form shows what an update keeps). */
    is_agents_only?: boolean;
    is_never_disable_key?: boolean;
    is_auto_disabled: boolean;
    auto_disabled_reason: string;
    created_at: string;
    updated_at: string;
  };
