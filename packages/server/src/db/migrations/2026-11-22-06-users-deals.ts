// Managed-user columns (quota settings, notice flags, VIP level, IP lists) and deal records. Frozen.
import type { Kysely } from 'kysely';

const USER_COLUMNS: [string, 'integer' | 'bigint' | 'text' | 'varchar(32)', (number | string | null)][] = [
  ['quota_type', 'integer', 1],
  ['is_limit_quota', 'integer', 1],
  ['quota_warning', 'integer', 1],
  ['warning_threshold', 'bigint', 0],
  ['expire_warning_threshold', 'integer', 0],
  ['warning_notice', 'integer', 0],
  ['exhaustion_notice', 'integer', 0],
  ['expire_warning_notice', 'integer', 0],
  ['expire_notice', 'integer', 0],
  ['vip_level', 'varchar(32)', ''],
  ['vip_level_recharge_quota', 'bigint', 0],
  ['vip_level_used_quota', 'bigint', 0],
  ['vip_level_start_time', 'bigint', null],
  ['vip_level_expires_at', 'bigint', null],
  ['ip_whitelist', 'text', '[]'],
  ['ip_blacklist', 'text', '[]'],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [name, type, dflt] of USER_COLUMNS) {
    await db.schema
      .alterTable('users')
      .addColumn(name, type, (c) => (dflt === null ? c : c.notNull().defaultTo(dflt)))
      .execute();
  }

  await db.schema
    .createTable('deal_records')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('rid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('creator', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('deal_records_user').on('deal_records').columns(['user_id', 'updated_at']).execute();
  await db.schema.createIndex('deal_records_rid').on('deal_records').columns(['rid', 'updated_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('deal_records').execute();
  for (const [name] of [...USER_COLUMNS].reverse()) await db.schema.alterTable('users').dropColumn(name).execute();
}
