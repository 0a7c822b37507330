// Links between catalogue records, stored as JSON id arrays in text columns (db/schema.ts). Each
// many-to-many relation has ONE stored side; the other side is derived when read:
//   group ⇄ model:  groups.models is the truth (the gateway resolves a model inside a group,
//                   docs/ORIGINAL-GATEWAY.md §1.3); a model's `groups` = the groups listing it. models.groups stays [].
//   agent ⇄ model:  model_agents.models is the truth; a model's `model_agents` = the agents listing it.
//                   models.model_agents stays [].
//   key ⇄ agent:    provider_keys.model_agents is the truth; an agent's keys = the keys listing it.
// Writing "model X is in groups A, B" therefore rewrites those groups' arrays, in one transaction, with
// the rows locked on PostgreSQL (SQLite serialises writers) so concurrent edits do not lose updates.
import { ErrorCode } from '@fastgate/core/constants';
import { ids } from '@fastgate/core/resource';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Ctx } from '../context';
import type { Database } from '../db/schema';
import { AppError } from '../http/errors';

export type LinkTable = 'groups' | 'model_agents' | 'provider_keys' | 'users' | 'apps' | 'app_keys';
type Db = Kysely<Database> | Transaction<Database>;

/** A validation error naming the field and the ids nobody may use (docs/ORIGINAL-API.md §2.2 code 51). */
export function unknownRef(field: string, ids: string[]): AppError {
  return new AppError(ErrorCode.Validation, 'common.unknown_ref', { field, ids: ids.slice(0, 5).join(', ') });
}

/** Throws unless every id is in `known`. */
export function requireKnown(field: string, ids: readonly string[], known: ReadonlySet<string>): void {
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length) throw unknownRef(field, missing);
}

/** Throws unless every id names a row of `table`. */
export async function requireRows(db: Db, table: 'corps' | 'models' | 'model_agents' | 'groups', field: string, ids: readonly string[]): Promise<void> {
  const wanted = [...new Set(ids.filter(Boolean))];
  if (!wanted.length) return;
  const rows = await (db as Kysely<any>).selectFrom(table).select('id').where('id', 'in', wanted).execute();
  requireKnown(field, wanted, new Set(rows.map((r: { id: string }) => r.id)));
}

/** Rows of `table` whose `column` holds `id` (a textual pre-filter; callers re-check the parsed array). */
const holding = (db: Db, table: LinkTable, column: string, id: string) =>
  (db as Kysely<any>).selectFrom(table).select(['id', column]).where(column, 'like', `%"${id.replace(/["\\%_]/g, '')}"%`);

function lock<Q extends { forUpdate(): Q }>(q: Q, ctx: Ctx): Q {
  return ctx.dialect === 'postgres' ? q.forUpdate() : q;
}

/**
 * Makes `member` appear in `column` of exactly the rows `owners` of `table` (limited to rows `within`
 * allows, when given): adds it where missing, removes it elsewhere. Returns the ids of changed rows.
 */
export async function setMembership(
  ctx: Ctx,
  trx: Transaction<Database>,
  link: { table: 'groups' | 'model_agents'; column: 'models'; within?: (id: string) => boolean },
  member: string,
  owners: readonly string[],
): Promise<string[]> {
  const want = new Set(owners);
  const t = trx as unknown as Kysely<any>;
  const current = await lock(holding(trx, link.table, link.column, member), ctx).execute();
  const targets = owners.length ? await lock(t.selectFrom(link.table).select(['id', link.column]).where('id', 'in', [...want]), ctx).execute() : [];
  const rows = new Map<string, string>([...current, ...targets].map((r: Record<string, string>) => [r.id!, r[link.column]!]));
  const changed: string[] = [];
  for (const [id, json] of rows) {
    if (link.within && !link.within(id)) continue;
    const list = ids.decode(json);
    const has = list.includes(member);
    if (has === want.has(id)) continue;
    const next = has ? list.filter((x) => x !== member) : [...list, member];
    await t.updateTable(link.table).set({ [link.column]: JSON.stringify(next), updated_at: Date.now() }).where('id', '=', id).execute();
    changed.push(id);
  }
  return changed;
}

/** Removes deleted records' ids from every array that names them. Returns changed row ids per table. */
export async function dropMembers(ctx: Ctx, trx: Transaction<Database>, places: readonly (readonly [LinkTable, string])[], members: readonly string[]): Promise<Map<LinkTable, string[]>> {
  const gone = new Set(members);
  const changed = new Map<LinkTable, string[]>();
  const t = trx as unknown as Kysely<any>;
  for (const [table, column] of places) {
    const rows = new Map<string, string>();
    for (const m of gone) for (const r of await lock(holding(trx, table, column, m), ctx).execute()) rows.set(r.id, r[column]);
    for (const [id, json] of rows) {
      const list = ids.decode(json);
      const next = list.filter((x) => !gone.has(x));
      if (next.length === list.length) continue;
      await t.updateTable(table).set({ [column]: JSON.stringify(next), updated_at: Date.now() }).where('id', '=', id).execute();
      changed.set(table, [...(changed.get(table) ?? []), id]);
    }
  }
  return changed;
}

/** Publishes an update for every row a link rewrite touched. */
export function publishChanged(ctx: Ctx, changed: Map<LinkTable, string[]> | [LinkTable, string[]][]): void {
  for (const [entity, ids] of changed) if (ids.length) ctx.bus.publish({ entity, op: 'update', ids });
}

/** `lower(col) like '%"id"%'` for several ids: rows whose array holds any of them. */
export function holdsAny(column: string, ids: readonly string[] | undefined) {
  if (!ids?.length) return undefined;
  return sql<boolean>`(${sql.join(
    ids.map((id) => sql`${sql.ref(column)} like ${`%"${id.replace(/["\\%_]/g, '')}"%`}`),
    sql` or `,
  )})`;
}
