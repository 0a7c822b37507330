// The log page's most common narrow filter — one user, one model, a request-time range — read through
// one index range instead of every row of the model (or of the user) in that range. Measured at
// 1,000,000 call logs (docs/BENCHMARKS.md): the page's count went from ~45 ms to ~4 ms on SQLite and
// from ~210 ms to ~15 ms on PostgreSQL (cold cache). Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('call_logs_user_model_time').on('call_logs').columns(['user_id', 'model', 'req_time']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('call_logs_user_model_time').execute();
}
