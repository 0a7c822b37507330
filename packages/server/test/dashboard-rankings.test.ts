// The model rankings' distinct users and a reseller's model figures (migration 2026-11-24-12-stat-rankings):
// the admin's user counts come from stat_model_user (each (model, user)'s latest day) and a reseller's rows
// are read as two disjoint parts; both must answer exactly what the daily rows say, including late rows of
// an earlier day, future-dated rows and a reseller's own calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import * as statRankings from '../src/db/migrations/2026-11-24-12-stat-rankings';
import { addDays, lastDays, startOfToday } from '../src/stats/dates';
import { admin, dialects, signedIn, startServer, type Client, type TestServer } from './helpers';
import { callLog, insertLogs, pauseSchedule, runStats } from './stat-fixtures';

const DAY = 86_400_000;
const TZ = 'Asia/Shanghai';
const WINDOWS = [1, 7, 15, 30] as const;

describe.each(dialects)('dashboard rankings on %s', (dialect) => {
  let server: TestServer;
  let db: Kysely<any>;
  let a: Client;
  let r1: Client & { userId: number };
  /** Users by name; ids far from the accounts the server creates. */
  const u = { one: 7001, two: 7002, three: 7003, four: 7004, five: 7005, other: 7006 };
  const t0 = startOfToday(TZ) + 3_600_000;

  beforeAll(async () => {
    server = await startServer(dialect);
    db = server.app.ctx.db as unknown as Kysely<any>;
    a = await admin(server);
    await pauseSchedule(a);
    r1 = await signedIn(server, 'reseller', 'rank-r1');
    const r2 = await signedIn(server, 'reseller', 'rank-r2');
    const r = r1.userId;
    await insertLogs(server, [
      callLog({ user_id: u.one, rid: r, req_time: t0, model: 'gpt-a', total_price: 100 }),
      callLog({ user_id: u.two, rid: r, req_time: t0 - 10 * DAY, model: 'gpt-a', total_price: 30 }),
      // Future-dated (another instance's clock): outside every window ending today, yet the latest day.
      callLog({ user_id: u.three, req_time: t0 + DAY, model: 'gpt-a', total_price: 1 }),
      callLog({ user_id: u.three, req_time: t0 - 3 * DAY, model: 'gpt-a', total_price: 20 }),
      callLog({ user_id: u.four, req_time: t0 + DAY, model: 'gpt-a', total_price: 5000 }),
      callLog({ user_id: u.five, req_time: t0 - 40 * DAY, model: 'gpt-b', total_price: 900 }),
      callLog({ user_id: u.five, rid: r, req_time: t0 - 2 * DAY, model: 'gpt-b', total_price: 70 }),
      // The reseller's own calls, once without and once with its own id as rid: each counted once.
      callLog({ user_id: r, req_time: t0, model: 'gpt-c', total_price: 7, prompt_tokens: 3 }),
      callLog({ user_id: r, rid: r, req_time: t0 - DAY, model: 'gpt-c', total_price: 8, prompt_tokens: 4 }),
      callLog({ user_id: u.other, rid: r2.userId, req_time: t0, model: 'gpt-c', total_price: 60 }),
    ]);
    await runStats(server);
    // A late row of an earlier day, read after the later ones: the latest day must not go back.
    await insertLogs(server, [callLog({ user_id: u.one, rid: r, req_time: t0 - 20 * DAY, model: 'gpt-a', total_price: 40 })]);
    expect((await runStats(server)).rows).toBe(1);
  });
  afterAll(() => server?.close());

  const data = async (c: Client, url: string, query: Record<string, string | number> = {}) => {
    const res = await c.get(url, query);
    expect(res.body.code).toBe(0);
    return res.body.data;
  };
  const topModels = async (c: Client, days: number) => (await data(c, '/api/v1/dashboard/data/top', { days, data_type: 'model' })).items as { model: string; user: number; call: number; spend: number }[];
  /** Distinct users per model over the window, straight from the daily rows (what the ranking replaced). */
  const usersFromDays = async (days: number, scope: (q: any) => any = (q) => q) => {
    const dates = lastDays(days, TZ);
    const rows = await scope(db.selectFrom('stat_user_model_day').where('stat_date', '>=', dates[0]).where('stat_date', '<=', dates[dates.length - 1]))
      .select(['model', db.fn.count('user_id').distinct().as('n')])
      .groupBy('model')
      .execute();
    return Object.fromEntries(rows.map((x: { model: string; n: unknown }) => [x.model, Number(x.n)]));
  };

  it('keeps each (model, user)’s latest day, late rows of earlier days included', async () => {
    const today = lastDays(1, TZ)[0]!;
    const rows = await db.selectFrom('stat_model_user').select(['model', 'user_id', 'last_date']).where('user_id', 'in', Object.values(u)).orderBy('model').orderBy('user_id').execute();
    expect(rows).toEqual([
      { model: 'gpt-a', user_id: u.one, last_date: today },
      { model: 'gpt-a', user_id: u.two, last_date: addDays(today, -10) },
      { model: 'gpt-a', user_id: u.three, last_date: addDays(today, 1) },
      { model: 'gpt-a', user_id: u.four, last_date: addDays(today, 1) },
      { model: 'gpt-b', user_id: u.five, last_date: addDays(today, -2) },
      { model: 'gpt-c', user_id: u.other, last_date: today },
    ]);
  });

  it('counts the admin’s distinct users per ranked model exactly as the daily rows do', async () => {
    const expected: Record<number, Record<string, number>> = {
      1: { 'gpt-a': 1, 'gpt-c': 2 },
      7: { 'gpt-a': 2, 'gpt-b': 1, 'gpt-c': 2 },
      15: { 'gpt-a': 3, 'gpt-b': 1, 'gpt-c': 2 },
      30: { 'gpt-a': 3, 'gpt-b': 1, 'gpt-c': 2 },
    };
    for (const days of WINDOWS) {
      const items = await topModels(a, days);
      const users = Object.fromEntries(items.map((i) => [i.model, i.user]));
      expect(users).toEqual(expected[days]);
      expect(users).toEqual(await usersFromDays(days));
    }
    // The future-dated calls are in no window's sums either.
    expect((await topModels(a, 30)).find((i) => i.model === 'gpt-a')).toMatchObject({ call: 4, spend: 190 });
  });

  it('gives a reseller its users’ and its own rows once each', async () => {
    const r = r1.userId;
    const scoped = (q: any) => q.where((eb: any) => eb.or([eb('rid', '=', r), eb('user_id', '=', r)]));
    for (const days of WINDOWS) {
      const users = Object.fromEntries((await topModels(r1, days)).map((i) => [i.model, i.user]));
      expect(users).toEqual(await usersFromDays(days, scoped));
    }
    expect((await topModels(r1, 30)).map((i) => [i.model, i.user, i.call, i.spend])).toEqual([
      ['gpt-a', 2, 3, 170],
      ['gpt-b', 1, 1, 70],
      ['gpt-c', 1, 2, 15],
    ]);
    expect(await data(r1, '/api/v1/dashboard/model/percent/7')).toEqual({
      models: ['gpt-c', 'gpt-a', 'gpt-b'],
      items: [
        { name: 'gpt-c', value: 2 },
        { name: 'gpt-a', value: 1 },
        { name: 'gpt-b', value: 1 },
      ],
    });
  });

  it('backfills stat_model_user from the daily rows when the migration runs on an existing install', async () => {
    const table = () => db.selectFrom('stat_model_user').select(['model', 'user_id', 'last_date']).orderBy('model').orderBy('user_id').execute();
    const kept = await table();
    expect(kept.length).toBeGreaterThan(5);
    await statRankings.down(db);
    await statRankings.up(db);
    expect(await table()).toEqual(kept);
    // The job goes on from the backfilled rows.
    await insertLogs(server, [callLog({ user_id: u.two, rid: r1.userId, req_time: t0, model: 'gpt-a', total_price: 1 })]);
    expect((await runStats(server)).rows).toBe(1);
    expect(Object.fromEntries((await topModels(a, 7)).map((i) => [i.model, i.user]))).toEqual({ 'gpt-a': 3, 'gpt-b': 1, 'gpt-c': 2 });
  });
});
