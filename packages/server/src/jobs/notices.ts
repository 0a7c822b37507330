// Quota notices (docs/SPEC.md §3.2 managed user): low balance (below warning_threshold $), exhaustion (balance
// ≤ 0 after use), expiry warning (expires within expire_warning_threshold days) and expiry — each
// mailed once per crossing. A notice flag is claimed with a conditional UPDATE before the mail goes
// (so overlapping runs never send twice) and released again if sending fails; a movement of quota
// clears the flags (billing/deals.ts), and a flag whose condition no longer holds is re-armed here.
import { QUOTA_PER_USD, type Locale } from '@fastgate/core/constants';
import { SYS_CONFIG_DEFAULTS, type QuotaSection } from '@fastgate/core/sys-config';
import { formatUsd } from '@fastgate/core/money';
import { t, type MessageKey } from '@fastgate/core/messages';
import { Cron } from 'croner';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Ctx } from '../context';
import type { Database, UserRow } from '../db/schema';
import { formatTime } from '../http/time';
import { accountMailSite } from '../mail/route';
import { getSysSection } from '../settings/sys-config';
import { cronZone } from '../zone';

const DAY_MS = 86_400_000;
type Flag = 'warning_notice' | 'exhaustion_notice' | 'expire_warning_notice' | 'expire_notice';
type Eb = ExpressionBuilder<Database, 'users'>;

interface NoticeKind {
  flag: Flag;
  /** The system config's switch for this kind (sys config `quota`, docs/SPEC.md §3.15.3). */
  on: (q: QuotaSection) => boolean;
  subject: MessageKey;
  body: MessageKey;
  /** The accounts the notice is due for (flag not set yet). */
  due: (eb: Eb, now: number, q: QuotaSection) => ReturnType<Eb['and']>;
  /** Set flags whose condition no longer holds: cleared so the next crossing notifies again. */
  over: (eb: Eb, now: number, q: QuotaSection) => ReturnType<Eb['or']>;
}

// A user's own threshold wins; without one (0) the system config's default applies (quota.threshold in
// quota units, quota.expired_threshold in days). Casts keep PostgreSQL in bigint (it types bare
// parameters next to an integer column as integer).
const thresholdUnits = (q: QuotaSection) =>
  sql<number>`case when warning_threshold > 0 then cast(warning_threshold as bigint) * cast(${QUOTA_PER_USD} as bigint) else cast(${q.threshold} as bigint) end`;
const warnDays = (q: QuotaSection) => sql<number>`case when expire_warning_threshold > 0 then cast(expire_warning_threshold as bigint) else cast(${q.expired_threshold} as bigint) end`;
const warnWindow = (now: number, q: QuotaSection) => sql<number>`cast(${now} as bigint) + ${warnDays(q)} * cast(${DAY_MS} as bigint)`;

const KINDS: NoticeKind[] = [
  {
    flag: 'warning_notice',
    on: (q) => q.warning,
    subject: 'notice.warning_subject',
    body: 'notice.warning_body',
    due: (eb, _now, q) => eb.and([eb('quota_warning', '=', 1), eb(thresholdUnits(q), '>', 0), eb('quota', '<', thresholdUnits(q))]),
    over: (eb, _now, q) => eb.or([eb('quota_warning', '=', 0), eb(thresholdUnits(q), '=', 0), eb('quota', '>=', thresholdUnits(q))]),
  },
  {
    // A balance that was never used (a new account at 0) is not "exhausted".
    flag: 'exhaustion_notice',
    on: (q) => q.exhausted_notice,
    subject: 'notice.exhaustion_subject',
    body: 'notice.exhaustion_body',
    due: (eb) => eb.and([eb('quota', '<=', 0), eb('used_quota', '>', 0)]),
    over: (eb) => eb.or([eb('quota', '>', 0)]),
  },
  {
    flag: 'expire_warning_notice',
    on: (q) => q.expired_warning,
    subject: 'notice.expire_warning_subject',
    body: 'notice.expire_warning_body',
    due: (eb, now, q) =>
      eb.and([eb('quota_warning', '=', 1), eb(warnDays(q), '>', 0), eb('quota_expires_at', '>', now), eb('quota_expires_at', '<=', warnWindow(now, q))]),
    over: (eb, now, q) => eb.or([eb('quota_expires_at', 'is', null), eb('quota_expires_at', '>', warnWindow(now, q))]),
  },
  {
    flag: 'expire_notice',
    on: (q) => q.expired_notice,
    subject: 'notice.expire_subject',
    body: 'notice.expire_body',
    due: (eb, now) => eb.and([eb('quota_expires_at', '>', 0), eb('quota_expires_at', '<=', now)]),
    over: (eb, now) => eb.or([eb('quota_expires_at', 'is', null), eb('quota_expires_at', '>', now)]),
  },
];

