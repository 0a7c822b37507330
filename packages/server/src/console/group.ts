// /api/v1/group (docs/ORIGINAL-API.md §3.8). Admins and resellers manage groups: an admin's carry user_id 0, a
// reseller's its own user_id, and a reseller only ever writes its own. Reading follows catalogue/access.ts:
// a user sees the groups it may use ("my group"); a reseller its own plus those it may use (`owned: true`
// narrows to its own, for its management page); an admin all.
// Default group: one per owner — setting one clears the owner's others in the same transaction. The
// original forced a default's weight to 99999; we keep the weight as entered (docs/SPEC.md §5: 1–100) and put
// defaults first by ordering instead, which is also the gateway's order (access.ts byPriority).
import { ANY_ROLE, ErrorCode, Status } from '@fastgate/core/constants';
import { GROUP_PREFIX, groupCreateSchema, groupExpireSchema, groupPageSchema, groupUpdateSchema, bpToFraction, type GroupCreate } from '@fastgate/core/entities/group';
import { flag } from '@fastgate/core/resource';
import { batchSchema, changePublicSchema, changeStatusSchema, idSchema } from '@fastgate/core/schemas/common';
import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { ADMIN_OWNER, availableGroups } from '../catalogue/access';
import { dropMembers, holdsAny, publishChanged } from '../catalogue/links';
import type { Database, GroupRow } from '../db/schema';
import { callerOf, contains, deleteSchema, resource, type Caller, type ResourceSpec } from '../http/crud';
import { AppError } from '../http/errors';
import { newId } from '../http/ids';
import { get, post } from '../http/route';
import { inTimeRange } from './record-filters';
import { requireAtFloor } from './reseller-floor';
import { checkGroupRefs, expiresAt, groupValues, groupWire, prepareGroups, type GroupPrepared } from './group-wire';

const MANAGERS = ['admin', 'reseller'] as const;
const ownerOf = (c: Caller) => (c.session.role === 'admin' ? ADMIN_OWNER : c.session.user.user_id);
const none = sql<boolean>`1 = 0`;

