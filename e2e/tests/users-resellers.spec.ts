// Users and resellers (docs/SPEC.md §2.2 user.*, sys.reseller.*; docs/ORIGINAL-API.md §3.1): an admin creates a reseller in
// the console and gives it quota; the reseller signs in at /reseller, creates a user and allocates part
// of its quota to it; the user signs in and sees the balance and the deal record in the user center.
import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin, loginWithPassword, seeToast, shot } from '../helpers';

const rows = (page: Page) => page.locator('.arco-table-tr').filter({ has: page.locator('[data-testid^=row-actions-]') });

async function fillAccount(page: Page, a: { account: string; name: string; email: string; password: string; quota?: string }) {
  await page.getByTestId('user-account').fill(a.account);
  await page.getByTestId('user-name').fill(a.name);
  await page.getByTestId('user-email').fill(a.email);
  await page.getByTestId('user-password').fill(a.password);
  if (a.quota) await page.getByTestId('user-quota').fill(a.quota);
}

async function signOut(page: Page) {
  await page.evaluate(() => localStorage.clear());
}

test('admin creates and funds a reseller; the reseller creates and funds a user; the user sees its quota', async ({ page }) => {
  const tag = Date.now().toString(36);
  const reseller = { account: `res_${tag}`, name: `Res${tag}`, email: `res_${tag}@e2e.test`, password: 'secret12' };
  const user = { account: `usr_${tag}`, name: `Usr${tag}`, email: `usr_${tag}@e2e.test`, password: 'secret34' };

  // Admin: create the reseller with $10, then recharge $5 more from the list.
  await loginAsAdmin(page);
  await page.goto('/sys/reseller/create');
  await fillAccount(page, { ...reseller, quota: '5000000' });
  await expect(page.getByTestId('quota-preview').first()).toHaveText('$10');
  await page.getByTestId('form-submit').click();
  await seeToast(page, /创建成功|Created/);
  const resRow = rows(page).filter({ hasText: reseller.account });
  await expect(resRow).toContainText('$10');
  await resRow.getByRole('button', { name: '充值' }).click();
  const dialog = page.getByTestId('recharge-dialog');
  await dialog.getByTestId('recharge-quota').fill('2500000');
  await dialog.getByRole('button', { name: /确定|OK/ }).click();
  await expect(resRow).toContainText('$15');
  await shot(page, 'reseller-list');

  // Reseller: sign in at /reseller, create a user with $4 and allocate $1 more.
  await signOut(page);
  await loginWithPassword(page, '/reseller', reseller.account, reseller.password);
  await page.goto('/user/create');
  await fillAccount(page, { ...user, quota: '2000000' });
  await page.getByTestId('form-submit').click();
  await seeToast(page, /创建成功|Created/);
  const userRow = rows(page).filter({ hasText: user.account });
  await expect(userRow).toContainText('$4');
  await userRow.getByRole('button', { name: '充值' }).click();
  await expect(page.getByTestId('recharge-dialog')).toContainText('代理商余额');
  await page.getByTestId('recharge-quota').fill('500000');
  await page.getByTestId('recharge-dialog').getByRole('button', { name: /确定|OK/ }).click();
  await expect(userRow).toContainText('$5');
  // More than the reseller holds is refused.
  await userRow.getByRole('button', { name: '充值' }).click();
  await page.getByTestId('recharge-quota').fill('500000000');
  await page.getByTestId('recharge-dialog').getByRole('button', { name: /确定|OK/ }).click();
  await seeToast(page, '代理商额度不足');
  await page.getByTestId('recharge-dialog').getByRole('button', { name: /取消|Cancel/ }).click();
  await expect(userRow).toContainText('$5');
  await shot(page, 'reseller-users');

  // The admin sees the reseller's allocation.
  await signOut(page);
  await loginAsAdmin(page);
  await page.goto('/sys/reseller/list');
  const after = rows(page).filter({ hasText: reseller.account });
  await expect(after).toContainText('$10');
  await expect(after).toContainText('$5');

  // The user: balance and the deal record in the user center.
  await signOut(page);
  await loginWithPassword(page, '/login', user.account, user.password);
  await page.goto('/user/center');
  await page.getByTestId('center-tab-recharge').click();
  await expect(page.getByTestId('center-quota')).toHaveText('$5');
  await expect(page.getByTestId('center-recharge').locator('.arco-table-tr')).toHaveCount(3);
  await shot(page, 'user-center-recharge');
});
