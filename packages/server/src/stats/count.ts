// The database half of the statistics job (jobs/statistics.ts): adds the call logs past the job's cursor
// to the daily statistics tables. A keyset cursor over (created_at, id) in stat_cursors says how far it
// has read; each chunk of rows is summed in memory and added to the tables in one transaction that also
// moves the cursor, so every row counts exactly once. A lock in the same cursor row keeps two runs from
// counting together (a conditional UPDATE claims it; every chunk's cursor move re-checks and extends it,
// so a run that outlived its lock rolls back instead of double counting).
//
// It runs wherever the connection is: on the main thread (PostgreSQL answers off the event loop), or on
// SQLite in the writer thread (billing/sqlite-writer-thread.ts), where reading and summing the rows holds
// no request up. It imports nothing of the job's schedule or settings: the thread loads what it needs only.
import { setImmediate } from 'node:timers/promises';
import { isPostgres } from '../db/migrations/dialect';
import type { CallLogsTable, DB } from '../db/schema';
import { aggregate, emptyDeltas, STAT_SOURCE_COLUMNS, type Deltas, type StatSourceRow } from './aggregate';
import { writeDeltas } from './write';

/** The statistics job's cursor row in stat_cursors (GET /metrics reads its lag too). */
export const CURSOR = 'call_logs';
/**
 * Rows per read on SQLite, whose queries answer synchronously. A chunk is read in pieces this size with the
 * thread let go between them, and written once: reading and summing 250 rows held it ~2 ms, and the
 * chunk's writes another 1–4 ms (ten statements, whatever the chunk's size). Right after a burst of calls
 * the job reads tens of thousands of rows in a row: on the main thread those holds set the event loop's
 * delay, in the writer thread the ledger's batches wait for them. The pieces also bound the rows held at once.
 */
const SYNC_READ = 125;
/**
 * Statistics rows a chunk read in pieces (SQLite) may sum in memory, over all its tables, before it is
 * written, whatever its row limit: a chunk of 50,000 call logs of as many users, apps, keys and models
 * held ~300,000 of them, more than the writer thread's heap allows. A chunk cut short leaves the rest to
 * the next one.
 */
export const MAX_CHUNK_KEYS = 20_000;

export interface CountRun {
  /** Read only rows stamped at or before this instant (every batch stamped earlier is committed). */
  cutoff: number;
  /** Rows per chunk (one transaction). */
  limit: number;
  /** How long the lock holds, renewed with every chunk. */
  lockMs: number;
  /** The zone of the stat dates. */
  timeZone: string;
}

export interface Counted {
  /** Call-log rows added to the statistics by this run. */
  rows: number;
  chunks: number;
  /** Another run held the lock: nothing was read. */
  locked: boolean;
  /** The run outlived its lock and stopped (its last chunk rolled back; the next run goes on from the cursor). */
  lost: boolean;
}

class LostLock extends Error {}

const ensured = new WeakSet<object>();

/**
 * Whether any call log lies past the cursor up to `cutoff` (the usual answer every few seconds is no): the
 * cursor by key and one probe on the (created_at, id) index, no writes. (Joined into one statement,
 * PostgreSQL would plan a seq scan.) Creates the cursor row on first use.
 */
export async function hasNewCallLogs(db: DB, cutoff: number): Promise<boolean> {
  if (!ensured.has(db)) {
    await db.insertInto('stat_cursors').values({ name: CURSOR, created_at: 0, last_id: '', lock_until: 0, updated_at: Date.now() }).onConflict((oc) => oc.column('name').doNothing()).execute();
    ensured.add(db);
  }
  const at = await db.selectFrom('stat_cursors').select(['created_at', 'last_id']).where('name', '=', CURSOR).executeTakeFirstOrThrow();
  return (await after(db, at, cutoff, 1, ['id']).execute()).length > 0;
}

/** A place in call_logs' (created_at, id) order: the cursor's. */
export interface Position {
  created_at: number;
  last_id: string;
}

/** Up to `limit` call logs after `at`, stamped at or before `cutoff`, in (created_at, id) order. */
export type StatRowReader = (at: Position, cutoff: number, limit: number) => Promise<StatSourceRow[]> | StatSourceRow[];

/** The reader every connection has: the query through kysely. */
const kyselyReader =
  (db: DB): StatRowReader =>
  (at, cutoff, limit) =>
    after(db, at, cutoff, limit, STAT_SOURCE_COLUMNS).execute() as Promise<StatSourceRow[]>;

