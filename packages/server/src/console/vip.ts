// /api/v1/sys/vip: VIP levels (docs/SPEC.md §3.7 "VIP level"), and GET /api/v1/vip/center. Owned like groups:
// an admin's levels carry user_id 0, a reseller's its own user_id; a reseller reads and writes only its
// own, an admin all. `list` gives every role the levels that apply to it (a user: its owner's enabled
// levels). Discount: percent in, fraction out. One default per owner. Rule targets must be levels of
// the same owner, never the level itself.
import { ANY_ROLE, ErrorCode, Status } from '@fastgate/core/constants';
import { bpToFraction, discountToBp } from '@fastgate/core/entities/group';
import { VIP_CENTER_PATH, VIP_PREFIX, vipCreateSchema, vipPageSchema, vipResource, vipUpdateSchema, type VipCenter, type VipCreate, type VipLevel, type VipLevelListItem } from '@fastgate/core/entities/vip';
import { changePublicSchema } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import { ADMIN_OWNER, availableGroups } from '../catalogue/access';
import { requireKnown, requireRows } from '../catalogue/links';
import type { Ctx } from '../context';
import type { UserRow, VipLevelRow } from '../db/schema';
import { callerOf, contains, registerCrud, resource, type Caller, type ResourceSpec } from '../http/crud';
import { AppError } from '../http/errors';
import { get, post } from '../http/route';
import { formatTime } from '../http/time';
import { effectiveLevel, levelRecord, reached, vipOwnerOf, type LevelRecord } from '../vip/rules';
import { flag } from '@fastgate/core/resource';
import { requireAtFloor } from './reseller-floor';

const MANAGERS = ['admin', 'reseller'] as const;
const ownerOf = (c: Caller) => (c.session.role === 'admin' ? ADMIN_OWNER : c.session.user.user_id);
const listItem = (r: LevelRecord): VipLevelListItem => ({ id: r.id, user_id: r.user_id, name: r.name, color: r.color, discount: bpToFraction(r.discount_bp), is_default: r.is_default, sort: r.sort });

/** Groups: an admin any; a reseller its own and those it may use. Rules: targets among the owner's levels. */
async function checkRefs(ctx: Ctx, c: Caller, input: VipCreate, owner: number, selfId?: string): Promise<void> {
  if (c.session.role === 'admin') await requireRows(ctx.db, 'groups', 'groups', input.groups);
  else if (input.groups.length) {
    const own = await ctx.db.selectFrom('groups').select('id').where('user_id', '=', owner).execute();
    const usable = await availableGroups(ctx, c.session.user);
    requireKnown('groups', input.groups, new Set([...own.map((g) => g.id), ...usable.map((g) => g.id)]));
  }
  const targets = [...new Set(input.rules.map((r) => r.target_level))];
  input.rules.forEach((r, i) => {
    if (selfId && r.target_level === selfId) throw new AppError(ErrorCode.Validation, 'vip.rule_self', { field: `rules[${i}].target_level` });
  });
  if (!targets.length) return;
  const found = new Set((await ctx.db.selectFrom('vip_levels').select('id').where('user_id', '=', owner).where('id', 'in', targets).execute()).map((r) => r.id));
  input.rules.forEach((r, i) => {
    if (!found.has(r.target_level)) throw new AppError(ErrorCode.Validation, 'vip.rule_target', { field: `rules[${i}].target_level` });
  });
}

/** Row values of a level; the discount is kept in basis points, like a group's. */
const values = (input: VipCreate) => ({ ...vipResource.encode(input), discount_bp: discountToBp(input.discount) });

/** The level shown beside a user's name (session info, user center): name and colour, or empty. */
export async function vipBadge(ctx: Ctx, user: Pick<UserRow, 'role' | 'rid' | 'vip_level' | 'vip_level_expires_at'>): Promise<{ name: string; color: string }> {
  const levels = (await ctx.db.selectFrom('vip_levels').selectAll().where('user_id', '=', vipOwnerOf(user)).execute()).map(levelRecord);
  const found = effectiveLevel(user, levels, Date.now());
  return found ? { name: found.level.name, color: found.level.color } : { name: '', color: '' };
}

