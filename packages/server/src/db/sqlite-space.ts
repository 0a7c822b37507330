// Keeping the SQLite file bounded. Deleted rows only mark pages free; without auto_vacuum the file never
// shrinks and a store under retention grows to its high-water mark forever. New files are made with
// auto_vacuum = INCREMENTAL (db/index.ts, before the first table) and housekeeping hands the free pages
// back after its purges (`reclaimSqliteSpace`) in small slices with a pause between them, so the ledger's
// batched writes never wait behind one long vacuum. An older file made without auto_vacuum needs one full
// VACUUM to switch: done at start-up while the file is small, otherwise a warning says how to do it offline.
import fs from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type { Ctx } from '../context';

/** PRAGMA auto_vacuum: 0 none, 1 full, 2 incremental. */
const INCREMENTAL = 2;

/** Files up to this size are converted at start-up (a VACUUM rewrites the whole file: seconds at this size). */
const CONVERT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Pages handed back per statement (4 KiB pages: 2 MiB), and the pause between slices. Measured on the
 * 2-core bench machine under load: 1024 pages took ~15 ms (p50), 48 ms at worst; half that keeps a
 * ledger write's wait behind a slice in the single-digit milliseconds.
 */
const VACUUM_SLICE_PAGES = 512;
const VACUUM_PAUSE_MS = 10;

type SpaceState =
  | { mode: 'incremental'; converted: boolean; bytes: number }
  /** Made without auto_vacuum and too big to convert at start-up: needs `npm run db:compact` offline. */
  | { mode: 'none'; bytes: number };

/** Per kysely instance: the file's state and its connection (the pragma must run to completion, see below). */
const states = new WeakMap<object, { state: SpaceState; file: BetterSqlite3.Database }>();
const warned = new WeakSet<object>();

/**
 * At open, before the migrations and before serving: a file made without auto_vacuum is converted
 * with one VACUUM when it is small; a new (empty) file already got the pragma from db/index.ts.
 * `key` (the kysely instance) finds the result again for the start-up log (`logSqliteSpace`).
 */
export function prepareSqliteFile(file: BetterSqlite3.Database, key: object, convertMaxBytes = CONVERT_MAX_BYTES): SpaceState {
  const bytes = fileBytes(file);
  let state: SpaceState;
  if (Number(file.pragma('auto_vacuum', { simple: true })) === INCREMENTAL) state = { mode: 'incremental', converted: false, bytes };
  else if (bytes <= convertMaxBytes) {
    // The pending mode was recorded by db/index.ts; VACUUM applies it (and rewrites the file compactly).
    file.pragma('auto_vacuum = INCREMENTAL');
    file.exec('VACUUM');
    state = { mode: 'incremental', converted: true, bytes: fileBytes(file) };
  } else state = { mode: 'none', bytes };
  states.set(key, { state, file });
  return state;
}

function fileBytes(file: BetterSqlite3.Database): number {
  try {
    return fs.statSync(file.name).size;
  } catch {
    return 0;
  }
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

function warnOnce(ctx: Ctx, state: SpaceState) {
  if (state.mode !== 'none' || warned.has(ctx.db)) return;
  warned.add(ctx.db);
  ctx.log.warn(
    `the SQLite file (${mb(state.bytes)} MB) was made without auto_vacuum: space freed by the log retention is reused but never returned, ` +
      `so the file does not shrink. To switch it once, stop the product and run \`npm run db:compact\` (same DATA_DIR; a full VACUUM needs ` +
      `about the file's size free on disk and takes roughly a minute per GB)`,
  );
}

/** The start-up note: the file converted, or the warning that it needs compacting offline. */
export function logSqliteSpace(ctx: Ctx): void {
  const state = states.get(ctx.db)?.state;
  if (!state) return;
  if (state.mode === 'incremental' && state.converted) ctx.log.info({ mb: mb(state.bytes) }, 'converted the SQLite file to incremental auto_vacuum');
  warnOnce(ctx, state);
}

/**
 * After big deletes (housekeeping): returns the file's free pages to the file system, a slice at a time.
 * Nothing on PostgreSQL (its autovacuum reuses the space; call-log partitions drop whole days). Returns the pages handed back.
 */
export async function reclaimSqliteSpace(ctx: Ctx, opts: { slicePages?: number; pauseMs?: number; stopped?: () => boolean } = {}): Promise<number> {
  if (ctx.dialect !== 'sqlite') return 0;
  const entry = states.get(ctx.db);
  if (!entry) return 0;
  if (entry.state.mode === 'none') {
    warnOnce(ctx, entry.state);
    return 0;
  }
  const { file } = entry;
  const slice = Math.max(1, Math.floor(opts.slicePages ?? VACUUM_SLICE_PAGES));
  const pause = opts.pauseMs ?? VACUUM_PAUSE_MS;
  // Through kysely's connection lock, so a slice never lands inside another caller's open transaction.
  // exec, not a prepared statement: run through kysely's driver (a statement's run(), one step) the pragma
  // frees a single page; exec steps it to the end.
  const onConnection = <T>(fn: () => T) => ctx.db.connection().execute(async () => fn());
  const freePages = () => onConnection(() => Number(file.pragma('freelist_count', { simple: true })));
  let left = await freePages();
  let returned = 0;
  while (left > 0) {
    // One short write transaction per slice: the ledger's writes queue behind at most this much.
    await onConnection(() => file.exec(`PRAGMA incremental_vacuum(${Math.min(slice, left)})`));
    const now = await freePages();
    // No progress (another connection holds the lock, or the pages are not movable): try again tomorrow.
    if (now >= left) break;
    returned += left - now;
    left = now;
    // A stopping app ends the vacuum between two slices (asked only when another slice is due).
    if (left === 0 || opts.stopped?.()) break;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  if (returned > 0) {
    // In WAL mode the main file is cut short at the checkpoint; PASSIVE never waits for the writers.
    await onConnection(() => file.pragma('wal_checkpoint(PASSIVE)'));
    ctx.log.info({ pages: returned }, 'returned free SQLite pages to the file system');
  }
  return returned;
}
