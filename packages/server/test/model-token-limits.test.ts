// A model's declared token limits (issue 14): `context_window` and `max_output_tokens` are kept and
// validated by the console, listed by `/v1/models` and Gemini's `/v1beta/models`, and the output limit
// bounds a call's reservation: a call without max_tokens reserves for the model's limit instead of 4,096.
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { settled, world, type World } from './gateway-fixtures';
import { setQuota, signedIn, type TestDialect } from './helpers';

describe.each<TestDialect>(['sqlite', 'postgres'])('model token limits on %s', (dialect) => {
  let w: World;
  const M = '/api/v1/model';
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w?.close());

  /** A model like gpt-test (prompt 1, completion 2 per token) behind the world's mock agent. */
  async function model(name: string, limits: Record<string, number>) {
    const res = await w.admin.post(`${M}/create`, { corp: w.corp, name, model: 'gpt-test', type: 1, is_public: true, is_enable_model_agent: true, model_agents: [w.agent], text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 }, ...limits });
    expect(res.body.code, res.body.message).toBe(0);
    return res.body.data.id as string;
  }

  it('keeps, shows and updates them; an output limit above the window or a negative count is refused', async () => {
    const id = await model('limits-crud', { context_window: 128_000, max_output_tokens: 16_384 });
    const detail = (await w.admin.get(`${M}/detail`, { id })).body.data;
    expect(detail).toMatchObject({ context_window: 128_000, max_output_tokens: 16_384 });
    const page = (await w.admin.post(`${M}/page`, { current: 1, pageSize: 50, name: 'limits-crud' })).body.data.items;
    expect(page[0]).toMatchObject({ context_window: 128_000, max_output_tokens: 16_384 });

    const { forward_config: _none, ...fields } = detail;
    const update = await w.admin.post(`${M}/update`, { ...fields, id, max_output_tokens: 8_192 });
    expect(update.body.code, update.body.message).toBe(0);
    expect((await w.admin.get(`${M}/detail`, { id })).body.data.max_output_tokens).toBe(8_192);

    for (const bad of [{ context_window: 1_000, max_output_tokens: 2_000 }, { context_window: -1 }, { max_output_tokens: 1.5 }, { context_window: '4k' }]) {
      const res = await w.admin.post(`${M}/create`, { corp: w.corp, name: 'limits-bad', model: 'gpt-test', type: 1, ...bad });
      expect(res.body.code, JSON.stringify(bad)).not.toBe(0);
      expect(res.body.message).toMatch(/max_output_tokens|context_window/);
    }
    // Undeclared, they are 0.
    const plain = (await w.admin.get(`${M}/detail`, { id: w.model })).body.data;
    expect(plain).toMatchObject({ context_window: 0, max_output_tokens: 0 });
  });

  it('lists them on /v1/models and /v1beta/models when declared, and omits them when not', async () => {
    await model('limits-listed', { context_window: 200_000, max_output_tokens: 32_000 });
    await settled(w);
    const listed = await w.openai.models.list();
    const byId = new Map(listed.data.map((m) => [m.id, m as unknown as Record<string, unknown>]));
    expect(byId.get('limits-listed')).toMatchObject({ context_window: 200_000, max_output_tokens: 32_000 });
    expect(byId.get('gpt-test')).not.toHaveProperty('context_window');
    expect(byId.get('gpt-test')).not.toHaveProperty('max_output_tokens');

    const gemini = await fetch(`${w.server.url}/v1beta/models/limits-listed`, { headers: { 'x-goog-api-key': w.key } });
    expect(gemini.status).toBe(200);
    expect(await gemini.json()).toMatchObject({ name: 'models/limits-listed', inputTokenLimit: 200_000, outputTokenLimit: 32_000 });
  });

  it('reserves for the declared output limit when the call sets none, and never for more', async () => {
    await model('limits-reserve', { max_output_tokens: 1_000 });
    // A balance that pays for about 3,000 completion tokens: enough for the declared 1,000, short of the 4,096 default.
    const user = await signedIn(w.server, 'user', `limits-${Math.random().toString(36).slice(2, 8)}@example.com`);
    await setQuota(w.server, user.userId, 6_000);
    await w.server.app.gateway.snapshot.reload('users', [String(user.userId)]);
    const app = await user.post('/api/v1/app/create', { name: 'Limits', is_create_key: true });
    const { default: OpenAI } = await import('openai');
    const openai = new OpenAI({ apiKey: app.body.data.key as string, baseURL: `${w.server.url}/v1`, maxRetries: 0 });

    // Undeclared: the 4,096 default does not fit, so the gateway shrinks the hold and sends the cap it pays for.
    w.mock.requests.length = 0;
    await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
    const shrunk = (w.mock.requests[0]!.body as { max_tokens?: number }).max_tokens;
    expect(shrunk).toBeGreaterThan(1_000);
    expect(shrunk).toBeLessThan(4_096);

    // Declared 1,000: the whole budget is affordable, nothing is capped; a client's 50,000 reserves 1,000 too.
    for (const asked of [undefined, 50_000]) {
      w.mock.requests.length = 0;
      await openai.chat.completions.create({ model: 'limits-reserve', messages: [{ role: 'user', content: 'hi' }], ...(asked ? { max_tokens: asked } : {}) });
      expect((w.mock.requests[0]!.body as { max_tokens?: number }).max_tokens).toBe(asked);
    }
  });
});
