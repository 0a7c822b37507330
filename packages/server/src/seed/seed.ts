// The seed in order, against a built app: catalogue and accounts when missing, then the call logs,
// their charges, the daily statistics and (PostgreSQL) fresh planner statistics. The CLI
// (seed-logs.ts) and the tests call this; it prints nothing but the `progress` it is given.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ensureCallLogPartitionsAhead } from '../db/call-log-partitions';
import { runStatistics, MAX_CHUNK } from '../jobs/statistics';
import { getSysSection } from '../settings/sys-config';
import { ensureAccounts } from './accounts';
import { applyCharges } from './balances';
import { openLogWriter } from './bulk-insert';
import { callLogChunks, Tally } from './call-logs';
import { ensureCatalogue } from './catalogue';
import { consoleAs } from './console-client';
import { Random } from './random';

const DAY = 86_400_000;

export interface SeedOptions {
  rows: number;
  days: number;
  users: number;
  resellers: number;
  seed: number;
  chunk: number;
  password: string;
  statistics: boolean;
  /** Called every few seconds while call logs are written. */
  progress?: (inserted: number, seconds: number) => void;
}

export interface SeedSummary {
  rows: number;
  requests: number;
  /** Rows per call status. */
  statuses: Record<string, number>;
  /** Quota units charged. */
  spend: number;
  statRows: number;
  /** Seconds per phase. */
  seconds: Record<string, number>;
  window: { start: number; end: number };
  created: { corps: number; agents: number; models: number; groups: number; resellers: number; users: number; apps: number; keys: number; quotaMoves: number };
  /** The heaviest caller and its favourite model; the first reseller. */
  heavy?: { account: string; user_id: number; model?: string };
  reseller?: { account: string; user_id: number };
}

export async function seedLogs(app: FastifyInstance, opts: SeedOptions): Promise<SeedSummary> {
  const { ctx } = app;
  const seconds: Record<string, number> = {};
  const timer = () => {
    const t0 = performance.now();
    return () => (performance.now() - t0) / 1000;
  };
  const rng = new Random(opts.seed);
  const now = Date.now();
  const windowStart = now - opts.days * DAY;
  const adminRow = await ctx.db.selectFrom('users').selectAll().where('role', '=', 'admin').orderBy('user_id').limit(1).executeTakeFirstOrThrow();

  let t = timer();
  const admin = await consoleAs(app, adminRow);
  const catalogue = await ensureCatalogue(ctx, admin).finally(() => admin.close());
  seconds.catalogue = t();

  t = timer();
  const accounts = await ensureAccounts(ctx, { users: opts.users, resellers: opts.resellers, windowStart, password: opts.password, rng }, catalogue, (u) => consoleAs(app, u));
  seconds.accounts = t();

  t = timer();
  const log = await getSysSection(ctx.db, 'log');
  const tally = new Tally();
  // PostgreSQL: the seeded days get their own partitions (at most a year back), not the default one.
  await ensureCallLogPartitionsAhead(ctx, now, Math.max(windowStart, now - 366 * DAY));
  const writer = await openLogWriter(ctx.config);
  let inserted = 0;
  let reported = performance.now();
  // One chunk in flight: on PostgreSQL the server stores a chunk while the next one is generated here
  // (two processes, two cores); SQLite writes synchronously, so nothing changes there. Memory: two chunks.
  let pending: Promise<number> | undefined;
  try {
    const plan = { rows: opts.rows, windowStart, now, timeZone: ctx.config.timeZone, keep: log.open ? log.chat_records : [], chunkSize: opts.chunk, rng };
    for (const rows of callLogChunks(plan, accounts.users, catalogue, tally)) {
      if (pending) inserted += await pending;
      pending = writer.write(rows);
      if (opts.progress && performance.now() - reported > 5000) {
        reported = performance.now();
        opts.progress(inserted, t());
      }
    }
    if (pending) inserted += await pending;
    pending = undefined;
  } finally {
    // A failed generator leaves a write in flight: let it settle (its error is not the one to report).
    await pending?.catch(() => 0);
    await writer.close();
  }
  seconds.logs = t();

  t = timer();
  const { recharged } = await applyCharges(ctx, tally);
  seconds.balances = t();

  let statRows = 0;
  if (opts.statistics) {
    t = timer();
    // PostgreSQL: the planner's statistics first. Without them the statistics job's keyset read (ORDER BY
    // created_at, id LIMIT 50000) over the day partitions is planned as a bitmap scan of every remaining
    // row and an external sort, ~25 s a chunk at 10M rows; with them, a merge of the partitions' indexes.
    if (ctx.dialect === 'postgres') await sql`analyze call_logs`.execute(ctx.db);
    // The app's own scheduled run may hold the lock: wait for it, then read what is left.
    for (;;) {
      const r = await runStatistics(ctx, { limit: MAX_CHUNK });
      statRows += r.rows;
      if (!r.locked) break;
      await new Promise((res) => setTimeout(res, 1000));
    }
    seconds.statistics = t();
  }
  if (ctx.dialect === 'postgres') {
    // What autovacuum does shortly after such a load: plans from real statistics, not guesses, and a
    // visibility map, without which no count can be answered from an index alone (the log page's is).
    t = timer();
    await sql`vacuum (analyze)`.execute(ctx.db);
    seconds.analyze = t();
  }

  const heavy = accounts.users[0];
  const favourite = heavy ? [...(tally.userModels.get(heavy.user_id) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0] : undefined;
  const reseller = accounts.resellers[0];
  const { deals, ...made } = accounts.created;
  return {
    rows: inserted,
    requests: tally.requests,
    statuses: Object.fromEntries([...tally.statuses].sort((a, b) => b[0] - a[0])),
    spend: tally.spend,
    statRows,
    seconds,
    window: { start: windowStart, end: now },
    created: { ...catalogue.created, ...made, quotaMoves: deals + recharged },
    heavy: heavy && { account: heavy.account, user_id: heavy.user_id, model: favourite },
    reseller: reseller && { account: reseller.account, user_id: reseller.user_id },
  };
}
