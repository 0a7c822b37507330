// The data generator behind `npm run seed:logs` and `npm run bench:logs`: what it writes must be what
// the product would have written — rows the statistics count, charges that match the balances, accounts
// that can sign in and see their own logs — and a second run must add to the first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLogs, type SeedOptions, type SeedSummary } from '../src/seed/seed';
import { Client, dialects, expectNoDrift, setQuota, startServer, type TestServer } from './helpers';

const OPTS: SeedOptions = { rows: 3000, days: 10, users: 30, resellers: 2, seed: 7, chunk: 500, password: 'Seed#12345', statistics: true };
const num = (v: unknown) => Number(v ?? 0);

describe.each(dialects)('seed:logs on %s', (dialect) => {
  let server: TestServer;
  let first: SeedSummary;

  beforeAll(async () => {
    server = await startServer(dialect);
    first = await seedLogs(server.app, OPTS);
  }, 120_000);
  afterAll(() => server?.close());

  it('writes exactly the rows asked for, every attempt of a trace in order, and the statistics count the calls', async () => {
    const { db } = server.app.ctx;
    expect(first.rows).toBe(OPTS.rows);
    expect(first.created).toMatchObject({ users: 30, resellers: 2, models: 29 });
    const rows = await db.selectFrom('call_logs').select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('total_price').as('spend')]).executeTakeFirstOrThrow();
    expect(num(rows.n)).toBe(OPTS.rows);
    expect(num(rows.spend)).toBe(first.spend);
    // Retried attempts (status 3) are never a trace's last row, and attempts count from 0 without gaps.
    const traces = await db.selectFrom('call_logs').select(['trace_id', (eb) => eb.fn.max('attempt').as('last'), (eb) => eb.fn.countAll().as('n')]).groupBy('trace_id').execute();
    expect(traces.every((t) => num(t.last) + 1 === num(t.n))).toBe(true);
    const retriedLast = await db
      .selectFrom('call_logs as l')
      .select('l.id')
      .where('l.status', '=', 3)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('call_logs as later').select('later.id').whereRef('later.trace_id', '=', 'l.trace_id').whereRef('later.attempt', '>', 'l.attempt'))),
      )
      .execute();
    expect(retriedLast).toEqual([]);
    expect(first.statuses['3']).toBeGreaterThan(0);
    expect(first.statuses['-1']).toBeGreaterThan(0);
    const calls = await db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).where('status', '<>', 3).executeTakeFirstOrThrow();
    const stats = await db.selectFrom('stat_user_day').select((eb) => [eb.fn.sum('total').as('total'), eb.fn.sum('spend').as('spend')]).executeTakeFirstOrThrow();
    expect(num(stats.total)).toBe(num(calls.n));
    expect(num(stats.spend)).toBe(first.spend);
  });

  it('charges the balances what the logs say, without overdrawing anyone', async () => {
    const { db } = server.app.ctx;
    const users = await db.selectFrom('users').select(['user_id', 'quota', 'used_quota']).where('account', 'like', 'seed-user-%').execute();
    const spent = await db.selectFrom('call_logs').select(['user_id', (eb) => eb.fn.sum('total_price').as('s')]).groupBy('user_id').execute();
    const byUser = new Map(spent.map((r) => [r.user_id, num(r.s)]));
    for (const u of users) {
      expect(u.used_quota).toBe(byUser.get(u.user_id) ?? 0);
      expect(u.quota).toBeGreaterThanOrEqual(0);
    }
    const apps = await db.selectFrom('apps').select((eb) => eb.fn.sum('used_quota').as('s')).executeTakeFirstOrThrow();
    expect(num(apps.s)).toBe(first.spend);
    // Opening balances and top-ups are deal records.
    const deals = await db.selectFrom('deal_records').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(num(deals.n)).toBeGreaterThanOrEqual(32);
  });

  it('gives accounts that sign in and see their own logs, and an admin who sees all of them', async () => {
    const user = new Client(server.url);
    await user.login('user', first.heavy!.account, OPTS.password);
    const mine = await server.app.ctx.db
      .selectFrom('call_logs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('user_id', '=', first.heavy!.user_id)
      .where('type', 'in', [1, 3, 7, 100, 101, 102, 103])
      .executeTakeFirstOrThrow();
    const page = await user.post('/api/v1/log/chat/page', { current: 1, pageSize: 5 });
    expect(page.body.code).toBe(0);
    expect(page.body.data.paging.total).toBe(num(mine.n));
    expect(page.body.data.items.every((r: { user_id: number }) => r.user_id === first.heavy!.user_id)).toBe(true);
    const reseller = new Client(server.url);
    await reseller.login('reseller', first.reseller!.account, OPTS.password);
    const admin = new Client(server.url);
    await admin.login('admin', 'admin', server.adminPassword);
    const all = await admin.post('/api/v1/log/chat/page', { current: 1, pageSize: 1 });
    expect(all.body.data.paging.total).toBeGreaterThan(num(mine.n));
  });

  it('adds rows on a second run and reuses the accounts and catalogue', async () => {
    const again = await seedLogs(server.app, { ...OPTS, rows: 500, seed: 8 });
    expect(again.rows).toBe(500);
    expect(again.created).toMatchObject({ corps: 0, models: 0, groups: 0, users: 0, resellers: 0, apps: 0 });
    const { db } = server.app.ctx;
    const rows = await db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(num(rows.n)).toBe(OPTS.rows + 500);
    const stats = await db.selectFrom('stat_user_day').select((eb) => eb.fn.sum('spend').as('s')).executeTakeFirstOrThrow();
    expect(num(stats.s)).toBe(first.spend + again.spend);
  });

  it("tops a reseller up before its users when their calls cost more than it holds (10M rows failed here)", async () => {
    const { db } = server.app.ctx;
    // Every reseller and its users spent: the users' top-ups come from resellers holding nothing.
    const accounts = await db.selectFrom('users').select(['user_id', 'rid']).where((eb) => eb.or([eb('account', 'like', 'seed-reseller-%'), eb('rid', '<>', 0)])).execute();
    for (const a of accounts) await setQuota(server, a.user_id, 0);
    const again = await seedLogs(server.app, { ...OPTS, rows: 500, seed: 9 });
    expect(again.rows).toBe(500);
    const balances = await db.selectFrom('users').select(['quota']).where('user_id', 'in', accounts.map((a) => a.user_id)).execute();
    expect(balances.every((u) => u.quota >= 0)).toBe(true);
    await expectNoDrift(server);
  });
});
