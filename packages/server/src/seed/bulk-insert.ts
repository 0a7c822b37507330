// Fast call-log inserts for the seed, outside kysely (which would compile 50 values per row): on SQLite
// one prepared single-row statement run in a transaction per chunk, on PostgreSQL one
// `INSERT … SELECT FROM unnest(arrays)` per chunk. Each chunk commits on its own, stamped like a
// ledger batch (created_at = write time, strictly increasing), so the statistics job's cursor reads
// the new rows whatever it had already read. Conflicts (a trace id and attempt already stored) are
// skipped, as the ledger does.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CallLogRow, CallLogsTable } from '../db/schema';

type Kind = 'text' | 'int' | 'bigint' | 'float';

/** Every column of call_logs with its storage kind (a Record, so a new column fails to compile here). */
const KINDS: Record<keyof CallLogsTable, Kind> = {
  id: 'text', trace_id: 'text', attempt: 'int', user_id: 'int', app_id: 'int', rid: 'int', type: 'int', stream: 'int',
  is_enable_model_agent: 'int', is_retry: 'int', retry_count: 'int', is_smart_match: 'int', status: 'int',
  prompt_tokens: 'bigint', completion_tokens: 'bigint', cached_tokens: 'bigint', total_tokens: 'bigint', total_price: 'bigint',
  discount_bp: 'bigint', conn_time: 'bigint', duration: 'bigint', total_time: 'bigint', internal_time: 'bigint', req_time: 'bigint',
  created_at: 'bigint', prompt_ratio: 'float', completion_ratio: 'float',
  endpoint: 'text', creator: 'text', app_key_id: 'text', corp: 'text', corp_name: 'text', group_id: 'text', group_name: 'text',
  model_id: 'text', name: 'text', model: 'text', real_model_id: 'text', real_model: 'text', model_agent_id: 'text',
  model_agent_name: 'text', key_id: 'text', key_mask: 'text', client_ip: 'text', remote_ip: 'text', err_msg: 'text',
  prompt: 'text', completion: 'text', messages: 'text', cache_write_tokens: 'bigint', reasoning_tokens: 'bigint', line_items: 'text',
  floor_bp: 'int', is_limit_quota: 'int',
};
const COLUMNS = Object.keys(KINDS) as (keyof CallLogsTable)[];
const PG_ARRAY: Record<Kind, string> = { text: 'text[]', int: 'int4[]', bigint: 'int8[]', float: 'float8[]' };

export interface LogWriter {
  /** Stores the rows with one write stamp; returns how many were new. */
  write(rows: CallLogRow[]): Promise<number>;
  close(): Promise<void>;
}

/** The next write stamp: now, but always after the previous one. */
function stamps() {
  let last = 0;
  return () => (last = Math.max(Date.now(), last + 1));
}

function sqliteWriter(dataDir: string): LogWriter {
  const db = new SQLite(path.join(dataDir, 'fastgate.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // The indexes take random keys (trace ids, users, apps): a large page cache keeps their inserts off
  // the disk. WAL + NORMAL cannot corrupt; a crash may lose the last chunks of seed data, nothing more.
  db.pragma('cache_size = -262144');
  db.pragma('synchronous = NORMAL');
  const insert = db.prepare(`INSERT INTO call_logs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`);
  const next = stamps();
  const params: unknown[] = new Array(COLUMNS.length);
  const writeAll = db.transaction((rows: CallLogRow[], stamp: number) => {
    let n = 0;
    for (const row of rows) {
      row.created_at = stamp;
      for (let i = 0; i < COLUMNS.length; i++) params[i] = row[COLUMNS[i]!];
      n += insert.run(params).changes;
    }
    return n;
  });
  return {
    write: async (rows) => writeAll(rows, next()),
    close: async () => {
      db.close();
    },
  };
}

async function postgresWriter(url: string): Promise<LogWriter> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Seed data: a crash may lose the last chunks, never corrupt anything; commits need not wait for the disk.
  await client.query('SET synchronous_commit = off');
  const sql =
    `INSERT INTO call_logs (${COLUMNS.join(', ')}) ` +
    `SELECT * FROM unnest(${COLUMNS.map((c, i) => `$${i + 1}::${PG_ARRAY[KINDS[c]]}`).join(', ')}) ON CONFLICT DO NOTHING`;
  const next = stamps();
  return {
    async write(rows) {
      const stamp = next();
      const arrays = COLUMNS.map((c) => (c === 'created_at' ? rows.map(() => stamp) : rows.map((r) => r[c])));
      for (const r of rows) r.created_at = stamp;
      const res = await client.query(sql, arrays);
      return res.rowCount ?? 0;
    },
    close: () => client.end(),
  };
}

export function openLogWriter(opts: { databaseUrl?: string; dataDir: string }): Promise<LogWriter> {
  return opts.databaseUrl ? postgresWriter(opts.databaseUrl) : Promise.resolve(sqliteWriter(opts.dataDir));
}
