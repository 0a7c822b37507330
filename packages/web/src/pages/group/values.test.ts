import { describe, expect, it } from 'vitest';
import { ForwardRule, MatchRule } from '@fastgate/core/entities/catalogue';
import { groupCreateSchema, type Group } from '@fastgate/core/entities/group';
import { discountPercent } from '../../components/group/display';
import { forwardBody, groupInitialValues, groupToBody, groupToValues, type GroupValues } from './values';

const row: Group = {
  id: 'g1', user_id: 0, name: 'VIP', discount: 0.8, is_default: false, status: 1, models: ['m1'], model_names: ['gpt'], is_public: true, vip_levels: [], weight: 5,
  expires_at: '', remark: '', is_limit_quota: false, quota: 0, used_quota: 0, rate_limits: { rps: 0, rpm: 60, rpd: 0, tps: 0, tpm: 0, tpd: 0, ips: 0, ipm: 5, ipd: 0 },
  is_enable_model_agent: true, lb_strategy: 2, model_agents: ['a1'], model_agent_names: ['agent'], is_enable_forward: true,
  forward_config: { forward_rule: ForwardRule.Keywords, match_rule: [MatchRule.Regex], target_model: '', decision_model: '', target_models: ['m2', 'm3'], keywords: ['draw|image', 'code'], content_length: 0, used_quota: 0, target_model_name: '', decision_model_name: '', target_model_names: [] },
  created_at: '', updated_at: '',
};

describe('group form values', () => {
  it('shows the wire fraction as a percent, without float noise', () => {
    expect(discountPercent(0.8)).toBe(80);
    expect(discountPercent(0.075)).toBe(7.5);
    expect(discountPercent(0.1234)).toBe(12.34);
  });

  it('round-trips a stored group through the form into a valid request', () => {
    const values = groupToValues(row) as GroupValues;
    expect(values.discount).toBe(80);
    expect(values.rate_limits).toEqual({ rps: undefined, rpm: 60, rpd: undefined, tps: undefined, tpm: undefined, tpd: undefined, ips: undefined, ipm: 5, ipd: undefined });
    expect(values.forward_config?.keyword_rows).toEqual([{ keyword: 'draw|image', target_model: 'm2' }, { keyword: 'code', target_model: 'm3' }]);
    const body = groupToBody(values, true) as Record<string, unknown>;
    expect(body).toMatchObject({ discount: 80, rate_limits: { rps: 0, rpm: 60, rpd: 0, tps: 0, tpm: 0, tpd: 0, ips: 0, ipm: 5, ipd: 0 }, model_agents: ['a1'], is_enable_model_agent: true });
    expect(body.forward_config).toMatchObject({ forward_rule: ForwardRule.Keywords, keywords: ['draw|image', 'code'], target_models: ['m2', 'm3'], target_model: '' });
    expect(groupCreateSchema.safeParse(body).success).toBe(true);
  });

  it('drops agents for a reseller and sends only the chosen rule', () => {
    const values = { ...(groupToValues(row) as GroupValues), forward_config: { forward_rule: ForwardRule.ContentLength, target_model: 'm2', content_length: 2000, keyword_rows: [{ keyword: 'x', target_model: 'm3' }] } };
    const body = groupToBody(values, false) as Record<string, unknown>;
    expect(body).toMatchObject({ model_agents: [], is_enable_model_agent: false });
    expect(body.forward_config).toEqual(forwardBody(values.forward_config));
    expect(body.forward_config).toMatchObject({ keywords: [], target_models: [], target_model: 'm2', content_length: 2000 });
  });

  it('leaves out an incomplete forward rule that is switched off', () => {
    const body = groupToBody({ ...(groupInitialValues as GroupValues), name: 'new' }, true) as Record<string, unknown>;
    expect(body.forward_config).toBeUndefined();
    expect(groupCreateSchema.safeParse(body).success).toBe(true);
  });
});
