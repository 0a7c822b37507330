// Upkeep of call_logs' daily partitions on PostgreSQL (migration 2026-11-24-10; SQLite has one plain
// table and nothing here runs there). Each UTC day is a partition `call_log_parts.call_logs_YYYYMMDD`
// over [day, day + 24 h) of req_time, created ahead by the product (at start-up and by housekeeping:
// yesterday to a week ahead), so the gateway's writes find their day already there; a row outside every
// partition (a journal replayed days later, clock skew, seeded history) lands in the DEFAULT partition
// and never fails. Retention detaches and drops whole days (jobs/call-log-purge.ts).
//
// Every change to the partition set takes one advisory lock, so two instances doing the same upkeep
// take turns and the second finds the work done. DDL waits at most LOCK_WAIT for the tables it locks:
// a lock request queued behind a long read would hold the gateway's writes behind it, so the step gives
// up instead and the next run (or the batched delete, for retention) does the work.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './migrations/dialect';
import type { FastifyBaseLogger } from 'fastify';

const SCHEMA = 'call_log_parts';
const DAY_MS = 86_400_000;
/** pg_advisory_xact_lock key of the partition set (issue 16). */
const LOCK_KEY = 1_600_016_001;
const LOCK_WAIT = '2s';
/** Days kept ready around today: yesterday (clock skew at midnight) to a week ahead (a week of failed upkeep costs nothing). */
const BEHIND = 1;
const AHEAD = 7;

/** The conflict target of the ledger's dedupe: PostgreSQL's unique index must hold the partition key. */
export function callLogConflict(db: Kysely<any>): ('trace_id' | 'attempt' | 'req_time')[] {
  return isPostgres(db) ? ['trace_id', 'attempt', 'req_time'] : ['trace_id', 'attempt'];
}

export interface LogPartition {
  schema: string;
  name: string;
  /** Lower bound of req_time (null: MINVALUE), upper bound excluded (null: MAXVALUE); both null for the default. */
  from: number | null;
  to: number | null;
  isDefault: boolean;
}

