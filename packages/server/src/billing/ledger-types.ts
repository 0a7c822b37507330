// The ledger's vocabulary, shared by the ledger (ledger.ts), its stores (ledger-memory.ts,
// ledger-redis.ts), its writer (ledger-write.ts) and its callers: the balances a call is charged to,
// a hold, the entries queued for the database, the store contract, and the stored balances the ledger
// counts from (the gateway's snapshot implements `Balances`).
import type { Ctx } from '../context';
import type { NewCallLog } from '../db/schema';
import { keptWith } from '../memo';

/** A balance the gateway can charge. `limited` balances are checked before a call; the others only count usage. */
export type AccountRef =
  | { kind: 'user'; id: number; limited: boolean }
  | { kind: 'reseller'; id: number; limited: false }
  | { kind: 'app'; id: number; limited: boolean }
  | { kind: 'app_key'; id: string; hash: string; limited: boolean }
  | { kind: 'group'; id: string; limited: boolean };

/**
 * An account's key in the stores' maps, made once per AccountRef: a call looks each of its accounts up a
 * dozen times (hold, settle, the unflushed sums), and the gateway keeps a key's accounts between calls.
 */
export const accountKey = keptWith((a: AccountRef): string => `${a.kind}:${a.id}`);

export interface Reservation {
  traceId: string;
  accounts: readonly AccountRef[];
  amount: number;
  settled: boolean;
}

export interface Debit {
  account: AccountRef;
  amount: number;
}

/** One settlement, adjustment or log-only write: written whole, in one batch. */
export interface Entry {
  debits: Debit[];
  logs: NewCallLog[];
}

/** A batch of entries a store handed out for writing, with whatever the store needs to finish it. */
export interface StoreBatch {
  entries: Entry[];
  /**
   * The batch may already be in the database (its writer died between commit and telling the store):
   * write only the entries whose call logs are not there yet.
   */
  dedupe: boolean;
  /** The store held more than it handed out (a full claim of a shared journal): the drain takes again at once. */
  more?: boolean;
}

/** Why a hold was refused: the account, and whether holds of other calls stand in the way (it may come free). */
export interface Refusal {
  account: AccountRef;
  busy: boolean;
}

/** Where balances, holds and not-yet-written charges live. */
export interface LedgerStore {
  /** What a limited account can still spend: stored − held − charged but not yet written. */
  available(a: AccountRef): Promise<number>;
  /** What a limited account's holds and charges not yet written amount to. */
  outstanding(a: AccountRef): Promise<{ held: number; pending: number }>;
  /**
   * Holds up to `r.amount` on every limited account of `r`, or on none. An account that has less but at
   * least `floor` left makes the hold shrink to what it has (`r.amount` is lowered) when nothing else
   * holds any of it, or when `shrinkBusy`. An account left with nothing, or less than `floor`, refuses
   * (at or below zero it refuses even a zero-cost hold).
   */
  reserve(r: Reservation, floor?: number, shrinkBusy?: boolean): Promise<Refusal | undefined>;
  /** Gives back `r`'s hold without a charge or a log (a console write's hold). */
  release(r: Reservation): Promise<void>;
  /**
   * Gives back `r`'s hold (when there is one) and queues the entry for the database. A settlement (with
   * `r`) is charged at most what its limited accounts have left once its hold is back, never below zero:
   * its debits and its priced log are lowered to that (`clampEntry`). Nothing (not a promise) when the
   * entry is queued before it returns: the memory store's every settlement, one promise and its turn less.
   */
  record(entry: Entry, r?: Reservation): Promise<void> | undefined;
  /** The next entries to write, or nothing. */
  take(): Promise<StoreBatch | undefined>;
  /** Inside the batch's transaction, after its balance updates (their rows are locked), before the commit; throwing rolls it back. */
  beforeCommit(batch: StoreBatch, totals: Debit[]): Promise<void>;
  /** Committed; the ledger has already moved `totals` into the stored balances (`Balances`). */
  afterCommit(batch: StoreBatch, totals: Debit[]): Promise<void>;
  /** The transaction failed: the batch must be written again later. */
  failed(batch: StoreBatch): Promise<void>;
  /** Replaces a batch being written by batches of `parts` (its entries, in order), to be written one by one. */
  split(batch: StoreBatch, parts: Entry[][]): Promise<StoreBatch[]>;
  close(): Promise<void>;
}

/**
 * Makes the ledger's store over the stored balances: memory for one instance, Redis when instances
 * share the balances (redis/mode.ts), chosen where the app is put together like the rate limiter and
 * the bus. `flush` asks the ledger to write what the store holds (the Redis store's journal may fill
 * from other instances).
 */
export type LedgerStoreFactory = (ctx: Ctx, balances: Balances, flush: () => void) => LedgerStore;

/** The stored quota an account's balance counts from and its usage, as last read from the database. */
export interface StoredBalance {
  quota: number;
  used_quota: number;
}

/**
 * What the ledger reads of the accounts, and no more: the gateway's snapshot implements it
 * (gateway/snapshot.ts). The records are the snapshot's own: a written batch moves its totals into them
 * (ledger-write.ts `applyWritten`), so the next reload and the ledger agree without a read.
 */
export interface Balances {
  /** The account's stored balance; undefined once the account is gone (it has nothing to spend). */
  stored(a: AccountRef): StoredBalance | undefined;
  /** Resolves once every balance change heard so far (a console write's) is in `stored`. */
  readonly settled: Promise<void>;
  /** The user_id of the accounts whose `users` rows have these row ids (a change event may name them so). */
  userIdsOf(rowIds: ReadonlySet<string>): number[];
  /** The app_id of the apps whose rows have these row ids. */
  appIdsOf(rowIds: ReadonlySet<string>): number[];
}
