// Responses the gateway keeps for `store: true` (issue 12): GET/DELETE /v1/responses/{id}, its
// input_items, and previous_response_id chaining. One row per response: this turn's input items (ids
// assigned) and the Response object, as JSON text; `previous_id` links a chain, walked on demand.
// Owned by the key's user; the created_at index serves the retention purge. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('stored_responses')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('previous_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_responses_time').on('stored_responses').columns(['created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('stored_responses').execute();
}