const bound = (v: string) => (v === 'MINVALUE' || v === 'MAXVALUE' ? null : Number(v.replace(/'/g, '')));

/** The partitions of call_logs as the catalogue has them, oldest first (the default last). */
export async function callLogPartitions(db: Kysely<any>): Promise<LogPartition[]> {
  const { rows } = await sql<{ schema: string; name: string; bound: string }>`
    select n.nspname as schema, c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
    where i.inhparent = 'call_logs'::regclass`.execute(db);
  const out = rows.map((r): LogPartition => {
    const m = /FROM \((.+)\) TO \((.+)\)/.exec(r.bound);
    return { schema: r.schema, name: r.name, from: m ? bound(m[1]!) : null, to: m ? bound(m[2]!) : null, isDefault: !m };
  });
  const key = (p: LogPartition) => (p.isDefault ? Infinity : (p.from ?? -Infinity));
  return out.sort((a, b) => key(a) - key(b));
}

const overlaps = (p: LogPartition, lo: number, hi: number) => !p.isDefault && (p.from === null || p.from < hi) && (p.to === null || p.to > lo);
const dayName = (lo: number) => `call_logs_${new Date(lo).toISOString().slice(0, 10).replace(/-/g, '')}`;

async function lockPartitionSet(trx: Kysely<any>): Promise<void> {
  await sql`set local lock_timeout = ${sql.lit(LOCK_WAIT)}`.execute(trx);
  await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_KEY)})`.execute(trx);
}

/**
 * Creates the day [lo, lo + 1 day) unless a partition covers part of it already; returns whether it did.
 * Rows of that day in the default partition move into it in the same transaction (PostgreSQL refuses a
 * new partition while the default holds rows of its range); a CHECK constraint spares the attach a scan.
 */
async function createDay(db: Kysely<any>, lo: number): Promise<boolean> {
  const hi = lo + DAY_MS;
  return db.transaction().execute(async (trx) => {
    await lockPartitionSet(trx);
    const parts = await callLogPartitions(trx);
    if (parts.some((p) => overlaps(p, lo, hi))) return false;
    const name = dayName(lo);
    const table = sql.id(SCHEMA, name);
    const range = sql.id(`${name}_range`);
    await sql`create table ${table} (like call_logs including defaults, constraint ${range} check (req_time >= ${sql.lit(lo)} and req_time < ${sql.lit(hi)}))`.execute(trx);
    const def = parts.find((p) => p.isDefault);
    if (def) {
      const d = sql.id(def.schema, def.name);
      // No new row of this day may reach the default between the move and the attach (the attach would fail).
      await sql`lock table ${d} in exclusive mode`.execute(trx);
      await sql`with moved as (delete from ${d} where req_time >= ${lo} and req_time < ${hi} returning *) insert into ${table} select * from moved`.execute(trx);
    }
    await sql`alter table call_logs attach partition ${table} for values from (${sql.lit(lo)}) to (${sql.lit(hi)})`.execute(trx);
    await sql`alter table ${table} drop constraint ${range}`.execute(trx);
    return true;
  });
}

/** The UTC day starting at or before `t`. */
export const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/**
 * Makes sure every UTC day from `from` to `to` (times in ms, both included) has its partition; returns
 * the names created. A day that fails (a lock not had in time) is logged and the run ends there, so a
 * busy table costs one lock wait, not one per day; the next run carries on.
 */
export async function ensureCallLogPartitions(db: Kysely<any>, log: FastifyBaseLogger, from: number, to: number): Promise<string[]> {
  const parts = await callLogPartitions(db);
  const created: string[] = [];
  for (let lo = dayStart(from); lo <= to; lo += DAY_MS) {
    if (parts.some((p) => overlaps(p, lo, lo + DAY_MS))) continue;
    try {
      if (await createDay(db, lo)) created.push(dayName(lo));
    } catch (err) {
      log.warn({ err, partition: dayName(lo) }, 'call log partition not created; the next upkeep tries again');
      break;
    }
  }
  if (created.length) log.info({ partitions: created }, 'created call log partitions');
  return created;
}

/**
 * The upkeep run at start-up and by housekeeping: yesterday (or `since`: the seed's window) to a week
 * ahead of the clock. PostgreSQL only; never throws.
 */
export async function ensureCallLogPartitionsAhead(ctx: { db: Kysely<any>; dialect: string; log: FastifyBaseLogger }, now = Date.now(), since = now - BEHIND * DAY_MS): Promise<string[]> {
  if (ctx.dialect !== 'postgres') return [];
  try {
    return await ensureCallLogPartitions(ctx.db, ctx.log, since, now + AHEAD * DAY_MS);
  } catch (err) {
    ctx.log.warn({ err }, 'call log partition upkeep failed; rows go to the default partition until it succeeds');
    return [];
  }
}

/**
 * Detaches and drops every partition whose range ends at or before `cutoff` (the legacy one too, once
 * it is all past); returns the rows they held. The default partition is never dropped. Counting inside
 * the detach's transaction keeps the count exact: nothing can write to the day once it is detached.
 * A partition whose lock is not had in time stays; the batched delete removes its rows meanwhile.
 */
export async function dropCallLogPartitions(db: Kysely<any>, log: FastifyBaseLogger, cutoff: number, stopped?: () => boolean): Promise<number> {
  const old = (await callLogPartitions(db)).filter((p) => !p.isDefault && p.to !== null && p.to <= cutoff);
  let rows = 0;
  for (const p of old) {
    // A stopping app ends retention between two partitions, before the database closes.
    if (stopped?.()) break;
    try {
      rows += await db.transaction().execute(async (trx) => {
        await lockPartitionSet(trx);
        // Another instance may have dropped it while this one waited for the lock.
        if (!(await callLogPartitions(trx)).some((q) => q.schema === p.schema && q.name === p.name)) return 0;
        const table = sql.id(p.schema, p.name);
        await sql`alter table call_logs detach partition ${table}`.execute(trx);
        const { rows: counted } = await sql<{ n: string | number }>`select count(*) as n from ${table}`.execute(trx);
        await sql`drop table ${table}`.execute(trx);
        return Number(counted[0]?.n ?? 0);
      });
    } catch (err) {
      log.warn({ err, partition: p.name }, 'call log partition not dropped; the batched delete removes its rows');
    }
  }
  return rows;
}
