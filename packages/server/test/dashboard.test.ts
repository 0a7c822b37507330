import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { addDays, startOfToday, statDateOf } from '../src/stats/dates';
import { CORP, MODEL, PRIVATE_MODEL, seedCatalogue } from './app-fixtures';
import { admin, dialects, signedIn, startServer, type Client, type TestServer } from './helpers';
import { callLog, insertLogs, pauseSchedule, runStats } from './stat-fixtures';

type Signed = Client & { userId: number };
const DAY = 86_400_000;
const TZ = 'Asia/Shanghai';

describe.each(dialects)('dashboard on %s', (dialect) => {
  let server: TestServer;
  let db: Kysely<any>;
  let a: Client;
  let r1: Signed;
  let u1: Signed;
  let u2: Signed;
  let u3: Signed;
  const apps: Record<string, { app_id: number; key_id: string; mask: string }> = {};
  const today = statDateOf(Date.now(), TZ);
  const mmdd = (date: string) => date.slice(5);

  beforeAll(async () => {
    server = await startServer(dialect);
    db = server.app.ctx.db as unknown as Kysely<any>;
    a = await admin(server);
    await pauseSchedule(a);
    await seedCatalogue(server);
    r1 = await signedIn(server, 'reseller', 'dash-r1');
    const r2 = await signedIn(server, 'reseller', 'dash-r2');
    u1 = await signedIn(server, 'user', 'dash-u1', { rid: r1.userId });
    u2 = await signedIn(server, 'user', 'dash-u2');
    u3 = await signedIn(server, 'user', 'dash-u3', { rid: r2.userId });
    const now = Date.now();
    // The reseller's own public group lends its users the private model.
    await db.insertInto('groups').values({ id: 'gr1', user_id: r1.userId, name: 'Reseller', is_public: 1, discount_bp: 10000, weight: 1, models: JSON.stringify([PRIVATE_MODEL]), status: 1, created_at: now, updated_at: now }).execute();
    expect((await a.post('/api/v1/key/create', { type: 2, corp: CORP, key: 'sk-dash-provider-1\nsk-dash-provider-2', models: [MODEL] })).body.code).toBe(0);
    for (const [name, c] of [['A1', u1], ['A2', u1], ['A3', u2]] as const) {
      const created = (await c.post('/api/v1/app/create', { name, is_create_key: true })).body.data;
      const key = await db.selectFrom('app_keys').select(['id', 'key_mask']).where('app_id', '=', created.app_id).executeTakeFirstOrThrow();
      apps[name] = { app_id: created.app_id, key_id: key.id, mask: key.key_mask };
    }
    // Created earlier than today: counted, but not as today's.
    await db.updateTable('apps').set({ created_at: now - 3 * DAY }).where('app_id', '=', apps.A2!.app_id).execute();
    await db.updateTable('users').set({ created_at: now - 3 * DAY }).where('user_id', '=', u2.userId).execute();
    // The Top 10 names users by name, or by account when they have none.
    await db.updateTable('users').set({ name: '仪表一号' }).where('user_id', '=', u1.userId).execute();
    await db.updateTable('users').set({ name: '' }).where('user_id', '=', u2.userId).execute();

    const t0 = startOfToday(TZ) + 1000;
    const via = (name: string) => ({ app_id: apps[name]!.app_id, app_key_id: apps[name]!.key_id, creator: apps[name]!.mask });
    const u1r = { user_id: u1.userId, rid: r1.userId };
    await insertLogs(server, [
      callLog({ ...u1r, ...via('A1'), req_time: t0, model: 'gpt-a', total_price: 100, prompt_tokens: 10, completion_tokens: 10 }),
      callLog({ ...u1r, ...via('A1'), req_time: t0 + 1, model: 'gpt-a', status: -1 }),
      callLog({ ...u1r, ...via('A2'), req_time: t0 + 2, model: 'gpt-b', total_price: 50, prompt_tokens: 5 }),
      callLog({ ...u1r, ...via('A1'), req_time: t0 - 3 * DAY, model: 'gpt-a', total_price: 1000, prompt_tokens: 100 }),
      callLog({ user_id: u2.userId, ...via('A3'), req_time: t0, model: 'gpt-a', total_price: 300, prompt_tokens: 30 }),
      callLog({ user_id: u2.userId, ...via('A3'), req_time: t0 - 10 * DAY, model: 'gpt-c', total_price: 5000, prompt_tokens: 500 }),
      callLog({ user_id: u3.userId, rid: r2.userId, app_id: 9999, app_key_id: 'k-u3', creator: 'sk-u3***', req_time: t0, model: 'gpt-z', total_price: 10000, prompt_tokens: 1 }),
      callLog({ user_id: r1.userId, req_time: t0, model: 'gpt-a', total_price: 7, prompt_tokens: 1 }),
    ]);
    await runStats(server);
  });
  afterAll(() => server?.close());

  const data = async (c: Client, url: string, query: Record<string, string | number> = {}) => {
    const r = await c.get(url, query);
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    return r.body.data;
  };

  it('counts the base-data cards per role', async () => {
    expect(await data(a, '/api/v1/dashboard/base/data')).toEqual({ app: 3, today_app: 2, model: 2, app_key: 3, model_key: 2, user: 3, today_user: 2, call: 8, group: 3 });
    expect(await data(r1, '/api/v1/dashboard/base/data')).toEqual({ app: 2, today_app: 1, model: 1, app_key: 2, user: 1, today_user: 1, call: 5, group: 1 });
    expect(await data(u1, '/api/v1/dashboard/base/data')).toEqual({ app: 2, today_app: 1, model: 2, app_key: 2, call: 4, group: 2 });
    expect(await data(u2, '/api/v1/dashboard/base/data')).toEqual({ app: 1, today_app: 1, model: 1, app_key: 1, call: 2, group: 1 });
  });

  it('draws the call trend per day, zero-filled, in each scope', async () => {
    const trend = (await data(a, '/api/v1/dashboard/call/data/7')).items;
    expect(trend.map((p: { date: string }) => p.date)).toEqual(Array.from({ length: 7 }, (_, i) => mmdd(addDays(today, i - 6))));
    expect(trend[6]).toEqual({ date: mmdd(today), spend: 10457, call: 6, tokens: 57, user: 4, app: 4, abnormal: 1 });
    expect(trend[3]).toEqual({ date: mmdd(addDays(today, -3)), spend: 1000, call: 1, tokens: 100, user: 1, app: 1, abnormal: 0 });
    expect(trend.filter((_: unknown, i: number) => i !== 3 && i !== 6).every((p: { spend: number; call: number; user: number }) => p.spend === 0 && p.call === 0 && p.user === 0)).toBe(true);
    const fifteen = (await data(a, '/api/v1/dashboard/call/data/15')).items;
    expect(fifteen).toHaveLength(15);
    expect(fifteen[4]).toMatchObject({ date: mmdd(addDays(today, -10)), spend: 5000, call: 1 });
    expect((await data(r1, '/api/v1/dashboard/call/data/7')).items[6]).toEqual({ date: mmdd(today), spend: 157, call: 4, tokens: 26, user: 2, app: 2, abnormal: 1 });
    expect((await data(u1, '/api/v1/dashboard/call/data/7')).items[6]).toEqual({ date: mmdd(today), spend: 150, call: 3, tokens: 25, user: 1, app: 2, abnormal: 1 });
    expect((await data(u2, '/api/v1/dashboard/call/data/30')).items).toHaveLength(30);
  });

  it('ranks the Top 10 by spend per role and window', async () => {
    const top = async (c: Client, days: number, data_type: string) => (await data(c, '/api/v1/dashboard/data/top', { days, data_type })).items;
    expect(await top(a, 1, 'user')).toEqual([
      { user_id: u3.userId, name: 'dash-u3', call: 1, tokens: 1, spend: 10000, abnormal: 0, models: 1 },
      { user_id: u2.userId, name: 'dash-u2', call: 1, tokens: 30, spend: 300, abnormal: 0, models: 1 },
      { user_id: u1.userId, name: '仪表一号', call: 3, tokens: 25, spend: 150, abnormal: 1, models: 2 },
      { user_id: r1.userId, name: 'dash-r1', call: 1, tokens: 1, spend: 7, abnormal: 0, models: 1 },
    ]);
    expect((await top(a, 15, 'user')).map((i: { user_id: number; spend: number }) => [i.user_id, i.spend])).toEqual([
      [u3.userId, 10000],
      [u2.userId, 5300],
      [u1.userId, 1150],
      [r1.userId, 7],
    ]);
    expect(await top(r1, 7, 'user')).toEqual([
      { user_id: u1.userId, name: '仪表一号', call: 4, tokens: 125, spend: 1150, abnormal: 1, models: 2 },
      { user_id: r1.userId, name: 'dash-r1', call: 1, tokens: 1, spend: 7, abnormal: 0, models: 1 },
    ]);
    // App 9999 is gone: its figures stay, without a name.
    expect((await top(a, 7, 'app')).map((i: { app_id: number; user_id: number; spend: number; name?: string }) => [i.app_id, i.user_id, i.spend, i.name])).toEqual([
      [9999, u3.userId, 10000, undefined],
      [apps.A1!.app_id, u1.userId, 1100, 'A1'],
      [apps.A3!.app_id, u2.userId, 300, 'A3'],
      [apps.A2!.app_id, u1.userId, 50, 'A2'],
    ]);
    expect((await top(r1, 7, 'app')).map((i: { app_id: number; name?: string }) => [i.app_id, i.name])).toEqual([
      [apps.A1!.app_id, 'A1'],
      [apps.A2!.app_id, 'A2'],
    ]);
    expect(await top(a, 7, 'model')).toEqual([
      { model: 'gpt-z', user: 1, call: 1, tokens: 1, spend: 10000, abnormal: 0 },
      { model: 'gpt-a', user: 3, call: 5, tokens: 151, spend: 1407, abnormal: 1 },
      { model: 'gpt-b', user: 1, call: 1, tokens: 5, spend: 50, abnormal: 0 },
    ]);
    // The admin's ranking sums stat_model_day and counts users in stat_user_model_day: both follow the window.
    expect(await top(a, 15, 'model')).toEqual([
      { model: 'gpt-z', user: 1, call: 1, tokens: 1, spend: 10000, abnormal: 0 },
      { model: 'gpt-c', user: 1, call: 1, tokens: 500, spend: 5000, abnormal: 0 },
      { model: 'gpt-a', user: 3, call: 5, tokens: 151, spend: 1407, abnormal: 1 },
      { model: 'gpt-b', user: 1, call: 1, tokens: 5, spend: 50, abnormal: 0 },
    ]);
    expect((await top(a, 1, 'model')).map((i: { model: string; user: number; call: number; spend: number }) => [i.model, i.user, i.call, i.spend])).toEqual([
      ['gpt-z', 1, 1, 10000],
      ['gpt-a', 3, 4, 407],
      ['gpt-b', 1, 1, 50],
    ]);
    expect((await top(r1, 7, 'model')).map((i: { model: string; user: number }) => [i.model, i.user])).toEqual([
      ['gpt-a', 2],
      ['gpt-b', 1],
    ]);
    expect(await top(u1, 7, 'app_key')).toEqual([
      { user_id: u1.userId, app_id: apps.A1!.app_id, app_key: apps.A1!.mask, name: 'A1', call: 3, tokens: 120, spend: 1100, abnormal: 1 },
      { user_id: u1.userId, app_id: apps.A2!.app_id, app_key: apps.A2!.mask, name: 'A2', call: 1, tokens: 5, spend: 50, abnormal: 0 },
    ]);
    // A user sees only its own apps.
    expect((await top(u2, 30, 'app')).map((i: { app_id: number }) => i.app_id)).toEqual([apps.A3!.app_id]);
    expect((await data(u1, '/api/v1/dashboard/data/top')).items.map((i: { user_id: number }) => i.user_id)).toEqual([u1.userId]);
  });

  it('names the Top 10 only in the caller’s scope', async () => {
    const names = async (c: Client) => (await data(c, '/api/v1/dashboard/data/top', { days: 7, data_type: 'user' })).items.map((i: { user_id: number; name?: string }) => [i.user_id, i.name]);
    // u1 leaves r1 for the platform: r1 keeps u1's figures of the time it was r1's, but no longer sees its name.
    await db.updateTable('users').set({ rid: 0 }).where('user_id', '=', u1.userId).execute();
    try {
      expect(await names(r1)).toEqual([
        [u1.userId, undefined],
        [r1.userId, 'dash-r1'],
      ]);
      expect((await names(a)).find(([id]: [number]) => id === u1.userId)).toEqual([u1.userId, '仪表一号']);
    } finally {
      await db.updateTable('users').set({ rid: r1.userId }).where('user_id', '=', u1.userId).execute();
    }
    expect(await names(r1)).toEqual([
      [u1.userId, '仪表一号'],
      [r1.userId, 'dash-r1'],
    ]);
  });

  it('shares calls per model', async () => {
    expect(await data(a, '/api/v1/dashboard/model/percent/7')).toEqual({
      models: ['gpt-a', 'gpt-b', 'gpt-z'],
      items: [
        { name: 'gpt-a', value: 5 },
        { name: 'gpt-b', value: 1 },
        { name: 'gpt-z', value: 1 },
      ],
    });
    expect((await data(a, '/api/v1/dashboard/model/percent/30')).items).toEqual([
      { name: 'gpt-a', value: 5 },
      { name: 'gpt-b', value: 1 },
      { name: 'gpt-c', value: 1 },
      { name: 'gpt-z', value: 1 },
    ]);
    expect(await data(u2, '/api/v1/dashboard/model/percent/15')).toEqual({ models: ['gpt-a', 'gpt-c'], items: [{ name: 'gpt-a', value: 1 }, { name: 'gpt-c', value: 1 }] });
    expect(await data(u2, '/api/v1/dashboard/model/percent/1')).toEqual({ models: ['gpt-a'], items: [{ name: 'gpt-a', value: 1 }] });
  });

  it('answers bad input and other roles’ rankings with envelope errors, never a 500', async () => {
    const refused = async (c: Client, url: string, field: string, query: Record<string, string | number> = {}) => {
      const r = await c.get(url, query);
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(51);
      expect(r.body.message).toContain(field);
    };
    await refused(a, '/api/v1/dashboard/data/top', 'data_type', { days: 7, data_type: 'app_key' });
    await refused(r1, '/api/v1/dashboard/data/top', 'data_type', { days: 7, data_type: 'app_key' });
    await refused(u1, '/api/v1/dashboard/data/top', 'data_type', { days: 7, data_type: 'corp' });
    await refused(u1, '/api/v1/dashboard/data/top', 'days', { days: 3 });
    await refused(u1, '/api/v1/dashboard/data/top', 'days', { days: 'week' });
    for (const path of ['call/data', 'model/percent']) {
      await refused(u1, `/api/v1/dashboard/${path}/8`, 'days');
      await refused(u1, `/api/v1/dashboard/${path}/abc`, 'days');
      await refused(u1, `/api/v1/dashboard/${path}/-7`, 'days');
    }
    const anonymous = await new (a.constructor as typeof Client)(server.url).get('/api/v1/dashboard/base/data');
    expect(anonymous.status).toBe(401);
  });
});
