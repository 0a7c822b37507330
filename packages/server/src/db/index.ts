// Database connection: embedded SQLite under DATA_DIR, or PostgreSQL when DATABASE_URL is set.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type PG from 'pg';
import { migrationProvider } from './migrations/index';
import type { Database, DB, Dialect } from './schema';
import { prepareSqliteFile } from './sqlite-space';

/** The PostgreSQL driver, loaded on first use: the embedded default never needs it (~0.5 MB of heap). */
function postgresDriver(): typeof PG {
  const pg = createRequire(import.meta.url)('pg') as typeof PG;
  // PostgreSQL returns bigint (int8) as a string; quota and epoch-ms values fit a double (< 2^53).
  pg.types.setTypeParser(20, (v) => Number(v));
  return pg;
}

export type { Dialect } from './schema';

/** The embedded database's file under DATA_DIR. */
export const sqliteFile = (dataDir: string): string => path.join(dataDir, 'fastgate.db');

/**
 * Settings every connection to the file needs (this one, and the ledger's writer thread's): foreign keys,
 * and statement journals in memory. A multi-row insert inside a transaction keeps a statement journal
 * (the pages it changes, to undo just that statement); past 64 KiB SQLite spills it to a temp file. Under
 * load the writer thread spent a fifth of its time in those writes, more as the table grew, since a 100-row
 * insert touches more distinct index pages in a bigger table (docs/BENCHMARKS.md, "Third pass").
 */
export const CONNECTION_PRAGMAS: readonly string[] = ['foreign_keys = ON', 'temp_store = MEMORY'];

export function createDb(opts: { databaseUrl?: string; dataDir: string }): { db: DB; dialect: Dialect } {
  if (opts.databaseUrl) {
    const pool = new (postgresDriver().Pool)({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server closed (restart, failover) emits here; without a listener the process
    // would crash. The pool drops it and the next query opens a new one; queries report their own errors.
    pool.on('error', () => {});
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(sqliteFile(opts.dataDir));
  // Before anything creates the first table: a new file hands freed pages back (db/sqlite-space.ts runs
  // incremental_vacuum after big deletes). On an existing file this only records the mode for its next VACUUM.
  file.pragma('auto_vacuum = INCREMENTAL');
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 5000');
  for (const p of CONNECTION_PRAGMAS) file.pragma(p);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: immediateTransactions(file) }) });
  // A file made without auto_vacuum switches now while small, before anything reads or serves (db/sqlite-space.ts).
  prepareSqliteFile(file, db);
  return { db, dialect: 'sqlite' };
}

/** Statements kept prepared on the main connection, by SQL text, least recently used out first. */
const CACHED_STATEMENTS = 128;
/**
 * Longer texts are multi-row statements (an INSERT of hundreds of rows), seldom the same twice, and their
 * compiled programs are large (~0.4 MB for 100 rows of a call log): prepared each time, as before.
 */
const CACHED_SQL_CHARS = 2_000;

/**
 * The main connection as kysely sees it. kysely prepares every query anew, and SQLite compiles its text
 * each time (~30 µs for an upsert); the console's and the statistics job's statements are few distinct
 * texts run again and again, so they are kept prepared. One connection, used by one query at a time
 * (kysely's single-connection provider holds it, streams included), so a cached statement is never busy.
 *
 * kysely opens SQLite transactions with a plain (deferred) BEGIN. The ledger's writer thread commits on a
 * second connection (billing/sqlite-writer.ts); a deferred transaction here that read before such a commit
 * and writes after it fails at once (SQLITE_BUSY: its snapshot is stale, and no busy wait helps). BEGIN
 * IMMEDIATE takes the write lock first, waiting (busy_timeout) at most one ledger batch for it.
 */
export function immediateTransactions(file: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      cache.clear();
      file.close();
    },
    prepare: (text: string) => {
      const sql = text === 'begin' ? 'begin immediate' : text;
      if (sql.length > CACHED_SQL_CHARS) return file.prepare(sql);
      let stmt = cache.get(sql);
      if (stmt) cache.delete(sql);
      else {
        stmt = file.prepare(sql);
        if (cache.size >= CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
      }
      // Re-inserted: a Map iterates in insertion order, so its first key is the least recently used.
      cache.set(sql, stmt);
      return stmt;
    },
  };
}

export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
