// Read-only model views for every role: the corp → type → model tree of the pickers, and the models
// granted to one record (`/model/permissions`, docs/ORIGINAL-API.md §3.5). Non-admins only see models they may use.
import { ids } from '@fastgate/core/resource';
import { ANY_ROLE, Status } from '@fastgate/core/constants';
import { INT4_MAX } from '@fastgate/core/schemas/common';
import { MODEL_PREFIX, MODEL_TYPE_LABELS, modelPermissionsSchema, type ModelListItem, type ModelTreeNode, type ModelTypeValue } from '@fastgate/core/entities/model';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { availableGroups } from '../catalogue/access';
import { callerOf, type Caller } from '../http/crud';
import { notFound } from '../http/errors';
import { get, post } from '../http/route';
import { billingOf } from './model-wire';

const LIST_COLUMNS = ['id', 'corp', 'name', 'model', 'type', 'status'] as const;

/** Model ids the caller may see; undefined = all (admin). */
async function visibleIds(c: Caller): Promise<Set<string> | undefined> {
  return c.session.role === 'admin' ? undefined : new Set((await billingOf(c)).keys());
}

/** The id list stored on the record `action` names, if the caller may see that record. */
async function grantedIds(c: Caller, action: string, id: string): Promise<string[]> {
  const db = c.ctx.db as unknown as Kysely<any>;
  const me = c.session.user;
  const role = c.session.role;
  const byId = (table: string, numeric?: string) =>
    // A numeric id may also be a user_id / app_id (integer columns: larger numbers are no such id).
    db.selectFrom(table).selectAll().where((eb) => (numeric && /^\d{1,10}$/.test(id) && Number(id) <= INT4_MAX ? eb.or([eb('id', '=', id), eb(numeric, '=', Number(id))]) : eb('id', '=', id)));
  // Scope: admin any; reseller itself, its users and their apps/keys; user itself and its own apps/keys.
  const owners = async (): Promise<number[] | undefined> => {
    if (role === 'admin') return undefined;
    if (role === 'user') return [me.user_id];
    const users = await c.ctx.db.selectFrom('users').select('user_id').where('rid', '=', me.user_id).execute();
    return [me.user_id, ...users.map((u) => u.user_id)];
  };
  let row: Record<string, unknown> | undefined;
  if (action === 'group') {
    const g = await c.ctx.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
    const mine = g && (role === 'admin' || (role === 'reseller' && g.user_id === me.user_id) || (await availableGroups(c.ctx, me)).some((x) => x.id === g.id));
    row = mine ? g : undefined;
  } else if (action === 'agent' || action === 'fallback') {
    row = role === 'admin' ? await c.ctx.db.selectFrom('model_agents').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    if (row && action === 'fallback') row = { models: row.fallback_models };
  } else {
    const table = action === 'user' ? 'users' : action === 'app' ? 'apps' : 'app_keys';
    const allowed = await owners();
    let q = byId(table, action === 'user' ? 'user_id' : action === 'app' ? 'app_id' : undefined);
    if (allowed) q = q.where('user_id', 'in', allowed);
    row = await q.executeTakeFirst();
    // Corp-era `/key` holds model keys too (admin only).
    if (!row && action === 'key' && role === 'admin') row = await c.ctx.db.selectFrom('provider_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }
  if (!row) throw notFound();
  return ids.decode(row.models as string);
}

export async function modelViewRoutes(app: FastifyInstance) {
  const { ctx } = app;

  // A read over POST (the original's verb): nothing to audit.
  post(app, `${MODEL_PREFIX}/permissions`, { schema: modelPermissionsSchema, roles: [ANY_ROLE], audit: false }, async (f, request) => {
    const c = callerOf(request);
    const granted = await grantedIds(c, f.action, f.id);
    const visible = await visibleIds(c);
    const ids = visible ? granted.filter((id) => visible.has(id)) : granted;
    if (!ids.length) return { items: [] };
    let q = ctx.db.selectFrom('models').select(LIST_COLUMNS).where('id', 'in', ids);
    if (f.corp) q = q.where('corp', '=', f.corp);
    if (f.type) q = q.where('type', '=', f.type);
    if (f.status) q = q.where('status', '=', f.status);
    for (const col of ['name', 'model'] as const) if (f[col]) q = q.where(sql<boolean>`lower(${sql.ref(col)}) like ${`%${f[col]!.toLowerCase()}%`}`);
    const items: ModelListItem[] = await q.orderBy('status', 'asc').orderBy('name', 'asc').execute();
    return { items };
  });

  // Tree-select data (docs/ORIGINAL-API.md §3.5): enabled models under their corp (by corp sort), then type.
  get(app, `${MODEL_PREFIX}/tree`, { roles: [ANY_ROLE] }, async (_input, request) => {
    const c = callerOf(request);
    const visible = await visibleIds(c);
    const rows = await ctx.db
      .selectFrom('models')
      .innerJoin('corps', 'corps.id', 'models.corp')
      .select(['models.id', 'models.name', 'models.type', 'models.corp', 'corps.name as corp_name'])
      .where('models.status', '=', Status.Normal)
      .orderBy('corps.sort', 'asc')
      .orderBy('models.type', 'asc')
      .orderBy('models.name', 'asc')
      .execute();
    const corps = new Map<string, ModelTreeNode & { children: ModelTreeNode[] }>();
    for (const m of rows) {
      if (visible && !visible.has(m.id)) continue;
      let corp = corps.get(m.corp);
      if (!corp) corps.set(m.corp, (corp = { title: m.corp_name, value: m.corp, key: m.corp, children: [] }));
      const typeKey = `${m.corp}:${m.type}`;
      let type = corp.children.find((t) => t.key === typeKey);
      if (!type) corp.children.push((type = { title: MODEL_TYPE_LABELS[m.type as ModelTypeValue]?.[c.locale] ?? String(m.type), value: typeKey, key: typeKey, children: [] }));
      type.children!.push({ title: m.name, value: m.id, key: m.id });
    }
    return { items: [...corps.values()] };
  });
}
