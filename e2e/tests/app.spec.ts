// Apps and app keys (docs/SPEC.md §2.2, all roles; docs/ORIGINAL-API.md §3.2, §3.3): a user registered by email code creates
// an app with an IP whitelist and its first key, copies keys (the reveal and the list's explicit copy
// endpoint), creates a key that expires after first use, batch-creates keys, exports them and disables
// one. Another user sees none of it.
import { expect, test, type Page } from '@playwright/test';
import { BASE_URL } from '../env';
import { mailedCode, seeToast, shot, uniqueEmail } from '../helpers';
import { showColumns } from '../list-ui';

/** Signs in at /login with an emailed code (registering the address) and waits for the landing page. */
async function codeLogin(page: Page, email: string) {
  await page.goto('/login');
  await page.getByTestId('login-tab-code').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('captcha-button').click();
  await page.getByTestId('login-code').fill(await mailedCode(email));
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();
}

/** A GET of the console API with the page's own session. */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${BASE_URL}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { code: number; message: string; data: T };
  expect(body.code, body.message).toBe(0);
  return body.data;
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());
/** Table rows with row actions (not the header). */
const rows = (page: Page) => page.locator('.arco-table-tr').filter({ has: page.locator('[data-testid^=row-actions-]') });
/** The key row whose mask ends like `key` (the server shows the first 10 and last 5 characters, a `*` for each between). */
const keyRow = (page: Page, key: string) => rows(page).filter({ hasText: `${key.slice(0, 10)}${'*'.repeat(key.length - 15)}${key.slice(-5)}` });

