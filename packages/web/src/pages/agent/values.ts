// Model agent form values ⇄ wire (docs/ORIGINAL-API.md §3.6): replacement pairs are edited as rows and sent as the
// two index-paired arrays. Keys (issue 11): the bound ones arrive masked with their ids and are kept by
// id (`key_ids`), so their secrets never round-trip; the textarea holds only keys to add.
import { modelAgentResource, splitKeys, type AgentKey, type ModelAgent } from '@fastgate/core/entities/model-agent';
import type { Fields } from '@fastgate/core/resource';
import type { FormMode } from '../../components/ResourceForm';

interface ReplacePair {
  from: string;
  to: string;
}

/**
 * The form's values: the agent's fields as declared (core entities/model-agent.ts), except the
 * replacement pairs (rows, above), with the fields a cleared input leaves empty optional.
 */
type Optional = 'path' | 'wire_api' | 'models' | 'key' | 'fallback_models' | 'remark';
type AgentFields = Fields<typeof modelAgentResource>;
export type AgentValues = Omit<AgentFields, 'replace_models' | 'target_models' | Optional> &
  Partial<Pick<AgentFields, Optional>> & {
    replace_pairs?: ReplacePair[];
    /** Bound keys to keep (update). */
    key_ids?: string[];
    /** The bound keys as detail gave them (masked); shown, never sent. */
    bound_keys?: AgentKey[];
  };

/** Starting values of the create form: the declared defaults. */
export function newAgentValues(): Partial<AgentValues> {
  const { replace_models: _from, target_models: _to, ...defaults } = modelAgentResource.defaults();
  return { ...defaults, replace_pairs: [] };
}

export function agentToValues(row: ModelAgent): Partial<AgentValues> {
  const { replace_models, target_models, key: _masks, ...fields } = modelAgentResource.pick(row);
  const keys = row.keys ?? [];
  return {
    ...fields,
    replace_pairs: replace_models.map((from, i) => ({ from, to: target_models[i] ?? '' })),
    // The textarea holds only keys to add (key_ids keeps the bound ones).
    key: '',
    key_ids: keys.map((k) => k.id),
    bound_keys: keys,
    is_agents_only: row.is_agents_only ?? true,
    is_never_disable_key: row.is_never_disable_key ?? false,
  };
}

export function agentToBody(v: AgentValues, mode: FormMode = 'create'): object {
  const pairs = (v.replace_pairs ?? []).map((p) => ({ from: (p.from ?? '').trim(), to: (p.to ?? '').trim() })).filter((p) => p.from || p.to);
  return {
    ...modelAgentResource.pick(v),
    name: v.name.trim(),
    base_url: v.base_url.trim(),
    path: (v.path ?? '').trim(),
    wire_api: v.wire_api ?? 'chat',
    models: v.models ?? [],
    replace_models: pairs.map((p) => p.from),
    target_models: pairs.map((p) => p.to),
    key: splitKeys(v.key ?? '').join('\n'),
    ...(mode === 'update' ? { key_ids: v.key_ids ?? [] } : {}),
    fallback_models: v.fallback_models ?? [],
    remark: v.remark ?? '',
  };
}
