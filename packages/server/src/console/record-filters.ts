// Page filters shared by apps and both kinds of keys (reference §2.5).
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Ctx } from '../context';
import { parseWireTime } from '../http/time';
import { hashKey } from '../security/api-keys';

type AnyQuery = SelectQueryBuilder<any, any, any>;

/** ["YYYY-MM-DD", "YYYY-MM-DD"] (dates or datetimes) on an epoch-ms column; the end day is inclusive. */
export function inTimeRange(ctx: Ctx, q: AnyQuery, column: string, range: string[] | undefined): AnyQuery {
  if (!range) return q;
  const [from, to] = range.map((d, i) => parseWireTime(d, ctx.config.timeZone, i === 1));
  let out = q;
  if (from !== undefined) out = out.where(column, '>=', from);
  if (to !== undefined) out = out.where(column, '<=', to);
  return out;
}

/**
 * Keys are stored encrypted, so a key filter matches the full key by hash or a fragment of the
 * masked form (what the lists show); the plaintext is never searched.
 */
export function keyMatches(q: AnyQuery, text: string | undefined): AnyQuery {
  if (!text) return q;
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`);
  return q.where((eb) => eb.or([eb('key_hash', '=', hashKey(text)), sql<boolean>`lower(key_mask) like ${`%${escaped}%`} escape '\\'`]));
}
