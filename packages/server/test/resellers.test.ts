// Resellers (/admin/reseller) and their users: the role × scope matrix on every endpoint, quota
// allocation that never exceeds what the reseller holds (also under concurrency), purge on delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin, Client, dialects, expectNoDrift, signedIn, startServer, type TestServer } from './helpers';

const U = '/api/v1/admin/user';
const R = '/api/v1/admin/reseller';

describe.each(dialects)('resellers on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let res1: Client & { userId: number };
  let res2: Client & { userId: number };
  let own: Client & { userId: number };
  let foreign: Client & { userId: number };

  const row = (userId: number) => server.app.ctx.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
  const quota = async (userId: number) => (await row(userId)).quota;

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    res1 = await signedIn(server, 'reseller', 'res1@x.io');
    res2 = await signedIn(server, 'reseller', 'res2@x.io');
    own = await signedIn(server, 'user', 'own@x.io', { rid: res1.userId });
    foreign = await signedIn(server, 'user', 'foreign@x.io', { rid: res2.userId });
  });
  afterAll(() => server?.close());

  it('admin creates a reseller, gives it quota; the reseller sees allocated and to-be-allocated', async () => {
    const created = await a.post(`${R}/create`, { account: 'res3', name: 'Res3', email: 'res3@x.io', password: 'secret1', quota: 100 });
    expect(created.body.code).toBe(0);
    const { id, user_id } = created.body.data;
    expect(await quota(user_id)).toBe(100);
    expect((await a.post(`${R}/recharge`, { user_id: res1.userId, quota: 1000 })).body.code).toBe(0);
    const detail = await a.get(`${R}/detail`, { id: (await row(res1.userId)).id });
    expect(detail.body.data).toMatchObject({ quota: 1000, to_be_allocated: 1000, allocated_quota: 0 });
    // A reseller's account is not a user: the user endpoints do not see it, and vice versa.
    expect((await a.get(`${U}/detail`, { id })).body.code).toBe(50);
    expect((await a.get(`${R}/detail`, { id: (await row(own.userId)).id })).body.code).toBe(50);
  });

  it('a reseller creates users and allocates its own quota, never more than it holds', async () => {
    const before = await quota(res1.userId);
    const made = await res1.post(`${U}/create`, { account: 'kid', name: 'Kid', email: 'kid@x.io', password: 'secret1', quota: 300, rid: 999 });
    expect(made.body.code).toBe(0);
    const kid = made.body.data.user_id;
    expect(await row(kid)).toMatchObject({ rid: res1.userId, quota: 300 });
    expect(await quota(res1.userId)).toBe(before - 300);
    const tooMuch = await res1.post(`${U}/recharge`, { user_id: kid, quota: before * 10 });
    expect(tooMuch.body).toMatchObject({ code: 50, message: '代理商额度不足' });
    const tooMuchCreate = await res1.post(`${U}/create`, { account: 'kid2', name: 'Kid2', email: 'kid2@x.io', password: 'secret1', quota: before * 10 });
    expect(tooMuchCreate.body.code).toBe(50);
    expect(await server.app.ctx.db.selectFrom('users').select('user_id').where('account', '=', 'kid2').execute()).toHaveLength(0);
    expect(await quota(res1.userId)).toBe(before - 300);
    // Deducting from its user gives the quota back.
    expect((await res1.post(`${U}/recharge`, { user_id: kid, quota: 100, quota_type: 2 })).body.code).toBe(0);
    expect(await quota(kid)).toBe(200);
    expect(await quota(res1.userId)).toBe(before - 200);
    const detail = await a.get(`${R}/detail`, { id: (await row(res1.userId)).id });
    expect(detail.body.data).toMatchObject({ allocated_quota: 200, to_be_allocated: before - 200 });
    // Both sides have their deal records; the reseller sees its users' and its own.
    const deals = await res1.post('/api/v1/finance/deal/record/page', { pageSize: 100 });
    const ids = new Set(deals.body.data.items.map((d: { user_id: number }) => d.user_id));
    expect(ids).toEqual(new Set([kid, res1.userId]));
    expect((await foreign.post('/api/v1/finance/deal/record/page', {})).body.data.items).toEqual([]);
  });

  it('20 parallel allocations of 10 from a reseller holding 100: exactly 10 succeed', async () => {
    const holder = await a.post(`${R}/create`, { account: 'holder', name: 'Holder', email: 'holder@x.io', password: 'secret1', quota: 100 });
    const c = new Client(server.url);
    await c.login('reseller', 'holder', 'secret1');
    const kids: number[] = [];
    for (let i = 0; i < 4; i++) kids.push((await c.post(`${U}/create`, { account: `h${i}`, name: `H${i}`, email: `h${i}@x.io`, password: 'secret1' })).body.data.user_id);
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => c.post(`${U}/recharge`, { user_id: kids[i % 4], quota: 10 })));
    expect(replies.filter((r) => r.body.code === 0)).toHaveLength(10);
    expect(replies.filter((r) => r.body.code !== 0).every((r) => r.body.message === '代理商额度不足')).toBe(true);
    expect(await quota(holder.body.data.user_id)).toBe(0);
    let sum = 0;
    for (const k of kids) sum += await quota(k);
    expect(sum).toBe(100);
    const records = await server.app.ctx.db.selectFrom('deal_records').select('quota').where('user_id', 'in', kids).execute();
    expect(records.reduce((s, d) => s + d.quota, 0)).toBe(100);
  });

  it('role and scope matrix on every endpoint', async () => {
    const ownRow = await row(own.userId);
    const foreignRow = await row(foreign.userId);
    const res2Row = await row(res2.userId);
    const userBody = (r: { id: string; account: string; email: string }) => ({ id: r.id, account: r.account, name: 'Name', email: r.email });
    const userCalls = (r: Awaited<ReturnType<typeof row>>): [string, 'get' | 'post', Record<string, unknown>][] => [
      [`${U}/update`, 'post', userBody(r)],
      [`${U}/change/quota/expire`, 'post', { id: r.id, quota_expires_at: '' }],
      [`${U}/change/status`, 'post', { id: r.id, status: 1 }],
      [`${U}/detail`, 'get', { id: r.id }],
      [`${U}/recharge`, 'post', { user_id: r.user_id, quota: 1, quota_type: 3 }],
      [`${U}/permissions`, 'post', { user_id: r.user_id, groups: [], models: [] }],
      [`${U}/batch/operate`, 'post', { action: 'status', ids: [r.id], value: 1 }],
      [`${U}/delete`, 'post', { id: r.id }],
    ];
    const call = (c: Client, [url, method, body]: [string, 'get' | 'post', Record<string, unknown>]) =>
      method === 'get' ? c.get(url, body as Record<string, string>) : c.post(url, body);

    // A plain user: HTTP 401 on every management endpoint, own id or not.
    for (const spec of [...userCalls(ownRow), [`${U}/page`, 'post', {}], [`${U}/list`, 'get', {}], [`${U}/create`, 'post', {}], [`${R}/page`, 'post', {}], [`${R}/detail`, 'get', { id: res2Row.id }]] as const) {
      const r = await call(own, spec as never);
      expect(r.status, spec[0]).toBe(401);
      expect(r.body.code).toBe(401);
    }
    // A reseller: its own users yes (except delete, run last), another reseller's users "not found".
    await res1.post(`${R}/recharge`, { user_id: res1.userId, quota: 1 });
    await a.post(`${R}/recharge`, { user_id: res1.userId, quota: 10 });
    for (const spec of userCalls(foreignRow)) {
      const r = await call(res1, spec);
      expect(r.body, spec[0]).toMatchObject({ code: 50, message: '记录不存在' });
    }
    for (const spec of userCalls(ownRow).filter(([url]) => !url.endsWith('/delete'))) {
      const r = await call(res1, spec);
      expect(r.body.code, `${spec[0]} ${r.body.message}`).toBe(0);
    }
    const page = await res1.post(`${U}/page`, { pageSize: 100 });
    expect(page.body.data.items.every((u: { rid: number }) => u.rid === res1.userId)).toBe(true);
    expect(page.body.data.items.map((u: { user_id: number }) => u.user_id)).toContain(own.userId);
    const list = await res1.get(`${U}/list`);
    expect(list.body.data.items.map((u: { user_id: number }) => u.user_id)).not.toContain(foreign.userId);
    // Reseller endpoints are admin-only, even on its own record.
    for (const spec of [[`${R}/page`, 'post', {}], [`${R}/list`, 'get', {}], [`${R}/detail`, 'get', { id: (await row(res1.userId)).id }], [`${R}/recharge`, 'post', { user_id: res1.userId, quota: 1 }], [`${R}/create`, 'post', {}], [`${R}/change/status`, 'post', { id: res2Row.id, status: 2 }]] as const) {
      expect((await call(res1, spec as never)).status, spec[0]).toBe(401);
    }
    // The admin sees everyone.
    for (const spec of userCalls(foreignRow).filter(([url]) => !url.endsWith('/delete'))) {
      expect((await call(a, spec)).body.code, spec[0]).toBe(0);
    }
    // Batch with one foreign id fails as a whole for the reseller.
    expect((await res1.post(`${U}/batch/operate`, { action: 'recharge', ids: [ownRow.id, foreignRow.id], value: 1 })).body.code).toBe(50);
    // Deletes last.
    expect((await res1.post(`${U}/delete`, { id: foreignRow.id })).body.code).toBe(50);
    expect((await res1.post(`${U}/delete`, { id: ownRow.id })).body.code).toBe(0);
  });

  it('deleting a reseller keeps its users (moved to the platform) unless users are purged', async () => {
    const r1 = (await a.post(`${R}/create`, { account: 'rA', name: 'RA', email: 'ra@x.io', password: 'secret1' })).body.data;
    const kept = (await a.post(`${U}/create`, { account: 'ka', name: 'KA', email: 'ka@x.io', password: 'secret1', rid: r1.user_id })).body.data;
    expect((await a.post(`${R}/delete`, { id: r1.id })).body.code).toBe(0);
    expect(await row(kept.user_id)).toMatchObject({ rid: 0 });

    const r2 = (await a.post(`${R}/create`, { account: 'rB', name: 'RB', email: 'rb@x.io', password: 'secret1' })).body.data;
    const gone = (await a.post(`${U}/create`, { account: 'kb', name: 'KB', email: 'kb@x.io', password: 'secret1', rid: r2.user_id })).body.data;
    expect((await a.post(`${R}/batch/operate`, { action: 'delete', ids: [r2.id], data: [1, 2, 3, 5] })).body.code).toBe(0);
    expect(await server.app.ctx.db.selectFrom('users').select('user_id').where('user_id', 'in', [r2.user_id, gone.user_id]).execute()).toEqual([]);
    expect((await a.post(`${U}/create`, { account: 'kc', name: 'KC', email: 'kc@x.io', password: 'secret1', rid: 424242 })).body.message).toContain('rid');
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(server));
});
