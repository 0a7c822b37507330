// Model batch actions beside status/delete (docs/ORIGINAL-API.md §2.8): `agent`, `forward`, `fallback`. Each takes
// value true/false (switch the feature on the models) or "all" plus the settings to give them all.
import { ErrorCode } from '@fastgate/core/constants';
import { ForwardRule, forwardConfigSchema } from '@fastgate/core/entities/catalogue';
import { modelBatchAgentSchema, modelBatchFallbackSchema, modelBatchForwardSchema, modelResource, type ModelFields } from '@fastgate/core/entities/model';
import type { BatchInput } from '@fastgate/core/schemas/common';
import { z } from 'zod';
import { publishChanged, requireRows, setMembership, type LinkTable } from '../catalogue/links';
import type { Ctx } from '../context';
import { AppError, notFound } from '../http/errors';
import { parse } from '../http/validate';
import type { Caller } from '../http/crud';

const switchValue = z.union([z.boolean(), z.literal('all')]);
type Input = BatchInput & Record<string, unknown>;

export function modelBatch(ctx: Ctx) {
  const db = ctx.db;

  /** The value and the models; every id must exist, else nothing is written. */
  async function target(input: Input): Promise<{ value: boolean | 'all'; ids: string[] }> {
    const value = switchValue.safeParse(input.value);
    if (!value.success) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'value', detail: 'true | false | "all"' });
    const ids = [...new Set(input.ids)];
    if (!ids.length) throw new AppError(ErrorCode.Validation, 'common.invalid_field', { field: 'ids', detail: 'empty' });
    const found = await db.selectFrom('models').select('id').where('id', 'in', ids).execute();
    if (found.length !== ids.length) throw notFound();
    return { value: value.data, ids };
  }

  /** Sets the named fields of the models, stored through the model resource. */
  async function set(ids: string[], fields: Partial<ModelFields>) {
    await db.updateTable('models').set({ ...modelResource.encodePartial(fields), updated_at: Date.now() }).where('id', 'in', ids).execute();
    ctx.bus.publish({ entity: 'models', op: 'update', ids });
  }

  return {
    agent: async (input: Input, c: Caller) => {
      const { value, ids } = await target(input);
      if (value !== 'all') return set(ids, { is_enable_model_agent: value });
      const s = parse(modelBatchAgentSchema, input, c.locale);
      await requireRows(db, 'model_agents', 'model_agents', s.model_agents);
      const changed = await db.transaction().execute(async (trx) => {
        const touched = new Set<string>();
        for (const id of ids) for (const a of await setMembership(ctx, trx, { table: 'model_agents', column: 'models' }, id, s.model_agents)) touched.add(a);
        return [['model_agents', [...touched]]] as [LinkTable, string[]][];
      });
      publishChanged(ctx, changed);
      return set(ids, { is_enable_model_agent: true, lb_strategy: s.lb_strategy });
    },
    forward: async (input: Input, c: Caller) => {
      const { value, ids } = await target(input);
      if (value !== 'all') return set(ids, { is_enable_forward: value });
      const s = parse(modelBatchForwardSchema, input, c.locale);
      await requireRows(db, 'models', 'target_model', [s.target_model]);
      const config = forwardConfigSchema.parse({ forward_rule: ForwardRule.All, target_model: s.target_model });
      return set(ids, { is_enable_forward: true, forward_config: config });
    },
    fallback: async (input: Input, c: Caller) => {
      const { value, ids } = await target(input);
      if (value !== 'all') return set(ids, { is_enable_fallback: value });
      const { fallback_config: f } = parse(modelBatchFallbackSchema, input, c.locale);
      await requireRows(db, 'model_agents', 'fallback_config.model_agent', [f.model_agent]);
      await requireRows(db, 'models', 'fallback_config.model', [f.model]);
      return set(ids, { is_enable_fallback: true, fallback_config: f });
    },
  };
}
