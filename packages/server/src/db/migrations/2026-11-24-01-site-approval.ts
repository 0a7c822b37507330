// Issue 11: sites need an admin's approval before they decide anything, and uploads are counted per owner.
// `site_configs.approved` (0 pending, 1 approved) is separate from the enabled/disabled `status`.
// Existing rows: an admin's own sites stay approved; a reseller's become pending, because any of them
// may be a claim on a domain it does not own (even the platform's own host) — an admin approves the
// real ones in the site config list. Until then such a domain shows the platform's default identity.
// `uploads`: one row per stored file (DATA_DIR/uploads/<name>), for the per-account quota and the cleanup
// of files no site config references. Files stored before this migration have no row: they count for
// no quota, and the housekeeping job removes them once nothing references them. Frozen.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('site_configs').addColumn('approved', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`update site_configs set approved = 1 where user_id in (select user_id from users where role = 'admin')`.execute(db);

  await db.schema
    .createTable('uploads')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uploads_user').on('uploads').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('uploads').execute();
  await db.schema.alterTable('site_configs').dropColumn('approved').execute();
}
