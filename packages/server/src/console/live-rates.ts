// Live rates of the dashboard and the chat log (docs/ORIGINAL-API.md §1.4): requests and prompt + completion tokens
// of the caller's chat logs matching the log filter whose request arrived in the last second or minute.
// Smart-match decision calls and attempts that were retried are not requests of their own. The window
// is a short req_time range, so the (user_id|rid|…, req_time) indexes answer it without a scan.
import { ANY_ROLE } from '@fastgate/core/constants';
import { LogStatus, logFilterSchema, type LogFilter, type PerMinute, type PerSecond } from '@fastgate/core/entities/call-log';
import { DASHBOARD_PER_MINUTE, DASHBOARD_PER_SECOND } from '@fastgate/core/entities/dashboard';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { callerOf, type Caller } from '../http/crud';
import { post } from '../http/route';
import { logsMatching } from './call-log-query';

async function rates(c: Caller, filter: LogFilter, windowMs: number, now = Date.now()): Promise<{ requests: number; tokens: number }> {
  // The filter's own req_time is replaced by the moving window.
  const q = await logsMatching(c, 'chat', filter, { from: now - windowMs, to: now });
  const row = await q
    .where('is_smart_match', '=', 0)
    .where('status', '<>', LogStatus.Retry)
    .select((eb) => [eb.fn.countAll<number | string>().as('requests'), eb.fn.coalesce(eb.fn.sum<number | string>(sql`prompt_tokens + completion_tokens`), sql<number>`0`).as('tokens')])
    .executeTakeFirstOrThrow();
  return { requests: Number(row.requests), tokens: Number(row.tokens) };
}

export async function liveRateRoutes(app: FastifyInstance) {
  post(app, DASHBOARD_PER_SECOND, { schema: logFilterSchema, roles: [ANY_ROLE] }, async (input, request): Promise<PerSecond> => {
    const r = await rates(callerOf(request), input, 1000);
    return { rps: r.requests, tps: r.tokens };
  });

  post(app, DASHBOARD_PER_MINUTE, { schema: logFilterSchema, roles: [ANY_ROLE] }, async (input, request): Promise<PerMinute> => {
    const r = await rates(callerOf(request), input, 60_000);
    return { rpm: r.requests, tpm: r.tokens };
  });
}
