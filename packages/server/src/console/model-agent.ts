// /api/v1/model/agent (docs/ORIGINAL-API.md §3.6, admin only): upstream endpoints with their own provider keys.
// agent.models is the stored side of the model ⇄ agent link (catalogue/links.ts); the keys typed into
// `key` become provider_keys rows bound to the agent (catalogue/agent-keys.ts).
// Provider keys never leave in clear here (issue 11): detail answers their masks with their ids, an
// update keeps bound keys by id (`key_ids`) or by their mask, and the one way to the full key is the
// reveal route, which the audit log records.
import { Status } from '@fastgate/core/constants';
import {
  MODEL_AGENT_KEY_REVEAL,
  MODEL_AGENT_PREFIX,
  modelAgentCreateSchema,
  modelAgentKeyRevealSchema,
  modelAgentPageSchema,
  modelAgentResource,
  modelAgentUpdateSchema,
  splitKeys,
  type ModelAgent,
  type ModelAgentCreate,
} from '@fastgate/core/entities/model-agent';
import { flag, ids } from '@fastgate/core/resource';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { auditDraftOf } from '../audit/record';
import { requireStepUp } from '../auth/step-up';
import { boundKeys, publishKeyChanges, syncAgentKeys, type AgentKeyList } from '../catalogue/agent-keys';
import { dropMembers, holdsAny, publishChanged, requireRows } from '../catalogue/links';
import type { Ctx } from '../context';
import type { Database, ModelAgentRow, ProviderKeyRow } from '../db/schema';
import { contains, registerCrud } from '../http/crud';
import { invalidField, notFound } from '../http/errors';
import { post } from '../http/route';
import { formatTime } from '../http/time';
import { inTimeRange } from './record-filters';

async function checkRefs(ctx: Ctx, a: ModelAgentCreate): Promise<void> {
  await requireRows(ctx.db, 'corps', 'corp', [a.corp]);
  await requireRows(ctx.db, 'models', 'models', a.models);
  await requireRows(ctx.db, 'models', 'fallback_models', a.fallback_models);
}

type KeyInput = Pick<ModelAgentCreate, 'key'> & { key_ids?: string[] };

/**
 * The keys an agent is to have: `key_ids` and lines equal to a bound key's mask keep those keys, other
 * lines are keys to add. A kept id must be bound to the agent, and a line holding `*` is a mask, never a
 * key: one that matches no bound key is refused rather than stored as a key that cannot work.
 */
async function keyList(db: Kysely<Database> | Transaction<Database>, agentId: string | null, a: KeyInput): Promise<AgentKeyList> {
  const bound = agentId ? await boundKeys(db, [agentId]) : [];
  const boundIds = new Set(bound.map((k) => k.id));
  for (const id of a.key_ids ?? []) if (!boundIds.has(id)) throw invalidField('key_ids', id);
  const keep = [...(a.key_ids ?? [])];
  const add: string[] = [];
  for (const line of splitKeys(a.key)) {
    const masked = bound.filter((k) => k.key_mask === line);
    if (masked.length) keep.push(...masked.map((k) => k.id));
    else if (line.includes('*')) throw invalidField('key', line);
    else add.push(line);
  }
  return { keep, add };
}

async function writeKeys(ctx: Ctx, row: ModelAgentRow, a: (ModelAgentCreate & { key_ids?: string[] }) | null): Promise<void> {
  const result = await ctx.db.transaction().execute(async (trx) => syncAgentKeys(ctx, trx, row, a ? await keyList(trx, row.id, a) : null, a ?? { is_agents_only: true, is_never_disable_key: false }));
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
        // Checked before the row is written (the keys are written after it).
        await keyList(ctx.db, null, input);
        return modelAgentResource.encode(input);
      },
      after: (row: ModelAgentRow, input) => writeKeys(ctx, row, input),
    },
    update: {
      schema: modelAgentUpdateSchema,
      toRow: async ({ id, ...input }) => {
        await checkRefs(ctx, input);
        await keyList(ctx.db, id, input);
        return modelAgentResource.encode(input);
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
        return inTimeRange(ctx, out, 'created_at', f.created_at);
      },
      order: [['status', 'asc'], ['updated_at', 'desc']],
    },
    prepare: async (rows: ModelAgentRow[]): Promise<Prepared> => {
      const corpIds = [...new Set(rows.map((r) => r.corp))];
      const modelIds = [...new Set(rows.flatMap((r) => [...ids.decode(r.models), ...ids.decode(r.fallback_models)]))];
      const corps = corpIds.length ? await ctx.db.selectFrom('corps').select(['id', 'name']).where('id', 'in', corpIds).execute() : [];
      const models = modelIds.length ? await ctx.db.selectFrom('models').select(['id', 'name']).where('id', 'in', modelIds).execute() : [];
      const keys = new Map<string, ProviderKeyRow[]>();
      for (const k of await boundKeys(ctx.db, rows.map((r) => r.id))) for (const a of ids.decode(k.model_agents)) keys.set(a, [...(keys.get(a) ?? []), k]);
      return { corps: new Map(corps.map((c) => [c.id, c.name])), models: new Map(models.map((m) => [m.id, m.name])), keys };
    },
    toWire: (row: ModelAgentRow, _c, view, p: Prepared): ModelAgent => {
      const a = modelAgentResource.decode(row);
      const keys = p.keys.get(row.id) ?? [];
      return {
        id: row.id,
        ...a,
        corp_name: p.corps.get(a.corp) ?? '',
        model_names: a.models.map((id) => p.models.get(id) ?? ''),
        fallback_model_names: a.fallback_models.map((id) => p.models.get(id) ?? ''),
        key_count: keys.length,
        ...(view === 'detail'
          ? {
              key: keys.map((k) => k.key_mask).join('\n'),
              keys: keys.map((k) => ({ id: k.id, key: k.key_mask, status: k.status })),
              is_agents_only: keys.every((k) => flag.decode(k.is_agents_only)),
              is_never_disable_key: keys.length > 0 && keys.every((k) => flag.decode(k.is_never_disable)),
            }
          : {}),
        is_auto_disabled: flag.decode(row.is_auto_disabled),
        auto_disabled_reason: row.auto_disabled_reason,
        created_at: formatTime(row.created_at, tz),
        updated_at: formatTime(row.updated_at, tz),
      };
    },
    // Pickers: enabled agents only (docs/ORIGINAL-API.md §2.1).
    list: (q) => q.select(['id', 'corp', 'name', 'status']).where('status', '=', Status.Normal).orderBy('name', 'asc').execute(),
    beforeDelete: async (rows) => {
      for (const row of rows) await writeKeys(ctx, row, null);
      const agentIds = rows.map((r) => r.id);
      publishChanged(ctx, await ctx.db.transaction().execute((trx) => dropMembers(ctx, trx, [['groups', 'model_agents']], agentIds)));
    },
  });

  // The full value of one bound key, on request (audit kind 'reveal', by its URL): the audit row names
  // the provider key; the key itself is never recorded.
  post(app, MODEL_AGENT_KEY_REVEAL, { schema: modelAgentKeyRevealSchema, roles: ['admin'] }, async (input, request) => {
    // A fresh second factor first (auth/step-up.ts).
    await requireStepUp(request);
    const key = (await boundKeys(ctx.db, [input.id])).find((k) => k.id === input.key_id);
    if (!key) throw notFound();
    auditDraftOf(request)?.rows('provider_keys', [key]);
    return { value: ctx.secrets.decrypt(key.key_cipher) };
  });
}
