// Server-side sessions: an opaque bearer token (first letter = role, as the original console expects),
// stored only as a hash, with a fixed lifetime from the system config. Logout deletes the row. In
// Redis mode resolved sessions are cached for a few seconds (auth/session-cache.ts).
import { TOKEN_ROLE_PREFIX, type Role } from '@fastgate/core/constants';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { getSysSection, loginSection } from '../settings/sys-config';
import { forgetCached, getCached, putCached } from './session-cache';
import { randomToken, sha256 } from '../security/tokens';

export async function createSession(ctx: Ctx, user: UserRow, ip: string): Promise<{ token: string; expires_in: number }> {
  const { session_expire } = await getSysSection(ctx.db, loginSection(user.role));
  const token = `${TOKEN_ROLE_PREFIX[user.role]}${randomToken(32)}`;
  const now = Date.now();
  await ctx.db
    .insertInto('sessions')
    .values({ token_hash: sha256(token), user_id: user.user_id, role: user.role, ip, expires_at: now + session_expire * 1000, created_at: now })
    .execute();
  return { token, expires_in: session_expire };
}

export interface Session {
  user: UserRow;
  role: Role;
  tokenHash: string;
}

export async function resolveSession(ctx: Ctx, token: string): Promise<Session | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = sha256(token);
  let gen: string | undefined;
  if (ctx.redis) {
    try {
      const c = await getCached(ctx.redis, tokenHash);
      if ('hit' in c) return c.hit.expiresAt > Date.now() ? { user: c.hit.user, role: c.hit.role, tokenHash } : null;
      gen = c.gen;
    } catch (err) {
      ctx.log.warn({ err }, 'reading the session cache failed; using the database');
    }
  }
  const row = await ctx.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.user_id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.expires_at as session_expires_at', 'sessions.role as session_role'])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || row.session_expires_at <= Date.now() || row.status !== 1 || row.role !== row.session_role) return null;
  const { session_expires_at: expiresAt, session_role: _r, ...user } = row;
  if (ctx.redis && gen !== undefined) {
    await putCached(ctx.redis, gen, tokenHash, { user, role: user.role, expiresAt }).catch((err: unknown) => ctx.log.warn({ err }, 'caching a session failed'));
  }
  return { user, role: user.role, tokenHash };
}

export async function revokeSession(ctx: Ctx, token: string): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('token_hash', '=', sha256(token)).execute();
  if (ctx.redis) await forgetCached(ctx.redis, { hashes: [sha256(token)] }).catch((err: unknown) => ctx.log.error({ err }, 'dropping a cached session failed; it expires within seconds'));
}

/** Signs the users out everywhere but `exceptHash`; in Redis mode every cached copy goes (the kept one is read again). */
export async function revokeUserSessions(ctx: Ctx, userIds: number | number[], exceptHash?: string): Promise<void> {
  const ids = [userIds].flat();
  if (!ids.length) return;
  let q = ctx.db.deleteFrom('sessions').where('user_id', 'in', ids);
  if (exceptHash) q = q.where('token_hash', '!=', exceptHash);
  await q.execute();
  await dropCachedSessions(ctx, ids);
}

/**
 * Redis mode: drops the users' cached sessions before the caller answers, so the next request on any
 * instance reads the database (for writes that sign users out: revocations, a disabled or deleted
 * account). The change event does it too, but only after the answer may have gone out.
 */
export async function dropCachedSessions(ctx: Ctx, userIds: (number | string)[]): Promise<void> {
  if (ctx.redis && userIds.length) await forgetCached(ctx.redis, { users: userIds }).catch((err: unknown) => ctx.log.error({ err }, 'dropping cached sessions failed; they expire within seconds'));
}

export async function purgeExpiredSessions(ctx: Ctx): Promise<void> {
  await ctx.db.deleteFrom('sessions').where('expires_at', '<=', Date.now()).execute();
}
