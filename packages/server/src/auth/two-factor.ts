// Two-factor sign-in (TOTP) state of an account: enrolment (secret pending → confirmed by a code →
// enabled), recovery codes, the check of a second factor, and the sign-in ticket `login()` answers
// instead of a session. Secrets are encrypted at rest, recovery codes and tickets stored as hashes, all
// in the database so every instance agrees.
import type { Role } from '@fastgate/core/constants';
import type { TwoFactorChallenge, TwoFactorSetup, TwoFactorStatus } from '@fastgate/core/schemas/two-factor';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { businessError } from '../http/errors';
import { newId } from '../http/ids';
import { randomToken, sha256 } from '../security/tokens';
import { getSysSection } from '../settings/sys-config';
import { newRecoveryCodes, newTotpSecret, recoveryHash, totpStep, totpUri } from './totp';

const TICKET_TTL_MS = 5 * 60_000;
/** Wrong codes one ticket takes before it dies (each also counts toward the account's lockout). */
export const MAX_TICKET_TRIES = 5;

/** Roles the system config's `two_factor.required` applies to; users choose for themselves. */
const POLICY_ROLES: readonly Role[] = ['admin', 'reseller'];

export async function twoFactorEnabled(ctx: Ctx, userId: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('user_two_factor').select('user_id').where('user_id', '=', userId).where('enabled', '=', 1).executeTakeFirst();
  return !!row;
}

async function twoFactorRequired(ctx: Ctx, role: Role): Promise<boolean> {
  return POLICY_ROLES.includes(role) && (await getSysSection(ctx.db, 'two_factor')).required;
}

/** The policy applies to the account and it has not enrolled: the console answers code 70 until it does. */
export async function twoFactorSetupNeeded(ctx: Ctx, user: Pick<UserRow, 'user_id' | 'role'>): Promise<boolean> {
  return (await twoFactorRequired(ctx, user.role)) && !(await twoFactorEnabled(ctx, user.user_id));
}

export async function twoFactorStatus(ctx: Ctx, user: UserRow): Promise<TwoFactorStatus> {
  const row = await ctx.db.selectFrom('user_two_factor').select('enabled').where('user_id', '=', user.user_id).executeTakeFirst();
  const left = await ctx.db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.user_id)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    enabled: row?.enabled === 1,
    pending: row?.enabled === 0,
    required: await twoFactorRequired(ctx, user.role),
    recovery_codes_left: row?.enabled === 1 ? Number(left.n) : 0,
  };
}

/** Step 1 of enrolment: a new secret, pending until a code confirms it (a pending one is replaced). */
export async function beginEnrolment(ctx: Ctx, user: UserRow, issuer: string): Promise<TwoFactorSetup> {
  if (await twoFactorEnabled(ctx, user.user_id)) throw businessError('two_factor.already_enabled');
  const secret = newTotpSecret();
  const now = Date.now();
  const stored = ctx.secrets.encrypt(secret);
  await ctx.db
    .insertInto('user_two_factor')
    .values({ user_id: user.user_id, secret: stored, enabled: 0, last_step: 0, created_at: now, updated_at: now })
    // Never overwrite an enabled secret (a racing confirm).
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: stored, last_step: 0, updated_at: now }).where('user_two_factor.enabled', '=', 0))
    .execute();
  return { secret, totp_uri: totpUri(secret, issuer, user.account) };
}

/** Step 2: a code from the authenticator proves it holds the secret; answers the recovery codes, once. */
export async function confirmEnrolment(ctx: Ctx, user: UserRow, code: string): Promise<string[]> {
  const row = await ctx.db.selectFrom('user_two_factor').selectAll().where('user_id', '=', user.user_id).executeTakeFirst();
  if (row?.enabled === 1) throw businessError('two_factor.already_enabled');
  if (!row) throw businessError('two_factor.not_pending');
  const step = totpStep(ctx.secrets.decrypt(row.secret), code);
  if (step === null) throw businessError('two_factor.code_invalid');
  const res = await ctx.db
    .updateTable('user_two_factor')
    .set({ enabled: 1, last_step: step, updated_at: Date.now() })
    .where('user_id', '=', user.user_id)
    .where('enabled', '=', 0)
    .where('secret', '=', row.secret)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw businessError('two_factor.not_pending');
  return replaceRecoveryCodes(ctx, user.user_id);
}

/** Ten new recovery codes; the earlier ones stop working. Only the hashes are kept. */
export async function replaceRecoveryCodes(ctx: Ctx, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('two_factor_recovery_codes')
      .values(codes.map((c) => ({ id: newId(), user_id: userId, code_hash: recoveryHash(c), used_at: null, created_at: now })))
      .execute();
  });
  return codes;
}

/** Turns two-factor off: secret, recovery codes, open tickets and step-ups go. */
export async function removeTwoFactor(ctx: Ctx, userId: number): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_two_factor').where('user_id', '=', userId).execute();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await trx.deleteFrom('two_factor_tickets').where('user_id', '=', userId).execute();
    await trx.deleteFrom('step_ups').where('user_id', '=', userId).execute();
  });
}

/**
 * Whether `code` is a valid second factor of an enrolled account, consuming it: a TOTP code of a time
 * step after the last one accepted (a code works once, even for racing requests: the update is
 * conditional), or an unused recovery code. Callers count wrong tries (auth/second-factor.ts).
 */
export async function consumeSecondFactor(ctx: Ctx, userId: number, code: string): Promise<boolean> {
  const row = await ctx.db.selectFrom('user_two_factor').selectAll().where('user_id', '=', userId).where('enabled', '=', 1).executeTakeFirst();
  if (!row) return false;
  const typed = code.trim();
  if (/^\d{6}$/.test(typed)) {
    const step = totpStep(ctx.secrets.decrypt(row.secret), typed);
    if (step === null) return false;
    const res = await ctx.db
      .updateTable('user_two_factor')
      .set({ last_step: step, updated_at: Date.now() })
      .where('user_id', '=', userId)
      .where('enabled', '=', 1)
      .where('last_step', '<', step)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
  const res = await ctx.db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryHash(typed))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Called by `login()` once the password or email code is right: an account with two-factor on gets a
 * short-lived single-use ticket instead of a session (`POST /auth/login/totp` completes the sign-in).
 */
export async function twoFactorChallenge(ctx: Ctx, user: UserRow): Promise<TwoFactorChallenge | undefined> {
  if (!(await twoFactorEnabled(ctx, user.user_id))) return undefined;
  const ticket = randomToken(32);
  const now = Date.now();
  // Spent tickets go as new ones come; the table stays as small as the sign-ins of five minutes.
  await ctx.db.deleteFrom('two_factor_tickets').where('expires_at', '<=', now).execute();
  await ctx.db
    .insertInto('two_factor_tickets')
    .values({ ticket_hash: sha256(ticket), user_id: user.user_id, attempts: 0, expires_at: now + TICKET_TTL_MS, created_at: now })
    .execute();
  return { two_factor: true, ticket, expires_in: TICKET_TTL_MS / 1000 };
}
