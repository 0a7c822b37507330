// The audit log's retention (sys config `audit_log.audit_reserve` days; 0 keeps rows forever): rows
// older than that leave like call logs do (jobs/call-log-purge.ts): the ids of at most `batch` rows in
// time order (the created_at index), deleted by id in one short statement, a pause, the next batch, so
// the console's own audit inserts never wait behind one long delete.
import type { Ctx } from '../context';
import { getSysSection } from '../settings/sys-config';
import { PURGE_BATCH, type PurgeOptions } from './call-log-purge';

const DAY_MS = 86_400_000;

/** Deletes the audit rows past their retention at `now`; returns the count. */
export async function purgeAuditLogs(ctx: Ctx, now: number, opts: PurgeOptions = {}): Promise<number> {
  const { audit_reserve } = await getSysSection(ctx.db, 'audit_log');
  if (audit_reserve <= 0) return 0;
  const cutoff = now - audit_reserve * DAY_MS;
  const batch = opts.batch ?? PURGE_BATCH;
  let deleted = 0;
  for (;;) {
    const rows = await ctx.db.selectFrom('audit_logs').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(batch).execute();
    if (!rows.length) break;
    const res = await ctx.db.deleteFrom('audit_logs').where('id', 'in', rows.map((r) => r.id)).executeTakeFirst();
    deleted += Number(res.numDeletedRows);
    // A stopping app ends the purge between two statements.
    if (rows.length < batch || opts.stopped?.()) break;
    await new Promise((resolve) => setTimeout(resolve, opts.pauseMs ?? 10));
  }
  return deleted;
}
