// /api/v1/user: the signed-in person's own info, profile, security settings and certification.
import { ANY_ROLE, CertStatus } from '@fastgate/core/constants';
import {
  certificationCreateSchema, changeEmailSchema, changePasswordSchema, changePhoneSchema, updateInfoSchema,
  type Certification, type SessionUser,
} from '@fastgate/core/schemas/user-center';
import type { FastifyInstance } from 'fastify';
import { emailTaken } from '../auth/accounts';
import { verifyCode } from '../auth/codes';
import { revokeUserSessions } from '../auth/sessions';
import { publishUsers } from '../billing/deals';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { businessError, notFound } from '../http/errors';
import { newId } from '../http/ids';
import { paged } from '../http/paging';
import { idSchema, pageSchema } from '@fastgate/core/schemas/common';
import { get, post } from '../http/route';
import { sessionOf } from '../http/session';
import { formatTime } from '../http/time';
import { hashPassword, verifyPassword } from '../security/password';
import { twoFactorSetupNeeded } from '../auth/two-factor';
import { vipBadge } from './vip';
import { bpToFraction } from '@fastgate/core/entities/group';

function sessionUser(user: UserRow, timeZone: string, vip: { name: string; color: string } = { name: '', color: '' }, twoFactorSetup = false): SessionUser {
  return {
    user_id: user.user_id,
    account: user.account,
    name: user.name,
    avatar: user.avatar,
    email: user.email,
    phone: user.phone,
    profile: user.profile,
    created_at: formatTime(user.created_at, timeZone),
    role: user.role,
    vip_level_name: vip.name,
    vip_level_color: vip.color,
    rid: user.rid,
    time_zone: timeZone,
    two_factor_setup: twoFactorSetup,
    ...(user.role === 'reseller' ? { floor: bpToFraction(user.floor_bp) } : {}),
  };
}

async function checkPassword(user: UserRow, password: string, key: 'auth.old_password_wrong' | 'auth.password_wrong') {
  if (!(await verifyPassword(password, user.password_hash))) throw businessError(key);
}

function maskId(value: string): string {
  return value.length <= 7 ? `${value.slice(0, 1)}***` : `${value.slice(0, 3)}${'*'.repeat(value.length - 7)}${value.slice(-4)}`;
}

function certification(ctx: Ctx, row: { id: string; real_name: string; id_type: string; id_number: string; remark: string; status: number; created_at: number; updated_at: number }): Certification {
  return {
    id: row.id,
    real_name: row.real_name,
    id_type: row.id_type,
    id_number: maskId(ctx.secrets.decrypt(row.id_number)),
    remark: row.remark,
    status: row.status,
    created_at: formatTime(row.created_at, ctx.config.timeZone),
    updated_at: formatTime(row.updated_at, ctx.config.timeZone),
  };
}

export async function userCenterRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db } = ctx;

  get(app, '/user/info', { roles: [ANY_ROLE] }, async (_input, request) => {
    const { user } = sessionOf(request);
    return sessionUser(user, ctx.config.timeZone, await vipBadge(ctx, user), await twoFactorSetupNeeded(ctx, user));
  });

  post(app, '/user/update/info', { schema: updateInfoSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user } = sessionOf(request);
    await db.updateTable('users').set({ name: input.name, profile: input.profile ?? user.profile, updated_at: Date.now() }).where('user_id', '=', user.user_id).execute();
    // Cached sessions (Redis mode) and snapshots hold the row too.
    publishUsers(ctx, [user.user_id]);
  });

  post(app, '/user/change/password', { schema: changePasswordSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user, tokenHash } = sessionOf(request);
    await checkPassword(user, input.old_password, 'auth.old_password_wrong');
    if (input.old_password === input.new_password) throw businessError('auth.same_password');
    await db.updateTable('users').set({ password_hash: await hashPassword(input.new_password), updated_at: Date.now() }).where('user_id', '=', user.user_id).execute();
    // Other devices must sign in again with the new password; this one stays signed in.
    await revokeUserSessions(ctx, user.user_id, tokenHash);
  });

  post(app, '/user/change/email', { schema: changeEmailSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user, role } = sessionOf(request);
    await checkPassword(user, input.password, 'auth.password_wrong');
    const email = input.email.toLowerCase();
    if (email !== user.email && (await emailTaken(ctx, role, email))) throw businessError('auth.email_exists');
    if (!(await verifyCode(ctx, email, 'change_email', role, input.code))) throw businessError('code.invalid');
    await db.updateTable('users').set({ email, updated_at: Date.now() }).where('user_id', '=', user.user_id).execute();
    // Cached sessions (Redis mode) and snapshots hold the row too.
    publishUsers(ctx, [user.user_id]);
  });

  post(app, '/user/change/phone', { schema: changePhoneSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user, role } = sessionOf(request);
    await checkPassword(user, input.password, 'auth.password_wrong');
    if (!(await verifyCode(ctx, input.phone, 'change_phone', role, input.code))) throw businessError('code.invalid');
    await db.updateTable('users').set({ phone: input.phone, updated_at: Date.now() }).where('user_id', '=', user.user_id).execute();
    // Cached sessions (Redis mode) and snapshots hold the row too.
    publishUsers(ctx, [user.user_id]);
  });

  post(app, '/user/certification/create', { schema: certificationCreateSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user } = sessionOf(request);
    const open = await db
      .selectFrom('certifications')
      .select('id')
      .where('user_id', '=', user.user_id)
      .where('status', 'in', [CertStatus.Auditing, CertStatus.Passed])
      .executeTakeFirst();
    if (open) throw businessError('cert.exists');
    const now = Date.now();
    const id = newId();
    await db
      .insertInto('certifications')
      .values({ id, user_id: user.user_id, real_name: input.real_name, id_type: input.id_type, id_number: ctx.secrets.encrypt(input.id_number), remark: input.remark ?? '', status: CertStatus.Auditing, created_at: now, updated_at: now })
      .execute();
    return { id };
  });

  post(app, '/user/certification/page', { schema: pageSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user } = sessionOf(request);
    const base = db.selectFrom('certifications').where('user_id', '=', user.user_id);
    return paged(input, base, (q) => q.selectAll().orderBy('created_at', 'desc'), (row) => certification(ctx, row));
  });

  get(app, '/user/certification/detail', { schema: idSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user } = sessionOf(request);
    const row = await db.selectFrom('certifications').selectAll().where('id', '=', input.id).where('user_id', '=', user.user_id).executeTakeFirst();
    if (!row) throw notFound();
    return certification(ctx, row);
  });

  post(app, '/user/certification/withdraw', { schema: idSchema, roles: [ANY_ROLE] }, async (input, request) => {
    const { user } = sessionOf(request);
    const res = await db
      .updateTable('certifications')
      .set({ status: CertStatus.Withdrawn, updated_at: Date.now() })
      .where('id', '=', input.id)
      .where('user_id', '=', user.user_id)
      .where('status', '=', CertStatus.Auditing)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      const exists = await db.selectFrom('certifications').select('id').where('id', '=', input.id).where('user_id', '=', user.user_id).executeTakeFirst();
      throw exists ? businessError('cert.not_withdrawable') : notFound();
    }
  });
}
