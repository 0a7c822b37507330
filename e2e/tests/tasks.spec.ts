// Async tasks (issue 6 "done when"): a user submits digital-human video tasks and a voice-clone audio
// task through the gateway with the official openai SDK; in 视频任务 the tasks move to 已完成 (charged
// for the seconds the provider reported, at the group discount) and 失败 (charged nothing) without a
// reload; filters, the detail with its players, and the user's balance show the settlement and the refund.
import { expect, test } from '@playwright/test';
import type { GatewayTask } from '../../packages/core/src/entities/task';
import { formatUsd } from '../../packages/core/src/money';
import { BASE_URL, E2E_MOCK_URL } from '../env';
import { useSession } from '../helpers';
import { choose, closeDrawer, fill, rows, rowWith, search, settledShot, showColumns } from '../list-ui';
import { createWorld, ok } from '../world';

// The browser runs in another zone than the server (see logs.spec.ts); the console's usual width.
const VIEWPORT = { width: 1440, height: 900 };
test.use({ timezoneId: 'America/Los_Angeles', viewport: VIEWPORT, actionTimeout: 15_000 });


/** Unit prices: the digital human per second (sold through the world's 80 % group), the voice clone per call. */
const PER_SECOND = 1000;
const PER_CLONE = 25_000;

test('tasks: video tasks complete and fail in the list, with settlement and refund; audio task with its player', async ({ page }) => {
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const w = await createWorld({ tag, type: 1000, quotas: { digital_human_quota: { fixed_quota: PER_SECOND, unit: 'second' } } });
  // A voice-clone model of the same corp, public, without a group (full price).
  const cloneModel = `e2e-clone-${tag}`;
  const cloneId = (await ok<{ id: string }>('/model/create', { corp: w.corp, name: cloneModel, model: cloneModel, type: 1001, is_public: true, is_enable_model_agent: true, audio_clone_quota: { fixed_quota: PER_CLONE, unit: 'call' } }, w.admin)).id;
  await ok('/model/agent/create', { corp: w.corp, name: `Clone agent ${tag}`, base_url: `${E2E_MOCK_URL}/v1`, models: [cloneId], key: `sk-e2e-${tag}-clone`, lb_strategy: 1 }, w.admin);
  await expect(async () => expect((await w.openai.models.list()).data.map((m) => m.id)).toContain(cloneModel)).toPass({ timeout: 10_000 });

  const balance = async () => (await ok<{ quota: number }>('/dashboard/expense', {}, w.user.token, 'GET')).quota;
  const opening = await balance();

  // Submissions through the SDK's generic verbs: a fast-line video the provider reports as 12 s long
  // (10 s requested, so 10 s are reserved), a slow-line one that fails, and a voice clone.
  const done = await w.openai.post<GatewayTask>('/tasks/video', { body: { model: w.model, text: `Hello from the digital human ${tag} [[mock:duration=12]]`, people_id: `anchor-${tag}`, line_type: 1, duration: 10 } });
  const failed = await w.openai.post<GatewayTask>('/tasks/video', { body: { model: w.model, text: `This one fails ${tag} [[mock:task=fail]] [[mock:error=render farm on fire]]`, people_id: `anchor-${tag}`, line_type: 0, duration: 10 } });
  const clone = await w.openai.post<GatewayTask>('/tasks/audio', { body: { model: cloneModel, text: `Clone my voice ${tag}` } });
  for (const t of [done, failed]) expect(t).toMatchObject({ object: 'task', kind: 'video', status: 'queued', people_id: `anchor-${tag}` });
  expect(clone).toMatchObject({ object: 'task', kind: 'audio', status: 'queued' });
  const reservedUsd = formatUsd(Math.ceil((10 * PER_SECOND * w.discount) / 100));
  const chargedUsd = formatUsd(Math.ceil((12 * PER_SECOND * w.discount) / 100));

  let doneTrace = '';
  await useSession(page, w.user.token, 'user', '/task/video');
  await test.step('the user sees both video tasks move on by themselves: one completed, one failed', async () => {
    await expect(rows(page)).toHaveCount(2);
    await showColumns(page, 'people_id', 'line_type', 'video_time', 'reserved', 'video_pic', 'err_msg');
    await expect(rowWith(page, done.id)).toContainText(`anchor-${tag}`);
    await expect(rowWith(page, done.id)).toContainText('快速');
    await expect(rowWith(page, failed.id)).toContainText('慢速');
    await expect(rowWith(page, done.id)).toContainText(reservedUsd);
    // The job polls the provider every 5 s; the list refreshes itself while tasks are pending.
    await expect(rowWith(page, done.id).getByTestId('task-status')).toHaveText('已完成', { timeout: 45_000 });
    await expect(rowWith(page, failed.id).getByTestId('task-status')).toHaveText('失败', { timeout: 30_000 });
    await expect(page.getByTestId('task-auto-refresh')).toHaveCount(0);
    const row = rowWith(page, done.id);
    await expect(row).toContainText('12 秒');
    await expect(row.locator('[data-testid^=task-charged-]')).toHaveText(chargedUsd);
    const video = row.locator('[data-testid^=task-video-]');
    await expect(video).toHaveAttribute('href', new RegExp(`^${E2E_MOCK_URL}/files/.+\\.mp4$`));
    await expect(video).toHaveAttribute('target', '_blank');
    await expect(row.locator('img')).toHaveAttribute('src', new RegExp(`^${E2E_MOCK_URL}/files/.+\\.jpg$`));
    await expect(rowWith(page, failed.id).locator('[data-testid^=task-charged-]')).toHaveText('$0');
    await expect(rowWith(page, failed.id)).toContainText('render farm on fire');
    await settledShot(page, 'tasks-user-video-list');
  });

  await test.step('the balance: the completed task is settled at 12 s, the failed one refunded', async () => {
    // The voice clone is charged per call: its estimate is already its price.
    await expect.poll(balance).toBe(opening - Math.ceil((12 * PER_SECOND * w.discount) / 100) - PER_CLONE);
  });

  await test.step('filters: status, line type, task id', async () => {
    await choose(page, 'filter-status', '已完成');
    await search(page);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page)).toContainText(done.id);
    await page.getByTestId('search-reset').click();
    await choose(page, 'filter-line_type', '慢速');
    await search(page);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page)).toContainText(failed.id);
    await page.getByTestId('search-reset').click();
    await fill(page, 'filter-task_id', done.id);
    await search(page);
    await expect(rows(page)).toHaveCount(1);
    await page.getByTestId('search-reset').click();
    await expect(rows(page)).toHaveCount(2);
  });

  await test.step('the detail: every field, the money and the video player with its cover', async () => {
    await rowWith(page, done.id).locator('[data-testid^=row-detail-]').click();
    await expect(page.getByTestId('task-detail-task-id')).toHaveText(done.id);
    await expect(page.getByTestId('task-detail')).toContainText('已完成');
    await expect(page.getByTestId('task-detail-charged')).toHaveText(chargedUsd);
    const player = page.getByTestId('task-detail-video');
    await expect(player).toHaveAttribute('src', /\.mp4$/);
    await expect(player).toHaveAttribute('poster', /\.jpg$/);
    doneTrace = (await page.getByTestId('task-detail-trace').textContent()) ?? '';
    await settledShot(page, 'tasks-user-video-detail');
    await closeDrawer(page);
  });

  await test.step('the completed task’s call log in 数字人日志 carries the final charge', async () => {
    await page.goto('/log/virtualman');
    const row = rowWith(page, doneTrace);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('成功');
    await expect(row).toContainText(chargedUsd);
    // Only the chat log's export needs a result chosen; this one may export today's rows as they are.
    await expect(page.getByTestId('log-export')).toBeEnabled();
    await expect(page.getByTestId('log-live-rate')).toHaveCount(0);
    await settledShot(page, 'tasks-user-virtualman-log');
    // Priced per second, not by tokens: the detail shows the charge without a token formula.
    await row.locator('[data-testid^=row-detail-]').click();
    await expect(page.getByTestId('log-detail-charged')).toHaveText(chargedUsd);
    await expect(page.getByTestId('log-detail-formula')).toHaveCount(0);
    await closeDrawer(page);
  });

  await test.step('the audio task completes in 音频任务 with an <audio> player at full price', async () => {
    await page.goto('/task/audio');
    await expect(rows(page)).toHaveCount(1);
    const row = rowWith(page, clone.id);
    await expect(row.getByTestId('task-status')).toHaveText('已完成', { timeout: 45_000 });
    await expect(row.locator('[data-testid^=task-charged-]')).toHaveText(formatUsd(PER_CLONE));
    await row.locator('[data-testid^=row-detail-]').click();
    await expect(page.getByTestId('task-detail-audio')).toHaveAttribute('src', new RegExp(`^${E2E_MOCK_URL}/files/.+\\.mp3$`));
    await settledShot(page, 'tasks-user-audio-detail');
    await closeDrawer(page);
  });

  await test.step('an admin sees the tasks with their owner', async () => {
    const context = await page.context().browser()!.newContext({ baseURL: BASE_URL, locale: 'zh-CN', timezoneId: 'America/Los_Angeles', viewport: VIEWPORT });
    const admin = await context.newPage();
    await useSession(admin, w.admin, 'admin', `/task/video?user_id=${w.user.userId}`);
    await expect(rows(admin)).toHaveCount(2);
    await expect(admin.locator('.arco-table-th').filter({ hasText: '用户ID' })).toHaveCount(1);
    await expect(rowWith(admin, done.id)).toContainText(String(w.user.userId));
    await settledShot(admin, 'tasks-admin-video-list');
    await context.close();
  });
});
