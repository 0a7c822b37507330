// VIP level form values ⇄ wire: the discount typed in percent (a fraction on the wire), a permanent
// duration and unlimited rates shown empty, rules edited as rows.
import type { RateLimits } from '@fastgate/core/entities/catalogue';
import { vipResource, type VipFields, type VipLevel, type VipRule } from '@fastgate/core/entities/vip';
import { discountPercent, RATE_LIMIT_KEYS } from '../../../components/group/display';

/** Fields the form may hold empty: "none" (duration, limits), or not filled in yet. */
type Blank = 'color' | 'duration' | 'groups' | 'sort' | 'remark' | 'rate_limits' | 'rules';

/** The form's values: the level's fields (core entities/vip.ts), the discount in percent, limits and rules as they are being typed. */
export type VipValues = Omit<VipFields, Blank> &
  Partial<Pick<VipFields, 'color' | 'duration' | 'groups' | 'sort' | 'remark'>> & {
    user_id?: number;
    rate_limits?: Partial<Record<keyof RateLimits, number | undefined>>;
    rules?: Partial<VipRule>[];
  };

/** Field values → form values: a permanent duration and unlimited rates show empty. */
const fieldValues = (f: Omit<VipFields, 'name'> & { name?: string }): Partial<VipValues> => ({
  ...f,
  duration: f.duration || undefined,
  rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, f.rate_limits[k] || undefined])),
  rules: f.rules.map(({ type, recharge_quota, used_quota, target_level }) => ({ type, recharge_quota, used_quota, target_level })),
});

/** A new level: the declared defaults, shown gold and public (the form's own choice). */
export const vipInitialValues: Partial<VipValues> = fieldValues({ ...vipResource.defaults(), color: '#d4af37', is_public: true });

export const vipToValues = (row: VipLevel): Partial<VipValues> => ({ ...fieldValues({ ...vipResource.pick(row), discount: discountPercent(row.discount) }), user_id: row.user_id });

/** Form values → the create/update body: empty means none (0, '', []). */
export const vipToBody = (v: VipValues) => ({
  name: v.name.trim(),
  discount: v.discount,
  color: typeof v.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(v.color) ? v.color : '',
  duration: v.duration ?? 0,
  groups: v.groups ?? [],
  is_public: v.is_public,
  is_default: v.is_default,
  sort: v.sort ?? 0,
  remark: v.remark ?? '',
  rate_limits: Object.fromEntries(RATE_LIMIT_KEYS.map((k) => [k, v.rate_limits?.[k] ?? 0])),
  rules: (v.rules ?? []).map((r) => ({ type: r.type ?? 'upgrade', recharge_quota: r.recharge_quota ?? 0, used_quota: r.used_quota ?? 0, target_level: r.target_level ?? '' })),
  status: v.status,
});

