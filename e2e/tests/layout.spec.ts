// The console layout (docs/SPEC.md §2.5 settings drawer, §4.7 locale and colour weakness, §9 defaults): language
// switch, the settings drawer's switches, menu width, theme colour, copy settings, dark mode.
import { expect, test, type Page } from '@playwright/test';
import { createUser, loginAsAdmin, seeToast, shot, toast, useSession } from '../helpers';

async function signedInUser(page: Page) {
  const user = await createUser('layout');
  await useSession(page, user.token, 'user');
  await expect(page.getByTestId('user-center')).toBeVisible();
}

async function openDrawer(page: Page) {
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-drawer')).toBeVisible();
}

const shades = (page: Page) =>
  page.evaluate(() => Array.from({ length: 10 }, (_, i) => document.body.style.getPropertyValue(`--arcoblue-${i + 1}`)));

test('language: zh-CN → en-US on the login screen, kept across reloads; the current language is a no-op', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-title')).toHaveText('登录');
  await expect(page.getByTestId('login-submit')).toHaveText('登录');

  // Switching to the current language does nothing (no message, nothing saved).
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-zh-CN').click();
  await expect(page.getByTestId('login-title')).toHaveText('登录');
  await expect(toast(page, '语言切换成功')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('arco-lang'))).toBeNull();

  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-en-US').click();
  await expect(page.getByTestId('login-title')).toHaveText('Sign in');
  await seeToast(page, 'Language switched');
  await expect(page.getByTestId('login-tab-account')).toHaveText('Password');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await shot(page, 'login-en-US');

  await page.reload();
  await expect(page.getByTestId('login-title')).toHaveText('Sign in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await page.goto('/admin');
  await expect(page.getByTestId('login-title')).toHaveText('Administrator sign in');

  // Again the current language: no second message.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-en-US').click();
  await expect(toast(page, 'Language switched')).toHaveCount(0);

  // Server messages follow the language too.
  await page.getByTestId('login-account').fill('admin');
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await seeToast(page, 'Incorrect account or password');
});

test('language: the navbar switch changes the menu and the pages, kept across reloads', async ({ page }) => {
  await signedInUser(page);
  await expect(page.getByTestId('menu-user.center')).toHaveText('个人中心');
  await expect(page.getByTestId('center-tab-basic')).toHaveText('基本信息');
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-en-US').click();
  await expect(page.getByTestId('menu-user.center')).toHaveText('User center');
  await expect(page.getByTestId('center-tab-basic')).toHaveText('Basic information');
  await expect(page.getByTestId('breadcrumb')).toContainText('User center');
  await seeToast(page, 'Language switched');
  await page.reload();
  await expect(page.getByTestId('menu-user.center')).toHaveText('User center');
  await expect(page).toHaveTitle(/^User center - /);

  // Back through the settings drawer's language select.
  await openDrawer(page);
  await page.getByTestId('settings-language').click();
  await page.locator('.arco-select-option').filter({ hasText: '简体中文' }).click();
  await expect(page.getByTestId('menu-user.center')).toHaveText('个人中心');
  await seeToast(page, '语言切换成功');
});

