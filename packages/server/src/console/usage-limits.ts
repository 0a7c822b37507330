// The limits apps and app keys share (docs/ORIGINAL-API.md §3.2, §3.3): the access checks, and the columns
// the resources' codecs (core entities/limit-columns.ts) leave to the server — the bound group and the
// epoch-ms expiry, so the gateway compares without parsing (docs/ORIGINAL-GATEWAY.md §1.2).
import type { Kysely } from 'kysely';
import type { Ctx } from '../context';
import type { AppRow } from '../db/schema';
import { availableGroups, availableModelIds } from '../catalogue/access';
import { limitColumns } from '@fastgate/core/entities/limit-columns';
import { requireKnown } from '../catalogue/links';
import { invalidField } from '../http/errors';
import { formatTime, parseWireTime } from '../http/time';

interface LimitInput {
  models?: string[];
  is_bind_group?: boolean;
  group?: string;
  quota_expires_at?: string;
}

/** The limit columns apps and app keys share (db/schema.ts), as stored. */
type LimitRow = Pick<AppRow, 'models' | 'group_id' | 'used_quota' | 'quota_expires_at'>;

/** "YYYY-MM-DD HH:mm:ss" → epoch ms; "" → null (never). */
export function expiryOf(ctx: Ctx, text: string, field = 'quota_expires_at'): number | null {
  if (!text) return null;
  const ms = parseWireTime(text, ctx.config.timeZone);
  if (ms === undefined) throw invalidField(field, text);
  return ms;
}

/**
 * The owner may use the models and the bound group `input` names (catalogue/access.ts), which also
 * proves they exist; a bound group must be named.
 */
export async function checkLimits(ctx: Ctx, ownerUserId: number, input: LimitInput): Promise<void> {
  const group = input.group ?? '';
  if (input.is_bind_group && !group) throw invalidField('group', 'required');
  if (input.models?.length || group) {
    const owner = await ctx.db.selectFrom('users').select(['role', 'user_id', 'rid', 'groups', 'models']).where('user_id', '=', ownerUserId).executeTakeFirstOrThrow();
    if (input.models?.length) requireKnown('models', input.models, new Set((await availableModelIds(ctx, owner)).keys()));
    if (group) requireKnown('group', [group], new Set((await availableGroups(ctx, owner)).map((g) => g.id)));
  }
}

/** The columns the codecs do not write, for the fields `input` holds: the bound group's id and the expiry in this server's time zone. */
export function limitExtras(ctx: Ctx, input: LimitInput): Partial<Pick<LimitRow, 'group_id' | 'quota_expires_at'>> {
  return {
    ...(input.group !== undefined ? { group_id: input.group } : {}),
    ...(input.quota_expires_at !== undefined ? { quota_expires_at: expiryOf(ctx, input.quota_expires_at) } : {}),
  };
}

interface RefNames {
  models: Map<string, string>;
  groups: Map<string, string>;
}

async function names(db: Kysely<any>, table: string, ids: Set<string>): Promise<Map<string, string>> {
  if (!ids.size) return new Map();
  const rows: { id: string; name: string }[] = await db.selectFrom(table).select(['id', 'name']).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Names of the models and groups a batch of rows refers to: two queries per page, not two per row. */
export async function refNames(ctx: Ctx, rows: readonly Pick<LimitRow, 'models' | 'group_id'>[]): Promise<RefNames> {
  const db = ctx.db as unknown as Kysely<any>;
  return {
    models: await names(db, 'models', new Set(rows.flatMap((r) => limitColumns.models.decode(r.models)))),
    groups: await names(db, 'groups', new Set(rows.map((r) => r.group_id).filter(Boolean))),
  };
}

/** The wire fields of a row's limits beside its decoded fields: the names they refer to, the bound group, the expiry and the balance used. */
export function limitWire(ctx: Ctx, row: LimitRow, refs: RefNames) {
  return {
    // A deleted model simply drops out of the names (its id is cleaned up by catalogue/links.ts).
    model_names: limitColumns.models.decode(row.models).flatMap((id) => refs.models.get(id) ?? []),
    group: row.group_id,
    group_name: refs.groups.get(row.group_id) ?? '',
    used_quota: row.used_quota,
    quota_expires_at: formatTime(row.quota_expires_at, ctx.config.timeZone),
  };
}
