// /api/v1/auth and /api/v1/common: sign-in, registration, password recovery, codes (docs/ORIGINAL-API.md §4).
import { emailCodeSchema, forgetSchema, loginSchema, registerSchema, smsCodeSchema } from '@fastgate/core/schemas/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { findLoginUser, registerByEmail } from '../auth/accounts';
import { sendCode, verifyCode } from '../auth/codes';
import { login, mayRegisterByCode } from '../auth/login';
import { createSession, resolveSession, revokeSession, revokeUserSessions } from '../auth/sessions';
import { throttle } from '../auth/throttle';
import { recordAudit } from '../audit/record';
import type { Ctx } from '../context';
import type { SiteConfigRow } from '../db/schema';
import { accountMailSite, newcomerMailSite } from '../mail/route';
import { businessError } from '../http/errors';
import { requestLocale } from '../http/locale';
import { post } from '../http/route';
import { bearerToken } from '../http/session';
import { hashPassword } from '../security/password';
import { getSysSection, loginSection } from '../settings/sys-config';

type EmailCodeInput = z.infer<typeof emailCodeSchema>;

/** The domain a call is made for: the body's, else the Host header's (docs/ORIGINAL-API.md §2.1). */
export function domainOf(request: FastifyRequest, given?: string): string {
  return (given || request.hostname.split(':')[0] || '').toLowerCase();
}

export async function authRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  post(app, '/auth/login', { schema: loginSchema, public: true }, (input, request) =>
    login(ctx, input, { ip: request.ip, domain: domainOf(request, input.domain) }),
  );

  post(app, '/auth/logout', { public: true }, async (_input, request) => {
    const token = bearerToken(request);
    if (!token) return;
    const session = await resolveSession(ctx, token);
    await revokeSession(ctx, token);
    if (session && session.role !== 'user') await recordAudit(ctx, { kind: 'sign_out', actor: session.user, ip: request.ip, action: '/api/v1/auth/logout' });
  });

  post(app, '/auth/register', { schema: registerSchema, public: true }, async (input, request) => {
    await throttle(ctx, 'sign-in', request.ip, input.account);
    const options = await getSysSection(ctx.db, loginSection(input.channel));
    if (!options.email_register) throw businessError('auth.register_disabled');
    if (!(await verifyCode(ctx, input.account, 'register', input.channel, input.code))) throw businessError('code.invalid');
    const user = await registerByEmail(ctx, { role: input.channel, email: input.account, password: input.password, domain: domainOf(request, input.domain) });
    return { type: 'Bearer', ...(await createSession(ctx, user, request.ip)) };
  });

  post(app, '/auth/forget', { schema: forgetSchema, public: true }, async (input, request) => {
    await throttle(ctx, 'sign-in', request.ip, input.account);
    const options = await getSysSection(ctx.db, loginSection(input.channel));
    if (!options.email_retrieve) throw businessError('auth.retrieve_disabled');
    if (!(await verifyCode(ctx, input.account, 'forget_password', input.channel, input.code))) throw businessError('code.invalid');
    // Recovery codes are only ever mailed to existing accounts; the same answer either way.
    const user = await findLoginUser(ctx, input.channel, input.account);
    if (!user) throw businessError('code.invalid');
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(input.password), failed_logins: 0, locked_until: null, updated_at: Date.now() })
      .where('user_id', '=', user.user_id)
      .execute();
    // A new password ends every open session of the account.
    await revokeUserSessions(ctx, user.user_id);
  });

  // The same answer for known and unknown addresses: whether a code is mailed, and through whose mail
  // server, is decided here (codePlan) and never shows in the answer.
  post(app, '/common/email-code', { schema: emailCodeSchema, public: true }, async (input, request) => {
    await throttle(ctx, 'code', request.ip);
    const plan = await codePlan(ctx, input, request);
    await sendCode(ctx, { kind: 'email', target: input.email, action: input.action, channel: input.channel, locale: requestLocale(request), ...plan });
  });

  post(app, '/common/sms-code', { schema: smsCodeSchema, public: true }, async (input, request) => {
    await throttle(ctx, 'code', request.ip);
    // Phone codes change the phone of a signed-in account only.
    const deliver = !!(await resolveSession(ctx, bearerToken(request)));
    await sendCode(ctx, { kind: 'sms', target: input.phone, action: input.action, channel: input.channel, locale: requestLocale(request), deliver });
  });
}

/**
 * Whether an email code is delivered and through which site's mail server. Refusals here depend only on
 * public switches (the login screens show them), never on whether the address has an account.
 */
async function codePlan(ctx: Ctx, input: EmailCodeInput, request: FastifyRequest): Promise<{ deliver: boolean; site?: SiteConfigRow }> {
  const options = await getSysSection(ctx.db, loginSection(input.channel));
  const account = await findLoginUser(ctx, input.channel, input.email);
  const newcomer = async (allowed: boolean) => (allowed && !account ? { deliver: true, site: await newcomerMailSite(ctx.db, input.email, domainOf(request, input.domain)) } : { deliver: false });
  const owner = async () => (account ? { deliver: true, site: await accountMailSite(ctx.db, account) } : { deliver: false });
  switch (input.action) {
    case 'login':
      if (!options.email_login) throw businessError('auth.method_disabled');
      return account ? owner() : newcomer(mayRegisterByCode(input.channel, options));
    case 'register':
      if (input.channel === 'admin' || !options.email_register) throw businessError('auth.register_disabled');
      return newcomer(true);
    case 'forget_password':
      if (!options.email_retrieve) throw businessError('auth.retrieve_disabled');
      return owner();
    case 'change_email': {
      // For the signed-in account changing its address: mailed through that account's server.
      const session = await resolveSession(ctx, bearerToken(request));
      if (!session || session.role !== input.channel) return { deliver: false };
      return { deliver: true, site: await accountMailSite(ctx.db, session.user) };
    }
  }
}
