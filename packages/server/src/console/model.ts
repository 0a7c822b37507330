// /api/v1/model (docs/ORIGINAL-API.md §3.5): admins manage models; resellers and users page, list and tree the
// models they may use ("my model", catalogue/access.ts) with the discount of their billing group.
import { ANY_ROLE } from '@fastgate/core/constants';
import { MODEL_PREFIX, modelCreateSchema, modelPageSchema, modelUpdateSchema, type ModelCreate } from '@fastgate/core/entities/model';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { dropMembers, publishChanged, setMembership, type LinkTable } from '../catalogue/links';
import type { Ctx } from '../context';
import type { ModelRow } from '../db/schema';
import { contains, registerCrud, type Caller } from '../http/crud';
import { modelBatch } from './model-batch';
import { modelViewRoutes } from './model-views';
import { billingOf, checkModelRefs, modelValues, modelWire, prepareModels } from './model-wire';
import { inTimeRange } from './record-filters';

const isAdmin = (c: Caller) => c.session.role === 'admin';

/** Where a model's id may still be named once it is deleted. */
const MODEL_REFS: (readonly [LinkTable, string])[] = [
  ['groups', 'models'],
  ['model_agents', 'models'],
  ['model_agents', 'fallback_models'],
  ['provider_keys', 'models'],
  ['users', 'models'],
  ['apps', 'models'],
  ['app_keys', 'models'],
];

/** Writes the model's group and agent links (stored on groups and agents) in one transaction. */
async function linkModel(ctx: Ctx, id: string, m: Pick<ModelCreate, 'groups' | 'model_agents'>): Promise<void> {
  const changed = await ctx.db.transaction().execute(async (trx) => [
    ['groups', await setMembership(ctx, trx, { table: 'groups', column: 'models' }, id, m.groups)] as [LinkTable, string[]],
    ['model_agents', await setMembership(ctx, trx, { table: 'model_agents', column: 'models' }, id, m.model_agents)] as [LinkTable, string[]],
  ]);
  publishChanged(ctx, changed);
}

export async function modelRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const tz = ctx.config.timeZone;

  registerCrud(app, {
    prefix: MODEL_PREFIX,
    table: 'models',
    roles: { page: [ANY_ROLE], list: [ANY_ROLE] },
    // Resellers and users only ever see the models they may use.
    scope: async (q, c) => {
      if (isAdmin(c)) return q;
      const ids = [...(await billingOf(c)).keys()];
      return ids.length ? q.where('id', 'in', ids) : q.where(sql<boolean>`1 = 0`);
    },
    create: {
      schema: modelCreateSchema,
      toRow: async (input) => {
        await checkModelRefs(ctx, input);
        return modelValues(input);
      },
      after: (row: ModelRow, input) => linkModel(ctx, row.id, input),
    },
    update: {
      schema: modelUpdateSchema,
      toRow: async ({ id: _id, ...input }) => {
        await checkModelRefs(ctx, input);
        return modelValues(input);
      },
      after: (row: ModelRow, input) => linkModel(ctx, row.id, input),
    },
    page: {
      schema: modelPageSchema,
      filter: (q, f, c) => {
        let out = contains(contains(contains(q, 'name', f.name), 'model', f.model), 'remark', f.remark);
        if (f.corp) out = out.where('corp', '=', f.corp);
        if (f.type) out = out.where('type', '=', f.type);
        if (f.status) out = out.where('status', '=', f.status);
        // Group membership lives on the group (catalogue/links.ts); `||` concatenates on both databases.
        if (f.group && isAdmin(c)) {
          out = out.where(({ exists, selectFrom }) =>
            exists(selectFrom('groups as g').select('g.id').where('g.id', '=', f.group!).where(sql<boolean>`g.models like '%"' || models.id || '"%'`)),
          );
        }
        return inTimeRange(ctx, out, 'created_at', f.created_at);
      },
      order: [['status', 'asc'], ['updated_at', 'desc'], ['name', 'asc']],
    },
    prepare: async (rows: ModelRow[], c) => prepareModels(ctx, rows, isAdmin(c) ? undefined : await billingOf(c)),
    toWire: (row: ModelRow, _c, _view, prepared) => modelWire(row, prepared, tz),
    // Pickers: id, corp, name, model, type, status (docs/ORIGINAL-API.md §3.5; no default status filter).
    list: (q) => q.select(['id', 'corp', 'name', 'model', 'type', 'status']).orderBy('status', 'asc').orderBy('name', 'asc').execute(),
    batch: modelBatch(ctx),
    beforeDelete: async (rows) => {
      const ids = rows.map((r) => r.id);
      publishChanged(ctx, await ctx.db.transaction().execute((trx) => dropMembers(ctx, trx, MODEL_REFS, ids)));
    },
  });

  await modelViewRoutes(app);
}