export async function vipRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const tz = ctx.config.timeZone;

  /** Clears the owner's other defaults when `row` became its default. */
  const oneDefault = async (row: VipLevelRow) => {
    if (!levelRecord(row).is_default) return;
    const others = await ctx.db.updateTable('vip_levels').set({ is_default: 0, updated_at: Date.now() }).where('user_id', '=', row.user_id).where('is_default', '=', 1).where('id', '!=', row.id).returning('id').execute();
    if (others.length) ctx.bus.publish({ entity: 'vip_levels', op: 'update', ids: others.map((o) => o.id) });
  };

  // Admin: all; reseller: its own; user (list only): its owner's enabled levels.
  const scope: ResourceSpec<'vip_levels', VipLevel, typeof vipPageSchema>['scope'] = (q, c) => {
    if (c.session.role === 'admin') return q;
    if (c.session.role === 'reseller') return q.where('user_id', '=', c.session.user.user_id);
    return q.where('user_id', '=', vipOwnerOf(c.session.user)).where('status', '=', Status.Normal);
  };

  registerCrud(app, {
    prefix: VIP_PREFIX,
    table: 'vip_levels',
    roles: { create: MANAGERS, update: MANAGERS, delete: MANAGERS, detail: MANAGERS, page: MANAGERS, status: MANAGERS, batch: MANAGERS, list: [ANY_ROLE] },
    scope,
    create: {
      schema: vipCreateSchema,
      toRow: async (input, c) => {
        const owner = ownerOf(c);
        await checkRefs(ctx, c, input, owner);
        await requireAtFloor(ctx, owner, input.discount);
        return { ...values(input), user_id: owner };
      },
      after: async (row: VipLevelRow) => oneDefault(row),
    },
    update: {
      schema: vipUpdateSchema,
      toRow: async ({ id: _id, ...input }, existing: VipLevelRow, c) => {
        await checkRefs(ctx, c, input, existing.user_id, existing.id);
        await requireAtFloor(ctx, existing.user_id, input.discount);
        return values(input);
      },
      after: async (row: VipLevelRow) => oneDefault(row),
    },
    page: {
      schema: vipPageSchema,
      filter: (q, f) => {
        let out = contains(contains(q, 'name', f.name), 'remark', f.remark);
        if (f.status) out = out.where('status', '=', f.status);
        return out;
      },
      order: [['status', 'asc'], ['sort', 'asc'], ['updated_at', 'desc']],
    },
    prepare: async (rows: VipLevelRow[]) => {
      const levels = rows.map(levelRecord);
      const groupIds = [...new Set(levels.flatMap((r) => r.groups))];
      const levelIds = [...new Set(levels.flatMap((r) => r.rules.map((x) => x.target_level)))];
      const groups = groupIds.length ? await ctx.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [];
      const targets = levelIds.length ? await ctx.db.selectFrom('vip_levels').select(['id', 'name']).where('id', 'in', levelIds).execute() : [];
      return { groups: new Map(groups.map((g) => [g.id, g.name])), levels: new Map(targets.map((l) => [l.id, l.name])) };
    },
    toWire: (row: VipLevelRow, _c, _view, p): VipLevel => {
      const fields = vipResource.decode(row);
      return {
        id: row.id,
        user_id: row.user_id,
        ...fields,
        discount: bpToFraction(row.discount_bp),
        group_names: fields.groups.map((id) => p.groups.get(id) ?? ''),
        rules: fields.rules.map((r) => ({ ...r, target_level_name: p.levels.get(r.target_level) ?? '' })),
        created_at: formatTime(row.created_at, tz),
        updated_at: formatTime(row.updated_at, tz),
      };
    },
    beforeDelete: async (rows) => {
      // Users on a deleted level fall back to their owner's default.
      const ids = rows.map((r) => r.id);
      const moved = await ctx.db.updateTable('users').set({ vip_level: '', vip_level_start_time: null, vip_level_expires_at: null, updated_at: Date.now() }).where('vip_level', 'in', ids).returning('user_id').execute();
      if (moved.length) ctx.bus.publish({ entity: 'users', op: 'update', ids: moved.map((m) => String(m.user_id)) });
    },
    list: async (q) => ((await q.selectAll().where('status', '=', Status.Normal).orderBy('sort', 'asc').orderBy('updated_at', 'desc').execute()) as VipLevelRow[]).map((r) => listItem(levelRecord(r))),
  });

  // The list's public switch (components/StatusSwitch PublicSwitch).
  const writable = resource(ctx, { table: 'vip_levels', scope, page: { schema: vipPageSchema, filter: (q) => q, order: [] }, toWire: (row: VipLevelRow) => row });
  post(app, `${VIP_PREFIX}/change/public`, { schema: changePublicSchema, roles: MANAGERS }, async (input, request) => {
    const c = callerOf(request);
    await writable.updateRows(c, await writable.visible(c, [input.id]), { is_public: flag.encode(input.is_public) });
  });

  get(app, VIP_CENTER_PATH, { roles: [ANY_ROLE] }, async (_input, request): Promise<VipCenter> => {
    const { user } = callerOf(request).session;
    const now = Date.now();
    const levels = (await ctx.db.selectFrom('vip_levels').selectAll().where('user_id', '=', vipOwnerOf(user)).orderBy('sort', 'asc').orderBy('updated_at', 'desc').execute()).map(levelRecord);
    const found = effectiveLevel(user, levels, now);
    const enabled = new Map(levels.filter((l) => l.status === Status.Normal).map((l) => [l.id, l]));
    let next: VipCenter['next'] = null;
    if (found) {
      const counters = { vip_level_recharge_quota: Number(user.vip_level_recharge_quota), vip_level_used_quota: Number(user.vip_level_used_quota) };
      const share = (have: number, need: number) => (need > 0 ? Math.min(1, have / need) : 0);
      const ups = found.level.rules
        .filter((r) => r.type === 'upgrade' && r.target_level !== found.level.id && enabled.has(r.target_level))
        .map((r) => ({ r, progress: reached(r, counters) ? 1 : Math.max(share(counters.vip_level_recharge_quota, r.recharge_quota), share(counters.vip_level_used_quota, r.used_quota)) }))
        // The nearest next level: the lowest-sorted target.
        .sort((a, b) => enabled.get(a.r.target_level)!.sort - enabled.get(b.r.target_level)!.sort);
      const up = ups[0];
      if (up) next = { level_id: up.r.target_level, level_name: enabled.get(up.r.target_level)!.name, recharge_quota: up.r.recharge_quota, used_quota: up.r.used_quota, progress: up.progress };
    }
    const l = found?.level;
    return {
      level: l
        ? {
            id: l.id,
            name: l.name,
            color: l.color,
            discount: bpToFraction(l.discount_bp),
            rate_limits: l.rate_limits,
            duration: l.duration,
            is_default: !found.own,
            start_time: found.own ? formatTime(user.vip_level_start_time, tz) : '',
            expires_at: found.own ? formatTime(user.vip_level_expires_at, tz) : '',
          }
        : null,
      recharge_quota: Number(user.vip_level_recharge_quota),
      used_quota: Number(user.vip_level_used_quota),
      next,
      levels: levels.filter((x) => x.status === Status.Normal && (x.is_public || x.id === l?.id)).map(listItem),
    };
  });
}
