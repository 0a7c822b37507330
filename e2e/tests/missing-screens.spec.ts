// Issue 15 part 7: the site-config detail, `/key/create|update` for resellers and users, not-found inside the
// layout, and record screens with nothing to show. The flows once at 1440×900 in zh-CN, then their key
// checks at 1280×720 and 390×844 in zh-CN and en-US (viewports.ts). (The part-8 layout polish is polish.spec.ts.)
import { expect, test, type Page } from '@playwright/test';
import { createReseller, createUser, loginAsAdmin, shot, useSession } from '../helpers';
import { adminToken, ok } from '../world';
import { rowWith } from '../list-ui';
import { COMBOS, comboPage, pick, slug, type Combo } from '../viewports';

test.use({ viewport: { width: 1440, height: 900 } });

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
  // Done, it leaves for the app-key list, where the new key is (the remark column is hidden by default: found by its id).
  await expect(page).toHaveURL(/\/app\/key$/);
  const keysByRemark = async (remark: string) => (await ok<{ items: { id: string; remark: string }[] }>('/key/page', { current: 1, pageSize: 100, type: 1 }, user.token)).items.filter((k) => k.remark === remark);
  const [made] = await keysByRemark('made at /key/create');
  const id = made!.id;
  await expect(page.getByTestId(`row-actions-${id}`)).toBeVisible();

  await page.goto(`/key/update?id=${id}`);
  await expect(page.getByTestId('key-modal-update')).toBeVisible();
  await expect(page.getByTestId('key-remark')).toHaveValue('made at /key/create');
  await page.getByTestId('key-remark').fill('edited at /key/update');
  await page.getByTestId('key-modal-submit').click();
  await expect(page).toHaveURL(/\/app\/key$/);
  expect((await keysByRemark('edited at /key/update')).map((k) => k.id)).toEqual([id]);

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

interface Setup {
  admin: string;
  reseller: string;
  site: string;
  domain: string;
  user: string;
  keyId: string;
}

let setup: Setup;

test.describe('at every viewport and language', () => {
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    const admin = await adminToken();
    const reseller = await createReseller('msall');
    const domain = `all-${Date.now().toString(36)}.example.com`;
    const site = (await ok<{ id: string }>('/sys/site/create', { domain, title: 'Everywhere', host: 'smtp.example.com', port: 465, user_name: 'bot', password: 'secret-pass' }, reseller.token)).id;
    const user = await createUser('msall');
    const app = await ok<{ app_id: number }>('/app/create', { name: 'Everywhere app', is_create_key: true }, user.token);
    const keyId = (await ok<{ items: { id: string }[] }>('/key/page', { current: 1, pageSize: 20, type: 1, app_id: app.app_id }, user.token)).items[0]!.id;
    setup = { admin, reseller: reseller.token, site, domain, user: user.token, keyId };
  });

  for (const combo of COMBOS) {
    test(`missing screens at ${combo.name}`, async ({ browser }) => {
      const page = await comboPage(browser, combo, setup.reseller, 'reseller', `/sys/site/config/detail?id=${setup.site}`);
      await siteDetail(page, combo);
      await keyScreens(page, combo);
      await notFound(page, combo);
      await emptyRecords(page, combo);
      await page.context().close();
    });
  }
});

async function siteDetail(page: Page, combo: Combo) {
  await test.step('the site config detail: read-only sections, Back and Edit', async () => {
    await expect(page.getByTestId('site-detail-domain')).toHaveText(setup.domain);
    await expect(page.getByTestId('site-detail-mail')).toContainText(pick(combo, { 'zh-CN': '已设置', 'en-US': 'Set' }));
    await expect(page.getByTestId('site-detail')).not.toContainText('secret-pass');
    const crumb = page.getByTestId('breadcrumb');
    if (!combo.phone) await expect(crumb).toHaveText(pick(combo, { 'zh-CN': '系统管理站点配置详情', 'en-US': 'SystemSite config detail' }));
    await expect(page.getByTestId('site-detail-back')).toBeVisible();
    await page.getByTestId('site-detail-edit').click();
    await expect(page).toHaveURL(/\/sys\/site\/config\/update\?id=/);
    await expect(page.getByTestId('site-domain')).toHaveValue(setup.domain);
  });
}

async function keyScreens(page: Page, combo: Combo) {
  await test.step('/key/create and /key/update open the app-key screens for a user', async () => {
    await useSession(page, setup.user, 'user', '/key/create');
    await expect(page.getByTestId('key-modal-create')).toBeVisible();
    await expect(page.getByTestId('key-not-for-role')).toHaveCount(0);
    await shot(page, `missing-key-create-${slug(combo)}`, { fullPage: false });
    await page.getByTestId('key-modal-cancel').click();
    await expect(page).toHaveURL(/\/app\/key$/);
    await page.goto(`/key/update?id=${setup.keyId}`);
    await expect(page.getByTestId('key-modal-update')).toBeVisible();
    await expect(page.getByTestId('key-modal-submit')).toBeEnabled();
    await page.goto('/key/update');
    await expect(page.getByTestId('record-unavailable-missingId')).toContainText(pick(combo, { 'zh-CN': '缺少记录 ID', 'en-US': 'No record id' }));
  });
}

async function notFound(page: Page, combo: Combo) {
  await test.step('an unknown path shows not-found inside the layout when signed in', async () => {
    await page.goto('/no/such/screen');
    await expect(page.getByTestId('not-found')).toBeVisible();
    await expect(page.getByTestId('navbar')).toBeVisible();
    // The menu: beside the page on a desktop, behind the navbar's menu button on a phone.
    await expect(page.getByTestId(combo.phone ? 'menu-button' : 'side-menu')).toBeVisible();
    await shot(page, `missing-not-found-${slug(combo)}`, { fullPage: false });
    await page.getByTestId('not-found-back').click();
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  });
}

async function emptyRecords(page: Page, combo: Combo) {
  await test.step('a record screen without its record: an empty state with the way back, no form that submits', async () => {
    await useSession(page, setup.admin, 'admin', '/finance/bill_detail');
    await expect(page.getByTestId('record-unavailable-missingId')).toContainText(pick(combo, { 'zh-CN': '缺少记录 ID', 'en-US': 'No record id' }));
    await expect(page.getByTestId('bill-detail').locator('.arco-spin')).toHaveCount(0);
    await shot(page, `missing-bill-no-id-${slug(combo)}`, { fullPage: false });
    await page.getByTestId('record-unavailable-back').click();
    await expect(page).toHaveURL(/\/finance\/bill_list$/);

    await page.goto('/corp/update?id=999999999');
    await expect(page.getByTestId('record-unavailable-loadFailed')).toContainText(pick(combo, { 'zh-CN': '记录加载失败', 'en-US': 'The record could not be loaded' }));
    await expect(page.getByTestId('form-submit')).toHaveCount(0);
    await expect(page.locator('form')).toBeHidden();
    await shot(page, `missing-update-unknown-${slug(combo)}`, { fullPage: false });
    await page.getByTestId('record-unavailable-back').click();
    await expect(page).toHaveURL(/\/corp\/list$/);
  });
}
