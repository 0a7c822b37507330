// When the database refuses rows of a ledger batch. A connection, timeout or lock error says nothing
// about the rows: the whole batch is written again later. A data or constraint error that repeats is
// the batch's own: the ledger splits it until one entry is left, and that entry is written here, call
// log by call log, so the rest of the batch (and every later batch) still lands. A refused call log is
// stored once more with what the database could not take emptied; a row refused even then is only
// reported. The entry's charge is applied either way: the money movement is what matters.
import { sql, type Transaction } from 'kysely';
import { callLogConflict } from '../db/call-log-partitions';
import type { CallLogsTable, Database, NewCallLog } from '../db/schema';
import { isStorable } from '../db/text';
import { newId } from '../http/ids';
import type { Debit, Entry } from './ledger-types';
import { applyDebits } from './ledger-write';

/**
 * Whether `err` is the database refusing the rows themselves. PostgreSQL: SQLSTATE class 22 (a value it
 * cannot take: NUL byte, out of range, too long, bad number) and 23 (NOT NULL, CHECK, unique), and 42703
 * (a field the table does not have, e.g. from a newer instance's journal entry). SQLite: the constraint,
 * type and size errors, an unknown column, and better-sqlite3 refusing to bind a value. Anything else
 * (connections, timeouts, locks, serialization) is about the database, not the rows.
 */
export function refusesRows(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^(2[23][0-9A-Z]{3}|42703)$/.test(code)) return true;
    if (/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(code)) return true;
    if (code === 'SQLITE_ERROR') return /has no column named/.test(err.message);
    return false;
  }
  return err instanceof TypeError && /can only bind/.test(err.message);
}

/**
 * What may be logged of a database error: its code and message. Not the error object: PostgreSQL's
 * `detail` of a constraint error holds the whole refused row (prompts and completions included).
 */
export function dbError(err: unknown): { code?: string; message: string } {
  if (!(err instanceof Error)) return { message: String(err).slice(0, 300) };
  const code = (err as { code?: unknown }).code;
  return { ...(typeof code === 'string' ? { code } : {}), message: err.message.slice(0, 300) };
}

type Kind = 'int' | 'bigint' | 'real' | 'text';
const INT32 = 2 ** 31 - 1;

// Every column (the Record makes the compiler keep it complete), as the database stores it.
const COLUMNS: Record<Exclude<keyof CallLogsTable, 'id' | 'trace_id' | 'attempt'>, Kind> = {
  user_id: 'int', app_id: 'int', rid: 'int', type: 'int', stream: 'int', is_enable_model_agent: 'int', is_retry: 'int', retry_count: 'int',
  is_smart_match: 'int', status: 'int',
  prompt_tokens: 'bigint', completion_tokens: 'bigint', cached_tokens: 'bigint', cache_write_tokens: 'bigint', reasoning_tokens: 'bigint', total_tokens: 'bigint',
  total_price: 'bigint', discount_bp: 'bigint', floor_bp: 'int', is_limit_quota: 'int', line_items: 'text',
  conn_time: 'bigint', duration: 'bigint', total_time: 'bigint', internal_time: 'bigint', req_time: 'bigint', created_at: 'bigint',
  prompt_ratio: 'real', completion_ratio: 'real',
  endpoint: 'text', creator: 'text', app_key_id: 'text', corp: 'text', corp_name: 'text', group_id: 'text', group_name: 'text', model_id: 'text',
  name: 'text', model: 'text', real_model_id: 'text', real_model: 'text', model_agent_id: 'text', model_agent_name: 'text', key_id: 'text',
  key_mask: 'text', client_ip: 'text', remote_ip: 'text', err_msg: 'text', prompt: 'text', completion: 'text', messages: 'text',
};

/** The call's content: left out of a minimal row whatever it holds (it is what a hostile request controls). */
const CONTENT = new Set(['prompt', 'completion', 'messages']);

