// /api/v1/app: apps for every role, each seeing only its scope (SPEC §6): a user its own apps, a
// reseller its users' and its own, an admin all. Deleting an app deletes its keys.
import { APP_KEY_PREFIX } from '@fastgate/core/entities/app-key';
import { APP_PREFIX, appCreateSchema, appPageSchema, appUpdateSchema, type App, type AppOption } from '@fastgate/core/entities/app';
import { ANY_ROLE } from '@fastgate/core/constants';
import type { FastifyInstance } from 'fastify';
import { holdsAny } from '../catalogue/links';
import type { AppRow } from '../db/schema';
import { contains, registerCrud, type Caller } from '../http/crud';
import { formatTime } from '../http/time';
import { generateAppKey, hashKey } from '../security/api-keys';
import { insertAppKeys } from './app-keys';
import { ownerFor, ownerScope } from './owner-scope';
import { inTimeRange } from './record-filters';
import { limitColumns, limitWire, refNames, type LimitInput } from './usage-limits';

export async function appRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const { db, config } = ctx;

  const columns = async (owner: number, input: LimitInput & { name: string; remark: string; status: number }) => ({
    ...(await limitColumns(ctx, owner, input)),
    name: input.name,
    remark: input.remark,
    status: input.status,
  });

  registerCrud(app, {
    prefix: APP_PREFIX,
    table: 'apps',
    roles: { create: [ANY_ROLE], update: [ANY_ROLE], delete: [ANY_ROLE], detail: [ANY_ROLE], page: [ANY_ROLE], list: [ANY_ROLE], status: [ANY_ROLE], batch: [ANY_ROLE] },
    scope: (q, c) => ownerScope(q, c),
    create: {
      schema: appCreateSchema,
      toRow: async ({ user_id, is_create_key: _k, ...input }, c: Caller) => {
        const owner = await ownerFor(c, user_id);
        return { user_id: owner, ...(await columns(owner, input)) };
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
      toRow: ({ id: _id, ...input }, existing: AppRow) => columns(existing.user_id, input),
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
      name: row.name,
      remark: row.remark,
      ...limitWire(ctx, row, refs),
      status: row.status,
      created_at: formatTime(row.created_at, config.timeZone),
      updated_at: formatTime(row.updated_at, config.timeZone),
    }),
    list: (q) => q.select(['id', 'app_id', 'user_id', 'name']).orderBy('app_id', 'desc').execute() as Promise<AppOption[]>,
  });
}
