// Groups between the wire and the table: input → row values (with reference checks), row → response.
import { idleForwardConfig } from '@fastgate/core/entities/catalogue';
import { bpToFraction, discountToBp, groupResource, type Group, type GroupCreate } from '@fastgate/core/entities/group';
import type { Ctx } from '../context';
import type { GroupRow } from '../db/schema';
import { availableModelIds } from '../catalogue/access';
import { requireKnown, requireRows, unknownRef } from '../catalogue/links';
import type { Caller } from '../http/crud';
import { formatTime, parseWireTime } from '../http/time';
import { checkForwardRefs, forwardWire } from './model-wire';

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

/** Row values of a group: its fields, with the discount in basis points and the expiry in epoch ms (they need the zone). */
export function groupValues(g: GroupCreate, timeZone: string) {
  return { ...groupResource.encode(g), discount_bp: discountToBp(g.discount), expires_at: expiresAt(g.expires_at, timeZone) };
}

export interface GroupPrepared {
  models: Map<string, string>;
  agents: Map<string, string>;
}

export async function prepareGroups(ctx: Ctx, rows: GroupRow[]): Promise<GroupPrepared> {
  const modelIds = new Set<string>();
  const agentIds = new Set<string>();
  for (const g of rows.map((r) => groupResource.decode(r))) {
    const f = g.forward_config;
    for (const id of [...g.models, ...(f ? [f.target_model, f.decision_model, ...f.target_models] : [])]) if (id) modelIds.add(id);
    for (const id of g.model_agents) agentIds.add(id);
  }
  const models = modelIds.size ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', [...modelIds]).execute() : [];
  const agents = agentIds.size ? await ctx.db.selectFrom('model_agents').select(['id', 'name']).where('id', 'in', [...agentIds]).execute() : [];
  return { models: new Map(models.map((m) => [m.id, m.name])), agents: new Map(agents.map((a) => [a.id, a.name])) };
}

export function groupWire(row: GroupRow, p: GroupPrepared, timeZone: string): Group {
  const g = groupResource.decode(row);
  return {
    id: row.id,
    user_id: row.user_id,
    ...g,
    // Stored in other units (groupValues).
    discount: bpToFraction(row.discount_bp),
    expires_at: formatTime(row.expires_at, timeZone),
    model_names: g.models.map((id) => p.models.get(id) ?? ''),
    used_quota: row.used_quota,
    model_agent_names: g.model_agents.map((id) => p.agents.get(id) ?? ''),
    // Never null: the original console's group form binds to the config's fields.
    forward_config: forwardWire(g.forward_config ?? idleForwardConfig(), p.models),
    created_at: formatTime(row.created_at, timeZone),
    updated_at: formatTime(row.updated_at, timeZone),
  };
}
