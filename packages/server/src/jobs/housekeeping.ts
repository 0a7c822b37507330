// Daily housekeeping: call logs and stored responses past the system config's retention (docs/SPEC.md §3.15 log
// retention days; 0 keeps them forever), expired sessions and spent verification codes. Logs go in small batches
// (jobs/call-log-purge.ts) so the gateway keeps writing while millions of old rows leave; on PostgreSQL
// whole days go first, and the days ahead are created (db/call-log-partitions.ts). Uploaded
// images no site config references go once past their grace period (settings/upload-quota.ts).
import { Cron } from 'croner';
import type { Ctx } from '../context';
import { ensureCallLogPartitionsAhead } from '../db/call-log-partitions';
import { reclaimSqliteSpace } from '../db/sqlite-space';
import { getSysSection } from '../settings/sys-config';
import { cleanUploads } from '../settings/upload-quota';
import { purgeAuditLogs } from './audit-purge';
import { purgeCallLogsBefore, type PurgeOptions } from './call-log-purge';
import { DAY_MS, purgeOlderThan } from './time-purge';
import { cronZone } from '../zone';

export async function housekeep(ctx: Ctx, now = Date.now(), opts: PurgeOptions = {}): Promise<{ logs: number; uploads: number; audits: number; responses: number }> {
  // PostgreSQL: the days ahead exist before the gateway writes them (by the clock, not `now`).
  await ensureCallLogPartitionsAhead(ctx);
  const { chat_reserve, response_reserve } = await getSysSection(ctx.db, 'log');
  let logs = 0;
  if (chat_reserve > 0) {
    const cutoff = now - chat_reserve * DAY_MS;
    logs = await purgeCallLogsBefore(ctx, cutoff, opts);
  }
  await ctx.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('verify_codes').where('expires_at', '<=', now - DAY_MS).execute();
  if (logs) ctx.log.info({ logs, days: chat_reserve }, 'deleted call logs past their retention');
  // Audit rows past the audit log's own retention (sys config audit_log.audit_reserve).
  const audits = await purgeAuditLogs(ctx, now, opts);
  if (audits) ctx.log.info({ audits }, 'deleted audit log rows past their retention');
  // Stored responses past theirs (log.response_reserve); reads refuse them already (gateway/response-store.ts).
  const responses = await purgeOlderThan(ctx, 'stored_responses', response_reserve, now, opts);
  if (responses) ctx.log.info({ responses }, 'deleted stored responses past their retention');
  const uploads = await cleanUploads(ctx, { now });
  if (uploads) ctx.log.info({ uploads }, 'deleted uploads no site config uses');
  // SQLite: the pages those deletes freed go back to the file system, in small slices (db/sqlite-space.ts).
  await reclaimSqliteSpace(ctx, { stopped: opts.stopped });
  return { logs, uploads, audits, responses };
}

/** Daily at 2:00; `stop` also ends a purge in progress between two batches, before the database closes. */
export function startHousekeeping(ctx: Ctx): { stop(): void } {
  let stopping = false;
  const job = new Cron('0 2 * * *', { ...cronZone(ctx.config.timeZone), protect: true }, () => {
    housekeep(ctx, Date.now(), { stopped: () => stopping }).catch((err: unknown) => ctx.log.error({ err }, 'housekeeping failed'));
  });
  return {
    stop() {
      stopping = true;
      job.stop();
    },
  };
}
