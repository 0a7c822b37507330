// What settling an async task needs that its row does not say: the accounts charged at submission
// (with the limited flags they had), the unit price and discount agreed then, and the call-log row of the
// submitting attempt, completed with the final price when the task ends. JSON text. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('settlement', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tasks').dropColumn('settlement').execute();
}
