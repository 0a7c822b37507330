// Database connection: embedded SQLite under DATA_DIR, or PostgreSQL when DATABASE_URL is set.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index';
import type { Database, DB } from './schema';

// PostgreSQL returns bigint (int8) as a string; quota and epoch-ms values fit a double (< 2^53).
pg.types.setTypeParser(20, (v) => Number(v));

export type Dialect = 'sqlite' | 'postgres';

export function createDb(opts: { databaseUrl?: string; dataDir: string }): { db: DB; dialect: Dialect } {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server closed (restart, failover) emits here; without a listener the process
    // would crash. The pool drops it and the next query opens a new one; queries report their own errors.
    pool.on('error', () => {});
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, 'fastgate.db'));
  file.pragma('journal_mode = WAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) }), dialect: 'sqlite' };
}

export async function migrateToLatest(db: DB): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
