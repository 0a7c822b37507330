// /api/v1/admin/user (admin, reseller: only its own users, users.rid = its user_id) and
// /api/v1/admin/reseller (admin): the managed accounts of docs/ORIGINAL-API.md §3.1 with the same 11 calls —
// create, update, change/quota/expire, change/status, delete, detail, page, list, batch/operate,
// recharge, permissions. Quota only moves through billing/deals.ts (deal record in the same
// transaction, `quota = quota ± x`, a reseller never gives more than it holds).
import { type Role, Status } from '@fastgate/core/constants';
import {
  PurgeData, QuotaType, RESELLER_PREFIX, USER_PREFIX,
  batchRechargeSchema, changeQuotaExpireSchema, permissionsSchema, rechargeSchema, userCreateSchema, userDeleteSchema, userPageSchema, userUpdateSchema,
  userResource, type ManagedUser, type Reseller, type UserOption,
} from '@fastgate/core/entities/user';
import { flag } from '@fastgate/core/resource';
import { batchSchema, changeStatusSchema, idSchema } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { availableGroups, availableModelIds } from '../catalogue/access';
import { requireKnown, requireRows } from '../catalogue/links';
import { applyMovement, moveQuota, publishUsers, requireFuture, sendRechargeNotice, whenIdle, withDebitsHeld, type Movement } from '../billing/deals';
import { dropCachedSessions, revokeUserSessions } from '../auth/sessions';
import { requireStepUp } from '../auth/step-up';
import { removeTwoFactor, twoFactorEnabled } from '../auth/two-factor';
import type { Ctx } from '../context';
import type { UserRow } from '../db/schema';
import { callerOf, contains, resource, type Caller } from '../http/crud';
import { AppError, businessError, invalidField, notFound } from '../http/errors';
import { newId } from '../http/ids';
import { get, post } from '../http/route';
import { formatTime } from '../http/time';
import { hashPassword } from '../security/password';
import { ErrorCode } from '@fastgate/core/constants';
import { bpToFraction, discountToBp } from '@fastgate/core/entities/group';
import { inTimeRange } from './record-filters';
import { expiryOf } from './usage-limits';

type Kind = 'user' | 'reseller';

interface Prepared {
  groups: Map<string, string>;
  models: Map<string, string>;
  allocated: Map<number, number>;
}

/** Names of the groups and models rows refer to, and each reseller's allocated quota, in three queries. */
async function prepare(ctx: Ctx, rows: UserRow[], kind: Kind): Promise<Prepared> {
  const grants = rows.map((r) => userResource.decode(r));
  const groupIds = [...new Set(grants.flatMap((g) => g.groups))];
  const modelIds = [...new Set(grants.flatMap((g) => g.models))];
  const groups = groupIds.length ? await ctx.db.selectFrom('groups').select(['id', 'name']).where('id', 'in', groupIds).execute() : [];
  const models = modelIds.length ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', modelIds).execute() : [];
  const allocated = new Map<number, number>();
  if (kind === 'reseller' && rows.length) {
    const sums = await ctx.db
      .selectFrom('users')
      .select((eb) => ['rid', eb.fn.sum<number>(sql`quota + used_quota`).as('total')])
      .where('role', '=', 'user')
      .where('rid', 'in', rows.map((r) => r.user_id))
      .groupBy('rid')
      .execute();
    for (const s of sums) allocated.set(s.rid, Number(s.total ?? 0));
  }
  return { groups: new Map(groups.map((g) => [g.id, g.name])), models: new Map(models.map((m) => [m.id, m.name])), allocated };
}

