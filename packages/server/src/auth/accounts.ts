// Accounts: lookup by account or email, creation, registration by email, and the first admin.
import type { Role } from '@fastgate/core/constants';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { QuotaType } from '@fastgate/core/entities/user';
import { t } from '@fastgate/core/messages';
import { moveQuota } from '../billing/deals';
import { createDefaultApp } from '../console/default-app';
import { AppError, businessError } from '../http/errors';
import { newId } from '../http/ids';
import { hashPassword } from '../security/password';
import { randomPassword } from '../security/tokens';
import { findSiteConfig, siteOwnerRole } from '../settings/site-config';

export async function findLoginUser(ctx: Ctx, role: Role, accountOrEmail: string): Promise<UserRow | undefined> {
  const v = accountOrEmail.trim();
  return ctx.db
    .selectFrom('users')
    .selectAll()
    .where('role', '=', role)
    .where((eb) => eb.or([eb('account', '=', v), eb('email', '=', v.toLowerCase())]))
    .orderBy('user_id')
    .limit(1)
    .executeTakeFirst();
}

export async function emailTaken(ctx: Ctx, role: Role, email: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('users')
    .select('user_id')
    .where('role', '=', role)
    .where((eb) => eb.or([eb('email', '=', email.toLowerCase()), eb('account', '=', email.toLowerCase())]))
    .executeTakeFirst();
  return !!row;
}

export interface NewAccount {
  role: Role;
  account: string;
  password: string;
  name?: string;
  email?: string;
  rid?: number;
  quota?: number;
  quotaExpiresAt?: number | null;
}

export async function createAccount(ctx: Ctx, a: NewAccount): Promise<UserRow> {
  const now = Date.now();
  const email = (a.email ?? '').toLowerCase();
  const user = await ctx.db
    .insertInto('users')
    .values({
      id: newId(),
      role: a.role,
      account: a.account,
      name: a.name ?? (email ? email.split('@')[0]!.slice(0, 30) : a.account.slice(0, 30)),
      email,
      phone: '',
      avatar: '',
      profile: '',
      password_hash: await hashPassword(a.password),
      rid: a.rid ?? 0,
      quota: a.quota ?? 0,
      used_quota: 0,
      quota_expires_at: a.quotaExpiresAt ?? null,
      status: 1,
      remark: '',
      login_ip: '',
      login_time: null,
      login_domain: '',
      failed_logins: 0,
      locked_until: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The gateway's snapshot must know the account before its first call (a self-registered user's
  // app key would otherwise name an owner the gateway has never seen).
  ctx.bus.publish({ entity: 'users', op: 'create', ids: [String(user.user_id)] });
  return user;
}

/**
 * Register a user or reseller by email under the domain's site rules (docs/ORIGINAL-API.md §4, §3.9): a non-empty
 * register_tips blocks registration with that text, support_email_suffix limits the email domains,
 * grant_quota is gifted with its expiry in minutes.
 */
export async function registerByEmail(ctx: Ctx, opts: { role: 'user' | 'reseller'; email: string; password?: string; domain?: string }): Promise<UserRow> {
  const email = opts.email.toLowerCase();
  if (await emailTaken(ctx, opts.role, email)) throw businessError('auth.email_exists');
  const site = await findSiteConfig(ctx.db, opts.domain);
  if (site?.register_tips) throw businessError('auth.register_tips', { tips: site.register_tips });
  const suffixes = site ? (JSON.parse(site.support_email_suffix || '[]') as string[]) : [];
  if (suffixes.length && !suffixes.some((s) => email.endsWith(s.startsWith('@') ? s : `@${s}`))) throw businessError('auth.email_suffix');
  const grant = site?.grant_quota ?? 0;
  // Newcomers on a reseller's site are that reseller's users; any admin's site is the platform's.
  const ownerRole = site ? await siteOwnerRole(ctx.db, site) : undefined;
  const user = await createAccount(ctx, {
    role: opts.role,
    account: email,
    email,
    password: opts.password ?? randomPassword(),
    rid: opts.role === 'user' && site && ownerRole === 'reseller' ? site.user_id : 0,
  });
  if (grant > 0) {
    // The gift is a deal record like any recharge; on a reseller's site it comes out of the reseller's
    // quota and is skipped when the reseller lacks it (docs/ORIGINAL-API.md §4 Register).
    const reseller = user.rid > 0 ? await ctx.db.selectFrom('users').select('user_id').where('user_id', '=', user.rid).where('role', '=', 'reseller').executeTakeFirst() : undefined;
    try {
      await moveQuota(ctx, [{
        userId: user.user_id,
        quota: grant,
        type: QuotaType.Gift,
        from: reseller?.user_id,
        expiresAt: site?.quota_expires_at ? Date.now() + site.quota_expires_at * 60_000 : undefined,
        creator: 'system',
        remark: t('deal.register_gift', 'zh-CN'),
      }]);
    } catch (err) {
      if (!(err instanceof AppError && err.key === 'quota.reseller_insufficient')) throw err;
      ctx.log.warn({ user_id: user.user_id, rid: user.rid }, 'registration gift skipped: the reseller lacks quota');
    }
  }
  if (opts.role === 'user') await createDefaultApp(ctx, user.user_id);
  return ctx.db.selectFrom('users').selectAll().where('user_id', '=', user.user_id).executeTakeFirstOrThrow();
}

/**
 * The first admin, created at start when no admin exists: from ADMIN_ACCOUNT / ADMIN_PASSWORD, else
 * `admin` with a random password written once to the log. Never a fixed default password.
 */
export async function ensureFirstAdmin(ctx: Ctx): Promise<void> {
  const existing = await ctx.db.selectFrom('users').select('user_id').where('role', '=', 'admin').limit(1).executeTakeFirst();
  if (existing) return;
  const account = ctx.config.adminAccount ?? 'admin';
  const password = ctx.config.adminPassword ?? randomPassword();
  if (password.length < 6) throw new Error('ADMIN_PASSWORD must have at least 6 characters');
  await createAccount(ctx, { role: 'admin', account, password, name: 'Administrator', email: account.includes('@') ? account : '' });
  if (ctx.config.adminPassword) ctx.log.info({ account }, 'created the first admin from ADMIN_ACCOUNT / ADMIN_PASSWORD');
  else ctx.log.warn({ account }, `created the first admin "${account}" with password: ${password} (shown once; change it in the user center)`);
}
