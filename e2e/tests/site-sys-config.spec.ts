// Site config per domain and the system config (docs/SPEC.md §2.2 sys.site.*, sys.config): a reseller creates a
// site config, pending until an admin approves its domain (issue 11); the admin changes the admin session lifetime and the next login follows; the admin
// uploads a logo for the current hostname and the console's identity follows on reload.
import { expect, test, type Page } from '@playwright/test';
import { api, createReseller, loginAsAdmin, mailCount, mailedCode, seeToast, shot } from '../helpers';
import { E2E_ADMIN_PASSWORD } from '../env';
import { consoleCall as scriptCall } from '../world';

// A 1x1 PNG.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000000000200015e2b4f0a0000000049454e44ae426082', 'hex');

/** A console call made by the signed-in page itself (its token and XSRF cookie). */
async function consoleCall<T>(page: Page, path: string, body: object): Promise<{ code: number; data: T }> {
  return page.evaluate(
    async ([p, b]) => {
      const xsrf = /XSRF-TOKEN=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const res = await fetch(`/api/v1${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('token') ?? ''}`, 'x-xsrf-token': xsrf },
        body: JSON.stringify(b),
      });
      return res.json();
    },
    [path, body] as const,
  );
}

const row = (page: Page, text: string) => page.locator('.arco-table-tr').filter({ has: page.getByText(text, { exact: true }) });

test('a reseller signs in and creates a site config for its domain', async ({ page }) => {
  const reseller = await createReseller('site');
  const domain = `res-${Date.now().toString(36)}.e2e.test`;

  await page.goto('/reseller');
  await page.getByTestId('login-tab-code').click();
  await page.getByTestId('login-email').fill(reseller.email);
  const before = await mailCount(reseller.email);
  await page.getByTestId('captcha-button').click();
  await page.getByTestId('login-code').fill(await mailedCode(reseller.email, before));
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();

  await page.goto('/sys/site/config');
  await expect(page.getByTestId('resource-table')).toBeVisible();
  await page.getByTestId('resource-create').click();
  await expect(page).toHaveURL(/\/sys\/site\/config\/create$/);
  await expect(page.getByText('建议尺寸 64x64')).toBeVisible();
  await expect(page.getByText('建议尺寸 1920x1080')).toBeVisible();

  // A malformed domain is refused before anything is sent.
  await page.getByTestId('site-domain').fill('not a domain');
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('域名格式不正确').first()).toBeVisible();

  await page.getByTestId('site-domain').fill(domain);
  await page.getByTestId('site-form-title').fill('Reseller Brand');
  await page.getByTestId('site-add-announcements').click();
  await page.getByTestId('site-list-announcements').locator('input').first().fill('Welcome to our gateway');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/sys\/site\/config$/);
  await expect(row(page, domain)).toContainText('Reseller Brand');
  await expect(row(page, domain)).toContainText('待审核');
  await shot(page, 'site-config-list-reseller');

  // Pending: the domain keeps the platform's identity until an admin approves it.
  const pending = await api<{ title: string }>('/open/site/config', { domain });
  expect(pending.data.title).not.toBe('Reseller Brand');
  const admin = await api<{ token: string }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin', method: 'account' });
  // A script's signed-in calls carry the XSRF pair (world.ts).
  const id = (await scriptCall<{ items: { id: string; domain: string }[] }>('/sys/site/page', { domain }, admin.data.token)).data.items[0]!.id;
  expect((await scriptCall('/sys/site/change/approval', { id, approved: 1 }, admin.data.token)).code).toBe(0);
  await page.reload();
  await expect(row(page, domain)).toContainText('已通过');

  // Approved: the public identity of that domain is the new one.
  const open = await api<{ title: string; announcements: { content: string }[] }>('/open/site/config', { domain });
  expect(open.data.title).toBe('Reseller Brand');
  expect(open.data.announcements[0]?.content).toBe('Welcome to our gateway');

  // Editing loads the stored record.
  await row(page, domain).locator('[data-testid^=row-edit-]').click();
  await expect(page.getByTestId('site-domain')).toHaveValue(domain);
  await shot(page, 'site-config-form-reseller');
});

test('the admin changes the session lifetime in the system config and the next login follows', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/sys/config');
  await expect(page.getByTestId('sys-config')).toBeVisible();
  await page.getByTestId('cfg-tab-global').click();
  await expect(page.getByTestId('cfg-card-admin_login')).toBeVisible();
  await expect(page.getByTestId('cfg-card-base')).toHaveCount(0);

  const input = page.getByTestId('cfg-admin_login-session_expire');
  await input.fill('7200');
  await page.getByTestId('cfg-save-admin_login').click();
  await seeToast(page, '保存成功');

  const login = await api<{ expires_in: number }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin', method: 'account' });
  expect(login.data.expires_in).toBe(7200);
  await shot(page, 'sys-config-global');

  // Error-text lists are edited one per line.
  await page.getByTestId('cfg-tab-api').click();
  await page.getByTestId('cfg-not_shield_error-errors').fill('alpha error\nbeta error\n');
  await page.getByTestId('cfg-save-not_shield_error').click();
  await seeToast(page, '保存成功');
  await page.reload();
  await expect(page.getByTestId('cfg-not_shield_error-errors')).toHaveValue('alpha error\nbeta error');
  await shot(page, 'sys-config-api');

  // Reset puts the default lifetime back.
  await page.getByTestId('cfg-tab-global').click();
  await page.getByTestId('cfg-reset-admin_login').click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click();
  await seeToast(page, '已恢复默认值');
  await expect(page.getByTestId('cfg-admin_login-session_expire')).toHaveValue('21600');
  const again = await api<{ expires_in: number }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin', method: 'account' });
  expect(again.data.expires_in).toBe(21600);
});

test('the admin uploads a logo for this hostname and the console identity follows', async ({ page }) => {
  await loginAsAdmin(page);
  const hostname = new URL(page.url()).hostname;
  await page.goto('/sys/site/config/create');
  await page.getByTestId('site-domain').fill(hostname);
  await page.getByTestId('site-form-title').fill('E2E Brand');

  // A text file named .png is refused by the server; a real PNG is stored and previewed.
  const logoItem = page.locator('.arco-form-item').filter({ has: page.getByTestId('site-logo') });
  await logoItem.locator('input[type=file]').setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await seeToast(page, '只支持 png、jpeg、gif、webp、ico、svg 图片');
  await logoItem.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByTestId('site-logo')).toHaveValue(/^\/uploads\/[a-f0-9]{32}\.png$/);
  await expect(page.getByTestId('site-logo-preview')).toBeVisible();
  const logo = await page.getByTestId('site-logo').inputValue();
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  const id = (await consoleCall<{ items: { id: string; domain: string }[] }>(page, '/sys/site/page', { domain: hostname })).data.items.find((r) => r.domain === hostname)?.id;

  try {
    await page.reload();
    await expect(page.getByTestId('site-title')).toHaveText('E2E Brand');
    await expect(page.getByTestId('navbar').locator('img').first()).toHaveAttribute('src', logo);
    await expect(page).toHaveTitle(/E2E Brand/);
    await shot(page, 'site-config-logo');
  } finally {
    // Other specs expect the built-in identity on this hostname.
    if (id) expect((await consoleCall(page, '/sys/site/delete', { id })).code).toBe(0);
  }
});
