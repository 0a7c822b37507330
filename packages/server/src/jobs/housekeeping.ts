// Daily housekeeping: call logs past the system config's retention (SPEC §3 log retention days; 0 keeps
// them forever), expired sessions and spent verification codes.
import { Cron } from 'croner';
import type { Ctx } from '../context';
import { getSysSection } from '../settings/sys-config';

const DAY_MS = 86_400_000;

export async function housekeep(ctx: Ctx, now = Date.now()): Promise<{ logs: number }> {
  const { chat_reserve } = await getSysSection(ctx.db, 'log');
  let logs = 0;
  if (chat_reserve > 0) {
    const res = await ctx.db.deleteFrom('call_logs').where('req_time', '<', now - chat_reserve * DAY_MS).executeTakeFirst();
    logs = Number(res.numDeletedRows);
  }
  await ctx.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await ctx.db.deleteFrom('verify_codes').where('expires_at', '<=', now - DAY_MS).execute();
  if (logs) ctx.log.info({ logs, days: chat_reserve }, 'deleted call logs past their retention');
  return { logs };
}

export function startHousekeeping(ctx: Ctx): Cron {
  return new Cron('0 2 * * *', { timezone: ctx.config.timeZone, protect: true }, () => {
    housekeep(ctx).catch((err: unknown) => ctx.log.error({ err }, 'housekeeping failed'));
  });
}
