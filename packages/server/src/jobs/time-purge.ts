// Retention for tables keyed by a string id with a created_at index (the audit log, stored responses):
// the ids of at most `batch` rows older than the cutoff, in time order, deleted by id in one short
// statement, a pause, the next batch, like call logs (call-log-purge.ts), so the writes that share the
// table never wait behind one long delete.
import type { Ctx } from '../context';
import { PURGE_BATCH, type PurgeOptions } from './call-log-purge';

export const DAY_MS = 86_400_000;

/** Deletes the rows of `table` created `days` days or more before `now` (0 days keeps them); returns the count. */
export async function purgeOlderThan(ctx: Ctx, table: 'audit_logs' | 'stored_responses', days: number, now: number, opts: PurgeOptions = {}): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = now - days * DAY_MS;
  const batch = opts.batch ?? PURGE_BATCH;
  // Both tables have the two columns read here (id: string, created_at: number): typed as one of them.
  const t = table as 'audit_logs';
  const db = ctx.db;
  let deleted = 0;
  for (;;) {
    const rows = await db.selectFrom(t).select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(batch).execute();
    if (!rows.length) break;
    const res = await db.deleteFrom(t).where('id', 'in', rows.map((r) => r.id)).executeTakeFirst();
    deleted += Number(res.numDeletedRows);
    // A stopping app ends the purge between two statements.
    if (rows.length < batch || opts.stopped?.()) break;
    await new Promise((resolve) => setTimeout(resolve, opts.pauseMs ?? 10));
  }
  return deleted;
}
