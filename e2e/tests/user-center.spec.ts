// User center (docs/SPEC.md §2.4, §5): basic information, password change with its rules, email binding and the
// real-name certification (submit, auditing, view, withdraw).
import { expect, test } from '@playwright/test';
import { api, createUser, loginWithPassword, mailedCode, seeToast, shot, uniqueEmail, useSession } from '../helpers';

test('basic information: name rules, then name and profile saved', async ({ page }) => {
  const user = await createUser('basic');
  await useSession(page, user.token, 'user');
  const form = page.getByTestId('basic-form');
  await expect(page.getByTestId('basic-email')).toHaveText(user.email);
  await expect(page.getByTestId('basic-phone')).toHaveText('未绑定');

  await page.getByTestId('basic-name').fill('');
  await page.getByTestId('basic-save').click();
  await expect(form).toContainText('请输入名称');
  await page.getByTestId('basic-name').fill('a');
  await page.getByTestId('basic-save').click();
  await expect(form).toContainText('名称为2-30位中文、字母、数字、下划线或中划线');
  await page.getByTestId('basic-name').fill('bad name!');
  await expect(form).toContainText('名称为2-30位中文、字母、数字、下划线或中划线');

  await page.getByTestId('basic-name').fill('测试用户_e2e');
  await page.getByTestId('basic-profile').fill('我是端到端测试用户');
  await expect(form).not.toContainText('名称为2-30位');
  await page.getByTestId('basic-save').click();
  await seeToast(page, '保存成功');
  await expect(page.getByTestId('user-center-name')).toHaveText('测试用户_e2e');
  await expect(page.getByTestId('user-menu')).toContainText('测试用户_e2e');
  await shot(page, 'user-center-basic');

  await page.reload();
  await expect(page.getByTestId('basic-name')).toHaveValue('测试用户_e2e');
  await expect(page.getByTestId('basic-profile')).toHaveValue('我是端到端测试用户');
  const info = await fetch(`${new URL(page.url()).origin}/api/v1/user/info`, { headers: { authorization: `Bearer ${user.token}` } });
  expect(((await info.json()) as { data: { name: string } }).data.name).toBe('测试用户_e2e');
});

test('password change: strength rule, confirmation mismatch, wrong old password, then a real change', async ({ page }) => {
  const user = await createUser('pwd', 'Old#pass1');
  await loginWithPassword(page, '/login', user.email, 'Old#pass1');
  await page.goto('/user/center');
  await page.getByTestId('center-tab-security').click();
  await expect(page).toHaveURL(/tab=security$/);
  const form = page.getByTestId('password-form');

  await page.getByTestId('password-submit').click();
  await expect(form).toContainText('请输入原密码');
  await expect(form).toContainText('请输入新密码');
  await expect(form).toContainText('请再次输入新密码');

  await page.getByTestId('password-old').fill('Old#pass1');
  await page.getByTestId('password-new').fill('abc123');
  await page.getByTestId('password-submit').click();
  await expect(form).toContainText('密码至少6位，须包含数字、大小写字母和符号，不能有空格');
  await page.getByTestId('password-new').fill('Has Space#1');
  await expect(form).toContainText('不能有空格');
  await page.getByTestId('password-new').fill('Old#pass1');
  await expect(form).toContainText('新密码不能与原密码相同');

  await page.getByTestId('password-new').fill('New#pass2');
  await page.getByTestId('password-confirm').fill('New#pass3');
  await page.getByTestId('password-submit').click();
  await expect(form).toContainText('两次密码不一致');
  await shot(page, 'user-center-password-rules');

  // The server checks the old password.
  await page.getByTestId('password-old').fill('Wrong#pass1');
  await page.getByTestId('password-confirm').fill('New#pass2');
  await expect(form).not.toContainText('两次密码不一致');
  await page.getByTestId('password-submit').click();
  await seeToast(page, '原密码错误');

  await page.getByTestId('password-old').fill('Old#pass1');
  await page.getByTestId('password-submit').click();
  await seeToast(page, '密码修改成功');
  await expect(page.getByTestId('password-old')).toHaveValue('');

  // This session stays; the API-made one of the same user ended; the new password signs in.
  await page.reload();
  await expect(page.getByTestId('password-form')).toBeVisible();
  expect((await api('/user/info', {}, user.token)).code).not.toBe(0);
  expect((await api('/auth/login', { account: user.email, password: 'Old#pass1', channel: 'user' })).code).not.toBe(0);
  expect((await api('/auth/login', { account: user.email, password: 'New#pass2', channel: 'user' })).code).toBe(0);
});

