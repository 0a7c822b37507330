// VIP levels, licenses and the installed license. The users' VIP columns came with migration 06. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vip_levels')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('discount_bp', 'integer', (c) => c.notNull().defaultTo(10000))
    .addColumn('color', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('duration', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('rate_limits', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vip_levels_user_id').on('vip_levels').column('user_id').execute();

  await db.schema
    .createTable('licenses')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('node', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('app_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint')
    .addColumn('is_node_visible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('nodes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sign', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('secret_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('license_install')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('secret_key', 'text', (c) => c.notNull())
    .addColumn('installed_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('license_install').execute();
  await db.schema.dropTable('licenses').execute();
  await db.schema.dropTable('vip_levels').execute();
}
