// The three login screens (docs/SPEC.md §2, §4): password and code sign-in, auto-registration by code,
// the register and forget-password forms, errors and the captcha button's sending state and countdown.
import { expect, test } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../env';
import { api, createReseller, createUser, loginWithPassword, mailCount, mailedCode, seeToast, shot, uniqueEmail } from '../helpers';

test('an admin signs in on /admin and lands in the console', async ({ page }) => {
  await page.goto('/admin');
  await expect(page.getByTestId('login-page-admin')).toBeVisible();
  await expect(page.getByTestId('login-title')).toHaveText('管理员登录');
  await expect(page.getByTestId('login-note')).toHaveText('如无账号请联系管理员');
  await expect(page.getByTestId('login-register-link')).toHaveCount(0);
  await shot(page, 'login-admin');

  await page.getByTestId('login-account').fill('admin');
  await page.getByTestId('login-password').fill(E2E_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await seeToast(page, '登录成功');
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await expect(page.getByTestId('user-center')).toContainText('管理员');
  await expect(page.getByTestId('user-center-name')).toHaveText('Administrator');
  expect(await page.evaluate(() => [localStorage.getItem('userRole'), localStorage.getItem('token')?.length ?? 0])).toEqual(['admin', expect.any(Number)]);
  await shot(page, 'console-admin');

  // Logging out returns to the admin screen.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/admin$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an admin code login for an unknown email answers like any other and mails nothing', async ({ page }) => {
  const email = uniqueEmail('nobody');
  await page.goto('/admin');
  await page.getByTestId('login-tab-code').click();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('captcha-button').click();
  // The same answer as for a known admin: the screen tells nobody which addresses have accounts.
  await seeToast(page, '验证码已发送');
  await page.waitForTimeout(300);
  expect(await mailCount(email)).toBe(0);
  await page.getByTestId('login-code').fill('123456');
  await page.getByTestId('login-submit').click();
  await seeToast(page, '验证码错误或已过期');
});

test('a reseller signs in on /reseller with an emailed code; an unknown email is not registered there', async ({ page }) => {
  const reseller = await createReseller('codein');
  await page.goto('/reseller');
  await expect(page.getByTestId('login-title')).toHaveText('代理商登录');
  // Reseller self-registration is off by default, and so is registration by code sign-in.
  await expect(page.getByTestId('login-register-link')).toHaveCount(0);
  await expect(page.getByTestId('login-forget-link')).toBeVisible();
  await page.getByTestId('login-tab-code').click();
  const stranger = uniqueEmail('would-be-reseller');
  await page.getByTestId('login-email').fill(stranger);
  await page.getByTestId('captcha-button').click();
  await seeToast(page, '验证码已发送');
  await page.waitForTimeout(300);
  expect(await mailCount(stranger)).toBe(0);

  await page.reload();
  await page.getByTestId('login-tab-code').click();
  await page.getByTestId('login-email').fill(reseller.email);
  const before = await mailCount(reseller.email);
  await page.getByTestId('captcha-button').click();
  await seeToast(page, '验证码已发送');
  await page.getByTestId('login-code').fill(await mailedCode(reseller.email, before));
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await expect(page.getByTestId('user-center')).toContainText('代理商');
  await expect(page.getByTestId('basic-email')).toHaveText(reseller.email);
  expect(await page.evaluate(() => localStorage.getItem('userRole'))).toBe('reseller');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/reseller$/);
});

test('a new user signs in at /login with an emailed code and is registered', async ({ page }) => {
  const email = uniqueEmail('newuser');
  await page.goto('/login');
  await expect(page.getByTestId('login-page-user')).toBeVisible();
  await expect(page.getByTestId('login-title')).toHaveText('登录');
  await expect(page.getByTestId('login-note')).toHaveText('未注册的邮箱使用验证码登录时将自动注册');
  await page.getByTestId('login-tab-code').click();

  // The form checks the email before sending.
  await page.getByTestId('login-email').fill('not-an-email');
  await page.getByTestId('captcha-button').click();
  await expect(page.getByTestId('login-form')).toContainText('邮箱格式不正确');

  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('captcha-button').click();
  const code = await mailedCode(email);
  await page.getByTestId('login-code').fill(code);
  await shot(page, 'login-code');
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await expect(page.getByTestId('basic-email')).toHaveText(email);
  await expect(page.getByTestId('user-center')).toContainText('用户');

  // Registered: the server knows the account, and the code was used up.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await fetch(`${new URL(page.url()).origin}/api/v1/user/info`, { headers: { authorization: `Bearer ${token}` } });
  const info = (await res.json()) as { data: { email: string; role: string; account: string } };
  expect(info.data).toMatchObject({ email, role: 'user', account: email });
  expect((await api('/auth/login', { account: email, code, channel: 'user', method: 'code' })).code).not.toBe(0);

  // A user's logout returns to /login; the console is closed again.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout-button').click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await (await fetch(`${new URL(page.url()).origin}/api/v1/user/info`, { headers: { authorization: `Bearer ${token}` } })).json()) as { code: number }).not.toMatchObject({ code: 0 });
  await page.goto('/user/center');
  await expect(page).toHaveURL(/\/login\?redirect=user\.center$/);
});

