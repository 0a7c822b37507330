// Models (docs/SPEC.md §2.2, admin) and "my model" (reseller, user): the admin creates a model with prices entered in
// $ / 1M tokens and stored as ratios (ratio = price × 0.5; 500000 units = $1), edits, filters, opens the detail,
// switches agents by batch and toggles its status; a user then sees the public model with its $ prices.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../env';
import { createUser, loginAsAdmin, openFromMenu, seeToast, shot, useSession } from '../helpers';
import { showColumns } from '../list-ui';

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** Admin console calls from the test: bearer token plus the XSRF double-submit pair the console sends. */
async function adminApi(request: APIRequestContext) {
  const login = (await (await request.post('/api/v1/auth/login', { data: { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin' } })).json()) as Envelope<{ token: string }>;
  expect(login.code, login.message).toBe(0);
  const headers = { authorization: `Bearer ${login.data.token}`, cookie: 'XSRF-TOKEN=e2e-model', 'x-xsrf-token': 'e2e-model' };
  const check = async <T,>(res: Promise<{ json(): Promise<unknown> }>) => {
    const body = (await (await res).json()) as Envelope<T>;
    expect(body.code, body.message).toBe(0);
    return body.data;
  };
  return {
    post: <T,>(path: string, data: object) => check<T>(request.post(`/api/v1${path}`, { data, headers })),
    get: <T,>(path: string, params: Record<string, string>) => check<T>(request.get(`/api/v1${path}`, { params, headers })),
  };
}

interface ModelDetail {
  id: string;
  name: string;
  status: number;
  is_public: boolean;
  is_enable_model_agent: boolean;
  text_quota: { billing_method: number; prompt_ratio: number; completion_ratio: number };
}

const row = (page: Page, name: string) => page.locator('.arco-table-tr').filter({ has: page.getByText(name, { exact: true }) });

/** A form field's validation message. */
const fieldError = (page: Page, message: string) => page.getByRole('alert').filter({ hasText: new RegExp(`^${message}$`) });

/** Picks an option of an Arco select by typing part of its text. */
async function pick(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(text);
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: text }).first().click();
}

test('admin creates a model priced in $ / 1M tokens, edits, filters and toggles it; a user sees it under 我的模型', async ({ page, request }) => {
  const api = await adminApi(request);
  const stamp = Date.now().toString(36);
  const corpName = `E2E OpenAI ${stamp}`;
  const name = `E2E GPT ${stamp}`;
  await api.post('/corp/create', { name: corpName, code: 'OpenAI', is_public: true });

  await loginAsAdmin(page);
  await openFromMenu(page, 'model.list');
  await expect(page).toHaveURL(/\/model\/list$/);
  await page.getByTestId('resource-create').click();
  await expect(page).toHaveURL(/\/model\/create$/);

  // Required fields are named in Chinese before anything is sent.
  await page.getByTestId('form-submit').click();
  for (const message of ['请选择公司', '请输入模型名称', '请输入模型', '请输入价格']) await expect(fieldError(page, message).first()).toBeVisible();

  await pick(page, 'model-corp', corpName);
  await page.getByTestId('model-name').fill(name);
  await page.getByTestId('model-model').fill(`gpt-e2e-${stamp}`);
  // Text to text is the default type: the ratio price block is shown; prices are $ per 1M tokens.
  await page.getByTestId('text_quota-prompt_price').fill('2');
  await page.getByTestId('text_quota-completion_price').fill('6');
  await expect(page.getByTestId('text_quota-prompt_price-ratio')).toHaveText('倍率 1');
  await expect(page.getByTestId('text_quota-completion_price-ratio')).toHaveText('倍率 3');
  await page.getByTestId('model-public').click();
  // Token limits: an output limit above the context window is refused in the form.
  await page.getByTestId('model-context_window').fill('1000');
  await page.getByTestId('model-max_output_tokens').fill('16384');
  await page.getByTestId('form-submit').click();
  await expect(fieldError(page, '不能超过上下文窗口')).toBeVisible();
  await page.getByTestId('model-context_window').fill('128000');
  await page.getByTestId('model-remark').fill('e2e ratio pricing');
  await shot(page, 'model-create');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/model\/list$/);
  await showColumns(page, 'corp_name', 'type', 'is_enable_model_agent');
  await expect(row(page, name)).toContainText('$2 / 1M tokens');
  await expect(row(page, name)).toContainText('$6 / 1M tokens');
  await expect(row(page, name)).toContainText(corpName);
  await expect(row(page, name)).toContainText('文生文');

  // Stored as ratios (× 0.5).
  const found = await api.post<{ items: ModelDetail[] }>('/model/page', { current: 1, pageSize: 20, name });
  expect(found.items).toHaveLength(1);
  const id = found.items[0]!.id;
  let detail = await api.get<ModelDetail>('/model/detail', { id });
  expect(detail.text_quota).toMatchObject({ billing_method: 1, prompt_ratio: 1, completion_ratio: 3 });
  expect(detail.is_public).toBe(true);
  expect(detail).toMatchObject({ context_window: 128_000, max_output_tokens: 16_384 });

  // Filter by name (into the URL), then by type.
  await page.getByTestId('filter-name').fill(name);
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/name=/);
  await expect(page.locator('.arco-table-tr').filter({ has: page.locator('[data-testid^=row-edit-]') })).toHaveCount(1);
  await page.getByTestId('filter-type').click();
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: '文生图' }).click();
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/type=2/);
  await expect(row(page, name)).toHaveCount(0);
  await page.getByTestId('filter-type').click();
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: '文生文' }).click();
  await page.getByTestId('search-submit').click();
  await expect(page).toHaveURL(/type=1/);
  await expect(row(page, name)).toBeVisible();

  // Edit: the form shows the stored ratios as prices again; a new completion price is saved as its ratio.
  await page.getByTestId(`row-edit-${id}`).click();
  await expect(page).toHaveURL(/\/model\/update\?id=/);
  await expect(page.getByTestId('model-name')).toHaveValue(name);
  await expect(page.getByTestId('text_quota-prompt_price')).toHaveValue('2');
  await expect(page.getByTestId('text_quota-completion_price')).toHaveValue('6');
  await page.getByTestId('text_quota-completion_price').fill('8');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '更新成功');
  await expect(page).toHaveURL(/\/model\/list\?.*name=/);
  await expect(row(page, name)).toContainText('$8 / 1M tokens');
  detail = await api.get<ModelDetail>('/model/detail', { id });
  expect(detail.text_quota).toMatchObject({ prompt_ratio: 1, completion_ratio: 4 });

  // Detail drawer shows the prices readably.
  await page.getByTestId(`row-detail-${id}`).click();
  await expect(page.getByTestId('model-detail')).toContainText(name);
  await expect(page.getByTestId('detail-prices')).toContainText('$2');
  await expect(page.getByTestId('detail-prices')).toContainText('$8');
  await expect(page.getByTestId('model-detail')).toContainText('128,000 tokens');
  await expect(page.getByTestId('model-detail')).toContainText('16,384 tokens');
  await shot(page, 'model-detail');
  await page.locator('.arco-drawer .arco-drawer-close-icon').click();
  await expect(page.getByTestId('model-detail')).toBeHidden();

  // Batch: switch model agents on, then off again.
  await row(page, name).locator('.arco-checkbox').click();
  await page.getByTestId('batch-agent-on').click();
  await page.locator('.arco-modal').getByRole('button', { name: '确定' }).click();
  await seeToast(page, '操作成功');
  await expect.poll(async () => (await api.get<ModelDetail>('/model/detail', { id })).is_enable_model_agent).toBe(true);
  await expect(row(page, name)).toContainText('开启');
  await row(page, name).locator('.arco-checkbox').click();
  await page.getByTestId('batch-agent-off').click();
  await page.locator('.arco-modal').getByRole('button', { name: '确定' }).click();
  await expect.poll(async () => (await api.get<ModelDetail>('/model/detail', { id })).is_enable_model_agent).toBe(false);

  // Status switch: off, then on again.
  const status = page.getByTestId(`status-switch-${id}`);
  await expect(status).toHaveAttribute('aria-checked', 'true');
  await status.click();
  // Disabling asks first (issue 15 part 5).
  await page.locator('.arco-popconfirm:visible').getByTestId('status-confirm-ok').click();
  await expect(status).toHaveAttribute('aria-checked', 'false');
  await expect.poll(async () => (await api.get<ModelDetail>('/model/detail', { id })).status).toBe(2);
  await status.click();
  await expect(status).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => (await api.get<ModelDetail>('/model/detail', { id })).status).toBe(1);
  await shot(page, 'model-list');

  // A user sees the public model under 我的模型 with its dollar prices, at full price.
  const user = await createUser('mymodel');
  await useSession(page, user.token, 'user', '/my/model');
  await expect(page.getByTestId('menu-my.model')).toBeVisible();
  await expect(page.getByTestId('menu-model.list')).toHaveCount(0);
  await page.getByTestId('filter-name').fill(name);
  await page.getByTestId('search-submit').click();
  const mine = row(page, name);
  await expect(mine).toContainText(corpName);
  await expect(page.getByTestId(`prices-${id}`)).toContainText('$2');
  await expect(page.getByTestId(`prices-${id}`)).toContainText('$8');
  await expect(page.getByTestId(`prices-${id}`)).toContainText('/ 1M tokens');
  await expect(page.getByTestId(`discount-${id}`)).toHaveText('原价');
  await shot(page, 'my-model');
});

