// /api/v1/app/{create/key, key/config, key/batch/operate, key/export}: the corp era's app-key writes
// (docs/ORIGINAL-API.md §1.3, §3.3). Reads go through `/key` with type 1. Every call is scoped like apps: a user
// only ever reaches its own apps and keys.
import { ANY_ROLE, type Locale } from '@fastgate/core/constants';
import {
  APP_KEY_PATHS,
  APP_KEY_PREFIX,
  QuotaExpiresRule,
  appKeyBatchActionSchema,
  appKeyBatchSchemas,
  appKeyConfigSchema,
  appKeyExportSchema,
  appKeyGenerateSchema,
} from '@fastgate/core/entities/app-key';
import { t } from '@fastgate/core/messages';
import { quotaToUsd } from '@fastgate/core/money';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { requireStepUp } from '../auth/step-up';
import type { Ctx } from '../context';
import type { AppKeyRow } from '../db/schema';
import { callerOf, type Caller } from '../http/crud';
import { invalidField } from '../http/errors';
import { post } from '../http/route';
import { formatTime } from '../http/time';
import { parse } from '../http/validate';
import { sendXlsx } from '../http/xlsx';
import { generateAppKey } from '../security/api-keys';
import { appKeyRows, insertAppKeys, updateAppKeys, visibleApp, type AppKeyRows } from './app-keys';

const anyone = [ANY_ROLE] as const;
/** The file name the original console saves exports under (docs/ORIGINAL-API.md §2.9). */
const APP_KEY_EXPORT_FILE = '应用密钥.xlsx';

export async function appKeyRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  const keys = appKeyRows(ctx);

  // Step 1 of creating a key: a fresh value for an app the caller may see; nothing is stored yet (so
  // nothing to audit; step 2 is recorded).
  post(app, APP_KEY_PATHS.generate, { schema: appKeyGenerateSchema, roles: anyone, audit: false }, async (input, request) => {
    const target = await visibleApp(callerOf(request), input.app_id, input.user_id);
    return { app_id: target.app_id, key: generateAppKey(APP_KEY_PREFIX) };
  });

  // Step 2: store that value with its settings (no id), or update a key's settings (id; the key and
  // its app never change, so values sent back for them are ignored).
  post(app, APP_KEY_PATHS.config, { schema: appKeyConfigSchema, roles: anyone }, async (input, request) => {
    const c = callerOf(request);
    const { id, app_id, user_id, key, ...settings } = input;
    if (id) {
      await updateAppKeys(ctx, await keys.visible(c, [id]), settings);
      return null;
    }
    if (!app_id) throw invalidField('app_id', 'required');
    if (!key) throw invalidField('key', 'required');
    await insertAppKeys(ctx, await visibleApp(c, app_id, user_id), [key], settings);
    return { key };
  });

  post(app, APP_KEY_PATHS.batch, { schema: appKeyBatchActionSchema.loose(), roles: anyone }, async (body, request) => {
    const c = callerOf(request);
    return batch(ctx, keys, c, body.action, body);
  });

  // Exports every key in full: a fresh second factor first (auth/step-up.ts).
  post(app, APP_KEY_PATHS.export, { schema: appKeyExportSchema, roles: anyone }, async (input, request, reply) => {
    await requireStepUp(request);
    const c = callerOf(request);
    let q = await keys.scoped(c);
    if (input.ids?.length) q = q.where('id', 'in', input.ids);
    if (input.user_id) q = q.where('user_id', '=', input.user_id);
    if (input.app_id) q = q.where('app_id', '=', input.app_id);
    const base = q;
    // Keyset batches: a large export never holds every row in memory.
    async function* batches() {
      for (let last = ''; ; ) {
        const rows = (await base.selectAll().where('id', '>', last).orderBy('id').limit(500).execute()) as AppKeyRow[];
        if (!rows.length) return;
        yield await exportRows(ctx, c.locale, rows);
        last = rows[rows.length - 1]!.id;
      }
    }
    const header = (key: Parameters<typeof t>[0]) => t(key, c.locale);
    return sendXlsx(
      reply,
      {
        filename: APP_KEY_EXPORT_FILE,
        sheet: header('export.app_keys'),
        columns: [
          { header: header('export.user_id'), key: 'user_id', width: 10 },
          { header: header('export.app_id'), key: 'app_id', width: 10 },
          { header: header('export.app_name'), key: 'app_name', width: 20 },
          { header: header('export.key'), key: 'key', width: 56 },
          { header: header('export.quota_usd'), key: 'quota', width: 14 },
          { header: header('export.expires_at'), key: 'expires_at', width: 22 },
          { header: header('export.remark'), key: 'remark', width: 30 },
        ],
      },
      batches(),
    );
  });
}

async function exportRows(ctx: Ctx, locale: Locale, rows: AppKeyRow[]) {
  const appIds = [...new Set(rows.map((r) => r.app_id))];
  const apps = new Map((await ctx.db.selectFrom('apps').select(['app_id', 'name']).where('app_id', 'in', appIds).execute()).map((a) => [a.app_id, a.name]));
  return rows.map((r) => ({
    user_id: r.user_id,
    app_id: r.app_id,
    app_name: apps.get(r.app_id) ?? '',
    // Exported in full: the caller may see every key in its scope, and this is what exports are for.
    key: ctx.secrets.decrypt(r.key_cipher),
    quota: r.is_limit_quota ? quotaToUsd(r.quota) : t('export.unlimited', locale),
    expires_at:
      formatTime(r.quota_expires_at, ctx.config.timeZone) ||
      (r.quota_expires_rule === QuotaExpiresRule.Duration ? t('export.after_first_use', locale, { minutes: r.quota_expires_minutes }) : ''),
    remark: r.remark,
  }));
}

/** `/app/key/batch/operate` (docs/ORIGINAL-API.md §2.8); each action's payload is checked by its own schema. */
async function batch(ctx: Ctx, keys: AppKeyRows, c: Caller, action: keyof typeof appKeyBatchSchemas, body: unknown) {
  const input = <S extends z.ZodType>(schema: S) => parse(schema, body, c.locale);
  const schemas = appKeyBatchSchemas;
  switch (action) {
    case 'create': {
      const { app_id, user_id, n, ...settings } = input(schemas.create);
      const target = await visibleApp(c, app_id, user_id);
      const created = Array.from({ length: n }, () => generateAppKey(APP_KEY_PREFIX));
      await insertAppKeys(ctx, target, created, settings);
      return { keys: created.join('\n') };
    }
    case 'update': {
      const { ids, ...settings } = input(schemas.update);
      return updateAppKeys(ctx, await keys.visible(c, ids), settings);
    }
    case 'status': {
      const { ids, value } = input(schemas.status);
      return keys.setStatus(c, ids, value);
    }
    case 'delete':
      return keys.remove(c, input(schemas.delete).ids);
    case 'all-update': {
      const { query_params, ...settings } = input(schemas['all-update']);
      return updateAppKeys(ctx, await keys.matching(c, query_params), settings);
    }
    case 'all-status': {
      const { query_params, value } = input(schemas['all-status']);
      return keys.updateMatching(c, query_params, { status: value });
    }
    case 'all-delete':
      return keys.removeMatching(c, input(schemas['all-delete']).query_params);
  }
}
