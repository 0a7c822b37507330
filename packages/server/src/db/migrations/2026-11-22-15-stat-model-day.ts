// Per-model daily statistics for the whole installation: the admin's model ranking and model share
// read ~30 rows a day here instead of aggregating every (user, model, day) row of the window — at
// 1,000,000 call logs ~108,000 rows of stat_user_model_day per request, 92 ms p50 on SQLite
// (docs/BENCHMARKS.md). Admin-wide only: a reseller's or a user's rows of stat_user_model_day are few.
// The (model, stat_date, user_id) index gives the distinct users of the ten ranked models. Frozen.
import { sql, type Kysely } from 'kysely';

const MEASURES = ['total', 'tokens', 'spend', 'abnormal', 'abnormal_spend'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  let t = db.schema
    .createTable('stat_model_day')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('stat_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''));
  for (const m of MEASURES) t = t.addColumn(m, 'bigint', (c) => c.notNull().defaultTo(0));
  await t.addColumn('created_at', 'bigint', (c) => c.notNull()).addColumn('updated_at', 'bigint', (c) => c.notNull()).execute();
  await db.schema.createIndex('stat_model_day_key').on('stat_model_day').columns(['model', 'stat_date']).unique().execute();
  await db.schema.createIndex('stat_model_day_date').on('stat_model_day').columns(['stat_date']).execute();
  await db.schema.createIndex('stat_user_model_day_model_date_user').on('stat_user_model_day').columns(['model', 'stat_date', 'user_id']).execute();

  // What the statistics job has counted so far, per model and day. Each group's smallest source id is
  // its id: unique (every source row is in one group), and the job's later ids are newer.
  const sums = MEASURES.map((m) => sql`sum(${sql.ref(m)})`);
  await sql`
    insert into stat_model_day (id, stat_date, model, ${sql.join(MEASURES.map((m) => sql.ref(m)))}, created_at, updated_at)
    select min(id), stat_date, model, ${sql.join(sums)}, min(created_at), max(updated_at)
    from stat_user_model_day
    group by model, stat_date
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('stat_user_model_day_model_date_user').execute();
  await db.schema.dropTable('stat_model_day').execute();
}
