import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILL_MAX_DAYS } from '@fastgate/core/entities/finance';
import { quotaToUsd } from '@fastgate/core/money';
import { addDays } from '../src/stats/dates';
import { admin, dialects, expectNoDrift, signedIn, startServer, type Client, type TestServer } from './helpers';
import { callLog, chargeLogs, pauseSchedule, runStats, shanghai } from './stat-fixtures';

type Signed = Client & { userId: number };

async function sheetRows(res: Response): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await res.arrayBuffer());
  return book.worksheets[0]!.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
}

describe.each(dialects)('bills on %s', (dialect) => {
  let server: TestServer;
  let a: Client;
  let r1: Signed;
  let u1: Signed;
  let u2: Signed;
  let u3: Signed;
  const billId = async (userId: number, date: string) =>
    (await server.app.ctx.db.selectFrom('stat_user_day').select('id').where('user_id', '=', userId).where('stat_date', '=', date).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    server = await startServer(dialect);
    a = await admin(server);
    await pauseSchedule(a);
    r1 = await signedIn(server, 'reseller', 'bill-r1');
    const r2 = await signedIn(server, 'reseller', 'bill-r2');
    u1 = await signedIn(server, 'user', 'bill-u1', { rid: r1.userId });
    u2 = await signedIn(server, 'user', 'bill-u2');
    u3 = await signedIn(server, 'user', 'bill-u3', { rid: r2.userId });
    const may1 = shanghai('2026-05-01 10:00:00');
    const may2 = shanghai('2026-05-02 10:00:00');
    const of = (u: Signed, rid = 0) => ({ user_id: u.userId, rid });
    // With their charges, as the ledger writes them: the suite ends with the ledger verifier.
    await chargeLogs(server, [
      callLog({ ...of(u1, r1.userId), req_time: may1, model: 'gpt-a', total_price: 300, prompt_tokens: 10, completion_tokens: 5 }),
      callLog({ ...of(u1, r1.userId), req_time: may1 + 1, model: 'gpt-a', total_price: 300, prompt_tokens: 10, completion_tokens: 5 }),
      callLog({ ...of(u1, r1.userId), req_time: may1 + 2, model: 'gpt-b', total_price: 500, prompt_tokens: 40 }),
      callLog({ ...of(u1, r1.userId), req_time: may2, model: 'gpt-a', total_price: 100, prompt_tokens: 1 }),
      callLog({ ...of(u2), req_time: may1, model: 'gpt-a', total_price: 1000, prompt_tokens: 100 }),
      callLog({ ...of(u3, r2.userId), req_time: may1, model: 'gpt-c', total_price: 50, prompt_tokens: 5 }),
      // The reseller's own call: its own bill, in its own scope.
      callLog({ ...of(r1), req_time: may1, model: 'gpt-a', total_price: 10, prompt_tokens: 1 }),
    ]);
    await runStats(server);
  });
  afterAll(() => server?.close());

  const page = async (c: Client, body: Record<string, unknown> = {}) => {
    const r = await c.post('/api/v1/finance/bill/page', { current: 1, pageSize: 20, ...body });
    expect(r.body.code).toBe(0);
    return r.body.data as { items: Record<string, unknown>[]; paging: { total: number } };
  };
  // The original console's meaning (docs/SPEC.md §3.10.1): `tokens` is the charge in quota units, `spend` the
  // same in dollars, `token_count` the tokens used. Rows read [date, user, calls, token_count, charge (quota units), models].
  const rowsOf = (items: Record<string, unknown>[]) =>
    items.map((b) => {
      expect(b.spend).toBeCloseTo(quotaToUsd(b.tokens as number), 12);
      return [b.stat_date, b.user_id, b.total, b.token_count, b.tokens, b.models];
    });

  it('lists bills in each role’s scope, newest day first and by spend', async () => {
    expect(rowsOf((await page(u1)).items)).toEqual([
      ['2026-05-02', u1.userId, 1, 1, 100, 1],
      ['2026-05-01', u1.userId, 3, 70, 1100, 2],
    ]);
    // Someone else's user id narrows a user's own scope to nothing.
    expect((await page(u1, { user_id: u2.userId })).items).toEqual([]);
    expect(rowsOf((await page(r1)).items)).toEqual([
      ['2026-05-02', u1.userId, 1, 1, 100, 1],
      ['2026-05-01', u1.userId, 3, 70, 1100, 2],
      ['2026-05-01', r1.userId, 1, 1, 10, 1],
    ]);
    expect((await page(r1, { user_id: u3.userId })).items).toEqual([]);
    const all = await page(a);
    expect(all.paging.total).toBe(5);
    expect(all.items.map((b) => b.user_id)).toEqual([u1.userId, u1.userId, u2.userId, u3.userId, r1.userId]);
    expect(rowsOf((await page(a, { user_id: u2.userId })).items)).toEqual([['2026-05-01', u2.userId, 1, 100, 1000, 1]]);
    expect((await page(a, { stat_date: ['2026-05-02', '2026-05-02'] })).items.map((b) => b.user_id)).toEqual([u1.userId]);
    const first = (await page(u1)).items[0]!;
    expect(first).toMatchObject({ id: await billId(u1.userId, '2026-05-02'), rid: r1.userId, abnormal: 0, abnormal_tokens: 0, abnormal_spend: 0 });
    expect(first.updated_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses bad date ranges with an error naming stat_date', async () => {
    // One day more than the longest range allowed.
    const tooLong = [addDays('2026-05-01', -BILL_MAX_DAYS), '2026-05-01'];
    expect((await page(u1, { stat_date: [addDays('2026-05-01', 1 - BILL_MAX_DAYS), '2026-05-01'] })).items.length).toBe(1);
    for (const stat_date of [['2026-05-01'], ['2026-05-03', '2026-05-01'], ['2026-02-30', '2026-03-01'], tooLong, 'today']) {
      const r = await u1.post('/api/v1/finance/bill/page', { current: 1, pageSize: 20, stat_date });
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(51);
      expect(r.body.message).toContain('stat_date');
    }
  });

  it('shows a bill with its models by spend, to whoever may see it', async () => {
    const id = await billId(u1.userId, '2026-05-01');
    const mine = await u1.get('/api/v1/finance/bill/detail', { id });
    expect(mine.body.code).toBe(0);
    expect(mine.body.data).toMatchObject({ id, user_id: u1.userId, stat_date: '2026-05-01', total: 3, tokens: 1100, token_count: 70, spend: quotaToUsd(1100), models: 2 });
    expect(mine.body.data.model_stats).toEqual([
      { model: 'gpt-a', total: 2, tokens: 600, token_count: 30, spend: quotaToUsd(600), abnormal: 0, abnormal_tokens: 0, abnormal_spend: 0 },
      { model: 'gpt-b', total: 1, tokens: 500, token_count: 40, spend: quotaToUsd(500), abnormal: 0, abnormal_tokens: 0, abnormal_spend: 0 },
    ]);
    expect((await r1.get('/api/v1/finance/bill/detail', { id })).body.code).toBe(0);
    expect((await a.get('/api/v1/finance/bill/detail', { id })).body.code).toBe(0);
    const foreign = await billId(u2.userId, '2026-05-01');
    for (const c of [u1, r1, u3]) {
      const r = await c.get('/api/v1/finance/bill/detail', { id: foreign });
      expect(r.body.code).toBe(50);
      expect(r.body.data).toBeNull();
    }
  });

  it('exports one row per user, day and model; the bill date range is required unless ids are given', async () => {
    const missing = await u1.post('/api/v1/finance/bill/export', {});
    expect(missing.body.code).toBe(51);
    expect(missing.body.message).toContain('stat_date');
    expect((await u1.post('/api/v1/finance/bill/export', { stat_date: ['2024-01-01', '2026-05-01'] })).body.code).toBe(51);

    const res = await u1.raw('POST', '/api/v1/finance/bill/export', JSON.stringify({ stat_date: ['2026-04-01', '2026-05-31'] }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('账单明细.xlsx')}`);
    expect(await sheetRows(res)).toEqual([
      ['日期', '模型', '调用次数', 'Tokens', '花费（$）'],
      ['2026-05-02', 'gpt-a', 1, 1, 0.0002],
      ['2026-05-01', 'gpt-a', 2, 30, 0.0012],
      ['2026-05-01', 'gpt-b', 1, 40, 0.001],
    ]);

    const adminRows = await sheetRows(await a.raw('POST', '/api/v1/finance/bill/export', JSON.stringify({ stat_date: ['2026-05-01', '2026-05-01'] })));
    expect(adminRows[0]).toEqual(['日期', '用户ID', '模型', '调用次数', 'Tokens', '花费（$）']);
    expect(adminRows.slice(1).map((r) => [r[1], r[2]])).toEqual([
      [u1.userId, 'gpt-a'],
      [u1.userId, 'gpt-b'],
      [u2.userId, 'gpt-a'],
      [u3.userId, 'gpt-c'],
      [r1.userId, 'gpt-a'],
    ].sort((x, y) => (x[0] as number) - (y[0] as number)));
    const onlyU2 = await sheetRows(await a.raw('POST', '/api/v1/finance/bill/export', JSON.stringify({ stat_date: ['2026-05-01', '2026-05-02'], user_id: u2.userId })));
    expect(onlyU2.slice(1)).toEqual([['2026-05-01', u2.userId, 'gpt-a', 1, 100, 0.002]]);

    // ids win over the range; another tenant's ids export nothing of theirs.
    const ids = [await billId(u1.userId, '2026-05-02'), await billId(u2.userId, '2026-05-01')];
    const resellerRows = await sheetRows(await r1.raw('POST', '/api/v1/finance/bill/export', JSON.stringify({ ids })));
    expect(resellerRows.slice(1)).toEqual([['2026-05-02', u1.userId, 'gpt-a', 1, 1, 0.0002]]);
    expect((await sheetRows(await u3.raw('POST', '/api/v1/finance/bill/export', JSON.stringify({ ids })))).length).toBe(1);
  });

  it('ends with every balance adding up to its records (ledger verifier)', () => expectNoDrift(server));
});
