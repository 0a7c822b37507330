// /api/v1/app: apps for every role, each seeing only its scope (docs/SPEC.md §6): a user its own apps, a
// reseller its users' and its own, an admin all. Deleting an app deletes its keys.
import { APP_KEY_PREFIX } from '@fastgate/core/entities/app-key';
import { APP_PREFIX, appCreateSchema, appPageSchema, appResource, appUpdateSchema, type App, type AppFields, type AppOption } from '@fastgate/core/entities/app';
import { ANY_ROLE } from '@fastgate/core/constants';
import type { FastifyInstance } from 'fastify';
import { holdsAny } from '../catalogue/links';
import type { Ctx } from '../context';
import type { AppRow } from '../db/schema';
import { contains, registerCrud, type Caller } from '../http/crud';
import { formatTime } from '../http/time';
import { generateAppKey, hashKey } from '../security/api-keys';
import { insertAppKeys } from './app-keys';
import { ownerFor, ownerScope } from './owner-scope';
import { inTimeRange } from './record-filters';
import { checkLimits, expiryOf, limitExtras, limitWire, refNames } from './usage-limits';

/** The row values of a whole app input; the caller has checked its limits (`checkLimits`). */
export const appColumns = (ctx: Ctx, input: AppFields) => ({ ...appResource.encode(input), group_id: input.group, quota_expires_at: expiryOf(ctx, input.quota_expires_at) });

export async function appRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db, config } = ctx;

  registerCrud(app, {
    prefix: APP_PREFIX,
    table: 'apps',
    roles: { create: [ANY_ROLE], update: [ANY_ROLE], delete: [ANY_ROLE], detail: [ANY_ROLE], page: [ANY_ROLE], list: [ANY_ROLE], status: [ANY_ROLE], batch: [ANY_ROLE] },
    scope: (q, c) => ownerScope(q, c),
    create: {
      schema: appCreateSchema,
      toRow: async ({ user_id, is_create_key: _k, ...input }, c: Caller) => {
        const owner = await ownerFor(c, user_id);
        await checkLimits(ctx, owner, input);
        return { ...appColumns(ctx, input), user_id: owner };
      },
      // Answers {id, app_id} and, with is_create_key, the first key (stored with default settings;
      // the app's own limits already apply to it).
      after: async (row: AppRow, input) => {
        if (!input.is_create_key) return { app_id: row.app_id };
        const key = generateAppKey(APP_KEY_PREFIX);
        await insertAppKeys(ctx, row, [key], {});
        return { app_id: row.app_id, key };
      },
    },
    update: {
      schema: appUpdateSchema,
      // Partial: an update without `rate_limits` keeps the stored limits.
      toRow: async ({ id: _id, ...input }, existing: AppRow) => {
        await checkLimits(ctx, existing.user_id, input);
        return { ...appResource.encodePartial(input), ...limitExtras(ctx, input) };
      },
    },
    beforeDelete: async (rows) => {
      const appIds = rows.map((r) => r.app_id);
      const keys = await db.deleteFrom('app_keys').where('app_id', 'in', appIds).returning('id').execute();
      if (keys.length) ctx.bus.publish({ entity: 'app_keys', op: 'delete', ids: keys.map((k) => k.id) });
    },
    page: {
      schema: appPageSchema,
      filter: (q, f) => {
        let out = contains(contains(q, 'name', f.name), 'remark', f.remark);
        if (f.user_id) out = out.where('user_id', '=', f.user_id);
        if (f.app_id) out = out.where('app_id', '=', f.app_id);
        if (f.status) out = out.where('status', '=', f.status);
        const models = holdsAny('models', f.models);
        if (models) out = out.where(models);
        // A full key finds its app (keys are only stored hashed and encrypted).
        if (f.app_key) out = out.where('app_id', 'in', db.selectFrom('app_keys').select('app_id').where('key_hash', '=', hashKey(f.app_key)));
        return inTimeRange(ctx, out, 'quota_expires_at', f.quota_expires_at);
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    prepare: (rows: AppRow[]) => refNames(ctx, rows),
    toWire: (row: AppRow, _c, _view, refs): App => ({
      id: row.id,
      app_id: row.app_id,
      user_id: row.user_id,
      ...appResource.decode(row),
      ...limitWire(ctx, row, refs),
      created_at: formatTime(row.created_at, config.timeZone),
      updated_at: formatTime(row.updated_at, config.timeZone),
    }),
    list: (q) => q.select(['id', 'app_id', 'user_id', 'name']).orderBy('app_id', 'desc').execute() as Promise<AppOption[]>,
  });
}
