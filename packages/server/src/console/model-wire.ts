// Models between the wire and the table: input → row values (with reference checks), row → response.
import { ids } from '@fastgate/core/resource';
import type { ForwardConfig, ForwardConfigWire } from '@fastgate/core/entities/catalogue';
import { MODEL_PUBLIC_FIELDS, modelResource, quotasColumn, type Model, type ModelCreate, type MyModel } from '@fastgate/core/entities/model';
import type { Ctx } from '../context';
import type { ModelRow } from '../db/schema';
import type { GroupRecord } from '../catalogue/groups';
import { availableModelIds, discountOf } from '../catalogue/access';
import { requireRows } from '../catalogue/links';
import type { Caller } from '../http/crud';
import { formatTime } from '../http/time';
import { upstreamWireOf, type UpstreamWire } from '@fastgate/core/protocols';
import { modelAgentResource } from '@fastgate/core/entities/model-agent';

/** Usable models of a reseller or user with their billing group, computed once per request (scope and response share it). */
const billingCache = new WeakMap<Caller, Promise<Map<string, GroupRecord | null>>>();
export function billingOf(c: Caller): Promise<Map<string, GroupRecord | null>> {
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

/** Row values of a model: its stored fields, and the price blocks packed into `quotas`. */
export function modelValues(m: ModelCreate) {
  return { ...modelResource.encode(m), quotas: quotasColumn.encode(m) };
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
  billing?: Map<string, GroupRecord | null>;
}

function invert(rows: { id: string; name: string; models: string }[]): Map<string, { id: string; name: string }[]> {
  const out = new Map<string, { id: string; name: string }[]>();
  for (const r of rows) for (const m of ids.decode(r.models)) out.set(m, [...(out.get(m) ?? []), { id: r.id, name: r.name }]);
  return out;
}

export async function prepareModels(ctx: Ctx, rows: ModelRow[], billing?: Map<string, GroupRecord | null>): Promise<ModelPrepared> {
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
    const { forward_config: f, fallback_config: fallback } = modelResource.decode(r);
    for (const id of [f?.target_model, f?.decision_model, ...(f?.target_models ?? []), fallback.model]) if (id) refs.add(id);
  }
  const names = refs.size ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', [...refs]).execute() : [];
  const agentWires = new Map(agents.map((a) => [a.id, upstreamWireOf(agentCorps.get(a.corp) ?? '', modelAgentResource.columns.wire_api.decode(a.wire_api))]));
  return { ...base, groups: invert(groups), agents: invert(agents), agentNames: new Map(agents.map((a) => [a.id, a.name])), agentWires, modelNames: new Map(names.map((m) => [m.id, m.name])) };
}

export function forwardWire(f: ForwardConfig, names: Map<string, string>): ForwardConfigWire;
export function forwardWire(f: ForwardConfig | undefined, names: Map<string, string>): ForwardConfigWire | null;
export function forwardWire(f: ForwardConfig | undefined, names: Map<string, string>): ForwardConfigWire | null {
  if (!f) return null;
  return { ...f, target_model_name: names.get(f.target_model) ?? '', decision_model_name: names.get(f.decision_model) ?? '', target_model_names: f.target_models.map((id) => names.get(id) ?? '') };
}

export function modelWire(row: ModelRow, p: ModelPrepared, timeZone: string): Model | MyModel {
  const corp = p.corps.get(row.corp);
  const m = modelResource.decode(row);
  const common = {
    id: row.id,
    ...(Object.fromEntries(MODEL_PUBLIC_FIELDS.map((k) => [k, m[k]])) as Pick<typeof m, (typeof MODEL_PUBLIC_FIELDS)[number]>),
    corp_name: corp?.name ?? '',
    corp_code: corp?.code ?? '',
    ...quotasColumn.decode(row.quotas),
    created_at: formatTime(row.created_at, timeZone),
    updated_at: formatTime(row.updated_at, timeZone),
  };
  if (p.billing) {
    const group = p.billing.get(row.id) ?? null;
    return { ...common, group: group?.id ?? '', group_name: group?.name ?? '', discount: discountOf(group) };
  }
  const groups = p.groups.get(row.id) ?? [];
  const agents = p.agents.get(row.id) ?? [];
  return {
    ...m,
    ...common,
    groups: groups.map((g) => g.id),
    group_names: groups.map((g) => g.name),
    model_agents: agents.map((a) => a.id),
    model_agent_names: agents.map((a) => a.name),
    // Agents route when enabled; otherwise the model's own endpoint speaks chat in its corp's family.
    upstream_wires: m.is_enable_model_agent ? [...new Set(agents.map((a) => p.agentWires.get(a.id) ?? 'chat'))] : [upstreamWireOf(corp?.code ?? '')],
    forward_config: forwardWire(m.forward_config, p.modelNames),
    fallback_config: { ...m.fallback_config, model_agent_name: p.agentNames.get(m.fallback_config.model_agent) ?? '', model_name: p.modelNames.get(m.fallback_config.model) ?? '' },
  };
}
