import { describe, expect, it } from 'vitest';
import { modelAgentCreateSchema, modelAgentUpdateSchema, type ModelAgent } from '@fastgate/core/entities/model-agent';
import { agentToBody, agentToValues, type AgentValues } from './values';

const row: ModelAgent = {
  id: 'a1', corp: 'c1', corp_name: 'OpenAI', name: 'Edge', status: 1, base_url: 'https://up.example', path: '', wire_api: 'responses', weight: 3, models: ['m1'], model_names: ['gpt'],
  is_enable_model_replace: true, replace_models: ['gpt-4o'], target_models: ['gpt-4o-2024'], is_never_disable: false, lb_strategy: 1,
  fallback_models: [], fallback_model_names: [], key_count: 2, key: 'sk-one-aaa*aaaa1\nsk-two-bbb*bbbb2', is_agents_only: true, is_never_disable_key: false,
  keys: [
    { id: 'k1', key: 'sk-one-aaa*aaaa1', status: 1 },
    { id: 'k2', key: 'sk-two-bbb*bbbb2', status: 1 },
  ],
  is_auto_disabled: false, auto_disabled_reason: '', remark: '', created_at: '', updated_at: '',
};

describe('agent form values', () => {
  it("sends wire_api 'chat' when the form has none (agents made before the field)", () => {
    const { wire_api: _w, ...older } = agentToValues(row) as AgentValues;
    expect((agentToBody(older as AgentValues) as Record<string, unknown>).wire_api).toBe('chat');
  });

  it('edits replacement pairs as rows and sends them back as paired arrays', () => {
    const values = agentToValues(row) as AgentValues;
    expect(values.replace_pairs).toEqual([{ from: 'gpt-4o', to: 'gpt-4o-2024' }]);
    const body = agentToBody({ ...values, replace_pairs: [...values.replace_pairs!, { from: ' a ', to: 'b' }, { from: '', to: '' }] }, 'update') as Record<string, unknown>;
    expect(body.replace_models).toEqual(['gpt-4o', 'a']);
    expect(body.target_models).toEqual(['gpt-4o-2024', 'b']);
    expect(body).not.toHaveProperty('replace_pairs');
    // The upstream's wire API survives an edit (a reset to 'chat' would break a Responses-only host).
    expect(body.wire_api).toBe('responses');
    expect(modelAgentUpdateSchema.safeParse({ ...body, id: 'a1' }).success).toBe(true);
  });

  it('keeps bound keys by id and sends only new keys, never a mask (issue 11)', () => {
    const values = agentToValues(row) as AgentValues;
    // The form starts with no key text: the masks are shown from bound_keys, not edited.
    expect(values.key).toBe('');
    expect(values.key_ids).toEqual(['k1', 'k2']);
    const body = agentToBody({ ...values, key_ids: ['k2'], key: ' sk-three-cccccccc \r\n\nsk-three-cccccccc\nsk-four-dddddddd\n' }, 'update') as Record<string, unknown>;
    expect(body.key).toBe('sk-three-cccccccc\nsk-four-dddddddd');
    expect(body.key_ids).toEqual(['k2']);
    expect(body).not.toHaveProperty('bound_keys');
    expect(body).not.toHaveProperty('keys');
    expect(JSON.stringify(body)).not.toContain('*');
    // Create sends the keys alone.
    const created = agentToBody({ ...values, key: 'sk-new-eeeeeeee' }, 'create') as Record<string, unknown>;
    expect(created).not.toHaveProperty('key_ids');
    expect(modelAgentCreateSchema.safeParse(created).success).toBe(true);
  });
});
