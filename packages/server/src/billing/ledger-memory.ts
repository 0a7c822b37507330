// The ledger's store for one instance: balances are the stored quota (the snapshot's) minus what is
// settled but not yet written minus what is reserved. JavaScript runs a reservation's check-and-take
// without interruption (no await inside), so concurrent requests in this process cannot both take the
// last quota.
import { accountKey, type AccountRef, type Balances, type Debit, type Entry, type LedgerStore, type LedgerStoreFactory, type Refusal, type Reservation, type StoreBatch } from './ledger-types';
import { clampEntry } from './ledger-write';

class MemoryLedgerStore implements LedgerStore {
  private reserved = new Map<string, number>();
  /** Settled but not yet written, per account. */
  private unflushed = new Map<string, number>();
  private queue: Entry[] = [];

  constructor(private readonly balances: Balances) {}

  /** Stored minus charged but not yet written. */
  private free(a: AccountRef): number {
    return (this.balances.stored(a)?.quota ?? 0) - (this.unflushed.get(accountKey(a)) ?? 0);
  }

  private left(a: AccountRef): number {
    return this.free(a) - (this.reserved.get(accountKey(a)) ?? 0);
  }

  async available(a: AccountRef): Promise<number> {
    return this.left(a);
  }

  async outstanding(a: AccountRef): Promise<{ held: number; pending: number }> {
    const k = accountKey(a);
    return { held: this.reserved.get(k) ?? 0, pending: this.unflushed.get(k) ?? 0 };
  }

  async reserve(r: Reservation, floor = r.amount, shrinkBusy = true): Promise<Refusal | undefined> {
    let take = r.amount;
    for (const a of r.accounts) {
      if (!a.limited) continue;
      const held = this.reserved.get(accountKey(a)) ?? 0;
      const free = this.free(a);
      const left = free - held;
      if (free <= 0 || free < floor) return { account: a, busy: false };
      if (left <= 0 || left < floor) return { account: a, busy: true };
      if (left < r.amount) {
        if (held > 0 && !shrinkBusy) return { account: a, busy: true };
        take = Math.min(take, left);
      }
    }
    r.amount = take;
    for (const a of r.accounts) if (a.limited) this.reserved.set(accountKey(a), (this.reserved.get(accountKey(a)) ?? 0) + take);
    return undefined;
  }

  async release(r: Reservation): Promise<void> {
    this.unhold(r);
  }

  /** Synchronous, so a settlement's release and its clamp see the same balances. */
  private unhold(r: Reservation): void {
    for (const a of r.accounts) {
      if (!a.limited) continue;
      const k = accountKey(a);
      const left = (this.reserved.get(k) ?? 0) - r.amount;
      if (left > 0) this.reserved.set(k, left);
      else this.reserved.delete(k);
    }
  }

  record(entry: Entry, r?: Reservation): undefined {
    if (r) {
      this.unhold(r);
      const limited = entry.debits.filter((d) => d.account.limited);
      if (limited.length) clampEntry(entry, Math.max(0, Math.min(...limited.map((d) => this.left(d.account)))));
    }
    for (const { account, amount } of entry.debits) this.add(accountKey(account), amount);
    this.queue.push(entry);
  }

  private add(k: string, amount: number): void {
    // Adjustments may be negative: what is left unflushed can be below zero too.
    const v = (this.unflushed.get(k) ?? 0) + amount;
    if (v !== 0) this.unflushed.set(k, v);
    else this.unflushed.delete(k);
  }

  async take(): Promise<StoreBatch | undefined> {
    if (!this.queue.length) return undefined;
    const entries = this.queue;
    this.queue = [];
    return { entries, dedupe: false };
  }

  async beforeCommit(): Promise<void> {}

  async afterCommit(_batch: StoreBatch, totals: Debit[]): Promise<void> {
    // Written: the ledger moved the amounts into the stored balances in this same tick; no longer "unflushed".
    for (const { account, amount } of totals) this.add(accountKey(account), -amount);
  }

  async failed(batch: StoreBatch): Promise<void> {
    this.queue = [...batch.entries, ...this.queue];
  }

  async split(_batch: StoreBatch, parts: Entry[][]): Promise<StoreBatch[]> {
    return parts.map((entries) => ({ entries, dedupe: false }));
  }

  async close(): Promise<void> {}
}

/** One instance's ledger store: app.ts hands it to the gateway unless Redis mode gives its own. */
export const memoryLedgerStore: LedgerStoreFactory = (_ctx, balances) => new MemoryLedgerStore(balances);
