// Balances on the hot path: reserve before the upstream call, settle the real cost after, refund on
// failure (ARCHITECTURE: a request never overdraws). One API for both modes; where the balances and
// the queue of settled charges live is the store's business, and the store is handed in, chosen where
// the app is put together like the rate limiter: process memory for one instance (ledger-memory.ts),
// Redis when instances share the balances (ledger-redis.ts). The types are in ledger-types.ts.
// Settled costs and call logs go to the database together, in batches, one transaction per batch
// (rolled back whole on failure, so nothing is charged twice). A batch the database cannot reach is
// written again later, with growing pauses; one it keeps refusing is split until the refused rows are
// found and set aside (billing/ledger-quarantine.ts), so one bad row never stops the billing of
// everyone else.
import type { Ctx } from '../context';
import type { NewCallLog } from '../db/schema';
import { accountKey, type AccountRef, type Balances, type Debit, type Entry, type LedgerStore, type LedgerStoreFactory, type Reservation, type StoreBatch } from './ledger-types';
import { dbError, refusesRows, writeSalvaged } from './ledger-quarantine';
import { applyWritten, logsOf, planEntries, writeEntries } from './ledger-write';
import type { SqliteWriter } from './sqlite-writer';

const LEDGERS = new WeakMap<Ctx, Ledger>();

/** The gateway's ledger of this app, for console writes to balances (billing/deals.ts); none in scripts without a gateway. */
export const ledgerOf = (ctx: Ctx): Ledger | undefined => LEDGERS.get(ctx);

/** The longest pause between attempts to write to a database that fails. */
const MAX_BACKOFF_MS = 10_000;
/** The first pause after a failed write; it doubles with each failure in a row, up to MAX_BACKOFF_MS. */
const RETRY_MS = 100;
/**
 * How long a settled charge waits for others before its batch is written. A batch's statements are built
 * on the event loop; at 100 ms about one call in a hundred at concurrency 1 waited behind a batch of ~200
 * rows (added p99 +3.1–3.3 ms), at 20 ms behind one of ~40 (+2.2–2.6 ms), for the same CPU and memory per
 * call (docs/BENCHMARKS.md, "Sixth pass").
 */
const FLUSH_MS = 20;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What settle() returns once a store took the entry at once: nothing left to wait for. */
const RECORDED: Promise<void> = Promise.resolve();

/**
 * Plans `entries` and hands their statements to the writer thread. Not inside the async caller: its frame
 * would hold the statements (every row's values, ~0.5 KB a call) until the thread answered, 10–24 ms under
 * load, long enough for the collector to copy them and often promote them (docs/BENCHMARKS.md,
 * twenty-eighth session). The thread has its own copy; the entries stay here for a retry.
 */
function handOver(ctx: Ctx, writer: SqliteWriter, entries: Entry[]): { committed: Promise<void>; totals: Debit[] } {
  const plan = planEntries(ctx.db, entries);
  return { committed: writer.run(plan.statements), totals: plan.totals };
}

export class Ledger {
  private readonly store: LedgerStore;
  /** Debits and logs recorded since the last flush (decides when to flush early). */
  private queued = 0;
  private waiting = { debits: 0, logs: 0 };
  private open = 0;
  /** Entries the store is still taking (Redis mode). */
  private recording = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  /** The drain queued behind the one running, until it starts. */
  private nextDrain: { force: boolean; done: Promise<void> } | undefined;
  /** Failed writes in a row, and until when flushes wait after the last one. */
  private failures = 0;
  private pausedUntil = 0;

  /** Calls waiting for a hold to be given back (reserve's `waitMs`). */
  private waiters = new Set<() => void>();

  /** `balances`: the stored balances the store counts from and written batches move into (the gateway's snapshot). */
  constructor(
    private readonly ctx: Ctx,
    private readonly balances: Balances,
    makeStore: LedgerStoreFactory,
    private readonly opts: { flushMs?: number; maxBatch?: number; writer?: SqliteWriter } = {},
  ) {
    this.store = makeStore(ctx, balances, () => void this.flush());
    LEDGERS.set(ctx, this);
  }

  /** What a limited account can still spend. */
  available(a: AccountRef): Promise<number> {
    return this.store.available(a);
  }