test('settings drawer: navbar, menu, footer, tab bar and top menu switches', async ({ page }) => {
  await signedInUser(page);
  await expect(page.getByTestId('layout-sider')).toBeVisible();
  await expect(page.getByTestId('layout-footer')).toBeVisible();
  await expect(page.getByTestId('tab-bar')).toHaveCount(0);
  await openDrawer(page);
  const drawer = page.getByTestId('settings-drawer');
  await expect(drawer).toContainText('页面配置');
  await expect(drawer).toContainText('内容区域');
  await shot(page, 'settings-drawer');

  // Navbar off → the fixed settings button replaces the navbar's.
  await page.getByTestId('settings-navbar').click();
  await expect(page.getByTestId('settings-navbar')).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByTestId('navbar')).toHaveCount(0);
  await page.getByTestId('settings-close').click();
  await expect(drawer).toBeHidden();
  await expect(page.getByTestId('settings-button')).toBeVisible();
  await expect(page.getByTestId('settings-button')).toHaveCSS('position', 'fixed');
  await shot(page, 'settings-no-navbar');
  await openDrawer(page);
  await page.getByTestId('settings-navbar').click();
  await expect(page.getByTestId('navbar')).toBeVisible();

  // Menu off and on.
  await page.getByTestId('settings-menu').click();
  await expect(page.getByTestId('layout-sider')).toHaveCount(0);
  await page.getByTestId('settings-menu').click();
  await expect(page.getByTestId('layout-sider')).toBeVisible();

  // Footer off.
  await page.getByTestId('settings-footer').click();
  await expect(page.getByTestId('layout-footer')).toHaveCount(0);

  // Tab bar on: the current screen is a tab.
  await page.getByTestId('settings-tabBar').click();
  await expect(page.getByTestId('tab-bar')).toBeVisible();
  await expect(page.getByTestId('tab-user.center')).toHaveText('个人中心');

  // Top menu: the menu moves into the navbar.
  await page.getByTestId('settings-topMenu').click();
  await expect(page.getByTestId('navbar').getByTestId('top-menu')).toBeVisible();
  await expect(page.getByTestId('layout-sider')).toHaveCount(0);
  await expect(page.getByTestId('side-menu')).toHaveCount(0);
  await page.getByTestId('settings-close').click();
  await shot(page, 'settings-top-menu-tab-bar');

  // Layout choices persist across a reload (kept in localStorage).
  await page.reload();
  await expect(page.getByTestId('top-menu')).toBeVisible();
  await expect(page.getByTestId('tab-bar')).toBeVisible();
  await expect(page.getByTestId('layout-footer')).toHaveCount(0);

  await openDrawer(page);
  await page.getByTestId('settings-topMenu').click();
  await expect(page.getByTestId('top-menu')).toHaveCount(0);
  await expect(page.getByTestId('side-menu')).toBeVisible();
});

test('settings drawer: colour weakness, menu width and the collapse button', async ({ page }) => {
  await signedInUser(page);
  const sider = page.getByTestId('layout-sider');
  await expect(sider).toHaveCSS('width', '220px');
  await openDrawer(page);

  await page.getByTestId('settings-colorWeak').click();
  await expect(page.locator('html')).toHaveCSS('filter', 'invert(0.8)');
  await page.getByTestId('settings-colorWeak').click();
  await expect(page.locator('html')).toHaveCSS('filter', 'none');

  const width = page.getByTestId('settings-menuWidth').locator('input').or(page.locator('input[data-testid="settings-menuWidth"]'));
  await expect(width).toHaveValue('220');
  await width.fill('300');
  await width.press('Enter');
  await expect(sider).toHaveCSS('width', '300px');
  await width.fill('160');
  await width.blur();
  await expect(sider).toHaveCSS('width', '160px');
  await page.getByTestId('settings-close').click();

  // Collapse and expand the sider.
  await page.getByTestId('menu-collapse').click();
  await expect(sider).toHaveCSS('width', '48px');
  await page.getByTestId('menu-collapse').click();
  await expect(sider).toHaveCSS('width', '160px');

  // Turning the top menu on and off expands a collapsed menu again (docs/SPEC.md §4.7).
  await page.getByTestId('menu-collapse').click();
  await expect(sider).toHaveCSS('width', '48px');
  await openDrawer(page);
  await page.getByTestId('settings-topMenu').click();
  await expect(page.getByTestId('top-menu')).toBeVisible();
  await page.getByTestId('settings-topMenu').click();
  await expect(sider).toHaveCSS('width', '160px');
});

test('settings drawer: the menu from the server, with its loading notifications', async ({ page }) => {
  await signedInUser(page);
  await openDrawer(page);
  await page.getByTestId('settings-menuFromServer').click();
  await expect(page.locator('.arco-notification').filter({ hasText: '菜单加载成功' })).toBeVisible();
  await page.getByTestId('settings-close').click();
  await expect(page.getByTestId('side-menu').getByTestId('menu-user.center')).toBeVisible();
  // Guard rule 4 on a fresh load: the server menu is fetched again and the user center opens.
  await page.reload();
  await expect(page.getByTestId('user-center')).toBeVisible();
  await expect(page.getByTestId('menu-user.center')).toBeVisible();
  // An admin-only path still does not open: the guard leads the user elsewhere.
  await page.goto('/sys/config');
  await expect(page).not.toHaveURL(/\/sys\/config$/);
});

