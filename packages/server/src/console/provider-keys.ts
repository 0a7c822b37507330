// Model (provider) keys at rest and on the wire (docs/ORIGINAL-API.md §3.4): `/key` type 2, admins only. Sealed
// like app keys; the gateway decrypts them from its snapshot, lists and detail show the mask.
import { KeyType, keyPageSchema, providerKeyResource, type KeyFilter, type ModelKey } from '@fastgate/core/entities/provider-key';
import { flag, ids, type Fields } from '@fastgate/core/resource';
import type { modelKeyCreateSchema, modelKeyUpdateSchema } from '@fastgate/core/entities/provider-key';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { holdsAny, requireRows } from '../catalogue/links';
import type { Ctx } from '../context';
import type { ProviderKeyRow } from '../db/schema';
import { contains, resource, type Caller, type TableQuery } from '../http/crud';
import { businessError } from '../http/errors';
import { newId } from '../http/ids';
import { formatTime } from '../http/time';
import { sealKey } from '../security/api-keys';
import { inTimeRange, keyMatches } from './record-filters';

type Settings = Fields<typeof providerKeyResource>;

function modelKeyFilter(ctx: Ctx, q: TableQuery<'provider_keys'>, f: KeyFilter): TableQuery<'provider_keys'> {
  let out = keyMatches(q, f.key);
  if (f.corp) out = out.where('corp', '=', f.corp);
  for (const [column, wanted] of [['models', f.models], ['model_agents', f.model_agents]] as const) {
    const held = holdsAny(column, wanted);
    if (held) out = out.where(held);
  }
  if (f.quota !== undefined) out = out.where('is_limit_quota', '=', flag.encode(true)).where('quota', '<', f.quota);
  if (f.status) out = out.where('status', '=', f.status);
  out = contains(out, 'remark', f.remark);
  return inTimeRange(ctx, out, 'created_at', f.created_at);
}

async function names(ctx: Ctx, table: 'corps' | 'models' | 'model_agents', wanted: Set<string>): Promise<Map<string, string>> {
  if (!wanted.size) return new Map();
  const rows = await (ctx.db as unknown as Kysely<any>).selectFrom(table).select(['id', 'name']).where('id', 'in', [...wanted]).execute();
  return new Map(rows.map((r: { id: string; name: string }) => [r.id, r.name]));
}

export function modelKeyResource(ctx: Ctx) {
  return resource(ctx, {
    table: 'provider_keys',
    page: { schema: keyPageSchema, filter: (q, f) => modelKeyFilter(ctx, q, f), order: [['status', 'asc'], ['updated_at', 'desc'], ['key_mask', 'asc']] },
    prepare: async (rows: ProviderKeyRow[]) => ({
      corps: await names(ctx, 'corps', new Set(rows.map((r) => r.corp))),
      models: await names(ctx, 'models', new Set(rows.flatMap((r) => ids.decode(r.models)))),
      agents: await names(ctx, 'model_agents', new Set(rows.flatMap((r) => ids.decode(r.model_agents)))),
    }),
    toWire: (row: ProviderKeyRow, _c, _view, n): ModelKey => {
      const k = providerKeyResource.decode(row);
      return {
        id: row.id,
        type: KeyType.Model,
        ...k,
        corp_name: n.corps.get(k.corp) ?? '',
        // Masked in detail too (issue 11): the full key only through `/key/copy/field`, which is recorded.
        key: row.key_mask,
        model_names: k.models.flatMap((id) => n.models.get(id) ?? []),
        model_agent_names: k.model_agents.flatMap((id) => n.agents.get(id) ?? []),
        used_quota: row.used_quota,
        is_auto_disabled: flag.decode(row.is_auto_disabled),
        auto_disabled_reason: row.auto_disabled_reason,
        created_at: formatTime(row.created_at, ctx.config.timeZone),
        updated_at: formatTime(row.updated_at, ctx.config.timeZone),
      };
    },
  });
}
export type ModelKeyResource = ReturnType<typeof modelKeyResource>;

/** Column values of a key's settings, once the records they name exist; a repeated id is kept once. */
async function settingsColumns(ctx: Ctx, s: Settings) {
  await requireRows(ctx.db, 'corps', 'corp', [s.corp]);
  await requireRows(ctx.db, 'models', 'models', s.models);
  await requireRows(ctx.db, 'model_agents', 'model_agents', s.model_agents);
  return providerKeyResource.encode({ ...s, models: [...new Set(s.models)], model_agents: [...new Set(s.model_agents)] });
}

/** Refuses keys already stored (compared by hash, the plaintext is never queried). */
async function requireNew(ctx: Ctx, hashes: string[], except?: string) {
  let q = ctx.db.selectFrom('provider_keys').select('id').where('key_hash', 'in', hashes);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw businessError('key.exists');
}

/** One row per key line (docs/ORIGINAL-API.md §3.4); returns their ids. */
export async function createModelKeys(ctx: Ctx, input: z.infer<typeof modelKeyCreateSchema>): Promise<string[]> {
  const { key: keys, type: _type, ...settings } = input;
  const cols = await settingsColumns(ctx, settings);
  const sealed = keys.map((k) => sealKey(ctx.secrets, k));
  await requireNew(ctx, sealed.map((s) => s.key_hash));
  const now = Date.now();
  const rows = sealed.map((s) => ({ id: newId(), ...s, ...cols, used_quota: 0, is_auto_disabled: flag.encode(false), auto_disabled_reason: '', created_at: now, updated_at: now }));
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 200) await trx.insertInto('provider_keys').values(rows.slice(i, i + 200)).execute();
  });
  ctx.bus.publish({ entity: 'provider_keys', op: 'create', ids: rows.map((r) => r.id) });
  return rows.map((r) => r.id);
}

export async function updateModelKey(c: Caller, res: ModelKeyResource, input: z.infer<typeof modelKeyUpdateSchema>): Promise<void> {
  const { ctx } = c;
  const { id, key, type: _type, ...settings } = input;
  const [existing] = await res.visible(c, [id]);
  const values = await settingsColumns(ctx, settings);
  let sealed: ReturnType<typeof sealKey> | undefined;
  if (key) {
    sealed = sealKey(ctx.secrets, key);
    await requireNew(ctx, [sealed.key_hash], id);
  }
  await res.updateRows(c, [existing!], { ...values, ...sealed });
}