test('a user creates an app with its first key, then creates, copies, exports and disables keys', async ({ page, context, browser }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  const email = uniqueEmail('apps');
  const name = `E2E App ${Date.now().toString(36)}`;
  await codeLogin(page, email);

  await page.getByTestId('menu-app.list').click();
  await expect(page).toHaveURL(/\/app\/list$/);
  // A new user starts with its default app (docs/ORIGINAL-API.md §4 Register).
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).filter({ hasText: '默认应用' })).toHaveCount(1);

  // Create: a user names no owner; the IP list is checked line by line before anything is sent.
  await page.getByTestId('resource-create').click();
  await expect(page).toHaveURL(/\/app\/create$/);
  await expect(page.getByTestId('app-user-id')).toHaveCount(0);
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('请输入应用名称')).toBeVisible();
  await page.getByTestId('app-name').fill(name);
  await page.getByTestId('app-ip-whitelist').fill('10.0.0.0/8\n192.168.1.1-192.168.1.20\nnot-an-ip');
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('IP 格式不正确：not-an-ip')).toBeVisible();
  await page.getByTestId('app-ip-whitelist').fill('10.0.0.0/8\n192.168.1.1-192.168.1.20\n127.0.0.1');
  await page.getByTestId('app-limit-quota').click();
  await page.getByTestId('app-quota').fill('2500000');
  await expect(page.getByTestId('quota-preview')).toHaveText('$5');
  await expect(page.getByTestId('app-create-key')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('form-submit').click();

  // The first key is shown once, with a copy button and the warning.
  await expect(page.getByTestId('key-reveal')).toContainText('只显示这一次');
  const first = (await page.getByTestId('key-reveal-value').textContent())!.trim();
  expect(first).toMatch(/^sk-FastAPI[A-Za-z0-9]{41}$/);
  await page.getByTestId('key-reveal-copy').click();
  await seeToast(page, '复制成功');
  expect(await clipboard(page)).toBe(first);
  await shot(page, 'app-key-reveal');
  await page.getByTestId('key-reveal-close').click();
  await expect(page).toHaveURL(/\/app\/list$/);
  const appRow = rows(page).filter({ hasText: name });
  await expect(appRow).toHaveCount(1);
  await expect(appRow).toContainText('$0 / $5');
  await shot(page, 'app-list');

  // The stored app carries the normalized whitelist.
  const app = (await apiGet<{ items: { id: string; app_id: number; ip_whitelist: string[] }[] }>(page, '/app/list')).items[0]!;
  const detail = await apiGet<{ ip_whitelist: string[]; name: string }>(page, `/app/detail?id=${app.id}`);
  expect(detail).toMatchObject({ name, ip_whitelist: ['10.0.0.0/8', '192.168.1.1-192.168.1.20', '127.0.0.1'] });

  // "Keys" opens the app-key list of this app.
  await appRow.locator('[data-testid^=row-keys-]').click();
  await expect(page).toHaveURL(new RegExp(`/app/key\\?app_id=${app.app_id}$`));
  await expect(page.getByTestId('resource-table')).toContainText(name);
  await expect(rows(page)).toHaveCount(1);

  // The list shows the mask; its copy button fetches the full key through the copy endpoint.
  const firstRow = keyRow(page, first);
  await expect(firstRow).toHaveCount(1);
  await expect(firstRow).not.toContainText(first);
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await firstRow.locator('[data-testid^=key-] button').click();
  await expect.poll(() => clipboard(page)).toBe(first);
  const firstId = (await firstRow.locator('[data-testid^=row-actions-]').getAttribute('data-testid'))!.replace('row-actions-', '');
  expect((await apiGet<{ key: string }>(page, `/key/detail?id=${firstId}&type=1`)).key).toBe(first);

  // A second key that expires 90 minutes after its first call (rule 2): two calls, then shown once.
  await page.getByTestId('app-key-create').click();
  await page.getByTestId('key-rule-2').click();
  await page.getByTestId('key-modal-submit').click();
  await expect(page.getByText('请输入有效时长')).toBeVisible();
  await page.getByTestId('key-minutes').fill('90');
  await page.getByTestId('key-remark').fill('after first use');
  await page.getByTestId('key-modal-submit').click();
  await expect(page.getByTestId('key-reveal')).toBeVisible();
  const second = (await page.getByTestId('key-reveal-value').textContent())!.trim();
  expect(second).not.toBe(first);
  await page.getByTestId('key-reveal-close').click();
  await showColumns(page, 'quota_expires_at');
  await expect(keyRow(page, second)).toContainText('首次使用后 90 分钟');

  // Editing keeps the rule and shows it back.
  await keyRow(page, second).locator('[data-testid^=row-edit-]').click();
  await expect(page.getByTestId('key-minutes')).toHaveValue('90');
  await expect(page.getByTestId('key-remark')).toHaveValue('after first use');
  await page.getByTestId('key-modal-cancel').click();

  // Batch create: three keys shown together, copied all at once.
  await page.getByTestId('app-key-batch-create').click();
  await page.getByTestId('key-n').fill('3');
  await page.getByTestId('key-modal-submit').click();
  const batchText = await page.getByTestId('key-reveal-keys').inputValue();
  const batch = batchText.split('\n');
  expect(batch).toHaveLength(3);
  await page.getByTestId('key-reveal-copy').click();
  await expect.poll(() => clipboard(page)).toBe(batchText);
  await shot(page, 'app-key-batch');
  await page.getByTestId('key-reveal-close').click();
  await expect(rows(page)).toHaveCount(5);
  await shot(page, 'app-key-list');

  // Export: an xlsx under the fixed Chinese name.
  const download = page.waitForEvent('download');
  await page.getByTestId('app-key-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('应用密钥.xlsx');
  const path = test.info().outputPath('app-keys.xlsx');
  await file.saveAs(path);
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(path);
  expect(bytes.length).toBeGreaterThan(1000);
  // An xlsx is a zip.
  expect(bytes.subarray(0, 2).toString()).toBe('PK');

  // Disable one key with its switch; the status filter finds it.
  const status = keyRow(page, batch[0]!).locator('[data-testid^=status-switch-]');
  await expect(status).toHaveAttribute('aria-checked', 'true');
  await status.click();
  // Disabling asks first (issue 15 part 5).
  await page.locator('.arco-popconfirm:visible').getByTestId('status-confirm-ok').click();
  await expect(status).toHaveAttribute('aria-checked', 'false');
  // The switch shows the value asked for while the request runs; the toast says the server took it.
  await seeToast(page, '已停用');
  const disabledId = (await status.getAttribute('data-testid'))!.replace('status-switch-', '');
  expect((await apiGet<{ status: number }>(page, `/key/detail?id=${disabledId}&type=1`)).status).toBe(2);

  // Another user sees only its own default app, and the first user's app id shows an error instead of its data.
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await codeLogin(page2, uniqueEmail('other'));
  await page2.goto('/app/list');
  await expect(page2.getByTestId('resource-table')).toBeVisible();
  await expect(rows(page2).filter({ hasText: '默认应用' })).toHaveCount(1);
  await expect(rows(page2).filter({ hasText: name })).toHaveCount(0);
  await page2.goto(`/app/update?id=${app.id}`);
  await expect(page2.getByTestId('resource-form-update')).toContainText('记录加载失败');
  await expect(page2.getByTestId('app-name')).toHaveValue('');
  await expect(page2.getByTestId('resource-form-update')).not.toContainText(name);
  await page2.goto(`/app/key?app_id=${app.app_id}`);
  await expect(page2.getByTestId('resource-table')).toBeVisible();
  await expect(rows(page2)).toHaveCount(0);
  await other.close();
});
