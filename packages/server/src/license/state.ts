// The installed license and what it allows (docs/SPEC.md §3.8 "License", §8 code 9). No license installed: the
// product runs without limits. Installed: it must verify, not be expired, and the installation must not
// use more users, apps or nodes than it grants; otherwise admin console calls answer code 9 (the
// license endpoints themselves excepted, so the admin can install a new one).
import { ErrorCode } from '@fastgate/core/constants';
import type { LicenseState } from '@fastgate/core/entities/license';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { AppError } from '../http/errors';
import { verifyLicense, type LicensePayload } from './keys';

export const INSTALL_ID = 'current';

export interface InstalledLicense {
  state: LicenseState;
  payload: LicensePayload | null;
  installed_at: number;
  usage: { users: number; apps: number; nodes: number };
  exceeded: ('users' | 'apps' | 'nodes')[];
}

/** Accounts that count against user_count: users and resellers (admins do not). */
async function usage(ctx: Ctx): Promise<InstalledLicense['usage']> {
  const users = await ctx.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('role', '!=', 'admin').executeTakeFirst();
  const apps = await ctx.db.selectFrom('apps').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  // One process is one node; clustered deployments count their instances themselves.
  return { users: Number(users?.n ?? 0), apps: Number(apps?.n ?? 0), nodes: 1 };
}

export async function installedLicense(ctx: Ctx, now = Date.now()): Promise<InstalledLicense> {
  const row = await ctx.db.selectFrom('license_install').selectAll().where('id', '=', INSTALL_ID).executeTakeFirst();
  const use = await usage(ctx);
  if (!row) return { state: 'none', payload: null, installed_at: 0, usage: use, exceeded: [] };
  return judge(ctx, row, use, now);
}

function judge(ctx: Ctx, row: { secret_key: string; installed_at: number }, use: InstalledLicense['usage'], now: number): InstalledLicense {
  const decoded = verifyLicense(ctx.config, row.secret_key);
  if (!decoded.ok) return { state: 'invalid', payload: null, installed_at: Number(row.installed_at), usage: use, exceeded: [] };
  const p = decoded.payload;
  const exceeded: InstalledLicense['exceeded'] = [];
  if (p.user_count > 0 && use.users > p.user_count) exceeded.push('users');
  if (p.app_count > 0 && use.apps > p.app_count) exceeded.push('apps');
  if (p.node > 0 && use.nodes > p.node) exceeded.push('nodes');
  const state: LicenseState = p.expires_at > 0 && p.expires_at <= now ? 'expired' : exceeded.length ? 'exceeded' : 'valid';
  return { state, payload: p, installed_at: Number(row.installed_at), usage: use, exceeded };
}

/**
 * Console routes an admin can always reach: sign-in and session, menu, the license screens, and
 * two-factor enrolment (an admin who must enrol reaches nothing else: console/two-factor.ts).
 */
const EXEMPT = [/^\/api\/v1\/auth\//, /^\/api\/v1\/user\/info$/, /^\/api\/user\/menu$/, /^\/api\/v1\/license\//, /^\/api\/v1\/sys\/license\//, /^\/api\/v1\/user\/two-factor\//];

/** Adds the code-9 check for admin sessions; register after the session hook. */
export function registerLicenseGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.session?.role !== 'admin') return;
    const url = request.routeOptions.url ?? '';
    if (EXEMPT.some((re) => re.test(url))) return;
    // Nothing installed (the usual case): one indexed read, no counting.
    const row = await app.ctx.db.selectFrom('license_install').selectAll().where('id', '=', INSTALL_ID).executeTakeFirst();
    if (!row) return;
    const lic = judge(app.ctx, row, await usage(app.ctx), Date.now());
    if (lic.state === 'valid') return;
    if (lic.state === 'expired') throw new AppError(ErrorCode.License, 'license.expired');
    if (lic.state === 'exceeded') throw new AppError(ErrorCode.License, 'license.exceeded', { what: lic.exceeded.join(', ') });
    throw new AppError(ErrorCode.License, 'license.broken');
  });
}
