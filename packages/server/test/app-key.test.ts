import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, MODEL, PRIVATE_MODEL, rawDb, recordEvents, seedCatalogue } from './app-fixtures';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const KEY_FORMAT = /^sk-FastAPI[A-Za-z0-9]{41}$/;

describe.each(dialects)('app keys on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client & { userId: number };
  let userA: Client & { userId: number };
  let userB: Client & { userId: number };
  let appA: { id: string; app_id: number };
  let appB: { id: string; app_id: number };

  const count = async () => Number((await rawDb(server).selectFrom('app_keys').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const keysOf = async (c: Client, f: object = {}) => (await c.post('/api/v1/key/page', { type: 1, pageSize: 1000, ...f })).body.data.items as Record<string, any>[];

  beforeAll(async () => {
    server = await startServer(dialect);
    await seedCatalogue(server);
    a = await admin(server);
    reseller = await signedIn(server, 'reseller', 'res1');
    userA = await signedIn(server, 'user', 'usera', { rid: reseller.userId });
    userB = await signedIn(server, 'user', 'userb');
    appA = (await userA.post('/api/v1/app/create', { name: 'Alpha' })).body.data;
    appB = (await userB.post('/api/v1/app/create', { name: 'Beta' })).body.data;
  });
  afterAll(() => server?.close());

  it('generates a key, then stores it with its settings, sealed', async () => {
    const gen = await userA.post('/api/v1/app/create/key', { app_id: appA.app_id });
    expect(gen.body.data.app_id).toBe(appA.app_id);
    const key = gen.body.data.key as string;
    expect(key).toMatch(KEY_FORMAT);
    expect(await count()).toBe(0);

    const { events, stop } = recordEvents(server);
    const stored = await userA.post('/api/v1/app/key/config', {
      app_id: appA.app_id,
      key,
      models: [MODEL],
      is_limit_quota: true,
      quota: 750_000,
      quota_expires_rule: 1,
      quota_expires_at: '2031-06-30 12:00:00',
      is_bind_group: true,
      group: GROUP,
      ip_whitelist: '10.0.0.0/8\n172.16.0.1-172.16.0.9',
      ip_blacklist: '',
      remark: 'ci',
    });
    stop();
    expect(stored.body).toMatchObject({ code: 0, data: { key } });
    expect(events).toEqual(['app_keys:create']);

    const row = await rawDb(server).selectFrom('app_keys').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row).toMatchObject({ user_id: userA.userId, app_id: appA.app_id, quota_expires_rule: 1, is_limit_quota: 1 });
    expect(JSON.parse(row.ip_whitelist)).toEqual(['10.0.0.0/8', '172.16.0.1-172.16.0.9']);

    const [item] = await keysOf(userA);
    expect(item).toMatchObject({
      type: 1,
      user_id: userA.userId,
      app_id: appA.app_id,
      app_name: 'Alpha',
      key: `${key.slice(0, 10)}${'*'.repeat(key.length - 15)}${key.slice(-5)}`,
      models: [MODEL],
      model_names: ['GPT-4o'],
      is_limit_quota: true,
      quota: 750_000,
      quota_expires_rule: 1,
      quota_expires_at: '2031-06-30 12:00:00',
      is_bind_group: true,
      group_name: 'Default',
      ip_whitelist: ['10.0.0.0/8', '172.16.0.1-172.16.0.9'],
      ip_blacklist: [],
      remark: 'ci',
      status: 1,
    });

    // The same value cannot be stored twice.
    expect((await userA.post('/api/v1/app/key/config', { app_id: appA.app_id, key })).body).toMatchObject({ code: 50, message: '密钥已存在' });

    // Update by id: settings change, the key and its app do not.
    const other = (await userA.post('/api/v1/app/create/key', { app_id: appA.app_id })).body.data.key;
    const up = await userA.post('/api/v1/app/key/config', { id: item!.id, key: other, app_id: 999, quota_expires_rule: 2, quota_expires_minutes: 60, remark: 'duration', ip_whitelist: '' });
    expect(up.body.code).toBe(0);
    const detail = (await userA.get('/api/v1/key/detail', { id: item!.id })).body.data;
    expect(detail).toMatchObject({ key, app_id: appA.app_id, quota_expires_rule: 2, quota_expires_minutes: 60, quota_expires_at: '', remark: 'duration', ip_whitelist: [], quota: 750_000 });
  });

  it('rejects bad key settings naming the field, writing nothing', async () => {
    const before = await count();
    const fresh = (await userA.post('/api/v1/app/create/key', { app_id: appA.app_id })).body.data.key as string;
    const cases: [object, string][] = [
      [{ app_id: appA.app_id, key: 'sk-FastAPI-short' }, '密钥格式不正确，请检查'],
      [{ app_id: appA.app_id, key: `${fresh.slice(0, -1)} ` + 'x' }, 'key'],
      [{ app_id: appA.app_id, key: `sk-Other${fresh.slice(8)}` }, 'key'],
      [{ app_id: appA.app_id }, 'key'],
      [{ key: fresh }, 'app_id'],
      [{ app_id: appA.app_id, key: fresh, quota_expires_rule: 2 }, 'quota_expires_minutes'],
      [{ app_id: appA.app_id, key: fresh, quota_expires_rule: 3 }, 'quota_expires_rule'],
      [{ app_id: appA.app_id, key: fresh, ip_whitelist: '1.2.3.4/40' }, 'ip_whitelist'],
      [{ app_id: appA.app_id, key: fresh, ip_blacklist: 'not-an-ip' }, 'ip_blacklist'],
      [{ app_id: appA.app_id, key: fresh, status: 0 }, 'status'],
      [{ app_id: appA.app_id, key: fresh, quota: 'lots' }, 'quota'],
      [{ app_id: appA.app_id, key: fresh, models: [PRIVATE_MODEL] }, 'models'],
      [{ app_id: appA.app_id, key: fresh, is_bind_group: true }, 'group'],
      [{ app_id: appA.app_id, key: fresh, quota_expires_at: '2031-13-45' }, 'quota_expires_at'],
    ];
    for (const [body, text] of cases) {
      const r = await userA.post('/api/v1/app/key/config', body);
      expect(r.body.code, JSON.stringify(body)).toBe(51);
      expect(r.body.message, JSON.stringify(body)).toContain(text);
    }
    for (const [body, text] of [
      [{ action: 'explode' }, 'action'],
      [{ action: 'create', app_id: appA.app_id, n: 0 }, 'n'],
      [{ action: 'create', app_id: appA.app_id, n: 1001 }, 'n'],
      [{ action: 'create', app_id: appA.app_id, n: 2, ip_whitelist: '300.1.1.1' }, 'ip_whitelist'],
      [{ action: 'update', ids: [] }, 'ids'],
      [{ action: 'status', ids: ['1'], value: 5 }, 'value'],
      [{ action: 'all-status', value: 5 }, 'value'],
      [{ action: 'all-status', value: 2, query_params: { status: 9 } }, 'query_params.status'],
    ] as const) {
      const r = await userA.post('/api/v1/app/key/batch/operate', body);
      expect(r.body.code, JSON.stringify(body)).toBe(51);
      expect(r.body.message, JSON.stringify(body)).toContain(text);
    }
    expect(await count()).toBe(before);
  });

  it('batch-creates, updates, toggles and deletes keys', async () => {
    const { events, stop } = recordEvents(server);
    const made = await userA.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: appA.app_id, n: 3, remark: 'bulk', is_limit_quota: true, quota: 100 });
    expect(made.body.code).toBe(0);
    const created = (made.body.data.keys as string).split('\n');
    expect(created).toHaveLength(3);
    for (const k of created) expect(k).toMatch(KEY_FORMAT);
    const bulk = await keysOf(userA, { remark: 'bulk' });
    expect(bulk).toHaveLength(3);
    const ids = bulk.map((k) => k.id as string);

    expect((await userA.post('/api/v1/app/key/batch/operate', { action: 'update', ids: ids.slice(0, 2), quota: 200, remark: 'bulk-updated' })).body.code).toBe(0);
    const updated = await keysOf(userA, { remark: 'bulk-updated' });
    expect(updated.map((k) => [k.quota, k.is_limit_quota])).toEqual([
      [200, true],
      [200, true],
    ]);
    // The quota filter is dollars meaning "below" ($0.0003 = 150 units), among keys with a quota.
    expect(await keysOf(userA, { quota: 0.0003 })).toHaveLength(1);
    expect(await keysOf(userA, { quota: 0.001 })).toHaveLength(3);

    expect((await userA.post('/api/v1/app/key/batch/operate', { action: 'status', ids, value: 2 })).body.code).toBe(0);
    expect(await keysOf(userA, { status: 2 })).toHaveLength(3);
    expect((await userA.post('/api/v1/app/key/batch/operate', { action: 'all-status', value: 1, query_params: { remark: 'bulk' } })).body.code).toBe(0);
    expect(await keysOf(userA, { status: 2 })).toHaveLength(0);
    expect((await userA.post('/api/v1/app/key/batch/operate', { action: 'all-update', query_params: { remark: 'bulk-updated' }, models: [MODEL] })).body.code).toBe(0);
    expect((await keysOf(userA, { models: [MODEL], remark: 'bulk' })).map((k) => k.remark)).toEqual(['bulk-updated', 'bulk-updated']);
    expect((await userA.post('/api/v1/app/key/batch/operate', { action: 'delete', ids: [ids[2]] })).body.code).toBe(0);
    expect((await userA.post('/api/v1/app/key/batch/operate', { action: 'all-delete', query_params: { remark: 'bulk-updated' } })).body.code).toBe(0);
    expect(await keysOf(userA, { remark: 'bulk' })).toEqual([]);
    stop();
    expect(events).toEqual(['app_keys:create', 'app_keys:update', 'app_keys:update', 'app_keys:update', 'app_keys:update', 'app_keys:delete', 'app_keys:delete']);
  });

  it('keeps every user to its own apps and keys', async () => {
    const keyB = (await userB.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: appB.app_id, n: 1 })).body.data.keys as string;
    const idB = (await keysOf(userB))[0]!.id as string;
    const before = await count();

    expect((await userA.post('/api/v1/app/create/key', { app_id: appB.app_id })).body).toMatchObject({ code: 50, message: '记录不存在' });
    expect((await userA.post('/api/v1/app/create/key', { app_id: appA.app_id, user_id: userB.userId })).body.code).toBe(50);
    const fresh = (await userA.post('/api/v1/app/create/key', { app_id: appA.app_id })).body.data.key;
    expect((await userA.post('/api/v1/app/key/config', { app_id: appB.app_id, key: fresh })).body.code).toBe(50);
    expect((await userA.post('/api/v1/app/key/config', { id: idB, remark: 'mine now' })).body.code).toBe(50);
    for (const body of [
      { action: 'create', app_id: appB.app_id, n: 1 },
      { action: 'update', ids: [idB], remark: 'x' },
      { action: 'status', ids: [idB], value: 2 },
      { action: 'delete', ids: [idB] },
    ]) {
      expect((await userA.post('/api/v1/app/key/batch/operate', body)).body.code, body.action).toBe(50);
    }
    // Filter-wide actions only reach the caller's own keys, even when the filter names someone else.
    for (const body of [
      { action: 'all-status', value: 2, query_params: { user_id: userB.userId } },
      { action: 'all-update', remark: 'x', query_params: { app_id: appB.app_id } },
      { action: 'all-delete', query_params: { key: keyB } },
    ]) {
      expect((await userA.post('/api/v1/app/key/batch/operate', body)).body.code, body.action).toBe(0);
    }
    const b = (await userB.get('/api/v1/key/detail', { id: idB })).body.data;
    expect(b).toMatchObject({ key: keyB, status: 1, remark: '' });
    expect(await count()).toBe(before);

    // A reseller manages its users' keys, not other users'.
    expect((await reseller.post('/api/v1/app/create/key', { app_id: appA.app_id })).body.code).toBe(0);
    expect((await reseller.post('/api/v1/app/create/key', { app_id: appB.app_id })).body.code).toBe(50);
    expect((await reseller.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: appA.app_id, n: 1, remark: 'by reseller' })).body.code).toBe(0);
    expect((await keysOf(userA, { remark: 'by reseller' })).length).toBe(1);
    expect((await a.post('/api/v1/app/key/batch/operate', { action: 'status', ids: [idB], value: 2 })).body.code).toBe(0);
    expect((await userB.get('/api/v1/key/detail', { id: idB })).body.data.status).toBe(2);
  });

  it('exports the caller’s keys as a real xlsx file', async () => {
    const mine = (await userA.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: appA.app_id, n: 2, remark: 'export', is_limit_quota: true, quota: 1_000_000 })).body.data.keys.split('\n') as string[];
    const theirs = (await userB.post('/api/v1/app/key/batch/operate', { action: 'create', app_id: appB.app_id, n: 1 })).body.data.keys as string;

    const res = await userA.raw('POST', '/api/v1/app/key/export', JSON.stringify({ app_id: appA.app_id }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('应用密钥.xlsx')}`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(['用户ID', '应用ID', '应用名称', '密钥', '额度（$）', '过期时间', '备注']);
    const body = rows.slice(1);
    const keys = body.map((r) => r[3]);
    for (const k of mine) expect(keys).toContain(k);
    expect(keys).not.toContain(theirs);
    expect(body.every((r) => r[0] === userA.userId && r[1] === appA.app_id && r[2] === 'Alpha')).toBe(true);
    const first = body.find((r) => r[3] === mine[0])!;
    expect([first[4], first[6]]).toEqual([2, 'export']);

    // Another user's ids export nothing of theirs; errors come as the JSON envelope.
    const idB = (await keysOf(userB))[0]!.id;
    const foreign = await userA.raw('POST', '/api/v1/app/key/export', JSON.stringify({ ids: [idB] }));
    const foreignBook = new ExcelJS.Workbook();
    await foreignBook.xlsx.load(await foreign.arrayBuffer());
    expect(foreignBook.worksheets[0]!.rowCount).toBe(1);
    const bad = await userA.post('/api/v1/app/key/export', { ids: 'all' });
    expect(bad.body.code).toBe(51);
    expect(bad.body.message).toContain('ids');
  });
});
