// Adds one chunk's deltas to the statistics tables: INSERT … ON CONFLICT (unique key) DO UPDATE SET
// measure = measure + excluded.measure, the same statement on SQLite and PostgreSQL. Runs inside the
// job's transaction, so a chunk lands whole or not at all.
import type { ExpressionBuilder, Transaction } from 'kysely';
import type { Database } from '../db/schema';
import { newId } from '../http/ids';
import type { Deltas, Measures, ModelUserDelta } from './aggregate';

type StatTable = 'stat_user_day' | 'stat_user_model_day' | 'stat_model_day' | 'stat_app_day' | 'stat_app_key_day';
type Trx = Transaction<Database>;

/** Rows per INSERT: ~17 parameters each stays far below both databases' parameter limits. */
const ROWS_PER_INSERT = 500;
const MEASURE_COLUMNS = ['total', 'tokens', 'spend', 'abnormal', 'abnormal_spend', 'floor_spend', 'exempt_spend'] as const satisfies readonly (keyof Measures)[];

/** measure = stored + excluded for every measure; the other columns take the newest values. */
function accumulate<T extends StatTable>(table: T, replace: readonly string[]) {
  return (eb: ExpressionBuilder<any, any>) => {
    const set: Record<string, unknown> = {};
    for (const m of MEASURE_COLUMNS) set[m] = eb(`${table}.${m}`, '+', eb.ref(`excluded.${m}`));
    for (const c of [...replace, 'updated_at']) set[c] = eb.ref(`excluded.${c}`);
    return set;
  };
}

async function upsert<T extends StatTable>(trx: Trx, table: T, rows: object[], unique: readonly string[], replace: readonly string[], now: number): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({ id: newId(), ...r, created_at: now, updated_at: now }));
    await trx
      .insertInto(table)
      .values(values as never)
      .onConflict((oc) => oc.columns(unique as never).doUpdateSet(accumulate(table, replace) as never))
      .execute();
  }
}

/** stat_model_user.last_date = the later of the stored and the chunk's day (late rows of an earlier day keep it). */
async function touchModelUsers(trx: Trx, rows: ModelUserDelta[], now: number): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    await trx
      .insertInto('stat_model_user')
      .values(rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({ ...r, updated_at: now })))
      .onConflict((oc) =>
        oc.columns(['model', 'user_id']).doUpdateSet((eb) => ({
          last_date: eb.case().when('excluded.last_date', '>', eb.ref('stat_model_user.last_date')).then(eb.ref('excluded.last_date')).else(eb.ref('stat_model_user.last_date')).end(),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

export async function writeDeltas(trx: Trx, deltas: Deltas, now: number): Promise<void> {
  await upsert(trx, 'stat_user_model_day', [...deltas.userModels.values()], ['user_id', 'stat_date', 'model'], ['rid'], now);
  await upsert(trx, 'stat_model_day', [...deltas.models.values()], ['model', 'stat_date'], [], now);
  await upsert(trx, 'stat_user_day', [...deltas.users.values()].map((d) => ({ ...d, models: 0 })), ['user_id', 'stat_date'], ['rid'], now);
  await upsert(trx, 'stat_app_day', [...deltas.apps.values()], ['app_id', 'stat_date'], ['user_id', 'rid'], now);
  await upsert(trx, 'stat_app_key_day', [...deltas.appKeys.values()], ['app_key_id', 'stat_date'], ['user_id', 'rid', 'app_id', 'creator'], now);
  await touchModelUsers(trx, [...deltas.modelUsers.values()], now);

  // models = distinct models of that user that day, recounted for the (user, day) pairs this chunk touched.
  const usersByDate = new Map<string, number[]>();
  for (const d of deltas.users.values()) {
    const ids = usersByDate.get(d.stat_date);
    if (ids) ids.push(d.user_id);
    else usersByDate.set(d.stat_date, [d.user_id]);
  }
  for (const [date, ids] of usersByDate) {
    for (let i = 0; i < ids.length; i += ROWS_PER_INSERT) {
      await trx
        .updateTable('stat_user_day')
        .set((eb) => ({
          models: eb
            .selectFrom('stat_user_model_day as m')
            .select((s) => s.fn.countAll<number>().as('n'))
            .whereRef('m.user_id', '=', 'stat_user_day.user_id')
            .whereRef('m.stat_date', '=', 'stat_user_day.stat_date'),
        }))
        .where('stat_date', '=', date)
        .where('user_id', 'in', ids.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
  }
}
