// The whole business flow in one story, entirely through the console (the "done when"): an admin
// creates a reseller and gives it quota; the reseller signs in at /reseller, sets up a site config for
// its domain, creates a default VIP level and a user and allocates quota to the user (its own balance
// drops by that amount); the user sees the quota and the VIP center; the admin changes the session
// lifetime in the system config and the next login follows; a tampered license is rejected.
import { expect, test, type Browser, type Page, type Response } from '@playwright/test';
import { BASE_URL, E2E_ADMIN_PASSWORD } from '../env';
import { api, loginAsAdmin, loginWithPassword, seeToast, shot } from '../helpers';

/** Rows of a user/reseller list (the header row has no actions). */
const accountRows = (page: Page) => page.locator('.arco-table-tr').filter({ has: page.locator('[data-testid^=row-actions-]') });
const tableRow = (page: Page, text: string) => page.locator('.arco-table-tr').filter({ hasText: text });

/** A fresh browser for another actor (own storage, so each signs in on its own). */
async function newActor(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: 'zh-CN' });
  return context.newPage();
}

async function fillAccount(page: Page, a: { account: string; name: string; email: string; password: string; quota: string }) {
  await page.getByTestId('user-account').fill(a.account);
  await page.getByTestId('user-name').fill(a.name);
  await page.getByTestId('user-email').fill(a.email);
  await page.getByTestId('user-password').fill(a.password);
  await page.getByTestId('user-quota').fill(a.quota);
}

/** The signed-in account's own balance, as the user center's recharge tab shows it. */
async function ownBalance(page: Page): Promise<string> {
  await page.goto('/user/center');
  await page.getByTestId('center-tab-recharge').click();
  const quota = page.getByTestId('center-quota');
  await expect(quota).toHaveText(/^\$/);
  return (await quota.textContent()) ?? '';
}

// A stuck step fails fast instead of eating the whole story's time.
test.use({ actionTimeout: 15_000, navigationTimeout: 20_000 });

const isLogin = (r: Response) => r.url().endsWith('/api/v1/auth/login') && r.request().method() === 'POST';

