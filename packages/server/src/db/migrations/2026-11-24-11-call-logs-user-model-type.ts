// The log screens always filter by model type (console/call-log-query.ts: each screen shows its kinds),
// and the (user_id, model, req_time) index left that test to a table lookup per matching row: at
// 10,000,000 call logs the chat page's count for one user, one model and 7 days read every matching
// row (SQLite 443 ms cold, PostgreSQL 31,500 heap pages; docs/BENCHMARKS.md). With the type in the index
// the count is answered from it alone. It replaces the old index, whose columns are its prefix, so the
// insert path keeps the same number of indexes. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('call_logs_user_model_time_type').on('call_logs').columns(['user_id', 'model', 'req_time', 'type']).execute();
  await db.schema.dropIndex('call_logs_user_model_time').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('call_logs_user_model_time').on('call_logs').columns(['user_id', 'model', 'req_time']).execute();
  await db.schema.dropIndex('call_logs_user_model_time_type').execute();
}
