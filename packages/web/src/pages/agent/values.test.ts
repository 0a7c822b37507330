import { describe, expect, it } from 'vitest';
import { modelAgentUpdateSchema, type ModelAgent } from '@fastgate/core/entities/model-agent';
import { agentToBody, agentToValues, type AgentValues } from './values';

const row: ModelAgent = {
  id: 'a1', corp: 'c1', corp_name: 'OpenAI', name: 'Edge', status: 1, base_url: 'https://up.example', path: '', weight: 3, models: ['m1'], model_names: ['gpt'],
  is_enable_model_replace: true, replace_models: ['gpt-4o'], target_models: ['gpt-4o-2024'], is_never_disable: false, lb_strategy: 1,
  fallback_models: [], fallback_model_names: [], key_count: 2, key: 'sk-one-aaaaaaaa\nsk-two-bbbbbbbb', is_agents_only: true, is_never_disable_key: false,
  is_auto_disabled: false, auto_disabled_reason: '', remark: '', created_at: '', updated_at: '',
};

describe('agent form values', () => {
  it('edits replacement pairs as rows and sends them back as paired arrays', () => {
    const values = agentToValues(row) as AgentValues;
    expect(values.replace_pairs).toEqual([{ from: 'gpt-4o', to: 'gpt-4o-2024' }]);
    const body = agentToBody({ ...values, replace_pairs: [...values.replace_pairs!, { from: ' a ', to: 'b' }, { from: '', to: '' }] }) as Record<string, unknown>;
    expect(body.replace_models).toEqual(['gpt-4o', 'a']);
    expect(body.target_models).toEqual(['gpt-4o-2024', 'b']);
    expect(body).not.toHaveProperty('replace_pairs');
    expect(modelAgentUpdateSchema.safeParse({ ...body, id: 'a1' }).success).toBe(true);
  });

  it('sends the keys as distinct non-empty lines', () => {
    const body = agentToBody({ ...(agentToValues(row) as AgentValues), key: ' sk-one-aaaaaaaa \r\n\nsk-one-aaaaaaaa\nsk-three-cccccccc\n' }) as { key: string };
    expect(body.key).toBe('sk-one-aaaaaaaa\nsk-three-cccccccc');
  });
});
