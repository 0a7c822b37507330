// App key (docs/ORIGINAL-API.md §3.3): the credential a gateway client presents. Created in two calls:
// `/app/create/key` generates a value, `/app/key/config` stores it with its limits.
import { z } from 'zod';
import { boolField, intField, numberish } from '../schemas/encodings';
import { idField, statusField, remarkField } from '../schemas/common';
import { expiresAtField, idListField, ipListField, ownerIdField, quotaField } from '../schemas/usage-limits';
import { keyFilterSchema, type KeyType } from './provider-key';
import { rateLimitsSchema } from './catalogue';
import { LIMIT_VIRTUAL, limitColumns } from './limit-columns';
import { defineResource, type Fields } from '../resource';
import { isMaskedKey } from '../key-mask';

export const APP_KEY_PATHS = {
  generate: '/app/create/key',
  config: '/app/key/config',
  batch: '/app/key/batch/operate',
  export: '/app/key/export',
} as const;

/** The original's default `secret_key_prefix` and key length (docs/ORIGINAL-API.md §3.3). */
export const APP_KEY_PREFIX = 'sk-FastAPI';
const APP_KEY_LENGTH = 51;
/** Generated keys only: prefix + letters and digits, so a guessed or pasted value cannot be stored. */
const appKeyField = z
  .string()
  .trim()
  .regex(new RegExp(`^${APP_KEY_PREFIX}[A-Za-z0-9]{${APP_KEY_LENGTH - APP_KEY_PREFIX.length}}$`), 'key.format');

/** 1: expires at `quota_expires_at`; 2: `quota_expires_minutes` after the first call. */
export const QuotaExpiresRule = { Fixed: 1, Duration: 2 } as const;

/** The settings of a key. */
const appKeyFields = z.object({
  models: idListField,
  is_limit_quota: boolField,
  quota: quotaField,
  quota_expires_rule: numberish(z.union([z.literal(QuotaExpiresRule.Fixed), z.literal(QuotaExpiresRule.Duration)])),
  quota_expires_at: expiresAtField,
  /** "" (the original console's empty field) = 0, not set. */
  quota_expires_minutes: numberish(z.number().int().min(0).max(100 * 365 * 24 * 60), 0),
  is_bind_group: boolField,
  group: z.union([idField, z.literal('')]),
  ip_whitelist: ipListField,
  ip_blacklist: ipListField,
  rate_limits: rateLimitsSchema.partial(),
  remark: remarkField,
  status: statusField,
});

/** The app key resource: its limits are stored like an app's (limit-columns.ts). */
export const appKeyResource = defineResource({ prefix: '/app/key', fields: appKeyFields, columns: limitColumns, virtual: LIMIT_VIRTUAL });
export type AppKeyFields = Fields<typeof appKeyResource>;

/**
 * All optional, so batch updates change only what they name; a new key takes `APP_KEY_DEFAULTS` for
 * the rest (zod would apply `.default()` even inside `.partial()`).
 */
const appKeySettingsSchema = appKeyFields.partial();
export type AppKeySettings = z.infer<typeof appKeySettingsSchema>;

export const APP_KEY_DEFAULTS: Required<AppKeySettings> = {
  models: [],
  is_limit_quota: false,
  quota: 0,
  quota_expires_rule: QuotaExpiresRule.Fixed,
  quota_expires_at: '',
  quota_expires_minutes: 0,
  is_bind_group: false,
  group: '',
  ip_whitelist: [],
  ip_blacklist: [],
  rate_limits: {},
  remark: '',
  status: 1,
};

export const appKeyGenerateSchema = z.object({ app_id: ownerIdField, user_id: ownerIdField.optional() });

/**
 * The key on `/app/key/config`: its mask, which the original console's form sends back unchanged on
 * update, is no key (the key never changes there; a create without a real key is refused).
 */
const configKeyField = z.preprocess<unknown, z.ZodOptional<typeof appKeyField>, string | undefined>((v) => (typeof v === 'string' && isMaskedKey(v.trim()) ? undefined : v), appKeyField.optional());

/** No `id` = store the generated `key` for `app_id`; with `id` = update (key and app stay). */
export const appKeyConfigSchema = appKeySettingsSchema.extend({
  id: idField.optional(),
  app_id: ownerIdField.optional(),
  user_id: ownerIdField.optional(),
  key: configKeyField,
});

/** `query_params` of the `all-*` actions: the key page's filters. */
const queryParams = keyFilterSchema.omit({ type: true }).prefault({});

/** `/app/key/batch/operate` payloads per action (docs/ORIGINAL-API.md §2.8). */
export const appKeyBatchSchemas = {
  create: appKeySettingsSchema.extend({ app_id: ownerIdField, user_id: ownerIdField.optional(), n: intField(1, 1000) }),
  update: appKeySettingsSchema.extend({ ids: z.array(idField).min(1).max(1000) }),
  status: z.object({ ids: z.array(idField).min(1).max(1000), value: statusField }),
  delete: z.object({ ids: z.array(idField).min(1).max(1000) }),
  'all-update': appKeySettingsSchema.extend({ query_params: queryParams }),
  'all-status': z.object({ query_params: queryParams, value: statusField }),
  'all-delete': z.object({ query_params: queryParams }),
} as const;
export type AppKeyBatchAction = keyof typeof appKeyBatchSchemas;
export const appKeyBatchActionSchema = z.object({ action: z.enum(Object.keys(appKeyBatchSchemas) as [AppKeyBatchAction, ...AppKeyBatchAction[]]) });

export const appKeyExportSchema = z.object({
  ids: z.array(idField).max(10_000).optional(),
  user_id: ownerIdField.optional(),
  app_id: ownerIdField.optional(),
});

/** An app key on the wire: its settings, the names they refer to, what it used and the record times. */
export type AppKey = AppKeyFields & {
  id: string;
  type: typeof KeyType.App;
  user_id: number;
  app_id: number;
  app_name: string;
  /** Masked in pages; full in detail for whoever may see the key. */
  key: string;
  model_names: string[];
  group_name: string;
  used_quota: number;
  created_at: string;
  updated_at: string;
};
