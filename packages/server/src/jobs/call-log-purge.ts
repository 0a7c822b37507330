// Deleting call logs without holding the gateway up: the ids of at most `batch` rows are picked in
// request-time order (an index range), deleted by id in one short statement, and the loop yields before
// the next batch, so the ledger's batched writes never wait behind one long delete. On PostgreSQL,
// retention first drops the whole days past the cutoff (db/call-log-partitions.ts); the batches then
// only see the day that straddles it and the default partition.
import type { SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../context';
import { dropCallLogPartitions } from '../db/call-log-partitions';
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
    let del = ctx.db.deleteFrom('call_logs').where('id', 'in', rows.map((r) => r.id));
    // PostgreSQL: the batch's request-time span narrows the delete to its days (by id alone it would probe every partition's index).
    if (ctx.dialect === 'postgres') del = del.where('req_time', '>=', rows[0]!.req_time).where('req_time', '<=', rows[rows.length - 1]!.req_time);
    const res = await del.executeTakeFirst();
    deleted += Number(res.numDeletedRows);
    if (rows.length < batch) break;
    floor = rows[rows.length - 1]!.req_time;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return deleted;
}

/** Retention: every call log with req_time before `cutoff`, whole partitions first where there are any; returns the count. */
export async function purgeCallLogsBefore(ctx: Ctx, cutoff: number, opts: PurgeOptions = {}): Promise<number> {
  const dropped = ctx.dialect === 'postgres' ? await dropCallLogPartitions(ctx.db, ctx.log, cutoff, opts.stopped) : 0;
  return dropped + (await purgeCallLogs(ctx, (q) => q.where('req_time', '<', cutoff), opts));
}
