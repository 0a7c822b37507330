// Managed users and resellers (docs/ORIGINAL-API.md §3.1), deal records (docs/ORIGINAL-API.md §3.11) and the quota notice settings
// (docs/ORIGINAL-API.md §1.4). Money is integer quota units; the warning threshold is whole dollars, the expiry warning days.
import { z } from 'zod';
import { boolField, decimalField, intField, listish, numberish } from '../schemas/encodings';
import { parseIpList } from '../ip-list';
import { dateRangeFilter, idField, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { emailField, nameField, passwordField, phoneField } from '../schemas/fields';
import { expiresAtField, idListField, ownerIdField, ownerIdFilter, quotaField, usdBelowFilter } from '../schemas/usage-limits';
import { defineResource, flag, ids, type Fields } from '../resource';

export const USER_PREFIX = '/admin/user';
export const RESELLER_PREFIX = '/admin/reseller';
export const DEAL_RECORD_PAGE = '/finance/deal/record/page';
export const QUOTA_WARNING_PATH = '/dashboard/quota/warning';
export const EXPENSE_PATH = '/dashboard/expense';

/** Deal record and recharge types (docs/ORIGINAL-API.md §3.1, §3.11). */
export const QuotaType = { Recharge: 1, Deduct: 2, Gift: 3, Expire: 4 } as const;
export type QuotaTypeValue = (typeof QuotaType)[keyof typeof QuotaType];
export const DealStatus = { Success: 1, Refund: 2, Failed: 3 } as const;

/** What else `delete` purges (docs/ORIGINAL-API.md §3.1): users (resellers only), apps, deal records, bills, logs. */
export const PurgeData = { Users: 1, Apps: 2, DealRecords: 3, Bills: 4, Logs: 5 } as const;

/** User IP lists accept `*` wildcards (docs/SPEC.md §5). */
const userIpListField = z
  .union([z.string().max(50_000), z.array(z.string().max(100)).max(1000), z.null()])
  .transform((v, ctx) => {
    const r = parseIpList(v ?? '', { wildcard: true });
    if (r.ok) return r.list;
    ctx.addIssue({ code: 'custom', message: r.line.slice(0, 100) });
    return z.NEVER;
  });

const rechargeTypeField = numberish(z.union([z.literal(QuotaType.Recharge), z.literal(QuotaType.Deduct), z.literal(QuotaType.Gift)]));
/** Whole dollars (docs/ORIGINAL-API.md §1.4). */
const warningThresholdField = intField(0, 1_000_000_000);
/** Days. */
const expireWarningThresholdField = intField(0, 3650);

/**
 * A reseller's floor (admin only): its cost price as a discount, percent paid like a group's discount
 * (100 = list price, the default). Its groups and VIP levels cannot go below it, and the gateway never
 * bills its users below it.
 */
const floorField = decimalField(0, 100);

const editable = z.object({
  /** The display-name rule (docs/SPEC.md §5): 2–30 of Chinese, letters, digits, `_`, `-`. */
  name: nameField,
  email: z.union([emailField, z.literal('')]),
  account: z.string().trim().min(1).max(100),
  phone: z.union([phoneField, z.literal('')]).default(''),
  remark: remarkField.default(''),
  quota_expires_at: expiresAtField.default(''),
  is_limit_quota: boolField.default(true),
  quota_warning: boolField.default(true),
  warning_threshold: warningThresholdField.default(0),
  expire_warning_threshold: expireWarningThresholdField.default(0),
  groups: listish(idListField).default([]),
  models: listish(idListField).default([]),
  ip_whitelist: userIpListField.default([]),
  ip_blacklist: userIpListField.default([]),
  status: statusField.default(1),
});

/**
 * The settings the console edits of a managed account. The account's balance, login state, notices and
 * VIP counters are written by the ledger, sign-in and jobs; its expiry is stored as epoch ms (the server
 * converts it in its time zone).
 */
export const userResource = defineResource({
  prefix: USER_PREFIX,
  fields: editable,
  columns: { is_limit_quota: flag, quota_warning: flag, groups: ids, models: ids, ip_whitelist: ids, ip_blacklist: ids },
  virtual: ['quota_expires_at'],
});
export type UserFields = Fields<typeof userResource>;

export const userCreateSchema = z.object({
  ...editable.shape,
  password: passwordField,
  /** Opening balance, moved like a recharge of `quota_type` (a reseller gives its own quota). */
  quota: quotaField.default(0),
  quota_type: rechargeTypeField.default(QuotaType.Recharge),
  /** Admin only: the owning reseller's user_id (0 = none). */
  rid: intField(0, 2_147_483_647).optional(),
  /** Resellers only; absent = 100. */
  floor: floorField.optional(),
});
/** `floor`: resellers only; absent = keep. */
export const userUpdateSchema = z.object({ id: idField, ...editable.shape, password: z.union([passwordField, z.literal('')]).optional(), floor: floorField.optional() });

export const userPageSchema = pageSchema.extend({
  user_id: ownerIdFilter,
  rid: ownerIdFilter,
  account: textFilter,
  name: textFilter,
  email: textFilter,
  phone: textFilter,
  /** Dollars, "below" (docs/ORIGINAL-API.md §2.5). */
  quota: usdBelowFilter,
  quota_expires_at: dateRangeFilter,
  remark: textFilter,
  status: statusFilter,
  created_at: dateRangeFilter,
});

export const changeQuotaExpireSchema = z.object({ id: idField, quota_expires_at: expiresAtField });

export const userDeleteSchema = z
  .object({
    id: idField.optional(),
    ids: z.array(idField).max(1000).optional(),
    data: z.array(intField(1, 5)).max(5).default([]),
  })
  .refine((v) => v.id || v.ids?.length, { message: 'id', path: ['id'] });

/** Positive whole units; 0 moves nothing and is refused. */
const rechargeQuota = intField(1, Number.MAX_SAFE_INTEGER);

export const rechargeSchema = z.object({
  user_id: ownerIdField,
  quota: rechargeQuota,
  quota_type: rechargeTypeField.default(QuotaType.Recharge),
  /** "" or absent = keep the current expiry. */
  quota_expires_at: expiresAtField.optional(),
  is_send_notice: boolField.default(false),
  remark: remarkField.optional(),
});

/** `batch/operate` recharge: value = quota units. */
export const batchRechargeSchema = z.object({
  ids: z.array(idField).min(1).max(1000),
  value: rechargeQuota,
  quota_type: rechargeTypeField.default(QuotaType.Recharge),
  quota_expires_at: expiresAtField.optional(),
  is_send_notice: boolField.default(false),
});

export const permissionsSchema = z.object({ user_id: ownerIdField, models: listish(idListField).default([]), groups: listish(idListField).default([]) });

export const quotaWarningSchema = z.object({
  quota_warning: boolField,
  warning_threshold: warningThresholdField,
  expire_warning_threshold: expireWarningThresholdField,
});

export const dealRecordPageSchema = pageSchema.extend({
  user_id: ownerIdFilter,
  type: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
  remark: textFilter,
  status: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]).optional(),
  created_at: dateRangeFilter,
});

