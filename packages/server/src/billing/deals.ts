// Quota movements: recharge, deduction and gift (docs/ORIGINAL-API.md §3.1), each with its deal record (§3.11)
// in the same transaction as the balance change. Balances only ever move by `quota = quota ± x` in
// SQL — the gateway's ledger subtracts usage concurrently, so an absolute value from an earlier read
// would lose charges. A reseller's allocation takes quota from the reseller with a conditional UPDATE
// (`WHERE quota >= x`), so it can never give more than it holds, however many requests race. What a
// movement takes from a balance is first held in the gateway's ledger (withDebitsHeld), so it never
// takes what calls in flight hold or what they were charged and is not yet written; an account is
// deleted only once its calls have settled and their charges are written (whenIdle).
import { randomUUID } from 'node:crypto';
import { QuotaType, type QuotaTypeValue } from '@fastgate/core/entities/user';
import { formatUsd } from '@fastgate/core/money';
import { t, type MessageKey } from '@fastgate/core/messages';
import type { Locale } from '@fastgate/core/constants';
import { sql, type Transaction } from 'kysely';
import type { Ctx } from '../context';
import { applyVipRules } from '../vip/rules';
import type { Database } from '../db/schema';
import { businessError, invalidField } from '../http/errors';
import { newId } from '../http/ids';
import { accountMailSite } from '../mail/route';
import { ledgerOf } from './ledger';
import type { AccountRef, Reservation } from './ledger-types';

export interface Movement {
  /** The account whose balance changes. */
  userId: number;
  /** Positive quota units. */
  quota: number;
  type: Exclude<QuotaTypeValue, typeof QuotaType.Expire>;
  /** A reseller giving its own quota (recharge, gift) or taking it back (deduct); absent = minted by an admin or the system. */
  from?: number;
  /** Epoch ms to set as the new expiry; null = never; undefined = keep. */
  expiresAt?: number | null;
  creator: string;
  remark?: string;
}

/** The four notice flags, cleared by every movement so each notice fires again on the next crossing. */
const CLEARED_NOTICES = { warning_notice: 0, exhaustion_notice: 0, expire_warning_notice: 0, expire_notice: 0 } as const;

/** A future expiry or "never"; a time in the past is refused naming the field. */
export function requireFuture(expiresAt: number | null | undefined, field = 'quota_expires_at', now = Date.now()): void {
  if (expiresAt !== null && expiresAt !== undefined && expiresAt <= now) throw invalidField(field, 'past');
}

async function insertDeal(trx: Transaction<Database>, d: { user_id: number; rid: number; quota: number; type: number; remark: string; creator: string }, now: number) {
  await trx.insertInto('deal_records').values({ id: newId(), ...d, status: 1, created_at: now, updated_at: now }).execute();
}

/**
 * Applies one movement inside `trx` (the caller commits). Throws a business error, writing nothing
 * that survives the rollback, when the reseller lacks the quota or a deduction exceeds the balance.
 */
