// How a batch of ledger entries reaches the database, the same for every store: the call logs, then
// relative `quota - x` / `used_quota + x` per account (summed over the batch, in key order so two
// instances' batches lock rows in the same order and cannot deadlock). Runs inside the caller's
// transaction.
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { callLogConflict } from '../db/call-log-partitions';
import { isPostgres } from '../db/migrations/dialect';
import type { Database, NewCallLog } from '../db/schema';
import { keptWith } from '../memo';
import { accountKey, type AccountRef, type Balances, type Debit, type Entry } from './ledger-types';

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
 * The statements that write `entries` as they are (no dedupe): their call logs (at most 100 rows a statement, `insertSize`), then
 * the summed debits (`debitStatements`); with the totals they apply. Compiled, not run: the caller runs them
 * in one transaction, on its own connection or in the SQLite writer thread (billing/sqlite-writer.ts).
 */
export function planEntries(db: Kysely<Database>, entries: Entry[]): { statements: CompiledQuery[]; totals: Debit[] } {
  const logs = stampLogs(entries);
  const statements: CompiledQuery[] = [];
  for (let i = 0, size = 0; i < logs.length; i += size) {
    size = insertSize(logs.length - i);
    statements.push(insertLogs(db, logs.slice(i, i + size)));
  }
  const debits = debitStatements(db, entries);
  return { statements: [...statements, ...debits.statements], totals: debits.totals };
}

/**
 * Rows for the next insert statement when `left` remain: 100, then the powers of two of the remainder, so
 * a batch of any size is written by at most 8 statement shapes. The SQLite writer keeps each shape's
 * prepared statement, and one of a hundred rows is ~0.4 MB: with a shape per remainder (1–99 rows) the
 * cache held ~40 MB under load.
 */
function insertSize(left: number): number {
  return left >= 100 ? 100 : 2 ** Math.floor(Math.log2(left));
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** A row layout written directly: its columns, checked once, and the statement texts made for it. */
interface Layout {
  columns: readonly (keyof NewCallLog)[];
  /** By dialect and row count. */
  texts: Map<string, string>;
}
/** The last layout written: callLog() builds every row alike, so its columns are listed and checked once. */
let lastLayout: Layout | undefined;

/** The layout `rows` share and their values, when every row carries the same plain columns in the same order, none undefined. */
function layoutOf(rows: readonly NewCallLog[]): { layout: Layout; parameters: unknown[] } | undefined {
  const last = lastLayout;
  const values = last && valuesOf(rows, last.columns);
  if (last && values) return { layout: last, parameters: values };
  const columns = Object.keys(rows[0] ?? {}) as (keyof NewCallLog)[];
  const parameters = columns.length > 0 && columns.every((c) => IDENTIFIER.test(c)) ? valuesOf(rows, columns) : undefined;
  if (!parameters) return undefined;
  lastLayout = { columns, texts: new Map() };
  return { layout: lastLayout, parameters };
}

/**
 * `insert into "call_logs" (…) values (…), … on conflict (…) do nothing` for `rows`: the statement kysely
 * compiles, built directly when every row carries the same columns in the same order, none undefined (what
 * callLog() builds). kysely builds a tree node per value and visits it again to compile; at 100 rows of 50
 * columns a statement that was a tenth of the gateway's CPU. Other rows go through kysely.
 */
export function insertLogs(db: Kysely<Database>, rows: NewCallLog[]): CompiledQuery {
  const direct = layoutOf(rows);
  const conflict = callLogConflict(db);
  if (!direct) return db.insertInto('call_logs').values(rows).onConflict((oc) => oc.columns(conflict).doNothing()).compile();
  const { layout, parameters } = direct;
  const { columns, texts } = layout;
  const postgres = isPostgres(db);
  const key = `${postgres ? 'pg' : 'sqlite'}:${rows.length}`;
  let text = texts.get(key);
  if (!text) {
    let n = 0;
    const row = () => `(${columns.map(() => (postgres ? `$${++n}` : '?')).join(', ')})`;
    text = `insert into "call_logs" (${columns.map((c) => `"${c}"`).join(', ')}) values ${rows.map(row).join(', ')} on conflict (${conflict.map((c) => `"${c}"`).join(', ')}) do nothing`;
    if (texts.size >= 500) texts.clear();
    texts.set(key, text);
  }
  return CompiledQuery.raw(text, parameters);
}

/**
 * Every row's values, row after row, when each row has exactly `columns`, in that order, none undefined;
 * else undefined. One for…in pass checks and collects (no key list allocated per row), into an array sized
 * once: pushed, a 100-row statement's 5,000 values grew it through a dozen copies, ~1.1 KB of garbage a call
 * (docs/BENCHMARKS.md, eighteenth session).
 */
function valuesOf(rows: readonly NewCallLog[], columns: readonly (keyof NewCallLog)[]): unknown[] | undefined {
  const values: unknown[] = new Array(rows.length * columns.length);
  let at = 0;
  for (const row of rows) {
    let i = 0;
    for (const k in row) {
      const v = row[k as keyof NewCallLog];
      if (k !== columns[i] || v === undefined) return undefined;
      values[at++] = v;
      i++;
    }
    if (i !== columns.length) return undefined;
  }
  return values;
}

/**
 * The call logs of `entries`, in order. A loop: `flatMap` took ~100 ns an entry, ~17× as long, and a batch is
 * walked twice on the event loop (here and once written).
 */
export function logsOf(entries: readonly Entry[]): NewCallLog[] {
  const logs: NewCallLog[] = [];
  for (const e of entries) for (const l of e.logs) logs.push(l);
  return logs;
}

/** created_at is the write stamp: the statistics job reads call logs in (created_at, id) order. */
function stampLogs(entries: Entry[]): NewCallLog[] {
  const stamp = Date.now();
  const logs = logsOf(entries);
  for (const l of logs) l.created_at = stamp;
  return logs;
}

/**
 * Writes `entries` and returns the non-zero totals it applied per account and `limited` flag. With
 * `dedupe`, an entry whose call logs are already stored is skipped (it was written before); an entry
 * without logs cannot be told apart and is skipped too (a charge in the customer's favour, logged).
 */
export async function writeEntries(trx: Transaction<Database>, entries: Entry[], dedupe: boolean, log: FastifyBaseLogger): Promise<Debit[]> {
  if (!dedupe) {
    const plan = planEntries(trx, entries);
    for (const q of plan.statements) await trx.executeQuery(q);
    return plan.totals;
  }
  const logs = stampLogs(entries);
  const fresh = new Set<string>();
  for (let i = 0; i < logs.length; i += 100) {
    const rows = await trx
      .insertInto('call_logs')
      .values(logs.slice(i, i + 100))
      .onConflict((oc) => oc.columns(callLogConflict(trx)).doNothing())
      .returning(['trace_id', 'attempt'])
      .execute();
    for (const r of rows) fresh.add(logId(r));
  }
  const apply = entries.filter((e) => e.logs.some((l) => fresh.has(logId(l))));
  const blind = entries.filter((e) => e.logs.length === 0 && e.debits.length > 0).length;
  if (blind) log.error({ entries: blind }, 'a recovered ledger batch had charges without call logs; they were not applied again');
  return applyDebits(trx, apply);
}

/** Applies the debits of `entries`, summed per account; returns the non-zero totals. */
export async function applyDebits(trx: Transaction<Database>, entries: Entry[]): Promise<Debit[]> {
  const { statements, totals } = debitStatements(trx, entries);
  for (const q of statements) await trx.executeQuery(q);
  return totals;
}

/** An account and its `limited` flag, kept with the account object as accountKey is. */
const debitKey = keptWith((a: AccountRef): string => `${accountKey(a)}:${a.limited ? 1 : 0}`);

/** The debits of `entries` summed per account, and one relative UPDATE per account, in key order. */
function debitStatements(db: Kysely<Database>, entries: Entry[]): { statements: CompiledQuery[]; totals: Debit[] } {
  const totals = new Map<string, Debit>();
  for (const e of entries) {
    for (const d of e.debits) {
      // Per account and flag: a task settles with the flags it was charged under, which may differ from today's.
      const k = debitKey(d.account);
      const t = totals.get(k);
      if (t) t.amount += d.amount;
      else totals.set(k, { account: d.account, amount: d.amount });
    }
  }
  const out = [...totals.entries()].filter(([, t]) => t.amount !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, t]) => t);
  const postgres = isPostgres(db);
  const statements = out.map(({ account, amount }) => debitStatement(postgres, account, amount));
  return { statements, totals: out };
}

