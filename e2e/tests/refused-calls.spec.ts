// Issue 15 part 6, failures you can see: calls the gateway refuses after recognising the key (here: a model
// that does not exist) appear in the caller's chat log as failed, with the reason the client got, and count
// in the dashboard's error figure (异常数). Checked at 1280×720 and 390×844 in zh-CN and en-US (viewports.ts).
import { expect, test, type Page } from '@playwright/test';
import OpenAI from 'openai';
import { shot } from '../helpers';
import { rowWith } from '../list-ui';
import { COMBOS, comboPage, pick, slug, type Combo } from '../viewports';
import { createWorld, ok, type World } from '../world';

const REFUSED = 3;

let w: World;
let model: string;
let reason: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const tag = `ref${Date.now().toString(36)}`;
  w = await createWorld({ tag, quotas: { text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } } });
  model = `no-such-model-${tag}`;
  for (let i = 0; i < REFUSED; i++) {
    const error = await w.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    reason = (error as InstanceType<typeof OpenAI.APIError>).message;
  }
  // The statistics job (every 10 s) counts them into today's bill as abnormal.
  await expect
    .poll(async () => (await ok<{ items: { abnormal: number }[] }>('/finance/bill/page', { current: 1, pageSize: 20 }, w.user.token)).items[0]?.abnormal ?? 0, { timeout: 60_000, intervals: [1000, 2000] })
    .toBe(REFUSED);
});

for (const combo of COMBOS) {
  test(`refused calls at ${combo.name}`, async ({ browser }) => {
    const page = await comboPage(browser, combo, w.user.token, 'user', '/log/chat');
    await chatLog(page, combo);
    await dashboard(page, combo);
    await page.context().close();
  });
}

async function chatLog(page: Page, combo: Combo) {
  await test.step('the chat log lists each refused call as failed, with its reason', async () => {
    const refused = rowWith(page, model);
    await expect(refused).toHaveCount(REFUSED);
    await expect(refused.first().getByTestId('log-status')).toHaveText(pick(combo, { 'zh-CN': '失败', 'en-US': 'Failed' }));
    await expect(refused.first().getByTestId(/^log-spend-/)).toHaveText('$0');
    await shot(page, `refused-log-${slug(combo)}`, { fullPage: false });
    await refused.first().getByTestId(/^row-detail-/).click();
    const drawer = page.getByTestId('log-detail-drawer');
    await expect(drawer.getByTestId('log-detail-model')).toHaveText(model);
    // The reason the client was given (the SDK puts the HTTP status before it; the log, the error code).
    await expect(drawer.getByTestId('log-detail-error')).toContainText(reason.replace(/^\d{3} /, ''));
    await shot(page, `refused-log-detail-${slug(combo)}`, { fullPage: false });
  });
}

async function dashboard(page: Page, combo: Combo) {
  await test.step('the dashboard counts them as abnormal', async () => {
    await page.goto('/dashboard/workplace');
    const abnormal = page.getByTestId('trend-total-abnormal');
    await expect(abnormal.locator('.arco-statistic-value')).toHaveText(String(REFUSED));
    await expect(abnormal).toContainText(pick(combo, { 'zh-CN': '异常数', 'en-US': 'Abnormal' }));
    await abnormal.scrollIntoViewIfNeeded();
    await shot(page, `refused-dashboard-${slug(combo)}`, { fullPage: false });
  });
}
