// VIP speed limits at admission: a level with rpm 2 on the caller's user refuses the third call in a
// minute with 429 (scope vip:<id>); an expired level no longer limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled, world, type World } from './gateway-fixtures';
import { dialects, expectNoDrift } from './helpers';

describe.each(dialects)('gateway VIP limits on %s', (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w?.close());

  const call = () => fetch(`${w.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'ping' }] }),
  });

  it('refuses the third call in a minute with 429 for a VIP level with rpm 2', async () => {
    const created = await w.admin.post('/api/v1/sys/vip/create', { name: 'Slow', rate_limits: { rpm: 2 } });
    expect(created.body.code).toBe(0);
    const level = created.body.data.id as string;
    await w.server.app.ctx.db.updateTable('users').set({ vip_level: level, vip_level_start_time: Date.now() }).where('user_id', '=', w.user.userId).execute();
    w.server.app.ctx.bus.publish({ entity: 'users', op: 'update', ids: [String(w.user.userId)] });
    await settled(w);
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const third = await call();
    expect(third.status).toBe(429);
    const body = (await third.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('rate_limit_exceeded');
    expect(body.error.message).toContain('vip');
  });

  it('stops limiting once the level has expired', async () => {
    await w.server.app.ctx.db.updateTable('users').set({ vip_level_expires_at: Date.now() - 1000 }).where('user_id', '=', w.user.userId).execute();
    w.server.app.ctx.bus.publish({ entity: 'users', op: 'update', ids: [String(w.user.userId)] });
    await settled(w);
    expect((await call()).status).toBe(200);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(w.server));
});

describe.each(dialects)('gateway VIP discount on %s', (dialect) => {
  it('charges the VIP discount on top of the group discount', async () => {
    const w = await world(dialect);
    try {
      const g = await w.admin.post('/api/v1/group/create', { name: 'half', discount: 50, models: [w.model], is_public: true, is_default: true, weight: 10 });
      expect(g.body.code).toBe(0);
      const v = await w.admin.post('/api/v1/sys/vip/create', { name: 'Gold', discount: 80 });
      expect(v.body.code).toBe(0);
      await w.server.app.ctx.db.updateTable('users').set({ vip_level: v.body.data.id, vip_level_start_time: Date.now() }).where('user_id', '=', w.user.userId).execute();
      w.server.app.ctx.bus.publish({ entity: 'users', op: 'update', ids: [String(w.user.userId)] });
      await settled(w);
      await w.flush();
      const before = await w.quotaOf(w.user.userId);
      const r = await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'ping' }] });
      await w.flush();
      const base = r.usage!.prompt_tokens * 1 + r.usage!.completion_tokens * 2;
      // 50 % × 80 % = 40 %, rounded up once.
      expect(before - (await w.quotaOf(w.user.userId))).toBe(Math.ceil((base * 4000) / 10_000));
      const log = await w.server.app.ctx.db.selectFrom('call_logs').select('discount_bp').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      expect(log.discount_bp).toBe(4000);
    } finally {
      await w.close();
    }
  });
});

describe.each(dialects)('groups granted by a VIP level on %s', (dialect) => {
  it('opens a private group to members of the level, in the gateway and under "my group"', async () => {
    const w = await world(dialect);
    try {
      // A private model in a private group: nobody may use it yet.
      const model = (await w.admin.post('/api/v1/model/create', { corp: w.corp, name: 'vip-only', model: 'vip-only', type: 1, is_enable_model_agent: true, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 } })).body.data.id;
      await w.admin.post('/api/v1/model/agent/update', { id: w.agent, corp: w.corp, name: 'mock', base_url: w.mock.url, models: [w.model, model], key: 'sk-mock-upstream-key-1\nsk-mock-upstream-key-2' });
      const group = (await w.admin.post('/api/v1/group/create', { name: 'members', discount: 100, models: [model], weight: 5 })).body.data.id;
      await settled(w);
      const ask = () => w.openai.chat.completions.create({ model: 'vip-only', messages: [{ role: 'user', content: 'hi' }] });
      await expect(ask()).rejects.toMatchObject({ status: 404 });
      const mine = async () => ((await w.user.get('/api/v1/group/list')).body.data.items as { id: string }[]).map((g) => g.id);
      expect(await mine()).not.toContain(group);

      // The level lists the group: its members get it.
      const level = (await w.admin.post('/api/v1/sys/vip/create', { name: 'Member', groups: [group] })).body.data.id;
      await w.server.app.ctx.db.updateTable('users').set({ vip_level: level, vip_level_start_time: Date.now() }).where('user_id', '=', w.user.userId).execute();
      w.server.app.ctx.bus.publish({ entity: 'users', op: 'update', ids: [String(w.user.userId)] });
      await settled(w);
      expect((await ask()).choices[0]!.message.content).toContain('vip-only');
      expect(await mine()).toContain(group);

      // Or the group lists the level.
      await w.admin.post('/api/v1/sys/vip/update', { id: level, name: 'Member', groups: [] });
      await w.admin.post('/api/v1/group/update', { id: group, name: 'members', discount: 100, models: [model], weight: 5, vip_levels: [level] });
      await settled(w);
      expect((await ask()).choices).toHaveLength(1);
    } finally {
      await w.close();
    }
  });
});