/** A managed account on the wire: its settings, the names they refer to, and what the ledger, sign-in and jobs keep. */
export type ManagedUser = UserFields & {
  id: string;
  user_id: number;
  avatar: string;
  quota: number;
  used_quota: number;
  quota_type: number;
  warning_notice: boolean;
  exhaustion_notice: boolean;
  expire_warning_notice: boolean;
  expire_notice: boolean;
  group_names: string[];
  model_names: string[];
  rid: number;
  login_ip: string;
  login_time: string;
  login_domain: string;
  vip_level: string;
  vip_level_recharge_quota: number;
  vip_level_used_quota: number;
  vip_level_start_time: string;
  vip_level_expires_at: string;
  created_at: string;
  updated_at: string;
};

export type Reseller = ManagedUser & {
  /** Its floor as a fraction of list price (1 = full price). */
  floor: number;
  /** Quota given to its users (their balance plus what they used). */
  allocated_quota: number;
  /** What it still holds to give: its own balance. */
  to_be_allocated: number;
};

/** `GET <prefix>/list`: picker rows. */
export interface UserOption {
  id: string;
  user_id: number;
  account: string;
  name: string;
}

export interface DealRecord {
  id: string;
  user_id: number;
  rid: number;
  quota: number;
  type: number;
  status: number;
  remark: string;
  creator: string;
  created_at: string;
  updated_at: string;
}

/** `GET /dashboard/expense` (docs/ORIGINAL-API.md §1.4). */
export interface Expense {
  quota: number;
  quota_usd: number;
  used_quota: number;
  used_quota_usd: number;
  allocated_quota: number;
  to_be_allocated: number;
  quota_expires_at: string;
  quota_warning: boolean;
  warning_threshold: number;
  expire_warning_threshold: number;
}
