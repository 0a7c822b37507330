// Initial schema. Frozen: never import app code here. Portable types only; the one dialect branch
// (auto-increment ids) stays inside.
import type { Kysely } from 'kysely';
import { isPostgres } from './dialect';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('users')
    .addColumn('user_id', pg ? 'serial' : 'integer', (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('id', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('account', 'varchar(100)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('profile', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('rid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('used_quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('quota_expires_at', 'bigint')
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('login_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('login_time', 'bigint')
    .addColumn('login_domain', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_role_account').on('users').columns(['role', 'account']).unique().execute();
  await db.schema.createIndex('users_role_email').on('users').columns(['role', 'email']).execute();
  await db.schema.createIndex('users_rid').on('users').column('rid').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('verify_codes')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('target', 'varchar(100)', (c) => c.notNull())
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consumed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('verify_codes_target').on('verify_codes').columns(['target', 'created_at']).execute();

  await db.schema
    .createTable('sys_configs')
    .addColumn('section', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  const text = (name: string) => (t: any) => t.addColumn(name, 'text', (c: any) => c.notNull().defaultTo(''));
  let site = db.schema
    .createTable('site_configs')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('domain', 'varchar(253)', (c) => c.notNull().unique());
  for (const name of [
    'title', 'logo', 'favicon', 'avatar', 'bg_img', 'copyright', 'jump_url', 'keywords', 'description', 'icp_beian',
    'ga_beian', 'register_tips', 'register_welcome', 'support_email_suffix', 'mail_host', 'mail_user_name',
    'mail_password', 'mail_from_name', 'carousel1_title', 'carousels1', 'carousel2_title', 'carousels2',
    'announcement_title', 'announcement_more_url', 'announcements', 'document_title', 'document_more_url', 'documents',
    'recharge_tips', 'remark',
  ]) site = text(name)(site);
  await site
    .addColumn('grant_quota', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('quota_expires_at', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mail_port', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('certifications')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('real_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('id_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('id_number', 'text', (c) => c.notNull())
    .addColumn('remark', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('certifications_user').on('certifications').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['certifications', 'site_configs', 'sys_configs', 'verify_codes', 'sessions', 'users']) {
    await db.schema.dropTable(t).execute();
  }
}