test('settings drawer: a failing server menu shows the error notification', async ({ page }) => {
  await signedInUser(page);
  await page.route('**/api/user/menu', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":500,"message":"boom"}' }));
  await openDrawer(page);
  await page.getByTestId('settings-menuFromServer').click();
  await expect(page.locator('.arco-notification').filter({ hasText: '菜单加载失败' })).toBeVisible();
  // The user center is whitelisted and still opens.
  await page.getByTestId('settings-close').click();
  await page.reload();
  await expect(page.getByTestId('user-center')).toBeVisible();
});

test('settings drawer: the theme colour regenerates the 10 shades', async ({ page }) => {
  await signedInUser(page);
  const before = await shades(page);
  expect(before.filter(Boolean)).toHaveLength(10);
  await openDrawer(page);
  const swatches = page.getByTestId('settings-shades').locator('span');
  await expect(swatches).toHaveCount(10);
  const swatchesBefore = await swatches.evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));

  await page.getByTestId('settings-themeColor').click();
  const hex = page.locator('.arco-color-picker-input-hex input');
  await expect(hex).toBeVisible();
  await hex.fill('F53F3F');
  await hex.press('Enter');
  // The 6th shade is the colour itself.
  await expect.poll(async () => (await shades(page))[5]).toBe('245,63,63');
  const after = await shades(page);
  expect(after.filter(Boolean)).toHaveLength(10);
  for (let i = 0; i < 10; i += 1) expect(after[i]).not.toBe(before[i]);
  await expect.poll(() => swatches.evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor))).not.toEqual(swatchesBefore);
  await expect(page.getByTestId('basic-save')).toHaveCSS('background-color', 'rgb(245, 63, 63)');
  await shot(page, 'settings-theme-colour');
});

test('settings drawer: copy settings puts the JSON on the clipboard with the success message', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signedInUser(page);
  await openDrawer(page);
  await page.getByTestId('settings-tabBar').click();
  await page.getByTestId('settings-copy').click();
  await seeToast(page, '复制成功，请粘贴到 src/settings.json 文件中');
  await expect(page.getByTestId('settings-drawer')).toBeHidden();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as Record<string, unknown>;
  expect(copied).toMatchObject({ navbar: true, menu: true, topMenu: false, footer: true, tabBar: true, menuWidth: 220, colorWeak: false, menuFromServer: false, themeColor: '#165DFF', theme: 'light' });
});

test('settings drawer in English: copy shows the English message', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signedInUser(page);
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-en-US').click();
  await openDrawer(page);
  await expect(page.getByTestId('settings-drawer')).toContainText('Settings');
  await page.getByTestId('settings-copy').click();
  await seeToast(page, 'Copy succeeded, please paste into the settings file');
});

test('dark mode: the navbar toggle and the drawer switch set the arco-theme attribute', async ({ page }) => {
  await loginAsAdmin(page);
  const body = page.locator('body');
  await expect(body).not.toHaveAttribute('arco-theme', /./);
  await page.getByTestId('theme-toggle').click();
  await expect(body).toHaveAttribute('arco-theme', 'dark');
  await shot(page, 'console-dark');
  await page.reload();
  await expect(body).toHaveAttribute('arco-theme', 'dark');
  await page.getByTestId('theme-toggle').click();
  await expect(body).not.toHaveAttribute('arco-theme', /./);

  await openDrawer(page);
  const dark = page.getByTestId('settings-darkMode');
  await expect(dark).toHaveAttribute('aria-checked', 'false');
  await dark.click();
  await expect(body).toHaveAttribute('arco-theme', 'dark');
  await dark.click();
  await expect(body).not.toHaveAttribute('arco-theme', /./);
});