test('a multimodal model: vision and search price tables, keyword forwarding rows and a fallback model', async ({ page, request }) => {
  const api = await adminApi(request);
  const stamp = Date.now().toString(36);
  const corpName = `E2E MM ${stamp}`;
  await api.post('/corp/create', { name: corpName, code: 'OpenAI', is_public: false });
  const { items: corps } = await api.post<{ items: { id: string }[] }>('/corp/page', { current: 1, pageSize: 20, name: corpName });
  const corp = corps[0]!.id;
  const targets: Record<string, string> = {};
  for (const label of ['draw', 'code', 'judge']) {
    const name = `E2E ${label} ${stamp}`;
    await api.post('/model/create', { corp, name, model: `${label}-${stamp}`, type: 1, text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 1 } });
    targets[label] = (await api.post<{ items: { id: string }[] }>('/model/page', { current: 1, pageSize: 20, name })).items[0]!.id;
  }
  const name = `E2E Omni ${stamp}`;

  await loginAsAdmin(page);
  await page.goto('/model/create');
  await pick(page, 'model-corp', corpName);
  await page.getByTestId('model-name').fill(name);
  await page.getByTestId('model-model').fill(`omni-${stamp}`);
  await pick(page, 'model-type', '多模态');

  // Multimodal prices: text prices, a vision price per mode and (OpenAI corp) a search price per context size.
  await page.getByTestId('multimodal_quota-text_quota-prompt_price').fill('5');
  await page.getByTestId('multimodal_quota-text_quota-completion_price').fill('15');
  await page.getByTestId('vision-quotas-add').click();
  await page.getByTestId('vision-mode-0').click();
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: /^low$/ }).click();
  await page.getByTestId('vision-quota-0').fill('1000');
  await page.getByTestId('vision-quotas-add').click();
  await page.getByTestId('vision-quota-1').fill('3000');
  await page.getByTestId('vision-quotas-default-1').click();
  await page.getByTestId('vision-quotas-default-0').click();
  await expect(page.getByTestId('vision-quotas-default-1').locator('input')).not.toBeChecked();
  await page.getByTestId('search-quotas-add').click();
  await page.getByTestId('search-quota-0').fill('5000');

  // Keyword forwarding: one keyword per row, `|` inside a keyword reads "or"; smart matching needs a decision model.
  await page.getByTestId('model-forward-on').click();
  await pick(page, 'forward-rule', '按关键字');
  await page.locator('.arco-checkbox').filter({ hasText: '智能匹配' }).click();
  await pick(page, 'forward-decision', `E2E judge ${stamp}`);
  await page.getByTestId('keyword-0').fill('画图|绘画');
  await pick(page, 'keyword-target-0', `E2E draw ${stamp}`);
  await page.getByTestId('forward-keywords-add').click();
  await page.getByTestId('keyword-1').fill('code');
  await pick(page, 'keyword-target-1', `E2E code ${stamp}`);

  // A switched-on fallback needs an agent or a model.
  await page.getByTestId('model-fallback-on').click();
  await page.getByTestId('form-submit').click();
  await expect(fieldError(page, '请选择后备代理或后备模型').first()).toBeVisible();
  await pick(page, 'model-fallback-model', `E2E code ${stamp}`);
  await shot(page, 'model-create-multimodal');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/model\/list$/);

  const id = (await api.post<{ items: { id: string }[] }>('/model/page', { current: 1, pageSize: 20, name })).items[0]!.id;
  const detail = await api.get<Record<string, unknown>>('/model/detail', { id });
  expect(detail.multimodal_quota).toMatchObject({
    billing_rule: 1,
    text_quota: { billing_method: 1, prompt_ratio: 2.5, completion_ratio: 7.5 },
    vision_quotas: [
      { mode: 'low', fixed_quota: 1000, is_default: true },
      { mode: 'auto', fixed_quota: 3000, is_default: false },
    ],
    search_quotas: [{ search_context_size: 'medium', fixed_quota: 5000, is_default: false }],
  });
  expect(detail.text_quota).toBeUndefined();
  expect(detail.is_enable_forward).toBe(true);
  expect(detail.forward_config).toMatchObject({ forward_rule: 2, match_rule: [1, 2], decision_model: targets.judge, keywords: ['画图|绘画', 'code'], target_models: [targets.draw, targets.code] });
  expect(detail.fallback_config).toMatchObject({ model: targets.code, model_agent: '' });

  // The list shows the default vision price; the detail lists the keyword rows with their targets.
  await expect(page.getByTestId(`prices-${id}`)).toContainText('$5 / 1M tokens');
  await expect(page.getByTestId(`prices-${id}`)).toContainText('$0.002');
  await page.getByTestId(`row-detail-${id}`).click();
  await expect(page.getByTestId('detail-keywords')).toContainText(`画图|绘画 → E2E draw ${stamp}`);
  await expect(page.getByTestId('detail-vision')).toContainText('$0.006');

  // Editing restores the rows.
  await page.getByTestId('detail-edit').click();
  await expect(page).toHaveURL(/\/model\/update\?id=/);
  await expect(page.getByTestId('keyword-0')).toHaveValue('画图|绘画');
  await expect(page.getByTestId('keyword-1')).toHaveValue('code');
  await expect(page.getByTestId('vision-quota-1')).toHaveValue('3000');
  await expect(page.getByTestId('multimodal_quota-text_quota-completion_price')).toHaveValue('15');
});
