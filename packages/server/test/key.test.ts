import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskKey } from '@fastgate/core/key-mask';
import { AGENT, CORP, MODEL, rawDb, recordEvents, seedCatalogue } from './app-fixtures';
import { admin, Client, dialects, signedIn, startServer, type TestServer } from './helpers';

const KEYS = ['sk-proj-aaaaaaaaaaaaaaaaaaaa1111', 'sk-proj-bbbbbbbbbbbbbbbbbbbb2222', 'sk-ant-cccccccccccccccccccc3333'];

describe.each(dialects)('keys on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let reseller: Client & { userId: number };
  let otherReseller: Client & { userId: number };
  let userA: Client & { userId: number };
  let userB: Client & { userId: number };
  let foreignUser: Client & { userId: number };

  const count = async (table: string) => Number((await rawDb(server).selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const appKeyOf = async (c: Client) => {
    const created = (await c.post('/api/v1/app/create', { name: 'App', is_create_key: true })).body.data;
    const row = (await c.post('/api/v1/key/page', { type: 1, app_id: created.app_id })).body.data.items[0];
    return { id: row.id as string, key: created.key as string, app_id: created.app_id as number };
  };

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

  it('creates one model key per line, sealed at rest and masked in lists', async () => {
    const { events, stop } = recordEvents(server);
    const created = await a.post('/api/v1/key/create', {
      type: 2,
      corp: CORP,
      key: `${KEYS[0]}\r\n\n  ${KEYS[1]}  \n${KEYS[0]}`,
      models: [MODEL],
      model_agents: [AGENT],
      is_agents_only: true,
      weight: 7,
      is_limit_quota: true,
      quota: 2_500_000,
      remark: 'pool',
    });
    stop();
    expect(created.body.code).toBe(0);
    expect(created.body.data.ids).toHaveLength(2);
    expect(events).toEqual(['provider_keys:create']);

    const rows = await rawDb(server).selectFrom('provider_keys').selectAll().execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const raw = JSON.stringify(row);
      for (const k of KEYS) expect(raw).not.toContain(k);
      expect([createHash('sha256').update(KEYS[0]!).digest('hex'), createHash('sha256').update(KEYS[1]!).digest('hex')]).toContain(row.key_hash);
    }

    const page = await a.post('/api/v1/key/page', { type: 2 });
    expect(page.body.data.paging.total).toBe(2);
    const item = page.body.data.items.find((x: { key: string }) => x.key.endsWith('1111'));
    expect(item).toMatchObject({
      type: 2,
      corp: CORP,
      corp_name: 'OpenAI',
      models: [MODEL],
      model_names: ['GPT-4o'],
      model_agents: [AGENT],
      model_agent_names: ['Agent One'],
      is_agents_only: true,
      is_never_disable: false,
      weight: 7,
      is_limit_quota: true,
      quota: 2_500_000,
      used_quota: 0,
      is_auto_disabled: false,
      auto_disabled_reason: '',
      remark: 'pool',
      status: 1,
    });
    expect(item.key).toBe(`${KEYS[0]!.slice(0, 10)}${'*'.repeat(KEYS[0]!.length - 15)}${KEYS[0]!.slice(-5)}`);

    // Only the copy action reveals the key (issue 11: detail, which the edit form reads, shows the mask).
    expect((await a.get('/api/v1/key/detail', { id: item.id, type: 2 })).body.data.key).toBe(item.key);
    expect((await a.get('/api/v1/key/detail', { id: item.id })).body.data.key).toBe(item.key);
    expect((await a.post('/api/v1/key/copy/field', { id: item.id, type: 2, field: 'key' })).body.data).toEqual({ value: KEYS[0] });

    const list = await a.get('/api/v1/key/list');
    expect(list.body.data.items).toHaveLength(2);
    expect(JSON.stringify(list.body.data)).not.toContain(KEYS[0]);
  });

  it('filters, updates, toggles and batch-operates model keys', async () => {
    await a.post('/api/v1/key/create', { corp: CORP, key: KEYS[2], remark: 'claude' });
    const page = async (f: object) => (await a.post('/api/v1/key/page', { type: 2, ...f })).body.data.items.map((x: { remark: string }) => x.remark);
    expect(await page({})).toHaveLength(3);
    expect(await page({ key: KEYS[2] })).toEqual(['claude']);
    expect(await page({ key: 'sk-ant' })).toEqual(['claude']);
    expect(await page({ key: 'c3333' })).toEqual(['claude']);
    expect(await page({ models: [MODEL] })).toEqual(['pool', 'pool']);
    expect(await page({ model_agents: AGENT })).toHaveLength(2);
    expect(await page({ corp: CORP })).toHaveLength(3);
    expect(await page({ remark: 'CLAU' })).toEqual(['claude']);
    // Quota filter: dollars meaning "below", only keys with a quota.
    expect(await page({ quota: 6 })).toEqual(['pool', 'pool']);
    expect(await page({ quota: 5 })).toEqual([]);

    const id = (await a.post('/api/v1/key/page', { type: 2, key: KEYS[2] })).body.data.items[0].id;
    const { events, stop } = recordEvents(server);
    const newKey = 'sk-ant-dddddddddddddddddddd4444';
    expect((await a.post('/api/v1/key/update', { id, type: 2, corp: CORP, key: newKey, weight: 100, is_never_disable: true, remark: 'claude2' })).body.code).toBe(0);
    const detail = (await a.get('/api/v1/key/detail', { id, type: 2 })).body.data;
    expect(detail).toMatchObject({ key: maskKey(newKey), weight: 100, is_never_disable: true, remark: 'claude2' });
    // No key in the update keeps the stored one.
    expect((await a.post('/api/v1/key/update', { id, corp: CORP, remark: 'same key' })).body.code).toBe(0);
    expect((await a.post('/api/v1/key/copy/field', { id, type: 2 })).body.data.value).toBe(newKey);

    expect((await a.post('/api/v1/key/change/status', { id, type: 2, status: 2 })).body.code).toBe(0);
    expect(await page({ status: 2 })).toEqual(['same key']);
    expect((await a.post('/api/v1/key/batch/operate', { action: 'status', type: 2, ids: [id], value: 1 })).body.code).toBe(0);
    expect(await page({ status: 2 })).toEqual([]);
    // all-status applies to every key matching the filter fields in the same body.
    expect((await a.post('/api/v1/key/batch/operate', { action: 'all-status', type: 2, value: 2, remark: 'pool' })).body.code).toBe(0);
    expect(await page({ status: 2 })).toEqual(['pool', 'pool']);
    expect(await page({ status: 1 })).toEqual(['same key']);
    expect((await a.post('/api/v1/key/batch/operate', { action: 'all-delete', type: 2, status: 2 })).body.code).toBe(0);
    expect(await page({})).toEqual(['same key']);
    stop();
    expect(events).toEqual(['provider_keys:update', 'provider_keys:update', 'provider_keys:update', 'provider_keys:update', 'provider_keys:update', 'provider_keys:delete']);

    expect((await a.post('/api/v1/key/batch/operate', { action: 'delete', type: 2, ids: [id] })).body.code).toBe(0);
    expect(await count('provider_keys')).toBe(0);
    await a.post('/api/v1/key/create', { corp: CORP, key: KEYS[2] });
    const last = (await a.post('/api/v1/key/page', { type: 2 })).body.data.items[0].id;
    expect((await a.post('/api/v1/key/delete', { id: last, type: 2 })).body.code).toBe(0);
    expect(await count('provider_keys')).toBe(0);
  });

  it('rejects bad model keys naming the field, writing nothing', async () => {
    await a.post('/api/v1/key/create', { corp: CORP, key: KEYS[0] });
    const before = await count('provider_keys');
    const cases: [object, string][] = [
      [{ corp: CORP, key: 'short' }, '密钥格式不正确，请检查'],
      [{ corp: CORP, key: `${KEYS[1]}\nhas inner space` }, '密钥格式不正确，请检查'],
      [{ corp: CORP, key: 'x'.repeat(301) }, 'key'],
      [{ corp: CORP, key: '\n \n' }, 'key'],
      [{ corp: CORP, key: KEYS[1], weight: 0 }, 'weight'],
      [{ corp: CORP, key: KEYS[1], weight: 101 }, 'weight'],
      [{ corp: CORP, key: KEYS[1], status: 3 }, 'status'],
      [{ corp: CORP, key: KEYS[1], quota: -5 }, 'quota'],
      [{ corp: CORP, key: KEYS[1], type: 1 }, 'type'],
      [{ corp: CORP, key: KEYS[1], models: 'm1' }, 'models'],
      [{ key: KEYS[1] }, 'corp'],
      [{ corp: 'nope', key: KEYS[1] }, 'corp'],
      [{ corp: CORP, key: KEYS[1], models: ['nope'] }, 'models'],
      [{ corp: CORP, key: KEYS[1], model_agents: ['nope'] }, 'model_agents'],
    ];
    for (const [body, text] of cases) {
      const r = await a.post('/api/v1/key/create', body);
      expect(r.body.code, JSON.stringify(body)).toBe(51);
      expect(r.body.message, JSON.stringify(body)).toContain(text);
    }
    const dup = await a.post('/api/v1/key/create', { corp: CORP, key: `${KEYS[1]}\n${KEYS[0]}` });
    expect(dup.body).toMatchObject({ code: 50, message: '密钥已存在' });
    const action = await a.post('/api/v1/key/batch/operate', { action: 'explode', type: 2, ids: ['1'] });
    expect(action.body.code).toBe(51);
    expect(action.body.message).toContain('action');
    expect((await a.post('/api/v1/key/batch/operate', { action: 'all-status', type: 2, value: 9 })).body.message).toContain('value');
    expect((await a.post('/api/v1/key/page', { type: 3 })).body.message).toContain('type');
    expect((await a.post('/api/v1/key/change/status', { id: '1', type: 2, status: 0 })).body.message).toContain('status');
    expect(await count('provider_keys')).toBe(before);
  });

  it('keeps model keys from resellers and users (HTTP 401)', async () => {
    const id = (await a.post('/api/v1/key/page', { type: 2 })).body.data.items[0].id;
    for (const c of [reseller, userA]) {
      for (const [verb, body] of [
        ['create', { corp: CORP, key: KEYS[2] }],
        ['update', { id, corp: CORP }],
        ['page', { type: 2 }],
        ['delete', { id, type: 2 }],
        ['change/status', { id, type: 2, status: 2 }],
        ['batch/operate', { action: 'all-delete', type: 2 }],
        ['batch/operate', { action: 'status', type: 2, ids: [id], value: 2 }],
        ['copy/field', { id, type: 2 }],
      ] as const) {
        const r = await c.post(`/api/v1/key/${verb}`, body);
        expect(r.status, verb).toBe(401);
        expect(r.body.code).toBe(401);
      }
      expect((await c.get('/api/v1/key/detail', { id, type: 2 })).status).toBe(401);
      expect((await c.get('/api/v1/key/list')).status).toBe(401);
      // Without a type a non-admin addresses its app keys: the model key is simply not there.
      expect((await c.get('/api/v1/key/detail', { id })).body).toMatchObject({ code: 50, message: '记录不存在' });
      expect((await c.post('/api/v1/key/delete', { id })).body.code).toBe(50);
    }
    expect((await a.get('/api/v1/key/detail', { id })).body.data.status).toBe(1);
  });

  it('serves app keys (type 1) within the caller scope', async () => {
    const ka = await appKeyOf(userA);
    const kb = await appKeyOf(userB);
    const kc = await appKeyOf(foreignUser);

    // Pages: own keys masked; reseller: its users'; admin: all.
    const own = (await userA.post('/api/v1/key/page', { type: 1 })).body.data.items;
    expect(own.map((x: { id: string }) => x.id)).toEqual([ka.id]);
    expect(own[0].key).toBe(`${ka.key.slice(0, 10)}${'*'.repeat(ka.key.length - 15)}${ka.key.slice(-5)}`);
    expect((await userA.post('/api/v1/key/page', {})).body.data.items.map((x: { id: string }) => x.id)).toEqual([ka.id]);
    expect((await userA.post('/api/v1/key/page', { type: 1, user_id: userB.userId })).body.data.items).toEqual([]);
    const resIds = (await reseller.post('/api/v1/key/page', { type: 1 })).body.data.items.map((x: { id: string }) => x.id);
    expect(resIds.sort()).toEqual([ka.id, kb.id].sort());
    const adminIds = (await a.post('/api/v1/key/page', { type: 1 })).body.data.items.map((x: { id: string }) => x.id);
    expect(adminIds).toEqual(expect.arrayContaining([ka.id, kb.id, kc.id]));
    expect((await userA.post('/api/v1/key/page', { type: 1, key: ka.key })).body.data.items).toHaveLength(1);

    // Detail and copy reveal the key to the owner, its reseller and admins.
    expect((await userA.get('/api/v1/key/detail', { id: ka.id, type: 1 })).body.data.key).toBe(ka.key);
    expect((await userA.get('/api/v1/key/detail', { id: ka.id })).body.data).toMatchObject({ key: ka.key, type: 1, app_id: ka.app_id });
    expect((await reseller.post('/api/v1/key/copy/field', { id: ka.id })).body.data.value).toBe(ka.key);
    expect((await a.get('/api/v1/key/detail', { id: kc.id })).body.data.key).toBe(kc.key);

    // Nobody reaches another user's key by id.
    for (const [c, id] of [
      [userA, kb.id],
      [reseller, kc.id],
    ] as const) {
      expect((await c.get('/api/v1/key/detail', { id, type: 1 })).body.code).toBe(50);
      expect((await c.post('/api/v1/key/copy/field', { id, type: 1 })).body.code).toBe(50);
      expect((await c.post('/api/v1/key/change/status', { id, type: 1, status: 2 })).body.code).toBe(50);
      expect((await c.post('/api/v1/key/delete', { id, type: 1 })).body.code).toBe(50);
      expect((await c.post('/api/v1/key/batch/operate', { action: 'status', type: 1, ids: [id], value: 2 })).body.code).toBe(50);
    }
    // all-* only ever reach the caller's own keys.
    expect((await userA.post('/api/v1/key/batch/operate', { action: 'all-status', type: 1, value: 2 })).body.code).toBe(0);
    expect((await userB.get('/api/v1/key/detail', { id: kb.id })).body.data.status).toBe(1);
    expect((await userA.get('/api/v1/key/detail', { id: ka.id })).body.data.status).toBe(2);
    expect((await userA.post('/api/v1/key/change/status', { id: ka.id, status: 1 })).body.code).toBe(0);
    expect((await userA.post('/api/v1/key/batch/operate', { action: 'all-delete', type: 1 })).body.code).toBe(0);
    expect((await userA.post('/api/v1/key/page', { type: 1 })).body.data.items).toEqual([]);
    expect((await userB.get('/api/v1/key/detail', { id: kb.id })).body.code).toBe(0);
    expect((await userB.post('/api/v1/key/delete', { id: kb.id })).body.code).toBe(0);
    expect((await a.get('/api/v1/key/detail', { id: kc.id })).body.code).toBe(0);
  });
});
