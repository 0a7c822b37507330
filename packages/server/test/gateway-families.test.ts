import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, expectNoDrift } from './helpers';
import { settled, world, type World } from './gateway-fixtures';

describe.each(dialects)('chat through every provider family on %s', (dialect) => {
  let w: World;

  beforeAll(async () => {
    w = await world(dialect);
    for (const [code, name] of [['Anthropic', 'claude-test'], ['Google', 'gemini-test'], ['Azure', 'azure-test']] as const) {
      const corp = (await w.admin.post('/api/v1/corp/create', { name: code, code, is_public: true })).body.data.id;
      const model = (await w.admin.post('/api/v1/model/create', { corp, name, model: name, type: 1, is_public: true, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 } })).body.data.id;
      const agent = await w.admin.post('/api/v1/model/agent/create', { corp, name: `${code} agent`, base_url: w.mock.url, models: [model], key: `sk-${code.toLowerCase()}-upstream-key` });
      expect(agent.body.code).toBe(0);
    }
    await settled(w);
  });
  afterAll(() => w?.close());

  for (const [name, path] of [
    ['claude-test', '/v1/messages'],
    ['gemini-test', '/v1beta/models/gemini-test:generateContent'],
    ['azure-test', '/openai/deployments/azure-test/chat/completions'],
  ] as const) {
    it(`answers ${name} in the OpenAI shape, plain and streamed`, async () => {
      w.mock.requests.length = 0;
      const r = await w.openai.chat.completions.create({ model: name, messages: [{ role: 'system', content: 'be kind' }, { role: 'user', content: 'hi' }] });
      expect(r.choices[0]!.message.content).toBe(`Hello from mock ${name}! You said: hi`);
      expect(r.usage!.completion_tokens).toBeGreaterThan(0);
      expect(w.mock.requests[0]!.path).toBe(path);
      const stream = await w.openai.chat.completions.create({ model: name, messages: [{ role: 'user', content: 'yo' }], stream: true, stream_options: { include_usage: true } });
      let text = '';
      let usage;
      for await (const c of stream) {
        text += c.choices[0]?.delta.content ?? '';
        if (c.usage) usage = c.usage;
      }
      expect(text).toBe(`Hello from mock ${name}! You said: yo`);
      expect(usage).toMatchObject({ prompt_tokens: 1 });
    });
  }

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});
