import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, MODEL, PRIVATE_GROUP, PRIVATE_MODEL, rawDb, recordEvents, seedCatalogue } from './app-fixtures';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

describe.each(dialects)('apps on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client & { userId: number };
  let otherReseller: Client & { userId: number };
  let userA: Client & { userId: number };
  let userB: Client & { userId: number };
  let foreignUser: Client & { userId: number };

  const count = async (table: string) => Number((await rawDb(server).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startServer(dialect);
    await seedCatalogue(server);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'res1');
    otherReseller = await signedIn(server, 'reseller', 'res2');
    userA = await signedIn(server, 'user', 'usera', { rid: reseller.userId });
    userB = await signedIn(server, 'user', 'userb', { rid: reseller.userId });
    foreignUser = await signedIn(server, 'user', 'userc', { rid: otherReseller.userId });
  });
  afterAll(() => server?.close());

  it('creates an app with its first key, and shows it with names, arrays and times', async () => {
    const { events, stop } = recordEvents(server);
    const created = await userA.post('/api/v1/app/create', {
      name: 'My app',
      remark: 'first',
      models: [MODEL],
      is_bind_group: true,
      group: GROUP,
      is_limit_quota: true,
      quota: 1_000_000,
      quota_expires_at: '2030-01-02 03:04:05',
      ip_whitelist: '10.0.0.1\n\n192.168.0.0/16\n1.1.1.1-1.1.1.9',
      ip_blacklist: '2001:DB8::1',
      is_create_key: true,
    });
    stop();
    expect(created.body.code).toBe(0);
    const { id, app_id, key } = created.body.data;
    expect(key).toMatch(/^sk-FastAPI[A-Za-z0-9]{41}$/);
    expect(events).toEqual(['apps:create', 'app_keys:create']);

    const detail = await userA.get('/api/v1/app/detail', { id });
    expect(detail.body.data).toMatchObject({
      id,
      app_id,
      user_id: userA.userId,
      name: 'My app',
      models: [MODEL],
      model_names: ['GPT-4o'],
      is_bind_group: true,
      group: GROUP,
      group_name: 'Default',
      is_limit_quota: true,
      quota: 1_000_000,
      used_quota: 0,
      quota_expires_at: '2030-01-02 03:04:05',
      ip_whitelist: ['10.0.0.1', '192.168.0.0/16', '1.1.1.1-1.1.1.9'],
      ip_blacklist: ['2001:db8::1'],
      status: 1,
    });
    // The stored expiry is epoch ms in the configured zone (Asia/Shanghai = UTC+8).
    const row = await rawDb(server).selectFrom('apps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.quota_expires_at)).toBe(Date.UTC(2030, 0, 1, 19, 4, 5));
    expect(JSON.parse(row.ip_whitelist)).toEqual(['10.0.0.1', '192.168.0.0/16', '1.1.1.1-1.1.1.9']);

    // The first key belongs to the app and the user.
    const keys = await userA.post('/api/v1/key/page', { type: 1, app_id });
    expect(keys.body.data.items).toHaveLength(1);
    expect(keys.body.data.items[0]).toMatchObject({ user_id: userA.userId, app_id, app_name: 'My app', type: 1 });
    expect(keys.body.data.items[0].key).not.toBe(key);

    // Page filters: name, app_id, models, the full key, status, expiry range.
    await userA.post('/api/v1/app/create', { name: 'Second' });
    const page = async (f: object) => (await userA.post('/api/v1/app/page', f)).body.data.items.map((x: { name: string }) => x.name);
    expect(await page({})).toHaveLength(2);
    expect(await page({ name: 'my' })).toEqual(['My app']);
    expect(await page({ app_id })).toEqual(['My app']);
    expect(await page({ models: [MODEL] })).toEqual(['My app']);
    expect(await page({ app_key: key })).toEqual(['My app']);
    expect(await page({ app_key: 'sk-nothing' })).toEqual([]);
    expect(await page({ quota_expires_at: ['2030-01-01', '2030-01-02'] })).toEqual(['My app']);
    expect(await page({ quota_expires_at: ['2030-01-03', '2030-01-04'] })).toEqual([]);
    expect(await page({ status: 2 })).toEqual([]);
  });

  it('updates, toggles, lists, batch-operates and deletes apps with their keys', async () => {
    const { body } = await userA.post('/api/v1/app/create', { name: 'Temp', is_create_key: true });
    const { id, app_id } = body.data;
    const up = await userA.post('/api/v1/app/update', { id, name: 'Renamed', ip_blacklist: ['8.8.8.8'], quota_expires_at: '' });
    expect(up.body.code).toBe(0);
    expect((await userA.get('/api/v1/app/detail', { id })).body.data).toMatchObject({ name: 'Renamed', ip_blacklist: ['8.8.8.8'], quota_expires_at: '', user_id: userA.userId });

    expect((await userA.post('/api/v1/app/change/status', { id, status: 2 })).body.code).toBe(0);
    expect((await userA.get('/api/v1/app/detail', { id })).body.data.status).toBe(2);
    expect((await userA.post('/api/v1/app/batch/operate', { action: 'status', ids: [id], value: 1 })).body.code).toBe(0);
    expect((await userA.get('/api/v1/app/detail', { id })).body.data.status).toBe(1);

    const list = await userA.get('/api/v1/app/list');
    expect(list.body.data.items.map((x: { name: string }) => x.name)).toContain('Renamed');
    expect(list.body.data.items.every((x: { user_id: number }) => x.user_id === userA.userId)).toBe(true);

    const { events, stop } = recordEvents(server);
    expect((await userA.post('/api/v1/app/delete', { id })).body.code).toBe(0);
    stop();
    expect(events).toEqual(['app_keys:delete', 'apps:delete']);
    const left = await rawDb(server).selectFrom('app_keys').select('id').where('app_id', '=', app_id).execute();
    expect(left).toEqual([]);

    const other = (await userA.post('/api/v1/app/create', { name: 'Batch gone', is_create_key: true })).body.data;
    expect((await userA.post('/api/v1/app/batch/operate', { action: 'delete', ids: [other.id] })).body.code).toBe(0);
    expect(await rawDb(server).selectFrom('app_keys').select('id').where('app_id', '=', other.app_id).execute()).toEqual([]);
  });

  it('scopes apps: users to their own, resellers to their users, admins to all', async () => {
    const mine = (await userB.post('/api/v1/app/create', { name: 'B app' })).body.data.id;
    const foreign = (await foreignUser.post('/api/v1/app/create', { name: 'C app' })).body.data.id;

    // User A cannot touch B's app by id.
    for (const [verb, body] of [
      ['update', { id: mine, name: 'Hijack' }],
      ['delete', { id: mine }],
      ['change/status', { id: mine, status: 2 }],
      ['batch/operate', { action: 'status', ids: [mine], value: 2 }],
      ['batch/operate', { action: 'delete', ids: [mine] }],
    ] as const) {
      const r = await userA.post(`/api/v1/app/${verb}`, body);
      expect(r.body).toMatchObject({ code: 50, message: '记录不存在' });
    }
    expect((await userA.get('/api/v1/app/detail', { id: mine })).body.code).toBe(50);
    expect((await userA.post('/api/v1/app/page', { user_id: userB.userId })).body.data.items).toEqual([]);
    expect((await userB.get('/api/v1/app/detail', { id: mine })).body.data).toMatchObject({ name: 'B app', status: 1 });

    // A user cannot create for someone else.
    const forB = await userA.post('/api/v1/app/create', { name: 'For B', user_id: userB.userId });
    expect(forB.body.code).toBe(51);
    expect(forB.body.message).toContain('user_id');

    // The reseller sees its users' apps, not the other reseller's users'.
    const resPage = (await reseller.post('/api/v1/app/page', { pageSize: 100 })).body.data.items as { user_id: number }[];
    expect(new Set(resPage.map((x) => x.user_id))).toEqual(new Set([userA.userId, userB.userId]));
    expect((await reseller.get('/api/v1/app/detail', { id: foreign })).body.code).toBe(50);
    expect((await reseller.post('/api/v1/app/delete', { id: foreign })).body.code).toBe(50);
    expect((await reseller.post('/api/v1/app/update', { id: mine, name: 'By reseller' })).body.code).toBe(0);

    // Admins and resellers must name the owner, and only one they may see.
    const noOwner = await reseller.post('/api/v1/app/create', { name: 'Nobody' });
    expect(noOwner.body.message).toContain('user_id');
    const stranger = await reseller.post('/api/v1/app/create', { name: 'Stranger', user_id: foreignUser.userId });
    expect(stranger.body.code).toBe(51);
    expect(stranger.body.message).toContain('user_id');
    const ok = await reseller.post('/api/v1/app/create', { name: 'For B by reseller', user_id: userB.userId });
    expect(ok.body.code).toBe(0);
    expect((await userB.get('/api/v1/app/detail', { id: ok.body.data.id })).body.data.user_id).toBe(userB.userId);
    expect((await reseller.post('/api/v1/app/create', { name: 'Own', user_id: reseller.userId })).body.code).toBe(0);

    const adminPage = (await a.post('/api/v1/app/page', { pageSize: 1000 })).body.data.items as { user_id: number }[];
    expect(adminPage.map((x) => x.user_id)).toEqual(expect.arrayContaining([userA.userId, userB.userId, foreignUser.userId, reseller.userId]));
    expect((await a.post('/api/v1/app/create', { name: 'By admin', user_id: foreignUser.userId })).body.code).toBe(0);
    expect((await a.post('/api/v1/app/create', { name: 'Ghost', user_id: 999999 })).body.code).toBe(51);
  });

  it('rejects bad input naming the field, writing nothing', async () => {
    const before = await count('apps');
    const cases: [object, string][] = [
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'A', ip_whitelist: '10.0.0.1\n10.0.0.300' }, 'ip_whitelist'],
      [{ name: 'A', ip_blacklist: '10.0.0.0/33' }, 'ip_blacklist'],
      [{ name: 'A', ip_whitelist: '10.0.*.*' }, 'ip_whitelist'],
      [{ name: 'A', status: 3 }, 'status'],
      [{ name: 'A', quota: -1 }, 'quota'],
      // Decimal text is the original console's encoding of a number (issue 15) and is accepted; other text is not.
      [{ name: 'A', quota: '100 units' }, 'quota'],
      [{ name: 'A', quota: 1.5 }, 'quota'],
      [{ name: 'A', models: 'm1' }, 'models'],
      [{ name: 'A', models: ['nope'] }, 'models'],
      [{ name: 'A', models: [PRIVATE_MODEL] }, 'models'],
      [{ name: 'A', is_bind_group: true }, 'group'],
      [{ name: 'A', is_bind_group: true, group: PRIVATE_GROUP }, 'group'],
      [{ name: 'A', quota_expires_at: 'tomorrow' }, 'quota_expires_at'],
      [{ name: 'A', is_limit_quota: 'yes' }, 'is_limit_quota'],
    ];
    for (const [body, field] of cases) {
      const r = await userA.post('/api/v1/app/create', { is_create_key: true, ...body });
      expect(r.body.code, JSON.stringify(body)).toBe(51);
      expect(r.body.message, JSON.stringify(body)).toContain(field);
    }
    const action = await userA.post('/api/v1/app/batch/operate', { action: 'explode', ids: ['1'] });
    expect(action.body.code).toBe(51);
    expect(action.body.message).toContain('action');
    const badStatus = await userA.post('/api/v1/app/batch/operate', { action: 'status', ids: ['1'], value: 7 });
    expect(badStatus.body.message).toContain('value');
    expect(await count('apps')).toBe(before);
    // The English locale names the field too.
    userA.lang = 'en-US';
    expect((await userA.post('/api/v1/app/create', { name: 'A', ip_whitelist: 'bad ip' })).body.message).toBe('Invalid field ip_whitelist: bad ip');
    userA.lang = 'zh-CN';
  });

  it('needs a session', async () => {
    const anon = new Client(server.url);
    const r = await anon.post('/api/v1/app/page', {});
    expect(r.status).toBe(401);
    expect(r.body.code).toBe(401);
  });
});
