// The dashboard workplace and the finance screens (issue 6 "done when"): after gateway calls with the
// official openai SDK (three that succeed, one that fails on both upstream keys), the statistics job
// builds today's bill; the user signs in, lands on the workplace and finds the calls in the cards, the
// trend, the Top 10 (its app, the model) and the model share; the live rates follow a new call and stop
// polling in a hidden tab; the quota-warning settings save; today's bill shows the right spend, opens
// its detail and exports (picked rows, then the date range). An admin sees the admin cards and the
// deal record of a recharge. Screenshots in zh-CN, dark mode and en-US.
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { expect, test, type Browser, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import OpenAI from 'openai';
import type { Bill } from '../../packages/core/src/entities/finance';
import type { Expense } from '../../packages/core/src/entities/user';
import { formatUsd, quotaToUsd } from '../../packages/core/src/money';
import { BASE_URL } from '../env';
import { loginAsAdmin, loginWithPassword, seeToast, shot } from '../helpers';
import { createWorld, ok, type World } from '../world';

// The browser runs in another zone than the server (Asia/Shanghai): "today" must still be the server's day.
test.use({ timezoneId: 'America/Los_Angeles', actionTimeout: 15_000 });

const PROMPT_RATIO = 250;
const COMPLETION_RATIO = 500;
/** The model's charge of one call: ratios, the group discount in percent, one ceil (billing/price.ts). */
const chargeOf = (u: OpenAI.CompletionUsage, discountPct: number) => Math.ceil(((u.prompt_tokens * PROMPT_RATIO + u.completion_tokens * COMPLETION_RATIO) * discountPct) / 100);

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN', timezoneId: 'America/Los_Angeles', viewport: { width: 1440, height: 900 } });
  return context.newPage();
}

/** Body rows of the list (not the header, not the empty-table row). */
const rows = (page: Page) => page.getByTestId('resource-table-grid').locator('tbody .arco-table-tr:not(.arco-table-empty-row)');
/** Lets the charts' entry animations (ECharts: 1 s) finish before a screenshot. */
const chartsSettled = (page: Page) => page.waitForTimeout(1200);

/** A Statistic's number (its title sits beside it). */
const statValue = (page: Page, testId: string) => page.getByTestId(testId).locator('.arco-statistic-value');

async function cellsOf(file: string): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile(file)) as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.worksheets[0]!.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
  return cells;
}

test('the login screen loads no chart code and stays under 400 KB of gzipped JavaScript', async ({ page }) => {
  const scripts: Promise<{ url: string; gzip: number }>[] = [];
  page.on('response', (res) => {
    if (res.url().endsWith('.js')) scripts.push(res.body().then((body) => ({ url: res.url(), gzip: gzipSync(body).length })));
  });
  await page.goto('/login');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const loaded = await Promise.all(scripts);
  expect(loaded.length).toBeGreaterThan(0);
  expect(loaded.filter((s) => /workplace|echarts/.test(s.url))).toEqual([]);
  const total = loaded.reduce((n, s) => n + s.gzip, 0);
  expect(total).toBeLessThan(400 * 1024);
});

