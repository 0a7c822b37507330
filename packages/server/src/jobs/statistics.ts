// The statistics job (docs/SPEC.md §3.10 Bill; issue 6): builds the daily statistics tables from call_logs
// incrementally, on the system config's schedule. stats/count.ts reads and adds the rows (a cursor, a
// lock, one transaction per chunk); this part decides up to where, with which settings, and where it runs:
// on SQLite the writer thread does it (billing/sqlite-writer.ts), off the event loop. After a burst of
// calls the job reads tens of thousands of rows, and on the main thread its reads and sums set the
// event loop's delay and a good part of the process's peak memory (docs/BENCHMARKS.md, ninth pass).
//
// Why the cutoff is safe: the ledger stamps created_at when it starts writing a batch and this
// process writes batches one after another, so once a flush queued behind them resolves, every row
// stamped before that flush was called is committed; batches started later carry later stamps. Other
// instances' batches may commit late by their transaction time: `lagMs` holds the cutoff back for them.
import { Cron } from 'croner';
import type { SqliteWriter } from '../billing/sqlite-writer';
import type { Ctx } from '../context';
import { getSysSection } from '../settings/sys-config';
import { countCallLogs, CURSOR, hasNewCallLogs, type Counted, type CountRun } from '../stats/count';
import { cronZone } from '../zone';

/** Rows per chunk (one transaction), whatever the configured limit. */
export const MAX_CHUNK = 50_000;

export interface StatisticsOptions {
  /** Writes what this process still buffers (the gateway ledger's logs) before reading. */
  flush?: () => Promise<void>;
  /** Read only rows stamped at least this long ago (other instances' batches may commit late). Default 0. */
  lagMs?: number;
  /** Rows per chunk (at most MAX_CHUNK); default the system config's `statistics.limit`. */
  limit?: number;
  /** SQLite's writer thread: the rows are read, summed and written there, on its connection. */
  writer?: SqliteWriter;
}

/** What a run added (its lost lock, if any, is logged here). */
export type StatisticsResult = Omit<Counted, 'lost'>;

/** Reads every call log written since the last run into the statistics tables, chunk by chunk, until caught up. */
export async function runStatistics(ctx: Ctx, opts: StatisticsOptions = {}): Promise<StatisticsResult> {
  // Write what the ledger holds, step past the current millisecond, then flush again behind any batch
  // started meanwhile: everything stamped before `started` is committed now, and whatever is stamped
  // later lies above the cutoff. So a run includes the calls settled before it began.
  await opts.flush?.();
  const called = Date.now();
  while (Date.now() <= called) await new Promise((r) => setTimeout(r, 1));
  const started = Date.now();
  await opts.flush?.();

  const cutoff = started - 1 - Math.max(0, opts.lagMs ?? 0);
  // Asked here, on the main connection: with nothing new (most runs) the writer thread is not woken, nor started.
  if (!(await hasNewCallLogs(ctx.db, cutoff))) return { rows: 0, chunks: 0, locked: false };

  const section = await getSysSection(ctx.db, 'statistics');
  const run: CountRun = {
    cutoff,
    limit: Math.max(1, Math.min(MAX_CHUNK, Math.floor(opts.limit ?? section.limit))),
    lockMs: section.lock_minutes * 60_000,
    timeZone: ctx.config.timeZone,
  };
  const writer = opts.writer?.usable ? opts.writer : undefined;
  const counted = await (writer ? writer.statistics(run) : countCallLogs(ctx.db, run)).catch(async (err: unknown) => {
    // The thread died in the middle of a run (its open transaction is rolled back): its lock would hold
    // the job off for lock_minutes. One instance on SQLite, so no other instance's lock is taken; a run of
    // this process that loses it stops at its next chunk without counting anything twice.
    if (writer) await ctx.db.updateTable('stat_cursors').set({ lock_until: 0 }).where('name', '=', CURSOR).execute();
    throw err;
  });
  if (counted.lost) ctx.log.warn({ rows: counted.rows }, 'statistics run outlived its lock; another run continues from the cursor');
  return { rows: counted.rows, chunks: counted.chunks, locked: counted.locked };
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
