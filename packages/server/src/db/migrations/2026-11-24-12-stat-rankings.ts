// The dashboard's 15/30-day rankings at 10,000,000 call logs (issue 16; docs/BENCHMARKS.md):
// - stat_model_user: per (model, user) the latest day the user called it. The admin's model ranking
//   counted the distinct users of the ten ranked models by grouping every (model, user, day) row of the
//   window; a user called a model in a window ending today iff that day is in the window (a later,
//   future-dated day is checked against the daily rows: console/dashboard.ts). ~users × models rows.
// - stat_user_model_day (rid, stat_date) → (rid, stat_date, model, user_id, measures): a reseller's model
//   ranking and share are read from the index alone instead of a row lookup per (user, model, day).
// - stat_app_day (stat_date) → (stat_date, app_id, user_id, measures): the same for the admin's app ranking.
// The new indexes start with the columns of the ones they replace, so every query those served is still
// served, and the statistics job writes as many indexes as before. Frozen.
import { sql, type Kysely } from 'kysely';

const COVERED = ['total', 'tokens', 'spend', 'abnormal'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stat_model_user')
    .addColumn('model', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('last_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('stat_model_user_pk', ['model', 'user_id'])
    .execute();
  await db.schema.createIndex('stat_model_user_model_last').on('stat_model_user').columns(['model', 'last_date', 'user_id']).execute();
  // What the statistics job has counted so far; it keeps the table from here on.
  await sql`
    insert into stat_model_user (model, user_id, last_date, updated_at)
    select model, user_id, max(stat_date), max(updated_at) from stat_user_model_day group by model, user_id
  `.execute(db);

  await db.schema.createIndex('stat_user_model_day_rid_cover').on('stat_user_model_day').columns(['rid', 'stat_date', 'model', 'user_id', ...COVERED]).execute();
  await db.schema.dropIndex('stat_user_model_day_rid_date').execute();
  await db.schema.createIndex('stat_app_day_date_cover').on('stat_app_day').columns(['stat_date', 'app_id', 'user_id', ...COVERED]).execute();
  await db.schema.dropIndex('stat_app_day_date').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('stat_app_day_date').on('stat_app_day').columns(['stat_date']).execute();
  await db.schema.dropIndex('stat_app_day_date_cover').execute();
  await db.schema.createIndex('stat_user_model_day_rid_date').on('stat_user_model_day').columns(['rid', 'stat_date']).execute();
  await db.schema.dropIndex('stat_user_model_day_rid_cover').execute();
  await db.schema.dropTable('stat_model_user').execute();
}
