// App keys at rest and on the wire (docs/ORIGINAL-API.md §3.3): the scoped resource behind `/key` type 1 and
// `/app/key/*`, and the writes both use. Keys are sealed (security/api-keys.ts): the gateway finds a
// key by hash in its snapshot, lists show the mask, and only callers in scope ever get the plaintext.
import { APP_KEY_DEFAULTS, QuotaExpiresRule, appKeyResource, type AppKey, type AppKeySettings } from '@fastgate/core/entities/app-key';
import { KeyType, keyPageSchema, type KeyFilter } from '@fastgate/core/entities/provider-key';
import type { SelectQueryBuilder, Updateable } from 'kysely';
import { holdsAny } from '../catalogue/links';
import type { Ctx } from '../context';
import type { AppKeyRow, AppRow, Database } from '../db/schema';
import { contains, resource, type Caller } from '../http/crud';
import { businessError, invalidField, notFound } from '../http/errors';
import { newId } from '../http/ids';
import { formatTime } from '../http/time';
import { sealKey } from '../security/api-keys';
import { ownerScope } from './owner-scope';
import { inTimeRange, keyMatches } from './record-filters';
import { checkLimits, limitExtras, limitWire, refNames } from './usage-limits';

type AnyQuery = SelectQueryBuilder<any, any, any>;
/** Settings columns of a key (the sealed key, owner and app are set once, on insert). */
type KeyColumns = Updateable<Database['app_keys']>;

function appKeyFilter(ctx: Ctx, q: AnyQuery, f: KeyFilter): AnyQuery {
  let out = keyMatches(q, f.key);
  if (f.user_id) out = out.where('user_id', '=', f.user_id);
  if (f.app_id) out = out.where('app_id', '=', f.app_id);
  const models = holdsAny('models', f.models);
  if (models) out = out.where(models);
  // Dollars meaning "below", and only keys that have a quota at all (docs/ORIGINAL-API.md §2.5).
  if (f.quota !== undefined) out = out.where('is_limit_quota', '=', 1).where('quota', '<', f.quota);
  if (f.status) out = out.where('status', '=', f.status);
  out = contains(out, 'remark', f.remark);
  return inTimeRange(ctx, inTimeRange(ctx, out, 'quota_expires_at', f.quota_expires_at), 'created_at', f.created_at);
}

/** The scoped rows behind `/key` type 1 (http/crud.ts `resource`). */
export function appKeyRows(ctx: Ctx) {
  return resource(ctx, {
    table: 'app_keys',
    scope: (q, c) => ownerScope(q, c),
    page: { schema: keyPageSchema, filter: (q, f) => appKeyFilter(ctx, q, f), order: [['status', 'asc'], ['updated_at', 'desc'], ['key_mask', 'asc']] },
    prepare: async (rows: AppKeyRow[]) => {
      const appIds = [...new Set(rows.map((r) => r.app_id))];
      const apps = appIds.length ? await ctx.db.selectFrom('apps').select(['app_id', 'name']).where('app_id', 'in', appIds).execute() : [];
      return { refs: await refNames(ctx, rows), apps: new Map(apps.map((a) => [a.app_id, a.name])) };
    },
    toWire: (row: AppKeyRow, _c, view, { refs, apps }): AppKey => ({
      id: row.id,
      type: KeyType.App,
      user_id: row.user_id,
      app_id: row.app_id,
      app_name: apps.get(row.app_id) ?? '',
      // The scope already limits rows to the owner, its reseller and admins: they may see the key.
      key: view === 'detail' ? ctx.secrets.decrypt(row.key_cipher) : row.key_mask,
      ...appKeyResource.decode(row),
      ...limitWire(ctx, row, refs),
      created_at: formatTime(row.created_at, ctx.config.timeZone),
      updated_at: formatTime(row.updated_at, ctx.config.timeZone),
    }),
  });
}
export type AppKeyRows = ReturnType<typeof appKeyRows>;

