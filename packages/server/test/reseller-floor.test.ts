// A reseller's floor (issue 13): a reseller group priced at 0 made its users' calls free while the
// platform paid the upstream. The admin sets each reseller's floor (default 100 %); its groups and VIP
// levels cannot be priced below it (console), and the gateway never bills its users below it, whatever
// rows are stored (an old row, a floor raised later, group × VIP stacking). The reseller sees its margin
// (what its users paid against what that cost at the floor) on its dashboard and bills; its users never do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { floorCost } from '../src/billing/floor';
import { settled, world, type World } from './gateway-fixtures';
import { dialects, expectNoDrift, setQuota, signedIn, type Client } from './helpers';
import { runStats } from './stat-fixtures';

type Signed = Client & { userId: number };
const R = '/api/v1/admin/reseller';

describe.each(dialects)('reseller floor on %s', (dialect) => {
  let w: World;
  let reseller: Signed;
  let ru: Signed;
  let client: OpenAI;
  const db = () => w.server.app.ctx.db;

  beforeAll(async () => {
    w = await world(dialect);
    reseller = await signedIn(w.server, 'reseller', `floor-reseller-${dialect}`);
    ru = await signedIn(w.server, 'user', `floor-user-${dialect}@example.com`, { rid: reseller.userId });
    await setQuota(w.server, ru.userId, 10_000_000);
    await w.server.app.gateway.snapshot.reload('users', [String(reseller.userId), String(ru.userId)]);
    const app = await ru.post('/api/v1/app/create', { name: 'floor app', is_create_key: true });
    expect(app.body.code).toBe(0);
    client = new OpenAI({ apiKey: app.body.data.key as string, baseURL: `${w.server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    if (w) await expectNoDrift(w.server);
    await w?.close();
  });

  /** One call of the reseller's user: its call-log row and what the user's balance paid. */
  const call = async () => {
    await w.flush();
    const before = await w.quotaOf(ru.userId);
    const r = await client.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'how much?' }] });
    await w.flush();
    const log = await db().selectFrom('call_logs').selectAll().where('trace_id', '=', r._request_id!).executeTakeFirstOrThrow();
    // gpt-test: prompt × 1 + completion × 2 quota units at list price.
    const list = r.usage!.prompt_tokens + r.usage!.completion_tokens * 2;
    return { log, paid: before - (await w.quotaOf(ru.userId)), list };
  };
  const setFloor = async (floor: number) => {
    const row = await db().selectFrom('users').selectAll().where('user_id', '=', reseller.userId).executeTakeFirstOrThrow();
    return w.admin.post(`${R}/update`, { id: row.id, account: row.account, name: row.name, email: row.email, floor });
  };

  it('bills a reseller group stored at 0 % at the floor (100 % by default): calls are no longer free', async () => {
    // The console refuses the group, naming the floor…
    const refused = await reseller.post('/api/v1/group/create', { name: 'free', discount: 0, models: [w.model], is_public: true, is_default: true, weight: 1 });
    expect(refused.body.code).toBe(51);
    expect(refused.body.message).toContain('100');
    // …and a row already stored at 0 % (written before floors existed) is billed at the floor.
    const now = Date.now();
    await db()
      .insertInto('groups')
      .values({
        id: `free-${dialect}`, user_id: reseller.userId, name: 'free', remark: '', discount_bp: 0, is_default: 1, is_public: 1, weight: 1, expires_at: null,
        is_limit_quota: 0, quota: 0, used_quota: 0, rate_limits: '{}', is_enable_model_agent: 0, lb_strategy: 1, is_enable_forward: 0, forward_config: '',
        models: JSON.stringify([w.model]), vip_levels: '[]', model_agents: '[]', status: 1, created_at: now, updated_at: now,
      })
      .execute();
    await w.server.app.gateway.snapshot.reload('groups', [`free-${dialect}`]);
    const { log, paid, list } = await call();
    expect(log).toMatchObject({ group_id: `free-${dialect}`, discount_bp: 10_000, floor_bp: 10_000 });
    expect(list).toBeGreaterThan(0);
    expect(Number(log.total_price)).toBe(list);
    expect(paid).toBe(list);
  });

  it('lets the admin set the floor; groups and VIP levels below it are refused, at or above it saved', async () => {
    expect((await setFloor(101)).body).toMatchObject({ code: 51 });
    expect((await setFloor(60)).body.code).toBe(0);
    const detail = await w.admin.get(`${R}/detail`, { id: (await db().selectFrom('users').select('id').where('user_id', '=', reseller.userId).executeTakeFirstOrThrow()).id });
    expect(detail.body.data.floor).toBe(0.6);
    expect((await reseller.get('/api/v1/user/info')).body.data.floor).toBe(0.6);
    // Its users never learn their reseller's cost price.
    expect((await ru.get('/api/v1/user/info')).body.data.floor).toBeUndefined();
    // Only resellers have a floor.
    const plain = await db().selectFrom('users').selectAll().where('user_id', '=', ru.userId).executeTakeFirstOrThrow();
    expect((await w.admin.post('/api/v1/admin/user/update', { id: plain.id, account: plain.account, name: plain.name, email: plain.email, floor: 50 })).body.code).toBe(51);

    const low = await reseller.post('/api/v1/group/create', { name: 'cheap', discount: 59.99, models: [w.model], weight: 1 });
    expect(low.body).toMatchObject({ code: 51 });
    expect(low.body.message).toContain('60');
    const ok = await reseller.post('/api/v1/group/create', { name: 'sixty', discount: 60, models: [w.model], weight: 1 });
    expect(ok.body.code).toBe(0);
    // An update is checked too, and so is an admin editing the reseller's group.
    expect((await reseller.post('/api/v1/group/update', { id: ok.body.data.id, name: 'sixty', discount: 10, weight: 1 })).body.code).toBe(51);
    expect((await w.admin.post('/api/v1/group/update', { id: ok.body.data.id, name: 'sixty', discount: 10, weight: 1 })).body.code).toBe(51);
    // The admin's own groups have no floor.
    expect((await w.admin.post('/api/v1/group/create', { name: 'platform promo', discount: 10, weight: 1 })).body.code).toBe(0);

    expect((await reseller.post('/api/v1/sys/vip/create', { name: 'cheap', discount: 50 })).body.code).toBe(51);
    const vip = await reseller.post('/api/v1/sys/vip/create', { name: 'gold', discount: 70 });
    expect(vip.body.code).toBe(0);
    expect((await reseller.post('/api/v1/sys/vip/update', { id: vip.body.data.id, name: 'gold', discount: 0 })).body.code).toBe(51);
  });

  it('never bills below the floor when a group and a VIP level stack under it', async () => {
    await db().updateTable('groups').set({ discount_bp: 7000, updated_at: Date.now() }).where('id', '=', `free-${dialect}`).execute();
    const level = (await db().selectFrom('vip_levels').select('id').where('user_id', '=', reseller.userId).where('name', '=', 'gold').executeTakeFirstOrThrow()).id;
    await db().updateTable('users').set({ vip_level: level, vip_level_start_time: Date.now() }).where('user_id', '=', ru.userId).execute();
    await w.server.app.gateway.snapshot.reload('groups', [`free-${dialect}`]);
    await w.server.app.gateway.snapshot.reload('users', [String(ru.userId)]);
    // 70 % × 70 % = 49 %, below the floor of 60 %.
    const { log, paid, list } = await call();
    expect(log).toMatchObject({ discount_bp: 6000, floor_bp: 6000 });
    expect(paid).toBe(Math.ceil((list * 6000) / 10_000));
  });

  it('bills at a raised floor from the next call on', async () => {
    await db().updateTable('users').set({ vip_level: '', vip_level_start_time: null }).where('user_id', '=', ru.userId).execute();
    await w.server.app.gateway.snapshot.reload('users', [String(ru.userId)]);
    const atGroup = await call();
    expect(atGroup.log).toMatchObject({ discount_bp: 7000, floor_bp: 6000 });
    expect((await setFloor(90)).body.code).toBe(0);
    await settled(w);
    const raised = await call();
    expect(raised.log).toMatchObject({ discount_bp: 9000, floor_bp: 9000 });
    expect(raised.paid).toBe(Math.ceil((raised.list * 9000) / 10_000));
  });

  it("shows the reseller its margin on the dashboard and its users' bills, and never to the user", async () => {
    await runStats(w.server);
    const logs = await db().selectFrom('call_logs').select(['total_price', 'discount_bp', 'floor_bp']).where('user_id', '=', ru.userId).execute();
    const spend = logs.reduce((n, l) => n + Number(l.total_price), 0);
    const floorSpend = logs.reduce((n, l) => n + floorCost(Number(l.total_price), l.discount_bp, l.floor_bp), 0);
    // The 70 % call cost 60 % at the floor: a real margin.
    expect(spend - floorSpend).toBeGreaterThan(0);

    const margin = await reseller.get('/api/v1/dashboard/margin/7');
    expect(margin.body.code).toBe(0);
    expect(margin.body.data).toMatchObject({ floor: 0.9, spend, floor_spend: floorSpend, margin: spend - floorSpend });
    expect(margin.body.data.items).toHaveLength(7);
    expect(margin.body.data.items.at(-1)).toMatchObject({ spend, floor_spend: floorSpend, margin: spend - floorSpend });
    expect((await ru.get('/api/v1/dashboard/margin/7')).status).toBe(401);

    const billOf = async (c: Client) => ((await c.post('/api/v1/finance/bill/page', { current: 1, pageSize: 20, user_id: ru.userId })).body.data.items as Record<string, unknown>[])[0]!;
    // A bill's charge in quota units is `tokens` (the original console's meaning, docs/SPEC.md §3.10.1); floor and margin stay quota units.
    expect(await billOf(reseller)).toMatchObject({ tokens: spend, floor_spend: floorSpend, margin: spend - floorSpend });
    expect(await billOf(w.admin)).toMatchObject({ tokens: spend, floor_spend: floorSpend, margin: spend - floorSpend });
    const own = await billOf(ru);
    expect(own.tokens).toBe(spend);
    expect(own).not.toHaveProperty('floor_spend');
    expect(own).not.toHaveProperty('margin');
  });
});
