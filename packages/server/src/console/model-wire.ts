// Models between the wire and the table: input → row values (with reference checks), row → response.
import type { ForwardConfig, ForwardConfigWire } from '@fastgate/core/entities/catalogue';
import { QUOTA_KEYS, type ModelQuotas } from '@fastgate/core/entities/model-quota';
import type { FallbackConfig, Model, ModelCreate, MyModel, PresetConfig } from '@fastgate/core/entities/model';
import type { Ctx } from '../context';
import type { GroupRow, ModelRow } from '../db/schema';
import { availableModelIds, discountOf } from '../catalogue/access';
import { idsOf, jsonOf, requireRows } from '../catalogue/links';
import type { Caller } from '../http/crud';
import { formatTime } from '../http/time';
import { upstreamWireOf, type UpstreamWire } from '@fastgate/core/protocols';

const flag = (b: boolean) => (b ? 1 : 0);

/** Usable models of a reseller or user with their billing group, computed once per request (scope and response share it). */
const billingCache = new WeakMap<Caller, Promise<Map<string, GroupRow | null>>>();
export function billingOf(c: Caller): Promise<Map<string, GroupRow | null>> {
  let p = billingCache.get(c);
  if (!p) billingCache.set(c, (p = availableModelIds(c.ctx, c.session.user)));
  return p;
}

/** Every id a model's settings refer to must exist (corp, groups, agents, forward and fallback targets). */
export async function checkModelRefs(ctx: Ctx, m: ModelCreate): Promise<void> {
  await requireRows(ctx.db, 'corps', 'corp', [m.corp]);
  await requireRows(ctx.db, 'groups', 'groups', m.groups);
  await requireRows(ctx.db, 'model_agents', 'model_agents', m.model_agents);
  await checkForwardRefs(ctx, m.forward_config);
  await requireRows(ctx.db, 'model_agents', 'fallback_config.model_agent', [m.fallback_config.model_agent]);
  await requireRows(ctx.db, 'models', 'fallback_config.model', [m.fallback_config.model]);
}

export async function checkForwardRefs(ctx: Ctx, f: ForwardConfig | undefined, field = 'forward_config'): Promise<void> {
  if (!f) return;
  await requireRows(ctx.db, 'models', `${field}.target_model`, [f.target_model]);
  await requireRows(ctx.db, 'models', `${field}.decision_model`, [f.decision_model]);
  await requireRows(ctx.db, 'models', `${field}.target_models`, f.target_models);
}

/** Row values of a model; `groups` and `model_agents` are links stored on the other side (catalogue/links.ts). */
export function modelValues(m: ModelCreate): Record<string, unknown> {
  const quotas = Object.fromEntries(QUOTA_KEYS.filter((k) => m[k] !== undefined).map((k) => [k, m[k]]));
  return {
    corp: m.corp,
    name: m.name,
    model: m.model,
    type: m.type,
    base_url: m.base_url,
    path: m.path,
    remark: m.remark,
    request_data_format: m.request_data_format,
    response_data_format: m.response_data_format,
    is_public: flag(m.is_public),
    is_enable_preset_config: flag(m.is_enable_preset_config),
    preset_config: JSON.stringify(m.preset_config),
    is_enable_model_agent: flag(m.is_enable_model_agent),
    lb_strategy: m.lb_strategy,
    is_enable_forward: flag(m.is_enable_forward),
    forward_config: JSON.stringify(m.forward_config ?? {}),
    is_enable_fallback: flag(m.is_enable_fallback),
    fallback_config: JSON.stringify(m.fallback_config),
    quotas: JSON.stringify(quotas),
    status: m.status,
  };
}

/** What a page of models needs beside the rows, loaded once per page. */
export interface ModelPrepared {
  corps: Map<string, { name: string; code: string }>;
  /** model id → groups listing it / agents serving it (admin view). */
  groups: Map<string, { id: string; name: string }[]>;
  agents: Map<string, { id: string; name: string }[]>;
  agentNames: Map<string, string>;
  /** Agent id → the protocol its upstream speaks. */
  agentWires: Map<string, UpstreamWire>;
  modelNames: Map<string, string>;
  /** Non-admin view: model id → its billing group. */
  billing?: Map<string, GroupRow | null>;
}

function invert(rows: { id: string; name: string; models: string }[]): Map<string, { id: string; name: string }[]> {
  const out = new Map<string, { id: string; name: string }[]>();
  for (const r of rows) for (const m of idsOf(r.models)) out.set(m, [...(out.get(m) ?? []), { id: r.id, name: r.name }]);
  return out;
}

