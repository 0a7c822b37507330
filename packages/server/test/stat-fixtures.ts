// Call logs written straight to the database for the statistics, bill and dashboard suites (the
// gateway writes them in its own suites), and a statistics run that waits out a scheduled one.
import type { AccountRef, Entry } from '../src/billing/ledger-types';
import { writeEntries } from '../src/billing/ledger-write';
import type { NewCallLog } from '../src/db/schema';
import { newId } from '../src/http/ids';
import { runStatistics, type StatisticsOptions, type StatisticsResult } from '../src/jobs/statistics';
import type { Client, TestServer } from './helpers';

let seq = 0;

/** One call-log row (one upstream attempt); `created_at` is the write stamp, as the ledger sets it. */
export function callLog(over: Partial<NewCallLog> & Pick<NewCallLog, 'user_id' | 'req_time'>): NewCallLog {
  const now = Date.now();
  return {
    id: newId(),
    trace_id: `trace-${process.pid}-${++seq}`,
    attempt: 0,
    app_id: 0,
    rid: 0,
    type: 1,
    stream: 0,
    is_enable_model_agent: 1,
    is_retry: 0,
    retry_count: 0,
    is_smart_match: 0,
    status: 1,
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    total_tokens: 0,
    total_price: 0,
    discount_bp: 10000,
    conn_time: 5,
    duration: 10,
    total_time: 15,
    internal_time: 0,
    created_at: now,
    prompt_ratio: 1,
    completion_ratio: 1,
    endpoint: '/v1/chat/completions',
    creator: '',
    app_key_id: '',
    corp: 'c1',
    corp_name: 'OpenAI',
    group_id: '',
    group_name: '',
    model_id: 'm1',
    name: 'model',
    model: 'gpt-a',
    real_model_id: 'm1',
    real_model: 'gpt-a',
    model_agent_id: '',
    model_agent_name: '',
    key_id: '',
    key_mask: '',
    client_ip: '127.0.0.1',
    remote_ip: '127.0.0.1',
    err_msg: '',
    prompt: '',
    completion: '',
    messages: '',
    ...over,
  };
}

export async function insertLogs(server: TestServer, rows: NewCallLog[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) await server.app.ctx.db.insertInto('call_logs').values(rows.slice(i, i + 200)).execute();
}

/**
 * Writes the rows as the ledger would, with their charges (the ledger's own writer, in one
 * transaction): each row's total_price taken from its user's balance (always limited here) and counted
 * on its reseller, app, key and group, so the ledger verifier agrees with the suite's data.
 */
export async function chargeLogs(server: TestServer, rows: NewCallLog[]): Promise<void> {
  const entries: Entry[] = rows.map((l) => {
    const accounts: AccountRef[] = [
      { kind: 'user', id: l.user_id, limited: true },
      ...(l.rid ? [{ kind: 'reseller' as const, id: l.rid, limited: false as const }] : []),
      ...(l.app_id ? [{ kind: 'app' as const, id: l.app_id, limited: false }] : []),
      ...(l.app_key_id ? [{ kind: 'app_key' as const, id: l.app_key_id, hash: '', limited: false }] : []),
      ...(l.group_id ? [{ kind: 'group' as const, id: l.group_id, limited: false }] : []),
    ];
    return { debits: l.total_price ? accounts.map((account) => ({ account, amount: l.total_price })) : [], logs: [l] };
  });
  await server.app.ctx.db.transaction().execute((trx) => writeEntries(trx, entries, false, server.app.log));
}

/** A full statistics run as the app schedules it; if a scheduled run holds the lock, waits and runs again. */
export async function runStats(server: TestServer, opts: StatisticsOptions = {}): Promise<StatisticsResult> {
  for (let i = 0; i < 500; i++) {
    const r = await runStatistics(server.app.ctx, { flush: () => server.app.gateway.ledger.flush(), writer: server.app.gateway.sqliteWriter, ...opts });
    if (!r.locked) return r;
    await new Promise((res) => setTimeout(res, 20));
  }
  throw new Error('statistics lock never released');
}

/** Turns the scheduled job off, so a suite decides when statistics run. */
export async function pauseSchedule(admin: Client): Promise<void> {
  const r = await admin.post('/api/v1/sys/config/change/status', { action: 'statistics', open: false });
  if (r.body.code !== 0) throw new Error(r.body.message);
}

/** Epoch ms of a wall-clock time in Asia/Shanghai (the tests' default zone, UTC+8, no DST). */
export const shanghai = (text: string) => Date.parse(`${text.replace(' ', 'T')}+08:00`);
