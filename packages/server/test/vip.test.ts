// VIP levels over HTTP on both databases: the permission matrix, validation, defaults, the VIP center
// and session badge, and the ladder (applyVipRules: upgrade on recharge, expiry back to the default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addVipRecharge, applyVipRules, runVipPass } from '../src/vip/rules';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const V = '/api/v1/sys/vip';
type Signed = Client & { userId: number };

describe.each(dialects)('VIP levels on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let res1: Signed;
  let res2: Signed;
  let user: Signed;
  let resUser: Signed;

  const create = async (c: Client, body: Record<string, unknown>) => {
    const r = await c.post(`${V}/create`, body);
    expect(r.body).toMatchObject({ code: 0 });
    return r.body.data.id as string;
  };
  const db = () => server.app.ctx.db;
  const userRow = (id: number) => db().selectFrom('users').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    res1 = await signedIn(server, 'reseller', 'vres1');
    res2 = await signedIn(server, 'reseller', 'vres2');
    user = await signedIn(server, 'user', 'vuser1');
    resUser = await signedIn(server, 'user', 'vuser2', { rid: res1.userId });
  });
  afterAll(() => server?.close());

  it('creates and reads back every field (discount percent in, fraction out)', async () => {
    const events: string[] = [];
    const off = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}`));
    const silver = await create(a, { name: 'Silver', discount: 95 });
    const id = await create(a, {
      name: 'Gold',
      discount: 85.5,
      color: '#d4af37',
      duration: 60,
      is_public: true,
      sort: 2,
      remark: 'gold tier',
      rate_limits: { rpm: 60, tpd: 1000 },
      rules: [{ type: 'downgrade', recharge_quota: 500000, used_quota: 0, target_level: silver }],
    });
    off();
    expect(events).toEqual(['vip_levels:create', 'vip_levels:create']);
    const d = (await a.get(`${V}/detail`, { id })).body;
    expect(d).toMatchObject({
      code: 0,
      data: {
        id,
        user_id: 0,
        name: 'Gold',
        discount: 0.855,
        color: '#d4af37',
        duration: 60,
        groups: [],
        is_public: true,
        is_default: false,
        sort: 2,
        remark: 'gold tier',
        rate_limits: { rps: 0, rpm: 60, rpd: 0, tps: 0, tpm: 0, tpd: 1000, ips: 0, ipm: 0, ipd: 0 },
        rules: [{ type: 'downgrade', recharge_quota: 500000, used_quota: 0, target_level: silver, target_level_name: 'Silver' }],
        status: 1,
      },
    });
    // Empty duration = permanent (0).
    const perm = await create(a, { name: 'Perm', duration: '' });
    expect((await a.get(`${V}/detail`, { id: perm })).body.data.duration).toBe(0);
  });

  it('keeps resellers to their own levels and refuses users (HTTP 401)', async () => {
    const adminLevel = await create(a, { name: 'AdminOnly' });
    const own = await create(res1, { name: 'R1 level', is_public: true });
    expect((await a.get(`${V}/detail`, { id: own })).body.data.user_id).toBe(res1.userId);
    // A reseller sees and writes only its own.
    const page = (await res1.post(`${V}/page`, {})).body.data;
    expect(page.items.map((l: { name: string }) => l.name)).toEqual(['R1 level']);
    for (const [url, body] of [
      [`${V}/update`, { id: adminLevel, name: 'x' }],
      [`${V}/change/status`, { id: adminLevel, status: 2 }],
      [`${V}/delete`, { id: adminLevel }],
      [`${V}/batch/operate`, { action: 'delete', ids: [adminLevel] }],
    ] as const) {
      expect((await res1.post(url, body)).body).toMatchObject({ code: 50, message: '记录不存在' });
      expect((await res2.post(url, { ...body, id: own, ids: [own] })).body).toMatchObject({ code: 50, message: '记录不存在' });
    }
    expect((await res1.get(`${V}/detail`, { id: adminLevel })).body).toMatchObject({ code: 50 });
    expect((await res1.get(`${V}/detail`, { id: own })).body).toMatchObject({ code: 0 });
    expect((await res2.post(`${V}/change/public`, { id: own, is_public: false })).body).toMatchObject({ code: 50 });
    expect((await res1.post(`${V}/change/public`, { id: own, is_public: false })).body).toMatchObject({ code: 0 });
    expect((await res1.get(`${V}/detail`, { id: own })).body.data.is_public).toBe(false);
    expect((await user.post(`${V}/change/public`, { id: own, is_public: true })).status).toBe(401);
    // The admin may manage everybody's.
    expect((await a.post(`${V}/change/public`, { id: own, is_public: true })).body).toMatchObject({ code: 0 });
    expect((await a.post(`${V}/change/status`, { id: own, status: 1 })).body).toMatchObject({ code: 0 });
    // Users: no management verbs at all.
    for (const url of [`${V}/create`, `${V}/update`, `${V}/delete`, `${V}/page`, `${V}/change/status`, `${V}/batch/operate`]) {
      const r = await user.post(url, { id: own, name: 'x', ids: [own], action: 'delete' });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe(401);
    }
    expect((await user.get(`${V}/detail`, { id: own })).status).toBe(401);
    // list: the levels that apply to the caller.
    const listOf = async (c: Client) => ((await c.get(`${V}/list`)).body.data.items as { name: string }[]).map((l) => l.name);
    expect(await listOf(resUser)).toEqual(['R1 level']);
    expect(await listOf(user)).toContain('AdminOnly');
    expect(await listOf(user)).not.toContain('R1 level');
    expect(await listOf(res1)).toEqual(['R1 level']);
    expect(await listOf(a)).toEqual(expect.arrayContaining(['AdminOnly', 'R1 level']));
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = (await a.post(`${V}/page`, { pageSize: 100 })).body.data.paging.total;
    const bad = async (body: Record<string, unknown>, field: string) => {
      const r = await a.post(`${V}/create`, { name: 'Bad', ...body });
      expect(r.body.code).not.toBe(0);
      expect(r.body.message).toContain(field);
    };
    await bad({ discount: 150 }, 'discount');
    await bad({ color: 'red' }, 'color');
    await bad({ duration: -1 }, 'duration');
    await bad({ rate_limits: { rpm: -2 } }, 'rate_limits');
    await bad({ groups: ['nope'] }, 'groups');
    await bad({ rules: [{ type: 'upgrade', recharge_quota: 1, target_level: 'nope' }] }, 'rules[0].target_level');
    await bad({ rules: [{ type: 'sideways', recharge_quota: 1, target_level: 'x' }] }, 'rules');
    // A reseller cannot point rules at the admin's levels.
    const adminLevel = await create(a, { name: 'Target' });
    const r = await res1.post(`${V}/create`, { name: 'R', rules: [{ type: 'upgrade', recharge_quota: 10, target_level: adminLevel }] });
    expect(r.body.code).toBe(51);
    expect((await a.post(`${V}/page`, { pageSize: 100 })).body.data.paging.total).toBe(before + 1);
  });

  it('rejects a rule pointing at its own level with a clear error', async () => {
    const id = await create(res1, { name: 'Self' });
    const r = await res1.post(`${V}/update`, { id, name: 'Self', rules: [{ type: 'upgrade', recharge_quota: 100, target_level: id }] });
    expect(r.body).toMatchObject({ code: 51 });
    expect(r.body.message).toBe('会员等级规则不能指向自身：rules[0].target_level');
    res1.lang = 'en-US';
    expect((await res1.post(`${V}/update`, { id, name: 'Self', rules: [{ type: 'upgrade', recharge_quota: 100, target_level: id }] })).body.message).toContain('cannot point at its own level');
    res1.lang = 'zh-CN';
  });

  it('keeps one default per owner', async () => {
    const d1 = await create(res2, { name: 'D1', is_default: true });
    const d2 = await create(res2, { name: 'D2', is_default: true });
    const items = (await res2.post(`${V}/page`, {})).body.data.items as { id: string; is_default: boolean }[];
    expect(items.find((l) => l.id === d1)!.is_default).toBe(false);
    expect(items.find((l) => l.id === d2)!.is_default).toBe(true);
    // The admin's default is untouched by a reseller's.
    const ad = await create(a, { name: 'AdminDefault', is_default: true });
    expect((await a.get(`${V}/detail`, { id: d2 })).body.data.is_default).toBe(true);
    expect((await a.get(`${V}/detail`, { id: ad })).body.data.is_default).toBe(true);
    await a.post(`${V}/delete`, { id: ad });
  });

  it('upgrades on the recharge threshold, expires back to the default, and shows it all in the VIP center', async () => {
    const u = await signedIn(server, 'user', 'vladder', { rid: res2.userId });
    const bronze = await create(res2, { name: 'Bronze', is_default: true, is_public: true, color: '#cd7f32', sort: 1 });
    const gold = await create(res2, { name: 'GoldR', is_public: true, color: '#ffd700', duration: 30, sort: 3, rate_limits: { rpm: 5 } });
    await res2.post(`${V}/update`, { id: bronze, name: 'Bronze', is_default: true, is_public: true, color: '#cd7f32', sort: 1, rules: [{ type: 'upgrade', recharge_quota: 1_000_000, used_quota: 0, target_level: gold }] });
    // No level of its own: the default applies, with progress towards Gold.
    let center = (await u.get('/api/v1/vip/center')).body.data;
    expect(center.level).toMatchObject({ id: bronze, name: 'Bronze', color: '#cd7f32', is_default: true });
    expect(center.next).toMatchObject({ level_id: gold, level_name: 'GoldR', recharge_quota: 1_000_000, progress: 0 });
    expect(center.levels.map((l: { name: string }) => l.name)).toEqual(['Bronze', 'GoldR']);
    expect((await u.get('/api/v1/user/info')).body.data).toMatchObject({ vip_level_name: 'Bronze', vip_level_color: '#cd7f32' });

    const events: string[] = [];
    const off = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}:${e.ids.join(',')}`));
    expect(await addVipRecharge(server.app.ctx, u.userId, 400_000)).toBeUndefined();
    center = (await u.get('/api/v1/vip/center')).body.data;
    expect(center.recharge_quota).toBe(400_000);
    expect(center.next.progress).toBeCloseTo(0.4);
    expect(await addVipRecharge(server.app.ctx, u.userId, 600_000)).toBe(gold);
    off();
    expect(events).toEqual([`users:update:${u.userId}`]);
    let row = await userRow(u.userId);
    expect(row).toMatchObject({ vip_level: gold, vip_level_recharge_quota: 0, vip_level_used_quota: 0 });
    expect(Number(row.vip_level_expires_at) - Number(row.vip_level_start_time)).toBe(30 * 60_000);
    center = (await u.get('/api/v1/vip/center')).body.data;
    expect(center.level).toMatchObject({ id: gold, name: 'GoldR', is_default: false, rate_limits: { rpm: 5 } });
    expect(center.level.expires_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await u.get('/api/v1/user/info')).body.data.vip_level_name).toBe('GoldR');

    // Nothing more to do while the level lasts.
    expect(await applyVipRules(server.app.ctx, u.userId)).toBeUndefined();
    // Past the expiry (the scheduled pass): back to the default.
    const later = Number(row.vip_level_expires_at) + 1;
    expect(await runVipPass(server.app.ctx, later)).toBeGreaterThanOrEqual(1);
    row = await userRow(u.userId);
    expect(row).toMatchObject({ vip_level: bronze, vip_level_expires_at: null });
    expect((await u.get('/api/v1/user/info')).body.data.vip_level_name).toBe('Bronze');
  });

  it('a recharge through the console lifts the account to the next level', async () => {
    const u = await signedIn(server, 'user', 'vrecharge');
    const base = await create(a, { name: 'Base', is_default: true, is_public: true, color: '#999999', sort: 1 });
    const plus = await create(a, { name: 'Plus', is_public: true, color: '#165dff', sort: 2 });
    expect((await a.post(`${V}/update`, { id: base, name: 'Base', is_default: true, is_public: true, color: '#999999', sort: 1, rules: [{ type: 'upgrade', recharge_quota: 500_000, used_quota: 0, target_level: plus }] })).body.code).toBe(0);
    expect((await a.post('/api/v1/admin/user/recharge', { user_id: u.userId, quota: 500_000, quota_type: 1 })).body.code).toBe(0);
    expect((await userRow(u.userId)).vip_level).toBe(plus);
    expect((await u.get('/api/v1/user/info')).body.data.vip_level_name).toBe('Plus');
  });

  it('downgrades at the end of a period unless the thresholds were reached', async () => {
    const u = await signedIn(server, 'user', 'vdown', { rid: res1.userId });
    const low = await create(res1, { name: 'Low' });
    const high = await create(res1, { name: 'High', duration: 10, rules: [{ type: 'downgrade', recharge_quota: 100, target_level: low }] });
    const start = Date.now();
    await db().updateTable('users').set({ vip_level: high, vip_level_start_time: start, vip_level_expires_at: start + 600_000, vip_level_recharge_quota: 150 }).where('user_id', '=', u.userId).execute();
    // Reached: renews.
    expect(await applyVipRules(server.app.ctx, u.userId, start + 600_001)).toBe(high);
    expect(await userRow(u.userId)).toMatchObject({ vip_level: high, vip_level_expires_at: start + 600_001 + 600_000, vip_level_recharge_quota: 0 });
    // Missed: down to Low.
    expect(await applyVipRules(server.app.ctx, u.userId, start + 1_300_000)).toBe(low);
    // Deleting a level moves its users off it.
    await res1.post(`${V}/delete`, { id: low });
    expect((await userRow(u.userId)).vip_level).toBe('');
  });
});
