// Call logs (issue 6 "done when"): an admin sets up a priced model behind the mock provider; a user calls
// the gateway with the official openai SDK (a plain call, a stream, and one that fails on both upstream
// keys); the user finds the rows in 聊天日志 with the right spend, filters them, opens the detail (request
// messages as text, spend formula, every attempt of the trace) and copies the app key; the live RPM/TPM
// badge follows a new call. An admin sees the admin-only columns, exports (the chat export needs a
// result), deletes selected rows and deletes by time range.
import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import OpenAI from 'openai';
import { formatUsd } from '../../packages/core/src/money';
import { BASE_URL } from '../env';
import { seeToast, useSession } from '../helpers';
import { choose, closeDrawer, fill, pickRemote, rows, rowWith, search, settledShot, showColumns } from '../list-ui';
import { createWorld, ok, traceOf, type World } from '../world';

// The browser runs in another zone than the server (Asia/Shanghai): the console's "today" must be the server's.
const VIEWPORT = { width: 1440, height: 900 };
test.use({ timezoneId: 'America/Los_Angeles', viewport: VIEWPORT, actionTimeout: 15_000 });

/** The charge of the test model: ratios 1 and 2, one ceil, then the group discount (billing/price.ts). */
const chargeOf = (u: { prompt_tokens: number; completion_tokens: number }, discountPct: number) => Math.ceil(((u.prompt_tokens + 2 * u.completion_tokens) * discountPct * 100) / 10_000);

async function actor(browser: Browser, token: string, role: 'user' | 'admin', path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN', timezoneId: 'America/Los_Angeles', viewport: VIEWPORT });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  const page = await context.newPage();
  await useSession(page, token, role, path);
  await expect(page.getByTestId('resource-table')).toBeVisible();
  return page;
}

async function chat(w: World, content: string) {
  return w.openai.chat.completions.create({ model: w.model, messages: [{ role: 'user', content }] }).withResponse();
}

