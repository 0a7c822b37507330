// Daily housekeeping: call logs past the system config's retention (SPEC §3 log retention days; 0 keeps
// them forever), expired sessions and spent verification codes. Logs go in small batches
// (jobs/call-log-purge.ts) so the gateway keeps writing while millions of old rows leave.
import { Cron } from 'croner';
import type { Ctx } from '../context';
import { getSysSection } from '../settings/sys-config';
import { purgeCallLogs, type PurgeOptions } from './call-log-purge';

const DAY_MS = 86_400_000;

export async function housekeep(ctx: Ctx, now = Date.now(), opts: PurgeOptions = {}): Promise<{ logs: number }> {
  const { chat_reserve } = await getSysSection(ctx.db, 'log');
  let logs = 0;
  if (chat_reserve > 0) {
    const cutoff = now - chat_reserve * DAY_MS;
    logs = await purgeCallLogs(ctx, (q) => q.where('req_time', '<', cutoff), opts);
  }
  await ctx.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('verify_codes').where('expires_at', '<=', now - DAY_MS).execute();
  if (logs) ctx.log.info({ logs, days: chat_reserve }, 'deleted call logs past their retention');
  return { logs };
}

/** Daily at 2:00; `stop` also ends a purge in progress between two batches, before the database closes. */
export function startHousekeeping(ctx: Ctx): { stop(): void } {
  let stopping = false;
  const job = new Cron('0 2 * * *', { timezone: ctx.config.timeZone, protect: true }, () => {
    housekeep(ctx, Date.now(), { stopped: () => stopping }).catch((err: unknown) => ctx.log.error({ err }, 'housekeeping failed'));
  });
  return {
    stop() {
      stopping = true;
      job.stop();
    },
  };
}
