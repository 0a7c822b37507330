// Balances on the hot path: reserve before the upstream call, settle the real cost after, refund on
// failure (ARCHITECTURE: a request never overdraws). Balances are the snapshot's stored quota minus
// what is settled but not yet written minus what is reserved; JavaScript runs a reservation's
// check-and-take without interruption, so concurrent requests in this process cannot both take the
// last quota. Settled costs and call logs go to the database together, in batches, in one
// transaction per batch (rolled back and retried whole on failure, so nothing is charged twice).
import type { Ctx } from '../context';
import type { NewCallLog } from '../db/schema';
import type { Snapshot } from '../gateway/snapshot';

/** A balance the gateway can charge. `limited` balances are checked before a call; the others only count usage. */
export type AccountRef =
  | { kind: 'user'; id: number; limited: boolean }
  | { kind: 'reseller'; id: number; limited: false }
  | { kind: 'app'; id: number; limited: boolean }
  | { kind: 'app_key'; id: string; hash: string; limited: boolean }
  | { kind: 'group'; id: string; limited: boolean };

const accountKey = (a: AccountRef) => `${a.kind}:${a.id}`;

export interface Reservation {
  traceId: string;
  accounts: AccountRef[];
  amount: number;
  settled: boolean;
}

interface Debit {
  account: AccountRef;
  amount: number;
}