export async function applyMovement(ctx: Ctx, trx: Transaction<Database>, m: Movement, locale: Locale = 'zh-CN'): Promise<void> {
  if (!Number.isSafeInteger(m.quota) || m.quota <= 0) throw invalidField('quota', String(m.quota));
  requireFuture(m.expiresAt);
  const now = Date.now();
  const target = await trx.selectFrom('users').select(['user_id', 'rid']).where('user_id', '=', m.userId).executeTakeFirst();
  if (!target) throw invalidField('user_id', String(m.userId));
  const credit = m.type !== QuotaType.Deduct;

  if (m.from !== undefined) {
    // PostgreSQL: hold the reseller's row for the whole transaction (the conditional UPDATE below is
    // the guard either way; SQLite serializes transactions on its single connection).
    if (ctx.dialect === 'postgres') await trx.selectFrom('users').select('user_id').where('user_id', '=', m.from).forUpdate().execute();
    if (credit) {
      const res = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${m.quota}`, updated_at: now })
        .where('user_id', '=', m.from)
        .where('quota', '>=', m.quota)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw businessError('quota.reseller_insufficient');
    }
  }

  const change = credit ? sql<number>`quota + ${m.quota}` : sql<number>`quota - ${m.quota}`;
  let update = trx
    .updateTable('users')
    .set({
      quota: change,
      quota_type: m.type,
      ...CLEARED_NOTICES,
      ...(m.type === QuotaType.Recharge ? { vip_level_recharge_quota: sql<number>`vip_level_recharge_quota + ${m.quota}` } : {}),
      ...(m.expiresAt !== undefined ? { quota_expires_at: m.expiresAt } : {}),
      updated_at: now,
    })
    .where('user_id', '=', m.userId);
  if (!credit) update = update.where('quota', '>=', m.quota);
  const res = await update.executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw businessError('quota.user_insufficient');

  if (m.from !== undefined && !credit) {
    await trx.updateTable('users').set({ quota: sql`quota + ${m.quota}`, updated_at: now }).where('user_id', '=', m.from).execute();
  }

  await insertDeal(trx, { user_id: m.userId, rid: target.rid, quota: m.quota, type: m.type, remark: m.remark ?? '', creator: m.creator }, now);
  if (m.from !== undefined) {
    // The reseller's own history shows where its quota went.
    const key: MessageKey = credit ? 'deal.allocate_to' : 'deal.reclaim_from';
    await insertDeal(trx, { user_id: m.from, rid: 0, quota: m.quota, type: credit ? QuotaType.Deduct : QuotaType.Recharge, remark: t(key, locale, { user_id: m.userId }), creator: m.creator }, now);
  }
}

/** Every movement in one transaction (all or none), then one change event for the touched accounts. */
export async function moveQuota(ctx: Ctx, moves: Movement[], locale: Locale = 'zh-CN'): Promise<void> {
  if (!moves.length) return;
  await withDebitsHeld(ctx, moves, async () => {
    await ctx.db.transaction().execute(async (trx) => {
      for (const m of moves) await applyMovement(ctx, trx, m, locale);
    });
    // Awaited: in Redis mode the balances' cached bases are dropped before the caller answers.
    await publishUsers(ctx, moves.flatMap((m) => (m.from !== undefined ? [m.userId, m.from] : [m.userId])));
  });
  // A recharge may lift the account to the next VIP level (its counter was raised in the transaction).
  for (const id of new Set(moves.filter((m) => m.type === QuotaType.Recharge).map((m) => m.userId))) await applyVipRules(ctx, id);
}

const balanceOf = (userId: number): AccountRef => ({ kind: 'user', id: userId, limited: true });

/**
 * Runs `write` (the movements' transaction and its change event) while the gateway's ledger holds what
 * each movement takes from an account: a deduction takes back, and a reseller gives, only what its
 * balance has beyond what calls in flight hold and what is charged but not yet written, and no call can
 * reserve the same quota meanwhile. The holds are given back once the gateway sees the new balances.
 */
export async function withDebitsHeld<T>(ctx: Ctx, moves: Movement[], write: () => Promise<T>): Promise<T> {
  const ledger = ledgerOf(ctx);
  if (!ledger) return write();
  const taken = new Map<number, { quota: number; key: MessageKey }>();
  for (const m of moves) {
    const debited = m.type === QuotaType.Deduct ? { id: m.userId, key: 'quota.user_insufficient' as const } : m.from !== undefined ? { id: m.from, key: 'quota.reseller_insufficient' as const } : undefined;
    if (debited) taken.set(debited.id, { quota: (taken.get(debited.id)?.quota ?? 0) + m.quota, key: debited.key });
  }
  const holds: Reservation[] = [];
  try {
    for (const [userId, { quota, key }] of taken) {
      const r = await ledger.reserve(`deal:${randomUUID()}`, [balanceOf(userId)], quota);
      if ('refused' in r) throw businessError(key);
      holds.push(r);
    }
    return await write();
  } finally {
    for (const r of holds) await ledger.release(r);
  }
}

/** The longest a deletion waits for the accounts' calls in flight to settle. */
const DELETE_WAIT_MS = 2000;

/**
 * Runs `remove` (deleting accounts) once none of `userIds` has a call in flight or a charge not yet
 * written, so no charge is left to land on a row that is gone: waits up to DELETE_WAIT_MS for their
 * calls to settle, holding their whole balances (no new call starts), writes their charges, and refuses
 * (quota.calls_in_flight) if calls still run: disable the account first, then delete it once they end.
 */
export async function whenIdle<T>(ctx: Ctx, userIds: number[], remove: () => Promise<T>): Promise<T> {
  const ledger = ledgerOf(ctx);
  if (!ledger) return remove();
  const ids = [...new Set(userIds)];
  const holds: Reservation[] = [];
  try {
    // Side by side: a batch deletion waits DELETE_WAIT_MS at most, not once per account.
    const taken = await Promise.allSettled(ids.map((userId) => ledger.reserve(`delete:${randomUUID()}`, [balanceOf(userId)], Number.MAX_SAFE_INTEGER, { floor: 0, waitMs: DELETE_WAIT_MS, alone: true })));
    for (const t of taken) if (t.status === 'fulfilled' && !('refused' in t.value)) holds.push(t.value);
    for (const t of taken) if (t.status === 'rejected') throw t.reason;
    await ledger.flush();
    for (const userId of ids) {
      const { held, pending } = await ledger.outstanding(balanceOf(userId));
      const own = holds.find((r) => r.accounts[0]!.id === userId)?.amount ?? 0;
      if (held > own || pending !== 0) throw businessError('quota.calls_in_flight');
    }
    return await remove();
  } finally {
    for (const r of holds) await ledger.release(r);
  }
}

/** The gateway snapshot reloads these accounts (numeric ids as strings); see Bus.publish for what awaiting it gives. */
export async function publishUsers(ctx: Ctx, userIds: number[]): Promise<void> {
  const ids = [...new Set(userIds)].map(String);
  if (ids.length) await ctx.bus.publish({ entity: 'users', op: 'update', ids });
}

/** The optional "your quota changed" mail of a recharge (`is_send_notice`); failures are only logged. */
export async function sendRechargeNotice(ctx: Ctx, userId: number, amount: number, locale: Locale): Promise<void> {
  const user = await ctx.db.selectFrom('users').select(['email', 'quota', 'role', 'rid']).where('user_id', '=', userId).executeTakeFirst();
  if (!user?.email) return;
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: t('notice.recharge_subject', locale),
      text: t('notice.recharge_body', locale, { amount: `${amount < 0 ? '-' : '+'}${formatUsd(Math.abs(amount))}`, balance: formatUsd(user.quota) }),
      site: await accountMailSite(ctx.db, user),
    });
  } catch (err) {
    ctx.log.warn({ err, userId }, 'recharge notice not sent');
  }
}
