// Group: a set of models sold at a discount, with limits and routing (docs/ORIGINAL-API.md §3.8, docs/SPEC.md §3.6).
import { z } from 'zod';
import { boolField, decimalField } from '../schemas/encodings';
import { dateRangeFilter, idField, name100, pageSchema, remarkField, statusField, statusFilter, textFilter } from '../schemas/common';
import { expiresAtField, idsFilter, quotaField } from '../schemas/usage-limits';
import { defineResource, flag, ids, type Fields } from '../resource';
import { forwardColumn, forwardConfigFields, forwardWhenEnabled, idList, lbStrategyField, LbStrategy, rateLimitsColumn, rateLimitsSchema, weightField, type ForwardConfigWire } from './catalogue';

export const GROUP_PREFIX = '/group';

const groupBase = z.object({
  name: name100,
  /** Percent paid, 0–100 with decimals (80 = pay 80 %); responses give the fraction (docs/ORIGINAL-API.md §2.10). */
  discount: decimalField(0, 100),
  models: idList,
  is_default: boolField.default(false),
  is_public: boolField.default(false),
  /** VIP level ids (the VIP module comes later; stored as given). */
  vip_levels: z.array(idField).max(1000).default([]),
  weight: weightField,
  expires_at: expiresAtField.default(''),
  remark: remarkField.default(''),
  is_limit_quota: boolField.default(false),
  quota: quotaField.default(0),
  rate_limits: rateLimitsSchema.default(rateLimitsSchema.parse({})),
  is_enable_model_agent: boolField.default(false),
  lb_strategy: lbStrategyField.default(LbStrategy.RoundRobin),
  model_agents: idList,
  is_enable_forward: boolField.default(false),
  forward_config: forwardConfigFields.optional(),
  status: statusField.default(1),
});

/**
 * The group resource. The discount and the expiry are stored in other units (basis points, epoch ms in
 * the configured zone: server console/group-wire.ts), so they are not its columns as typed.
 */
export const groupResource = defineResource({
  prefix: GROUP_PREFIX,
  fields: groupBase,
  columns: {
    models: ids,
    is_default: flag,
    is_public: flag,
    vip_levels: ids,
    is_limit_quota: flag,
    rate_limits: rateLimitsColumn,
    is_enable_model_agent: flag,
    model_agents: ids,
    is_enable_forward: flag,
    forward_config: forwardColumn,
  },
  virtual: ['discount', 'expires_at'],
});
type GroupFields = Fields<typeof groupResource>;

const complete = <S extends z.ZodType<z.infer<typeof groupBase>>>(s: S) =>
  forwardWhenEnabled(s).refine((g) => !g.is_enable_forward || g.forward_config, { path: ['forward_config'], message: 'required' });

export const groupCreateSchema = complete(groupBase);
export type GroupCreate = z.infer<typeof groupCreateSchema>;
export const groupUpdateSchema = complete(groupBase.extend({ id: idField }));

export const groupExpireSchema = z.object({ id: idField, expires_at: expiresAtField.default('') });

export const groupPageSchema = pageSchema.extend({
  name: textFilter,
  models: idsFilter,
  model_agents: idsFilter,
  remark: textFilter,
  status: statusFilter,
  /** Quirk kept from the original (docs/ORIGINAL-API.md §2.5): this range filters `expires_at`. */
  created_at: dateRangeFilter,
  /** Reseller: true = only the groups it owns (its group management page); absent = everything it sees. */
  owned: boolField.optional(),
});

/** Discount as stored (basis points, 10000 = full price) ⇄ wire. */
export const discountToBp = (percent: number) => Math.round(percent * 100);
export const bpToFraction = (bp: number) => bp / 10_000;

/** A row of `GET /group/list`: the discount as the fraction paid. */
export type GroupListItem = { id: string } & Pick<GroupFields, 'name' | 'discount' | 'is_default' | 'status'>;

/** A group on the wire: its fields (discount as the fraction paid, expiry as a time or ''), its owner, usage, the names it refers to and times. */
export type Group = GroupListItem &
  Omit<GroupFields, 'forward_config'> & {
    /** Owner: 0 = admin; else the reseller's user_id. */
    user_id: number;
    model_names: string[];
    used_quota: number;
    model_agent_names: string[];
    forward_config: ForwardConfigWire;
    created_at: string;
    updated_at: string;
  };
