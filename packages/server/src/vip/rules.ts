// The VIP ladder: which level applies to a user, and automatic level changes (docs/SPEC.md §3.7 "VIP level").
//
// A user's level is users.vip_level; '' means none, and then the default level of its owner applies
// (a reseller's users: the reseller's levels; everyone else: the admin's, user_id 0). The counters
// vip_level_recharge_quota / vip_level_used_quota count quota units since the user entered its level.
// - Upgrade: as soon as any non-zero threshold of an upgrade rule is reached, the user moves to the
//   rule's target (the reached rule whose target sorts highest wins).
// - End of a level's duration (vip_level_expires_at passed): a downgrade rule whose thresholds were
//   not reached moves the user to its target; when all were reached, the level renews for another
//   duration. A level without downgrade rules falls back to the owner's default level (or none).
// Every change resets the counters, sets start/expiry and publishes a users update event.
// Callers: addVipRecharge after a recharge; the job below every 5 minutes for usage and expiry.
import { Status } from '@fastgate/core/constants';
import { vipResource, type VipRule } from '@fastgate/core/entities/vip';
import { Cron } from 'croner';
import { sql } from 'kysely';
import { ADMIN_OWNER } from '../catalogue/owners';
import type { Ctx } from '../context';
import type { UserRow, VipLevelRow } from '../db/schema';
import { cronZone } from '../zone';

type VipUser = Pick<UserRow, 'user_id' | 'role' | 'rid' | 'vip_level' | 'vip_level_start_time' | 'vip_level_expires_at' | 'vip_level_recharge_quota' | 'vip_level_used_quota'>;
/** A level as the rules read it: its row with the fields decoded (the gateway's snapshot holds these too). */
export type LevelRecord = Omit<VipLevelRow, keyof ReturnType<typeof vipResource.decode>> & ReturnType<typeof vipResource.decode>;
export const levelRecord = (row: VipLevelRow): LevelRecord => ({ ...row, ...vipResource.decode(row) });
type LevelLike = Pick<LevelRecord, 'id' | 'user_id' | 'status' | 'is_default' | 'sort' | 'duration' | 'rules'>;

/** Whose levels apply to an account: a reseller's users get the reseller's; everyone else the admin's. */
export const vipOwnerOf = (u: { role: string; rid: number }): number => (u.role === 'user' && u.rid > 0 ? u.rid : ADMIN_OWNER);

/** Any non-zero threshold reached by the user's counters. */
export function reached(rule: VipRule, u: Pick<VipUser, 'vip_level_recharge_quota' | 'vip_level_used_quota'>): boolean {
  return (rule.recharge_quota > 0 && Number(u.vip_level_recharge_quota) >= rule.recharge_quota) || (rule.used_quota > 0 && Number(u.vip_level_used_quota) >= rule.used_quota);
}

/**
 * The level in force: the user's own when enabled and not expired, else the owner's enabled default.
 * `levels` are the owner's levels (any status).
 */
export function effectiveLevel<L extends LevelLike>(u: Pick<VipUser, 'vip_level' | 'vip_level_expires_at'>, levels: readonly L[], now: number): { level: L; own: boolean } | undefined {
  const own = u.vip_level ? levels.find((l) => l.id === u.vip_level && l.status === Status.Normal) : undefined;
  if (own && !(u.vip_level_expires_at && u.vip_level_expires_at <= now)) return { level: own, own: true };
  const def = levels.find((l) => l.is_default && l.status === Status.Normal);
  return def ? { level: def, own: false } : undefined;
}

/** What should happen to a user now: move to a level ('' = none), renew the current one, or nothing. */
function decide(u: VipUser, levels: readonly LevelLike[], now: number): { move: string } | { renew: true } | null {
  const enabled = levels.filter((l) => l.status === Status.Normal);
  const byId = new Map(enabled.map((l) => [l.id, l]));
  const def = enabled.find((l) => l.is_default);
  const current = u.vip_level ? byId.get(u.vip_level) : undefined;
  // The level was deleted, disabled or belongs to another owner: back to the default.
  if (u.vip_level && !current) return { move: def?.id ?? '' };
  if (current && u.vip_level_expires_at && u.vip_level_expires_at <= now) {
    const downs = current.rules.filter((r) => r.type === 'downgrade' && byId.has(r.target_level) && r.target_level !== current.id);
    if (downs.length) {
      const missed = downs.find((r) => !reached(r, u));
      return missed ? { move: missed.target_level } : { renew: true };
    }
    return def && def.id !== current.id ? { move: def.id } : current.duration > 0 && def?.id === current.id ? { renew: true } : { move: '' };
  }
  const level = current ?? def;
  if (!level) return null;
  const ups = level.rules
    .filter((r) => r.type === 'upgrade' && r.target_level !== level.id && byId.has(r.target_level) && reached(r, u))
    .sort((a, b) => byId.get(b.target_level)!.sort - byId.get(a.target_level)!.sort);
  return ups.length ? { move: ups[0]!.target_level } : null;
}

const USER_COLUMNS = ['user_id', 'role', 'rid', 'vip_level', 'vip_level_start_time', 'vip_level_expires_at', 'vip_level_recharge_quota', 'vip_level_used_quota'] as const;

