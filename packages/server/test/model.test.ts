import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelCreateSchema } from '@fastgate/core/entities/model';
import { modelValues } from '../src/console/model-wire';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const M = '/api/v1/model';

describe.each(dialects)('models on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client & { userId: number };
  let user: Client & { userId: number };
  let corp: string;
  let corp2: string;

  const create = async (body: Record<string, unknown>) => {
    const r = await a.post(`${M}/create`, { corp, type: 1, ...body });
    expect(r.body).toMatchObject({ code: 0 });
    return r.body.data.id as string;
  };
  const group = async (body: Record<string, unknown>) => {
    const r = await a.post('/api/v1/group/create', { discount: 100, weight: 1, ...body });
    expect(r.body).toMatchObject({ code: 0 });
    return r.body.data.id as string;
  };
  const names = (r: { body: { data: { items: { name: string }[] } } }) => r.body.data.items.map((m) => m.name).sort();

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'mres1');
    user = await signedIn(server, 'user', 'muser1');
    corp = (await a.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI', is_public: true })).body.data.id;
    corp2 = (await a.post('/api/v1/corp/create', { name: 'Anthropic', code: 'Anthropic', sort: 9 })).body.data.id;
  });
  afterAll(() => server?.close());

  it('creates with prices and links, derives groups and agents, updates and deletes', async () => {
    const events: string[] = [];
    const off = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}:${e.ids.length}`));
    const g1 = await group({ name: 'G1' });
    const g2 = await group({ name: 'G2' });
    const agent = (await a.post(`${M}/agent/create`, { corp, name: 'A1', base_url: 'https://up.example' })).body.data.id;
    events.length = 0;
    const id = await create({
      name: 'gpt-4o',
      model: 'gpt-4o',
      text_quota: { billing_method: 1, prompt_ratio: 1.25, completion_ratio: 5, prompt_price: 0.0025 },
      image_quota: { billing_method: 2, generation_quotas: [{ quality: 'hd', width: 1024, height: 1024, fixed_quota: 40000, is_default: true }] },
      multimodal_quota: { billing_rule: 1, vision_quotas: [{ mode: 'low', fixed_quota: 100 }], search_quotas: [{ search_context_size: 'medium', fixed_quota: 17500 }] },
      digital_human_quota: { fixed_quota: 5000, unit: 'second' },
      groups: [g1, g2],
      is_enable_model_agent: true,
      lb_strategy: 2,
      model_agents: [agent],
    });
    expect(events.sort()).toEqual(['groups:update:2', 'model_agents:update:1', 'models:create:1']);
    off();

    const d = (await a.get(`${M}/detail`, { id })).body.data;
    expect(d).toMatchObject({ corp, corp_name: 'OpenAI', corp_code: 'OpenAI', name: 'gpt-4o', type: 1, lb_strategy: 2, is_enable_model_agent: true, model_agents: [agent], model_agent_names: ['A1'] });
    expect(d.group_names.sort()).toEqual(['G1', 'G2']);
    expect(d.text_quota).toEqual({ billing_method: 1, prompt_ratio: 1.25, completion_ratio: 5, cached_ratio: 0, fixed_quota: 0 });
    expect(d.image_quota.generation_quotas[0]).toMatchObject({ quality: 'hd', width: 1024, fixed_quota: 40000, is_default: true });
    expect(d.multimodal_quota.search_quotas).toEqual([{ search_context_size: 'medium', fixed_quota: 17500, is_default: false }]);
    expect(d.digital_human_quota).toEqual({ fixed_quota: 5000, unit: 'second' });
    expect((await a.get('/api/v1/group/detail', { id: g1 })).body.data.models).toEqual([id]);
    expect((await a.get(`${M}/agent/detail`, { id: agent })).body.data.models).toEqual([id]);

    // Update: drop G2 and the agent; the other sides follow.
    const up = await a.post(`${M}/update`, { id, corp: corp2, type: 1, name: 'gpt-4o', model: 'gpt-4o', groups: [g1], model_agents: [], is_enable_forward: true, forward_config: { forward_rule: 3, target_model: id, content_length: 1000 } });
    expect(up.body).toMatchObject({ code: 0 });
    expect((await a.get('/api/v1/group/detail', { id: g2 })).body.data.models).toEqual([]);
    expect((await a.get(`${M}/agent/detail`, { id: agent })).body.data.models).toEqual([]);
    const d2 = (await a.get(`${M}/detail`, { id })).body.data;
    expect(d2).toMatchObject({ corp_name: 'Anthropic', groups: [g1], model_agents: [], forward_config: { forward_rule: 3, target_model: id, target_model_name: 'gpt-4o' } });
    expect(d2.text_quota).toBeUndefined();

    expect((await a.post(`${M}/change/status`, { id, status: 2 })).body.code).toBe(0);
    expect((await a.get(`${M}/detail`, { id })).body.data.status).toBe(2);
    expect((await a.post(`${M}/delete`, { id })).body.code).toBe(0);
    expect((await a.get('/api/v1/group/detail', { id: g1 })).body.data.models).toEqual([]);
    expect((await a.get(`${M}/detail`, { id })).body).toMatchObject({ code: 50 });
  });

  it('pages with filters, lists and builds the tree', async () => {
    const g = await group({ name: 'Filter' });
    await create({ name: 'flt-alpha', model: 'alpha-1', type: 1, groups: [g], remark: 'first' });
    await create({ name: 'flt-beta', model: 'beta-1', type: 2 });
    await create({ corp: corp2, name: 'flt-claude', model: 'claude-3', type: 1, status: 2 });
    const page = (f: Record<string, unknown>) => a.post(`${M}/page`, { current: 1, pageSize: 50, name: 'flt-', ...f });
    expect(names(await page({}))).toEqual(['flt-alpha', 'flt-beta', 'flt-claude']);
    expect(names(await page({ type: 2 }))).toEqual(['flt-beta']);
    expect(names(await page({ corp: corp2 }))).toEqual(['flt-claude']);
    expect(names(await page({ group: g }))).toEqual(['flt-alpha']);
    expect(names(await page({ model: 'BETA' }))).toEqual(['flt-beta']);
    expect(names(await page({ remark: 'fir' }))).toEqual(['flt-alpha']);
    expect(names(await page({ status: 2 }))).toEqual(['flt-claude']);
    expect(names(await page({ created_at: ['2000-01-01', '2000-01-02'] }))).toEqual([]);
    const all = (await page({})).body.data;
    expect(all.items.map((m: { status: number }) => m.status)).toEqual([1, 1, 2]);
    expect(all.paging).toMatchObject({ current: 1, pageSize: 50, total: 3 });

    const list = (await a.get(`${M}/list`)).body.data.items;
    expect(list.find((m: { name: string }) => m.name === 'flt-claude')).toEqual({ id: expect.any(String), corp: corp2, name: 'flt-claude', model: 'claude-3', type: 1, status: 2 });

    const tree = (await a.get(`${M}/tree`)).body.data.items;
    const openai = tree.find((c: { value: string }) => c.value === corp);
    expect(openai.title).toBe('OpenAI');
    const text = openai.children.find((t: { value: string }) => t.value === `${corp}:1`);
    expect(text.title).toBe('文生文');
    expect(text.children.map((m: { title: string }) => m.title)).toContain('flt-alpha');
    // Disabled models stay out of the tree.
    expect(JSON.stringify(tree)).not.toContain('flt-claude');
  });

  it('runs the batch actions', async () => {
    const agent = (await a.post(`${M}/agent/create`, { corp, name: 'BatchAgent', base_url: 'https://b.example' })).body.data.id;
    const x = await create({ name: 'b-x', model: 'b-x' });
    const y = await create({ name: 'b-y', model: 'b-y' });
    const ids = [x, y];
    const op = (body: Record<string, unknown>) => a.post(`${M}/batch/operate`, { ids, ...body });
    expect((await op({ action: 'agent', value: 'all', lb_strategy: 2, model_agents: [agent] })).body.code).toBe(0);
    expect((await a.get(`${M}/detail`, { id: y })).body.data).toMatchObject({ is_enable_model_agent: true, lb_strategy: 2, model_agents: [agent] });
    expect((await a.get(`${M}/agent/detail`, { id: agent })).body.data.models.sort()).toEqual([...ids].sort());
    expect((await op({ action: 'agent', value: false })).body.code).toBe(0);
    expect((await a.get(`${M}/detail`, { id: x })).body.data.is_enable_model_agent).toBe(false);
    expect((await op({ action: 'forward', value: 'all', target_model: y })).body.code).toBe(0);
    expect((await a.get(`${M}/detail`, { id: x })).body.data).toMatchObject({ is_enable_forward: true, forward_config: { forward_rule: 1, target_model: y, target_model_name: 'b-y' } });
    expect((await op({ action: 'fallback', value: 'all', fallback_config: { model_agent: agent, model: y } })).body.code).toBe(0);
    expect((await a.get(`${M}/detail`, { id: x })).body.data.fallback_config).toEqual({ model_agent: agent, model: y, model_agent_name: 'BatchAgent', model_name: 'b-y' });
    expect((await op({ action: 'fallback', value: false })).body.code).toBe(0);
    expect((await op({ action: 'status', value: 2 })).body.code).toBe(0);
    expect((await a.get(`${M}/detail`, { id: y })).body.data.status).toBe(2);

    const bad = await op({ action: 'forward', value: 'all', target_model: 'nope' });
    expect(bad.body).toMatchObject({ code: 51 });
    expect(bad.body.message).toContain('target_model');
    expect((await op({ action: 'explode' })).body.message).toContain('action');
    expect((await op({ action: 'agent', value: 'maybe' })).body.message).toContain('value');
    expect((await a.post(`${M}/batch/operate`, { action: 'forward', value: true, ids: ['404'] })).body.code).toBe(50);
    expect((await op({ action: 'delete' })).body.code).toBe(0);
    expect((await a.get(`${M}/agent/detail`, { id: agent })).body.data.models).toEqual([]);
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = (await a.post(`${M}/page`, {})).body.data.paging.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(101), model: 'm' }, 'name'],
      [{ name: 'n', model: 'm'.repeat(101) }, 'model'],
      [{ name: 'n', model: 'm', status: 3 }, 'status'],
      [{ name: 'n', model: 'm', type: 8 }, 'type'],
      [{ name: 'n', model: 'm', corp: 'ghost' }, 'corp'],
      [{ name: 'n', model: 'm', groups: ['ghost'] }, 'groups'],
      [{ name: 'n', model: 'm', model_agents: ['ghost'] }, 'model_agents'],
      [{ name: 'n', model: 'm', is_enable_fallback: true, fallback_config: { model: 'ghost' } }, 'fallback_config.model'],
      [{ name: 'n', model: 'm', is_enable_forward: true, forward_config: { forward_rule: 1, target_model: 'ghost' } }, 'forward_config.target_model'],
      [{ name: 'n', model: 'm', is_enable_forward: true }, 'forward_config'],
      [{ name: 'n', model: 'm', text_quota: { prompt_ratio: -1 } }, 'text_quota.prompt_ratio'],
      [{ name: 'n', model: 'm', text_quota: { fixed_quota: 1.5 } }, 'text_quota.fixed_quota'],
      [{ name: 'n', model: 'm', image_quota: { generation_quotas: [{ width: 1, height: 1, is_default: true }, { width: 2, height: 2, is_default: true }] } }, 'image_quota.generation_quotas'],
    ];
    for (const [body, field] of cases) {
      const r = await a.post(`${M}/create`, { corp, type: 1, ...body });
      expect(r.body.code, field).toBe(51);
      expect(r.body.message, field).toContain(field);
    }
    expect((await a.post(`${M}/update`, { id: 'ghost', corp, type: 1, name: 'n', model: 'm' })).body.message).toBe('记录不存在');
    expect((await a.post(`${M}/page`, {})).body.data.paging.total).toBe(before);
  });

  it('keeps admin verbs from resellers and users', async () => {
    for (const c of [reseller, user]) {
      for (const verb of ['create', 'update', 'delete', 'change/status', 'batch/operate']) {
        const r = await c.post(`${M}/${verb}`, {});
        expect(r.status, verb).toBe(401);
        expect(r.body.code).toBe(401);
      }
      expect((await c.get(`${M}/detail`, { id: '1' })).status).toBe(401);
    }
  });

  it('shows resellers and users only the models they may use, with their discount', async () => {
    const pub = await create({ name: 'my-public', model: 'my-public', is_public: true });
    const inPublic = await create({ name: 'my-in-public-group', model: 'p' });
    const inPrivate = await create({ name: 'my-in-private-group', model: 'q' });
    const granted = await create({ name: 'my-granted', model: 'r' });
    const off = await create({ name: 'my-disabled', model: 's', is_public: true, status: 2 });
    await group({ name: 'Public80', discount: 80, is_public: true, weight: 5, models: [inPublic, pub] });
    const priv = await group({ name: 'Private', discount: 50, models: [inPrivate] });
    await server.app.ctx.db.updateTable('users').set({ models: JSON.stringify([granted]) }).where('user_id', '=', user.userId).execute();

    const mine = async (c: Client) => {
      const items = (await c.post(`${M}/page`, { name: 'my-', pageSize: 100 })).body.data.items as { name: string; discount: number; group_name: string; base_url?: string }[];
      return Object.fromEntries(items.map((m) => [m.name, [m.discount, m.group_name]]));
    };
    expect(await mine(user)).toEqual({ 'my-public': [0.8, 'Public80'], 'my-in-public-group': [0.8, 'Public80'], 'my-granted': [1, ''] });
    expect(await mine(reseller)).toEqual({ 'my-public': [0.8, 'Public80'], 'my-in-public-group': [0.8, 'Public80'] });
    const row = (await user.post(`${M}/page`, { name: 'my-public' })).body.data.items[0];
    expect(row.base_url).toBeUndefined();
    expect(row.model_agents).toBeUndefined();

    // Granting the private group to the user adds its model at its discount.
    await server.app.ctx.db.updateTable('users').set({ groups: JSON.stringify([priv]) }).where('user_id', '=', user.userId).execute();
    expect((await mine(user))['my-in-private-group']).toEqual([0.5, 'Private']);
    const list = (await user.get(`${M}/list`)).body.data.items.map((m: { id: string }) => m.id);
    expect(list).toContain(inPrivate);
    expect(list).not.toContain(off);
    const tree = JSON.stringify((await user.get(`${M}/tree`)).body.data.items);
    expect(tree).toContain('my-in-private-group');
    expect(tree).not.toContain('my-disabled');

    const perms = await user.post(`${M}/permissions`, { id: priv, action: 'group' });
    expect(perms.body.data.items.map((m: { id: string }) => m.id)).toEqual([inPrivate]);
    expect((await reseller.post(`${M}/permissions`, { id: priv, action: 'group' })).body.code).toBe(50);
    expect((await user.post(`${M}/permissions`, { id: user.userId, action: 'user' })).body.data.items.map((m: { id: string }) => m.id)).toEqual([granted]);
    expect((await a.post(`${M}/permissions`, { id: priv, action: 'group' })).body.data.items).toHaveLength(1);
  });

  it('pages 5,000 models', async () => {
    const now = Date.now();
    // Every column as the console stores a new model, the rows then differ in id, corp, names and time.
    const bulkValues = modelValues(modelCreateSchema.parse({ corp, name: 'bulk', model: 'bulk', type: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2, cached_ratio: 0, fixed_quota: 0 } }));
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      ...bulkValues,
      id: `bulk${String(i).padStart(6, '0')}`,
      corp: i % 2 ? corp : corp2,
      name: `bulk-${i}`,
      model: `bulk-model-${i}`,
      created_at: now,
      updated_at: now + i,
    }));
    for (let i = 0; i < rows.length; i += 500) await server.app.ctx.db.insertInto('models').values(rows.slice(i, i + 500)).execute();
    for (const pageSize of [20, 1000]) {
      await a.post(`${M}/page`, { current: 1, pageSize });
      const t0 = performance.now();
      const r = await a.post(`${M}/page`, { current: 2, pageSize });
      const ms = performance.now() - t0;
      expect(r.body.data.items).toHaveLength(pageSize);
      expect(r.body.data.paging.total).toBeGreaterThanOrEqual(5000);
      console.log(`[${dialect}] /model/page pageSize ${pageSize} over 5000+ models: ${ms.toFixed(1)} ms`);
    }
    const t0 = performance.now();
    const u = await user.post(`${M}/page`, { current: 1, pageSize: 20 });
    console.log(`[${dialect}] /model/page as a user over 5000+ models: ${(performance.now() - t0).toFixed(1)} ms`);
    expect(u.body.code).toBe(0);
  });
});
