// Database connection: embedded SQLite under DATA_DIR, or PostgreSQL when DATABASE_URL is set.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type PG from 'pg';
import { migrationProvider } from './migrations/index';
import type { Database, DB, Dialect } from './schema';
import { CONNECTION_PRAGMAS, immediateTransactions } from './sqlite-connection';
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

export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