function managedUserWire(ctx: Ctx, row: UserRow, p: Pick<Prepared, 'groups' | 'models'>): ManagedUser {
  const tz = ctx.config.timeZone;
  const fields = userResource.decode(row);
  return {
    id: row.id,
    user_id: row.user_id,
    ...fields,
    avatar: row.avatar,
    quota: row.quota,
    used_quota: row.used_quota,
    quota_expires_at: formatTime(row.quota_expires_at, tz),
    quota_type: row.quota_type,
    // The notices sent since the last recharge: the jobs' flags, not the console's.
    warning_notice: flag.decode(row.warning_notice),
    exhaustion_notice: flag.decode(row.exhaustion_notice),
    expire_warning_notice: flag.decode(row.expire_warning_notice),
    expire_notice: flag.decode(row.expire_notice),
    group_names: fields.groups.map((id) => p.groups.get(id) ?? id),
    model_names: fields.models.map((id) => p.models.get(id) ?? id),
    rid: row.rid,
    login_ip: row.login_ip,
    login_time: formatTime(row.login_time, tz),
    login_domain: row.login_domain,
    vip_level: row.vip_level,
    vip_level_recharge_quota: row.vip_level_recharge_quota,
    vip_level_used_quota: row.vip_level_used_quota,
    vip_level_start_time: formatTime(row.vip_level_start_time, tz),
    vip_level_expires_at: formatTime(row.vip_level_expires_at, tz),
    created_at: formatTime(row.created_at, tz),
    updated_at: formatTime(row.updated_at, tz),
  };
}

/** Deletes accounts with the extra data `purge` names (docs/ORIGINAL-API.md §3.1 delete `data`). */
async function deleteAccounts(ctx: Ctx, rows: UserRow[], purge: number[], kind: Kind): Promise<void> {
  if (!rows.length) return;
  const db = ctx.db;
  const accounts = rows.map((r) => r.user_id);
  // A reseller's purged users go with it: none of them may have a call in flight or a charge not yet written.
  const purged = kind === 'reseller' && purge.includes(PurgeData.Users) ? await db.selectFrom('users').select('user_id').where('role', '=', 'user').where('rid', 'in', accounts).execute() : [];
  await whenIdle(ctx, [...accounts, ...purged.map((u) => u.user_id)], () => removeAccounts(ctx, rows, purge, kind));
}

async function removeAccounts(ctx: Ctx, rows: UserRow[], purge: number[], kind: Kind): Promise<void> {
  const db = ctx.db;
  let ids = rows.map((r) => r.user_id);
  const rowIds = rows.map((r) => r.id);
  const deletedApps: string[] = [];
  const deletedKeys: string[] = [];
  const affectedUsers: string[] = [];
  await db.transaction().execute(async (trx) => {
    if (kind === 'reseller') {
      const users = await trx.selectFrom('users').select(['id', 'user_id']).where('role', '=', 'user').where('rid', 'in', ids).execute();
      if (purge.includes(PurgeData.Users)) {
        ids = [...ids, ...users.map((u) => u.user_id)];
        rowIds.push(...users.map((u) => u.id));
      } else if (users.length) {
        // Kept users move to the platform (no reseller any more).
        await trx.updateTable('users').set({ rid: 0, updated_at: Date.now() }).where('rid', 'in', ids).execute();
        affectedUsers.push(...users.map((u) => u.id));
      }
    }
    if (purge.includes(PurgeData.Apps)) {
      deletedKeys.push(...(await trx.deleteFrom('app_keys').where('user_id', 'in', ids).returning('id').execute()).map((k) => k.id));
      deletedApps.push(...(await trx.deleteFrom('apps').where('user_id', 'in', ids).returning('id').execute()).map((a) => a.id));
    }
    if (purge.includes(PurgeData.DealRecords)) await trx.deleteFrom('deal_records').where('user_id', 'in', ids).execute();
    if (purge.includes(PurgeData.Logs)) await trx.deleteFrom('call_logs').where('user_id', 'in', ids).execute();
    // Bills (4) are computed from call logs here; there is no table of their own to purge.
    await trx.deleteFrom('sessions').where('user_id', 'in', ids).execute();
    // Two-factor state (auth/two-factor.ts) goes with the account.
    for (const table of ['user_two_factor', 'two_factor_recovery_codes', 'two_factor_tickets', 'step_ups'] as const) await trx.deleteFrom(table).where('user_id', 'in', ids).execute();
    await trx.deleteFrom('users').where('user_id', 'in', ids).execute();
  });
  await dropCachedSessions(ctx, ids);
  if (deletedKeys.length) ctx.bus.publish({ entity: 'app_keys', op: 'delete', ids: deletedKeys });
  if (deletedApps.length) ctx.bus.publish({ entity: 'apps', op: 'delete', ids: deletedApps });
  if (affectedUsers.length) ctx.bus.publish({ entity: 'users', op: 'update', ids: affectedUsers });
  ctx.bus.publish({ entity: 'users', op: 'delete', ids: rowIds });
}