/**
 * Evaluates a user's recharge and usage against the rules of its level (or its owner's default) and
 * applies the outcome. Returns the user's new level id when it changed (or renewed), else undefined.
 */
export async function applyVipRules(ctx: Ctx, userId: number, now = Date.now()): Promise<string | undefined> {
  const u = (await ctx.db.selectFrom('users').select(USER_COLUMNS).where('user_id', '=', userId).executeTakeFirst()) as VipUser | undefined;
  if (!u) return undefined;
  const levels = (await ctx.db.selectFrom('vip_levels').selectAll().where('user_id', '=', vipOwnerOf(u)).execute()).map(levelRecord);
  const outcome = decide(u, levels, now);
  if (!outcome) return undefined;
  const target = 'move' in outcome ? levels.find((l) => l.id === outcome.move) : levels.find((l) => l.id === u.vip_level);
  const id = target?.id ?? '';
  const duration = Number(target?.duration ?? 0);
  const res = await ctx.db
    .updateTable('users')
    .set({
      vip_level: id,
      vip_level_start_time: id ? now : null,
      vip_level_expires_at: id && duration > 0 ? now + duration * 60_000 : null,
      vip_level_recharge_quota: 0,
      vip_level_used_quota: 0,
      updated_at: now,
    })
    .where('user_id', '=', userId)
    // Optimistic: another writer that moved the user first wins.
    .where('vip_level', '=', u.vip_level)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return undefined;
  ctx.bus.publish({ entity: 'users', op: 'update', ids: [String(userId)] });
  return id;
}

/** Call after a recharge of `quota` units: counts it towards the level and applies the rules. */
export async function addVipRecharge(ctx: Ctx, userId: number, quota: number): Promise<string | undefined> {
  if (quota > 0) {
    await ctx.db
      .updateTable('users')
      .set({ vip_level_recharge_quota: sql<number>`vip_level_recharge_quota + ${quota}` })
      .where('user_id', '=', userId)
      .execute();
  }
  return applyVipRules(ctx, userId);
}

/**
 * One pass of the scheduled job: refreshes the used-quota counter (charges in call logs since the
 * level started) of users whose level has rules, then applies the rules (upgrades by usage, expiry).
 */
export async function runVipPass(ctx: Ctx, now = Date.now()): Promise<number> {
  const levels = (await ctx.db.selectFrom('vip_levels').selectAll().where('status', '=', Status.Normal).execute()).map(levelRecord);
  if (!levels.length) {
    // Levels all gone: users still pointing at one go back to none.
    const stale = await ctx.db.selectFrom('users').select('user_id').where('vip_level', '!=', '').execute();
    let n = 0;
    for (const s of stale) if ((await applyVipRules(ctx, s.user_id, now)) !== undefined) n++;
    return n;
  }
  const byOwner = new Map<number, LevelRecord[]>();
  for (const l of levels) byOwner.set(l.user_id, [...(byOwner.get(l.user_id) ?? []), l]);
  const ownersWithDefaultRules = [...byOwner.entries()].filter(([, ls]) => ls.some((l) => l.is_default && l.rules.length)).map(([o]) => o);
  let q = ctx.db.selectFrom('users').select(USER_COLUMNS).where('status', '=', Status.Normal);
  q = q.where((eb) => {
    const any = [eb('vip_level', '!=', '')];
    if (ownersWithDefaultRules.includes(ADMIN_OWNER)) any.push(eb('rid', '=', 0), eb('role', '!=', 'user'));
    const resellers = ownersWithDefaultRules.filter((o) => o !== ADMIN_OWNER);
    if (resellers.length) any.push(eb.and([eb('role', '=', 'user'), eb('rid', 'in', resellers)]));
    return eb.or(any);
  });
  let changed = 0;
  for (const u of (await q.execute()) as VipUser[]) {
    const found = effectiveLevel(u, byOwner.get(vipOwnerOf(u)) ?? [], now);
    const usesUsage = found && found.level.rules.some((r) => r.used_quota > 0);
    if (usesUsage) {
      const row = await ctx.db
        .selectFrom('call_logs')
        .select((eb) => eb.fn.sum<number>('total_price').as('used'))
        .where('user_id', '=', u.user_id)
        .where('created_at', '>=', u.vip_level_start_time ?? 0)
        .executeTakeFirst();
      const used = Number(row?.used ?? 0);
      if (used !== Number(u.vip_level_used_quota)) await ctx.db.updateTable('users').set({ vip_level_used_quota: used }).where('user_id', '=', u.user_id).execute();
    }
    if (u.vip_level || found) {
      try {
        if ((await applyVipRules(ctx, u.user_id, now)) !== undefined) changed++;
      } catch (err) {
        ctx.log.warn({ err, user_id: u.user_id }, 'VIP rules failed for a user');
      }
    }
  }
  return changed;
}

/** Every 5 minutes; `protect` skips a run while the previous one is still going. */
export function startVipJob(ctx: Ctx): { stop(): void } {
  const job = new Cron('*/5 * * * *', { ...cronZone(ctx.config.timeZone), protect: true }, async () => {
    try {
      await runVipPass(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'VIP job failed');
    }
  });
  return { stop: () => job.stop() };
}
