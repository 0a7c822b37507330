// Daily statistics (bills, dashboard), the statistics job's cursor, and async tasks. Frozen.
import type { Kysely } from 'kysely';

/** Measures every statistics row carries: calls, tokens, spend (quota units) and the abnormal share. */
const MEASURES = ['total', 'tokens', 'spend', 'abnormal', 'abnormal_spend'] as const;

type Col = [string, 'integer' | 'bigint' | 'varchar(10)' | 'varchar(32)' | 'varchar(64)' | 'text'];

async function statTable(db: Kysely<any>, name: string, dims: Col[], unique: string[], extra: Col[] = []) {
  let t = db.schema
    .createTable(name)
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('stat_date', 'varchar(10)', (c) => c.notNull());
  for (const [n, type] of [...dims, ...extra]) t = t.addColumn(n, type, (c) => c.notNull().defaultTo(type.startsWith('varchar') || type === 'text' ? '' : 0));
  for (const m of MEASURES) t = t.addColumn(m, 'bigint', (c) => c.notNull().defaultTo(0));
  t = t.addColumn('created_at', 'bigint', (c) => c.notNull()).addColumn('updated_at', 'bigint', (c) => c.notNull());
  await t.execute();
  await db.schema.createIndex(`${name}_key`).on(name).columns(unique).unique().execute();
  await db.schema.createIndex(`${name}_date`).on(name).columns(['stat_date']).execute();
  await db.schema.createIndex(`${name}_rid_date`).on(name).columns(['rid', 'stat_date']).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // Keyset cursor of the statistics job over call_logs (created_at, id), and the flush stamp index it reads.
  await db.schema
    .createTable('stat_cursors')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_id', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('lock_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('call_logs_created').on('call_logs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('call_logs_model_time').on('call_logs').columns(['model', 'req_time']).execute();
  await db.schema.createIndex('call_logs_app_time').on('call_logs').columns(['app_id', 'req_time']).execute();

  const owner: Col[] = [['user_id', 'integer'], ['rid', 'integer']];
  // One row per user and day: the bill (docs/ORIGINAL-API.md §3.12). `models` = distinct models that day.
  await statTable(db, 'stat_user_day', owner, ['user_id', 'stat_date'], [['models', 'integer']]);
  await db.schema.createIndex('stat_user_day_date_spend').on('stat_user_day').columns(['stat_date', 'spend']).execute();
  // Per user, model and day: bill detail, model share, model ranking.
  await statTable(db, 'stat_user_model_day', [...owner, ['model', 'varchar(64)']], ['user_id', 'stat_date', 'model']);
  await db.schema.createIndex('stat_user_model_day_date_model').on('stat_user_model_day').columns(['stat_date', 'model']).execute();
  // Per app and per app key and day: their rankings.
  await statTable(db, 'stat_app_day', [...owner, ['app_id', 'integer']], ['app_id', 'stat_date']);
  await db.schema.createIndex('stat_app_day_user_date').on('stat_app_day').columns(['user_id', 'stat_date']).execute();
  await statTable(db, 'stat_app_key_day', [...owner, ['app_id', 'integer'], ['app_key_id', 'varchar(32)']], ['app_key_id', 'stat_date'], [['creator', 'varchar(64)']]);
  await db.schema.createIndex('stat_app_key_day_user_date').on('stat_app_key_day').columns(['user_id', 'stat_date']).execute();

  // Async tasks (docs/SPEC.md §3.11 Task): audio (audio clone), video (digital human), video second creation.
  let t = db.schema.createTable('tasks').addColumn('id', 'varchar(32)', (c) => c.primaryKey());
  const text: string[] = [
    'task_id', 'kind', 'trace_id', 'app_key_id', 'creator', 'model_id', 'model', 'corp', 'model_agent_id', 'key_id', 'upstream_id',
    'people_id', 'input', 'audio_url', 'video_url', 'video_pic', 'err_msg', 'client_ip',
  ];
  for (const n of text) t = t.addColumn(n, 'text', (c) => c.notNull().defaultTo(''));
  for (const n of ['user_id', 'rid', 'app_id', 'type', 'line_type', 'video_time', 'status', 'polls']) t = t.addColumn(n, 'integer', (c) => c.notNull().defaultTo(0));
  for (const n of ['reserved', 'total_price', 'lock_until', 'deadline', 'completed_at', 'created_at', 'updated_at']) t = t.addColumn(n, 'bigint', (c) => c.notNull().defaultTo(0));
  await t.execute();
  await db.schema.createIndex('tasks_task_id').on('tasks').column('task_id').unique().execute();
  await db.schema.createIndex('tasks_pending').on('tasks').columns(['status', 'lock_until']).execute();
  await db.schema.createIndex('tasks_kind_time').on('tasks').columns(['kind', 'created_at']).execute();
  await db.schema.createIndex('tasks_user_time').on('tasks').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('tasks_rid_time').on('tasks').columns(['rid', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['tasks', 'stat_app_key_day', 'stat_app_day', 'stat_user_model_day', 'stat_user_day', 'stat_cursors']) await db.schema.dropTable(name).execute();
  for (const name of ['call_logs_created', 'call_logs_model_time', 'call_logs_app_time']) await db.schema.dropIndex(name).execute();
}
