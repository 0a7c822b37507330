// Issue 13: a reseller's floor — its cost price as a discount in basis points (10000 = full price, the
// default: a reseller prices nothing below list until an admin lowers its floor). The gateway never
// bills a reseller's user below it, and each call log keeps the floor it was priced under (0 = the
// caller has no reseller), so the statistics can sum what the calls cost their reseller at that floor
// (`floor_spend`, every statistics table: the job adds the same measures to each). A call log also says
// whether its charge came out of the caller's balance (`is_limit_quota`: the account's flag when the
// call was admitted; an exempt account only counts usage), and the statistics sum the charges no
// balance paid (`exempt_spend`), so the ledger verifier can tell even once call logs are purged. Frozen.
import type { Kysely } from 'kysely';

const STAT_TABLES = ['stat_user_day', 'stat_user_model_day', 'stat_model_day', 'stat_app_day', 'stat_app_key_day'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('floor_bp', 'integer', (c) => c.notNull().defaultTo(10_000)).execute();
  await db.schema.alterTable('call_logs').addColumn('floor_bp', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('call_logs').addColumn('is_limit_quota', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  for (const t of STAT_TABLES) {
    await db.schema.alterTable(t).addColumn('floor_spend', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable(t).addColumn('exempt_spend', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of STAT_TABLES) for (const c of ['exempt_spend', 'floor_spend']) await db.schema.alterTable(t).dropColumn(c).execute();
  await db.schema.alterTable('call_logs').dropColumn('is_limit_quota').execute();
  await db.schema.alterTable('call_logs').dropColumn('floor_bp').execute();
  await db.schema.alterTable('users').dropColumn('floor_bp').execute();
}
