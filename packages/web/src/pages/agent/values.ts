// Model agent form values ⇄ wire (reference §3.6): replacement pairs are edited as rows and sent as the
// two index-paired arrays. Keys (issue 11): the bound ones arrive masked with their ids and are kept by
// id (`key_ids`), so their secrets never round-trip; the textarea holds only keys to add.
import { splitKeys, type AgentKey, type ModelAgent, type WireApi } from '@fastgate/core/entities/model-agent';
import type { FormMode } from '../../components/ResourceForm';

export interface ReplacePair {
  from: string;
  to: string;
}

export interface AgentValues {
  corp: string;
  name: string;
  base_url: string;
  path?: string;
  wire_api?: WireApi;
  weight: number;
  models?: string[];
  is_enable_model_replace: boolean;
  replace_pairs?: ReplacePair[];
  is_never_disable: boolean;
  lb_strategy: number;
  /** Keys to add, one per line. */
  key?: string;
  /** Bound keys to keep (update). */
  key_ids?: string[];
  /** The bound keys as detail gave them (masked); shown, never sent. */
  bound_keys?: AgentKey[];
  is_agents_only: boolean;
  is_never_disable_key: boolean;
  fallback_models?: string[];
  remark?: string;
  status: number;
}

export function agentToValues(row: ModelAgent): Partial<AgentValues> {
  const { keys, key: _masks, ...rest } = row;
  return {
    ...rest,
    replace_pairs: row.replace_models.map((from, i) => ({ from, to: row.target_models[i] ?? '' })),
    key: '',
    key_ids: (keys ?? []).map((k) => k.id),
    bound_keys: keys ?? [],
    is_agents_only: row.is_agents_only ?? true,
    is_never_disable_key: row.is_never_disable_key ?? false,
  };
}

export function agentToBody(v: AgentValues, mode: FormMode = 'create'): object {
  const pairs = (v.replace_pairs ?? []).map((p) => ({ from: (p.from ?? '').trim(), to: (p.to ?? '').trim() })).filter((p) => p.from || p.to);
  const { replace_pairs: _pairs, bound_keys: _bound, key_ids: keyIds, ...rest } = v;
  return {
    ...rest,
    name: v.name.trim(),
    base_url: v.base_url.trim(),
    path: (v.path ?? '').trim(),
    wire_api: v.wire_api ?? 'chat',
    models: v.models ?? [],
    replace_models: pairs.map((p) => p.from),
    target_models: pairs.map((p) => p.to),
    key: splitKeys(v.key ?? '').join('\n'),
    ...(mode === 'update' ? { key_ids: keyIds ?? [] } : {}),
    fallback_models: v.fallback_models ?? [],
    remark: v.remark ?? '',
  };
}
