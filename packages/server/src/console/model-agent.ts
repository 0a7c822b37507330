// /api/v1/model/agent (reference §3.6, admin only): upstream endpoints with their own provider keys.
// agent.models is the stored side of the model ⇄ agent link (catalogue/links.ts); the keys typed into
// `key` become provider_keys rows bound to the agent (catalogue/agent-keys.ts).
import { Status } from '@fastgate/core/constants';
import { MODEL_AGENT_PREFIX, modelAgentCreateSchema, modelAgentPageSchema, modelAgentUpdateSchema, splitKeys, type ModelAgent, type ModelAgentCreate } from '@fastgate/core/entities/model-agent';
import type { FastifyInstance } from 'fastify';
import { boundKeys, publishKeyChanges, syncAgentKeys } from '../catalogue/agent-keys';
import { dropMembers, holdsAny, idsOf, publishChanged, requireRows } from '../catalogue/links';
import type { Ctx } from '../context';
import type { ModelAgentRow, ProviderKeyRow } from '../db/schema';
import { contains, registerCrud } from '../http/crud';
import { formatTime, parseWireTime } from '../http/time';

const flag = (b: boolean) => (b ? 1 : 0);

async function checkRefs(ctx: Ctx, a: ModelAgentCreate): Promise<void> {
  await requireRows(ctx.db, 'corps', 'corp', [a.corp]);
  await requireRows(ctx.db, 'models', 'models', a.models);
  await requireRows(ctx.db, 'models', 'fallback_models', a.fallback_models);
}

function agentValues(a: ModelAgentCreate): Record<string, unknown> {
  return {
    corp: a.corp,
    name: a.name,
    base_url: a.base_url,
    path: a.path,
    weight: a.weight,
    remark: a.remark,
    is_enable_model_replace: flag(a.is_enable_model_replace),
    is_never_disable: flag(a.is_never_disable),
    lb_strategy: a.lb_strategy,
    models: JSON.stringify(a.models),
    replace_models: JSON.stringify(a.replace_models),
    target_models: JSON.stringify(a.target_models),
    fallback_models: JSON.stringify(a.fallback_models),
    status: a.status,
  };
}

async function writeKeys(ctx: Ctx, row: ModelAgentRow, a: ModelAgentCreate | null): Promise<void> {
  const result = await ctx.db.transaction().execute((trx) => syncAgentKeys(ctx, trx, row, a ? splitKeys(a.key) : null, a ?? { is_agents_only: true, is_never_disable_key: false }));
  publishKeyChanges(ctx, result);
}

interface Prepared {
  corps: Map<string, string>;
  models: Map<string, string>;
  keys: Map<string, ProviderKeyRow[]>;
}

export async function modelAgentRoutes(app: FastifyInstance) {
  const { ctx } = app;
  const tz = ctx.config.timeZone;

  registerCrud(app, {
    prefix: MODEL_AGENT_PREFIX,
    table: 'model_agents',
    roles: {},
    create: {
      schema: modelAgentCreateSchema,
      toRow: async (input) => {
        await checkRefs(ctx, input);
        return agentValues(input);
      },
      after: (row: ModelAgentRow, input) => writeKeys(ctx, row, input),
    },
    update: {
      schema: modelAgentUpdateSchema,
      toRow: async ({ id: _id, ...input }) => {
        await checkRefs(ctx, input);
        return agentValues(input);
      },
      after: (row: ModelAgentRow, input) => writeKeys(ctx, row, input),
    },
    page: {
      schema: modelAgentPageSchema,
      filter: (q, f) => {
        let out = contains(contains(contains(contains(q, 'name', f.name), 'base_url', f.base_url), 'path', f.path), 'remark', f.remark);
        if (f.corp) out = out.where('corp', '=', f.corp);
        if (f.status) out = out.where('status', '=', f.status);
        const models = holdsAny('models', f.models);
        if (models) out = out.where(models);
        if (f.created_at) {
          const [from, to] = f.created_at.map((d, i) => parseWireTime(d, tz, i === 1));
          if (from !== undefined) out = out.where('created_at', '>=', from);
          if (to !== undefined) out = out.where('created_at', '<=', to);
        }
        return out;
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    prepare: async (rows: ModelAgentRow[]): Promise<Prepared> => {
      const corpIds = [...new Set(rows.map((r) => r.corp))];
      const modelIds = [...new Set(rows.flatMap((r) => [...idsOf(r.models), ...idsOf(r.fallback_models)]))];
      const corps = corpIds.length ? await ctx.db.selectFrom('corps').select(['id', 'name']).where('id', 'in', corpIds).execute() : [];
      const models = modelIds.length ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', modelIds).execute() : [];
      const keys = new Map<string, ProviderKeyRow[]>();
      for (const k of await boundKeys(ctx.db, rows.map((r) => r.id))) for (const a of idsOf(k.model_agents)) keys.set(a, [...(keys.get(a) ?? []), k]);
      return { corps: new Map(corps.map((c) => [c.id, c.name])), models: new Map(models.map((m) => [m.id, m.name])), keys };
    },
    toWire: (row: ModelAgentRow, _c, view, p: Prepared): ModelAgent => {
      const models = idsOf(row.models);
      const fallback = idsOf(row.fallback_models);
      const keys = p.keys.get(row.id) ?? [];
      return {
        id: row.id,
        corp: row.corp,
        corp_name: p.corps.get(row.corp) ?? '',
        name: row.name,
        base_url: row.base_url,
        path: row.path,
        weight: row.weight,
        models,
        model_names: models.map((id) => p.models.get(id) ?? ''),
        is_enable_model_replace: row.is_enable_model_replace === 1,
        replace_models: idsOf(row.replace_models),
        target_models: idsOf(row.target_models),
        is_never_disable: row.is_never_disable === 1,
        lb_strategy: row.lb_strategy,
        fallback_models: fallback,
        fallback_model_names: fallback.map((id) => p.models.get(id) ?? ''),
        key_count: keys.length,
        // Detail is admin-only (the whole module is): the form round-trips the real keys.
        ...(view === 'detail'
          ? {
              key: keys.map((k) => ctx.secrets.decrypt(k.key_cipher)).join('\n'),
              is_agents_only: keys.every((k) => k.is_agents_only === 1),
              is_never_disable_key: keys.length > 0 && keys.every((k) => k.is_never_disable === 1),
            }
          : {}),
        is_auto_disabled: row.is_auto_disabled === 1,
        auto_disabled_reason: row.auto_disabled_reason,
        remark: row.remark,
        status: row.status,
        created_at: formatTime(row.created_at, tz),
        updated_at: formatTime(row.updated_at, tz),
      };
    },
    // Pickers: enabled agents only (reference §2.1).
    list: (q) => q.select(['id', 'corp', 'name', 'status']).where('status', '=', Status.Normal).orderBy('name', 'asc').execute(),
    beforeDelete: async (rows) => {
      for (const row of rows) await writeKeys(ctx, row, null);
      const ids = rows.map((r) => r.id);
      publishChanged(ctx, await ctx.db.transaction().execute((trx) => dropMembers(ctx, trx, [['groups', 'model_agents']], ids)));
    },
  });
}
