// Deleting call logs without holding the gateway up: the ids of at most `batch` rows are picked in
// request-time order (an index range), deleted by id in one short statement, and the loop yields before
// the next batch, so the ledger's batched writes never wait behind one long delete.
import type { SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/schema';

type LogQuery = SelectQueryBuilder<Database, 'call_logs', object>;

export interface PurgeOptions {
  /** Rows per delete statement. */
  batch?: number;
  /** Pause between batches (ms). */
  pauseMs?: number;
  /** Checked before every batch: a stopping app ends the purge between statements. */
  stopped?: () => boolean;
}

export const PURGE_BATCH = 1000;

/** Deletes every call log `narrow` keeps (it must constrain req_time or an indexed column); returns the count. */
export async function purgeCallLogs(ctx: Ctx, narrow: (q: LogQuery) => LogQuery, opts: PurgeOptions = {}): Promise<number> {
  const batch = opts.batch ?? PURGE_BATCH;
  const pause = opts.pauseMs ?? 10;
  let deleted = 0;
  // Rows before `floor` are gone already: starting there skips the dead index entries PostgreSQL keeps until vacuum.
  let floor: number | undefined;
  while (!opts.stopped?.()) {
    let q = narrow(ctx.db.selectFrom('call_logs')).select(['id', 'req_time']).orderBy('req_time').limit(batch);
    if (floor !== undefined) q = q.where('req_time', '>=', floor);
    const rows = await q.execute();
    if (!rows.length) break;
    const res = await ctx.db.deleteFrom('call_logs').where('id', 'in', rows.map((r) => r.id)).executeTakeFirst();
    deleted += Number(res.numDeletedRows);
    if (rows.length < batch) break;
    floor = rows[rows.length - 1]!.req_time;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return deleted;
}
