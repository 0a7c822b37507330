// VIP levels and licenses (docs/SPEC.md §2): a reseller creates a VIP level in the form; a user of that
// reseller sees it in the VIP center and the user center header; an admin pastes a tampered license
// into license info and sees it rejected (and a good one installed).
import { expect, test } from '@playwright/test';
import { USER_PREFIX } from '@fastgate/core/entities/user';
import { E2E_ADMIN_PASSWORD, BASE_URL } from '../env';
import { createReseller, loginAsAdmin, seeToast, shot, uniqueEmail, useSession } from '../helpers';
import { showColumns } from '../list-ui';

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** A signed-in console call with the XSRF cookie echoed, as the console sends it. */
async function call<T>(token: string, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const health = await fetch(`${BASE_URL}/health`);
  const xsrf = (health.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN=')) ?? '').split(';')[0]!.split('=')[1] ?? '';
  const res = await fetch(`${BASE_URL}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const env = (await res.json()) as Envelope<T>;
  expect(env.code, env.message).toBe(0);
  return env.data;
}

async function login(channel: 'admin' | 'user', account: string, password: string): Promise<string> {
  const res = await fetch(`${BASE_URL}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account, password, channel, method: 'account' }) });
  const env = (await res.json()) as Envelope<{ token: string }>;
  expect(env.code, env.message).toBe(0);
  return env.data.token;
}

test('a reseller creates a VIP level; its user sees it in the VIP center', async ({ page }) => {
  // Its cost price is 80 % of list, so an 85 % level is allowed (issue 13's floor).
  const reseller = await createReseller('vipr', { floor: 80 });
  const level = `金卡${Date.now().toString(36).slice(-4)}`;
  await useSession(page, reseller.token, 'reseller', '/sys/vip/list');
  await expect(page.getByTestId('resource-table')).toBeVisible();
  await page.getByTestId('resource-create').click();
  await expect(page).toHaveURL(/\/sys\/vip\/create$/);
  await page.getByTestId('vip-name').fill(level);
  await page.getByTestId('vip-discount').fill('85');
  await page.getByTestId('vip-duration').fill('43200');
  await page.getByTestId('vip-default').click();
  await page.getByTestId('vip-limit-rpm').fill('60');
  await shot(page, 'vip-form');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await expect(page).toHaveURL(/\/sys\/vip\/list$/);
  const row = page.locator('.arco-table-tr').filter({ hasText: level });
  await expect(row).toContainText('85%');
  await expect(row).toContainText('RPM 60');
  await shot(page, 'vip-list');

  // A second level whose rule upgrades to the first once $10 is recharged.
  await page.getByTestId('resource-create').click();
  await page.getByTestId('vip-name').fill(`${level}-入门`);
  await page.getByTestId('vip-rule-add').click();
  await page.getByTestId('vip-rule-recharge-0').fill('5000000');
  await page.getByTestId('vip-rule-target-0').click();
  await page.locator('.arco-select-option').filter({ hasText: level }).first().click();
  await shot(page, 'vip-form-rule');
  await page.getByTestId('form-submit').click();
  await seeToast(page, '创建成功');
  await showColumns(page, 'rules');
  await expect(page.locator('.arco-table-tr').filter({ hasText: `${level}-入门` })).toContainText(`升级 → ${level}`);

  // A user of this reseller: the reseller's default level applies to it.
  const email = uniqueEmail('vipu');
  await call(reseller.token, 'POST', `${USER_PREFIX}/create`, { name: 'VIP-user', account: email, email, password: 'Passw0rd!' });
  const userToken = await login('user', email, 'Passw0rd!');
  await useSession(page, userToken, 'user', '/vip/center');
  await expect(page.getByTestId('vip-center-badge')).toHaveText(level);
  await expect(page.getByTestId('vip-center-discount')).toHaveText('85%');
  await expect(page.getByTestId('vip-center')).toContainText('RPM 60');
  await expect(page.getByTestId('vip-center-levels')).toContainText(level);
  await shot(page, 'vip-center');
  await page.goto('/user/center');
  await expect(page.getByTestId('user-center-vip')).toHaveText(level);
});

test('an admin pastes a tampered license in license info and sees it rejected', async ({ page }) => {
  const token = await login('admin', 'admin', E2E_ADMIN_PASSWORD);
  const { id } = await call<{ id: string }>(token, 'POST', '/license/create', { name: 'E2E License', user_count: 0, expires_at: '2099-01-01 00:00:00' });
  const lic = await call<{ secret_key: string }>(token, 'GET', `/license/detail?id=${id}`);
  const [tag, body, sig] = lic.secret_key.split('.') as [string, string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  const tampered = `${tag}.${Buffer.from(JSON.stringify({ ...payload, user_count: 999999 })).toString('base64url')}.${sig}`;

  await loginAsAdmin(page);
  await page.goto('/sys/license/info');
  await expect(page.getByTestId('license-state')).toHaveText('未安装授权');
  await expect(page.getByTestId('license-none')).toBeVisible();
  await page.getByTestId('license-secret-key').fill(tampered);
  await page.getByTestId('license-install').click();
  await expect(page.getByTestId('license-install-error')).toContainText('授权密钥校验失败');
  await shot(page, 'license-tampered');
  // A truncated one: must be complete.
  await page.getByTestId('license-secret-key').fill(lic.secret_key.slice(0, -8));
  await page.getByTestId('license-install').click();
  await expect(page.getByTestId('license-install-error')).toContainText('授权密钥必须完整');
  // The genuine one installs.
  await page.getByTestId('license-secret-key').fill(lic.secret_key);
  await page.getByTestId('license-install').click();
  await seeToast(page, '授权已安装');
  await expect(page.getByTestId('license-state')).toHaveText('有效');
  await expect(page.getByTestId('license-info')).toContainText('E2E License');
  await shot(page, 'license-info');
});
