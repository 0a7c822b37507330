// Group: a set of models sold at a discount, with limits and routing (reference §3.8, SPEC §3).
import { z } from 'zod';
import { dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { expiresAtField, idsFilter, quotaField } from '../schemas/usage-limits';
import { forwardConfigSchema, idList, lbStrategyField, LbStrategy, rateLimitsSchema, weightField, type ForwardConfigWire, type RateLimits } from './catalogue';

export const GROUP_PREFIX = '/group';

const groupBase = z.object({
  name: name100,
  /** Percent paid, 0–100 with decimals (80 = pay 80 %); responses give the fraction (reference §2.10). */
  discount: z.number().min(0).max(100),
  models: idList,
  is_default: z.boolean().default(false),
  is_public: z.boolean().default(false),
  /** VIP level ids (the VIP module comes later; stored as given). */
  vip_levels: z.array(idField).max(1000).default([]),
  weight: weightField,
  expires_at: expiresAtField.default(''),
  remark: remarkField.default(''),
  is_limit_quota: z.boolean().default(false),
  quota: quotaField.default(0),
  rate_limits: rateLimitsSchema.default(rateLimitsSchema.parse({})),
  is_enable_model_agent: z.boolean().default(false),
  lb_strategy: lbStrategyField.default(LbStrategy.RoundRobin),
  model_agents: idList,
  is_enable_forward: z.boolean().default(false),
  forward_config: forwardConfigSchema.optional(),
  status: statusField.default(1),
});

const complete = <S extends z.ZodType<z.infer<typeof groupBase>>>(s: S) =>
  s.refine((g) => !g.is_enable_forward || g.forward_config, { path: ['forward_config'], message: 'required' });

export const groupCreateSchema = complete(groupBase);
export type GroupCreate = z.infer<typeof groupCreateSchema>;
export const groupUpdateSchema = complete(groupBase.extend({ id: idField }));
export type GroupUpdate = z.infer<typeof groupUpdateSchema>;

export const groupExpireSchema = z.object({ id: idField, expires_at: expiresAtField.default('') });

export const groupPageSchema = pageSchema.extend({
  name: textFilter,
  models: idsFilter,
  model_agents: idsFilter,
  remark: textFilter,
  status: statusFilter,
  /** Quirk kept from the original (reference §2.5): this range filters `expires_at`. */
  created_at: dateRangeFilter,
  /** Reseller: true = only the groups it owns (its group management page); absent = everything it sees. */
  owned: z.boolean().optional(),
});

/** Discount as stored (basis points, 10000 = full price) ⇄ wire. */
export const discountToBp = (percent: number) => Math.round(percent * 100);
export const bpToFraction = (bp: number) => bp / 10_000;

export interface GroupListItem {
  id: string;
  name: string;
  discount: number;
  is_default: boolean;
  status: number;
}

export interface Group extends GroupListItem {
  /** Owner: 0 = admin; else the reseller's user_id. */
  user_id: number;
  models: string[];
  model_names: string[];
  is_public: boolean;
  vip_levels: string[];
  weight: number;
  expires_at: string;
  remark: string;
  is_limit_quota: boolean;
  quota: number;
  used_quota: number;
  rate_limits: RateLimits;
  is_enable_model_agent: boolean;
  lb_strategy: number;
  model_agents: string[];
  model_agent_names: string[];
  is_enable_forward: boolean;
  forward_config: ForwardConfigWire | null;
  created_at: string;
  updated_at: string;
}
