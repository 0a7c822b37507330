import { describe, expect, it } from 'vitest';
import { vipCreateSchema, type VipLevel } from '@fastgate/core/entities/vip';
import { vipInitialValues, vipToBody, vipToValues, type VipValues } from './values';

const row: VipLevel = {
  id: 'v1', user_id: 7, name: 'Gold', color: '#d4af37', discount: 0.85, is_default: false, sort: 2, duration: 0, groups: ['g1'], group_names: ['Group'],
  is_public: true, remark: '', rate_limits: { rps: 0, rpm: 60, rpd: 0, tps: 0, tpm: 0, tpd: 0, ips: 0, ipm: 0, ipd: 0 },
  rules: [{ type: 'upgrade', recharge_quota: 500_000, used_quota: 0, target_level: 'v2', target_level_name: 'Platinum' }], status: 1, created_at: '', updated_at: '',
};

describe('VIP level form values', () => {
  it('starts a new level from the declared defaults, gold and public, with "none" shown empty', () => {
    expect(vipInitialValues).toMatchObject({ discount: 100, color: '#d4af37', is_public: true, is_default: false, sort: 0, status: 1, rules: [], duration: undefined });
    expect(Object.values(vipInitialValues.rate_limits ?? {}).every((v) => v === undefined)).toBe(true);
    expect(vipCreateSchema.safeParse(vipToBody({ ...vipInitialValues, name: 'New' } as VipValues)).success).toBe(true);
  });

  it('round-trips a stored level through the form into a valid request', () => {
    const values = vipToValues(row) as VipValues;
    expect(values).toMatchObject({ user_id: 7, discount: 85, duration: undefined, groups: ['g1'] });
    expect(values.rules).toEqual([{ type: 'upgrade', recharge_quota: 500_000, used_quota: 0, target_level: 'v2' }]);
    expect(values.rate_limits?.rpm).toBe(60);
    expect(values.rate_limits?.rps).toBeUndefined();
    const body = vipToBody(values);
    expect(body).toMatchObject({ name: 'Gold', discount: 85, duration: 0, rate_limits: row.rate_limits, rules: [{ type: 'upgrade', recharge_quota: 500_000, used_quota: 0, target_level: 'v2' }] });
    expect(vipCreateSchema.safeParse(body).success).toBe(true);
  });
});
