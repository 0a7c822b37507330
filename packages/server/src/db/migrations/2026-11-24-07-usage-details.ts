// Usage details on call logs (issue 13): the cache writes and reasoning tokens of the usage billed (cache
// reads were already kept as cached_tokens), and the price's line items as JSON text (core LineItem[]:
// what each quantity cost before the call's one rounding and its discount). Rows written before have
// zeros and no line items. Frozen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  for (const n of ['cache_write_tokens', 'reasoning_tokens']) await db.schema.alterTable('call_logs').addColumn(n, 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('call_logs').addColumn('line_items', 'text', (c) => c.notNull().defaultTo('')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const n of ['line_items', 'reasoning_tokens', 'cache_write_tokens']) await db.schema.alterTable('call_logs').dropColumn(n).execute();
}
