// Two-factor sign-in in a real browser (issue 11): the admin enrols TOTP in the user center (the test
// reads the secret the page shows and computes codes like an authenticator app), signs out, signs in
// with password + code, reveals a provider key through the step-up modal, and finds those actions in
// the audit log. Two-factor is turned off again afterwards: the other specs sign in as this admin.
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { BASE_URL, E2E_ADMIN_PASSWORD } from '../env';
import { api, loginAsAdmin, seeToast, shot } from '../helpers';

const STEP_MS = 30_000;

/** An authenticator app that never offers a time step twice (the server takes each once); waits when it must. */
function authenticator(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  let last = 0;
  return async (): Promise<string> => {
    for (;;) {
      const now = Math.floor(Date.now() / STEP_MS);
      const step = Math.max(last + 1, now);
      if (step <= now + 1) {
        last = step;
        return totp.generate({ timestamp: step * STEP_MS });
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
}

/** A signed-in console POST (XSRF cookie and header, like the console). */
async function signedPost<T>(path: string, body: object, token: string): Promise<T> {
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec((await fetch(`${BASE_URL}/health`)).headers.get('set-cookie') ?? '')?.[1] ?? '';
  const res = await fetch(`${BASE_URL}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': decodeURIComponent(xsrf) },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; message: string; data: T };
  expect(envelope.code, envelope.message).toBe(0);
  return envelope.data;
}

let recovery: string[] = [];

test.afterAll(async () => {
  if (recovery.length < 2) return;
  // Back to password-only sign-in with two recovery codes: one signs in, one turns two-factor off.
  const first = await api<{ ticket: string }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin' });
  const session = await api<{ token: string }>('/auth/login/totp', { ticket: first.data.ticket, code: recovery.at(-1) });
  await signedPost('/user/two-factor/disable', { password: E2E_ADMIN_PASSWORD, code: recovery.at(-2) }, session.data.token);
});

test('admin: enrol TOTP, sign in with a code, step-up before revealing a provider key, audit rows', async ({ page, context }) => {
  // The step-up may wait up to one 30 s time step for a code not used yet.
  test.setTimeout(150_000);
  const tag = Date.now().toString(36);
  const providerKey = `sk-tfa${tag}-secret-aaaa1111`;

  // A provider key to reveal, made through the API while the admin signs in with a password only.
  const login = await api<{ token: string }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin' });
  const corp = await signedPost<{ id: string }>('/corp/create', { name: `TFA Corp ${tag}`, code: 'OpenAI' }, login.data.token);
  await signedPost('/key/create', { type: 2, corp: corp.id, key: providerKey }, login.data.token);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });

  // Enrol in the security tab: password, QR code and secret, a code, ten recovery codes shown once.
  await loginAsAdmin(page);
  await page.goto('/user/center?tab=security');
  await expect(page.getByTestId('tfa-off')).toBeVisible();
  await page.getByTestId('tfa-password').fill('Wrong#pass1');
  await page.getByTestId('tfa-start').click();
  await seeToast(page, '密码错误');
  await page.getByTestId('tfa-password').fill(E2E_ADMIN_PASSWORD);
  await page.getByTestId('tfa-start').click();
  await expect(page.getByTestId('tfa-qr').locator('svg')).toBeVisible();
  const secret = (await page.getByTestId('tfa-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot(page, '2fa-enrol-qr');
  const nextCode = authenticator(secret);
  await page.getByTestId('tfa-code').fill('12345');
  await page.getByTestId('tfa-confirm').click();
  await expect(page.getByTestId('tfa-confirm-form')).toContainText('动态验证码为6位数字');
  await page.getByTestId('tfa-code').fill(await nextCode());
  await page.getByTestId('tfa-confirm').click();
  const codes = page.getByTestId('tfa-recovery-codes').locator('li');
  await expect(codes).toHaveCount(10);
  recovery = (await codes.allInnerTexts()).map((c) => c.trim());
  expect(recovery.every((c) => /^[a-z2-9]{5}-[a-z2-9]{5}$/.test(c))).toBe(true);
  await shot(page, '2fa-recovery-codes');
  await page.getByTestId('tfa-recovery-done').click();
  await expect(page.getByTestId('tfa-enabled')).toBeVisible();
  await expect(page.getByTestId('tfa')).toContainText('剩余恢复码 10 个');
  await expect(page.getByTestId('tfa-recovery-codes')).toHaveCount(0);

  // Sign out; the password alone no longer opens the console: the code step follows.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout-button').click();
  await expect(page.getByTestId('login-page-admin')).toBeVisible();
  await page.getByTestId('login-account').fill('admin');
  await page.getByTestId('login-password').fill(E2E_ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('totp-form')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await shot(page, '2fa-login-code-step');
  await page.getByTestId('totp-code').fill('000000');
  await page.getByTestId('totp-submit').click();
  await seeToast(page, '动态验证码错误或已使用');
  await page.getByTestId('totp-code').fill(await nextCode());
  await page.getByTestId('totp-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();

  // Revealing the provider key asks a fresh code in one modal, then copies the key.
  await page.goto('/key/list');
  const mask = page.locator('[data-testid^=key-mask-]').filter({ hasText: providerKey.slice(0, 10) });
  await expect(mask).toHaveCount(1);
  await mask.locator('button').click();
  await expect(page.getByTestId('step-up-code')).toBeVisible();
  await shot(page, '2fa-step-up-modal');
  await page.getByTestId('step-up-code').fill('000000');
  await page.getByTestId('step-up-ok').click();
  await seeToast(page, '动态验证码错误或已使用');
  await page.getByTestId('step-up-code').fill(await nextCode());
  await page.getByTestId('step-up-ok').click();
  await seeToast(page, '复制成功');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(providerKey);
  await expect(page.getByTestId('step-up-code')).toHaveCount(0);
  // Within the step-up window a second reveal asks nothing.
  await mask.locator('button').click();
  await seeToast(page, '复制成功');
  await expect(page.getByTestId('step-up-code')).toHaveCount(0);

  // The audit log shows the enrolment, the wrong code at sign-in, the sign-in, the step-up and the reveal.
  await page.goto('/sys/audit');
  const grid = page.getByTestId('resource-table-grid');
  for (const action of ['/user/two-factor/confirm', '/auth/login/totp', '/auth/step-up', '/key/copy/field']) await expect(grid).toContainText(action);
  await expect(grid).toContainText('登录失败');
  await expect(grid).toContainText('查看密钥');
  await expect(grid).not.toContainText(providerKey);
  await shot(page, '2fa-audit');
});