test('email binding: a code mailed to the new address and the current password', async ({ page }) => {
  const user = await createUser('bind');
  const next = uniqueEmail('bound');
  await useSession(page, user.token, 'user', '/user/center?tab=security');
  const form = page.getByTestId('email-form');
  await expect(page.getByTestId('security-email')).toContainText(user.email);

  await page.getByTestId('email-new').fill('nope');
  await page.getByTestId('email-captcha-button').click();
  await expect(form).toContainText('邮箱格式不正确');
  await page.getByTestId('email-new').fill(next);
  await page.getByTestId('email-captcha-button').click();
  await expect(page.getByTestId('email-captcha-button')).toHaveText(/s 后重新获取$/);
  await page.getByTestId('email-code').fill(await mailedCode(next));
  await page.getByTestId('email-password').fill('wrong-password');
  await page.getByTestId('email-submit').click();
  await seeToast(page, '密码错误');
  await page.getByTestId('email-password').fill(user.password);
  await page.getByTestId('email-submit').click();
  await seeToast(page, '邮箱绑定成功');
  await expect(page.getByTestId('security-email')).toContainText(next);
  await page.getByTestId('center-tab-basic').click();
  await expect(page.getByTestId('basic-email')).toHaveText(next);
});

test('real-name certification: submit, auditing, view, withdraw, submit again', async ({ page }) => {
  const user = await createUser('cert');
  await useSession(page, user.token, 'user');
  await page.getByTestId('center-tab-certification').click();
  await expect(page.getByTestId('cert-panel')).toBeVisible();
  await expect(page.getByTestId('cert-form')).toBeVisible();
  const table = page.getByTestId('cert-table');

  await page.getByTestId('cert-submit').click();
  await expect(page.getByTestId('cert-form')).toContainText('请输入真实姓名');
  await expect(page.getByTestId('cert-form')).toContainText('请输入证件号码');
  await page.getByTestId('cert-real-name').fill('张三');
  await page.getByTestId('cert-id-number').fill('11-01');
  await page.getByTestId('cert-submit').click();
  await expect(page.getByTestId('cert-form')).toContainText('证件号码格式不正确');

  await page.getByTestId('cert-id-type').click();
  await page.locator('.arco-select-option').filter({ hasText: '护照' }).click();
  await page.getByTestId('cert-id-number').fill('E12345678');
  await page.getByTestId('cert-submit').click();
  await seeToast(page, '认证申请已提交，请等待审核');

  // One record, auditing; no new request while it is.
  await expect(table.getByTestId('cert-status-2')).toHaveText('审核中');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table).toContainText('张三');
  await expect(table).toContainText('护照');
  await expect(table).toContainText('E12**5678');
  await expect(page.getByTestId('cert-form')).toHaveCount(0);
  await expect(page.getByTestId('cert-panel')).toContainText('已有审核中或已通过的认证，无需重复提交');
  await shot(page, 'user-center-certification');

  // View.
  await table.locator('[data-testid^="cert-view-"]').click();
  const detail = page.locator('.arco-drawer').filter({ hasText: '认证详情' });
  await expect(detail).toBeVisible();
  await expect(detail).toContainText('张三');
  await expect(detail).toContainText('审核中');
  await detail.locator('.arco-drawer-close-icon').click();
  await expect(detail).toBeHidden();

  // Withdraw (with its confirmation).
  await table.locator('[data-testid^="cert-withdraw-"]').click();
  const confirm = page.locator('.arco-popconfirm').filter({ hasText: '确定撤回该认证申请吗？' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: '确定' }).click();
  await seeToast(page, '已撤回');
  await expect(table.getByTestId('cert-status-3')).toHaveText('已撤回');
  await expect(table.locator('[data-testid^="cert-withdraw-"]')).toHaveCount(0);
  await expect(page.getByTestId('cert-form')).toBeVisible();

  // A new request is possible again.
  await page.getByTestId('cert-real-name').fill('张三');
  await page.getByTestId('cert-id-number').fill('110101199001011234');
  await page.getByTestId('cert-submit').click();
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.getByTestId('cert-status-2')).toBeVisible();
});
