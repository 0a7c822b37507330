// Session timeout (docs/SPEC.md §8): a session ended elsewhere makes the next call show the "会话超时" modal;
// its OK button logs out, then reloads (user) or goes to the role's login screen (admin, reseller).
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../env';
import { createReseller, createUser, holdRequests, loginAsAdmin, seeToast, shot, useSession } from '../helpers';

/** Logs the page's token out through the API, from outside the browser. */
async function logoutElsewhere(page: Page, request: import('@playwright/test').APIRequestContext) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  const res = await request.post('/api/v1/auth/logout', { headers: { authorization: `Bearer ${token}` }, data: {} });
  expect(res.ok()).toBe(true);
  expect(((await res.json()) as { code: number }).code).toBe(0);
  // The token is dead now.
  const info = await request.get('/api/v1/user/info', { headers: { authorization: `Bearer ${token}` } });
  expect(info.status()).toBe(401);
}

test('a user logged out elsewhere sees the session-timeout modal on the next save; OK goes to login', async ({ page, request }) => {
  const user = await createUser('sess');
  await useSession(page, user.token, 'user');
  await expect(page.getByTestId('basic-form')).toBeVisible();
  await logoutElsewhere(page, request);

  await page.getByTestId('basic-name').fill('after_logout');
  await page.getByTestId('basic-save').click();
  const modal = page.locator('.arco-modal').filter({ hasText: '会话超时' });
  await expect(modal).toBeVisible();
  await expect(modal).toContainText('会话超时，请重新登录');
  await seeToast(page, '会话超时，请重新登录');
  await expect(page.getByTestId('session-timeout-ok')).toHaveText('重新登录');
  await expect(modal).toHaveCSS('opacity', '1');
  await shot(page, 'session-timeout');

  // The modal cannot be dismissed by Escape or a mask click.
  await page.keyboard.press('Escape');
  await expect(modal).toBeVisible();

  await page.getByTestId('session-timeout-ok').click();
  // Reloaded signed out: the guard sends the user to login with the route to return to.
  await expect(page.getByTestId('login-page-user')).toBeVisible();
  await expect(page).toHaveURL(/\/login\?redirect=user\.center$/);
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('userRole')])).toEqual([null, null]);
});

test('several failing calls at once open a single session-timeout modal', async ({ page, request }) => {
  const user = await createUser('sess2');
  await useSession(page, user.token, 'user');
  await expect(page.getByTestId('basic-form')).toBeVisible();
  await logoutElsewhere(page, request);
  // Hold the calls until two are in flight, then let both fail together.
  const calls = await holdRequests(page, '**/api/v1/user/**');
  await page.getByTestId('basic-save').click();
  await page.getByTestId('center-tab-certification').click();
  await expect.poll(calls.held).toBe(2);
  await calls.release();
  await expect(page.getByTestId('session-timeout-ok')).toBeVisible();
  await expect(page.getByTestId('session-timeout-ok')).toHaveCount(1);
  await expect(page.locator('.arco-modal').filter({ hasText: '会话超时' })).toHaveCount(1);
});

test('a session ended elsewhere is noticed on navigation (reload) and goes to login without a modal', async ({ page, request }) => {
  const user = await createUser('sess3');
  await useSession(page, user.token, 'user', '/user/center?tab=security');
  await expect(page.getByTestId('password-form')).toBeVisible();
  await logoutElsewhere(page, request);
  await page.reload();
  await expect(page.getByTestId('login-page-user')).toBeVisible();
  await expect(page).toHaveURL(/\/login\?redirect=user\.center&tab=security$/);
  await expect(page.getByTestId('session-timeout-ok')).toHaveCount(0);
});

test('an admin logged out elsewhere: OK on the modal goes to /admin', async ({ page, request }) => {
  await loginAsAdmin(page);
  await page.goto('/user/center');
  // The guard reads the user on navigation; a session ended before that read goes to login without the modal
  // (the test above), so the page must have loaded first.
  await expect(page.getByTestId('basic-form')).toBeVisible();
  await logoutElsewhere(page, request);
  await page.getByTestId('basic-save').click();
  await expect(page.getByTestId('session-timeout-ok')).toBeVisible();
  await page.getByTestId('session-timeout-ok').click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('login-page-admin')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expect(page.locator('.arco-modal')).toHaveCount(0);
  // The session starts again, and a later timeout shows the modal again.
  await page.getByTestId('login-account').fill('admin');
  await page.getByTestId('login-password').fill(E2E_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await page.getByTestId('basic-save').click();
  await seeToast(page, '保存成功');
  await logoutElsewhere(page, request);
  await page.getByTestId('basic-save').click();
  await expect(page.getByTestId('session-timeout-ok')).toBeVisible();
});

test('a reseller logged out elsewhere (English): OK on the modal goes to /reseller', async ({ page, request }) => {
  const reseller = await createReseller('sess4');
  await useSession(page, reseller.token, 'reseller', '/user/center?tab=certification');
  await expect(page.getByTestId('cert-form')).toBeVisible();
  // In English this time.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-en-US').click();
  await logoutElsewhere(page, request);
  await page.getByTestId('center-tab-basic').click();
  await page.getByTestId('basic-save').click();
  await expect(page.locator('.arco-modal').filter({ hasText: 'Session timeout' })).toContainText('session timeout, please log in again');
  await seeToast(page, 'Session timed out, please log in again');
  await expect(page.getByTestId('session-timeout-ok')).toHaveText('Log in again');
  await page.getByTestId('session-timeout-ok').click();
  await expect(page).toHaveURL(/\/reseller$/);
  await expect(page.getByTestId('login-page-reseller')).toBeVisible();
});