test('a user registers through the register form, then signs in with the password', async ({ page }) => {
  const email = uniqueEmail('reg');
  await page.goto('/login');
  await page.getByTestId('login-register-link').click();
  await expect(page.getByTestId('register-form')).toBeVisible();
  await expect(page.getByTestId('login-title')).toHaveText('注册账号');

  // Required fields.
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-form')).toContainText('请输入邮箱');
  await expect(page.getByTestId('register-form')).toContainText('请输入验证码');

  await page.getByTestId('register-email').fill(email);
  await page.getByTestId('register-captcha-button').click();
  await page.getByTestId('register-code').fill(await mailedCode(email));
  await page.getByTestId('register-password').fill('abc');
  await page.getByTestId('register-confirm').fill('abd');
  await page.getByTestId('register-submit').click();
  await expect(page.getByTestId('register-form')).toContainText('密码至少6位');
  await expect(page.getByTestId('register-form')).toContainText('两次密码不一致');

  await page.getByTestId('register-password').fill('Secret#123');
  await page.getByTestId('register-confirm').fill('Secret#123');
  await shot(page, 'register-form');
  await page.getByTestId('register-submit').click();
  await seeToast(page, '注册成功，请登录');
  // Back on the login form with the account filled in.
  await expect(page.getByTestId('login-form')).toBeVisible();
  await expect(page.getByTestId('login-account')).toHaveValue(email);
  await page.getByTestId('login-password').fill('Secret#123');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await expect(page.getByTestId('basic-email')).toHaveText(email);

  // The same email cannot register twice: the answer is the same as for a free one, but no code comes.
  const mailed = await mailCount(email);
  const again = await api('/common/email-code', { email, action: 'register', channel: 'user' });
  expect(again.code).toBe(0);
  await page.waitForTimeout(300);
  expect(await mailCount(email)).toBe(mailed);
});

test('the register form tells a taken email apart by nothing, and its back link returns', async ({ page }) => {
  const { email } = await createUser('taken');
  const before = await mailCount(email);
  await page.goto('/login');
  await page.getByTestId('login-register-link').click();
  await page.getByTestId('register-email').fill(email);
  await page.getByTestId('register-captcha-button').click();
  await seeToast(page, '验证码已发送');
  await page.waitForTimeout(300);
  expect(await mailCount(email)).toBe(before);
  await page.getByTestId('register-back').click();
  await expect(page.getByTestId('login-form')).toBeVisible();
  await expect(page.getByTestId('login-title')).toHaveText('登录');
});

test('a user resets a forgotten password and signs in with the new one', async ({ page }) => {
  const user = await createUser('forget');
  const before = await mailCount(user.email);
  await page.goto('/login');
  await page.getByTestId('login-forget-link').click();
  await expect(page.getByTestId('forget-form')).toBeVisible();
  await expect(page.getByTestId('login-title')).toHaveText('找回密码');
  await page.getByTestId('forget-email').fill(user.email);
  await page.getByTestId('forget-captcha-button').click();
  const code = await mailedCode(user.email, before);

  // A wrong code is refused by the server.
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByTestId('forget-code').fill(wrong);
  await page.getByTestId('forget-password').fill('NewSecret#1');
  await page.getByTestId('forget-confirm').fill('NewSecret#1');
  await page.getByTestId('forget-submit').click();
  await seeToast(page, '验证码错误或已过期');

  await page.getByTestId('forget-code').fill(code);
  await page.getByTestId('forget-submit').click();
  await seeToast(page, '密码已重置，请登录');
  await expect(page.getByTestId('login-account')).toHaveValue(user.email);

  // The old password no longer works (and the old session ended); the new one does.
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await seeToast(page, '账号或密码错误');
  expect((await api('/user/info', {}, user.token)).code).not.toBe(0);
  await page.getByTestId('login-password').fill('NewSecret#1');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();
  await page.goto('/user/center');
  await expect(page.getByTestId('basic-email')).toHaveText(user.email);
});

test('a wrong password shows the server message and keeps the user signed out', async ({ page }) => {
  const user = await createUser('wrongpw');
  await page.goto('/login');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-form')).toContainText('请输入账号或邮箱');
  await expect(page.getByTestId('login-form')).toContainText('请输入密码');

  await page.getByTestId('login-account').fill(user.email);
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await seeToast(page, '账号或密码错误');
  await shot(page, 'login-wrong-password');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // The right password still works.
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();
});

test('the captcha button shows its sending state and a 60 s countdown', async ({ page }) => {
  const email = uniqueEmail('captcha');
  // Hold the request briefly so the sending state can be seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/common/email-code', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login');
  await page.getByTestId('login-tab-code').click();
  await page.getByTestId('login-email').fill(email);
  const button = page.getByTestId('captcha-button');
  await expect(button).toHaveText('获取验证码');
  await button.click();
  await expect(button).toHaveText('发送中');
  await expect(button).toHaveClass(/arco-btn-loading/);
  release();
  await seeToast(page, '验证码已发送');
  await expect(button).toHaveText(/^(60|59)s 后重新获取$/);
  await expect(button).toBeDisabled();
  // The countdown runs once a second.
  await expect(button).toHaveText(/^5[0-8]s 后重新获取$/, { timeout: 4_000 });
  await expect(button).toBeDisabled();
  await shot(page, 'captcha-countdown');
  expect(await mailCount(email)).toBe(1);
  await page.unroute('**/api/v1/common/email-code');
});

test('signing in with a password on /reseller works for a reseller account', async ({ page }) => {
  // A reseller the admin made: its password reset through the reseller's forget flow.
  const { email } = await createReseller('rpw');
  const before = await mailCount(email);
  await api('/common/email-code', { email, action: 'forget_password', channel: 'reseller' });
  expect((await api('/auth/forget', { account: email, code: await mailedCode(email, before), password: 'Reseller#1', channel: 'reseller' })).code).toBe(0);

  await loginWithPassword(page, '/reseller', email, 'Reseller#1');
  await page.goto('/user/center');
  await expect(page.getByTestId('user-center')).toContainText('代理商');
  // The same account is not a user: /login refuses it.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/login');
  await page.getByTestId('login-account').fill(email);
  await page.getByTestId('login-password').fill('Reseller#1');
  await page.getByTestId('login-submit').click();
  await seeToast(page, '账号或密码错误');
});
