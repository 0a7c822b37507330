// Issue 15 part 7 and part-8 polish: the site-config detail, `/key/create|update` for resellers and users,
// not-found inside the layout, record screens with nothing to show, and the layout's own polish.
import { expect, test, type Page } from '@playwright/test';
import { createReseller, createUser, loginAsAdmin, shot, uniqueEmail, useSession } from '../helpers';
import { ok } from '../world';
import { rowWith } from '../list-ui';

/** How far the page scrolls past the window (0 when it fits). */
const overscroll = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

test('the site config has a detail screen: read-only sections, the way to edit and back', async ({ page }) => {
  // A reseller's site: pending until approved, so it serves no domain while the other specs run.
  const reseller = await createReseller('sitedetail');
  const domain = `detail-${Date.now().toString(36)}.example.com`;
  await ok('/sys/site/create', { domain, title: 'Detail Site', register_tips: 'Invite only', host: 'smtp.example.com', port: 465, user_name: 'bot', password: 'secret-pass', announcements: [{ content: 'Hello', jump_url: '' }] }, reseller.token);
  await useSession(page, reseller.token, 'reseller', '/sys/site/config');
  await rowWith(page, domain).getByText('详情').click();
  await expect(page).toHaveURL(/\/sys\/site\/config\/detail\?id=/);
  await expect(page.getByTestId('site-detail-domain')).toHaveText(domain);
  await expect(page.getByTestId('site-detail-title')).toHaveText('Detail Site');
  await expect(page.getByTestId('site-detail-register')).toContainText('Invite only');
  await expect(page.getByTestId('site-detail-mail')).toContainText('smtp.example.com');
  // The password is never shown, only that one is set.
  await expect(page.getByTestId('site-detail')).not.toContainText('secret-pass');
  await expect(page.getByTestId('site-detail-mail')).toContainText('已设置');
  await expect(page.getByTestId('site-detail-home')).toContainText('Hello');
  await expect(page.getByTestId('breadcrumb')).toHaveText('系统管理站点配置详情');
  await shot(page, 'missing-site-detail');
  await page.getByTestId('site-detail-edit').click();
  await expect(page).toHaveURL(/\/sys\/site\/config\/update\?id=/);
  await expect(page.getByTestId('site-domain')).toHaveValue(domain);
  await page.getByTestId('form-cancel').click();
  await expect(page).toHaveURL(/\/sys\/site\/config\/detail\?id=/);
  await page.getByTestId('site-detail-back').click();
  await expect(page).toHaveURL(/\/sys\/site\/config$/);
});

test('/key/create and /key/update open the app-key screens for users and resellers, the model-key form for admins', async ({ page }) => {
  const user = await createUser('keyroute');
  await useSession(page, user.token, 'user', '/key/create');
  await expect(page.getByTestId('key-modal-create')).toBeVisible();
  await expect(page.getByTestId('key-not-for-role')).toHaveCount(0);
  await page.getByTestId('key-app').click();
  await page.locator('.arco-select-popup:visible .arco-select-option').first().click();
  await page.getByTestId('key-remark').fill('made at /key/create');
  await shot(page, 'missing-key-create-user');
  await page.getByTestId('key-modal-submit').click();
  await expect(page.getByTestId('key-reveal')).toBeVisible();
  await page.getByTestId('key-reveal-close').click();
  // Done, it leaves for the app-key list, where the new key is.
  await expect(page).toHaveURL(/\/app\/key$/);
  const row = rowWith(page, 'made at /key/create');
  await expect(row).toHaveCount(1);
  const id = (await row.locator('[data-testid^=row-actions-]').getAttribute('data-testid'))!.replace('row-actions-', '');

  await page.goto(`/key/update?id=${id}`);
  await expect(page.getByTestId('key-modal-update')).toBeVisible();
  await expect(page.getByTestId('key-remark')).toHaveValue('made at /key/create');
  await page.getByTestId('key-remark').fill('edited at /key/update');
  await page.getByTestId('key-modal-submit').click();
  await expect(page).toHaveURL(/\/app\/key$/);
  await expect(rowWith(page, 'edited at /key/update')).toHaveCount(1);

  // Another caller's key id: nothing to save.
  const other = await createUser('keyother');
  await useSession(page, other.token, 'user', `/key/update?id=${id}`);
  await expect(page.getByTestId('key-modal-unknown')).toContainText('记录加载失败');
  await expect(page.getByTestId('key-modal-submit')).toBeDisabled();
  await page.getByTestId('key-modal-cancel').click();
  await expect(page).toHaveURL(/\/app\/key$/);
  await page.goto('/key/update');
  await expect(page.getByTestId('record-unavailable-missingId')).toBeVisible();

  const reseller = await createReseller('keyres');
  await useSession(page, reseller.token, 'reseller', '/key/create');
  await expect(page.getByTestId('key-modal-create')).toBeVisible();
  await page.getByTestId('key-modal-cancel').click();
  await expect(page).toHaveURL(/\/app\/key$/);

  // The admin's /key/create is still the model-key form.
  await loginAsAdmin(page);
  await page.goto('/key/create');
  await expect(page.getByTestId('resource-form-create')).toBeVisible();
  await expect(page.getByTestId('key-modal-create')).toHaveCount(0);
});

