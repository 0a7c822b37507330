// Balances on the hot path: reserve before the upstream call, settle the real cost after, refund on
// failure (ARCHITECTURE: a request never overdraws). One API for both modes; where the balances and
// the queue of settled charges live is the store's business: process memory for one instance
// (ledger-memory.ts), Redis when instances share the balances (ledger-redis.ts). Settled costs and call
// logs go to the database together, in batches, one transaction per batch (rolled back and retried
// whole on failure, so nothing is charged twice).
import type { Ctx } from '../context';
import type { NewCallLog } from '../db/schema';
import type { Snapshot } from '../gateway/snapshot';
import { MemoryLedgerStore } from './ledger-memory';
import { RedisLedgerStore } from './ledger-redis';
import { writeEntries, type Debit, type Entry } from './ledger-write';

export type { Debit, Entry } from './ledger-write';

/** A balance the gateway can charge. `limited` balances are checked before a call; the others only count usage. */
export type AccountRef =
  | { kind: 'user'; id: number; limited: boolean }
  | { kind: 'reseller'; id: number; limited: false }
  | { kind: 'app'; id: number; limited: boolean }
  | { kind: 'app_key'; id: string; hash: string; limited: boolean }
  | { kind: 'group'; id: string; limited: boolean };

export const accountKey = (a: AccountRef) => `${a.kind}:${a.id}`;

export interface Reservation {
  traceId: string;
  accounts: AccountRef[];
  amount: number;
  settled: boolean;
}

/** A batch of entries a store handed out for writing, with whatever the store needs to finish it. */
export interface StoreBatch {
  entries: Entry[];
  /**
   * The batch may already be in the database (its writer died between commit and telling the store):
   * write only the entries whose call logs are not there yet.
   */
  dedupe: boolean;
}

/** Where balances, holds and not-yet-written charges live. */
export interface LedgerStore {
  /** What a limited account can still spend. */
  available(a: AccountRef): Promise<number>;
  /** Holds `r.amount` on every limited account of `r`, or on none: returns the first account that cannot cover it. */
  reserve(r: Reservation): Promise<AccountRef | undefined>;
  /** Gives back `r`'s hold (when there is one) and queues the entry for the database. */
  record(entry: Entry, r?: Reservation): Promise<void>;
  /** The next entries to write, or nothing. */
  take(): Promise<StoreBatch | undefined>;
  /** Inside the batch's transaction, after its balance updates (their rows are locked), before the commit; throwing rolls it back. */
  beforeCommit(batch: StoreBatch, totals: Debit[]): Promise<void>;
  afterCommit(batch: StoreBatch, totals: Debit[]): Promise<void>;
  /** The transaction failed: the batch must be written again later. */
  failed(batch: StoreBatch): Promise<void>;
  close(): Promise<void>;
}

