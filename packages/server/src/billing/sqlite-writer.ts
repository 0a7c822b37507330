// The ledger's batches on SQLite, written by a thread of its own (billing/sqlite-writer-thread.ts). better-sqlite3 is synchronous: on the
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
//
// The statistics job runs here too (jobs/statistics.ts): it reads back every call log the batches wrote,
// which on the main thread held the event loop after every burst of calls.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { CompiledQuery } from 'kysely';
import { CONNECTION_PRAGMAS } from '../db/sqlite-connection';
import type { Counted, CountRun } from '../stats/count';
import { processZone } from '../zone';
import type { WriterAnswer, WriterData, WriterFailure, WriterMessage } from './sqlite-writer-thread';
import { epochNow } from './thread-clock';

/**
 * The thread's module: the bundle's sibling entry (scripts/build-server.mjs) in the product; its TypeScript
 * under tsx or vitest, compiled in the thread by tsx's loader.
 */
function threadWorker(options: ConstructorParameters<typeof Worker>[1]): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./sqlite-writer-thread.mjs', here), options);
  const file = fileURLToPath(new URL('./sqlite-writer-thread.ts', here));
  return new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(file)});`, { ...options, eval: true });
}

/**
 * SQLite's stock page cache (2 MB) instead of better-sqlite3's 16 MB: the thread's inserts fill any cache
 * they are given, and the larger one cost 14–16 MB of the process's peak RSS under load. On 3M- and 10M-row
 * stores the thread's CPU per call did not change (the file's pages stay in the OS's cache; docs/BENCHMARKS.md).
 */
const WRITER_CACHE = 'cache_size = -2000';

/** The error as the main connection would have thrown it: refusesRows() reads its class and code. */
function rebuild(f: WriterFailure): Error {
  const err = f.name === 'TypeError' ? new TypeError(f.message) : new Error(f.message);
  if (f.name && f.name !== 'TypeError') err.name = f.name;
  if (typeof f.code === 'string') Object.assign(err, { code: f.code });
  return err;
}

/**
 * A batch's statements as the thread is sent them, each parameter list copied into a plain array. kysely
 * freezes a compiled query's parameters, and V8's structured clone sends a frozen array (or a holey one)
 * as a sparse one, index by index: a call-log row cost ~3 µs more to send and ~4.5 µs more to receive
 * than with the copy (docs/BENCHMARKS.md, twenty-first session).
 */
export function batchStatements(statements: readonly CompiledQuery[]): [sql: string, parameters: unknown[]][] {
  return statements.map((q) => [q.sql, [...q.parameters]]);
}

/**
 * A batch the thread finished longer than this after it was sent (a few ms as a rule) fell behind: the
 * thread runs at background priority (sqlite-writer-thread.ts), which a machine whose cores are all busy can
 * starve while the batches pile up in memory. A thread cannot raise its priority again, so that one is
 * retired and the next batches go to a thread at the process's priority, for good. A slow disk or a long
 * console transaction holding the lock ends the same way: it costs the calls' tail, never the writes. The
 * thread's own clock says when it finished, not the answer's arrival: a main thread held up (a long
 * synchronous task, a debugger) reads its answers late, and that says nothing of the writer.
 */
const BEHIND_MS = 1_000;

interface Pending {
  thread: Worker;
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
  /**
   * When a ledger batch was sent (`epochNow()`); undefined for a statistics run, long by nature, and for a
   * thread's first work, which waits for the thread to start.
   */
  sent: number | undefined;
}

export class SqliteWriter {
  private thread: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  /** Why the thread died (it could not start, or crashed): the ledger then writes on the main connection. */
  private broken: Error | undefined;
  /** Whether new threads run as background work; false once one fell behind (BEHIND_MS). */
  private background = true;
  /** Threads that have answered once: started. */
  private readonly started = new WeakSet<Worker>();

  /**
   * `busyMs`: how long a batch waits for the main connection's write lock (a long console transaction).
   * `behindMs`: BEHIND_MS; `log` hears when a thread fell behind.
   */
  constructor(
    private readonly file: string,
    private readonly busyMs = 30_000,
    private readonly opts: { behindMs?: number; log?: Pick<FastifyBaseLogger, 'warn'> } = {},
  ) {}

  /** False once the thread died other than by close(). */
  get usable(): boolean {
    return !this.broken;
  }

  /**
   * Runs `statements` in one transaction: resolves once committed, rejects (nothing written) otherwise. Not
   * async: an async function's frame keeps its arguments until it returns, and the statements (every row's
   * values) would stay on the heap while the thread writes its own copy of them (docs/BENCHMARKS.md,
   * twenty-eighth session).
   */
  run(statements: readonly CompiledQuery[]): Promise<void> {
    return this.send({ id: ++this.seq, statements: batchStatements(statements) }, true).then(() => undefined);
  }

  /** A statistics run (stats/count.ts) on the thread's connection. */
  statistics(run: CountRun): Promise<Counted> {
    return this.send({ id: ++this.seq, statistics: run }) as Promise<Counted>;
  }

  /** Rejects, never throws: a thread that cannot be started fails the work like one that dies. */
  private send(msg: WriterMessage, batch = false): Promise<unknown> {
    if (this.broken) return Promise.reject(this.broken);
    let thread: Worker;
    try {
      thread = this.start();
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const sent = batch && this.started.has(thread) ? epochNow() : undefined;
    return new Promise((resolve, reject) => {
      this.pending.set(msg.id, { thread, resolve, reject, sent });
      // Held while work is in flight: at shutdown the last batch is all that keeps the process alive.
      thread.ref();
      thread.postMessage(msg);
    });
  }

  /** Whether `thread` has work in flight (a few entries at most: one batch at a time, a statistics run). */
  private busy(thread: Worker): boolean {
    for (const p of this.pending.values()) if (p.thread === thread) return true;
    return false;
  }

  private answered(thread: Worker, { id, error, result, finished }: WriterAnswer): void {
    const p = this.pending.get(id);
    this.pending.delete(id);
    this.started.add(thread);
    const behindMs = this.opts.behindMs ?? BEHIND_MS;
    if (this.background && p?.sent !== undefined && finished !== undefined && finished - p.sent > behindMs) {
      // The next work starts a thread at the process's priority; this one ends once it has answered all it holds.
      this.background = false;
      if (this.thread === thread) this.thread = undefined;
      this.opts.log?.warn({ behind_ms: behindMs }, 'the SQLite writer thread fell behind at background priority; it runs at normal priority from now on');
    }
    if (!this.busy(thread)) {
      thread.unref();
      if (this.thread !== thread) void thread.terminate();
    }
    if (error) p?.reject(rebuild(error));
    else p?.resolve(result);
  }

  /** Stops the thread; the ledger closes it after its last batch. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    await thread?.terminate();
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    const workerData: WriterData = { file: this.file, busyMs: this.busyMs, pragmas: [...CONNECTION_PRAGMAS, WRITER_CACHE], zone: processZone(), background: this.background };
    const thread = threadWorker({
      // None of the parent's flags (`--input-type=module`, the bench's profiling ones).
      execArgv: [],
      workerData,
      // A few batches in flight and a statistics chunk's pieces at most: a small heap keeps the process's memory where it was.
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    // An idle thread must not keep the process alive.
    thread.unref();
    thread.on('message', (answer: WriterAnswer) => this.answered(thread, answer));
    // A thread that dies takes its open transaction with it (SQLite rolls it back): its batches failed.
    const fail = (err: Error) => {
      // Not stopped by close() or retired: the thread itself failed.
      if (this.thread === thread) {
        this.thread = undefined;
        this.broken ??= err;
      }
      for (const [id, p] of this.pending) {
        if (p.thread !== thread) continue;
        this.pending.delete(id);
        p.reject(err);
      }
    };
    thread.on('error', fail);
    thread.on('exit', (code) => fail(new Error(`the SQLite writer thread stopped (exit code ${code})`)));
    this.thread = thread;
    return thread;
  }
}
