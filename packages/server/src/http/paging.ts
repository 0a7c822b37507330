// Paging (docs/ORIGINAL-API.md §2.3): request {current, pageSize}, response {items, paging}; out-of-range → first page.
import type { PageInput } from '@fastgate/core/schemas/common';
import type { SelectQueryBuilder } from 'kysely';

/**
 * Counts `base`, then selects one page of it. `select` adds columns and the fixed order (the client
 * cannot sort, docs/ORIGINAL-API.md §2.4).
 */
export async function paged<DB, TB extends keyof DB, Row, Out>(
  input: PageInput,
  base: SelectQueryBuilder<DB, TB, object>,
  select: (q: SelectQueryBuilder<DB, TB, object>) => SelectQueryBuilder<DB, TB, Row>,
  map: (row: Row) => Out,
) {
  const { total } = (await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number | string };
  const count = Number(total);
  const current = (input.current - 1) * input.pageSize >= count ? 1 : input.current;
  const rows = await select(base).limit(input.pageSize).offset((current - 1) * input.pageSize).execute();
  return { items: rows.map(map), paging: { current, pageSize: input.pageSize, total: count } };
}