test('business flow: admin → reseller → site, VIP level, user, quota → user centre; session expiry; tampered license', async ({ page, browser, context }) => {
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const reseller = { account: `bres_${tag}`, name: `Shop${tag}`, email: `bres_${tag}@e2e.test`, password: 'Reseller#12', quota: '5000000' };
  const user = { account: `busr_${tag}`, name: `Buyer${tag}`, email: `busr_${tag}@e2e.test`, password: 'Buyer#3456', quota: '500000' };
  const domain = `shop-${tag}.example.com`;
  const level = `钻石${tag.slice(-4)}`;

  await test.step('the admin creates a reseller with a password and $10, then recharges it $5', async () => {
    await loginAsAdmin(page);
    await page.goto('/sys/reseller/list');
    await expect(page.getByTestId('resource-table')).toBeVisible();
    await page.getByTestId('resource-create').click();
    await expect(page).toHaveURL(/\/sys\/reseller\/create$/);
    await fillAccount(page, reseller);
    // Its floor (issue 13): the VIP level it prices at 90 % below must not go under it.
    await page.getByTestId('user-floor').fill('80');
    await expect(page.getByTestId('quota-preview').first()).toHaveText('$10');
    await page.getByTestId('form-submit').click();
    await seeToast(page, /创建成功|Created/);
    const row = accountRows(page).filter({ hasText: reseller.account });
    await expect(row).toContainText('$10');
    await row.getByRole('button', { name: '充值' }).click();
    const dialog = page.getByTestId('recharge-dialog');
    await dialog.getByTestId('recharge-quota').fill('2500000');
    await dialog.getByRole('button', { name: /确定|OK/ }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('$15');
    await shot(page, 'business-reseller-list');
  });

  const res = await newActor(browser);
  await test.step('the reseller signs in at /reseller with that password and sees its $15', async () => {
    await loginWithPassword(res, '/reseller', reseller.account, reseller.password);
    expect(await ownBalance(res)).toBe('$15');
  });

  await test.step('the reseller sets up a site config for its domain', async () => {
    await res.goto('/sys/site/config');
    await expect(res.getByTestId('resource-table')).toBeVisible();
    await res.getByTestId('resource-create').click();
    await expect(res).toHaveURL(/\/sys\/site\/config\/create$/);
    await res.getByTestId('site-domain').fill(domain);
    await res.getByTestId('site-form-title').fill(`${reseller.name} AI`);
    await res.getByTestId('form-submit').click();
    await seeToast(res, '创建成功');
    await expect(res).toHaveURL(/\/sys\/site\/config$/);
    await expect(tableRow(res, domain)).toContainText(`${reseller.name} AI`);
    await expect(tableRow(res, domain)).toContainText('待审核');
    // Pending until an admin approves the domain: its public identity is still the platform's.
    expect((await api<{ title: string }>('/open/site/config', { domain })).data.title).not.toBe(`${reseller.name} AI`);
  });

  await test.step('the admin approves the domain in the site config list; its identity is the reseller\'s', async () => {
    await page.goto('/sys/site/config');
    const row = tableRow(page, domain);
    await expect(row).toContainText('待审核');
    await row.locator('[data-testid^=row-approve-]').click();
    await page.locator('.arco-modal').getByRole('button', { name: /确\s*定|OK/ }).click();
    await seeToast(page, '已通过审核');
    await expect(row.locator('[data-testid^=site-approval-]')).toHaveText('已通过');
    const open = await api<{ title: string }>('/open/site/config', { domain });
    expect(open.data.title).toBe(`${reseller.name} AI`);
  });

  let colour = '';
  await test.step('the reseller creates a default VIP level with a colour, a discount and an RPM limit', async () => {
    await res.goto('/sys/vip/list');
    await expect(res.getByTestId('resource-table')).toBeVisible();
    await res.getByTestId('resource-create').click();
    await expect(res).toHaveURL(/\/sys\/vip\/create$/);
    await res.getByTestId('vip-name').fill(level);
    await res.getByTestId('vip-discount').fill('90');
    // The colour: typed into the picker's hex field (the picker drops its test id; found by its form item).
    const picker = res.locator('.arco-form-item').filter({ hasText: '会员徽章的颜色' }).locator('.arco-color-picker');
    await picker.click();
    const hex = res.locator('.arco-color-picker-input-hex input');
    await hex.fill('3366FF');
    await hex.press('Enter');
    await expect(picker.locator('.arco-color-picker-value')).toHaveText(/^#3366ff$/i);
    colour = ((await picker.locator('.arco-color-picker-value').textContent()) ?? '').toLowerCase();
    await res.getByTestId('vip-name').click(); // closes the picker
    await res.getByTestId('vip-default').click();
    await res.getByTestId('vip-limit-rpm').fill('60');
    await res.getByTestId('form-submit').click();
    await seeToast(res, '创建成功');
    await expect(res).toHaveURL(/\/sys\/vip\/list$/);
    const row = tableRow(res, level);
    await expect(row).toContainText('90%');
    await expect(row).toContainText('RPM 60');
  });

  await test.step('the reseller creates a user with $1 and allocates $2 more; its own balance drops by each', async () => {
    await res.goto('/user/list');
    await expect(res.getByTestId('resource-table')).toBeVisible();
    await res.getByTestId('resource-create').click();
    await expect(res).toHaveURL(/\/user\/create$/);
    await fillAccount(res, user);
    await res.getByTestId('form-submit').click();
    await seeToast(res, /创建成功|Created/);
    const row = accountRows(res).filter({ hasText: user.account });
    await expect(row).toContainText('$1');
    expect(await ownBalance(res)).toBe('$14');

    await res.goto('/user/list');
    await row.getByRole('button', { name: '充值' }).click();
    const dialog = res.getByTestId('recharge-dialog');
    await expect(dialog).toContainText('代理商余额');
    await dialog.getByTestId('recharge-quota').fill('1000000');
    await dialog.getByRole('button', { name: /确定|OK/ }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('$3');
    await shot(res, 'business-reseller-users');
    expect(await ownBalance(res)).toBe('$12');
  });

  await test.step('the admin sees the reseller holding $12 with $3 allocated', async () => {
    await page.goto('/sys/reseller/list');
    const row = accountRows(page).filter({ hasText: reseller.account });
    await expect(row).toContainText('$12');
    await expect(row).toContainText('$3');
  });

  const buyer = await newActor(browser);
  await test.step('the user signs in at /login and sees its quota and deal records in the user center', async () => {
    await loginWithPassword(buyer, '/login', user.account, user.password);
    await buyer.goto('/user/center');
    await expect(buyer.getByTestId('user-center-vip')).toHaveText(level);
    await buyer.getByTestId('center-tab-recharge').click();
    const recharge = buyer.getByTestId('center-recharge');
    await expect(buyer.getByTestId('center-quota')).toHaveText('$3');
    await expect(recharge).toContainText(level);
    const deals = recharge.locator('tbody .arco-table-tr');
    await expect(deals).toHaveCount(2);
    await expect(deals.filter({ hasText: '+$2' })).toHaveCount(1);
    await expect(deals.filter({ hasText: '+$1' })).toHaveCount(1);
    await shot(buyer, 'business-user-center');
  });

  await test.step('the user opens the VIP center: the default level shows in its colour', async () => {
    await buyer.goto('/vip/center');
    const badge = buyer.getByTestId('vip-center-badge');
    await expect(badge).toHaveText(level);
    const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)).join(', ');
    await expect(badge).toHaveCSS('background-color', `rgb(${rgb})`);
    await expect(buyer.getByTestId('vip-center-discount')).toHaveText('90%');
    await expect(buyer.getByTestId('vip-center')).toContainText('RPM 60');
    await expect(buyer.getByTestId('vip-center-levels')).toContainText(level);
    await shot(buyer, 'business-vip-center');
  });
  await res.context().close();
  await buyer.context().close();

  await test.step('the admin sets the admin session lifetime to 7200 s; a fresh admin login gets expires_in 7200', async () => {
    await page.goto('/sys/config');
    await expect(page.getByTestId('sys-config')).toBeVisible();
    await page.getByTestId('cfg-tab-global').click();
    const input = page.getByTestId('cfg-admin_login-session_expire');
    await expect(input).toHaveValue(/^\d+$/);
    const previous = await input.inputValue();
    expect(previous).not.toBe('7200');
    await input.fill('7200');
    await page.getByTestId('cfg-save-admin_login').click();
    await seeToast(page, '保存成功');
    await shot(page, 'business-sys-config');

    const again = await newActor(browser);
    const [login] = await Promise.all([again.waitForResponse(isLogin), loginWithPassword(again, '/admin', 'admin', E2E_ADMIN_PASSWORD)]);
    const body = (await login.json()) as { code: number; data: { expires_in: number } };
    expect(body.code).toBe(0);
    expect(body.data.expires_in).toBe(7200);
    await again.context().close();

    // Put the previous lifetime back, and check it is the one logins get again. The first save's toast
    // may still show: wait for this save's own answer before reloading.
    await input.fill(previous);
    await Promise.all([page.waitForResponse((r) => r.url().includes('/sys/config/update')), page.getByTestId('cfg-save-admin_login').click()]);
    await seeToast(page, '保存成功');
    await page.reload();
    await page.getByTestId('cfg-tab-global').click();
    await expect(page.getByTestId('cfg-admin_login-session_expire')).toHaveValue(previous);
  });

  await test.step('the admin issues a license, copies its key, tampers one character and sees it rejected', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = `Business ${tag}`;
    await page.goto('/license/list');
    await expect(page.getByTestId('resource-table')).toBeVisible();
    await page.getByTestId('resource-create').click();
    await expect(page).toHaveURL(/\/license\/create$/);
    await page.getByTestId('license-name').fill(name);
    await page.getByTestId('form-submit').click();
    await seeToast(page, /创建成功|Created/);
    await expect(page).toHaveURL(/\/license\/list$/);
    await tableRow(page, name).locator('[data-testid^=license-copy-]').click();
    await seeToast(page, /复制成功|已复制|Copied/);
    const key = await page.evaluate(() => navigator.clipboard.readText());
    const [prefix, payload, signature] = key.split('.') as [string, string, string];
    expect(signature).toHaveLength(86);
    // One character of the signature changed: still well-formed, no longer genuine.
    const tampered = `${prefix}.${payload}.${signature.slice(0, 20)}${signature[20] === 'A' ? 'B' : 'A'}${signature.slice(21)}`;

    await page.goto('/sys/license/info');
    await expect(page.getByTestId('license-state')).toBeVisible();
    const state = await page.getByTestId('license-state').textContent();
    await page.getByTestId('license-secret-key').fill(tampered);
    await page.getByTestId('license-install').click();
    await expect(page.getByTestId('license-install-error')).toContainText('授权密钥校验失败');
    // Nothing was installed.
    await expect(page.getByTestId('license-state')).toHaveText(state ?? '');
    await shot(page, 'business-license-tampered');
  });
});
