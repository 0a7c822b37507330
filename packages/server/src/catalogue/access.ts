// What an account may use: THE definition, shared by the console ("my model", "my group", app and key
// pickers) and the gateway (which runs the pure functions below over its in-memory snapshot).
//
// A group is usable when it is enabled (status 1), not expired, and
//   - admin:    it is an admin group (user_id 0);
//   - reseller: it is an admin group that is public or granted to the reseller (users.groups). A
//               reseller's OWN groups are for its users, not for itself: it sets their discount, so
//               using them would let it price its own traffic;
//   - user:     it is an admin group that is public or granted (users.groups), or — for a reseller's
//               user (rid > 0) — a group of that reseller that is public or granted. Groups of any
//               other reseller never apply, even if listed in users.groups.
// The account's VIP level (vip/rules.ts effectiveLevel) grants too: the groups the level lists, and the
// groups that list the level (a group's vip_levels), within the same owners.
// A model is usable when it is enabled and it is in a usable group, or granted directly (users.models,
// the corp era's per-account permission), or public (is_public; the original copied public models into
// each account at registration, a live flag keeps later changes effective). Admins may use every
// enabled model.
// A usable model is billed through the first usable group that lists it, in the gateway's order
// (docs/ORIGINAL-GATEWAY.md §1.3): the default group first, then descending weight (ties: latest update);
// no such group = full price (discount 1).
import { flag, ids } from '@fastgate/core/resource';
import { Status } from '@fastgate/core/constants';
import { bpToFraction } from '@fastgate/core/entities/group';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { effectiveLevel, levelRecord, vipOwnerOf } from '../vip/rules';
import { groupRecord, type GroupRecord } from './groups';
import { ADMIN_OWNER } from './owners';

export type AccessAccount = Pick<UserRow, 'role' | 'user_id' | 'rid' | 'groups' | 'models'>;
type GroupLike = Pick<GroupRecord, 'id' | 'user_id' | 'status' | 'expires_at' | 'is_public' | 'is_default' | 'weight' | 'updated_at' | 'models' | 'vip_levels'>;

/** The account's current VIP level: its id and the groups it lists. */
export interface VipGrant {
  id: string;
  groups: string[];
}
type ModelLike = { id: string; status: number; is_public: boolean };

export { ADMIN_OWNER };

/** Gateway order: default first, then weight descending, then the most recently updated. */
function byPriority(a: GroupLike, b: GroupLike): number {
  return Number(b.is_default) - Number(a.is_default) || b.weight - a.weight || b.updated_at - a.updated_at || a.id.localeCompare(b.id);
}

/** The groups `account` may use, in gateway order (pure: the gateway calls it on its snapshot). */
export function usableGroups<G extends GroupLike>(account: AccessAccount, groups: readonly G[], now = Date.now(), vip?: VipGrant): G[] {
  const granted = new Set([...ids.decode(account.groups), ...(vip?.groups ?? [])]);
  const byLevel = (g: G) => !!vip && g.vip_levels.includes(vip.id);
  const owners = account.role === 'user' && account.rid > 0 ? [ADMIN_OWNER, account.rid] : [ADMIN_OWNER];
  return groups
    .filter((g) => g.status === Status.Normal && (g.expires_at === null || g.expires_at <= 0 || g.expires_at > now))
    .filter((g) => owners.includes(g.user_id))
    .filter((g) => account.role === 'admin' || g.is_public || granted.has(g.id) || byLevel(g))
    .sort(byPriority);
}

export interface UsableModel<M, G> {
  model: M;
  /** The group it is billed through; null = no group (full price). */
  group: G | null;
}

/** The models `account` may use with their billing group; `groups` must come from `usableGroups`. */
export function usableModels<M extends ModelLike, G extends GroupLike>(account: AccessAccount, groups: readonly G[], models: readonly M[]): UsableModel<M, G>[] {
  const via = new Map<string, G>();
  for (const g of groups) for (const id of g.models) if (!via.has(id)) via.set(id, g);
  const direct = new Set(ids.decode(account.models));
  return models
    .filter((m) => m.status === Status.Normal && (account.role === 'admin' || via.has(m.id) || direct.has(m.id) || m.is_public))
    .map((model) => ({ model, group: via.get(model.id) ?? null }));
}

/** The discount a usable model is billed at, as a fraction (1 = full price). */
export const discountOf = (group: Pick<GroupRecord, 'discount_bp'> | null) => (group ? bpToFraction(group.discount_bp) : 1);

async function candidateGroups(ctx: Ctx, account: AccessAccount): Promise<GroupRecord[]> {
  const owners = account.role === 'user' && account.rid > 0 ? [ADMIN_OWNER, account.rid] : [ADMIN_OWNER];
  return (await ctx.db.selectFrom('groups').selectAll().where('status', '=', Status.Normal).where('user_id', 'in', owners).execute()).map(groupRecord);
}

/** The account's VIP grant, read from the database (the gateway takes it from its snapshot). */
async function vipGrantOf(ctx: Ctx, account: AccessAccount, now = Date.now()): Promise<VipGrant | undefined> {
  if (account.role === 'admin') return undefined;
  const user = await ctx.db.selectFrom('users').select(['role', 'rid', 'vip_level', 'vip_level_expires_at']).where('user_id', '=', account.user_id).executeTakeFirst();
  if (!user) return undefined;
  const levels = (await ctx.db.selectFrom('vip_levels').selectAll().where('user_id', '=', vipOwnerOf(user)).execute()).map(levelRecord);
  return effectiveLevel(user, levels, now)?.level;
}

/** Database form of `usableGroups`. */
export async function availableGroups(ctx: Ctx, account: AccessAccount): Promise<GroupRecord[]> {
  return usableGroups(account, await candidateGroups(ctx, account), Date.now(), await vipGrantOf(ctx, account));
}

/** Ids of the usable models with their billing group, without loading whole model rows. */
export async function availableModelIds(ctx: Ctx, account: AccessAccount): Promise<Map<string, GroupRecord | null>> {
  const groups = await availableGroups(ctx, account);
  const rows = await ctx.db.selectFrom('models').select(['id', 'status', 'is_public']).where('status', '=', Status.Normal).execute();
  const models = rows.map((r) => ({ ...r, is_public: flag.decode(r.is_public) }));
  return new Map(usableModels(account, groups, models).map((u) => [u.model.id, u.group]));
}