  /**
   * Takes `amount` from every limited account, or from none: returns the first account that cannot
   * cover it. An account at or below zero refuses even a zero-cost request. With `floor`, the hold may
   * shrink to what the accounts have, down to `floor` (the returned `amount` says how much was taken).
   * Where holds of calls in flight are in the way, it waits up to `waitMs` for them to settle (a balance
   * too small for every call at its worst makes them take turns) and, at the end, takes what is left
   * unless `alone` (then only a hold nothing else shares will do).
   */
  async reserve(traceId: string, accounts: readonly AccountRef[], amount: number, opts: { floor?: number; waitMs?: number; alone?: boolean } = {}): Promise<Reservation | { refused: AccountRef }> {
    const want = Math.max(0, Math.ceil(amount));
    const floor = Math.min(want, Math.max(0, Math.ceil(opts.floor ?? want)));
    const until = Date.now() + (opts.waitMs ?? 0);
    for (let pause = 5; ; pause = Math.min(50, pause * 2)) {
      const last = Date.now() >= until;
      const r: Reservation = { traceId, accounts, amount: want, settled: false };
      const refused = await this.store.reserve(r, floor, last && !opts.alone);
      if (!refused) {
        this.open++;
        return r;
      }
      if (!refused.busy || last) return { refused: refused.account };
      await this.released(Math.min(pause, until - Date.now()));
    }
  }

