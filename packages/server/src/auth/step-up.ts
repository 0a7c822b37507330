// Step-up: before a protected action (revealing a provider key, exporting keys, changing another
// account's password or balance) a session whose account uses two-factor proves a fresh code with
// `POST /auth/step-up`; the session may then do such actions for STEP_UP_MS. The window is a row keyed
// by the session's token hash, so every instance agrees and it ends with the session.
//
// An account without two-factor has no second factor to prove, so its protected actions go through as
// before; the system config's `two_factor.required` is what closes that for admins and resellers
// (they cannot reach these routes until they enrol).
import { ErrorCode } from '@fastgate/core/constants';
import type { StepUpResult } from '@fastgate/core/schemas/two-factor';
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { AppError, businessError } from '../http/errors';
import { sessionOf } from '../http/session';
import type { Session } from './sessions';
import { checkSecondFactor } from './second-factor';
import { twoFactorEnabled } from './two-factor';

const STEP_UP_MS = 5 * 60_000;

export async function stepUp(ctx: Ctx, session: Session, code: string): Promise<StepUpResult> {
  const userId = session.user.user_id;
  if (!(await twoFactorEnabled(ctx, userId))) throw businessError('two_factor.not_enabled');
  if (!(await checkSecondFactor(ctx, userId, code))) throw businessError('two_factor.code_invalid');
  const now = Date.now();
  await ctx.db.deleteFrom('step_ups').where('expires_at', '<=', now).execute();
  await ctx.db
    .insertInto('step_ups')
    .values({ token_hash: session.tokenHash, user_id: userId, expires_at: now + STEP_UP_MS })
    .onConflict((oc) => oc.column('token_hash').doUpdateSet({ expires_at: now + STEP_UP_MS }))
    .execute();
  return { expires_in: STEP_UP_MS / 1000 };
}

/** The one check every protected route makes first: code 71 unless the session stepped up lately. */
export async function requireStepUp(request: FastifyRequest): Promise<void> {
  const ctx = request.server.ctx;
  const session = sessionOf(request);
  if (!(await twoFactorEnabled(ctx, session.user.user_id))) return;
  const fresh = await ctx.db
    .selectFrom('step_ups')
    .select('token_hash')
    .where('token_hash', '=', session.tokenHash)
    .where('expires_at', '>', Date.now())
    .executeTakeFirst();
  if (!fresh) throw new AppError(ErrorCode.StepUp, 'two_factor.step_up_required');
}
