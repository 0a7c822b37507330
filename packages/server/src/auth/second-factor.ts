// Second-factor and password checks under the account's lockout, and the sign-in's second step.
// Every try takes one of the account's attempts first (auth/login.ts takeAttempt: atomic, so parallel
// guesses cannot share one count); a wrong one may lock the account; a right one clears the count.
import { recordAudit } from '../audit/record';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { businessError } from '../http/errors';
import { verifyPassword } from '../security/password';
import { sha256 } from '../security/tokens';
import { failAttempt, startSession, takeAttempt, type LoginMeta } from './login';
import { throttle } from './throttle';
import { MAX_TICKET_TRIES, consumeSecondFactor } from './two-factor';

async function clearAttempts(ctx: Ctx, userId: number): Promise<void> {
  await ctx.db
    .updateTable('users')
    .set({ failed_logins: 0 })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', Date.now())]))
    .execute();
}

/** A TOTP or recovery code of an enrolled account, counted toward its lockout. */
export async function checkSecondFactor(ctx: Ctx, userId: number, code: string, clear = true): Promise<boolean> {
  if (!(await takeAttempt(ctx, userId))) return false;
  if (!(await consumeSecondFactor(ctx, userId, code))) {
    await failAttempt(ctx, userId);
    return false;
  }
  if (clear) await clearAttempts(ctx, userId);
  return true;
}

/** The account's password, for changes made from a signed-in session (a stolen one must not guess it freely). */
export async function checkPassword(ctx: Ctx, user: UserRow, password: string): Promise<boolean> {
  if (!(await takeAttempt(ctx, user.user_id))) return false;
  if (!(await verifyPassword(password, user.password_hash))) {
    await failAttempt(ctx, user.user_id);
    return false;
  }
  await clearAttempts(ctx, user.user_id);
  return true;
}

/**
 * `POST /auth/login/totp`: the ticket `login()` answered plus a code opens the session. A ticket is
 * bound to its account, dies after MAX_TICKET_TRIES wrong codes or five minutes, and signs in once.
 */
export async function finishTwoFactorLogin(ctx: Ctx, input: { ticket: string; code: string }, meta: LoginMeta) {
  await throttle(ctx, 'sign-in', meta.ip);
  const hash = sha256(input.ticket);
  const now = Date.now();
  // Take one of the ticket's tries atomically, like the account's attempts.
  const ticket = await ctx.db
    .updateTable('two_factor_tickets')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('ticket_hash', '=', hash)
    .where('expires_at', '>', now)
    .where('attempts', '<', MAX_TICKET_TRIES)
    .returning('user_id')
    .executeTakeFirst();
  if (!ticket) throw businessError('two_factor.ticket_invalid');
  const user = await ctx.db.selectFrom('users').selectAll().where('user_id', '=', ticket.user_id).executeTakeFirst();
  if (!user || user.status !== 1) {
    await ctx.db.deleteFrom('two_factor_tickets').where('ticket_hash', '=', hash).execute();
    throw businessError('two_factor.ticket_invalid');
  }
  // The count is cleared by startSession below, not here: a password that is right but a code that
  // never is keeps counting across tickets until the account locks.
  if (!(await checkSecondFactor(ctx, user.user_id, input.code, false))) {
    if (user.role !== 'user') await recordAudit(ctx, { kind: 'sign_in_failed', actor: user, ip: meta.ip, action: '/api/v1/auth/login/totp' });
    throw businessError('two_factor.code_invalid');
  }
  // Single use: of two racing right answers only the one that removes the ticket signs in.
  const spent = await ctx.db.deleteFrom('two_factor_tickets').where('ticket_hash', '=', hash).executeTakeFirst();
  if (Number(spent.numDeletedRows) !== 1) throw businessError('two_factor.ticket_invalid');
  return startSession(ctx, user, meta);
}
