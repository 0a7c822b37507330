// Model agent form values ⇄ wire (reference §3.6): replacement pairs are edited as rows and sent as the
// two index-paired arrays; the keys textarea is sent as distinct non-empty lines.
import { splitKeys, type ModelAgent } from '@fastgate/core/entities/model-agent';

export interface ReplacePair {
  from: string;
  to: string;
}

export interface AgentValues {
  corp: string;
  name: string;
  base_url: string;
  path?: string;
  weight: number;
  models?: string[];
  is_enable_model_replace: boolean;
  replace_pairs?: ReplacePair[];
  is_never_disable: boolean;
  lb_strategy: number;
  key?: string;
  is_agents_only: boolean;
  is_never_disable_key: boolean;
  fallback_models?: string[];
  remark?: string;
  status: number;
}

export function agentToValues(row: ModelAgent): Partial<AgentValues> {
  return {
    ...row,
    replace_pairs: row.replace_models.map((from, i) => ({ from, to: row.target_models[i] ?? '' })),
    key: row.key ?? '',
    is_agents_only: row.is_agents_only ?? true,
    is_never_disable_key: row.is_never_disable_key ?? false,
  };
}

export function agentToBody(v: AgentValues): object {
  const pairs = (v.replace_pairs ?? []).map((p) => ({ from: (p.from ?? '').trim(), to: (p.to ?? '').trim() })).filter((p) => p.from || p.to);
  const { replace_pairs: _pairs, ...rest } = v;
  return {
    ...rest,
    name: v.name.trim(),
    base_url: v.base_url.trim(),
    path: (v.path ?? '').trim(),
    models: v.models ?? [],
    replace_models: pairs.map((p) => p.from),
    target_models: pairs.map((p) => p.to),
    key: splitKeys(v.key ?? '').join('\n'),
    fallback_models: v.fallback_models ?? [],
    remark: v.remark ?? '',
  };
}
