// App (docs/ORIGINAL-API.md §3.2): a user's client application. Its keys call the gateway; the app's models,
// group, quota, expiry and IP lists apply to every one of them.
import { z } from 'zod';
import { boolField } from '../schemas/encodings';
import { dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { expiresAtField, idListField, idsFilter, ipListField, ownerIdField, ownerIdFilter, quotaField } from '../schemas/usage-limits';
import { rateLimitsSchema } from './catalogue';
import { LIMIT_VIRTUAL, limitColumns } from './limit-columns';
import { defineResource, type Fields } from '../resource';

export const APP_PREFIX = '/app';

const appBase = z.object({
  name: name100,
  remark: remarkField.default(''),
  /** Empty = no app-level restriction (user and group permissions still apply). */
  models: idListField.default([]),
  is_bind_group: boolField.default(false),
  /** Group id, required when `is_bind_group`. */
  group: z.union([idField, z.literal('')]).default(''),
  is_limit_quota: boolField.default(false),
  quota: quotaField.default(0),
  quota_expires_at: expiresAtField.default(''),
  /** Newline strings or arrays on input, arrays on output. */
  ip_whitelist: ipListField.default([]),
  ip_blacklist: ipListField.default([]),
  /** Absent = keep the stored limits. */
  rate_limits: rateLimitsSchema.partial().optional(),
  status: statusField.default(1),
});

/** The app resource: the limits it shares with app keys are stored alike (limit-columns.ts). */
export const appResource = defineResource({ prefix: APP_PREFIX, fields: appBase, columns: limitColumns, virtual: LIMIT_VIRTUAL });
export type AppFields = Fields<typeof appResource>;

export const appCreateSchema = z.object({
  /** Admins and resellers must name the owner; a user's own id is implied. */
  user_id: ownerIdField.optional(),
  ...appBase.shape,
  /** Also generate the app's first key (returned once as `key`). */
  is_create_key: boolField.default(false),
});
export const appUpdateSchema = z.object({ id: idField, ...appBase.shape });

export const appPageSchema = pageSchema.extend({
  user_id: ownerIdFilter,
  app_id: ownerIdFilter,
  name: textFilter,
  models: idsFilter,
  /** A full app key: finds the app that owns it. */
  app_key: textFilter,
  remark: textFilter,
  status: statusFilter,
  quota_expires_at: dateRangeFilter,
});

/** An app on the wire: its fields, the names they refer to, what it used and the record times. */
export type App = AppFields & {
  id: string;
  app_id: number;
  user_id: number;
  model_names: string[];
  group_name: string;
  used_quota: number;
  created_at: string;
  updated_at: string;
};

/** `GET /app/list`: picker rows. */
export interface AppOption {
  id: string;
  app_id: number;
  user_id: number;
  name: string;
}
