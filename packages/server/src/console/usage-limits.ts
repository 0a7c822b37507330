// Columns and wire fields of the limits apps and app keys share (reference §3.2, §3.3): models, bound
// group, quota, expiry, IP lists. Stored so the gateway can check them from its snapshot without
// parsing: JSON id arrays, normalized IP arrays, epoch-ms expiry (gateway-semantics §1.2).
import type { Kysely } from 'kysely';
import type { Ctx } from '../context';
import type { AppRow } from '../db/schema';
import { availableGroups, availableModelIds } from '../catalogue/access';
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import { idsOf, jsonOf, requireKnown } from '../catalogue/links';
import { invalidField } from '../http/errors';
import { formatTime, parseWireTime } from '../http/time';

export interface LimitInput {
  models?: string[];
  is_bind_group?: boolean;
  group?: string;
  is_limit_quota?: boolean;
  quota?: number;
  quota_expires_at?: string;
  ip_whitelist?: string[];
  ip_blacklist?: string[];
  rate_limits?: Partial<RateLimits>;
}

/** The limit columns apps and app keys share (db/schema.ts), as stored. */
export type LimitRow = Pick<AppRow, 'models' | 'is_bind_group' | 'group_id' | 'is_limit_quota' | 'quota' | 'used_quota' | 'quota_expires_at' | 'ip_whitelist' | 'ip_blacklist' | 'rate_limits'>;

/** "YYYY-MM-DD HH:mm:ss" → epoch ms; "" → null (never). */
export function expiryOf(ctx: Ctx, text: string, field = 'quota_expires_at'): number | null {
  if (!text) return null;
  const ms = parseWireTime(text, ctx.config.timeZone);
  if (ms === undefined) throw invalidField(field, text);
  return ms;
}

/**
 * The columns for the fields present in `input` (absent ones stay as they are). Models and the bound
 * group must be ones the owner may use (catalogue/access.ts), which also proves they exist.
 */
export async function limitColumns(ctx: Ctx, ownerUserId: number, input: LimitInput): Promise<Partial<LimitRow>> {
  const out: Partial<LimitRow> = {};
  const group = input.group ?? '';
  if (input.is_bind_group && !group) throw invalidField('group', 'required');
  if (input.models?.length || group) {
    const owner = await ctx.db.selectFrom('users').select(['role', 'user_id', 'rid', 'groups', 'models']).where('user_id', '=', ownerUserId).executeTakeFirstOrThrow();
    if (input.models?.length) requireKnown('models', input.models, new Set((await availableModelIds(ctx, owner)).keys()));
    if (group) requireKnown('group', [group], new Set((await availableGroups(ctx, owner)).map((g) => g.id)));
  }
  if (input.models) out.models = JSON.stringify([...new Set(input.models)]);
  if (input.is_bind_group !== undefined) out.is_bind_group = input.is_bind_group ? 1 : 0;
  if (input.group !== undefined) out.group_id = group;
  if (input.is_limit_quota !== undefined) out.is_limit_quota = input.is_limit_quota ? 1 : 0;
  if (input.quota !== undefined) out.quota = input.quota;
  if (input.quota_expires_at !== undefined) out.quota_expires_at = expiryOf(ctx, input.quota_expires_at);
  if (input.ip_whitelist) out.ip_whitelist = JSON.stringify(input.ip_whitelist);
  if (input.ip_blacklist) out.ip_blacklist = JSON.stringify(input.ip_blacklist);
  // Only positive limits are kept: 0 means unlimited (SPEC §5).
  if (input.rate_limits) out.rate_limits = JSON.stringify(Object.fromEntries(Object.entries(input.rate_limits).filter(([, v]) => Number(v) > 0)));
  return out;
}

export interface RefNames {
  models: Map<string, string>;
  groups: Map<string, string>;
}

async function names(db: Kysely<any>, table: string, ids: Set<string>): Promise<Map<string, string>> {
  if (!ids.size) return new Map();
  const rows: { id: string; name: string }[] = await db.selectFrom(table).select(['id', 'name']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Names of the models and groups a batch of rows refers to: two queries per page, not two per row. */
export async function refNames(ctx: Ctx, rows: readonly Pick<LimitRow, 'models' | 'group_id'>[]): Promise<RefNames> {
  const db = ctx.db as unknown as Kysely<any>;
  return {
    models: await names(db, 'models', new Set(rows.flatMap((r) => idsOf(r.models)))),
    groups: await names(db, 'groups', new Set(rows.map((r) => r.group_id).filter(Boolean))),
  };
}

export function limitWire(ctx: Ctx, row: LimitRow, refs: RefNames) {
  const models = idsOf(row.models);
  return {
    models,
    // A deleted model simply drops out of the names (its id is cleaned up by catalogue/links.ts).
    model_names: models.flatMap((id) => refs.models.get(id) ?? []),
    is_bind_group: row.is_bind_group === 1,
    group: row.group_id,
    group_name: refs.groups.get(row.group_id) ?? '',
    is_limit_quota: row.is_limit_quota === 1,
    quota: row.quota,
    used_quota: row.used_quota,
    quota_expires_at: formatTime(row.quota_expires_at, ctx.config.timeZone),
    ip_whitelist: idsOf(row.ip_whitelist),
    ip_blacklist: idsOf(row.ip_blacklist),
    rate_limits: jsonOf<Partial<RateLimits>>(row.rate_limits, {}),
  };
}
