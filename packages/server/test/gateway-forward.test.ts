import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dialects } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

describe.each(dialects)('gateway forwarding and preset config on %s', (dialect) => {
  let w: World;
  let target: string;
  let decision: string;
  const base = () => ({ id: w.model, corp: w.corp, name: 'gpt-test', model: 'gpt-test', type: 1, is_public: true, is_enable_model_agent: true, model_agents: [w.agent], text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } });

  beforeAll(async () => {
    w = await world(dialect);
    const mk = async (name: string) => (await w.admin.post('/api/v1/model/create', { corp: w.corp, name, model: name, type: 1, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 5, completion_ratio: 5 } })).body.data.id as string;
    target = await mk('target-model');
    decision = await mk('decision-model');
    expect((await w.admin.post('/api/v1/model/agent/update', { id: w.agent, corp: w.corp, name: 'mock', base_url: w.mock.url, models: [w.model, target, decision], key: 'sk-mock-upstream-key-1\nsk-mock-upstream-key-2' })).body.code).toBe(0);
  });
  afterAll(() => w?.close());
  beforeEach(() => {
    w.mock.requests.length = 0;
  });

  const setForward = async (forward_config: Record<string, unknown> | null, extra: Record<string, unknown> = {}) => {
    const r = await w.admin.post('/api/v1/model/update', { ...base(), ...(forward_config ? { is_enable_forward: true, forward_config } : {}), ...extra });
    expect(r.body).toMatchObject({ code: 0 });
    await settled(w);
  };
  const ask = (content: string) => w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content }] });

  it('forwards everything to the target, answering as the requested model at its price', async () => {
    await setForward({ forward_rule: 1, target_model: target });
    await w.flush();
    const before = await w.quotaOf(w.user.userId);
    const r = await ask('hello');
    expect(r.choices[0]!.message.content).toBe('Hello from mock target-model! You said: hello');
    expect(r.model).toBe('gpt-test');
    await w.flush();
    // Priced as gpt-test (1 and 2), not the target's 5 and 5.
    expect(before - (await w.quotaOf(w.user.userId))).toBe(Math.ceil('hello'.length / 4) * 1 + Math.ceil(r.choices[0]!.message.content!.length / 4) * 2);
  });

  it('forwards by keyword regex, and by a decision model when no keyword matches', async () => {
    await setForward({ forward_rule: 2, match_rule: [2, 1], keywords: ['weather|forecast'], target_models: [target], decision_model: decision });
    expect((await ask('what is the weather today')).choices[0]!.message.content).toContain('mock target-model');
    // No literal match: the decision model answers "0" → the target.
    w.mock.requests.length = 0;
    expect((await ask('will it rain? [[mock:reply=0]]')).choices[0]!.message.content).toBe('0');
    expect(w.mock.requests.map((q) => q.model)).toEqual(['decision-model', 'target-model']);
    // The decision says -1: no forwarding.
    w.mock.requests.length = 0;
    await ask('tell me a joke [[mock:reply=-1]]');
    expect(w.mock.requests.map((q) => q.model)).toEqual(['decision-model', 'gpt-test']);
    await w.flush();
    const smart = await w.server.app.ctx.db.selectFrom('call_logs').selectAll().where('is_smart_match', '=', 1).execute();
    expect(smart.length).toBe(2);
    expect(smart.every((l) => l.total_price === 0 && l.real_model === 'decision-model')).toBe(true);
  });

  it('applies the preset system prompt and clamps max_tokens', async () => {
    await setForward(null, { is_enable_preset_config: true, preset_config: { is_support_system_role: true, system_role_prompt: 'You are terse.', min_tokens: 10, max_tokens: 100 } });
    await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'system', content: 'ignored' }, { role: 'user', content: 'x' }], max_tokens: 5000 });
    const sent = w.mock.requests[0]!.body as { messages: { role: string; content: string }[]; max_tokens?: number; max_completion_tokens?: number };
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(sent.max_tokens ?? sent.max_completion_tokens).toBe(100);
    await setForward(null);
  });
});