test('call logs: spend, filters, detail and copy for the user; admin columns, export and deletion', async ({ browser }) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const w = await createWorld({ tag, quotas: { text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } } });

  // Keep the request messages too (the default keeps prompt and completion only).
  const kept = (await ok<{ log: { chat_records: string[] } }>('/sys/config/detail', {}, w.admin, 'GET')).log.chat_records;
  await ok('/sys/config/update', { action: 'log', log: { chat_records: ['prompt', 'completion', 'messages'] } }, w.admin);
  // The gateway's config snapshot follows the change a moment later (gateway/snapshot.ts coalesces changes).
  await new Promise((resolve) => setTimeout(resolve, 1000));

  // Gateway calls with the official SDK: a plain call (system + user, HTML-looking text), a stream and
  // one that every upstream key answers with 500 (retries, then a failure: several attempts of one trace).
  const first = await w.openai.chat.completions
    .create({
      model: w.model,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: `Hello <b>log</b> ${tag} [[mock:reply=Hi from the mock, ${tag}.]]` },
      ],
    })
    .withResponse();
  expect(first.data.choices[0]?.message.content).toBe(`Hi from the mock, ${tag}.`);
  const plain = { trace: traceOf(first.response.headers), usage: first.data.usage! };
  const streamed = await w.openai.chat.completions
    .create({ model: w.model, messages: [{ role: 'user', content: `Stream a somewhat longer answer for ${tag}, please.` }], stream: true, stream_options: { include_usage: true } })
    .withResponse();
  let streamUsage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of streamed.data) if (chunk.usage) streamUsage = chunk.usage;
  expect(streamUsage).toBeTruthy();
  const stream = { trace: traceOf(streamed.response.headers), usage: streamUsage! };
  const failedError = await chat(w, `[[mock:status=500]] this one fails ${tag}`).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failedError).toBeInstanceOf(OpenAI.APIError);
  const failedTrace = traceOf((failedError as InstanceType<typeof OpenAI.APIError>).headers);

  const plainUsd = formatUsd(chargeOf(plain.usage, w.discount));
  const streamUsd = formatUsd(chargeOf(stream.usage, w.discount));
  expect(plainUsd).not.toBe('$0');

  const user = await actor(browser, w.user.token, 'user', '/log/chat');
  await showColumns(user, 'stream');
  let attempts = 0;
  await test.step('the user sees four rows of today with the right spend and no admin columns', async () => {
    // The failing call: the gateway's retry budget decides how many attempts, all retries but the last.
    await expect(rowWith(user, failedTrace).first()).toBeVisible();
    attempts = await rowWith(user, failedTrace).count();
    expect(attempts).toBeGreaterThanOrEqual(2);
    await expect(rows(user)).toHaveCount(2 + attempts);
    // Today is the default request-time range, and the search form shows it.
    await expect(user.getByTestId('filter-req_time').locator('input').first()).toHaveValue(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    await expect(rowWith(user, plain.trace)).toContainText(plainUsd);
    await expect(rowWith(user, plain.trace)).toContainText('成功');
    await expect(rowWith(user, stream.trace)).toContainText(streamUsd);
    await expect(rowWith(user, stream.trace)).toContainText('是');
    await expect(rowWith(user, failedTrace).filter({ hasText: '重试' })).toHaveCount(attempts - 1);
    await expect(rowWith(user, failedTrace).filter({ hasText: '失败' })).toContainText('$0');
    const headers = user.locator('.arco-table-th');
    await expect(headers.filter({ hasText: '花费' })).toHaveCount(1);
    await expect(headers.filter({ hasText: '模型代理' })).toHaveCount(0);
    await expect(headers.filter({ hasText: '用户ID' })).toHaveCount(0);
    await expect(user.getByTestId('filter-model_agents')).toHaveCount(0);
    await settledShot(user, 'logs-user-list');
  });

  await test.step('filters: result, trace id, models', async () => {
    await choose(user, 'filter-status', '失败');
    await search(user);
    await expect(rows(user)).toHaveCount(1);
    await expect(rows(user)).toContainText(failedTrace);
    await choose(user, 'filter-status', '非成功');
    await search(user);
    await expect(rows(user)).toHaveCount(attempts);
    await choose(user, 'filter-status', '成功');
    await search(user);
    await expect(rows(user)).toHaveCount(2);
    await expect(rowWith(user, failedTrace)).toHaveCount(0);

    await user.getByTestId('search-reset').click();
    await expect(rows(user)).toHaveCount(2 + attempts);
    await fill(user, 'filter-trace_id', failedTrace);
    await search(user);
    await expect(rows(user)).toHaveCount(attempts);
    await fill(user, 'filter-trace_id', '');
    await fill(user, 'filter-total_time', '86400000');
    await search(user);
    await expect(rows(user)).toHaveCount(0);

    await user.getByTestId('search-reset').click();
    await user.getByTestId('filter-models').click();
    await user.keyboard.type(w.model);
    await user.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: w.model }).first().click();
    await user.keyboard.press('Escape');
    await search(user);
    await expect(rows(user)).toHaveCount(2 + attempts);
    await user.getByTestId('search-reset').click();
  });

  await test.step('the detail: messages as text, completion, spend formula, one attempt; copy the app key', async () => {
    await rowWith(user, plain.trace).locator('[data-testid^=row-detail-]').click();
    const drawer = user.getByTestId('log-detail');
    await expect(drawer).toBeVisible();
    await expect(user.getByTestId('log-detail-trace')).toHaveText(plain.trace);
    await expect(user.getByTestId('log-detail-message-0')).toHaveText('You are terse.');
    // Client text is shown as text: the tags are visible characters, not markup.
    await expect(user.getByTestId('log-detail-message-1')).toContainText(`Hello <b>log</b> ${tag}`);
    await expect(user.getByTestId('log-detail-completion')).toHaveText(`Hi from the mock, ${tag}.`);
    // The line items' sum (prompt × 1 + completion × 2), rounded up, then the discount, rounded up.
    const items = plain.usage.prompt_tokens * 1 + plain.usage.completion_tokens * 2;
    await expect(user.getByTestId('log-detail-formula')).toContainText(`合计 ${items} 额度，向上取整为 ${items}，× 折扣 ${w.discount / 100} 并向上取整 = ${chargeOf(plain.usage, w.discount)} 额度`);
    await expect(user.getByTestId('log-detail-charged')).toHaveText(plainUsd);
    await expect(user.getByTestId('log-detail-attempts').locator('tbody .arco-table-tr')).toHaveCount(1);
    // Users get no provider key and no routing fields.
    await expect(user.getByTestId('log-detail-key')).toHaveCount(0);
    await user.evaluate(() => navigator.clipboard.writeText(''));
    await user.getByTestId('log-detail-creator').locator('button').click();
    await expect.poll(() => user.evaluate(() => navigator.clipboard.readText())).toBe(w.key);
    await settledShot(user, 'logs-user-detail');
    await closeDrawer(user);

    await rowWith(user, failedTrace).filter({ hasText: '失败' }).locator('[data-testid^=row-detail-]').click();
    const tried = user.getByTestId('log-detail-attempts').locator('tbody .arco-table-tr');
    await expect(tried).toHaveCount(attempts);
    for (let i = 0; i < attempts - 1; i++) await expect(tried.nth(i)).toContainText('重试');
    await expect(tried.last()).toContainText('失败');
    await expect(tried.last()).toContainText('当前');
    await tried.last().scrollIntoViewIfNeeded();
    await settledShot(user, 'logs-user-detail-retry');
    await closeDrawer(user);
  });

  await test.step('the live RPM/TPM badge counts a new call of the filter', async () => {
    await expect(user.getByTestId('log-live-rate')).toBeVisible();
    const rpm = async () => Number(await user.getByTestId('log-live-rpm').textContent());
    const tpm = async () => Number(await user.getByTestId('log-live-tpm').textContent());
    // The three requests of this test (retried attempts are not requests of their own).
    await expect.poll(rpm).toBe(3);
    const tokensBefore = await tpm();
    expect(tokensBefore).toBe(plain.usage.total_tokens + stream.usage.total_tokens);
    const more = await chat(w, `one more for the rates ${tag}`);
    // The badge polls every 3 s with the page's filter.
    await expect.poll(rpm, { timeout: 10_000 }).toBe(4);
    await expect.poll(tpm).toBe(tokensBefore + more.data.usage!.total_tokens);
    await user.getByTestId('resource-refresh').click();
    await expect(rows(user)).toHaveCount(3 + attempts);
  });
  await user.context().close();

  const admin = await actor(browser, w.admin, 'admin', `/log/chat?user_id=${w.user.userId}`);
  await test.step('the admin sees the admin-only columns and fields', async () => {
    await expect(rows(admin)).toHaveCount(3 + attempts);
    await showColumns(admin, 'model_agent_name');
    const headers = admin.locator('.arco-table-th');
    await expect(headers.filter({ hasText: '模型代理' })).toHaveCount(1);
    await expect(headers.filter({ hasText: '用户ID' })).toHaveCount(1);
    await expect(rowWith(admin, plain.trace)).toContainText(w.agentName);
    await expect(admin.getByTestId('filter-model_agents')).toBeVisible();
    await rowWith(admin, plain.trace).locator('[data-testid^=row-detail-]').click();
    await expect(admin.getByTestId('log-detail-key')).toContainText('sk-e2e');
    await closeDrawer(admin);
    await settledShot(admin, 'logs-admin-list');
  });

  await test.step('the chat export waits for a result, then downloads 聊天日志.xlsx with the matching rows', async () => {
    await expect(admin.getByTestId('log-export')).toBeDisabled();
    await admin.getByTestId('log-export-hint').hover();
    await expect(admin.locator('.arco-tooltip-content').filter({ hasText: '请先选择请求时间范围和结果再导出' })).toBeVisible();
    await choose(admin, 'filter-status', '成功');
    await search(admin);
    await expect(rows(admin)).toHaveCount(3);
    await expect(admin.getByTestId('log-export')).toBeEnabled();
    const download = admin.waitForEvent('download');
    await admin.getByTestId('log-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('聊天日志.xlsx');
    const path = test.info().outputPath('chat-logs.xlsx');
    await file.saveAs(path);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await readFile(path)) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const cells: string[] = [];
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value))));
    expect(sheet.actualRowCount).toBe(4);
    expect(cells).toContain(plain.trace);
    expect(cells).toContain(stream.trace);
    expect(cells).not.toContain(failedTrace);
  });

  await test.step('the admin deletes the selected failed rows', async () => {
    await choose(admin, 'filter-status', '非成功');
    await search(admin);
    await expect(rows(admin)).toHaveCount(attempts);
    await admin.getByTestId('resource-table-grid').locator('.arco-table-th .arco-checkbox').click();
    await admin.getByTestId('batch-delete').click();
    await admin.locator('.arco-modal').getByRole('button', { name: '确定' }).click();
    await seeToast(admin, '操作成功');
    await expect(rows(admin)).toHaveCount(0);
  });

  await test.step('the admin deletes the user’s successful rows of today by time range', async () => {
    await admin.getByTestId('search-reset').click();
    await pickRemote(admin, 'filter-user_id', w.user.account, new RegExp(`ID ${w.user.userId}$`));
    await search(admin);
    await expect(rows(admin)).toHaveCount(3);
    await admin.getByTestId('log-delete-by-time').click();
    const modal = admin.getByTestId('delete-by-time');
    await modal.getByTestId('delete-by-time-range').click();
    // The shortcut fills both ends (00:00:00 to 23:59:59 today) and closes the picker.
    await admin.getByRole('button', { name: '今天', exact: true }).click();
    await expect(modal.getByTestId('delete-by-time-range').locator('input').first()).toHaveValue(/00:00:00$/);
    await expect(modal.getByTestId('delete-by-time-range').locator('input').last()).toHaveValue(/23:59:59$/);
    await pickRemote(admin, 'delete-by-time-user', String(w.user.userId), new RegExp(`ID ${w.user.userId}$`));
    await modal.getByText('成功', { exact: true }).click();
    await expect(modal.getByRole('checkbox', { name: '成功' })).toBeChecked();
    await settledShot(admin, 'logs-admin-delete-by-time');
    await admin.getByTestId('delete-by-time-submit').click();
    await seeToast(admin, '已开始删除');
    await expect(async () => {
      await admin.getByTestId('resource-refresh').click();
      await expect(rows(admin)).toHaveCount(0, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
  });

  await ok('/sys/config/update', { action: 'log', log: { chat_records: kept } }, w.admin);
  await admin.context().close();
});