export async function prepareModels(ctx: Ctx, rows: ModelRow[], billing?: Map<string, GroupRow | null>): Promise<ModelPrepared> {
  const corpIds = [...new Set(rows.map((r) => r.corp))];
  const corps = corpIds.length ? await ctx.db.selectFrom('corps').select(['id', 'name', 'code']).where('id', 'in', corpIds).execute() : [];
  const base = { corps: new Map(corps.map((c) => [c.id, { name: c.name, code: c.code }])), groups: new Map(), agents: new Map(), agentNames: new Map(), agentWires: new Map(), modelNames: new Map() };
  if (billing) return { ...base, billing };
  // Groups and agents are tens to hundreds of rows: one read each beats a query per model.
  const groups = await ctx.db.selectFrom('groups').select(['id', 'name', 'models']).execute();
  const agents = await ctx.db.selectFrom('model_agents').select(['id', 'name', 'models', 'corp', 'wire_api']).execute();
  const agentCorps = new Map((await ctx.db.selectFrom('corps').select(['id', 'code']).execute()).map((c) => [c.id, c.code]));
  const refs = new Set<string>();
  for (const r of rows) {
    const f = jsonOf<Partial<ForwardConfig>>(r.forward_config, {});
    for (const id of [f.target_model, f.decision_model, ...(f.target_models ?? []), jsonOf<Partial<FallbackConfig>>(r.fallback_config, {}).model]) if (id) refs.add(id);
  }
  const names = refs.size ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', [...refs]).execute() : [];
  const agentWires = new Map(agents.map((a) => [a.id, upstreamWireOf(agentCorps.get(a.corp) ?? '', a.wire_api === 'responses' ? 'responses' : 'chat')]));
  return { ...base, groups: invert(groups), agents: invert(agents), agentNames: new Map(agents.map((a) => [a.id, a.name])), agentWires, modelNames: new Map(names.map((m) => [m.id, m.name])) };
}

const isForward = (f: Partial<ForwardConfig>): f is ForwardConfig => f.forward_rule !== undefined;

export function forwardWire(json: string, names: Map<string, string>): ForwardConfigWire | null {
  const f = jsonOf<Partial<ForwardConfig>>(json, {});
  if (!isForward(f)) return null;
  return { ...f, target_model_name: names.get(f.target_model) ?? '', decision_model_name: names.get(f.decision_model) ?? '', target_model_names: f.target_models.map((id) => names.get(id) ?? '') };
}

export function modelWire(row: ModelRow, p: ModelPrepared, timeZone: string): Model | MyModel {
  const corp = p.corps.get(row.corp);
  const common = {
    id: row.id,
    corp: row.corp,
    corp_name: corp?.name ?? '',
    corp_code: corp?.code ?? '',
    name: row.name,
    model: row.model,
    type: row.type,
    ...jsonOf<ModelQuotas>(row.quotas, {}),
    request_data_format: row.request_data_format,
    response_data_format: row.response_data_format,
    status: row.status,
    created_at: formatTime(row.created_at, timeZone),
    updated_at: formatTime(row.updated_at, timeZone),
  };
  if (p.billing) {
    const group = p.billing.get(row.id) ?? null;
    return { ...common, group: group?.id ?? '', group_name: group?.name ?? '', discount: discountOf(group) };
  }
  const groups = p.groups.get(row.id) ?? [];
  const agents = p.agents.get(row.id) ?? [];
  const fallback = jsonOf<FallbackConfig>(row.fallback_config, { model_agent: '', model: '' });
  return {
    ...common,
    base_url: row.base_url,
    path: row.path,
    remark: row.remark,
    is_public: row.is_public === 1,
    groups: groups.map((g) => g.id),
    group_names: groups.map((g) => g.name),
    is_enable_preset_config: row.is_enable_preset_config === 1,
    preset_config: jsonOf<PresetConfig>(row.preset_config, {} as PresetConfig),
    is_enable_model_agent: row.is_enable_model_agent === 1,
    lb_strategy: row.lb_strategy,
    model_agents: agents.map((a) => a.id),
    model_agent_names: agents.map((a) => a.name),
    // Agents route when enabled; otherwise the model's own endpoint speaks chat in its corp's family.
    upstream_wires: row.is_enable_model_agent === 1 ? [...new Set(agents.map((a) => p.agentWires.get(a.id) ?? 'chat'))] : [upstreamWireOf(corp?.code ?? '')],
    is_enable_forward: row.is_enable_forward === 1,
    forward_config: forwardWire(row.forward_config, p.modelNames),
    is_enable_fallback: row.is_enable_fallback === 1,
    fallback_config: { ...fallback, model_agent_name: p.agentNames.get(fallback.model_agent) ?? '', model_name: p.modelNames.get(fallback.model) ?? '' },
  };
}
