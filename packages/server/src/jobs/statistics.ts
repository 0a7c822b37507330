// The statistics job (docs/SPEC.md §3.10 Bill; issue 6): builds the daily statistics tables from call_logs
// incrementally. A keyset cursor over (created_at, id) in stat_cursors says how far it has read; each
// chunk of rows is summed in memory and added to the tables in one transaction that also moves the
// cursor, so every row counts exactly once. A lock in the same cursor row keeps two instances from
// running together (a conditional UPDATE claims it; every chunk's cursor move re-checks and extends
// it, so a run that outlived its lock rolls back instead of double counting).
//
// Why the cutoff is safe: the ledger stamps created_at when it starts writing a batch and this
// process writes batches one after another, so once a flush queued behind them resolves, every row
// stamped before that flush was called is committed; batches started later carry later stamps. Other
// instances' batches may commit late by their transaction time: `lagMs` holds the cutoff back for them.
import { setImmediate } from 'node:timers/promises';
import { Cron } from 'croner';
import type { Ctx } from '../context';
import { isPostgres } from '../db/migrations/dialect';
import type { CallLogsTable } from '../db/schema';
import { getSysSection } from '../settings/sys-config';
import { aggregate, emptyDeltas, STAT_SOURCE_COLUMNS, type StatSourceRow } from '../stats/aggregate';
import { writeDeltas } from '../stats/write';
import { cronZone } from '../zone';

/** The statistics job's cursor row in stat_cursors (GET /metrics reads its lag too). */
export const CURSOR = 'call_logs';
/** Rows per chunk (one transaction), whatever the configured limit. */
export const MAX_CHUNK = 50_000;
/**
 * Rows per read on SQLite, whose queries run on the event loop. A chunk is read in pieces this size with
 * the loop let go between them, and written once: reading and summing 250 rows held it ~2 ms, and the
 * chunk's writes another 1–4 ms (ten statements, whatever the chunk's size). Right after a burst of calls
 * the job reads tens of thousands of rows in a row, and those holds set the event loop's delay.
 */
const SYNC_READ = 125;

export interface StatisticsOptions {
  /** Writes what this process still buffers (the gateway ledger's logs) before reading. */
  flush?: () => Promise<void>;
  /** Read only rows stamped at least this long ago (other instances' batches may commit late). Default 0. */
  lagMs?: number;
  /** Rows per chunk (at most MAX_CHUNK); default the system config's `statistics.limit` (on SQLite at most SYNC_CHUNK). */
  limit?: number;
}

export interface StatisticsResult {
  /** Call-log rows added to the statistics by this run. */
  rows: number;
  chunks: number;
  /** Another run held the lock: nothing was read. */
  locked: boolean;
}

class LostLock extends Error {}

const ensured = new WeakSet<object>();

