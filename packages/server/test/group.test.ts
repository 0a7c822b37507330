import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, setFloor, signedIn, startServer, type TestServer } from './helpers';

const G = '/api/v1/group';
type Signed = Client & { userId: number };

describe.each(dialects)('groups on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let res1: Signed;
  let res2: Signed;
  let user: Signed;
  let resUser: Signed;
  let corp: string;
  let m1: string;
  let m2: string;

  const create = async (c: Client, body: Record<string, unknown>) => {
    const r = await c.post(`${G}/create`, { discount: 100, weight: 1, ...body });
    expect(r.body).toMatchObject({ code: 0 });
    return r.body.data.id as string;
  };
  const names = (r: { body: { data: { items: { name: string }[] } } }) => r.body.data.items.map((g) => g.name).sort();

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    res1 = await signedIn(server, 'reseller', 'gres1');
    // Its groups below are priced under list: a floor that allows them (issue 13).
    await setFloor(server, res1.userId, 5000);
    res2 = await signedIn(server, 'reseller', 'gres2');
    user = await signedIn(server, 'user', 'guser1');
    resUser = await signedIn(server, 'user', 'guser2', { rid: res1.userId });
    corp = (await a.post('/api/v1/corp/create', { name: 'OpenAI', code: 'OpenAI' })).body.data.id;
    m1 = (await a.post('/api/v1/model/create', { corp, name: 'm1', model: 'm1', type: 1 })).body.data.id;
    m2 = (await a.post('/api/v1/model/create', { corp, name: 'm2', model: 'm2', type: 1 })).body.data.id;
  });
  afterAll(() => server?.close());

  it('creates, reads back, changes and deletes with events', async () => {
    const agent = (await a.post('/api/v1/model/agent/create', { corp, name: 'GA', base_url: 'https://ga.example' })).body.data.id;
    const events: string[] = [];
    const off = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}`));
    const id = await create(a, {
      name: 'VIP',
      discount: 85.5,
      models: [m1, m2],
      is_public: true,
      vip_levels: ['v1'],
      weight: 50,
      expires_at: '2099-01-02 03:04:05',
      remark: 'gold',
      is_limit_quota: true,
      quota: 5_000_000,
      rate_limits: { rpm: 60, tpm: 100000 },
      is_enable_model_agent: true,
      lb_strategy: 2,
      model_agents: [agent],
      is_enable_forward: true,
      forward_config: { forward_rule: 2, match_rule: [2], keywords: ['draw|image'], target_models: [m2] },
    });
    expect(events).toEqual(['groups:create']);
    const d = (await a.get(`${G}/detail`, { id })).body.data;
    expect(d).toMatchObject({
      user_id: 0,
      name: 'VIP',
      discount: 0.855,
      models: [m1, m2],
      model_names: ['m1', 'm2'],
      is_public: true,
      vip_levels: ['v1'],
      weight: 50,
      expires_at: '2099-01-02 03:04:05',
      is_limit_quota: true,
      quota: 5_000_000,
      used_quota: 0,
      rate_limits: { rps: 0, rpm: 60, rpd: 0, tps: 0, tpm: 100000, tpd: 0 },
      model_agents: [agent],
      model_agent_names: ['GA'],
      forward_config: { forward_rule: 2, keywords: ['draw|image'], target_models: [m2], target_model_names: ['m2'] },
    });
    // The derived side: the model lists the group.
    expect((await a.get('/api/v1/model/detail', { id: m1 })).body.data.group_names).toEqual(['VIP']);

    expect((await a.post(`${G}/change/expire`, { id, expires_at: '' })).body.code).toBe(0);
    expect((await a.get(`${G}/detail`, { id })).body.data.expires_at).toBe('');
    expect((await a.post(`${G}/change/public`, { id, is_public: false })).body.code).toBe(0);
    expect((await a.post(`${G}/change/status`, { id, status: 2 })).body.code).toBe(0);
    expect((await a.get(`${G}/detail`, { id })).body.data).toMatchObject({ is_public: false, status: 2 });
    expect((await a.post(`${G}/update`, { id, name: 'VIP2', discount: 0, weight: 100 })).body.code).toBe(0);
    expect((await a.get(`${G}/detail`, { id })).body.data).toMatchObject({ name: 'VIP2', discount: 0, models: [], status: 1 });

    await server.app.ctx.db.updateTable('users').set({ groups: JSON.stringify([id]) }).where('user_id', '=', user.userId).execute();
    expect((await a.post(`${G}/delete`, { id })).body.code).toBe(0);
    const u = await server.app.ctx.db.selectFrom('users').select('groups').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    expect(u.groups).toBe('[]');
    off();
    expect(events).toContain('groups:delete');
    expect(events).toContain('users:update');
  });

  it('keeps one default per owner', async () => {
    const d1 = await create(a, { name: 'D1', is_default: true, weight: 3 });
    const d2 = await create(a, { name: 'D2', is_default: true, weight: 2 });
    const r1 = await create(res1, { name: 'R-default', is_default: true });
    expect((await a.get(`${G}/detail`, { id: d1 })).body.data.is_default).toBe(false);
    expect((await a.get(`${G}/detail`, { id: d2 })).body.data).toMatchObject({ is_default: true, weight: 2 });
    expect((await a.get(`${G}/detail`, { id: r1 })).body.data.is_default).toBe(true);
    const order = (await a.post(`${G}/page`, { name: 'D' })).body.data.items.map((g: { name: string }) => g.name);
    expect(order.indexOf('D2')).toBeLessThan(order.indexOf('D1'));
    await a.post(`${G}/batch/operate`, { action: 'delete', ids: [d1, d2, r1] });
  });

  it('pages with filters', async () => {
    const agent = (await a.post('/api/v1/model/agent/create', { corp, name: 'FA', base_url: 'https://fa.example' })).body.data.id;
    await create(a, { name: 'flt-one', models: [m1], remark: 'north', expires_at: '2030-06-01 00:00:00' });
    await create(a, { name: 'flt-two', models: [m2], model_agents: [agent], status: 2 });
    const page = (f: Record<string, unknown>) => a.post(`${G}/page`, { name: 'flt-', ...f });
    expect(names(await page({}))).toEqual(['flt-one', 'flt-two']);
    expect(names(await page({ models: [m1] }))).toEqual(['flt-one']);
    expect(names(await page({ models: [m1, m2] }))).toEqual(['flt-one', 'flt-two']);
    expect(names(await page({ model_agents: agent }))).toEqual(['flt-two']);
    expect(names(await page({ remark: 'NOR' }))).toEqual(['flt-one']);
    expect(names(await page({ status: 2 }))).toEqual(['flt-two']);
    expect(names(await page({ created_at: ['2030-05-01', '2030-06-30'] }))).toEqual(['flt-one']);
  });

  it('scopes resellers to their own groups and users to what they may use', async () => {
    const pubAdmin = await create(a, { name: 'sc-admin-public', is_public: true, models: [m1], discount: 90 });
    const privAdmin = await create(a, { name: 'sc-admin-private' });
    const grantedAdmin = await create(a, { name: 'sc-admin-granted' });
    const own1 = await create(res1, { name: 'sc-res1-public', is_public: true, models: [m1], discount: 70 });
    const own1priv = await create(res1, { name: 'sc-res1-private' });
    const own2 = await create(res2, { name: 'sc-res2-public', is_public: true });
    await create(a, { name: 'sc-admin-expired', is_public: true, expires_at: '2001-01-01 00:00:00' });
    const db = server.app.ctx.db;
    await db.updateTable('users').set({ groups: JSON.stringify([grantedAdmin, own2]) }).where('user_id', 'in', [user.userId, resUser.userId]).execute();
    await db.updateTable('users').set({ groups: JSON.stringify([grantedAdmin]) }).where('user_id', '=', res1.userId).execute();

    const page = (c: Client, f: Record<string, unknown> = {}) => c.post(`${G}/page`, { name: 'sc-', ...f });
    expect(names(await page(a))).toHaveLength(7);
    expect(names(await page(user))).toEqual(['sc-admin-granted', 'sc-admin-public']);
    expect(names(await page(resUser))).toEqual(['sc-admin-granted', 'sc-admin-public', 'sc-res1-public']);
    expect(names(await page(res1))).toEqual(['sc-admin-granted', 'sc-admin-public', 'sc-res1-private', 'sc-res1-public']);
    expect(names(await page(res1, { owned: true }))).toEqual(['sc-res1-private', 'sc-res1-public']);
    expect((await user.get(`${G}/list`)).body.data.items.map((g: { name: string }) => g.name).filter((n: string) => n.startsWith('sc-')).sort()).toEqual(['sc-admin-granted', 'sc-admin-public']);
    const row = (await page(resUser, { name: 'sc-res1-public' })).body.data.items[0];
    expect(row).toMatchObject({ discount: 0.7, user_id: res1.userId, model_agents: [] });
    // Equal weights, no default: the most recently updated usable group bills (access.ts byPriority).
    const my = (await resUser.post('/api/v1/model/page', { name: 'm1' })).body.data.items[0];
    expect(my.discount).toBe(0.7);

    // Writes: a reseller only touches its own groups; reading an admin group is fine.
    expect((await res1.get(`${G}/detail`, { id: pubAdmin })).body.code).toBe(0);
    for (const [verb, body] of [
      ['update', { id: own2, name: 'x', discount: 1, weight: 1 }],
      ['update', { id: pubAdmin, name: 'x', discount: 1, weight: 1 }],
      ['delete', { id: own2 }],
      ['change/status', { id: own2, status: 2 }],
      ['change/public', { id: pubAdmin, is_public: false }],
      ['change/expire', { id: own2, expires_at: '' }],
      ['batch/operate', { action: 'delete', ids: [own2] }],
    ] as const) {
      expect((await res1.post(`${G}/${verb}`, body)).body, verb).toMatchObject({ code: 50, message: '记录不存在' });
    }
    expect((await res1.get(`${G}/detail`, { id: own2 })).body.code).toBe(50);
    expect((await res1.get(`${G}/detail`, { id: privAdmin })).body.code).toBe(50);
    expect((await res2.get(`${G}/detail`, { id: own1priv })).body.code).toBe(50);
    expect((await res1.post(`${G}/update`, { id: own1, name: 'sc-res1-public', discount: 60, weight: 2, is_public: true, models: [m1] })).body.code).toBe(0);
    expect((await a.get(`${G}/detail`, { id: own1 })).body.data).toMatchObject({ discount: 0.6, user_id: res1.userId });

    // A reseller resells only models it may use, and cannot route through agents.
    const r = await res1.post(`${G}/create`, { name: 'sc-bad', discount: 50, weight: 1, models: [m2] });
    expect(r.body).toMatchObject({ code: 51 });
    expect(r.body.message).toContain('models');
    expect((await res1.post(`${G}/create`, { name: 'sc-bad', discount: 50, weight: 1, model_agents: ['x'] })).body.message).toContain('model_agents');

    // Users cannot manage groups at all.
    for (const verb of ['create', 'update', 'delete', 'change/status', 'change/public', 'change/expire', 'batch/operate']) {
      const u = await user.post(`${G}/${verb}`, {});
      expect(u.status, verb).toBe(401);
      expect(u.body.code).toBe(401);
    }
    expect((await user.get(`${G}/detail`, { id: pubAdmin })).status).toBe(401);
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = (await a.post(`${G}/page`, {})).body.data.paging.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ discount: -1 }, 'discount'],
      [{ discount: 100.01 }, 'discount'],
      [{ weight: 0 }, 'weight'],
      [{ weight: 101 }, 'weight'],
      [{ status: 3 }, 'status'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ quota: -5 }, 'quota'],
      [{ rate_limits: { rpm: -1 } }, 'rate_limits.rpm'],
      [{ models: ['ghost'] }, 'models'],
      [{ model_agents: ['ghost'] }, 'model_agents'],
      [{ is_enable_forward: true, forward_config: { forward_rule: 4, target_model: 'ghost' } }, 'forward_config.target_model'],
      [{ is_enable_forward: true, forward_config: { forward_rule: 2, keywords: ['a'], target_models: [], match_rule: [2] } }, 'forward_config.target_models'],
    ];
    for (const [body, field] of cases) {
      const r = await a.post(`${G}/create`, { name: 'bad', discount: 50, weight: 1, ...body });
      expect(r.body.code, field).toBe(51);
      expect(r.body.message, field).toContain(field);
    }
    expect((await a.post(`${G}/batch/operate`, { action: 'explode', ids: ['1'] })).body.message).toContain('action');
    expect((await a.post(`${G}/update`, { id: 'ghost', name: 'x', discount: 1, weight: 1 })).body.message).toBe('记录不存在');
    expect((await a.post(`${G}/page`, {})).body.data.paging.total).toBe(before);
  });
});
