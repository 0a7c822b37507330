// Charges of the seeded calls, applied the way the ledger applies a batch (billing/ledger.ts): relative
// `used_quota + x` on the user, its app, its key, its reseller and the billing group, `quota - x` on
// the user. A user whose balance would not cover its calls is recharged first (through moveQuota, with
// its deal record; a reseller's user by its reseller), so no seeded balance goes below zero.
import { QuotaType } from '@fastgate/core/entities/user';
import { sql } from 'kysely';
import { moveQuota, type Movement } from '../billing/deals';
import type { Ctx } from '../context';
import type { Tally } from './call-logs';

const USD = 500_000;

export async function applyCharges(ctx: Ctx, tally: Tally): Promise<{ recharged: number }> {
  const { db } = ctx;
  const ids = [...tally.users.keys()];
  const users = [];
  for (let i = 0; i < ids.length; i += 1000) users.push(...(await db.selectFrom('users').select(['user_id', 'rid', 'quota']).where('user_id', 'in', ids.slice(i, i + 1000)).execute()));
  const short = users.map((u) => ({ ...u, need: tally.users.get(u.user_id)! - u.quota })).filter((u) => u.need > -10 * USD);
  const top = (need: number) => Math.ceil((need + 100 * USD) / USD) * USD;
  const resellerNeeds = new Map<number, number>();
  for (const u of short) if (u.rid) resellerNeeds.set(u.rid, (resellerNeeds.get(u.rid) ?? 0) + top(u.need));
  const resellerMoves = [...resellerNeeds].map(([rid, quota]): Movement => ({ userId: rid, quota, type: QuotaType.Recharge, creator: 'admin', remark: 'seed top-up' }));
  const userMoves = short.map((u): Movement => ({ userId: u.user_id, quota: top(u.need), type: QuotaType.Recharge, creator: 'admin', remark: 'seed top-up', ...(u.rid ? { from: u.rid } : {}) }));
  // Resellers first, on their own: moveQuota holds what each reseller gives against its balance before
  // the batch runs, so a top-up in the same batch would not count (at 10M rows a reseller's users spend
  // more than its opening balance, and the seed failed with quota.reseller_insufficient after writing every row).
  await moveQuota(ctx, resellerMoves);
  await moveQuota(ctx, userMoves);
  const moves = [...resellerMoves, ...userMoves];

  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const [id, x] of tally.users) await trx.updateTable('users').set({ used_quota: sql`used_quota + ${x}`, quota: sql`quota - ${x}`, updated_at: now }).where('user_id', '=', id).execute();
    for (const [id, x] of tally.resellers) await trx.updateTable('users').set({ used_quota: sql`used_quota + ${x}` }).where('user_id', '=', id).execute();
    for (const [id, x] of tally.apps) await trx.updateTable('apps').set({ used_quota: sql`used_quota + ${x}` }).where('app_id', '=', id).execute();
    for (const [id, x] of tally.keys) await trx.updateTable('app_keys').set({ used_quota: sql`used_quota + ${x}` }).where('id', '=', id).execute();
    for (const [id, x] of tally.groups) await trx.updateTable('groups').set({ used_quota: sql`used_quota + ${x}` }).where('id', '=', id).execute();
  });
  return { recharged: moves.length };
}
