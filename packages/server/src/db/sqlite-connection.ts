// What every connection to the embedded SQLite file needs, the main thread's and the writer thread's
// (billing/sqlite-writer-thread.ts): its settings, and kysely's view of it with statements kept prepared.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * Settings every connection to the file needs: foreign keys,
 * and statement journals in memory. A multi-row insert inside a transaction keeps a statement journal
 * (the pages it changes, to undo just that statement); past 64 KiB SQLite spills it to a temp file. Under
 * load the writer thread spent a fifth of its time in those writes, more as the table grew, since a 100-row
 * insert touches more distinct index pages in a bigger table (docs/BENCHMARKS.md, "Third pass").
 */
export const CONNECTION_PRAGMAS: readonly string[] = ['foreign_keys = ON', 'temp_store = MEMORY'];

/** Statements kept prepared on a connection, by SQL text, least recently used out first. */
const CACHED_STATEMENTS = 128;
/**
 * Longer texts are multi-row statements (an INSERT of hundreds of rows), seldom the same twice, and their
 * compiled programs are large (~0.4 MB for 100 rows of a call log): prepared each time, as before.
 */
const CACHED_SQL_CHARS = 2_000;

/**
 * A connection as kysely sees it (the main thread's, and the writer thread's for the statistics job).
 * kysely prepares every query anew, and SQLite compiles its text each time (~30 µs for an upsert); the
 * console's and the statistics job's statements are few distinct texts run again and again, so they are
 * kept prepared. One connection, used by one query at a time (kysely's single-connection provider holds
 * it, streams included), so a cached statement is never busy.
 *
 * kysely opens SQLite transactions with a plain (deferred) BEGIN. The main thread and the writer thread
 * commit on two connections to the file; a deferred transaction that read before the other's commit and
 * writes after it fails at once (SQLITE_BUSY: its snapshot is stale, and no busy wait helps). BEGIN
 * IMMEDIATE takes the write lock first, waiting (busy_timeout) for the other's transaction to end.
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
