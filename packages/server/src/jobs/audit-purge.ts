// The audit log's retention (sys config `audit_log.audit_reserve` days; 0 keeps rows forever).
import type { Ctx } from '../context';
import { getSysSection } from '../settings/sys-config';
import type { PurgeOptions } from './call-log-purge';
import { purgeOlderThan } from './time-purge';

/** Deletes the audit rows past their retention at `now`; returns the count. */
export async function purgeAuditLogs(ctx: Ctx, now: number, opts: PurgeOptions = {}): Promise<number> {
  const { audit_reserve } = await getSysSection(ctx.db, 'audit_log');
  return purgeOlderThan(ctx, 'audit_logs', audit_reserve, now, opts);
}
