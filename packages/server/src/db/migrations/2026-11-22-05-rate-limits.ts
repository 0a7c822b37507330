// Rate limits on app keys, apps and users (groups have theirs since 03). Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['app_keys', 'apps', 'users']) {
    await db.schema.alterTable(table).addColumn('rate_limits', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['app_keys', 'apps', 'users']) await db.schema.alterTable(table).dropColumn('rate_limits').execute();
}
