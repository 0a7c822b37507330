// Issue 16: on PostgreSQL, call_logs becomes a table partitioned by RANGE (req_time), one partition per
// UTC day (db/call-log-partitions.ts creates them ahead and retention drops them whole), so retention
// stops deleting millions of rows one by one and queries by request time read only their days.
// Partitions live in their own schema, `call_log_parts`, so the application's schema keeps one table.
//
// An existing installation's rows are not copied: the old table moves into that schema as one legacy
// partition covering everything before the next UTC day (or its latest row's), attached in place. The
// attach builds the two unique indexes that must now include the partition key (PostgreSQL requires it):
// PK (id, req_time) and (trace_id, attempt, req_time), the ledger's dedupe (billing/ledger-write.ts;
// a replayed entry carries the same req_time, so it stays exact); the other indexes are reused. That is
// one read of the old table per unique index plus one to check its bound, not a copy. Rows outside every
// partition land in a DEFAULT partition, so a write never fails for want of a day.
// SQLite keeps its plain table. Frozen.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect';

const DAY = 86_400_000;

// The non-unique indexes call_logs has by now (migrations 04, 09, 14): the same columns on the parent,
// so attaching the legacy table adopts its existing ones instead of building them.
const INDEXES: [string, string[]][] = [
  ['call_logs_req_time', ['req_time']],
  ['call_logs_user_time', ['user_id', 'req_time']],
  ['call_logs_rid_time', ['rid', 'req_time']],
  ['call_logs_user_model_time', ['user_id', 'model', 'req_time']],
  ['call_logs_created', ['created_at', 'id']],
  ['call_logs_model_time', ['model', 'req_time']],
  ['call_logs_app_time', ['app_id', 'req_time']],
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create schema if not exists call_log_parts`.execute(db);
  await sql`alter table call_logs set schema call_log_parts`.execute(db);
  await sql`alter table call_log_parts.call_logs rename to call_logs_legacy`.execute(db);
  // Its unique constraints without req_time cannot be the parent's; the attach builds the new ones.
  const { rows: pks } = await sql<{ conname: string }>`select conname from pg_constraint where conrelid = 'call_log_parts.call_logs_legacy'::regclass and contype = 'p'`.execute(db);
  for (const { conname } of pks) await sql`alter table call_log_parts.call_logs_legacy drop constraint ${sql.id(conname)}`.execute(db);
  await sql`drop index if exists call_log_parts.call_logs_trace`.execute(db);

  await sql`create table call_logs (like call_log_parts.call_logs_legacy including defaults) partition by range (req_time)`.execute(db);
  await sql`alter table call_logs add constraint call_logs_pkey primary key (id, req_time)`.execute(db);
  await sql`create unique index call_logs_trace on call_logs (trace_id, attempt, req_time)`.execute(db);
  for (const [name, cols] of INDEXES) await db.schema.createIndex(name).on('call_logs').columns(cols).execute();

  const { rows } = await sql<{ has_rows: boolean; top: string | number | null }>`
    select exists (select 1 from call_log_parts.call_logs_legacy) as has_rows, (select max(req_time) from call_log_parts.call_logs_legacy) as top`.execute(db);
  if (rows[0]?.has_rows) {
    // Up to the UTC day after now (rows keep arriving here until the first daily partition starts) or
    // after the latest row, whichever is later, so every stored row fits its bound.
    const last = Math.max(Date.now(), Number(rows[0].top ?? 0));
    const bound = Math.floor(last / DAY) * DAY + DAY;
    await sql`alter table call_logs attach partition call_log_parts.call_logs_legacy for values from (minvalue) to (${sql.lit(bound)})`.execute(db);
  } else {
    await sql`drop table call_log_parts.call_logs_legacy`.execute(db);
  }
  await sql`create table call_log_parts.call_logs_default partition of call_logs default`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create table call_logs_plain (like call_logs including defaults)`.execute(db);
  await sql`insert into call_logs_plain select * from call_logs`.execute(db);
  await sql`drop table call_logs`.execute(db);
  await sql`drop schema call_log_parts cascade`.execute(db);
  await sql`alter table call_logs_plain rename to call_logs`.execute(db);
  await sql`alter table call_logs add primary key (id)`.execute(db);
  await db.schema.createIndex('call_logs_trace').on('call_logs').columns(['trace_id', 'attempt']).unique().execute();
  for (const [name, cols] of INDEXES) await db.schema.createIndex(name).on('call_logs').columns(cols).execute();
}
