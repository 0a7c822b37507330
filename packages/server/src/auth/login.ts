// Sign-in for the three channels (docs/ORIGINAL-API.md §4): by account or email + password, or by email + code.
// Five failed password logins lock the account for 30 minutes. A locked, an unknown and a wrong-password
// account get the same answer in the same time, so sign-in tells an attacker nothing about accounts.
import type { LoginInput } from '@fastgate/core/schemas/auth';
import type { Ctx } from '../context';
import type { Database, UserRow } from '../db/schema';
import type { ExpressionBuilder } from 'kysely';
import { AppError, businessError } from '../http/errors';
import { ErrorCode } from '@fastgate/core/constants';
import { DUMMY_HASH, verifyPassword } from '../security/password';
import { getSysSection, loginSection } from '../settings/sys-config';
import { findLoginUser, registerByEmail } from './accounts';
import { verifyCode } from './codes';
import { createSession } from './sessions';
import { throttle } from './throttle';
import { twoFactorChallenge } from './two-factor';
import { recordAudit } from '../audit/record';

const MAX_FAILED_LOGINS = 5;
const LOCK_MS = 30 * 60_000;

export interface LoginMeta {
  ip: string;
  domain?: string;
}

export async function login(ctx: Ctx, input: LoginInput, meta: LoginMeta) {
  await throttle(ctx, 'sign-in', meta.ip, input.account);
  const options = await getSysSection(ctx.db, loginSection(input.channel));
  let user: UserRow;
  try {
    user = input.method === 'code' ? await loginByCode(ctx, input, options, meta) : await loginByPassword(ctx, input, options.account_login);
  } catch (err) {
    // Failed sign-ins to the accounts that run the platform are worth an audit row.
    if (input.channel !== 'user' && err instanceof AppError && (err.key === 'auth.bad_credentials' || err.key === 'code.invalid')) {
      const known = await findLoginUser(ctx, input.channel, input.account);
      await recordAudit(ctx, { kind: 'sign_in_failed', actor: { user_id: known?.user_id ?? 0, account: input.account, role: input.channel }, ip: meta.ip, action: SIGN_IN_ACTION, input: { method: input.method } });
    }
    throw err;
  }
  if (user.status !== 1) throw businessError('auth.disabled');
  // Two-factor accounts get a ticket for the second step (POST /auth/login/totp) instead of a session.
  return (await twoFactorChallenge(ctx, user)) ?? startSession(ctx, user, meta);
}

const SIGN_IN_ACTION = '/api/v1/auth/login';

/** The account is who it says: clear its failure count, record the sign-in, open a session. */
export async function startSession(ctx: Ctx, user: UserRow, meta: LoginMeta) {
  await ctx.db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null, login_ip: meta.ip, login_time: Date.now(), login_domain: meta.domain ?? '' })
    .where('user_id', '=', user.user_id)
    .execute();
  const session = await createSession(ctx, user, meta.ip);
  if (user.role !== 'user') await recordAudit(ctx, { kind: 'sign_in', actor: user, ip: meta.ip, action: SIGN_IN_ACTION, input: { domain: meta.domain ?? '' } });
  return { type: 'Bearer' as const, ...session };
}



/**
 * Takes one of the account's attempts before a secret is checked: a conditional increment, so N
 * parallel guesses cannot all be evaluated against one stale count. False when the account is locked
 * or its remaining attempts are all in flight; a count left at the limit without a lock (attempts a
 * crash never settled) becomes the lock, so an account can never be stuck refusing everything.
 */
export async function takeAttempt(ctx: Ctx, userId: number): Promise<boolean> {
  const now = Date.now();
  const notLocked = (eb: ExpressionBuilder<Database, 'users'>) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]);
  const row = await ctx.db
    .updateTable('users')
    .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
    .where('user_id', '=', userId)
    .where('failed_logins', '<', MAX_FAILED_LOGINS)
    .where(notLocked)
    .returning('failed_logins')
    .executeTakeFirst();
  if (row) return true;
  await ctx.db.updateTable('users').set({ failed_logins: 0, locked_until: now + LOCK_MS }).where('user_id', '=', userId).where('failed_logins', '>=', MAX_FAILED_LOGINS).where(notLocked).execute();
  return false;
}

/** A right secret gives its attempt back (the count keeps earlier failures, e.g. until a second factor is also right). */
async function releaseAttempt(ctx: Ctx, userId: number): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set((eb) => ({ failed_logins: eb('failed_logins', '-', 1) }))
    .where('user_id', '=', userId)
    .where('failed_logins', '>', 0)
    .execute();
}

/** A failed check after takeAttempt: the attempt that used the last one locks the account. */
export async function failAttempt(ctx: Ctx, userId: number): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: Date.now() + LOCK_MS })
    .where('user_id', '=', userId)
    .where('failed_logins', '>=', MAX_FAILED_LOGINS)
    .execute();
}

async function loginByPassword(ctx: Ctx, input: LoginInput, enabled: boolean): Promise<UserRow> {
  if (!enabled) throw businessError('auth.method_disabled');
  if (!input.password) throw new AppError(ErrorCode.Validation, 'auth.password_required');
  const user = await findLoginUser(ctx, input.channel, input.account);
  const attempt = user ? await takeAttempt(ctx, user.user_id) : false;
  // Hash in every case (unknown, locked, or not) so the answer takes the same time.
  const good = await verifyPassword(input.password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !attempt) throw businessError('auth.bad_credentials');
  if (!good) {
    await failAttempt(ctx, user.user_id);
    throw businessError('auth.bad_credentials');
  }
  // Not cleared yet: with two-factor on, the earlier failures still count until the code is right too.
  await releaseAttempt(ctx, user.user_id);
  return user;
}

async function loginByCode(ctx: Ctx, input: LoginInput, options: { email_login: boolean; email_register: boolean }, meta: LoginMeta): Promise<UserRow> {
  if (!options.email_login) throw businessError('auth.method_disabled');
  if (!input.code) throw new AppError(ErrorCode.Validation, 'auth.code_required');
  const email = input.account.toLowerCase();
  if (!(await verifyCode(ctx, email, 'login', input.channel, input.code))) throw businessError('code.invalid');
  const user = await findLoginUser(ctx, input.channel, email);
  if (user) return user;
  // An unknown email signs up only where that channel's registration is open (docs/SPEC.md §2.4: the main
  // login); admins are never created here. No code is mailed otherwise, so this is a safety net.
  if (!mayRegisterByCode(input.channel, options)) throw businessError('code.invalid');
  return registerByEmail(ctx, { role: input.channel as 'user' | 'reseller', email, domain: meta.domain });
}

/** Whether a code sign-in of an unknown email creates the account on this channel. */
export const mayRegisterByCode = (channel: string, options: { email_register: boolean }) => channel !== 'admin' && options.email_register;