  /** Resolves when a hold of this instance is given back, or after `ms` (another instance's may have been). */
  private released(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.waiters.add(done);
    });
  }

  private wake(): void {
    if (this.waiters.size) for (const w of [...this.waiters]) w();
  }

  private recorded(p: Promise<void>): void {
    this.recording.delete(p);
    this.wake();
  }

  /**
   * Gives back a hold taken for a console write (no charge, no log) once the gateway's view of the
   * balances holds that write, so the held quota never counts twice, nor not at all.
   */
  async release(r: Reservation): Promise<void> {
    if (r.settled) return;
    r.settled = true;
    this.open--;
    await this.balances.settled;
    await this.store.release(r);
    this.wake();
  }

  /** What a limited account's holds and charges not yet written amount to. */
  outstanding(a: AccountRef): Promise<{ held: number; pending: number }> {
    return this.store.outstanding(a);
  }

  /** For GET /metrics: what this instance recorded and has not written yet, and the calls holding a reservation. */
  get pending(): { debits: number; logs: number; reservations: number } {
    return { ...this.waiting, reservations: this.open };
  }

  /**
   * Replaces the reservation by the real cost (which may exceed it by the estimate's error) and queues
   * the call logs of every attempt. A second settle of the same reservation does nothing. Resolves once the
   * store holds the entry (Redis mode: in the shared journal, safe from this process dying; while Redis
   * is unreachable, queued here for retry), never rejects.
   */
  settle(r: Reservation, cost: number, logs: NewCallLog[]): Promise<void> {
    if (r.settled) return Promise.resolve();
    r.settled = true;
    this.open--;
    const amount = Math.max(0, Math.ceil(cost));
    return this.record({ debits: amount > 0 ? r.accounts.map((account) => ({ account, amount })) : [], logs }, r);
  }

  /** Gives the reservation back (the call failed before it cost anything); logs are still written. */
  refund(r: Reservation, logs: NewCallLog[] = []): Promise<void> {
    return this.settle(r, 0, logs);
  }

  /**
   * A signed charge outside a reservation, written in the same batched transaction as settlements:
   * positive takes more, negative gives back. Async tasks use it to top up or refund, at completion,
   * the estimate they were charged at submission, so what the accounts paid ends exactly at the final
   * price. `accounts` must be the ones charged then, with the same `limited` flags.
   */
  adjust(accounts: readonly AccountRef[], delta: number, logs: NewCallLog[] = []): void {
    if (!Number.isSafeInteger(delta)) throw new Error(`ledger adjustment must be an integer, got ${delta}`);
    void this.record({ debits: delta !== 0 ? accounts.map((account) => ({ account, amount: delta })) : [], logs });
  }

  /** Logs of requests refused before any reservation (they cost nothing). */
  log(logs: NewCallLog[]): void {
    void this.record({ debits: [], logs });
  }

  private record(entry: Entry, r?: Reservation): Promise<void> {
    // The memory store applies the entry before this returns (nothing to wait for); the Redis store
    // retries on its own.
    let taking: Promise<void> | undefined;
    try {
      taking = this.store.record(entry, r);
    } catch (err) {
      this.recordFailed(err);
    }
    let p = RECORDED;
    if (taking) {
      p = taking.then(
        () => this.recorded(p),
        (err: unknown) => {
          this.recordFailed(err);
          this.recorded(p);
        },
      );
      this.recording.add(p);
    }
    this.queued += entry.debits.length + entry.logs.length;
    this.waiting.debits += entry.debits.length;
    this.waiting.logs += entry.logs.length;
    this.schedule();
    if (!taking) this.wake();
    return p;
  }

  private recordFailed(err: unknown): void {
    this.ctx.log.error({ err }, 'recording a charge failed');
  }

  private schedule(): void {
    const pause = this.pausedUntil - Date.now();
    if (pause > 0) {
      if (!this.timer) this.timer = setTimeout(() => void this.flush(), pause);
    } else if (this.queued >= (this.opts.maxBatch ?? 500)) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? FLUSH_MS);
  }

  /** Writes everything settled so far (after a failed write, not before its pause ends); concurrent calls queue behind each other. */
  flush(): Promise<void> {
    return this.queueDrain(false);
  }

  private queueDrain(force: boolean): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    // A drain not started yet takes everything recorded until it starts: a flush asked for meanwhile joins
    // it. Chained one after another, each settlement past maxBatch wrote a batch of its own of whatever had
    // settled during the one before (test/ledger-batching.test.ts).
    const next = this.nextDrain;
    if (next && (next.force || !force)) return next.done;
    const done: Promise<void> = this.flushing.then(() => {
      if (this.nextDrain?.done === done) this.nextDrain = undefined;
      return this.drain(force);
    });
    this.flushing = done;
    this.nextDrain = { force, done };
    return done;
  }

  private async drain(force: boolean): Promise<void> {
    await Promise.all(this.recording);
    this.queued = 0;
    if (!force && Date.now() < this.pausedUntil) return this.schedule();
    try {
      // Bounded: a store shared by many instances may keep refilling.
      for (let i = 0; i < 50; i++) {
        const batch = await this.store.take();
        if (!batch) return;
        if (!(await this.write(batch))) return;
        // What settled during the write waits for its own time (the timer its first entry set, or the
        // threshold), as everything else does: taken at once, it went as a batch of the few calls that fit
        // in one write. Not at shutdown, where this drain is the last.
        if (!force && !batch.more) return;
      }
    } catch (err) {
      // The store is unreachable (Redis down): what it holds stays there for its next tick.
      this.ctx.log.error({ err }, 'reading the ledger queue failed; will retry');
    }
  }

  /** Writes a batch the store handed out; false when (part of) it went back to the store for later. */
  private async write(batch: StoreBatch): Promise<boolean> {
    let failed = await this.commit(batch);
    if (failed && refusesRows(failed.err)) {
      // Once more after a pause: a refusal that repeats is the batch's own (a row the database cannot take).
      await sleep(RETRY_MS);
      failed = await this.commit(batch);
    }
    if (!failed) return true;
    if (!refusesRows(failed.err)) return this.giveBack([batch], failed.err);
    this.ctx.log.warn({ entries: batch.entries.length, db_error: dbError(failed.err) }, 'the database refused a ledger batch twice; writing it in parts to set aside what it refuses');
    return this.isolate(batch);
  }

  /** One transaction for the whole batch: undefined once committed, else what failed (nothing of it was written). */
  private async commit(batch: StoreBatch): Promise<{ err: unknown } | undefined> {
    let totals: Debit[] = [];
    try {
      totals = await this.transact(batch);
    } catch (err) {
      return { err };
    }
    await this.written(batch, totals, logsOf(batch.entries));
    return undefined;
  }

  /** The batch's transaction: in the SQLite writer thread when there is one (the memory store's batches), else here. */
  private async transact(batch: StoreBatch): Promise<Debit[]> {
    const writer = this.opts.writer;
    if (writer?.usable && !batch.dedupe) {
      const { committed, totals } = handOver(this.ctx, writer, batch.entries);
      try {
        await committed;
        return totals;
      } catch (err) {
        // A refused row or a busy database: the caller's rules apply. A thread that died (it rolled its
        // transaction back): this batch and the next ones go on the main connection.
        if (writer.usable) throw err;
        this.ctx.log.error({ err }, 'the SQLite writer thread failed; the ledger writes on the main connection');
      }
    }
    let totals: Debit[] = [];
    await this.ctx.db.transaction().execute(async (trx) => {
      totals = await writeEntries(trx, batch.entries, batch.dedupe, this.ctx.log);
      await this.store.beforeCommit(batch, totals);
    });
    return totals;
  }

  /** Writes a refused batch in halves, down to single entries that are written row by row. */
  private async isolate(batch: StoreBatch): Promise<boolean> {
    if (batch.entries.length === 1) return this.salvage(batch);
    const mid = Math.ceil(batch.entries.length / 2);
    let parts: StoreBatch[];
    try {
      parts = await this.store.split(batch, [batch.entries.slice(0, mid), batch.entries.slice(mid)]);
    } catch (err) {
      // Redis unreachable, or the claim lost to another instance (then giving it back does nothing).
      return this.giveBack([batch], err);
    }
    for (let i = 0; i < parts.length; i++) {
      const failed = await this.commit(parts[i]!);
      if (!failed) continue;
      if (!refusesRows(failed.err)) return this.giveBack(parts.slice(i), failed.err);
      if (!(await this.isolate(parts[i]!))) return this.giveBack(parts.slice(i + 1));
    }
    return true;
  }

  /** One entry, call log by call log: what the database refuses is reported and set aside; the charge lands. */
  private async salvage(batch: StoreBatch): Promise<boolean> {
    const entry = batch.entries[0]!;
    let result: Awaited<ReturnType<typeof writeSalvaged>> | undefined;
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        result = await writeSalvaged(trx, entry, batch.dedupe);
        await this.store.beforeCommit(batch, result.totals);
      });
    } catch (err) {
      // The charge itself refused, or the database gone: the entry stays queued; a charge is never dropped.
      return this.giveBack([batch], err);
    }
    const { totals, stored, quarantined, blind } = result!;
    const charge = entry.debits.map((d) => ({ account: accountKey(d.account), amount: d.amount }));
    for (const q of quarantined) {
      this.ctx.metrics.ledgerQuarantined(q.outcome);
      // Identifiers and the database's message only: the row's texts may hold anything a client sent.
      const { id, trace_id, attempt, user_id, app_id } = q.log as Partial<NewCallLog>;
      this.ctx.log.error(
        { log_id: id, trace_id, attempt, user_id, app_id, charge, outcome: q.outcome, db_error: dbError(q.error) },
        q.outcome === 'sanitized' ? 'the database refused a call log; stored it without the values it refused' : 'the database refused a call log; it is not stored (its charge is)',
      );
    }
    if (blind) this.ctx.log.error({ charge }, 'a recovered ledger entry had no call log the database would store; its charge was not applied again');
    await this.written(batch, totals, stored);
    return true;
  }

  /** Hands batches back to the store to be written later; after a failure, flushes pause (growing) before the next try. */
  private async giveBack(parts: StoreBatch[], err?: unknown): Promise<false> {
    if (err !== undefined) {
      this.ctx.log.error({ db_error: dbError(err) }, 'writing call logs and charges failed; will retry');
      this.failures++;
      this.pausedUntil = Date.now() + Math.min(MAX_BACKOFF_MS, RETRY_MS * 2 ** Math.min(this.failures, 10));
    }
    // Last first: a store that puts a batch back in front then keeps the original order.
    for (const b of [...parts].reverse()) {
      await this.store.failed(b).catch((e: unknown) => this.ctx.log.error({ err: e }, 'returning a ledger batch failed'));
      this.queued += b.entries.length;
    }
    this.schedule();
    return false;
  }

  private async written(batch: StoreBatch, totals: Debit[], logs: NewCallLog[]): Promise<void> {
    this.failures = 0;
    // In the same tick as the store stops counting them as unwritten (memory mode reads both together).
    applyWritten(this.balances, totals);
    await this.store.afterCommit(batch, totals).catch((err: unknown) => this.ctx.log.error({ err }, 'finishing a ledger batch failed'));
    this.ctx.metrics.callLogsWritten(logs);
    for (const e of batch.entries) {
      this.waiting.debits = Math.max(0, this.waiting.debits - e.debits.length);
      this.waiting.logs = Math.max(0, this.waiting.logs - e.logs.length);
    }
  }

  /**
   * Waits (at most `waitMs`) for calls still running to settle, then writes everything. At shutdown the
   * connections of cut streams close first; their calls settle what was delivered a moment later.
   */
  async close(waitMs = 2000): Promise<void> {
    const until = Date.now() + waitMs;
    while (this.open > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    // Whatever the pause after a failed write: this is the last chance in memory mode.
    await this.queueDrain(true);
    clearTimeout(this.timer);
    await this.store.close();
    await this.opts.writer?.close();
  }
}
