// The SQLite writer thread (billing/sqlite-writer.ts starts it and speaks to it): its own connection to
// the file, and two kinds of work the main thread hands it so that its event loop never waits on them.
//   - A batch of the ledger: statements the main thread compiled (ledger-write.ts `planEntries`), run in
//     one IMMEDIATE transaction, answered once committed.
//   - A statistics run (stats/count.ts) up to a cutoff the main thread chose: rows read, summed and
//     written here, chunk by chunk, with the ledger's batches let in between the pieces.
// Messages are answered by id, with the error as the main connection would have thrown it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../db/schema';
import { immediateTransactions } from '../db/sqlite-connection';
import { boundedTextMemo } from '../memo';
import { countCallLogs, statRowsStatement, type CountRun, type StatRowReader } from '../stats/count';
import { runInZone } from '../zone';
import { epochNow } from './thread-clock';

export interface WriterData {
  file: string;
  busyMs: number;
  pragmas: string[];
  /** The zone the main thread made the process's own (zone.ts), so the stat dates come from Date here too. */
  zone: string | undefined;
  /** Run as background work (below): until a batch falls behind (sqlite-writer.ts `BEHIND_MS`). */
  background: boolean;
}

export type WriterMessage = { id: number; statements: [sql: string, parameters: readonly unknown[]][] } | { id: number; statistics: CountRun };

/** A batch's answer says when the thread finished it (`epochNow()`), whatever became of it. */
export interface WriterAnswer {
  id: number;
  error?: WriterFailure;
  result?: unknown;
  finished?: number;
}

export interface WriterFailure {
  name?: string;
  message: string;
  code?: unknown;
}

const data = workerData as WriterData;
const port = parentPort!;
if (data.zone) runInZone(data.zone);

/**
 * This thread alone as background work: its batches are, and a call's thread woken onto the core where a
 * batch was running waited out the batch's ~1 ms (at c=1 a call every 20 ms, the product's p99;
 * docs/BENCHMARKS.md, twenty-fifth session). Nice 19 first; then SCHED_IDLE where util-linux's `chrt` can
 * set it (Node has no call for the policy): at nice 19 the scheduler still let a running batch finish its
 * slice before a woken call's thread, and at c=1 calls that overlapped a batch ran ~0.3 ms longer; a
 * SCHED_IDLE thread gives way at once (twenty-seventh session). Either starves on a machine whose cores are
 * all busy, which sqlite-writer.ts `BEHIND_MS` catches. Linux only: there setpriority(…, 0, …) and
 * /proc/thread-self name the calling thread; elsewhere it would lower the whole process. A thread may
 * always lower its own priority.
 */
function runAsBackground(): void {
  try {
    os.setPriority(19);
  } catch {
    // Refused (a sandbox): the thread runs at the process's priority, as before.
    return;
  }
  try {
    const tid = fs.readlinkSync('/proc/thread-self').split('/').pop()!;
    spawnSync('chrt', ['--idle', '--pid', '0', tid], { stdio: 'ignore', timeout: 2_000 });
  } catch {
    // No /proc or no chrt: nice 19 it is.
  }
}
if (data.background && process.platform === 'linux') runAsBackground();

const file = new SQLite(data.file);
file.pragma(`busy_timeout = ${data.busyMs}`);
for (const p of data.pragmas) file.pragma(p);
/** The statistics run's view of the connection (the ledger's batches use the connection directly). */
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: immediateTransactions(file) }) });

// A batch is 100-row inserts of a few sizes and one update per kind of account: a handful of distinct texts.
const prepare = boundedTextMemo(200, (sql: string) => file.prepare(sql));
/**
 * The statistics job's rows as arrays from one prepared statement (stats/count.ts `statRowsStatement`),
 * prepared at its first run (a file without call_logs yet never runs one).
 */
let statRows: { statement: SQLite.Statement; read: ReturnType<typeof statRowsStatement> } | undefined;
const readStatRows: StatRowReader = (at, cutoff, limit) => {
  if (!statRows) {
    const read = statRowsStatement(db);
    statRows = { statement: file.prepare(read.sql).raw(true), read };
  }
  const { statement, read } = statRows;
  return read.rows(statement.all(...read.parameters(at, cutoff, limit)) as unknown[][]);
};

const begin = file.prepare('BEGIN IMMEDIATE');
const commit = file.prepare('COMMIT');
const rollback = file.prepare('ROLLBACK');

/**
 * Whether every parameter is a plain value, to be bound as arguments: better-sqlite3 reads an array's
 * elements one V8 API call each and its arguments directly, so a 100-row call-log insert binds ~6 µs a row
 * faster (docs/BENCHMARKS.md, eleventh pass). An object among the arguments would be read as named
 * parameters, not refused as unbindable (the TypeError refusesRows() counts on): those go as the array.
 * SQLite takes at most 32,766 parameters a statement, far below V8's limit on arguments.
 */
function scalars(parameters: readonly unknown[]): boolean {
  for (const p of parameters) if (p !== null && typeof p === 'object') return false;
  return true;
}

function writeBatch(statements: [string, readonly unknown[]][]): void {
  // A statistics chunk's transaction never spans a turn of this thread (its queries answer synchronously,
  // its awaits are microtasks), so none is open here; were one ever, the batch fails and the ledger
  // writes it again later, rather than joining or rolling back the chunk's transaction.
  if (file.inTransaction) throw new Error('the SQLite writer thread is inside a statistics transaction');
  begin.run();
  try {
    for (const [sql, parameters] of statements) {
      const statement = prepare(sql);
      if (scalars(parameters)) statement.run(...parameters);
      else statement.run(parameters);
    }
    commit.run();
  } catch (err) {
    if (file.inTransaction) rollback.run();
    throw err;
  }
}

const failure = (err: unknown): WriterFailure => {
  const e = err as { name?: string; message?: unknown; code?: unknown } | undefined;
  return { name: e?.name, message: String(e?.message ?? err), code: e?.code };
};

port.on('message', (msg: WriterMessage) => {
  if ('statistics' in msg) {
    countCallLogs(db, msg.statistics, readStatRows).then(
      (result) => port.postMessage({ id: msg.id, result }),
      (err: unknown) => port.postMessage({ id: msg.id, error: failure(err) }),
    );
    return;
  }
  let answer: WriterAnswer;
  try {
    writeBatch(msg.statements);
    answer = { id: msg.id };
  } catch (err) {
    answer = { id: msg.id, error: failure(err) };
  }
  answer.finished = epochNow();
  port.postMessage(answer);
});