function fits(kind: Kind, v: unknown): boolean {
  if (kind === 'text') return typeof v === 'string' && isStorable(v);
  if (typeof v !== 'number') return false;
  if (kind === 'real') return Number.isFinite(v);
  return Number.isSafeInteger(v) && (kind === 'bigint' || Math.abs(v) <= INT32);
}

/**
 * The minimal row of a refused call log: its identity, its accounting and every value the database can
 * keep; the call's content, unknown fields and values of the wrong kind (NaN, null, a NUL byte) give
 * way to the column's default ('' or 0). Undefined when the row cannot be identified (trace id, attempt).
 */
export function minimalLog(row: NewCallLog): NewCallLog | undefined {
  const r = row as unknown as Record<string, unknown>;
  const trace = r.trace_id;
  const attempt = r.attempt === undefined ? 0 : r.attempt;
  if (typeof trace !== 'string' || !trace || trace.length > 64 || !isStorable(trace)) return undefined;
  if (!fits('int', attempt)) return undefined;
  const id = typeof r.id === 'string' && r.id.length <= 32 && isStorable(r.id) && r.id ? r.id : newId();
  const out: Record<string, unknown> = { id, trace_id: trace, attempt };
  for (const [k, kind] of Object.entries(COLUMNS) as [string, Kind][]) {
    if (CONTENT.has(k)) continue;
    if (fits(kind, r[k])) out[k] = r[k];
  }
  return out as unknown as NewCallLog;
}

export interface Quarantined {
  log: NewCallLog;
  /** `sanitized`: stored as its minimal row; `dropped`: refused even then, not stored. */
  outcome: 'sanitized' | 'dropped';
  error: unknown;
}

/** Inserts one row under a savepoint: a refusal rolls back only this row; other errors end the transaction. */
async function insertOne(trx: Transaction<Database>, row: NewCallLog): Promise<{ fresh: boolean } | { refused: unknown }> {
  await sql`savepoint ledger_row`.execute(trx);
  try {
    const rows = await trx.insertInto('call_logs').values(row).onConflict((oc) => oc.columns(callLogConflict(trx)).doNothing()).returning('id').execute();
    await sql`release savepoint ledger_row`.execute(trx);
    return { fresh: rows.length > 0 };
  } catch (err) {
    if (!refusesRows(err)) throw err;
    await sql`rollback to savepoint ledger_row`.execute(trx);
    await sql`release savepoint ledger_row`.execute(trx);
    return { refused: err };
  }
}

/**
 * Writes one entry call log by call log, inside the caller's transaction, then its charge. With `dedupe`
 * (the batch may already be in the database), the charge is applied only if one of its call logs was
 * not there yet, as in writeEntries; an entry none of whose call logs could be stored then cannot be
 * told apart from a written one, and its charge is not applied again (`blind`).
 */
export async function writeSalvaged(
  trx: Transaction<Database>,
  entry: Entry,
  dedupe: boolean,
): Promise<{ totals: Debit[]; stored: NewCallLog[]; quarantined: Quarantined[]; blind: boolean }> {
  const stamp = Date.now();
  const stored: NewCallLog[] = [];
  const quarantined: Quarantined[] = [];
  let fresh = false;
  for (const log of entry.logs) {
    log.created_at = stamp;
    const first = await insertOne(trx, log);
    if ('fresh' in first) {
      stored.push(log);
      fresh ||= first.fresh;
      continue;
    }
    const minimal = minimalLog(log);
    const second = minimal ? await insertOne(trx, minimal) : undefined;
    if (minimal && second && 'fresh' in second) {
      stored.push(minimal);
      fresh ||= second.fresh;
      quarantined.push({ log, outcome: 'sanitized', error: first.refused });
    } else quarantined.push({ log, outcome: 'dropped', error: first.refused });
  }
  const apply = !dedupe || fresh;
  const totals = apply ? await applyDebits(trx, [entry]) : [];
  return { totals, stored, quarantined, blind: !apply && entry.debits.length > 0 };
}