export async function groupRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const tz = ctx.config.timeZone;

  const base: Omit<ResourceSpec<'groups', unknown, typeof groupPageSchema, GroupPrepared>, 'scope'> = {
    table: 'groups',
    page: {
      schema: groupPageSchema,
      filter: (q, f, c) => {
        let out = contains(contains(q, 'name', f.name), 'remark', f.remark);
        if (f.status) out = out.where('status', '=', f.status);
        for (const [col, ids] of [['models', f.models], ['model_agents', f.model_agents]] as const) {
          const cond = holdsAny(col, ids);
          if (cond) out = out.where(cond);
        }
        if (f.owned && c.session.role !== 'admin') out = out.where('user_id', '=', ownerOf(c));
        // Quirk of the original (docs/ORIGINAL-API.md §2.5): `created_at` filters the expiry.
        return inTimeRange(ctx, out, 'expires_at', f.created_at);
      },
      order: [['status', 'asc'], ['is_default', 'desc'], ['weight', 'desc'], ['updated_at', 'desc']],
    },
    prepare: (rows) => prepareGroups(ctx, rows),
    toWire: (row, c, _view, p) => {
      const g = groupWire(row, p, tz);
      // Agents are admin-only records: others see that a group routes, not where.
      return c.session.role === 'admin' ? g : { ...g, model_agents: [], model_agent_names: [] };
    },
  };

  const readable = resource(ctx, {
    ...base,
    scope: async (q, c) => {
      if (c.session.role === 'admin') return q;
      const ids = (await availableGroups(ctx, c.session.user)).map((g) => g.id);
      if (c.session.role === 'reseller') return q.where((eb) => (ids.length ? eb.or([eb('user_id', '=', ownerOf(c)), eb('id', 'in', ids)]) : eb('user_id', '=', ownerOf(c))));
      return ids.length ? q.where('id', 'in', ids) : q.where(none);
    },
  });
  const writable = resource(ctx, {
    ...base,
    scope: (q, c) => (c.session.role === 'admin' ? q : q.where('user_id', '=', ownerOf(c))),
    beforeDelete: async (rows) => {
      const ids = rows.map((r) => r.id);
      publishChanged(ctx, await ctx.db.transaction().execute((trx) => dropMembers(ctx, trx, [['users', 'groups']], ids)));
      // Apps and app keys bound to a deleted group fall back to the account's groups.
      for (const table of ['apps', 'app_keys'] as const) {
        const bound = await ctx.db.updateTable(table).set({ group_id: '', is_bind_group: 0, updated_at: Date.now() }).where('group_id', 'in', ids).returning('id').execute();
        if (bound.length) ctx.bus.publish({ entity: table, op: 'update', ids: bound.map((b) => b.id) });
      }
    },
  });

  /** Writes a group; a new default clears the owner's other defaults in the same transaction. */
  async function save(c: Caller, input: GroupCreate, existing?: GroupRow): Promise<string> {
    await checkGroupRefs(ctx, c, input);
    const owner = existing?.user_id ?? ownerOf(c);
    await requireAtFloor(ctx, owner, input.discount);
    const id = existing?.id ?? newId();
    const cleared = await ctx.db.transaction().execute(async (trx: Transaction<Database>) => {
      const now = Date.now();
      const values = { ...groupValues(input, tz), updated_at: now };
      if (existing) await trx.updateTable('groups').set(values).where('id', '=', id).execute();
      else await trx.insertInto('groups').values({ ...values, id, user_id: owner, used_quota: 0, created_at: now }).execute();
      if (!input.is_default) return [];
      const others = await trx
        .updateTable('groups')
        .set({ is_default: flag.encode(false), updated_at: now })
        .where('user_id', '=', owner)
        .where('is_default', '=', flag.encode(true))
        .where('id', '!=', id)
        .returning('id')
        .execute();
      return others.map((o) => o.id);
    });
    writable.publish(existing ? 'update' : 'create', [id]);
    writable.publish('update', cleared);
    return id;
  }

  post(app, `${GROUP_PREFIX}/create`, { schema: groupCreateSchema, roles: MANAGERS }, async (input, request) => ({ id: await save(callerOf(request), input) }));

  post(app, `${GROUP_PREFIX}/update`, { schema: groupUpdateSchema, roles: MANAGERS }, async ({ id, ...input }, request) => {
    const c = callerOf(request);
    const [existing] = await writable.visible(c, [id]);
    await save(c, input, existing);
  });

  post(app, `${GROUP_PREFIX}/delete`, { schema: deleteSchema, roles: MANAGERS }, (input, request) => writable.remove(callerOf(request), input.ids?.length ? input.ids : [input.id!]));

  get(app, `${GROUP_PREFIX}/detail`, { schema: idSchema, roles: MANAGERS }, (input, request) => readable.detail(callerOf(request), input.id));

  post(app, `${GROUP_PREFIX}/page`, { schema: groupPageSchema, roles: [ANY_ROLE] }, (input, request) => readable.page(callerOf(request), input));

  // Pickers: the enabled groups the caller sees, in gateway order.
  get(app, `${GROUP_PREFIX}/list`, { roles: [ANY_ROLE] }, async (_input, request) => {
    const q = await readable.scoped(callerOf(request));
    const rows = (await q.select(['id', 'name', 'discount_bp', 'is_default', 'status']).where('status', '=', Status.Normal).orderBy('is_default', 'desc').orderBy('weight', 'desc').orderBy('updated_at', 'desc').execute()) as Pick<GroupRow, 'id' | 'name' | 'discount_bp' | 'is_default' | 'status'>[];
    return { items: rows.map((r) => ({ id: r.id, name: r.name, discount: bpToFraction(r.discount_bp), is_default: flag.decode(r.is_default), status: r.status })) };
  });

  post(app, `${GROUP_PREFIX}/change/status`, { schema: changeStatusSchema, roles: MANAGERS }, (input, request) => writable.setStatus(callerOf(request), [input.id], input.status));

  post(app, `${GROUP_PREFIX}/change/expire`, { schema: groupExpireSchema, roles: MANAGERS }, async (input, request) => {
    const c = callerOf(request);
    await writable.updateRows(c, await writable.visible(c, [input.id]), { expires_at: expiresAt(input.expires_at, tz) });
  });

  post(app, `${GROUP_PREFIX}/change/public`, { schema: changePublicSchema, roles: MANAGERS }, async (input, request) => {
    const c = callerOf(request);
    await writable.updateRows(c, await writable.visible(c, [input.id]), { is_public: flag.encode(input.is_public) });
  });

  post(app, `${GROUP_PREFIX}/batch/operate`, { schema: batchSchema, roles: MANAGERS }, async (input, request) => {
    const c = callerOf(request);
    if (input.action !== 'status' && input.action !== 'delete') throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'action', detail: input.action });
    if (!input.ids.length) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'ids', detail: 'empty' });
    if (input.action === 'delete') return writable.remove(c, input.ids);
    const status = changeStatusSchema.shape.status.safeParse(input.value);
    if (!status.success) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'value', detail: '1 | 2' });
    return writable.setStatus(c, input.ids, status.data);
  });
}
