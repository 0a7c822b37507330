// Redis mode: resolved console sessions cached for a few seconds (`sess:t:<token hash>`), so a console
// request costs one Redis read instead of a database join. The database stays the truth: logout,
// revocation and password changes delete the cached copies (every instance reads the same Redis), a
// change event about a user drops that user's copies on every instance, and the short TTL bounds
// anything else. A copy is only stored if no invalidation ran since the database was read (`sess:gen`),
// so a revocation racing a cache fill cannot be undone by it.
import type { Role } from '@fastgate/core/constants';
import type { ChangeEvent } from '../bus/index';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import type { RedisConn } from '../redis/connect';

const TTL_S = 15;

export interface CachedSession {
  user: UserRow;
  role: Role;
  expiresAt: number;
}

// KEYS: gen, token key, user index sets. ARGV: gen read before the database, value, ttl, token hash.
const PUT = `
if (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
for i = 3, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[4])
  redis.call('EXPIRE', KEYS[i], tonumber(ARGV[3]) + 5)
end
return 1
`;

// KEYS: gen, token keys and user index sets. ARGV: prefix of token keys.
const FORGET = `
for i = 2, #KEYS do
  if redis.call('TYPE', KEYS[i]).ok == 'set' then
    for _, h in ipairs(redis.call('SMEMBERS', KEYS[i])) do redis.call('DEL', ARGV[1] .. h) end
  end
  redis.call('DEL', KEYS[i])
end
redis.call('INCR', KEYS[1])
return 1
`;

const tokenKey = (r: RedisConn, hash: string) => `${r.prefix}sess:t:${hash}`;
const userKey = (r: RedisConn, id: string | number) => `${r.prefix}sess:u:${id}`;
const genKey = (r: RedisConn) => `${r.prefix}sess:gen`;

/** The cached session, or undefined with the generation to pass to `put` after reading the database. */
export async function getCached(r: RedisConn, hash: string): Promise<{ hit: CachedSession } | { gen: string }> {
  const [value, gen] = await r.client.mget(tokenKey(r, hash), genKey(r));
  if (value) return { hit: JSON.parse(value) as CachedSession };
  return { gen: gen ?? '0' };
}

export async function putCached(r: RedisConn, gen: string, hash: string, s: CachedSession): Promise<void> {
  const ttl = Math.min(TTL_S, Math.floor((s.expiresAt - Date.now()) / 1000));
  if (ttl < 1) return;
  await r.client.eval(PUT, 4, genKey(r), tokenKey(r, hash), userKey(r, s.user.user_id), userKey(r, s.user.id), gen, JSON.stringify(s), ttl, hash);
}

/** Drops cached sessions by token hash and by user (`user_id` or the row's `id`). */
export async function forgetCached(r: RedisConn, what: { hashes?: string[]; users?: (string | number)[] }): Promise<void> {
  const keys = [...(what.hashes ?? []).map((h) => tokenKey(r, h)), ...(what.users ?? []).map((u) => userKey(r, u))];
  if (keys.length) await r.client.eval(FORGET, keys.length + 1, genKey(r), ...keys, `${r.prefix}sess:t:`);
}

/** Every instance drops a user's cached sessions when a change event names the user. */
export function watchUserChanges(ctx: Ctx, r: RedisConn): () => void {
  return ctx.bus.subscribe((e: ChangeEvent) => {
    if (e.entity !== 'users' || !e.ids.length) return;
    forgetCached(r, { users: e.ids }).catch((err: unknown) => ctx.log.warn({ err }, 'dropping cached sessions failed'));
  });
}
