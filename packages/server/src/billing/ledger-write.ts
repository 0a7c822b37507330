// How a batch of ledger entries reaches the database, the same for every store: the call logs, then
// relative `quota - x` / `used_quota + x` per account (summed over the batch, in key order so two
// instances' batches lock rows in the same order and cannot deadlock). Runs inside the caller's
// transaction.
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { accountKey, type Balances, type Debit, type Entry } from './ledger-types';

const logId = (l: { trace_id: string; attempt: number }) => `${l.trace_id}:${l.attempt}`;

/**
 * Lowers a settlement to `to` units, what its accounts had left: every debit, and the call log that
 * carries its price (the other logs of a settlement are free), so the books still add up.
 */
export function clampEntry(entry: Entry, to: number): void {
  for (const d of entry.debits) d.amount = Math.min(d.amount, to);
  for (const l of entry.logs) if (Number(l.total_price ?? 0) > to) l.total_price = to;
}

/**
 * Writes `entries` and returns the non-zero totals it applied per account and `limited` flag. With
 * `dedupe`, an entry whose call logs are already stored is skipped (it was written before); an entry
 * without logs cannot be told apart and is skipped too (a charge in the customer's favour, logged).
 */
export async function writeEntries(trx: Transaction<Database>, entries: Entry[], dedupe: boolean, log: FastifyBaseLogger): Promise<Debit[]> {
  // created_at is the write stamp: the statistics job reads call logs in (created_at, id) order.
  const stamp = Date.now();
  const logs = entries.flatMap((e) => e.logs);
  for (const l of logs) l.created_at = stamp;
  let apply = entries;
  if (dedupe) {
    const fresh = new Set<string>();
    for (let i = 0; i < logs.length; i += 100) {
      const rows = await trx
        .insertInto('call_logs')
        .values(logs.slice(i, i + 100))
        .onConflict((oc) => oc.columns(['trace_id', 'attempt']).doNothing())
        .returning(['trace_id', 'attempt'])
        .execute();
      for (const r of rows) fresh.add(logId(r));
    }
    apply = entries.filter((e) => e.logs.some((l) => fresh.has(logId(l))));
    const blind = entries.filter((e) => e.logs.length === 0 && e.debits.length > 0).length;
    if (blind) log.error({ entries: blind }, 'a recovered ledger batch had charges without call logs; they were not applied again');
  } else {
    for (let i = 0; i < logs.length; i += 100) {
      await trx.insertInto('call_logs').values(logs.slice(i, i + 100)).onConflict((oc) => oc.columns(['trace_id', 'attempt']).doNothing()).execute();
    }
  }
  return applyDebits(trx, apply);
}

/** Applies the debits of `entries`, summed per account; returns the non-zero totals. */
export async function applyDebits(trx: Transaction<Database>, entries: Entry[]): Promise<Debit[]> {
  const totals = new Map<string, Debit>();
  for (const e of entries) {
    for (const d of e.debits) {
      // Per account and flag: a task settles with the flags it was charged under, which may differ from today's.
      const k = `${accountKey(d.account)}:${d.account.limited ? 1 : 0}`;
      const t = totals.get(k);
      if (t) t.amount += d.amount;
      else totals.set(k, { account: d.account, amount: d.amount });
    }
  }
  const out = [...totals.entries()].filter(([, t]) => t.amount !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t);
  for (const { account: a, amount } of out) {
    // Unlimited app keys, apps and groups only count usage; the user's balance always goes down.
    const spend = (eb: any) => ({ used_quota: eb('used_quota', '+', amount), ...(a.limited ? { quota: eb('quota', '-', amount) } : {}) });
    if (a.kind === 'user' || a.kind === 'reseller') await trx.updateTable('users').set(spend).where('user_id', '=', a.id).execute();
    else if (a.kind === 'app') await trx.updateTable('apps').set(spend).where('app_id', '=', a.id).execute();
    else if (a.kind === 'app_key') await trx.updateTable('app_keys').set(spend).where('id', '=', a.id).execute();
    else await trx.updateTable('groups').set(spend).where('id', '=', a.id).execute();
  }
  return out;
}

/** Moves written totals into the stored balances, as the batch's UPDATEs did in the database. */
export function applyWritten(balances: Balances, totals: Debit[]): void {
  for (const { account: a, amount } of totals) {
    const rec = balances.stored(a);
    if (!rec) continue;
    rec.used_quota += amount;
    if (a.limited) rec.quota -= amount;
  }
}
