// What is in the database, for suites that must prove a call wrote nothing: every table's row count
// (one query), or every row (to name what changed).
import { sql, type Kysely } from 'kysely';
import type { TestServer } from './helpers';

const raw = (server: TestServer) => server.app.ctx.db as unknown as Kysely<any>;

/** The application's tables (kysely's own migration tables and call_logs' PostgreSQL partitions left out). */
export async function tableNames(server: TestServer): Promise<string[]> {
  const tables = (await raw(server).introspection.getTables()).filter((t) => t.schema !== 'call_log_parts');
  return tables.map((t) => t.name).filter((n) => !n.startsWith('kysely_')).sort();
}

/** Row counts of `tables` in one statement. */
export async function rowCounts(server: TestServer, tables: string[]): Promise<Record<string, number>> {
  const parts = tables.map((t) => sql`select ${t} as t, count(*) as n from ${sql.table(t)}`);
  const { rows } = await sql<{ t: string; n: number | string }>`${sql.join(parts, sql` union all `)}`.execute(raw(server));
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

export type Rows = Map<string, string[]>;

/** Every row of `tables` as JSON text, sorted per table (tables are small in these suites). */
export async function allRows(server: TestServer, tables: string[]): Promise<Rows> {
  const out: Rows = new Map();
  await Promise.all(
    tables.map(async (t) => {
      const rows = await raw(server).selectFrom(t).selectAll().execute();
      out.set(t, rows.map((r) => JSON.stringify(r)).sort());
    }),
  );
  return out;
}

/** Rows added, removed or changed between two reads, per table ("table: +n -m"), empty when equal. */
export function diffRows(before: Rows, after: Rows): string[] {
  const out: string[] = [];
  for (const [t, rows] of after) {
    const was = new Set(before.get(t) ?? []);
    const now = new Set(rows);
    const added = rows.filter((r) => !was.has(r));
    const removed = [...was].filter((r) => !now.has(r));
    if (added.length || removed.length) out.push(`${t}: +${added.length} -${removed.length} ${added.concat(removed).join(' ').slice(0, 400)}`);
  }
  return out;
}

/** Rows of `after` not in `before`, parsed (for checks on who owns a new row). */
export function addedRows(before: Rows, after: Rows): { table: string; row: Record<string, unknown> }[] {
  const out: { table: string; row: Record<string, unknown> }[] = [];
  for (const [t, rows] of after) {
    const was = new Set(before.get(t) ?? []);
    for (const r of rows) if (!was.has(r)) out.push({ table: t, row: JSON.parse(r) as Record<string, unknown> });
  }
  return out;
}
