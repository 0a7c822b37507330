// Issue 12: which wire API a model agent's upstream speaks — 'chat' (Chat Completions, every agent so
// far) or 'responses' (an OpenAI-family host that only serves /v1/responses). Existing agents keep
// 'chat'. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model_agents').addColumn('wire_api', 'varchar(16)', (c) => c.notNull().defaultTo('chat')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('model_agents').dropColumn('wire_api').execute();
}
