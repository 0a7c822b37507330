// Queue depths for GET /metrics, read when scraped (never on a request's path): the ledger's unwritten
// batch (memory), async tasks still running and call logs the statistics job has not summed yet
// (database, each an index probe). A database that does not answer in time leaves those gauges empty
// for that scrape rather than holding the scrape.
import { TaskStatus } from '@fastgate/core/entities/task';
import type { Gauge } from 'prom-client';
import type { Ctx } from '../context';
import { CURSOR as STAT_CURSOR } from '../stats/count';
import type { Metrics } from './metrics';
import { PROBE_TIMEOUT_MS, within } from './ready';

/** Rows counted at most for the statistics backlog: the count is a hint, the lag in seconds is the measure. */
const STAT_PENDING_CAP = 10_000;

export interface LedgerDepth {
  logs: number;
  debits: number;
  reservations: number;
}

export function registerQueueGauges(metrics: Metrics, ctx: Ctx, ledger: () => LedgerDepth): void {
  const { db } = ctx;
  /** Sets the gauge from the database, or leaves it empty when the database does not answer. */
  const fromDb =
    <L extends string>(read: (g: Gauge<L>) => Promise<void>) =>
    async (g: Gauge<L>) => {
      g.reset();
      try {
        await within(read(g), PROBE_TIMEOUT_MS);
      } catch (err) {
        ctx.log.debug({ err }, 'a metrics gauge could not read the database');
      }
    };

  metrics.gauge('fastgate_ledger_pending', 'Settled charges (debits) and call logs (logs) waiting for the next batch write.', ['kind'], (g) => {
    const d = ledger();
    g.set({ kind: 'logs' }, d.logs);
    g.set({ kind: 'debits' }, d.debits);
  });
  metrics.gauge('fastgate_ledger_open_reservations', 'Gateway calls holding a balance reservation (not yet settled or refunded).', [], (g) => {
    g.set(ledger().reservations);
  });

  metrics.gauge(
    'fastgate_tasks_pending',
    'Async tasks not finished yet, by status (queued, synthesizing).',
    ['status'],
    fromDb(async (g) => {
      const rows = await db.selectFrom('tasks').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).where('status', 'in', [TaskStatus.Queued, TaskStatus.Synthesizing]).groupBy('status').execute();
      g.set({ status: 'queued' }, 0);
      g.set({ status: 'synthesizing' }, 0);
      for (const r of rows) g.set({ status: r.status === TaskStatus.Queued ? 'queued' : 'synthesizing' }, Number(r.n));
    }),
  );

  // Call logs past the statistics job's cursor (keyset on the (created_at, id) index, like the job).
  const cursor = async () => (await db.selectFrom('stat_cursors').select(['created_at', 'last_id']).where('name', '=', STAT_CURSOR).executeTakeFirst()) ?? { created_at: 0, last_id: '' };
  const unsummed = (at: { created_at: number; last_id: string }) =>
    db
      .selectFrom('call_logs')
      .where('created_at', '>=', Number(at.created_at))
      .where((eb) => eb.or([eb('created_at', '>', Number(at.created_at)), eb('id', '>', at.last_id)]));

  metrics.gauge(
    'fastgate_statistics_lag_seconds',
    'Age of the oldest call log the statistics job has not summed yet (0 when caught up).',
    [],
    fromDb(async (g) => {
      const oldest = await unsummed(await cursor()).select('created_at').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
      g.set(oldest ? Math.max(0, (Date.now() - Number(oldest.created_at)) / 1000) : 0);
    }),
  );
  metrics.gauge(
    'fastgate_statistics_pending_logs',
    `Call logs the statistics job has not summed yet (counted up to ${STAT_PENDING_CAP}).`,
    [],
    fromDb(async (g) => {
      const inner = unsummed(await cursor()).select('id').limit(STAT_PENDING_CAP).as('t');
      const row = await db.selectFrom(inner).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      g.set(Number(row?.n ?? 0));
    }),
  );
}
