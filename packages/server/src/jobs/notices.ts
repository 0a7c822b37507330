// Quota notices (docs/SPEC.md §3.2 managed user): low balance (below warning_threshold $), exhaustion (balance
// ≤ 0 after use), expiry warning (expires within expire_warning_threshold days) and expiry — each
// mailed once per crossing. A notice flag is claimed with a conditional UPDATE before the mail goes
// (so overlapping runs never send twice) and released again if sending fails; a movement of quota
// clears the flags (billing/deals.ts), and a flag whose condition no longer holds is re-armed here.
import { QUOTA_PER_USD, type Locale } from '@fastgate/core/constants';
import { formatUsd } from '@fastgate/core/money';
import { t, type MessageKey } from '@fastgate/core/messages';
import { Cron } from 'croner';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Ctx } from '../context';
import type { Database, UserRow } from '../db/schema';
import { formatTime } from '../http/time';
import { accountMailSite } from '../mail/route';

const DAY_MS = 86_400_000;
type Flag = 'warning_notice' | 'exhaustion_notice' | 'expire_warning_notice' | 'expire_notice';
type Eb = ExpressionBuilder<Database, 'users'>;

interface NoticeKind {
  flag: Flag;
  subject: MessageKey;
  body: MessageKey;
  /** The accounts the notice is due for (flag not set yet). */
  due: (eb: Eb, now: number) => ReturnType<Eb['and']>;
  /** Set flags whose condition no longer holds: cleared so the next crossing notifies again. */
  over: (eb: Eb, now: number) => ReturnType<Eb['or']>;
}

// Casts keep PostgreSQL in bigint (it types bare parameters next to an integer column as integer).
const thresholdUnits = sql<number>`cast(warning_threshold as bigint) * cast(${QUOTA_PER_USD} as bigint)`;
const warnWindow = (now: number) => sql<number>`cast(${now} as bigint) + cast(expire_warning_threshold as bigint) * cast(${DAY_MS} as bigint)`;

const KINDS: NoticeKind[] = [
  {
    flag: 'warning_notice',
    subject: 'notice.warning_subject',
    body: 'notice.warning_body',
    due: (eb) => eb.and([eb('quota_warning', '=', 1), eb('warning_threshold', '>', 0), eb('quota', '<', thresholdUnits)]),
    over: (eb) => eb.or([eb('quota_warning', '=', 0), eb('warning_threshold', '=', 0), eb('quota', '>=', thresholdUnits)]),
  },
  {
    // A balance that was never used (a new account at 0) is not "exhausted".
    flag: 'exhaustion_notice',
    subject: 'notice.exhaustion_subject',
    body: 'notice.exhaustion_body',
    due: (eb) => eb.and([eb('quota', '<=', 0), eb('used_quota', '>', 0)]),
    over: (eb) => eb.or([eb('quota', '>', 0)]),
  },
  {
    flag: 'expire_warning_notice',
    subject: 'notice.expire_warning_subject',
    body: 'notice.expire_warning_body',
    due: (eb, now) =>
      eb.and([eb('quota_warning', '=', 1), eb('expire_warning_threshold', '>', 0), eb('quota_expires_at', '>', now), eb('quota_expires_at', '<=', warnWindow(now))]),
    over: (eb, now) => eb.or([eb('quota_expires_at', 'is', null), eb('quota_expires_at', '>', warnWindow(now))]),
  },
  {
    flag: 'expire_notice',
    subject: 'notice.expire_subject',
    body: 'notice.expire_body',
    due: (eb, now) => eb.and([eb('quota_expires_at', '>', 0), eb('quota_expires_at', '<=', now)]),
    over: (eb, now) => eb.or([eb('quota_expires_at', 'is', null), eb('quota_expires_at', '>', now)]),
  },
];

/** One pass over every enabled user and reseller with an email; returns how many mails went out. */
export async function runNotices(ctx: Ctx, now = Date.now(), locale: Locale = 'zh-CN'): Promise<{ sent: number }> {
  const { db } = ctx;
  let sent = 0;
  for (const kind of KINDS) {
    await db
      .updateTable('users')
      .set({ [kind.flag]: 0 })
      .where(kind.flag, '=', 1)
      .where((eb) => kind.over(eb, now))
      .execute();
    const due = await db
      .selectFrom('users')
      .selectAll()
      .where('role', 'in', ['user', 'reseller'])
      .where('status', '=', 1)
      .where('email', '!=', '')
      .where(kind.flag, '=', 0)
      .where((eb) => kind.due(eb, now))
      .execute();
    for (const user of due) {
      const claimed = await db.updateTable('users').set({ [kind.flag]: 1 }).where('user_id', '=', user.user_id).where(kind.flag, '=', 0).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      try {
        await ctx.mailer.send({ to: user.email, subject: t(kind.subject, locale), text: t(kind.body, locale, vars(ctx, user)), site: await accountMailSite(db, user) });
        sent++;
      } catch (err) {
        await db.updateTable('users').set({ [kind.flag]: 0 }).where('user_id', '=', user.user_id).execute();
        ctx.log.warn({ err, user_id: user.user_id, notice: kind.flag }, 'quota notice not sent; retried on the next run');
      }
    }
  }
  return { sent };
}

function vars(ctx: Ctx, user: UserRow): Record<string, string> {
  return {
    balance: formatUsd(user.quota),
    threshold: `$${user.warning_threshold}`,
    expires_at: formatTime(user.quota_expires_at, ctx.config.timeZone),
  };
}

/** Every 10 minutes; `protect` skips a run while the previous one is still going. */
export function startNotices(ctx: Ctx): Cron {
  return new Cron('*/10 * * * *', { timezone: ctx.config.timeZone, protect: true }, () => {
    runNotices(ctx).catch((err: unknown) => ctx.log.error({ err }, 'quota notices failed'));
  });
}