/**
 * Groups and models `caller` may grant to `target`: an admin any admin group (and, for a reseller's
 * user, that reseller's groups) and any model; a reseller its own groups and what it may use itself.
 */
async function checkGrants(c: Caller, target: Pick<UserRow, 'rid' | 'role'>, groups: string[], models: string[]): Promise<void> {
  const ctx = c.ctx;
  if (c.session.role === 'admin') {
    await requireRows(ctx.db, 'models', 'models', models);
    if (groups.length) {
      const owners = target.role === 'user' && target.rid > 0 ? [0, target.rid] : [0];
      const rows = await ctx.db.selectFrom('groups').select('id').where('id', 'in', groups).where('user_id', 'in', owners).execute();
      requireKnown('groups', groups, new Set(rows.map((r) => r.id)));
    }
    return;
  }
  const me = c.session.user;
  if (groups.length) {
    const own = await ctx.db.selectFrom('groups').select('id').where('id', 'in', groups).where('user_id', '=', me.user_id).execute();
    const usable = await availableGroups(ctx, me);
    requireKnown('groups', groups, new Set([...own.map((r) => r.id), ...usable.map((g) => g.id)]));
  }
  if (models.length) requireKnown('models', models, new Set((await availableModelIds(ctx, me)).keys()));
}

