// Call logs (docs/SPEC.md §3.12): one row per upstream attempt, written in batches by the gateway. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  let t = db.schema
    .createTable('call_logs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('trace_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0));
  for (const n of ['user_id', 'app_id', 'rid', 'type', 'stream', 'is_enable_model_agent', 'is_retry', 'retry_count', 'is_smart_match', 'status']) {
    t = t.addColumn(n, 'integer', (c) => c.notNull().defaultTo(0));
  }
  for (const n of ['prompt_tokens', 'completion_tokens', 'cached_tokens', 'total_tokens', 'total_price', 'discount_bp', 'conn_time', 'duration', 'total_time', 'internal_time', 'req_time', 'created_at']) {
    t = t.addColumn(n, 'bigint', (c) => c.notNull().defaultTo(0));
  }
  for (const n of ['prompt_ratio', 'completion_ratio']) t = t.addColumn(n, 'double precision', (c) => c.notNull().defaultTo(0));
  for (const n of [
    'endpoint', 'creator', 'app_key_id', 'corp', 'corp_name', 'group_id', 'group_name', 'model_id', 'name', 'model', 'real_model_id', 'real_model',
    'model_agent_id', 'model_agent_name', 'key_id', 'key_mask', 'client_ip', 'remote_ip', 'err_msg', 'prompt', 'completion', 'messages',
  ]) {
    t = t.addColumn(n, 'text', (c) => c.notNull().defaultTo(''));
  }
  await t.execute();
  await db.schema.createIndex('call_logs_trace').on('call_logs').columns(['trace_id', 'attempt']).unique().execute();
  await db.schema.createIndex('call_logs_req_time').on('call_logs').column('req_time').execute();
  await db.schema.createIndex('call_logs_user_time').on('call_logs').columns(['user_id', 'req_time']).execute();
  await db.schema.createIndex('call_logs_rid_time').on('call_logs').columns(['rid', 'req_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('call_logs').execute();
}
