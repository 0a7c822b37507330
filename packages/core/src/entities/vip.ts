// VIP level: a discount, groups, speed limits and an upgrade/downgrade ladder (docs/SPEC.md §3.7 "VIP level").
// Owned like groups: admin levels carry user_id 0, a reseller's its own user_id.
import { z } from 'zod';
import { boolField, decimalField, intField } from '../schemas/encodings';
import { idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { quotaField } from '../schemas/usage-limits';
import { rateLimitsSchema, type RateLimits } from './catalogue';
import { defineResource, flag, ids, parseJson, type Codec, type Fields } from '../resource';

export const VIP_PREFIX = '/sys/vip';
export const VIP_CENTER_PATH = '/vip/center';

/** A rule needs a non-zero threshold to fire on (the server's check, and the web form's). */
export const hasVipThreshold = (r: { recharge_quota?: number; used_quota?: number }) => (r.recharge_quota ?? 0) > 0 || (r.used_quota ?? 0) > 0;

/**
 * One rule of the ladder. Thresholds are quota units counted since the user entered its level; 0 =
 * not a condition. An upgrade fires as soon as any non-zero threshold is reached. A downgrade is
 * checked when the level's duration ends: unless a non-zero threshold was reached, the user moves to
 * the target (otherwise the level renews for another duration).
 */
const vipRuleSchema = z
  .object({
    type: z.enum(['upgrade', 'downgrade']),
    recharge_quota: quotaField.default(0),
    used_quota: quotaField.default(0),
    target_level: idField,
  })
  .refine(hasVipThreshold, { path: ['recharge_quota'], message: 'recharge_quota or used_quota > 0' });
export type VipRule = z.infer<typeof vipRuleSchema>;

/** Hex colour of the level badge. */
const colorField = z.string().trim().regex(/^(#[0-9a-fA-F]{6})?$/, '#RRGGBB');

const vipBase = z.object({
  name: name100,
  /** Percent paid, 0–100 (80 = pay 80 %); responses give the fraction, like groups. */
  discount: decimalField(0, 100).default(100),
  color: colorField.default(''),
  /** Minutes a user keeps the level; 0 (or absent/empty) = permanent. */
  duration: z
    .union([intField(0, 100_000_000), z.literal(''), z.null()])
    .default(0)
    .transform((v) => (v === '' || v === null ? 0 : v)),
  groups: z.array(idField).max(1000).default([]),
  is_public: boolField.default(false),
  is_default: boolField.default(false),
  sort: intField(0, 1_000_000).default(0),
  remark: remarkField.default(''),
  rate_limits: rateLimitsSchema.default(rateLimitsSchema.parse({})),
  rules: z.array(vipRuleSchema).max(20).default([]),
  status: statusField.default(1),
});

/** Stored rate limits read back whole: every limit present (0 = unlimited), whatever an older row held. */
const vipLimitsColumn: Codec<RateLimits, string> = {
  encode: (l) => JSON.stringify(l ?? rateLimitsSchema.parse({})),
  decode: (s) => {
    const r = rateLimitsSchema.safeParse(parseJson<unknown>(s, {}));
    return r.success ? r.data : rateLimitsSchema.parse({});
  },
};

/** The ladder as stored; entries without a target (written by hand) are skipped. */
const vipRulesColumn: Codec<VipRule[], string> = {
  encode: (r) => JSON.stringify(r ?? []),
  decode: (s) => {
    const v = parseJson<unknown>(s, []);
    return Array.isArray(v) ? v.filter((r): r is VipRule => !!r && typeof (r as VipRule).target_level === 'string') : [];
  },
};

/** The VIP level resource. The discount is stored in basis points (`discount_bp`), converted by the server like a group's. */
export const vipResource = defineResource({
  prefix: VIP_PREFIX,
  fields: vipBase,
  columns: { groups: ids, is_public: flag, is_default: flag, rate_limits: vipLimitsColumn, rules: vipRulesColumn },
  virtual: ['discount'],
});
export type VipFields = Fields<typeof vipResource>;

export const vipCreateSchema = vipBase;
export type VipCreate = z.infer<typeof vipCreateSchema>;
export const vipUpdateSchema = vipBase.extend({ id: idField });

export const vipPageSchema = pageSchema.extend({
  name: textFilter,
  remark: textFilter,
  status: statusFilter,
});

/** Picker rows (`list`) and the VIP center's levels. */
export type VipLevelListItem = Pick<VipFields, 'name' | 'color' | 'discount' | 'is_default' | 'sort'> & {
  id: string;
  user_id: number;
};

/** A level on the wire: its fields (discount as a fraction, like groups), the names they refer to, and the record times. */
export type VipLevel = VipLevelListItem &
  Omit<VipFields, 'rules'> & {
    group_names: string[];
    rules: (VipRule & { target_level_name: string })[];
    created_at: string;
    updated_at: string;
  };

/** GET /vip/center: the caller's level, its progress towards the next one, and the public levels. */
export interface VipCenter {
  level: {
    id: string;
    name: string;
    color: string;
    discount: number;
    rate_limits: RateLimits;
    duration: number;
    /** True when the user holds no level of its own and this is the owner's default. */
    is_default: boolean;
    start_time: string;
    expires_at: string;
  } | null;
  recharge_quota: number;
  used_quota: number;
  /** The nearest upgrade: its target and how far the counters are (0–1 each; 1 when not a condition). */
  next: { level_id: string; level_name: string; recharge_quota: number; used_quota: number; progress: number } | null;
  levels: VipLevelListItem[];
}
