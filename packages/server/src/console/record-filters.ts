// Page filters shared by the console's lists (docs/ORIGINAL-API.md §2.5).
import { sql, type SelectQueryBuilder, type StringReference } from 'kysely';
import type { Ctx } from '../context';
import { parseWireTime } from '../http/time';
import { hashKey } from '../security/api-keys';

/** ["YYYY-MM-DD", "YYYY-MM-DD"] (dates or datetimes) on an epoch-ms column; the end day is inclusive. */
export function inTimeRange<DB, TB extends keyof DB, O>(ctx: Ctx, q: SelectQueryBuilder<DB, TB, O>, column: StringReference<DB, TB>, range: string[] | undefined): SelectQueryBuilder<DB, TB, O> {
  if (!range) return q;
  const [from, to] = range.map((d, i) => parseWireTime(d, ctx.config.timeZone, i === 1));
  const ref = sql.ref(column as string);
  let out = q;
  if (from !== undefined) out = out.where(sql<boolean>`${ref} >= ${from}`);
  if (to !== undefined) out = out.where(sql<boolean>`${ref} <= ${to}`);
  return out;
}

/**
 * Keys are stored encrypted, so a key filter matches the full key by hash or a fragment of the
 * masked form (what the lists show); the plaintext is never searched.
 */
export function keyMatches<DB extends Record<TB, { key_hash: string; key_mask: string }>, TB extends keyof DB & string, O>(q: SelectQueryBuilder<DB, TB, O>, text: string | undefined): SelectQueryBuilder<DB, TB, O> {
  if (!text) return q;
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return q.where(sql<boolean>`(key_hash = ${hashKey(text)} or lower(key_mask) like ${`%${escaped}%`} escape '\\')`);
}
