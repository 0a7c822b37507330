import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYS_CONFIG_DEFAULTS } from '@fastgate/core/sys-config';
import type { Kysely } from 'kysely';
import * as statModelDay from '../src/db/migrations/2026-11-22-15-stat-model-day';
import { runStatistics } from '../src/jobs/statistics';
import { statDateOf } from '../src/stats/dates';
import { admin, dialects, startServer, type Client, type TestServer } from './helpers';
import { settled, world } from './gateway-fixtures';
import { callLog, insertLogs, pauseSchedule, runStats, shanghai } from './stat-fixtures';

const MEASURES = ['total', 'tokens', 'spend', 'abnormal', 'abnormal_spend'] as const;
const pick = (row: Record<string, unknown> | undefined, extra: string[] = []) => row && Object.fromEntries([...MEASURES, ...extra].map((k) => [k, Number(row[k])]));

describe.each(dialects)('statistics job on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let db: Kysely<any>;

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    db = server.app.ctx.db as unknown as Kysely<any>;
    await pauseSchedule(a);
  });
  afterAll(() => server?.close());

  const userDay = (userId: number, date: string) => db.selectFrom('stat_user_day').selectAll().where('user_id', '=', userId).where('stat_date', '=', date).executeTakeFirst();
  const modelDay = (userId: number, date: string, model: string) =>
    db.selectFrom('stat_user_model_day').selectAll().where('user_id', '=', userId).where('stat_date', '=', date).where('model', '=', model).executeTakeFirst();
  const everything = async () => {
    const out: Record<string, unknown[]> = {};
    for (const t of ['stat_user_day', 'stat_user_model_day', 'stat_model_day', 'stat_app_day', 'stat_app_key_day']) out[t] = await db.selectFrom(t).selectAll().orderBy('id').execute();
    return out;
  };
  /** stat_model_day's (model, day) keys and measures, in order. */
  const modelDays = async () =>
    (await db.selectFrom('stat_model_day').selectAll().orderBy('model').orderBy('stat_date').execute()).map((r) => ({ model: r.model, stat_date: r.stat_date, ...pick(r) }));
  /** The installation-wide per-model table holds exactly the per-model sums of the per-user one. */
  const expectModelDaysAgree = async () => {
    const sums = await db
      .selectFrom('stat_user_model_day')
      .select(['model', 'stat_date', ...MEASURES.map((m) => db.fn.sum(m).as(m))])
      .groupBy(['model', 'stat_date'])
      .orderBy('model')
      .orderBy('stat_date')
      .execute();
    const kept = await modelDays();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(sums.map((r) => ({ model: r.model, stat_date: r.stat_date, ...pick(r) })));
  };

  it('sums calls, tokens, spend and abnormal calls per user, model, app and key and day in the configured zone', async () => {
    const lastMs = shanghai('2026-01-01 23:59:59.999');
    const midnight = shanghai('2026-01-02 00:00:00');
    const u1 = { user_id: 101, rid: 0, app_id: 11, app_key_id: 'k11', creator: 'sk-Fast****aaaa' };
    const u2 = { user_id: 102, rid: 900, app_id: 12, app_key_id: 'k12', creator: 'sk-Fast****bbbb' };
    await insertLogs(server, [
      // A retried call: the retry attempt is no call, but its tokens and spend count.
      callLog({ ...u1, trace_id: 'A', attempt: 0, status: 3, req_time: lastMs - 5000, prompt_tokens: 10, total_price: 5 }),
      callLog({ ...u1, trace_id: 'A', attempt: 1, status: 1, req_time: lastMs - 5000, prompt_tokens: 100, completion_tokens: 50, total_price: 200 }),
      // An aborted call that cost something, and a failed one that cost nothing: both abnormal.
      callLog({ ...u1, trace_id: 'B', status: 2, req_time: lastMs - 1000, prompt_tokens: 20, completion_tokens: 10, total_price: 30 }),
      callLog({ ...u1, trace_id: 'C', status: -1, req_time: lastMs - 900 }),
      // A smart-match decision: charged, not a call.
      callLog({ ...u1, trace_id: 'D', is_smart_match: 1, model: 'gpt-decide', req_time: lastMs, prompt_tokens: 7, completion_tokens: 3, total_price: 10 }),
      // Midnight in Shanghai starts the next day (16:00 UTC the day before).
      callLog({ ...u1, trace_id: 'E', req_time: midnight, prompt_tokens: 1, completion_tokens: 1, total_price: 4 }),
      callLog({ ...u2, trace_id: 'F', status: -1, model: 'gpt-b', req_time: lastMs, prompt_tokens: 5 }),
      callLog({ ...u2, trace_id: 'G', req_time: lastMs, prompt_tokens: 10, completion_tokens: 10, total_price: 100 }),
      // Refused before an app was known: counts for the user only.
      callLog({ user_id: 102, rid: 900, trace_id: 'H', status: -1, req_time: lastMs }),
    ]);
    const r = await runStats(server);
    expect(r).toMatchObject({ rows: 9, locked: false });

    expect(pick(await userDay(101, '2026-01-01'), ['models', 'rid'])).toEqual({ total: 3, tokens: 200, spend: 245, abnormal: 2, abnormal_spend: 30, models: 2, rid: 0 });
    expect(pick(await userDay(101, '2026-01-02'), ['models'])).toEqual({ total: 1, tokens: 2, spend: 4, abnormal: 0, abnormal_spend: 0, models: 1 });
    expect(pick(await userDay(102, '2026-01-01'), ['models', 'rid'])).toEqual({ total: 3, tokens: 25, spend: 100, abnormal: 2, abnormal_spend: 0, models: 2, rid: 900 });
    expect(pick(await modelDay(101, '2026-01-01', 'gpt-a'))).toEqual({ total: 3, tokens: 190, spend: 235, abnormal: 2, abnormal_spend: 30 });
    expect(pick(await modelDay(101, '2026-01-01', 'gpt-decide'))).toEqual({ total: 0, tokens: 10, spend: 10, abnormal: 0, abnormal_spend: 0 });
    const app11 = await db.selectFrom('stat_app_day').selectAll().where('app_id', '=', 11).orderBy('stat_date').execute();
    expect(app11.map((x) => [x.stat_date, Number(x.total), Number(x.spend), x.user_id])).toEqual([
      ['2026-01-01', 3, 245, 101],
      ['2026-01-02', 1, 4, 101],
    ]);
    const key12 = await db.selectFrom('stat_app_key_day').selectAll().where('app_key_id', '=', 'k12').execute();
    expect(key12.map((x) => [x.stat_date, Number(x.total), Number(x.abnormal), x.creator, x.app_id, x.rid])).toEqual([['2026-01-01', 2, 1, 'sk-Fast****bbbb', 12, 900]]);
    // No app, no key: no app or key row.
    expect(await db.selectFrom('stat_app_day').select('id').where('app_id', '=', 0).execute()).toEqual([]);
    expect(await db.selectFrom('stat_app_key_day').select('id').where('app_key_id', '=', '').execute()).toEqual([]);
    // The whole installation per model and day: both users' gpt-a calls, the smart-match decision apart.
    const days = await modelDays();
    expect(days.find((d) => d.model === 'gpt-a' && d.stat_date === '2026-01-01')).toEqual({ model: 'gpt-a', stat_date: '2026-01-01', total: 5, tokens: 210, spend: 335, abnormal: 3, abnormal_spend: 30 });
    expect(days.find((d) => d.model === 'gpt-decide')).toEqual({ model: 'gpt-decide', stat_date: '2026-01-01', total: 0, tokens: 10, spend: 10, abnormal: 0, abnormal_spend: 0 });
    await expectModelDaysAgree();
  });

  it('adds only new rows on the next run; a run with nothing new changes nothing', async () => {
    const day = shanghai('2026-02-10 12:00:00');
    await insertLogs(server, [callLog({ user_id: 201, req_time: day, total_price: 50, prompt_tokens: 3 })]);
    expect((await runStats(server)).rows).toBe(1);
    const before = await everything();
    expect(await runStats(server)).toEqual({ rows: 0, chunks: 0, locked: false });
    expect(await everything()).toEqual(before);

    await insertLogs(server, [callLog({ user_id: 201, req_time: day + 1000, total_price: 70, prompt_tokens: 4, model: 'gpt-c' }), callLog({ user_id: 201, req_time: day + 2000, status: 3, total_price: 1 })]);
    expect((await runStats(server)).rows).toBe(2);
    expect(pick(await userDay(201, '2026-02-10'), ['models'])).toEqual({ total: 2, tokens: 7, spend: 121, abnormal: 0, abnormal_spend: 0, models: 2 });
    // The earlier days were not touched again.
    expect(pick(await userDay(101, '2026-01-01'))).toEqual({ total: 3, tokens: 200, spend: 245, abnormal: 2, abnormal_spend: 30 });
    await expectModelDaysAgree();
  });

  it('reads a backlog in chunks of the configured limit and counts every row once', async () => {
    const day = shanghai('2026-03-01 08:00:00');
    await a.post('/api/v1/sys/config/update', { action: 'statistics', statistics: { limit: 7 } });
    const rows = Array.from({ length: 50 }, (_, i) => callLog({ user_id: 300 + (i % 3), req_time: day + i, total_price: i, prompt_tokens: 1, model: `m-${i % 4}` }));
    await insertLogs(server, rows);
    const r = await runStats(server);
    expect(r).toMatchObject({ rows: 50, chunks: 8 });
    const sum = await db.selectFrom('stat_user_day').select([db.fn.sum('total').as('calls'), db.fn.sum('spend').as('spend')]).where('stat_date', '=', '2026-03-01').executeTakeFirstOrThrow();
    expect([Number(sum.calls), Number(sum.spend)]).toEqual([50, (49 * 50) / 2]);
    expect(Number((await userDay(300, '2026-03-01'))!.models)).toBe(4);
    await expectModelDaysAgree();
    await a.post('/api/v1/sys/config/update', { action: 'statistics', statistics: { limit: SYS_CONFIG_DEFAULTS.statistics.limit } });
  });

  it('lets other work run between its chunks (SQLite answers on the event loop)', async () => {
    const day = shanghai('2026-05-01 09:00:00');
    await insertLogs(server, Array.from({ length: 40 }, (_, i) => callLog({ user_id: 500, req_time: day + i, total_price: 1 })));
    // A reader on its own event-loop turns: it sees the totals between chunks only if the run yields.
    const seen = new Set<number>();
    let watching = true;
    const watch = async () => {
      while (watching) {
        const row = await userDay(500, '2026-05-01');
        seen.add(Number(row?.total ?? 0));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const watcher = watch();
    const r = await runStatistics(server.app.ctx, { limit: 4 });
    watching = false;
    await watcher;
    expect(r).toMatchObject({ rows: 40, chunks: 10 });
    expect([...seen].filter((t) => t > 0 && t < 40).length).toBeGreaterThanOrEqual(5);
    expect(pick(await userDay(500, '2026-05-01'))).toMatchObject({ total: 40, spend: 40 });
  });

  it('writes a chunk of the configured limit once, and on SQLite lets other work run while it reads it', async () => {
    const day = shanghai('2026-05-02 09:00:00');
    await insertLogs(server, Array.from({ length: 600 }, (_, i) => callLog({ user_id: 510 + (i % 7), req_time: day + i, total_price: 1 })));
    // Turns of the event loop while the run goes on, and what the reader saw of the chunk meanwhile.
    let turns = 0;
    const seen = new Set<number>();
    let watching = true;
    const watch = async () => {
      while (watching) {
        turns++;
        seen.add(Number((await userDay(510, '2026-05-02'))?.total ?? 0));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const watcher = watch();
    const r = await runStatistics(server.app.ctx);
    watching = false;
    await watcher;
    // The default limit (1,000 rows): one transaction, so nothing of it showed before it was whole.
    expect(r).toMatchObject({ rows: 600, chunks: 1 });
    expect([...seen].filter((t) => t > 0 && t < 86)).toEqual([]);
    // SQLite answers on the event loop: the 600 rows were read in pieces with the loop let go between them.
    if (dialect === 'sqlite') expect(turns).toBeGreaterThanOrEqual(4);
    expect(pick(await userDay(510, '2026-05-02'))).toMatchObject({ total: 86, spend: 86 });
  });

  it('never double counts when two runs start together, and skips while another instance holds the lock', async () => {
    const day = shanghai('2026-04-01 09:00:00');
    await insertLogs(server, Array.from({ length: 30 }, (_, i) => callLog({ user_id: 400, req_time: day + i, total_price: 2 })));
    const both = await Promise.all([runStatistics(server.app.ctx, { limit: 4 }), runStatistics(server.app.ctx, { limit: 4 })]);
    expect(both[0].rows + both[1].rows).toBe(30);
    expect(pick(await userDay(400, '2026-04-01'))).toMatchObject({ total: 30, spend: 60 });

    // Another instance holds the lock: nothing is read until it is released.
    await insertLogs(server, [callLog({ user_id: 400, req_time: day + 100, total_price: 2 })]);
    await db.updateTable('stat_cursors').set({ lock_until: Date.now() + 60_000 }).where('name', '=', 'call_logs').execute();
    expect(await runStatistics(server.app.ctx)).toEqual({ rows: 0, chunks: 0, locked: true });
    expect(pick(await userDay(400, '2026-04-01'))).toMatchObject({ total: 30 });
    // An expired lock is taken over.
    await db.updateTable('stat_cursors').set({ lock_until: Date.now() - 1 }).where('name', '=', 'call_logs').execute();
    expect(await runStatistics(server.app.ctx)).toMatchObject({ rows: 1, locked: false });
    expect(pick(await userDay(400, '2026-04-01'))).toMatchObject({ total: 31, spend: 62 });
    expect(Number((await db.selectFrom('stat_cursors').select('lock_until').where('name', '=', 'call_logs').executeTakeFirstOrThrow()).lock_until)).toBe(0);
    await expectModelDaysAgree();
  });

  it('backfills stat_model_day from the per-user statistics when the migration runs on an existing install', async () => {
    const kept = await modelDays();
    expect(kept.length).toBeGreaterThan(5);
    await statModelDay.down(db);
    await statModelDay.up(db);
    // The measures a later migration added to the table (2026-11-24-08), as it would on that install.
    for (const c of ['floor_spend', 'exempt_spend']) await db.schema.alterTable('stat_model_day').addColumn(c, 'bigint', (col) => col.notNull().defaultTo(0)).execute();
    expect(await modelDays()).toEqual(kept);
    // The job goes on adding to the backfilled rows.
    await insertLogs(server, [callLog({ user_id: 101, req_time: shanghai('2026-01-01 10:00:00'), total_price: 1000, prompt_tokens: 1 })]);
    expect((await runStats(server)).rows).toBe(1);
    const gptA = (await modelDays()).find((d) => d.model === 'gpt-a' && d.stat_date === '2026-01-01');
    expect(gptA).toMatchObject({ total: 6, spend: 1335 });
    await expectModelDaysAgree();
  });

  it('holds rows of other instances back by lagMs', async () => {
    const now = Date.now();
    await insertLogs(server, [callLog({ user_id: 500, req_time: now, created_at: now })]);
    expect((await runStats(server, { lagMs: 60_000 })).rows).toBe(0);
    expect((await runStats(server)).rows).toBe(1);
  });
});

describe.each(dialects)('statistics of real gateway calls on %s', (dialect) => {
  it('counts calls through the gateway once flushed, and the schedule follows the system config', async () => {
    const w = await world(dialect);
    try {
      const db = w.server.app.ctx.db;
      await pauseSchedule(w.admin);
      for (const said of ['one', 'two']) await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: said }] });
      // Not flushed yet: the run flushes the ledger itself before reading.
      const r = await runStatistics(w.server.app.ctx, { flush: () => w.server.app.gateway.ledger.flush() });
      expect(r.rows).toBe(2);
      const logs = await db.selectFrom('call_logs').select(['total_price', 'prompt_tokens', 'completion_tokens', 'req_time']).where('user_id', '=', w.user.userId).execute();
      const bill = await db.selectFrom('stat_user_day').selectAll().where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
      expect(pick(bill, ['models'])).toEqual({
        total: 2,
        tokens: logs.reduce((n, l) => n + l.prompt_tokens + l.completion_tokens, 0),
        spend: logs.reduce((n, l) => n + l.total_price, 0),
        abnormal: 0,
        abnormal_spend: 0,
        models: 1,
      });
      const key = await db.selectFrom('stat_app_key_day').selectAll().where('user_id', '=', w.user.userId).executeTakeFirstOrThrow();
      expect([key.app_id, Number(key.total)]).toEqual([w.appId, 2]);
      // The user sees today's bill and its Top 10 at once.
      const bills = (await w.user.post('/api/v1/finance/bill/page', { current: 1, pageSize: 10 })).body.data.items;
      expect(bills).toHaveLength(1);
      // On the wire a bill's charge in quota units is `tokens` (the original console's meaning, docs/SPEC.md §3.10.1).
      expect(bills[0]).toMatchObject({ stat_date: statDateOf(Date.now(), w.server.app.ctx.config.timeZone), total: 2, tokens: Number(bill.spend), token_count: Number(bill.tokens) });
      const top = (await w.user.get('/api/v1/dashboard/data/top', { days: 1, data_type: 'model' })).body.data.items;
      expect(top).toEqual([{ model: 'gpt-test', user: 1, call: 2, tokens: Number(bill.tokens), spend: Number(bill.spend), abnormal: 0 }]);

      // Every second instead: the next call shows up without anyone running the job by hand.
      expect((await w.admin.post('/api/v1/sys/config/update', { action: 'statistics', statistics: { open: true, cron: '* * * * * *' } })).body.code).toBe(0);
      await settled(w);
      await w.openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'three' }] });
      let total = 0;
      for (let i = 0; i < 100 && total < 3; i++) {
        await new Promise((res) => setTimeout(res, 100));
        total = Number((await db.selectFrom('stat_user_day').select('total').where('user_id', '=', w.user.userId).executeTakeFirstOrThrow()).total);
      }
      expect(total).toBe(3);
    } finally {
      await w.close();
    }
  });
});
