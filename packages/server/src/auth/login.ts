// Sign-in for the three channels (reference §4): by account or email + password, or by email + code.
// Five failed password logins lock the account for 30 minutes.
import type { LoginInput } from '@fastgate/core/schemas/auth';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { AppError, businessError } from '../http/errors';
import { ErrorCode } from '@fastgate/core/constants';
import { DUMMY_HASH, verifyPassword } from '../security/password';
import { getSysSection, loginSection } from '../settings/sys-config';
import { findLoginUser, registerByEmail } from './accounts';
import { verifyCode } from './codes';
import { createSession } from './sessions';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MS = 30 * 60_000;

export interface LoginMeta {
  ip: string;
  domain?: string;
}

export async function login(ctx: Ctx, input: LoginInput, meta: LoginMeta) {
  const options = await getSysSection(ctx.db, loginSection(input.channel));
  const user = input.method === 'code' ? await loginByCode(ctx, input, options.email_login, meta) : await loginByPassword(ctx, input, options.account_login);
  if (user.status !== 1) throw businessError('auth.disabled');
  const now = Date.now();
  await ctx.db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null, login_ip: meta.ip, login_time: now, login_domain: meta.domain ?? '' })
    .where('user_id', '=', user.user_id)
    .execute();
  const session = await createSession(ctx, user, meta.ip);
  return { type: 'Bearer' as const, ...session };
}

async function loginByPassword(ctx: Ctx, input: LoginInput, enabled: boolean): Promise<UserRow> {
  if (!enabled) throw businessError('auth.method_disabled');
  if (!input.password) throw new AppError(ErrorCode.Validation, 'auth.password_required');
  const user = await findLoginUser(ctx, input.channel, input.account);
  const now = Date.now();
  if (user?.locked_until && user.locked_until > now) {
    throw businessError('auth.locked', { minutes: Math.ceil((user.locked_until - now) / 60_000) });
  }
  // Hash even for an unknown account so the answer takes the same time.
  const good = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !good) {
    if (user) {
      const failed = user.failed_logins + 1;
      const locked = failed >= MAX_FAILED_LOGINS;
      await ctx.db
        .updateTable('users')
        .set({ failed_logins: locked ? 0 : failed, locked_until: locked ? now + LOCK_MS : user.locked_until })
        .where('user_id', '=', user.user_id)
        .execute();
      if (locked) throw businessError('auth.locked', { minutes: LOCK_MS / 60_000 });
    }
    throw businessError('auth.bad_credentials');
  }
  return user;
}

async function loginByCode(ctx: Ctx, input: LoginInput, enabled: boolean, meta: LoginMeta): Promise<UserRow> {
  if (!enabled) throw businessError('auth.method_disabled');
  if (!input.code) throw new AppError(ErrorCode.Validation, 'auth.code_required');
  const email = input.account.toLowerCase();
  if (!(await verifyCode(ctx, email, 'login', input.channel, input.code))) throw businessError('code.invalid');
  const user = await findLoginUser(ctx, input.channel, email);
  if (user) return user;
  // SPEC §2: an unregistered email signs up on the user and reseller screens; admins are never created here.
  if (input.channel === 'admin') throw businessError('auth.admin_contact');
  return registerByEmail(ctx, { role: input.channel, email, domain: meta.domain });
}
