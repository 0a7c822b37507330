// The only dialect question migrations ask (the ledger's call-log writes ask it too). Frozen like the migrations that use it.
import { PostgresAdapter, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
