// The ledger's batches on SQLite, written by a thread of its own. better-sqlite3 is synchronous: on the
// main thread a batch (a few hundred call-log rows into every index of call_logs, the balance updates and
// the commit's fsync) held the event loop for 5–30 ms every 100 ms under load, and every request that
// arrived meanwhile waited (docs/BENCHMARKS.md, issue 16's profiles). The main thread still compiles the
// statements (ledger-write.ts `planEntries`); this thread runs them in one IMMEDIATE transaction on its
// own connection to the same file and answers once committed. WAL lets the main connection read
// meanwhile. The thread never waits on the main thread while it holds the write lock, so a console write
// on the main connection waits (busy_timeout) at most one batch, and the two can never deadlock.
//
// Only for batches that need nothing else inside their transaction: the memory store's (one instance on
// SQLite, what `npm start` runs). The Redis store finalizes its claim inside the transaction and dedupes
// recovered batches by what the inserts return; those stay on the main connection.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { CONNECTION_PRAGMAS } from '../db/index';

/** Plain CommonJS for `eval`: nothing to bundle or transpile, in the product, under tsx and under vitest alike. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = ' + workerData.busyMs);
for (const p of workerData.pragmas) db.pragma(p);
// A batch is 100-row inserts of a few sizes and one update per kind of account: a handful of distinct texts.
const cache = new Map();
const prepare = (sql) => {
  let stmt = cache.get(sql);
  if (!stmt) {
    if (cache.size >= 200) cache.clear();
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
};
const begin = db.prepare('BEGIN IMMEDIATE');
const commit = db.prepare('COMMIT');
const rollback = db.prepare('ROLLBACK');
parentPort.on('message', ({ id, statements }) => {
  try {
    begin.run();
    try {
      for (const [sql, parameters] of statements) prepare(sql).run(parameters);
      commit.run();
    } catch (err) {
      if (db.inTransaction) rollback.run();
      throw err;
    }
    parentPort.postMessage({ id });
  } catch (err) {
    parentPort.postMessage({ id, error: { name: err && err.name, message: String(err && err.message), code: err && err.code } });
  }
});
`;

/**
 * SQLite's stock page cache (2 MB) instead of better-sqlite3's 16 MB: the thread's inserts fill any cache
 * they are given, and the larger one cost 14–16 MB of the process's peak RSS under load. On 3M- and 10M-row
 * stores the thread's CPU per call did not change (the file's pages stay in the OS's cache; docs/BENCHMARKS.md).
 */
const WRITER_CACHE = 'cache_size = -2000';

interface Failure {
  name?: string;
  message: string;
  code?: unknown;
}

/** The error as the main connection would have thrown it: refusesRows() reads its class and code. */
function rebuild(f: Failure): Error {
  const err = f.name === 'TypeError' ? new TypeError(f.message) : new Error(f.message);
  if (f.name && f.name !== 'TypeError') err.name = f.name;
  if (typeof f.code === 'string') Object.assign(err, { code: f.code });
  return err;
}

export class SqliteWriter {
  private thread: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  /** Why the thread died (it could not start, or crashed): the ledger then writes on the main connection. */
  private broken: Error | undefined;

  /** `busyMs`: how long a batch waits for the main connection's write lock (a long console transaction). */
  constructor(
    private readonly file: string,
    private readonly busyMs = 30_000,
  ) {}

  /** False once the thread died other than by close(). */
  get usable(): boolean {
    return !this.broken;
  }

  /** Runs `statements` in one transaction: resolves once committed, rejects (nothing written) otherwise. */
  run(statements: readonly CompiledQuery[]): Promise<void> {
    if (this.broken) return Promise.reject(this.broken);
    const thread = this.start();
    const id = ++this.seq;
    return new Promise<void>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held while a batch is in flight: at shutdown the last batch is all that keeps the process alive.
      thread.ref();
      thread.postMessage({ id, statements: statements.map((q) => [q.sql, q.parameters]) });
    });
  }

  /** Stops the thread; the ledger closes it after its last batch. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const thread = new Worker(THREAD, {
      eval: true,
      // None of the parent's flags: `--input-type=module` would make this CommonJS text a module.
      execArgv: [],
      workerData: { driver, file: this.file, busyMs: this.busyMs, pragmas: [...CONNECTION_PRAGMAS, WRITER_CACHE] },
      // A few batches in flight at most: a small heap keeps the process's memory where it was.
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    // An idle thread must not keep the process alive.
    thread.unref();
    thread.on('message', ({ id, error }: { id: number; error?: Failure }) => {
      const p = this.pending.get(id);
      this.pending.delete(id);
      if (!this.pending.size) thread.unref();
      if (error) p?.reject(rebuild(error));
      else p?.resolve();
    });
    // A thread that dies takes its open transaction with it (SQLite rolls it back): its batches failed.
    const fail = (err: Error) => {
      // Not stopped by close(): the thread itself failed.
      if (this.thread === thread) {
        this.thread = undefined;
        this.broken ??= err;
      }
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`the SQLite writer thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }
}