/** Reads every call log written since the last run into the statistics tables, chunk by chunk, until caught up. */
export async function runStatistics(ctx: Ctx, opts: StatisticsOptions = {}): Promise<StatisticsResult> {
  const { db } = ctx;
  if (!ensured.has(db)) {
    await db.insertInto('stat_cursors').values({ name: CURSOR, created_at: 0, last_id: '', lock_until: 0, updated_at: Date.now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
    ensured.add(db);
  }

  // Write what the ledger holds, step past the current millisecond, then flush again behind any batch
  // started meanwhile: everything stamped before `started` is committed now, and whatever is stamped
  // later lies above the cutoff. So a run includes the calls settled before it began.
  await opts.flush?.();
  const called = Date.now();
  while (Date.now() <= called) await new Promise((r) => setTimeout(r, 1));
  const started = Date.now();
  await opts.flush?.();
  const cutoff = started - 1 - Math.max(0, opts.lagMs ?? 0);

  // Nothing new (the usual case every few seconds): the cursor by key and one probe on the
  // (created_at, id) index, no writes. (Joined into one statement, PostgreSQL would plan a seq scan.)
  const at = await db.selectFrom('stat_cursors').select(['created_at', 'last_id']).where('name', '=', CURSOR).executeTakeFirstOrThrow();
  if (!(await after(ctx, at, cutoff, 1, ['id'])).length) return { rows: 0, chunks: 0, locked: false };

  const section = await getSysSection(db, 'statistics');
  const limit = Math.max(1, Math.min(MAX_CHUNK, Math.floor(opts.limit ?? section.limit)));
  // PostgreSQL answers off the event loop: a chunk is one read.
  const piece = isPostgres(db) ? limit : Math.min(SYNC_READ, limit);
  const lockMs = section.lock_minutes * 60_000;
  let lock = Date.now() + lockMs;
  const claimed = await db.updateTable('stat_cursors').set({ lock_until: lock, updated_at: Date.now() }).where('name', '=', CURSOR).where('lock_until', '<', Date.now()).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { rows: 0, chunks: 0, locked: true };

  const result: StatisticsResult = { rows: 0, chunks: 0, locked: false };
  try {
    // Ours while the lock holds: read again (a run that held it before may have moved it), then
    // carried forward chunk by chunk.
    let from = await db.selectFrom('stat_cursors').select(['created_at', 'last_id']).where('name', '=', CURSOR).executeTakeFirstOrThrow();
    for (;;) {
      // One chunk: up to `limit` rows read in pieces and summed as they come, then written in one
      // transaction that also moves the cursor past them.
      const deltas = emptyDeltas();
      let read = 0;
      let next = from;
      for (;;) {
        const want = Math.min(piece, limit - read);
        const rows = (await after(ctx, next, cutoff, want, STAT_SOURCE_COLUMNS)) as StatSourceRow[];
        if (!rows.length) break;
        aggregate(rows, ctx.config.timeZone, deltas);
        read += rows.length;
        const last = rows[rows.length - 1]!;
        next = { created_at: Number(last.created_at), last_id: last.id };
        if (rows.length < want || read >= limit) break;
        // SQLite answers synchronously, so the awaits above never reach the event loop.
        await setImmediate();
      }
      if (!read) break;
      const now = Date.now();
      const renewed = now + lockMs;
      await db.transaction().execute(async (trx) => {
        // First, so PostgreSQL holds the cursor row for the whole transaction.
        const moved = await trx
          .updateTable('stat_cursors')
          .set({ ...next, lock_until: renewed, updated_at: now })
          .where('name', '=', CURSOR)
          .where('lock_until', '=', lock)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new LostLock();
        await writeDeltas(trx, deltas, now);
      });
      lock = renewed;
      from = next;
      result.rows += read;
      result.chunks++;
      if (read < limit) break;
      // Without this, a run held the loop for all its chunks in a row (~120 ms after 10 s at 1,600 calls/s).
      await setImmediate();
    }
  } catch (err) {
    if (!(err instanceof LostLock)) throw err;
    ctx.log.warn({ rows: result.rows }, 'statistics run outlived its lock; another run continues from the cursor');
  } finally {
    await db.updateTable('stat_cursors').set({ lock_until: 0 }).where('name', '=', CURSOR).where('lock_until', '=', lock).execute();
  }
  return result;
}

/** Call logs after the cursor (keyset on the (created_at, id) index) stamped at or before `cutoff`, in order. */
function after<C extends keyof CallLogsTable & string>(ctx: Ctx, at: { created_at: number; last_id: string }, cutoff: number, limit: number, columns: readonly C[]) {
  return ctx.db
    .selectFrom('call_logs')
    .select(columns)
    .where('created_at', '<=', cutoff)
    .where('created_at', '>=', at.created_at)
    .where((eb) => eb.or([eb('created_at', '>', at.created_at), eb('id', '>', at.last_id)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

export interface StatisticsJob {
  /** Schedules the job (after the migrations: it reads its schedule from the database). */
  start(): void;
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the job on the system config's `statistics.cron` while `statistics.open`, and follows changes
 * of that section (the bus publishes every sys config write). Quartz-style steps ("0 0/5 * * * ?")
 * are accepted as the original console writes them.
 */
export function statisticsJob(ctx: Ctx, opts: StatisticsOptions = {}): StatisticsJob {
  let job: Cron | undefined;
  let pattern = '';
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let scheduling: Promise<void> = Promise.resolve();
  let unsubscribe = () => {};

  const run = () => {
    running = runStatistics(ctx, opts).then(
      () => undefined,
      (err: unknown) => ctx.log.error({ err }, 'statistics run failed'),
    );
    return running;
  };

  const schedule = async () => {
    const section = await getSysSection(ctx.db, 'statistics');
    const want = section.open ? section.cron : '';
    if (stopped || want === pattern) return;
    job?.stop();
    job = undefined;
    pattern = want;
    if (!want) return;
    try {
      job = new Cron(want, { ...cronZone(ctx.config.timeZone), protect: true, sloppyRanges: true }, run);
    } catch (err) {
      ctx.log.warn({ cron: want, err: String(err) }, 'statistics cron is invalid; the statistics job is not scheduled');
    }
  };
  const reschedule = () => {
    scheduling = scheduling.then(schedule).catch((err: unknown) => ctx.log.error({ err }, 'scheduling the statistics job failed'));
  };

  return {
    start() {
      unsubscribe = ctx.bus.subscribe((e) => {
        if (e.entity === 'sys_configs' && (!e.ids.length || e.ids.includes('statistics'))) reschedule();
      });
      reschedule();
    },
    async stop() {
      stopped = true;
      unsubscribe();
      await scheduling;
      job?.stop();
      await running;
    },
  };
}
