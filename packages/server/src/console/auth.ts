// /api/v1/auth and /api/v1/common: sign-in, registration, password recovery, codes (reference §4).
import { emailCodeSchema, forgetSchema, loginSchema, registerSchema, smsCodeSchema } from '@fastgate/core/schemas/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailTaken, findLoginUser, registerByEmail } from '../auth/accounts';
import { sendCode, verifyCode } from '../auth/codes';
import { login } from '../auth/login';
import { createSession, revokeSession, revokeUserSessions } from '../auth/sessions';
import { businessError } from '../http/errors';
import { requestLocale } from '../http/locale';
import { post } from '../http/route';
import { bearerToken } from '../http/session';
import { hashPassword } from '../security/password';
import { getSysSection, loginSection } from '../settings/sys-config';

/** The domain a call is made for: the body's, else the Host header's (reference §2.1). */
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
    if (token) await revokeSession(ctx, token);
  });

  post(app, '/auth/register', { schema: registerSchema, public: true }, async (input, request) => {
    const options = await getSysSection(ctx.db, loginSection(input.channel));
    if (!options.email_register) throw businessError('auth.register_disabled');
    if (!(await verifyCode(ctx, input.account, 'register', input.channel, input.code))) throw businessError('code.invalid');
    const user = await registerByEmail(ctx, { role: input.channel, email: input.account, password: input.password, domain: domainOf(request, input.domain) });
    return { type: 'Bearer', ...(await createSession(ctx, user, request.ip)) };
  });

  post(app, '/auth/forget', { schema: forgetSchema, public: true }, async (input) => {
    const options = await getSysSection(ctx.db, loginSection(input.channel));
    if (!options.email_retrieve) throw businessError('auth.retrieve_disabled');
    if (!(await verifyCode(ctx, input.account, 'forget_password', input.channel, input.code))) throw businessError('code.invalid');
    const user = await findLoginUser(ctx, input.channel, input.account);
    if (!user) throw businessError('auth.account_unknown');
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(input.password), failed_logins: 0, locked_until: null, updated_at: Date.now() })
      .where('user_id', '=', user.user_id)
      .execute();
    // A new password ends every open session of the account.
    await revokeUserSessions(ctx, user.user_id);
  });

  post(app, '/common/email-code', { schema: emailCodeSchema, public: true }, async (input, request) => {
    const exists = await emailTaken(ctx, input.channel, input.email);
    if (input.action === 'register' && exists) throw businessError('auth.email_exists');
    if (input.action === 'forget_password' && !exists) throw businessError('auth.account_unknown');
    if (input.action === 'login' && input.channel === 'admin' && !exists) throw businessError('auth.admin_contact');
    await sendCode(ctx, { kind: 'email', target: input.email, action: input.action, channel: input.channel, domain: domainOf(request, input.domain), locale: requestLocale(request) });
  });

  post(app, '/common/sms-code', { schema: smsCodeSchema, public: true }, async (input, request) => {
    await sendCode(ctx, { kind: 'sms', target: input.phone, action: input.action, channel: input.channel, domain: domainOf(request, input.domain), locale: requestLocale(request) });
  });
}