export class Ledger {
  private readonly store: LedgerStore;
  private settledTraces = new Set<string>();
  /** Debits and logs recorded since the last flush (decides when to flush early). */
  private queued = 0;
  private waiting = { debits: 0, logs: 0 };
  private open = 0;
  private recording = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Ctx,
    snapshot: Snapshot,
    private readonly opts: { flushMs?: number; maxBatch?: number } = {},
  ) {
    this.store = ctx.redis ? new RedisLedgerStore(ctx, ctx.redis, snapshot, { maxBatch: opts.maxBatch ?? 200, tick: () => void this.flush() }) : new MemoryLedgerStore(snapshot);
  }

  /** What a limited account can still spend. */
  available(a: AccountRef): Promise<number> {
    return this.store.available(a);
  }

  /**
   * Takes `amount` from every limited account, or from none: returns the first account that cannot
   * cover it. An account at or below zero refuses even a zero-cost request.
   */
  async reserve(traceId: string, accounts: AccountRef[], amount: number): Promise<Reservation | { refused: AccountRef }> {
    const r: Reservation = { traceId, accounts, amount: Math.max(0, Math.ceil(amount)), settled: false };
    const refused = await this.store.reserve(r);
    if (refused) return { refused };
    this.open++;
    return r;
  }

  /** For GET /metrics: what this instance recorded and has not written yet, and the calls holding a reservation. */
  get pending(): { debits: number; logs: number; reservations: number } {
    return { ...this.waiting, reservations: this.open };
  }

  /**
   * Replaces the reservation by the real cost (which may exceed it by the estimate's error) and queues
   * the call logs of every attempt. A second settle of the same trace does nothing.
   */
  settle(r: Reservation, cost: number, logs: NewCallLog[]): void {
    if (r.settled || this.settledTraces.has(r.traceId)) return;
    r.settled = true;
    this.open--;
    this.settledTraces.add(r.traceId);
    if (this.settledTraces.size > 100_000) this.settledTraces.clear();
    const amount = Math.max(0, Math.ceil(cost));
    this.record({ debits: amount > 0 ? r.accounts.map((account) => ({ account, amount })) : [], logs }, r);
  }

  /** Gives the reservation back (the call failed before it cost anything); logs are still written. */
  refund(r: Reservation, logs: NewCallLog[] = []): void {
    this.settle(r, 0, logs);
  }

  /**
   * A signed charge outside a reservation, written in the same batched transaction as settlements:
   * positive takes more, negative gives back. Async tasks use it to top up or refund, at completion,
   * the estimate they were charged at submission, so what the accounts paid ends exactly at the final
   * price. `accounts` must be the ones charged then, with the same `limited` flags.
   */
  adjust(accounts: AccountRef[], delta: number, logs: NewCallLog[] = []): void {
    if (!Number.isSafeInteger(delta)) throw new Error(`ledger adjustment must be an integer, got ${delta}`);
    this.record({ debits: delta !== 0 ? accounts.map((account) => ({ account, amount: delta })) : [], logs });
  }

  /** Logs of requests refused before any reservation (they cost nothing). */
  log(logs: NewCallLog[]): void {
    this.record({ debits: [], logs });
  }

  private record(entry: Entry, r?: Reservation): void {
    // The memory store applies the entry before this returns; the Redis store retries on its own.
    const p = this.store.record(entry, r).catch((err: unknown) => this.ctx.log.error({ err }, 'recording a charge failed'));
    this.recording.add(p);
    void p.finally(() => this.recording.delete(p));
    this.queued += entry.debits.length + entry.logs.length;
    this.waiting.debits += entry.debits.length;
    this.waiting.logs += entry.logs.length;
    this.schedule();
  }

  private schedule(): void {
    if (this.queued >= (this.opts.maxBatch ?? 500)) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 100);
  }

  /** Writes everything settled so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.drain());
    return this.flushing;
  }

  private async drain(): Promise<void> {
    await Promise.all(this.recording);
    this.queued = 0;
    try {
      // Bounded: a store shared by many instances may keep refilling.
      for (let i = 0; i < 50; i++) {
        const batch = await this.store.take();
        if (!batch) return;
        const ok = await this.write(batch);
        if (ok) this.written(batch);
        else return;
      }
    } catch (err) {
      // The store is unreachable (Redis down): what it holds stays there for its next tick.
      this.ctx.log.error({ err }, 'reading the ledger queue failed; will retry');
    }
  }

  private async write(batch: StoreBatch): Promise<boolean> {
    let totals: Debit[] = [];
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        totals = await writeEntries(trx, batch.entries, batch.dedupe, this.ctx.log);
        await this.store.beforeCommit(batch, totals);
      });
    } catch (err) {
      // Kept for the next flush: nothing of it was written.
      this.ctx.log.error({ err }, 'writing call logs and charges failed; will retry');
      await this.store.failed(batch).catch((e: unknown) => this.ctx.log.error({ err: e }, 'returning a ledger batch failed'));
      this.queued += batch.entries.length;
      this.schedule();
      return false;
    }
    await this.store.afterCommit(batch, totals).catch((err: unknown) => this.ctx.log.error({ err }, 'finishing a ledger batch failed'));
    return true;
  }

  private written(batch: StoreBatch): void {
    for (const e of batch.entries) {
      this.ctx.metrics.callLogsWritten(e.logs);
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
    await this.flush();
    clearTimeout(this.timer);
    await this.store.close();
  }
}
