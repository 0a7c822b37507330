// Navigation guards of docs/SPEC.md §2.3: sign-in redirects with the target route and query, role checks,
// a stale token, not-found and /redirect/:path.
import { expect, test } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../env';
import { createUser, loginAsAdmin, shot, useSession } from '../helpers';

test('signed out, a console route goes to /login with the redirect query, honoured after sign-in', async ({ page }) => {
  const user = await createUser('guard');
  await page.goto('/user/center?tab=security');
  await expect(page.getByTestId('login-page-user')).toBeVisible();
  await expect(page).toHaveURL(/\/login\?redirect=user\.center&tab=security$/);

  await page.getByTestId('login-account').fill(user.email);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/user\/center\?tab=security$/);
  await expect(page.getByTestId('password-form')).toBeVisible();
});

test('signed out, / and area paths go to the login screen; the login screens stay open', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  // /user redirects to its first screen, /user/list (docs/SPEC.md §2.2), which needs a session.
  await page.goto('/user');
  await expect(page).toHaveURL(/\/login\?redirect=user\.list$/);
  await page.goto('/dashboard');
  await expect(page.getByTestId('login-page-user')).toBeVisible();
  for (const channel of ['admin', 'reseller'] as const) {
    await page.goto(`/${channel}`);
    await expect(page.getByTestId(`login-page-${channel}`)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/${channel}$`));
  }
});

test('signed in, / and /dashboard land in the console and a login screen stays reachable', async ({ page }) => {
  const user = await createUser('land');
  await useSession(page, user.token, 'user', '/');
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await expect(page.getByTestId('user-center')).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace')).toBeVisible();
  // /user leads to the user list, which a plain user may not open: the guard sends it to the first
  // screen it may open (docs/SPEC.md §2.3 rule 3), the workplace.
  await page.goto('/user');
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
});

test('a stored token the server no longer knows ends the session and goes to login', async ({ page }) => {
  await useSession(page, 'uNotARealToken0000000000000000000', 'user', '/user/center?tab=certification');
  await expect(page.getByTestId('login-page-user')).toBeVisible();
  await expect(page).toHaveURL(/\/login\?redirect=user\.center&tab=certification$/);
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userRole')])).toEqual([null, null]);
  // No session modal for the guard's own user-info call.
  await expect(page.getByTestId('session-timeout-ok')).toHaveCount(0);
});

test('a user opening an admin-only route goes to a route it may open, or to not-found', async ({ page }) => {
  const user = await createUser('role');
  await useSession(page, user.token, 'user');
  await expect(page.getByTestId('user-center')).toBeVisible();
  // The user's menu has no admin areas.
  await expect(page.getByTestId('side-menu')).toBeVisible();
  await expect(page.getByTestId('menu-corp.list')).toHaveCount(0);
  await expect(page.getByTestId('menu-model.list')).toHaveCount(0);
  await expect(page.getByTestId('menu-sys.config')).toHaveCount(0);

  // /corp/list has a screen (admin only): guard rule 3 sends the user to the first route it may open.
  await page.goto('/corp/list');
  await expect(page.getByTestId('navbar')).toBeVisible();
  await expect(page).not.toHaveURL(/\/corp\//);
  await expect(page.getByTestId('not-found')).toHaveCount(0);
  await expect(page.getByTestId('side-menu')).not.toContainText('公司');

  for (const path of ['/model/list', '/sys/config', '/license/list', '/user/list', '/corp/create']) {
    await page.goto(path);
    // Guard rule 3: the first route the role may open, else not-found (a route without a screen yet is
    // not-found too); never the admin screen.
    const notFound = page.getByTestId('not-found');
    await expect(notFound.or(page.getByTestId('navbar'))).toBeVisible();
    if (!(await notFound.isVisible())) await expect(page).not.toHaveURL(new RegExp(`${path}$`));
  }
});

test('an unknown path shows not-found and its button goes home', async ({ page }) => {
  // Signed out: home is the login screen.
  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('not-found')).toContainText('404');
  await expect(page.getByTestId('not-found')).toContainText('抱歉，页面不见了～');
  await shot(page, 'not-found');
  await page.getByTestId('not-found-back').click();
  await expect(page).toHaveURL(/\/login$/);

  // Signed in: home is the console.
  await loginAsAdmin(page);
  await page.goto('/definitely-missing');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await page.getByTestId('not-found-back').click();
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace')).toBeVisible();
});

test('/redirect/:path re-navigates to the given path with its query', async ({ page }) => {
  const user = await createUser('redir');
  await useSession(page, user.token, 'user', `/redirect/${encodeURIComponent('/user/center?tab=certification')}`);
  await expect(page).toHaveURL(/\/user\/center\?tab=certification$/);
  await expect(page.getByTestId('cert-panel')).toBeVisible();
  await page.goto('/redirect/user%2Fcenter');
  await expect(page).toHaveURL(/\/user\/center$/);
  await expect(page.getByTestId('basic-form')).toBeVisible();
  // The redirect screen itself needs a session.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/redirect/user%2Fcenter');
  await expect(page).toHaveURL(/\/login\?redirect=redirect$/);
});

test('menu navigation and the user menu work and keep the URL in step', async ({ page }) => {
  await loginAsAdmin(page);
  await page.goto('/user/center?tab=security');
  await expect(page.getByTestId('password-form')).toBeVisible();
  await page.getByTestId('center-tab-certification').click();
  await expect(page).toHaveURL(/tab=certification$/);
  await page.reload();
  await expect(page.getByTestId('cert-panel')).toBeVisible();
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-center').click();
  await expect(page).toHaveURL(/\/user\/center$/);
  await expect(page.getByTestId('basic-form')).toBeVisible();
  await expect(page.getByTestId('breadcrumb')).toContainText('个人中心');
  await expect(page).toHaveTitle(/^个人中心 - /);

  // The side menu navigates; with the tab bar on, visited screens become tabs.
  await page.getByTestId('settings-button').click();
  await page.getByTestId('settings-tabBar').click();
  await page.getByTestId('settings-close').click();
  await page.getByTestId('side-menu').getByTestId('menu-corp.list').click();
  await expect(page).toHaveURL(/\/corp\/list$/);
  await expect(page.getByTestId('breadcrumb')).toContainText('公司列表');
  await expect(page.getByTestId('tab-corp.list')).toBeVisible();
  await expect(page.getByTestId('tab-user.center')).toBeVisible();
  await page.getByTestId('tab-user.center').click();
  await expect(page).toHaveURL(/\/user\/center$/);
  await expect(page.getByTestId('user-center')).toBeVisible();
  // Closing the current tab goes to its neighbour.
  await page.getByTestId('tab-user.center').locator('.arco-tag-close-btn').click();
  await expect(page).toHaveURL(/\/corp\/list$/);
  await expect(page.getByTestId('tab-user.center')).toHaveCount(0);
});

test('the admin screen honours a redirect query too, and an admin opens admin-only screens', async ({ page }) => {
  await page.goto('/corp/list');
  await expect(page).toHaveURL(/\/login\?redirect=corp\.list$/);
  await page.goto('/admin?redirect=corp.list');
  await page.getByTestId('login-account').fill('admin');
  await page.getByTestId('login-password').fill(E2E_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/corp\/list$/);
  await expect(page.getByTestId('not-found')).toHaveCount(0);
  await expect(page.getByTestId('breadcrumb')).toContainText('公司列表');
  await expect(page.getByTestId('menu-corp.list')).toBeVisible();
});
