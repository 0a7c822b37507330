// Per-IP and per-account limits on sign-in and code sending (system config `sign_in_limits`, 0 = none),
// on the product's own rate limiter (memory, or Redis shared by every instance). They sit in front of the
// account lockout and the per-address code limits: those stop guessing one account; these stop one
// client spraying many accounts or mailboxes.
import type { Ctx } from '../context';
import { businessError } from '../http/errors';
import { retryAfterSeconds, type LimitScope } from '../limits/types';
import { getSysSection } from '../settings/sys-config';

export type ThrottleKind = 'sign-in' | 'code';

/**
 * Counts one attempt for the client's address and, for sign-in, for the account named (known or not:
 * the answer must not depend on whether it exists). Refuses with "too many attempts" when over.
 */
export async function throttle(ctx: Ctx, kind: ThrottleKind, ip: string, account?: string): Promise<void> {
  const l = await getSysSection(ctx.db, 'sign_in_limits');
  const scopes: LimitScope[] =
    kind === 'code'
      ? [{ scope: 'auth:codes', limits: { ipm: l.code_ip_per_minute, ipd: l.code_ip_per_day } }]
      : [{ scope: 'auth:sign-in', limits: { ipm: l.ip_per_minute, ipd: l.ip_per_day } }];
  if (kind === 'sign-in' && account) scopes.push({ scope: `auth:account:${account.trim().toLowerCase()}`, limits: { rpm: l.account_per_minute } });
  const res = await ctx.limiter.admit(scopes, ip);
  if (!res.ok) throw businessError('auth.too_many_attempts', { seconds: retryAfterSeconds(res.retryAfterMs) });
}