test('an unknown path shows not-found inside the layout when signed in, the bare page when not', async ({ page }) => {
  await page.goto('/no/such/screen');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('navbar')).toHaveCount(0);

  const user = await createUser('nf');
  await useSession(page, user.token, 'user', '/no/such/screen');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('navbar')).toBeVisible();
  await expect(page.getByTestId('side-menu')).toBeVisible();
  expect(await overscroll(page)).toBeLessThanOrEqual(0);
  await shot(page, 'missing-not-found-in-layout');
  await page.getByTestId('not-found-back').click();
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
});

test('a record screen without its record shows an empty state with the way back, never a form that submits', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/finance/bill_detail');
  await expect(page.getByTestId('record-unavailable-missingId')).toContainText('缺少记录 ID');
  await expect(page.getByTestId('bill-detail').locator('.arco-spin')).toHaveCount(0);
  await shot(page, 'missing-bill-no-id');
  await page.getByTestId('record-unavailable-back').click();
  await expect(page).toHaveURL(/\/finance\/bill_list$/);

  for (const [path, list] of [['/corp/update?id=999999999', /\/corp\/list$/], ['/sys/site/config/update?id=1', /\/sys\/site\/config$/], ['/model/update', /\/model\/list$/]] as const) {
    await page.goto(path);
    await expect(page.getByTestId('record-unavailable-loadFailed').or(page.getByTestId('record-unavailable-missingId'))).toBeVisible();
    await expect(page.getByTestId('form-submit')).toHaveCount(0);
    await expect(page.locator('form')).toBeHidden();
    await page.getByTestId('record-unavailable-back').click();
    await expect(page).toHaveURL(list);
  }
  await page.goto('/corp/update?id=999999999');
  await expect(page.getByTestId('record-unavailable-loadFailed')).toContainText('记录加载失败');
  await shot(page, 'missing-update-unknown-id');
  await page.goto('/sys/site/config/detail?id=1');
  await expect(page.getByTestId('record-unavailable-loadFailed')).toBeVisible();
  await expect(page.getByTestId('site-detail').locator('.arco-spin')).toHaveCount(0);
});

test('one crumb for an area whose one screen bears its name, two otherwise', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/app/key');
  await expect(page.getByTestId('resource-table')).toBeVisible();
  await expect(page.getByTestId('breadcrumb').locator('.arco-breadcrumb-item')).toHaveCount(1);
  await expect(page.getByTestId('breadcrumb')).toHaveText('应用密钥');
  await page.goto('/corp/list');
  await expect(page.getByTestId('breadcrumb').locator('.arco-breadcrumb-item')).toHaveCount(2);
});

test('a short page fits the window: the navbar height is not added below it', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/finance/bill_detail');
  await expect(page.getByTestId('record-unavailable-missingId')).toBeVisible();
  expect(await overscroll(page)).toBeLessThanOrEqual(0);
  await page.getByTestId('settings-button').click();
  await page.getByTestId('settings-navbar').click();
  await page.getByTestId('settings-close').click();
  expect(await overscroll(page)).toBeLessThanOrEqual(0);
});

test('the open theme-colour picker stays inside the settings drawer', async ({ page }) => {
  await loginAsAdmin(page);
  await page.getByTestId('settings-button').click();
  await expect(page.locator('.arco-drawer:visible')).toBeVisible();
  await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
  await page.getByTestId('settings-themeColor').click();
  const panel = page.locator('.arco-color-picker-panel:visible');
  await expect(panel).toBeVisible();
  await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
  // Within the drawer's content column (the shades bar spans it).
  const column = (await page.getByTestId('settings-shades').boundingBox())!;
  const box = (await panel.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(column.x - 1);
  expect(box.x + box.width).toBeLessThanOrEqual(column.x + column.width + 1);
  await shot(page, 'missing-settings-drawer');
});

test('the captcha countdown shows its whole text, on a phone too', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const user = await createUser('cd');
  await useSession(page, user.token, 'user', '/user/center?tab=security');
  await page.getByTestId('email-new').fill(uniqueEmail('cdnew'));
  await page.getByTestId('email-captcha-button').click();
  const button = page.getByTestId('email-captcha-button');
  await expect(button).toContainText('后重新获取');
  // The text fits inside the button's padding (a squeezed button lets it run into the padding and past the row's edge).
  const fits = await button.evaluate((b) => {
    const range = document.createRange();
    range.selectNodeContents(b);
    const text = range.getBoundingClientRect().width;
    const style = getComputedStyle(b);
    return text <= b.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 0.5;
  });
  expect(fits).toBe(true);
  await button.scrollIntoViewIfNeeded();
  await shot(page, 'missing-captcha-countdown');
  await context.close();
});