test('dashboard workplace and finance: cards, trend, Top 10, live rates, quota warning, bills, export, deal records', async ({ browser }) => {
  test.setTimeout(300_000);
  const tag = Date.now().toString(36);
  let w!: World;
  let spend = 0;
  let tokens = 0;
  /** Calls so far: the failed one counts (as abnormal), its retried attempt does not. */
  let calls = 0;
  let bill!: Bill;
  const bills = async () => (await ok<{ items: Bill[] }>('/finance/bill/page', { current: 1, pageSize: 20 }, w.user.token)).items;
  /** Waits for the statistics job (every 10 s) to count every call so far into today's bill. */
  const billCaughtUp = async () => {
    // The original console's meaning (docs/SPEC.md §3.10.1): `tokens` is the charge in quota units, `token_count` the tokens used.
    await expect.poll(async () => (await bills()).map((b) => [b.total, b.tokens, b.token_count, b.abnormal]), { timeout: 60_000, intervals: [1000, 2000] }).toEqual([[calls, spend, tokens, 1]]);
    bill = (await bills())[0]!;
  };
  const call = async (content: string) => {
    const res = await w.openai.chat.completions.create({ model: w.model, messages: [{ role: 'user', content }] });
    spend += chargeOf(res.usage!, w.discount);
    tokens += res.usage!.prompt_tokens + res.usage!.completion_tokens;
    calls += 1;
  };

  await test.step('setup: a priced model behind the mock, a user with an app key, four gateway calls', async () => {
    w = await createWorld({ tag, quotas: { text_quota: { billing_method: 1, prompt_ratio: PROMPT_RATIO, completion_ratio: COMPLETION_RATIO } } });
    for (let i = 1; i <= 3; i++) await call(`Dashboard call ${i} of ${tag}, please answer briefly.`);
    // Fails on both upstream keys: one abnormal call (its retried attempt is not a call of its own).
    const failed = await w.openai.chat.completions.create({ model: w.model, messages: [{ role: 'user', content: `[[mock:status=500]] fails ${tag}` }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(OpenAI.APIError);
    calls += 1;
    expect(spend).toBeGreaterThan(0);
  });

  await test.step('the statistics job builds today’s bill from the call logs (it runs every 10 s)', async () => {
    await billCaughtUp();
    expect(bill.total).toBe(4);
    // The bill and the account's used quota are the same money.
    expect((await ok<Expense>('/dashboard/expense', {}, w.user.token, 'GET')).used_quota).toBe(spend);
  });

  const user = await newPage(browser);
  const appPage = await ok<{ items: { app_id: number; name: string }[]; paging: { total?: number } }>('/app/page', { current: 1, pageSize: 20 }, w.user.token);
  const apps = appPage.paging.total ?? 0;
  const appName = appPage.items.find((a) => a.app_id === w.appId)!.name;

  await test.step('the user signs in and lands on the workplace: the cards of a user', async () => {
    await loginWithPassword(user, '/login', w.user.account, w.user.password);
    await expect(user).toHaveURL(/\/dashboard\/workplace$/);
    await expect(user.getByTestId('base-call-value')).toHaveText('4');
    await expect(user.getByTestId('base-app-value')).toHaveText(String(apps));
    await expect(user.getByTestId('base-model-value')).not.toHaveText('0');
    for (const adminOnly of ['base-model_key', 'base-user', 'base-today_user']) await expect(user.getByTestId(adminOnly)).toHaveCount(0);
  });

  await test.step('the trend, the Top 10 and the model share show the calls', async () => {
    await expect(statValue(user, 'trend-total-calls')).toHaveText('4');
    await expect(statValue(user, 'trend-total-spend')).toHaveText(formatUsd(spend));
    await expect(statValue(user, 'trend-total-tokens')).toHaveText(tokens.toLocaleString('en-US'));
    await expect(statValue(user, 'trend-total-abnormal')).toHaveText('1');
    await expect(user.getByTestId('trend-chart').locator('canvas')).toBeVisible();
    // 15 days by default; 7 days holds today too.
    await expect(user.getByTestId('trend-days-15')).toHaveClass(/arco-radio-checked/);
    await user.getByTestId('trend-days-7').click();
    await expect(statValue(user, 'trend-total-calls')).toHaveText('4');

    // A user ranks apps first, and never users.
    await expect(user.getByTestId('top-type-app')).toHaveClass(/arco-radio-checked/);
    await expect(user.getByTestId('top-type-user')).toHaveCount(0);
    await expect(user.getByTestId('top-name-1')).toHaveText(`${appName}ID ${w.appId}`);
    await expect(user.getByTestId('top-spend-1')).toHaveText(formatUsd(spend));
    await expect(user.getByTestId('top-name-2')).toHaveCount(0);
    await user.getByTestId('top-type-model').click();
    await expect(user.getByTestId('top-name-1')).toHaveText(w.model);
    await user.getByTestId('top-type-app_key').click();
    await expect(user.getByTestId('top-name-1')).toHaveText(new RegExp(`^${w.key.slice(0, 6)}.*\\*`));
    await expect(user.getByTestId('top-spend-1')).toHaveText(formatUsd(spend));
    await user.getByTestId('top-days-30').click();
    await expect(user.getByTestId('top-spend-1')).toHaveText(formatUsd(spend));
    await user.getByTestId('top-type-app').click();

    await expect(user.getByTestId('share-chart')).toHaveAttribute('aria-label', `${w.model}: 4`);
    await expect(user.getByTestId('share-chart').locator('canvas')).toBeVisible();
  });

  await test.step('the expense card and the quota-warning settings', async () => {
    await expect(user.getByTestId('expense-used')).toHaveText(formatUsd(spend));
    await expect(user.getByTestId('expense-quota')).toHaveText(formatUsd(5_000_000 - spend));
    const before = await ok<Expense>('/dashboard/expense', {}, w.user.token, 'GET');
    await expect(user.getByTestId('expense-warning')).toHaveText(before.quota_warning ? /^已开启/ : '未开启');
    await user.getByTestId('warning-open').click();
    const toggle = user.getByTestId('warning-switch');
    if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.getByTestId('warning-threshold').fill('5');
    await user.getByTestId('warning-days').fill('3');
    await user.getByTestId('warning-submit').click();
    await seeToast(user, '预警设置已保存');
    await expect(user.getByTestId('expense-warning')).toHaveText('已开启 · 低于 $5 · 到期前 3 天');
    expect(await ok<Expense>('/dashboard/expense', {}, w.user.token, 'GET')).toMatchObject({ quota_warning: true, warning_threshold: 5, expire_warning_threshold: 3 });
  });

  await test.step('live rates follow a new call, and a hidden tab stops polling', async () => {
    await call(`A live one, ${tag}.`);
    await expect.poll(async () => Number(await statValue(user, 'live-rpm').textContent()), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => Number((await statValue(user, 'live-tpm').textContent())?.replace(/,/g, '')), { timeout: 15_000 }).toBeGreaterThan(0);

    let polls = 0;
    user.on('request', (r) => {
      if (r.url().endsWith('/api/v1/dashboard/per/second')) polls += 1;
    });
    await expect.poll(() => polls, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    const setVisibility = (state: 'hidden' | 'visible') =>
      user.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
        document.dispatchEvent(new Event('visibilitychange'));
      }, state);
    await setVisibility('hidden');
    // Let a request already in flight land, then watch a few intervals go by.
    await user.waitForTimeout(500);
    polls = 0;
    await user.waitForTimeout(3500);
    expect(polls).toBe(0);
    await setVisibility('visible');
    await expect.poll(() => polls, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
  });

  await test.step('charts follow the window size', async () => {
    const width = async () => (await user.getByTestId('trend-chart').locator('canvas').boundingBox())?.width ?? 0;
    const before = await width();
    // Still two columns at 1300 px (they stack below 1280): the left one, and its chart, get narrower.
    await user.setViewportSize({ width: 1300, height: 900 });
    await expect.poll(width).toBeLessThan(before);
    await user.setViewportSize({ width: 1440, height: 900 });
    await expect.poll(width).toBe(before);
    await chartsSettled(user);
    await shot(user, 'dashboard-workplace-user');
  });

  await test.step('dark mode and en-US', async () => {
    await user.getByTestId('theme-toggle').click();
    await expect(user.locator('body')).toHaveAttribute('arco-theme', 'dark');
    await expect(user.getByTestId('trend-chart').locator('canvas')).toBeVisible();
    await chartsSettled(user);
    await shot(user, 'dashboard-workplace-dark');
    await user.getByTestId('theme-toggle').click();
    await expect(user.locator('body')).not.toHaveAttribute('arco-theme', /./);

    await user.evaluate(() => localStorage.setItem('arco-lang', 'en-US'));
    await user.reload();
    await expect(user.getByTestId('workplace-trend')).toContainText('Call trend');
    await expect(user.getByTestId('workplace-top')).toContainText('Top 10');
    await expect(user.getByTestId('base-call')).toContainText('Calls');
    await expect(user.getByTestId('expense-warning')).toHaveText('On · below $5 · 3 days before expiry');
    await expect(user.getByTestId('trend-chart').locator('canvas')).toBeVisible();
    await chartsSettled(user);
    await shot(user, 'dashboard-workplace-en-US');
    await user.evaluate(() => localStorage.setItem('arco-lang', 'zh-CN'));
  });

  await test.step('today’s bill: the right spend, export by picked rows and by date range, the detail', async () => {
    await billCaughtUp();
    await user.goto('/finance/bill_list');
    await expect(rows(user)).toHaveCount(1);
    await expect(user.getByTestId(`bill-spend-${bill.id}`)).toHaveText(formatUsd(spend));
    await expect(rows(user)).toContainText(bill.stat_date);
    // A user's bills have no user-id column or filter.
    await expect(user.getByTestId('filter-user_id')).toHaveCount(0);

    // No range yet: the export waits for one, and says so.
    await expect(user.getByTestId('bill-export')).toBeDisabled();
    await user.getByTestId('bill-export-hint').hover();
    await expect(user.locator('.arco-tooltip-content').filter({ hasText: '请先选择账单日期范围再导出' })).toBeVisible();
    await shot(user, 'finance-bill-list');

    // Picked rows export without a range (ids win).
    await rows(user).first().locator('.arco-checkbox').click();
    let download = user.waitForEvent('download');
    await user.getByTestId('batch-export').click();
    let file = await download;
    expect(file.suggestedFilename()).toBe('账单明细.xlsx');
    let path = test.info().outputPath('bills-picked.xlsx');
    await file.saveAs(path);
    let cells = await cellsOf(path);
    expect(cells).toContain(w.model);
    expect(cells).toContain(String(quotaToUsd(spend)));

    await user.getByTestId('filter-stat_date').click();
    await user.locator('[class*=picker-shortcuts]').getByText('今天', { exact: true }).click();
    await user.getByTestId('search-submit').click();
    await expect(user).toHaveURL(/stat_date=/);
    await expect(user.getByTestId('bill-export')).toBeEnabled();
    download = user.waitForEvent('download');
    await user.getByTestId('bill-export').click();
    file = await download;
    expect(file.suggestedFilename()).toBe('账单明细.xlsx');
    path = test.info().outputPath('bills-range.xlsx');
    await file.saveAs(path);
    cells = await cellsOf(path);
    expect(cells).toEqual(expect.arrayContaining([bill.stat_date, w.model, String(calls), String(tokens), String(quotaToUsd(spend))]));
    await seeToast(user, '已导出');

    await user.getByTestId(`row-detail-${bill.id}`).click();
    await expect(user).toHaveURL(new RegExp(`/finance/bill_detail\\?id=${bill.id}$`));
    await expect(user.getByTestId('bill-detail-date')).toHaveText(bill.stat_date);
    await expect(user.getByTestId('bill-detail-calls')).toHaveText(String(calls));
    await expect(user.getByTestId('bill-detail-spend')).toHaveText(formatUsd(spend));
    await expect(user.getByTestId('bill-detail-tokens')).toHaveText(tokens.toLocaleString('en-US'));
    await expect(user.getByTestId(`bill-model-${w.model}`)).toBeVisible();
    await expect(user.getByTestId('bill-model-table').locator('.arco-table-tr').filter({ hasText: w.model })).toContainText(formatUsd(spend));
    await shot(user, 'finance-bill-detail');
    // Back returns to the filtered list.
    await user.getByTestId('bill-detail-back').click();
    await expect(user).toHaveURL(/\/finance\/bill_list\?.*stat_date=/);
  });

  await test.step('an admin sees the admin cards and the deal record of a recharge', async () => {
    const remark = `dashboard recharge ${tag}`;
    await ok('/admin/user/recharge', { user_id: w.user.userId, quota: 1_000_000, remark }, w.admin);

    const admin = await newPage(browser);
    await loginAsAdmin(admin);
    await expect(admin).toHaveURL(/\/dashboard\/workplace$/);
    for (const card of ['base-model_key', 'base-user', 'base-today_user', 'base-call', 'base-group']) await expect(admin.getByTestId(card)).toBeVisible();
    await expect(admin.getByTestId('base-user-value')).not.toHaveText('0');
    // Admins have no expense card; they rank users first, and never app keys.
    await expect(admin.getByTestId('workplace-expense')).toHaveCount(0);
    await expect(admin.getByTestId('top-type-user')).toHaveClass(/arco-radio-checked/);
    await expect(admin.getByTestId('top-type-app_key')).toHaveCount(0);
    await expect(admin.getByTestId('top-table')).toContainText(String(w.user.userId));
    await chartsSettled(admin);
    await shot(admin, 'dashboard-workplace-admin');

    await admin.goto(`/finance/deal_record?user_id=${w.user.userId}`);
    // The picker shows the chosen account's name (resolved by id), not a bare number.
    await expect(admin.getByTestId('filter-user_id')).toContainText('Caller-');
    const recharge = rows(admin).filter({ hasText: remark });
    await expect(recharge).toHaveCount(1);
    await expect(recharge).toContainText('充值');
    await expect(recharge).toContainText('+$2');
    await expect(recharge).toContainText(String(w.user.userId));
    await shot(admin, 'finance-deal-records-admin');
    await admin.context().close();
  });

  await test.step('the user sees the same recharge among its own deal records, without a user column', async () => {
    await user.goto('/finance/deal_record');
    await expect(rows(user).filter({ hasText: `dashboard recharge ${tag}` })).toContainText('+$2');
    await expect(user.getByTestId('filter-user_id')).toHaveCount(0);
    await expect(user.locator('.arco-table-th').filter({ hasText: '用户 ID' })).toHaveCount(0);
    await shot(user, 'finance-deal-records-user');
    await user.context().close();
  });
});
