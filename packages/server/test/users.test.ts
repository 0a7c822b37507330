// Managed users (/admin/user), deal records and the registration gift, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, expectNoDrift, signedIn, startServer, type TestServer } from './helpers';
import { callLog, chargeLogs } from './stat-fixtures';

const U = '/api/v1/admin/user';

describe.each(dialects)('managed users on %s', (dialect) => {
  let server: TestServer;
  let a: Client;

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
  });
  afterAll(() => server?.close());

  const userRow = (userId: number) => server.app.ctx.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const deals = (userId: number) => server.app.ctx.db.selectFrom('deal_records').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();

  it('creates a user with an opening balance as a deal record, and the user can sign in', async () => {
    const events: string[] = [];
    const off = server.app.ctx.bus.subscribe((e) => events.push(`${e.entity}:${e.op}:${e.ids.join(',')}`));
    const r = await a.post(`${U}/create`, {
      account: 'alice', name: 'Alice', email: 'Alice@Example.com', password: 'secret1', quota: 1_000_000, quota_type: 3,
      warning_threshold: 5, expire_warning_threshold: 3, ip_whitelist: '10.1.*.*\n192.168.0.1', remark: 'vip',
    });
    expect(r.body.code).toBe(0);
    const { id, user_id } = r.body.data;
    expect(events).toContain(`users:update:${user_id}`);
    off?.();
    const detail = await a.get(`${U}/detail`, { id });
    expect(detail.body.data).toMatchObject({
      id, user_id, account: 'alice', name: 'Alice', email: 'alice@example.com', quota: 1_000_000, used_quota: 0, quota_type: 3,
      warning_threshold: 5, expire_warning_threshold: 3, ip_whitelist: ['10.1.*.*', '192.168.0.1'], rid: 0, status: 1, remark: 'vip',
      warning_notice: false, exhaustion_notice: false, vip_level: '', groups: [], models: [],
    });
    expect(detail.body.data).not.toHaveProperty('password_hash');
    expect((await deals(user_id)).map((d) => [d.type, d.quota, d.status, d.creator])).toEqual([[3, 1_000_000, 1, 'admin']]);
    const c = new Client(server.url);
    await c.login('user', 'alice', 'secret1');
    const mine = await c.post('/api/v1/finance/deal/record/page', {});
    expect(mine.body.data.items).toHaveLength(1);
    expect(mine.body.data.items[0]).toMatchObject({ user_id, quota: 1_000_000, type: 3, status: 1 });
    const expense = await c.get('/api/v1/dashboard/expense');
    expect(expense.body.data).toMatchObject({ quota: 1_000_000, quota_usd: 2, used_quota: 0 });
  });

  it('refuses bad input naming the field and writes nothing', async () => {
    const before = await server.app.ctx.db.selectFrom('users').select('user_id').execute();
    for (const [body, field] of [
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io', password: '123' }, 'password'],
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io' }, 'password'],
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io', password: 'secret1', quota: -5 }, 'quota'],
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io', password: 'secret1', quota: 1.5 }, 'quota'],
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io', password: 'secret1', quota_expires_at: '2001-01-01 00:00:00' }, 'quota_expires_at'],
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io', password: 'secret1', ip_whitelist: 'not-an-ip' }, 'ip_whitelist'],
      [{ account: 'b1', name: 'Bo', email: 'b1@x.io', password: 'secret1', groups: ['nope'] }, 'groups'],
      // The display-name rule: 2–30 of Chinese, letters, digits, _ and -.
      [{ account: 'b1', name: 'r', email: 'b1@x.io', password: 'secret1' }, 'name'],
      [{ account: 'b1', name: 'bad name!@#', email: 'b1@x.io', password: 'secret1' }, 'name'],
    ] as const) {
      const r = await a.post(`${U}/create`, body);
      expect(r.body.code, JSON.stringify(body)).not.toBe(0);
      expect(r.body.message).toContain(field);
    }
    expect((await a.post(`${U}/create`, { account: 'alice', name: 'A2', email: 'other@x.io', password: 'secret1' })).body.message).toBe('账号已存在');
    expect(await server.app.ctx.db.selectFrom('users').select('user_id').execute()).toHaveLength(before.length);
  });

  it('recharges, deducts and gifts with deal records; rejected requests change no balance', async () => {
    const created = await a.post(`${U}/create`, { account: 'bob', name: 'Bob', email: 'bob@x.io', password: 'secret1' });
    const { id, user_id } = created.body.data;
    expect((await a.post(`${U}/recharge`, { user_id, quota: 500_000, quota_type: 1, quota_expires_at: '2099-01-01 00:00:00' })).body.code).toBe(0);
    expect((await a.post(`${U}/recharge`, { user_id, quota: 100_000, quota_type: 2 })).body.code).toBe(0);
    expect((await a.post(`${U}/recharge`, { user_id, quota: 50_000, quota_type: 3 })).body.code).toBe(0);
    let row = await userRow(user_id);
    expect(row.quota).toBe(450_000);
    expect(row.vip_level_recharge_quota).toBe(500_000);
    expect((await a.get(`${U}/detail`, { id })).body.data.quota_expires_at).toBe('2099-01-01 00:00:00');

    // Over-deduction, negative, fractional, zero, past expiry, unknown type: all refused.
    const over = await a.post(`${U}/recharge`, { user_id, quota: 999_999_999, quota_type: 2 });
    expect(over.body).toMatchObject({ code: 50, message: '用户额度不足，无法扣除' });
    for (const bad of [{ quota: -1 }, { quota: 1.5 }, { quota: 0 }, { quota: 10, quota_expires_at: '2001-01-01' }, { quota: 10, quota_type: 4 }]) {
      const r = await a.post(`${U}/recharge`, { user_id, quota_type: 1, ...bad });
      expect(r.body.code, JSON.stringify(bad)).not.toBe(0);
    }
    row = await userRow(user_id);
    expect(row.quota).toBe(450_000);
    expect((await deals(user_id)).map((d) => [d.type, d.quota])).toEqual([[1, 500_000], [2, 100_000], [3, 50_000]]);

    // A concurrent charge, written by the ledger's own writer, is never overwritten by a recharge.
    await Promise.all([a.post(`${U}/recharge`, { user_id, quota: 1000 }), chargeLogs(server, [callLog({ user_id, req_time: Date.now(), total_price: 7 })])]);
    expect((await userRow(user_id)).quota).toBe(450_000 + 1000 - 7);

    // Recharging clears the notice flags.
    await server.app.ctx.db.updateTable('users').set({ warning_notice: 1, exhaustion_notice: 1, expire_warning_notice: 1, expire_notice: 1 }).where('user_id', '=', user_id).execute();
    await a.post(`${U}/batch/operate`, { action: 'recharge', ids: [id], value: 10, quota_type: 3 });
    row = await userRow(user_id);
    expect([row.warning_notice, row.exhaustion_notice, row.expire_warning_notice, row.expire_notice]).toEqual([0, 0, 0, 0]);

    const page = await a.post('/api/v1/finance/deal/record/page', { user_id, type: 2 });
    expect(page.body.data.items.map((d: { quota: number }) => d.quota)).toEqual([100_000]);
  });

  it('updates fields, password, expiry, status, permissions; pages and lists with filters', async () => {
    const { id, user_id } = (await a.post(`${U}/create`, { account: 'carol', name: 'Carol', email: 'carol@x.io', password: 'secret1' })).body.data;
    const upd = await a.post(`${U}/update`, { id, account: 'carol', name: 'Carol_B', email: 'carol@x.io', phone: '13800000000', password: 'newpass1', quota_warning: false, status: 1 });
    expect(upd.body.code).toBe(0);
    const c = new Client(server.url);
    await c.login('user', 'carol', 'newpass1');
    expect((await a.post(`${U}/update`, { id, account: 'carol', name: 'Carol_B', email: 'carol@x.io', password: '12' })).body.code).toBe(51);

    expect((await a.post(`${U}/change/quota/expire`, { id, quota_expires_at: '2098-05-06 07:08:09' })).body.code).toBe(0);
    expect((await a.get(`${U}/detail`, { id })).body.data).toMatchObject({ quota_expires_at: '2098-05-06 07:08:09', phone: '13800000000', quota_warning: false, name: 'Carol_B' });
    expect((await a.post(`${U}/change/quota/expire`, { id, quota_expires_at: '2000-01-01 00:00:00' })).body.code).not.toBe(0);

    // Per-user group authorisation.
    const now = Date.now();
    await server.app.ctx.db.insertInto('groups').values({
      id: 'g-private', user_id: 0, name: 'Private', remark: '', discount_bp: 9000, is_default: 0, is_public: 0, weight: 1, expires_at: null, is_limit_quota: 0, quota: 0, used_quota: 0,
      rate_limits: '{}', is_enable_model_agent: 0, lb_strategy: 1, is_enable_forward: 0, forward_config: '{}', models: '[]', vip_levels: '[]', model_agents: '[]', status: 1, created_at: now, updated_at: now,
    }).execute();
    expect((await a.post(`${U}/permissions`, { user_id, groups: ['g-private'], models: [] })).body.code).toBe(0);
    expect((await a.get(`${U}/detail`, { id })).body.data).toMatchObject({ groups: ['g-private'], group_names: ['Private'] });
    expect((await c.get('/api/v1/group/list')).body.data.items.map((g: { id: string }) => g.id)).toContain('g-private');
    expect((await a.post(`${U}/permissions`, { user_id, groups: ['missing'] })).body.code).not.toBe(0);

    const page = await a.post(`${U}/page`, { account: 'caro', status: 1 });
    expect(page.body.data.items.map((u: { user_id: number }) => u.user_id)).toEqual([user_id]);
    const cheap = await a.post(`${U}/page`, { quota: '0.5', pageSize: 100 });
    expect(cheap.body.data.items.every((u: { quota: number }) => u.quota < 250_000)).toBe(true);
    const list = await a.get(`${U}/list`, { name: 'Carol' });
    expect(list.body.data.items).toEqual([{ id, user_id, account: 'carol', name: 'Carol_B' }]);

    expect((await a.post(`${U}/change/status`, { id, status: 2 })).body.code).toBe(0);
    expect((await c.get('/api/v1/user/info')).status).toBe(401);
    expect((await new Client(server.url).post('/api/v1/auth/login', { account: 'carol', password: 'newpass1', channel: 'user', method: 'account' })).body.code).not.toBe(0);
    expect((await a.post(`${U}/batch/operate`, { action: 'status', ids: [id], value: 1 })).body.code).toBe(0);
    expect((await userRow(user_id)).status).toBe(1);
  });

  it('deletes with the purge choices', async () => {
    const u = await signedIn(server, 'user', 'dave@x.io');
    await u.post('/api/v1/app/create', { name: 'my app', is_create_key: true });
    await a.post(`${U}/recharge`, { user_id: u.userId, quota: 10 });
    const row = await userRow(u.userId);
    const keep = await a.post(`${U}/delete`, { id: row.id, data: [2] });
    expect(keep.body.code).toBe(0);
    const db = server.app.ctx.db;
    expect(await db.selectFrom('users').select('id').where('user_id', '=', u.userId).execute()).toHaveLength(0);
    expect(await db.selectFrom('apps').select('id').where('user_id', '=', u.userId).execute()).toHaveLength(0);
    expect(await db.selectFrom('app_keys').select('id').where('user_id', '=', u.userId).execute()).toHaveLength(0);
    // Deal records were not in the purge list: they stay.
    expect(await deals(u.userId)).toHaveLength(1);
    expect((await a.get(`${U}/detail`, { id: row.id })).body).toMatchObject({ code: 50, message: '记录不存在' });
  });

  it('registration gifts the site grant as a deal record and creates the default app with one key', async () => {
    const now = Date.now();
    const db = server.app.ctx.db;
    const site = { id: 'site-main', user_id: 1, domain: 'main.test', grant_quota: 250_000, quota_expires_at: 60, mail_port: 465, status: 1, approved: 1, created_at: now, updated_at: now };
    await db.insertInto('site_configs').values(site as never).execute();
    const { registerByEmail } = await import('../src/auth/accounts');
    const user = await registerByEmail(server.app.ctx, { role: 'user', email: 'New@x.io', password: 'secret1', domain: 'main.test' });
    expect(user.quota).toBe(250_000);
    expect(user.quota_expires_at).toBeGreaterThan(now + 59 * 60_000);
    expect((await deals(user.user_id)).map((d) => [d.type, d.quota, d.remark])).toEqual([[3, 250_000, '注册赠送']]);
    const apps = await db.selectFrom('apps').selectAll().where('user_id', '=', user.user_id).execute();
    expect(apps.map((x) => x.name)).toEqual(['默认应用']);
    expect(await db.selectFrom('app_keys').select('id').where('app_id', '=', apps[0]!.app_id).execute()).toHaveLength(1);
    await db.deleteFrom('site_configs').where('id', '=', 'site-main').execute();
  });

  it('lets users and resellers set their own quota warning; admins may not', async () => {
    const u = await signedIn(server, 'user', 'erin@x.io');
    const r = await u.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: 12, expire_warning_threshold: 4 });
    expect(r.body.code).toBe(0);
    expect(await userRow(u.userId)).toMatchObject({ quota_warning: 1, warning_threshold: 12, expire_warning_threshold: 4 });
    expect((await u.get('/api/v1/dashboard/expense')).body.data).toMatchObject({ quota_warning: true, warning_threshold: 12, expire_warning_threshold: 4 });
    expect((await u.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: -1, expire_warning_threshold: 4 })).body.message).toContain('warning_threshold');
    expect((await a.post('/api/v1/dashboard/quota/warning', { quota_warning: true, warning_threshold: 1, expire_warning_threshold: 1 })).status).toBe(401);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(server));
});