export class Ledger {
  private reserved = new Map<string, number>();
  /** Settled but not yet written, per account. */
  private unflushed = new Map<string, number>();
  private debits: Debit[] = [];
  private logs: NewCallLog[] = [];
  private settledTraces = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Ctx,
    private readonly snapshot: Snapshot,
    private readonly opts: { flushMs?: number; maxBatch?: number } = {},
  ) {}

  /** The stored quota of an account as the snapshot knows it (undefined: the record is gone). */
  private stored(a: AccountRef): number | undefined {
    const s = this.snapshot;
    switch (a.kind) {
      case 'user':
      case 'reseller':
        return s.users.get(a.id)?.quota;
      case 'app':
        return s.apps.get(a.id)?.quota;
      case 'app_key':
        return s.appKeys.get(a.hash)?.quota;
      case 'group':
        return s.groups.get(a.id)?.quota;
    }
  }

  /** What a limited account can still spend. */
  available(a: AccountRef): number {
    const k = accountKey(a);
    return (this.stored(a) ?? 0) - (this.unflushed.get(k) ?? 0) - (this.reserved.get(k) ?? 0);
  }

  /**
   * Takes `amount` from every limited account, or from none: returns the first account that cannot
   * cover it. An account at or below zero refuses even a zero-cost request.
   */
  reserve(traceId: string, accounts: AccountRef[], amount: number): Reservation | { refused: AccountRef } {
    const take = Math.max(0, Math.ceil(amount));
    for (const a of accounts) {
      if (!a.limited) continue;
      const left = this.available(a);
      if (left <= 0 || left < take) return { refused: a };
    }
    for (const a of accounts) if (a.limited) this.reserved.set(accountKey(a), (this.reserved.get(accountKey(a)) ?? 0) + take);
    return { traceId, accounts, amount: take, settled: false };
  }

  private release(r: Reservation): void {
    for (const a of r.accounts) {
      if (!a.limited) continue;
      const k = accountKey(a);
      const left = (this.reserved.get(k) ?? 0) - r.amount;
      if (left > 0) this.reserved.set(k, left);
      else this.reserved.delete(k);
    }
  }

  /**
   * Replaces the reservation by the real cost (which may exceed it by the estimate's error) and queues
   * the call logs of every attempt. A second settle of the same trace does nothing.
   */
  settle(r: Reservation, cost: number, logs: NewCallLog[]): void {
    if (r.settled || this.settledTraces.has(r.traceId)) return;
    r.settled = true;
    this.settledTraces.add(r.traceId);
    this.release(r);
    const amount = Math.max(0, Math.ceil(cost));
    if (amount > 0) {
      for (const account of r.accounts) {
        this.debits.push({ account, amount });
        const k = accountKey(account);
        this.unflushed.set(k, (this.unflushed.get(k) ?? 0) + amount);
      }
    }
    this.logs.push(...logs);
    this.schedule();
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
    if (delta !== 0) {
      for (const account of accounts) {
        this.debits.push({ account, amount: delta });
        const k = accountKey(account);
        this.unflushed.set(k, (this.unflushed.get(k) ?? 0) + delta);
      }
    }
    this.logs.push(...logs);
    this.schedule();
  }

  /** Logs of requests refused before any reservation (they cost nothing). */
  log(logs: NewCallLog[]): void {
    this.logs.push(...logs);
    this.schedule();
  }

  private schedule(): void {
    if (this.debits.length + this.logs.length >= (this.opts.maxBatch ?? 500)) void this.flush();
    else if (!this.timer) this.timer = setTimeout(() => void this.flush(), this.opts.flushMs ?? 100);
  }

  /** Writes everything settled so far; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.writeBatch());
    return this.flushing;
  }

  private async writeBatch(): Promise<void> {
    if (this.debits.length === 0 && this.logs.length === 0) return;
    const debits = this.debits;
    const logs = this.logs;
    this.debits = [];
    this.logs = [];
    const totals = new Map<string, Debit>();
    for (const d of debits) {
      // Per account and flag: a task settles with the flags it was charged under, which may differ from today's.
      const k = `${accountKey(d.account)}:${d.account.limited ? 1 : 0}`;
      const t = totals.get(k);
      if (t) t.amount += d.amount;
      else totals.set(k, { ...d });
    }
    // created_at is the write stamp: the statistics job reads call logs in (created_at, id) order, and
    // this process writes its batches one after another, so stamps commit in order.
    const stamp = Date.now();
    for (const log of logs) log.created_at = stamp;
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const { account: a, amount } of totals.values()) {
          if (amount === 0) continue;
          // Unlimited app keys, apps and groups only count usage; the user's balance always goes down.
          const spend = (eb: any) => ({ used_quota: eb('used_quota', '+', amount), ...(a.limited ? { quota: eb('quota', '-', amount) } : {}) });
          if (a.kind === 'user' || a.kind === 'reseller') await trx.updateTable('users').set(spend).where('user_id', '=', a.id).execute();
          else if (a.kind === 'app') await trx.updateTable('apps').set(spend).where('app_id', '=', a.id).execute();
          else if (a.kind === 'app_key') await trx.updateTable('app_keys').set(spend).where('id', '=', a.id).execute();
          else await trx.updateTable('groups').set(spend).where('id', '=', a.id).execute();
        }
        for (let i = 0; i < logs.length; i += 100) {
          await trx.insertInto('call_logs').values(logs.slice(i, i + 100)).onConflict((oc) => oc.columns(['trace_id', 'attempt']).doNothing()).execute();
        }
      });
    } catch (err) {
      // Keep the batch for the next flush: nothing of it was written.
      this.ctx.log.error({ err }, 'writing call logs and charges failed; will retry');
      this.debits = [...debits, ...this.debits];
      this.logs = [...logs, ...this.logs];
      this.schedule();
      return;
    }
    // Written: move the amounts from "unflushed" into the snapshot's stored balances.
    for (const { account: a, amount } of totals.values()) {
      // Adjustments may be negative: what is left unflushed can be below zero too.
      const k = accountKey(a);
      const left = (this.unflushed.get(k) ?? 0) - amount;
      if (left !== 0) this.unflushed.set(k, left);
      else this.unflushed.delete(k);
      const rec = this.record(a);
      if (rec) {
        rec.used_quota += amount;
        if (a.limited) rec.quota -= amount;
      }
    }
    if (this.settledTraces.size > 100_000) this.settledTraces.clear();
  }

  private record(a: AccountRef): { quota: number; used_quota: number } | undefined {
    const s = this.snapshot;
    if (a.kind === 'user' || a.kind === 'reseller') return s.users.get(a.id);
    if (a.kind === 'app') return s.apps.get(a.id);
    if (a.kind === 'app_key') return s.appKeys.get(a.hash);
    return s.groups.get(a.id);
  }

  async close(): Promise<void> {
    await this.flush();
  }
}