/** Marker values the statement is compiled with once, to find where each of a read's values binds. */
const MARKS = { cutoff: -1, created_at: -2, last_id: '\u0001last_id', limit: -3 } as const;

/**
 * The statistics' read as one SQL text, the parameters of a read, and its rows from the arrays a driver
 * that keeps it prepared returns (the SQLite writer thread, in raw mode: building an object per row in
 * better-sqlite3 and compiling the query per piece in kysely took about half of the job's time;
 * docs/BENCHMARKS.md).
 */
export function statRowsStatement(db: DB): { sql: string; parameters: (at: Position, cutoff: number, limit: number) => unknown[]; rows: (arrays: readonly unknown[][]) => StatSourceRow[] } {
  const compiled = after(db, { created_at: MARKS.created_at, last_id: MARKS.last_id }, MARKS.cutoff, MARKS.limit, STAT_SOURCE_COLUMNS).compile();
  const roles = compiled.parameters.map((p) => {
    const role = (Object.keys(MARKS) as (keyof typeof MARKS)[]).find((k) => MARKS[k] === p);
    if (!role) throw new Error(`the statistics read binds a value of its own: ${String(p)}`);
    return role;
  });
  return {
    sql: compiled.sql,
    parameters: (at, cutoff, limit) => roles.map((r) => (r === 'cutoff' ? cutoff : r === 'limit' ? limit : at[r])),
    // Selected in STAT_SOURCE_COLUMNS' order.
    rows: (arrays) =>
      arrays.map((values) => {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < STAT_SOURCE_COLUMNS.length; i++) row[STAT_SOURCE_COLUMNS[i]!] = values[i];
        return row as unknown as StatSourceRow;
      }),
  };
}

/**
 * Reads every call log after the cursor up to `run.cutoff` into the statistics tables, chunk by chunk (the
 * cursor row made by hasNewCallLogs). `readRows` reads the rows on the same connection (default: through kysely).
 */
export async function countCallLogs(db: DB, run: CountRun, readRows: StatRowReader = kyselyReader(db)): Promise<Counted> {
  const result: Counted = { rows: 0, chunks: 0, locked: false, lost: false };
  const { cutoff, limit, lockMs } = run;
  // PostgreSQL answers off the event loop: a chunk is one read.
  const piece = isPostgres(db) ? limit : Math.min(SYNC_READ, limit);
  let lock = Date.now() + lockMs;
  const claimed = await db.updateTable('stat_cursors').set({ lock_until: lock, updated_at: Date.now() }).where('name', '=', CURSOR).where('lock_until', '<', Date.now()).executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return { ...result, locked: true };

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
      // A piece shorter than asked for: nothing is left up to the cutoff.
      let caughtUp = false;
      for (;;) {
        const want = Math.min(piece, limit - read);
        const rows = await readRows(next, cutoff, want);
        caughtUp = rows.length < want;
        if (!rows.length) break;
        aggregate(rows, run.timeZone, deltas);
        read += rows.length;
        const last = rows[rows.length - 1]!;
        next = { created_at: Number(last.created_at), last_id: last.id };
        if (caughtUp || read >= limit || keysOf(deltas) >= MAX_CHUNK_KEYS) break;
        // SQLite answers synchronously, so the awaits above never let the thread go.
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
      if (caughtUp) break;
      // Without this, a run held the thread for all its chunks in a row (~120 ms after 10 s at 1,600 calls/s).
      await setImmediate();
    }
  } catch (err) {
    if (!(err instanceof LostLock)) throw err;
    result.lost = true;
  } finally {
    await db.updateTable('stat_cursors').set({ lock_until: 0 }).where('name', '=', CURSOR).where('lock_until', '=', lock).execute();
  }
  return result;
}

const keysOf = (d: Deltas): number => d.users.size + d.userModels.size + d.models.size + d.apps.size + d.appKeys.size + d.modelUsers.size;

/** Call logs after the cursor (keyset on the (created_at, id) index) stamped at or before `cutoff`, in order. */
function after<C extends keyof CallLogsTable & string>(db: DB, at: Position, cutoff: number, limit: number, columns: readonly C[]) {
  return db
    .selectFrom('call_logs')
    .select(columns)
    .where('created_at', '<=', cutoff)
    .where('created_at', '>=', at.created_at)
    .where((eb) => eb.or([eb('created_at', '>', at.created_at), eb('id', '>', at.last_id)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit);
}
