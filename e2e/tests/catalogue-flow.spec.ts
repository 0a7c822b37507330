// The catalogue issue's "done when", entirely through the UI (only mailed codes are read from outside):
// the admin signs in at /admin and creates a corp, a model priced by ratio, a model agent with two keys
// and a public group holding the model; a user signs in at /login with an emailed code, finds the model
// under 我的模型 and the group under 我的分组, creates an app and an app key, and copies the key.
import { expect, test, type Page } from '@playwright/test';
import { BASE_URL } from '../env';
import { loginAsAdmin, mailedCode, openFromMenu, seeToast, shot, uniqueEmail } from '../helpers';
import { showColumns } from '../list-ui';

/** The table row showing this exact text. */
const row = (page: Page, text: string) => page.locator('.arco-table-tr').filter({ has: page.getByText(text, { exact: true }) });

/** Picks `label` in an Arco select (single or multiple) found by test id, typing to narrow it. */
async function pick(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(label);
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: label }).first().click();
  await page.keyboard.press('Escape');
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

test('catalogue: admin sets up corp, model, agent and group; a user sees them and gets a working app key', async ({ page, browser }) => {
  const tag = Date.now().toString(36);
  const corpName = `Flow Corp ${tag}`;
  const modelName = `flow-model-${tag}`;
  const agentName = `Flow Agent ${tag}`;
  const groupName = `Flow Group ${tag}`;
  const appName = `Flow App ${tag}`;

  // Admin at /admin.
  await loginAsAdmin(page);

  // 公司管理: a public corp speaking the OpenAI protocol.
  await openFromMenu(page, 'corp.list');
  await expect(page).toHaveURL(/\/corp\/list$/);
  await page.getByTestId('resource-create').click();
  await page.getByTestId('corp-name').fill(corpName);
  await page.getByTestId('corp-code').click();
  await page.keyboard.type('OpenAI');
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: /^OpenAI$/ }).first().click();
  await page.getByTestId('corp-public').click();
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(row(page, corpName)).toBeVisible();

  // 模型管理: a text model priced by ratio ($ / 1M tokens in, ratio = price × 0.5 stored).
  await openFromMenu(page, 'model.list');
  await expect(page).toHaveURL(/\/model\/list$/);
  await page.getByTestId('resource-create').click();
  await pick(page, 'model-corp', corpName);
  await page.getByTestId('model-name').fill(modelName);
  await page.getByTestId('model-model').fill(modelName);
  await page.getByTestId('text_quota-prompt_price').fill('2');
  await page.getByTestId('text_quota-completion_price').fill('6');
  await expect(page.getByTestId('text_quota-prompt_price-ratio')).toHaveText('倍率 1');
  await expect(page.getByTestId('text_quota-completion_price-ratio')).toHaveText('倍率 3');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/model\/list$/);
  await expect(row(page, modelName)).toContainText('$2 / 1M tokens');

  // 模型代理: an agent for the model with two upstream keys, one per line.
  await openFromMenu(page, 'agent.list');
  await expect(page).toHaveURL(/\/agent\/list$/);
  await page.getByTestId('resource-create').click();
  await pick(page, 'agent-corp', corpName);
  await page.getByTestId('agent-name').fill(agentName);
  await page.getByTestId('agent-base-url').fill('http://127.0.0.1:9/v1');
  await pick(page, 'agent-models', modelName);
  await page.getByTestId('agent-keys').fill(`sk-flow${tag}-first-aaaa1111\nsk-flow${tag}-second-bbbb2222`);
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/agent\/list$/);
  await expect(row(page, agentName).locator('[data-testid^=agent-keys-]')).toHaveText('2');

  // 分组管理: a public group selling the model at 80 %.
  await openFromMenu(page, 'group.list');
  await expect(page).toHaveURL(/\/group\/list$/);
  await page.getByTestId('resource-create').click();
  await page.getByTestId('group-name').fill(groupName);
  await page.getByTestId('group-discount').fill('80');
  await pick(page, 'group-models', modelName);
  await page.getByTestId('group-public').click();
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/group\/list$/);
  await expect(row(page, groupName)).toContainText(modelName);
  await shot(page, 'flow-admin-groups');

  // A user at /login with an emailed code (registered on the way).
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  const user = await context.newPage();
  const email = uniqueEmail('flow');
  await user.goto('/login');
  await user.getByTestId('login-tab-code').click();
  await user.getByTestId('login-email').fill(email);
  await user.getByTestId('captcha-button').click();
  await user.getByTestId('login-code').fill(await mailedCode(email));
  await user.getByTestId('login-submit').click();
  await expect(user.getByTestId('workplace')).toBeVisible();

  // 我的模型: the model, reachable through the public group.
  await user.getByTestId('menu-my.model').click();
  await expect(user).toHaveURL(/\/my\/model/);
  await expect(row(user, modelName)).toContainText(corpName);
  await expect(row(user, modelName).locator('[data-testid^=discount-]')).toHaveText('80%');

  // 我的分组: the group with its model.
  await user.getByTestId('menu-my.group').click();
  await expect(user).toHaveURL(/\/my\/group$/);
  await expect(row(user, groupName)).toContainText(modelName);
  await expect(row(user, groupName).locator('[data-testid^=my-group-discount-]')).toHaveText('80%');

  // 应用管理: an app limited to the model and bound to the group (no key yet).
  await openFromMenu(user, 'app.list');
  await expect(user).toHaveURL(/\/app\/list$/);
  await user.getByTestId('resource-create').click();
  await user.getByTestId('app-name').fill(appName);
  await pick(user, 'app-models', modelName);
  await user.getByTestId('app-bind-group').click();
  await pick(user, 'app-group', groupName);
  await user.getByTestId('app-create-key').click();
  await user.getByTestId('form-submit').click();
  await seeToast(user, '创建成功');
  await expect(user).toHaveURL(/\/app\/list$/);
  const appRow = row(user, appName);
  await showColumns(user, 'group_name');
  await expect(appRow).toContainText(modelName);
  await expect(appRow).toContainText(groupName);

  // 应用密钥: a key for the app, shown once and copied; the list's copy gives the same key.
  await appRow.locator('[data-testid^=row-keys-]').click();
  await expect(user).toHaveURL(/\/app\/key\?app_id=\d+$/);
  await user.getByTestId('app-key-create').click();
  await pick(user, 'key-models', modelName);
  await user.getByTestId('key-modal-submit').click();
  await expect(user.getByTestId('key-reveal')).toBeVisible();
  const key = (await user.getByTestId('key-reveal-value').textContent())!.trim();
  expect(key).toMatch(/^sk-FastAPI[A-Za-z0-9]{41}$/);
  await user.getByTestId('key-reveal-copy').click();
  await expect.poll(() => clipboard(user)).toBe(key);
  await user.getByTestId('key-reveal-close').click();
  const keyRow = user.locator('.arco-table-tr').filter({ hasText: `${key.slice(0, 10)}${'*'.repeat(key.length - 15)}${key.slice(-5)}` });
  await expect(keyRow).toContainText(modelName);
  await user.evaluate(() => navigator.clipboard.writeText(''));
  await keyRow.locator('[data-testid^=key-] button').click();
  await expect.poll(() => clipboard(user)).toBe(key);
  await shot(user, 'flow-user-app-key');
  await context.close();
});