async function managedUserRoutes(app: FastifyInstance, kind: Kind) {
  const ctx = app.ctx;
  const db = ctx.db;
  const prefix = kind === 'user' ? USER_PREFIX : RESELLER_PREFIX;
  const roles: readonly Role[] = kind === 'user' ? ['admin', 'reseller'] : ['admin'];

  const res = resource(ctx, {
    table: 'users',
    scope: (q, c) => {
      const out = q.where('role', '=', kind);
      return c.session.role === 'reseller' ? out.where('rid', '=', c.session.user.user_id) : out;
    },
    page: {
      schema: userPageSchema,
      filter: (q, f) => {
        let out = contains(contains(contains(contains(contains(q, 'account', f.account), 'name', f.name), 'email', f.email), 'phone', f.phone), 'remark', f.remark);
        if (f.user_id) out = out.where('user_id', '=', f.user_id);
        if (f.rid && kind === 'user') out = out.where('rid', '=', f.rid);
        if (f.quota !== undefined) out = out.where('quota', '<', f.quota);
        if (f.status) out = out.where('status', '=', f.status);
        return inTimeRange(ctx, inTimeRange(ctx, out, 'quota_expires_at', f.quota_expires_at), 'created_at', f.created_at);
      },
      // docs/ORIGINAL-API.md §2.4: reseller `status,-user_id,-updated_at`; user `status,-created_at,-updated_at`.
      order: kind === 'reseller' ? [['status', 'asc'], ['user_id', 'desc'], ['updated_at', 'desc']] : [['status', 'asc'], ['created_at', 'desc'], ['updated_at', 'desc']],
    },
    prepare: (rows: UserRow[]) => prepare(ctx, rows, kind),
    toWire: (row: UserRow, _c, _view, p: Prepared): ManagedUser | Reseller => {
      const wire = managedUserWire(ctx, row, p);
      return kind === 'reseller' ? { ...wire, allocated_quota: p.allocated.get(row.user_id) ?? 0, to_be_allocated: row.quota, floor: bpToFraction(row.floor_bp) } : wire;
    },
  });

  /** The account with numeric `userId` in the caller's scope, else "record not found". */
  const byUserId = async (c: Caller, userId: number): Promise<UserRow> => {
    const row = (await (await res.scoped(c)).selectAll().where('user_id', '=', userId).executeTakeFirst()) as UserRow | undefined;
    if (!row) throw notFound();
    // The account a recharge or a grant change is about, as it was (the audit log's "before").
    c.audit?.rows('users', [row]);
    return row;
  };

  /** A recharge of `target` by the caller: a reseller gives (or takes back) its own quota. */
  const movement = (c: Caller, target: UserRow, quota: number, type: Movement['type'], expiresAt: number | null | undefined, remark?: string): Movement => ({
    userId: target.user_id,
    quota,
    type,
    expiresAt,
    creator: c.session.user.account,
    remark,
    ...(c.session.role === 'reseller' ? { from: c.session.user.user_id } : {}),
  });

  const runMoves = async (c: Caller, moves: Movement[], notify: boolean) => {
    await moveQuota(ctx, moves, c.locale);
    if (notify) for (const m of moves) await sendRechargeNotice(ctx, m.userId, m.type === QuotaType.Deduct ? -m.quota : m.quota, c.locale);
  };

  /** "" → null; otherwise a future time (when `mustBeFuture`). */
  const expiry = (text: string | undefined, mustBeFuture: boolean): number | null | undefined => {
    if (text === undefined) return undefined;
    const ms = expiryOf(ctx, text);
    if (mustBeFuture) requireFuture(ms);
    return ms;
  };

  const accountTaken = async (account: string, exceptUserId?: number) => {
    let q = db.selectFrom('users').select('user_id').where('role', '=', kind).where('account', '=', account);
    if (exceptUserId !== undefined) q = q.where('user_id', '!=', exceptUserId);
    return !!(await q.executeTakeFirst());
  };
  const emailTaken = async (email: string, exceptUserId?: number) => {
    if (!email) return false;
    let q = db.selectFrom('users').select('user_id').where('role', '=', kind).where('email', '=', email.toLowerCase());
    if (exceptUserId !== undefined) q = q.where('user_id', '!=', exceptUserId);
    return !!(await q.executeTakeFirst());
  };

  /** A reseller's floor (admin-only routes) as stored; on any other account a floor is refused. */
  const floorOf = (floor: number | undefined): { floor_bp?: number } => {
    if (floor === undefined) return {};
    if (kind !== 'reseller') throw new AppError(ErrorCode.Validation, 'pricing.floor_resellers_only', { field: 'floor' });
    return { floor_bp: discountToBp(floor) };
  };

  // Moving quota and setting another account's password need a fresh second factor (auth/step-up.ts).
  post(app, `${prefix}/create`, { schema: userCreateSchema, roles }, async (input, request) => {
    if (input.quota > 0) await requireStepUp(request);
    const c = callerOf(request);
    const floor = floorOf(input.floor);
    let rid = 0;
    if (kind === 'user') {
      if (c.session.role === 'reseller') rid = c.session.user.user_id;
      else if (input.rid) {
        const reseller = await db.selectFrom('users').select('user_id').where('role', '=', 'reseller').where('user_id', '=', input.rid).executeTakeFirst();
        if (!reseller) throw invalidField('rid', String(input.rid));
        rid = input.rid;
      }
    }
    if (await accountTaken(input.account)) throw businessError('auth.account_exists');
    if (await emailTaken(input.email)) throw businessError('auth.email_exists');
    const expiresAt = expiry(input.quota_expires_at, true) ?? null;
    await checkGrants(c, { role: kind, rid }, input.groups, input.models);
    const now = Date.now();
    const id = newId();
    const passwordHash = await hashPassword(input.password);
    // A reseller's opening grant comes out of its balance: held in the ledger like any allocation (a
    // deduction from nothing is refused by applyMovement below).
    const grant = input.quota > 0 && input.quota_type !== QuotaType.Deduct ? [movement(c, { user_id: 0 } as UserRow, input.quota, input.quota_type, undefined)] : [];
    const insert = () => db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('users')
        .values({
          ...userResource.encode(input),
          // Addresses are compared lower-case (sign-in, "email taken").
          email: input.email.toLowerCase(),
          id,
          role: kind,
          avatar: '',
          profile: '',
          password_hash: passwordHash,
          rid,
          quota: 0,
          used_quota: 0,
          quota_expires_at: expiresAt,
          quota_type: input.quota_type,
          login_ip: '',
          login_time: null,
          login_domain: '',
          failed_logins: 0,
          locked_until: null,
          ...floor,
          created_at: now,
          updated_at: now,
        })
        .returning('user_id')
        .executeTakeFirstOrThrow();
      // The opening balance is a movement like any recharge; a deduction from nothing is refused.
      if (input.quota > 0) {
        const target = { user_id: row.user_id } as UserRow;
        await applyMovement(ctx, trx, movement(c, target, input.quota, input.quota_type, undefined), c.locale);
      }
      return row.user_id;
    });
    const userId = await withDebitsHeld(ctx, grant, async () => {
      const created = await insert();
      await publishUsers(ctx, c.session.role === 'reseller' && input.quota > 0 ? [created, c.session.user.user_id] : [created]);
      return created;
    });
    return { id, user_id: userId };
  });

  post(app, `${prefix}/update`, { schema: userUpdateSchema, roles }, async (input, request) => {
    if (input.password) await requireStepUp(request);
    const c = callerOf(request);
    const floor = floorOf(input.floor);
    const [existing] = (await res.visible(c, [input.id])) as UserRow[];
    const row = existing!;
    if (await accountTaken(input.account, row.user_id)) throw businessError('auth.account_exists');
    if (await emailTaken(input.email, row.user_id)) throw businessError('auth.email_exists');
    const expiresAt = expiry(input.quota_expires_at, false) ?? null;
    if (expiresAt !== row.quota_expires_at) requireFuture(expiresAt);
    // Grants already held stay valid even if the granter lost access since; new ones are checked.
    const stored = userResource.decode(row);
    const held = new Set([...stored.groups, ...stored.models]);
    await checkGrants(c, row, input.groups.filter((g) => !held.has(g)), input.models.filter((m) => !held.has(m)));
    const warningChanged = input.warning_threshold !== row.warning_threshold || input.expire_warning_threshold !== row.expire_warning_threshold;
    await db
      .updateTable('users')
      .set({
        ...userResource.encode({ ...input, groups: [...new Set(input.groups)], models: [...new Set(input.models)] }),
        email: input.email.toLowerCase(),
        quota_expires_at: expiresAt,
        ...floor,
        ...(input.password ? { password_hash: await hashPassword(input.password) } : {}),
        ...(expiresAt !== row.quota_expires_at ? { expire_warning_notice: 0, expire_notice: 0 } : {}),
        ...(warningChanged ? { warning_notice: 0, expire_warning_notice: 0 } : {}),
        updated_at: Date.now(),
      })
      .where('user_id', '=', row.user_id)
      .execute();
    if (input.password || input.status !== Status.Normal) await revokeUserSessions(ctx, row.user_id);
    await publishUsers(ctx, [row.user_id]);
  });

  post(app, `${prefix}/change/quota/expire`, { schema: changeQuotaExpireSchema, roles }, async (input, request) => {
    const c = callerOf(request);
    const [row] = (await res.visible(c, [input.id])) as UserRow[];
    const expiresAt = expiry(input.quota_expires_at, true) ?? null;
    await db.updateTable('users').set({ quota_expires_at: expiresAt, expire_warning_notice: 0, expire_notice: 0, updated_at: Date.now() }).where('user_id', '=', row!.user_id).execute();
    await publishUsers(ctx, [row!.user_id]);
  });

  post(app, `${prefix}/change/status`, { schema: changeStatusSchema, roles }, async (input, request) => {
    const c = callerOf(request);
    const [row] = (await res.visible(c, [input.id])) as UserRow[];
    await setStatus(c, [row!], input.status);
  });

  const setStatus = async (_c: Caller, rows: UserRow[], status: number) => {
    const ids = rows.map((r) => r.user_id);
    await db.updateTable('users').set({ status, updated_at: Date.now() }).where('user_id', 'in', ids).execute();
    // A disabled account is signed out everywhere (sessions also check the status).
    if (status !== Status.Normal) await revokeUserSessions(ctx, ids);
    await publishUsers(ctx, ids);
  };

  post(app, `${prefix}/delete`, { schema: userDeleteSchema, roles }, async (input, request) => {
    const c = callerOf(request);
    const rows = (await res.visible(c, input.ids?.length ? input.ids : [input.id!])) as UserRow[];
    await deleteAccounts(ctx, rows, input.data, kind);
  });

  get(app, `${prefix}/detail`, { schema: idSchema, roles }, (input, request) => res.detail(callerOf(request), input.id));

  post(app, `${prefix}/page`, { schema: userPageSchema, roles }, (input, request) => res.page(callerOf(request), input));

  get(app, `${prefix}/list`, { schema: userPageSchema.pick({ user_id: true, name: true, status: true }), roles }, async (input, request) => {
    let q = (await res.scoped(callerOf(request))).select(['id', 'user_id', 'account', 'name']);
    if (input.user_id) q = q.where('user_id', '=', input.user_id);
    if (input.status) q = q.where('status', '=', input.status);
    q = contains(q, 'name', input.name);
    return { items: (await q.orderBy('user_id', 'desc').limit(1000).execute()) as UserOption[] };
  });

  post(app, `${prefix}/recharge`, { schema: rechargeSchema, roles }, async (input, request) => {
    await requireStepUp(request);
    const c = callerOf(request);
    const target = await byUserId(c, input.user_id);
    const expiresAt = input.quota_expires_at ? expiry(input.quota_expires_at, true) : undefined;
    await runMoves(c, [movement(c, target, input.quota, input.quota_type, expiresAt, input.remark)], input.is_send_notice);
  });

  // For an account that lost its authenticator and its recovery codes: two-factor off, sessions ended;
  // the owner enrols again. Changes another account's sign-in, so a fresh second factor first.
  post(app, `${prefix}/two-factor/reset`, { schema: idSchema, roles }, async (input, request) => {
    await requireStepUp(request);
    const [row] = (await res.visible(callerOf(request), [input.id])) as UserRow[];
    if (!(await twoFactorEnabled(ctx, row!.user_id))) throw businessError('two_factor.not_enabled');
    await removeTwoFactor(ctx, row!.user_id);
    await revokeUserSessions(ctx, row!.user_id);
  });

  post(app, `${prefix}/permissions`, { schema: permissionsSchema, roles }, async (input, request) => {
    const c = callerOf(request);
    const target = await byUserId(c, input.user_id);
    const stored = userResource.decode(target);
    const held = new Set([...stored.groups, ...stored.models]);
    await checkGrants(c, target, input.groups.filter((g) => !held.has(g)), input.models.filter((m) => !held.has(m)));
    await db
      .updateTable('users')
      .set({ ...userResource.encodePartial({ groups: [...new Set(input.groups)], models: [...new Set(input.models)] }), updated_at: Date.now() })
      .where('user_id', '=', target.user_id)
      .execute();
    await publishUsers(ctx, [target.user_id]);
  });

  post(app, `${prefix}/batch/operate`, { schema: batchSchema.loose(), roles }, async (input, request) => {
    const c = callerOf(request);
    if (!input.ids.length) throw invalidField('ids', 'empty');
    if (input.action === 'recharge') {
      await requireStepUp(request);
      const r = batchRechargeSchema.safeParse(input);
      if (!r.success) throw invalidField(String(r.error.issues[0]?.path[0] ?? 'value'), r.error.issues[0]?.message ?? '');
      const rows = (await res.visible(c, r.data.ids)) as UserRow[];
      const expiresAt = r.data.quota_expires_at ? expiry(r.data.quota_expires_at, true) : undefined;
      return runMoves(c, rows.map((row) => movement(c, row, r.data.value, r.data.quota_type, expiresAt)), r.data.is_send_notice);
    }
    if (input.action === 'status') {
      const status = changeStatusSchema.shape.status.safeParse(input.value);
      if (!status.success) throw invalidField('value', '1 | 2');
      return setStatus(c, (await res.visible(c, input.ids)) as UserRow[], status.data);
    }
    if (input.action === 'delete') {
      const data = userDeleteSchema.safeParse({ ids: input.ids, data: (input as { data?: unknown }).data ?? [] });
      if (!data.success) throw invalidField('data', 'int[]');
      return deleteAccounts(ctx, (await res.visible(c, input.ids)) as UserRow[], data.data.data, kind);
    }
    throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'action', detail: input.action });
  });
}

export const adminUserRoutes = (app: FastifyInstance) => managedUserRoutes(app, 'user');
export const adminResellerRoutes = (app: FastifyInstance) => managedUserRoutes(app, 'reseller');

