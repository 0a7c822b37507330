// Groups between the wire and the table: input → row values (with reference checks), row → response.
import { rateLimitsSchema, type RateLimits } from '@fastgate/core/entities/catalogue';
import { bpToFraction, discountToBp, type Group, type GroupCreate } from '@fastgate/core/entities/group';
import type { Ctx } from '../context';
import type { GroupRow } from '../db/schema';
import { availableModelIds } from '../catalogue/access';
import { idsOf, jsonOf, requireKnown, requireRows, unknownRef } from '../catalogue/links';
import type { Caller } from '../http/crud';
import { formatTime, parseWireTime } from '../http/time';
import { forwardWire } from './model-wire';
import { checkForwardRefs } from './model-wire';

const flag = (b: boolean) => (b ? 1 : 0);

/** "" = never; otherwise epoch ms in the configured zone. */
export function expiresAt(text: string, timeZone: string): number | null {
  return text ? (parseWireTime(text, timeZone) ?? null) : null;
}

/**
 * Admins may put any model and agent in a group. A reseller only models it may use itself (it resells
 * them) and no agents (it cannot see them); forwarding targets follow the same rule.
 */
export async function checkGroupRefs(ctx: Ctx, c: Caller, g: GroupCreate): Promise<void> {
  if (c.session.role === 'admin') {
    await requireRows(ctx.db, 'models', 'models', g.models);
    await requireRows(ctx.db, 'model_agents', 'model_agents', g.model_agents);
    await checkForwardRefs(ctx, g.forward_config);
    return;
  }
  const usable = new Set((await availableModelIds(ctx, c.session.user)).keys());
  requireKnown('models', g.models, usable);
  if (g.model_agents.length) throw unknownRef('model_agents', g.model_agents);
  const f = g.forward_config;
  if (f) {
    requireKnown('forward_config.target_model', [f.target_model].filter(Boolean), usable);
    requireKnown('forward_config.decision_model', [f.decision_model].filter(Boolean), usable);
    requireKnown('forward_config.target_models', f.target_models, usable);
  }
}

export function groupValues(g: GroupCreate, timeZone: string): Record<string, unknown> {
  return {
    name: g.name,
    discount_bp: discountToBp(g.discount),
    models: JSON.stringify(g.models),
    is_default: flag(g.is_default),
    is_public: flag(g.is_public),
    vip_levels: JSON.stringify(g.vip_levels),
    weight: g.weight,
    expires_at: expiresAt(g.expires_at, timeZone),
    remark: g.remark,
    is_limit_quota: flag(g.is_limit_quota),
    quota: g.quota,
    rate_limits: JSON.stringify(g.rate_limits),
    is_enable_model_agent: flag(g.is_enable_model_agent),
    lb_strategy: g.lb_strategy,
    model_agents: JSON.stringify(g.model_agents),
    is_enable_forward: flag(g.is_enable_forward),
    forward_config: JSON.stringify(g.forward_config ?? {}),
    status: g.status,
  };
}

export interface GroupPrepared {
  models: Map<string, string>;
  agents: Map<string, string>;
}

export async function prepareGroups(ctx: Ctx, rows: GroupRow[]): Promise<GroupPrepared> {
  const modelIds = new Set<string>();
  for (const r of rows) {
    for (const id of idsOf(r.models)) modelIds.add(id);
    const f = jsonOf<{ target_model?: string; decision_model?: string; target_models?: string[] }>(r.forward_config, {});
    for (const id of [f.target_model, f.decision_model, ...(f.target_models ?? [])]) if (id) modelIds.add(id);
  }
  const agentIds = [...new Set(rows.flatMap((r) => idsOf(r.model_agents)))];
  const models = modelIds.size ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', [...modelIds]).execute() : [];
  const agents = agentIds.length ? await ctx.db.selectFrom('model_agents').select(['id', 'name']).where('id', 'in', agentIds).execute() : [];
  return { models: new Map(models.map((m) => [m.id, m.name])), agents: new Map(agents.map((a) => [a.id, a.name])) };
}

export function groupWire(row: GroupRow, p: GroupPrepared, timeZone: string): Group {
  const models = idsOf(row.models);
  const agents = idsOf(row.model_agents);
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    discount: bpToFraction(row.discount_bp),
    models,
    model_names: models.map((id) => p.models.get(id) ?? ''),
    is_default: row.is_default === 1,
    is_public: row.is_public === 1,
    vip_levels: idsOf(row.vip_levels),
    weight: row.weight,
    expires_at: formatTime(row.expires_at, timeZone),
    remark: row.remark,
    is_limit_quota: row.is_limit_quota === 1,
    quota: row.quota,
    used_quota: row.used_quota,
    rate_limits: rateLimitsSchema.parse(jsonOf<Partial<RateLimits>>(row.rate_limits, {})),
    is_enable_model_agent: row.is_enable_model_agent === 1,
    lb_strategy: row.lb_strategy,
    model_agents: agents,
    model_agent_names: agents.map((id) => p.agents.get(id) ?? ''),
    is_enable_forward: row.is_enable_forward === 1,
    forward_config: forwardWire(row.forward_config, p.models),
    status: row.status,
    created_at: formatTime(row.created_at, timeZone),
    updated_at: formatTime(row.updated_at, timeZone),
  };
}
