// Keys (docs/ORIGINAL-API.md §3.3, §3.4). In the corp era app keys and model (provider) keys share `/key/*`,
// told apart by `type`; model keys are admin-only. This file holds the model-key shapes and the
// `/key` request schemas both types use.
import { z } from 'zod';
import { boolField, intField } from '../schemas/encodings';
import { batchSchema, dateRangeFilter, idField, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { idListField, idsFilter, ownerIdFilter, quotaField, usdBelowFilter } from '../schemas/usage-limits';
import { defineResource, flag, ids, type Fields } from '../resource';

export const KEY_PREFIX = '/key';

export const KeyType = { App: 1, Model: 2 } as const;
export type KeyTypeValue = (typeof KeyType)[keyof typeof KeyType];

/** docs/SPEC.md §5 key format: non-empty, no inner whitespace, 8–300 characters. */
export const KEY_LINE = /^\S{8,300}$/;
const MAX_KEYS_PER_CREATE = 1000;

/** Query strings carry "1"/"2", JSON bodies numbers. */
const keyTypeField = z
  .union([z.literal(KeyType.App), z.literal(KeyType.Model), z.enum(['1', '2'])])
  .transform((v) => Number(v) as KeyTypeValue);

/** Many keys, one per line → the distinct keys; any bad line fails the whole field (docs/SPEC.md §5). */
const modelKeysField = z
  .string()
  .max(MAX_KEYS_PER_CREATE * 302)
  .transform((v, ctx) => {
    const lines = v.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
    if (!lines.length || lines.length > MAX_KEYS_PER_CREATE || lines.some((l) => !KEY_LINE.test(l))) {
      ctx.addIssue({ code: 'custom', message: 'key.format' });
      return z.NEVER;
    }
    return [...new Set(lines)];
  });

const modelKeyFields = {
  corp: idField,
  models: idListField.default([]),
  model_agents: idListField.default([]),
  is_agents_only: boolField.default(false),
  is_never_disable: boolField.default(false),
  /** Share in weighted load balancing (docs/ORIGINAL-API.md §3.4). */
  weight: intField(1, 100).default(1),
  is_limit_quota: boolField.default(false),
  quota: quotaField.default(0),
  remark: remarkField.default(''),
  status: statusField.default(1),
};

/** The provider (model) key resource: the settings a key record has; the key itself is sealed apart (server console/provider-keys.ts). */
export const providerKeyResource = defineResource({
  prefix: KEY_PREFIX,
  fields: z.object(modelKeyFields),
  columns: { models: ids, model_agents: ids, is_agents_only: flag, is_never_disable: flag, is_limit_quota: flag },
});
type ProviderKeyFields = Fields<typeof providerKeyResource>;

export const modelKeyCreateSchema = z.object({ type: z.literal(KeyType.Model).optional(), key: modelKeysField, ...modelKeyFields });
/** Update edits one record; an absent or empty `key` keeps the stored one. */
export const modelKeyUpdateSchema = z.object({
  id: idField,
  type: z.literal(KeyType.Model).optional(),
  key: z.union([z.string().trim().regex(KEY_LINE, 'key.format'), z.literal('')]).optional(),
  ...modelKeyFields,
});

/** `/key/page` filters for both types; each type reads the fields it has (docs/ORIGINAL-API.md §2.5, §3.3). */
export const keyFilterSchema = z.object({
  type: keyTypeField.optional(),
  corp: z.union([idField, z.literal('')]).optional(),
  key: textFilter,
  models: idsFilter,
  model_agents: idsFilter,
  user_id: ownerIdFilter,
  app_id: ownerIdFilter,
  quota: usdBelowFilter,
  quota_expires_at: dateRangeFilter,
  status: statusFilter,
  remark: textFilter,
  created_at: dateRangeFilter,
});
export type KeyFilter = z.infer<typeof keyFilterSchema>;
export const keyPageSchema = pageSchema.extend(keyFilterSchema.shape);

export const keyIdSchema = z.object({ id: idField, type: keyTypeField.optional() });
export const keyStatusSchema = keyIdSchema.extend({ status: statusField });
export const keyDeleteSchema = z
  .object({ id: idField.optional(), ids: z.array(idField).max(1000).optional(), type: keyTypeField.optional() })
  .refine((v) => v.id || v.ids?.length, { message: 'id', path: ['id'] });
/** `all-*` actions read the filter fields from the same body (docs/ORIGINAL-API.md §2.8). */
export const keyBatchSchema = batchSchema.extend(keyFilterSchema.shape);
/** The copy button's explicit reveal (like `/log/chat/copy/field`): only `key` is copyable. */
export const keyCopySchema = keyIdSchema.extend({ field: z.literal('key').default('key') });

/** A model key on the wire: its settings, the key masked, the names it refers to, usage, auto-disable state and times. */
export type ModelKey = { id: string; type: typeof KeyType.Model } & ProviderKeyFields & {
  corp_name: string;
  /** Masked (the full key only through `/key/copy/field`). */
  key: string;
  model_names: string[];
  model_agent_names: string[];
  used_quota: number;
  is_auto_disabled: boolean;
  auto_disabled_reason: string;
  created_at: string;
  updated_at: string;
};
