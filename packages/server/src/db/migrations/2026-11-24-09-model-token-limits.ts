// Issue 14: a model's context window and output limit in tokens (0 = not declared). `/v1/models` lists
// them and a call that sets no output limit reserves for the model's. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('models').addColumn('context_window', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('models').addColumn('max_output_tokens', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('models').dropColumn('max_output_tokens').execute();
  await db.schema.alterTable('models').dropColumn('context_window').execute();
}