/** Where each kind of account keeps its balance: table and key column. */
const BALANCE_ROWS: Record<AccountRef['kind'], readonly [table: string, key: string]> = {
  user: ['users', 'user_id'],
  reseller: ['users', 'user_id'],
  app: ['apps', 'app_id'],
  app_key: ['app_keys', 'id'],
  group: ['groups', 'id'],
};
/** Each kind of account's statement texts in one dialect: [usage only, usage and balance]. Made once. */
function debitTexts(postgres: boolean): Record<AccountRef['kind'], readonly [string, string]> {
  const p = (n: number) => (postgres ? `$${n}` : '?');
  const texts = Object.entries(BALANCE_ROWS).map(([kind, [table, key]]) => [
    kind,
    [
      `update "${table}" set "used_quota" = "used_quota" + ${p(1)} where "${key}" = ${p(2)}`,
      `update "${table}" set "used_quota" = "used_quota" + ${p(1)}, "quota" = "quota" - ${p(2)} where "${key}" = ${p(3)}`,
    ],
  ]);
  return Object.fromEntries(texts) as Record<AccountRef['kind'], readonly [string, string]>;
}
const DEBIT_TEXTS = { pg: debitTexts(true), sqlite: debitTexts(false) };

/**
 * `update "users" set "used_quota" = "used_quota" + ?, "quota" = "quota" - ? where "user_id" = ?` and the
 * like, as kysely compiles them (a test holds it to that), built directly: kysely's compile took ~70 µs a
 * statement, several per batch, on the event loop. Unlimited app keys, apps and groups only count usage;
 * the user's balance always goes down.
 */
export function debitStatement(postgres: boolean, a: AccountRef, amount: number): CompiledQuery {
  const text = DEBIT_TEXTS[postgres ? 'pg' : 'sqlite'][a.kind][a.limited ? 1 : 0];
  return CompiledQuery.raw(text, a.limited ? [amount, amount, a.id] : [amount, a.id]);
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
