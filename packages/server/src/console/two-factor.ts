// Two-factor sign-in over HTTP: the sign-in's second step (/auth/login/totp), step-up (/auth/step-up),
// enrolment in the user center's security tab (/user/two-factor/*), and the gate that keeps an admin or
// reseller who must enrol (system config `two_factor.required`) on the enrolment screens.
import { ANY_ROLE, ErrorCode } from '@fastgate/core/constants';
import { DEFAULT_SITE } from '@fastgate/core/site';
import {
  loginTotpSchema, stepUpSchema, twoFactorConfirmSchema, twoFactorDisableSchema, twoFactorSetupSchema,
  type RecoveryCodes, type TwoFactorSetup,
} from '@fastgate/core/schemas/two-factor';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkPassword, checkSecondFactor, finishTwoFactorLogin } from '../auth/second-factor';
import { stepUp } from '../auth/step-up';
import {
  beginEnrolment, confirmEnrolment, removeTwoFactor, replaceRecoveryCodes, twoFactorEnabled, twoFactorSetupNeeded, twoFactorStatus,
} from '../auth/two-factor';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { AppError, businessError } from '../http/errors';
import { get, post } from '../http/route';
import { sessionOf } from '../http/session';
import { findSiteConfig } from '../settings/site-config';
import { domainOf } from './auth';

const anyone = [ANY_ROLE] as const;
const PREFIX = '/user/two-factor';

/** What an account that must enrol may still call: who it is, its menu, sign-in/out and enrolment. */
const SETUP_EXEMPT = [/^\/api\/v1\/auth\//, /^\/api\/v1\/user\/info$/, /^\/api\/user\/menu$/, /^\/api\/v1\/user\/two-factor\//];

/** Code 70 for an admin or reseller who must enrol and has not; register after the session hook. */
export function registerTwoFactorGate(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const session = request.session;
    if (!session || session.role === 'user') return;
    if (SETUP_EXEMPT.some((re) => re.test(request.routeOptions.url ?? ''))) return;
    if (await twoFactorSetupNeeded(app.ctx, session.user)) throw new AppError(ErrorCode.TwoFactorSetup, 'two_factor.setup_required');
  });
}

/** The password and a current code (TOTP or recovery), both counted toward the lockout. */
async function requirePasswordAndCode(ctx: Ctx, user: UserRow, password: string, code: string): Promise<void> {
  if (!(await twoFactorEnabled(ctx, user.user_id))) throw businessError('two_factor.not_enabled');
  if (!(await checkPassword(ctx, user, password))) throw businessError('auth.password_wrong');
  if (!(await checkSecondFactor(ctx, user.user_id, code))) throw businessError('two_factor.code_invalid');
}

export async function twoFactorRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  post(app, '/auth/login/totp', { schema: loginTotpSchema, public: true }, (input, request) =>
    finishTwoFactorLogin(ctx, input, { ip: request.ip, domain: domainOf(request, input.domain) }),
  );

  post(app, '/auth/step-up', { schema: stepUpSchema, roles: anyone }, (input, request) => stepUp(ctx, sessionOf(request), input.code));

  get(app, `${PREFIX}/status`, { roles: anyone }, (_input, request) => twoFactorStatus(ctx, sessionOf(request).user));

  // Starting enrolment needs the password: a borrowed session must not bind its own authenticator.
  post(app, `${PREFIX}/setup`, { schema: twoFactorSetupSchema, roles: anyone }, async (input, request): Promise<TwoFactorSetup> => {
    const { user } = sessionOf(request);
    if (!(await checkPassword(ctx, user, input.password))) throw businessError('auth.password_wrong');
    // The authenticator shows the site's name (a reseller's own brand on its domain).
    const site = await findSiteConfig(ctx.db, domainOf(request));
    return beginEnrolment(ctx, user, site?.title || DEFAULT_SITE.title);
  });

  post(app, `${PREFIX}/confirm`, { schema: twoFactorConfirmSchema, roles: anyone }, async (input, request): Promise<RecoveryCodes> => ({
    recovery_codes: await confirmEnrolment(ctx, sessionOf(request).user, input.code),
  }));

  post(app, `${PREFIX}/disable`, { schema: twoFactorDisableSchema, roles: anyone }, async (input, request) => {
    const { user } = sessionOf(request);
    await requirePasswordAndCode(ctx, user, input.password, input.code);
    await removeTwoFactor(ctx, user.user_id);
  });

  post(app, `${PREFIX}/recovery-codes`, { schema: twoFactorDisableSchema, roles: anyone }, async (input, request): Promise<RecoveryCodes> => {
    const { user } = sessionOf(request);
    await requirePasswordAndCode(ctx, user, input.password, input.code);
    return { recovery_codes: await replaceRecoveryCodes(ctx, user.user_id) };
  });
}