/** One pass over every enabled user and reseller with an email; returns how many mails went out. */
export async function runNotices(ctx: Ctx, now = Date.now(), locale: Locale = 'zh-CN'): Promise<{ sent: number }> {
  const { db } = ctx;
  const q = await getSysSection(db, 'quota');
  let sent = 0;
  for (const kind of KINDS) {
    if (!kind.on(q)) continue;
    await db
      .updateTable('users')
      .set({ [kind.flag]: 0 })
      .where(kind.flag, '=', 1)
      .where((eb) => kind.over(eb, now, q))
      .execute();
    const due = await db
      .selectFrom('users')
      .selectAll()
      .where('role', 'in', ['user', 'reseller'])
      .where('status', '=', 1)
      .where('email', '!=', '')
      .where(kind.flag, '=', 0)
      .where((eb) => kind.due(eb, now, q))
      .execute();
    for (const user of due) {
      const claimed = await db.updateTable('users').set({ [kind.flag]: 1 }).where('user_id', '=', user.user_id).where(kind.flag, '=', 0).executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      try {
        await ctx.mailer.send({ to: user.email, subject: t(kind.subject, locale), text: t(kind.body, locale, vars(ctx, user, q)), site: await accountMailSite(db, user) });
        sent++;
      } catch (err) {
        await db.updateTable('users').set({ [kind.flag]: 0 }).where('user_id', '=', user.user_id).execute();
        ctx.log.warn({ err, user_id: user.user_id, notice: kind.flag }, 'quota notice not sent; retried on the next run');
      }
    }
  }
  return { sent };
}

function vars(ctx: Ctx, user: UserRow, q: QuotaSection): Record<string, string> {
  return {
    balance: formatUsd(user.quota),
    threshold: user.warning_threshold > 0 ? `$${user.warning_threshold}` : formatUsd(q.threshold),
    expires_at: formatTime(user.quota_expires_at, ctx.config.timeZone),
  };
}

/**
 * On the system config's `quota_task.cron` while `quota_task.open` (docs/SPEC.md §3.15.3). It starts on the
 * default schedule without reading the database (it is created before the migrations run); each run
 * and each `quota_task` write re-reads the section and reschedules when it changed. `protect` skips a
 * run while the previous one is still going; overlapping instances are safe (each notice is claimed).
 */
export function startNotices(ctx: Ctx): { stop(): void } {
  let pattern = SYS_CONFIG_DEFAULTS.quota_task.cron;
  let job: Cron | undefined;
  const schedule = (cron: string) => {
    job?.stop();
    job = undefined;
    pattern = cron;
    if (!cron) return;
    try {
      job = new Cron(cron, { ...cronZone(ctx.config.timeZone), protect: true, sloppyRanges: true }, () => void tick());
    } catch (err) {
      ctx.log.warn({ cron, err: String(err) }, 'quota_task cron is invalid; quota notices are not scheduled');
    }
  };
  /** The section's schedule now: true when this run should go ahead. */
  const follow = async (): Promise<boolean> => {
    const section = await getSysSection(ctx.db, 'quota_task');
    const want = section.open ? section.cron : '';
    if (want !== pattern) schedule(want);
    return section.open && want === pattern;
  };
  const tick = async () => {
    try {
      if (await follow()) await runNotices(ctx);
    } catch (err) {
      ctx.log.error({ err }, 'quota notices failed');
    }
  };
  schedule(pattern);
  const unsubscribe = ctx.bus.subscribe((e) => {
    if (e.entity === 'sys_configs' && (!e.ids.length || e.ids.includes('quota_task'))) follow().catch((err: unknown) => ctx.log.error({ err }, 'rescheduling quota notices failed'));
  });
  return {
    stop() {
      unsubscribe();
      job?.stop();
    },
  };
}