/** The app `app_id` if the caller may see it (a user: its own), else "not found". */
export async function visibleApp(c: Caller, appId: number, userId?: number): Promise<AppRow> {
  const app = (await ownerScope(c.ctx.db.selectFrom('apps').selectAll(), c).where('app_id', '=', appId).executeTakeFirst()) as AppRow | undefined;
  if (!app || (userId !== undefined && app.user_id !== userId)) throw notFound();
  return app;
}

/**
 * Columns for `settings` on a key of `owner`, for the settings present (a batch update changes only
 * what it names). Expiry rule 2 runs from the first call, so its `quota_expires_at` stays empty until
 * the gateway records `first_used_at` (then it is the effective expiry, which is all the gateway compares).
 */
export async function settingsColumns(ctx: Ctx, owner: number, s: AppKeySettings): Promise<KeyColumns> {
  await checkLimits(ctx, owner, s);
  return { ...appKeyResource.encodePartial(s), ...limitExtras(ctx, s) };
}

/** The expiry columns a row ends up with after `cols`, checking rule 2 has its minutes. */
export function expiryColumns(row: Pick<AppKeyRow, 'quota_expires_rule' | 'quota_expires_minutes' | 'first_used_at' | 'quota_expires_at'> | undefined, cols: KeyColumns): KeyColumns {
  const rule = cols.quota_expires_rule ?? row?.quota_expires_rule ?? QuotaExpiresRule.Fixed;
  if (rule !== QuotaExpiresRule.Duration) return {};
  const minutes = cols.quota_expires_minutes ?? row?.quota_expires_minutes ?? 0;
  if (minutes < 1) throw invalidField('quota_expires_minutes', '>= 1');
  return { quota_expires_at: row?.first_used_at ? row.first_used_at + minutes * 60_000 : null };
}

/** Stores new keys of one app with `settings` (defaults for the rest); returns their ids. */
export async function insertAppKeys(ctx: Ctx, app: Pick<AppRow, 'user_id' | 'app_id'>, keys: string[], settings: AppKeySettings): Promise<string[]> {
  const cols = await settingsColumns(ctx, app.user_id, { ...APP_KEY_DEFAULTS, ...settings });
  Object.assign(cols, expiryColumns(undefined, cols));
  const hashes = keys.map((k) => sealKey(ctx.secrets, k));
  const taken = await ctx.db.selectFrom('app_keys').select('id').where('key_hash', 'in', hashes.map((h) => h.key_hash)).executeTakeFirst();
  if (taken) throw businessError('key.exists');
  const now = Date.now();
  const rows = hashes.map((sealed) => ({ id: newId(), user_id: app.user_id, app_id: app.app_id, ...sealed, ...cols, created_at: now, updated_at: now }));
  await ctx.db.transaction().execute(async (trx) => {
    // Chunks keep each statement under SQLite's bound-parameter limit.
    for (let i = 0; i < rows.length; i += 200) await trx.insertInto('app_keys').values(rows.slice(i, i + 200) as never).execute();
  });
  const ids = rows.map((r) => r.id);
  ctx.bus.publish({ entity: 'app_keys', op: 'create', ids });
  return ids;
}

/** Applies `settings` to existing keys; owners are checked once each (models and groups they may use). */
export async function updateAppKeys(ctx: Ctx, keys: AppKeyRow[], settings: AppKeySettings): Promise<void> {
  if (!keys.length) return;
  const byOwner = new Map<number, KeyColumns>();
  for (const k of keys) if (!byOwner.has(k.user_id)) byOwner.set(k.user_id, await settingsColumns(ctx, k.user_id, settings));
  const updates = keys.map((k) => {
    const cols = byOwner.get(k.user_id)!;
    return { id: k.id, values: { ...cols, ...expiryColumns(k, cols) } };
  });
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    for (const u of updates) await trx.updateTable('app_keys').set({ ...u.values, updated_at: now }).where('id', '=', u.id).execute();
  });
  ctx.bus.publish({ entity: 'app_keys', op: 'update', ids: updates.map((u) => u.id) });
}
