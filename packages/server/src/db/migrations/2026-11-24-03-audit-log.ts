// The audit log (issue 11): one row per console write, reveal, export or sign-in of an admin or a
// reseller. before/after/input are masked JSON text; record_ids a JSON array. The indexes serve the
// screen's filters, each with the time it is ordered by: time range alone, actor, action, table (the
// record id is matched inside a table's rows) and the retention purge (created_at). Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_logs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('account', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'varchar(16)', (c) => c.notNull().defaultTo(''))
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('action', 'varchar(200)', (c) => c.notNull())
    .addColumn('table_name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('record_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('changed', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('input', 'text')
    .execute();
  await db.schema.createIndex('audit_logs_time').on('audit_logs').columns(['created_at']).execute();
  await db.schema.createIndex('audit_logs_user_time').on('audit_logs').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_logs_action_time').on('audit_logs').columns(['action', 'created_at']).execute();
  await db.schema.createIndex('audit_logs_table_time').on('audit_logs').columns(['table_name', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_logs').execute();
}
