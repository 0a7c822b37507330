// Pickers instead of ids, and status switches that ask before disabling (issue 15 parts 4 and 5): the admin
// creates an app for a user and a user under a reseller by typing part of a name into searchable pickers,
// filters a list by a picker (a chosen id the caller cannot see still shows as its id), a reseller's app
// form offers only its own users, and a model's status switch asks before disabling and toasts each change.
// In zh-CN and en-US at 1440×900, with the picker's dropdown checked on a 390×844 phone.
import { expect, test, type Page } from '@playwright/test';
import { loginAsAdmin, seeToast, useSession } from '../helpers';
import { rows } from '../list-ui';
import { adminToken, ok } from '../world';

const SHOTS = process.env.HC_SHOTS ?? 'test-results/shots';
const snap = async (page: Page, name: string) => {
  await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
};

const options = (page: Page) => page.locator('.arco-select-popup:visible .arco-select-option');

interface Setup {
  admin: string;
  tag: string;
  reseller: { name: string; account: string; userId: number; token: string };
  /** R's user (the one the pickers should find) and a user outside R. */
  mine: { name: string; account: string; userId: number };
  other: { name: string; account: string; userId: number };
  model: { id: string; name: string };
}

async function userId(admin: string, prefix: '/admin/user' | '/admin/reseller', account: string): Promise<number> {
  return (await ok<{ items: { user_id: number }[] }>(`${prefix}/page`, { current: 1, pageSize: 20, account }, admin)).items[0]!.user_id;
}

async function setup(lang: string): Promise<Setup> {
  const admin = await adminToken();
  const tag = `${lang.slice(0, 2)}${Date.now().toString(36)}`;
  const password = 'Passw0rd!';
  const resAccount = `pkres_${tag}`;
  await ok('/admin/reseller/create', { name: `Reseller${tag}`, account: resAccount, email: `${resAccount}@e2e.test`, password, quota: 0 }, admin);
  const resId = await userId(admin, '/admin/reseller', resAccount);
  const resToken = (await ok<{ token: string }>('/auth/login', { account: resAccount, password, channel: 'reseller', method: 'account' })).token;
  const make = async (who: string, rid?: number) => {
    const account = `${who}_${tag}`;
    await ok('/admin/user/create', { name: `${who}${tag}`, account, email: `${account}@e2e.test`, password, quota: 0, ...(rid ? { rid } : {}) }, admin);
    return { name: `${who}${tag}`, account, userId: await userId(admin, '/admin/user', account) };
  };
  const mine = await make('Orchid', resId);
  const other = await make('Outsider');
  const corp = (await ok<{ id: string }>('/corp/create', { name: `PickCorp ${tag}`, code: 'OpenAI', is_public: true }, admin)).id;
  const modelName = `pick-model-${tag}`;
  const model = (await ok<{ id: string }>('/model/create', { corp, name: modelName, model: modelName, type: 1, is_public: true }, admin)).id;
  return { admin, tag, reseller: { name: `Reseller${tag}`, account: resAccount, userId: resId, token: resToken }, mine, other, model: { id: model, name: modelName } };
}

const TEXT = {
  'zh-CN': {
    created: '创建成功',
    modelImpact: '停用后，调用该模型的请求将被拒绝。',
    disabled: '已停用',
    enabled: '已启用',
    publicOn: '已设为公开',
    publicOff: '已取消公开',
  },
  'en-US': {
    created: /Created/,
    modelImpact: 'Once disabled, requests for this model are refused.',
    disabled: 'Disabled',
    enabled: 'Enabled',
    publicOn: 'Made public',
    publicOff: 'No longer public',
  },
} as const;

for (const lang of ['zh-CN', 'en-US'] as const) {
  test(`pickers and confirmed switches (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const s = await setup(lang);
    const tx = TEXT[lang];
    await page.setViewportSize({ width: 1440, height: 900 });
    if (lang === 'en-US') {
      await page.goto('/admin');
      await page.evaluate(() => localStorage.setItem('arco-lang', 'en-US'));
    }
    await loginAsAdmin(page);

    await test.step('an app for a user chosen by typing part of its name', async () => {
      await page.goto('/app/create');
      await page.getByTestId('app-user-id').click();
      await page.keyboard.type(`chid${s.tag}`);
      const option = options(page).filter({ hasText: s.mine.name });
      await expect(option).toHaveCount(1);
      // The option: the name, the account and email, and the id in small print.
      await expect(option).toContainText(s.mine.account);
      await expect(option).toContainText(`ID ${s.mine.userId}`);
      await expect(options(page)).toHaveCount(1);
      await snap(page, `picker-user-open-${lang}`);
      await option.click();
      await expect(page.getByTestId('app-user-id')).toContainText(s.mine.name);
      await page.getByTestId('app-name').fill(`Picked app ${s.tag}`);
      await page.getByTestId('app-create-key').click();
      await page.getByTestId('form-submit').click();
      await seeToast(page, tx.created);
      const apps = await ok<{ items: { name: string; user_id: number }[] }>('/app/page', { current: 1, pageSize: 20, name: `Picked app ${s.tag}` }, s.admin);
      expect(apps.items.map((a) => a.user_id)).toEqual([s.mine.userId]);
    });

    await test.step('a user assigned to a reseller chosen in the picker', async () => {
      await page.goto('/user/create');
      const account = `picked_${s.tag}`;
      await page.getByTestId('user-account').fill(account);
      await page.getByTestId('user-name').fill(`Picked${s.tag}`);
      await page.getByTestId('user-email').fill(`${account}@e2e.test`);
      await page.getByTestId('user-password').fill('Passw0rd!');
      await page.getByTestId('user-quota').fill('0');
      await page.getByTestId('user-rid').click();
      await page.keyboard.type(s.reseller.account.slice(0, 12));
      await options(page).filter({ hasText: `ID ${s.reseller.userId}` }).click();
      await expect(page.getByTestId('user-rid')).toContainText(s.reseller.name);
      await page.getByTestId('form-submit').click();
      await seeToast(page, tx.created);
      const users = await ok<{ items: { rid: number }[] }>('/admin/user/page', { current: 1, pageSize: 20, account }, s.admin);
      expect(users.items.map((u) => u.rid)).toEqual([s.reseller.userId]);
    });

    await test.step('a list filtered by a picker; a chosen id no one can see shows as its id', async () => {
      await page.goto('/app/list');
      await page.getByTestId('filter-user_id').click();
      await page.keyboard.type(s.mine.account);
      await expect(options(page)).toHaveCount(1);
      await snap(page, `picker-filter-app-list-${lang}`);
      await options(page).filter({ hasText: `ID ${s.mine.userId}` }).click();
      await page.getByTestId('search-submit').click();
      await expect(page).toHaveURL(new RegExp(`user_id=${s.mine.userId}`));
      await expect(rows(page)).toHaveCount(1);
      await expect(rows(page)).toContainText(`Picked app ${s.tag}`);
      // From the URL alone (a reload, a shared link) the picker shows the name, resolved by id.
      await page.reload();
      await expect(page.getByTestId('filter-user_id')).toContainText(s.mine.name);
      await page.goto('/app/list?user_id=2147480000');
      await expect(page.getByTestId('filter-user_id')).toContainText('ID 2147480000');
    });

    await test.step('disabling a model asks first; enabling does not; each change toasts', async () => {
      await page.goto(`/model/list?name=${s.model.name}`);
      const sw = page.getByTestId(`status-switch-${s.model.id}`);
      await expect(sw).toHaveAttribute('aria-checked', 'true');
      await sw.click();
      const confirm = page.locator('.arco-popconfirm:visible');
      await expect(confirm.getByTestId('status-confirm-text')).toHaveText(tx.modelImpact);
      await snap(page, `status-confirm-model-${lang}`);
      await confirm.getByTestId('status-confirm-cancel').click();
      await expect(confirm).toHaveCount(0);
      await expect(sw).toHaveAttribute('aria-checked', 'true');
      expect((await ok<{ status: number }>('/model/detail?id=' + s.model.id, {}, s.admin, 'GET')).status).toBe(1);

      // A refused change leaves the switch where it was.
      await page.route('**/api/v1/model/change/status', (route) => route.fulfill({ json: { code: 500, message: 'refused in test', data: null } }));
      await sw.click();
      await page.locator('.arco-popconfirm:visible').getByTestId('status-confirm-ok').click();
      await seeToast(page, 'refused in test');
      await expect(sw).toHaveAttribute('aria-checked', 'true');
      await page.unroute('**/api/v1/model/change/status');

      await sw.click();
      await page.locator('.arco-popconfirm:visible').getByTestId('status-confirm-ok').click();
      await seeToast(page, tx.disabled);
      await expect(sw).toHaveAttribute('aria-checked', 'false');
      expect((await ok<{ status: number }>('/model/detail?id=' + s.model.id, {}, s.admin, 'GET')).status).toBe(2);

      await sw.click();
      await seeToast(page, tx.enabled);
      await expect(page.locator('.arco-popconfirm:visible')).toHaveCount(0);
      await expect(sw).toHaveAttribute('aria-checked', 'true');
      expect((await ok<{ status: number }>('/model/detail?id=' + s.model.id, {}, s.admin, 'GET')).status).toBe(1);
    });

    await test.step('the public switch toasts each change', async () => {
      await page.goto(`/corp/list?name=${encodeURIComponent(`PickCorp ${s.tag}`)}`);
      const pub = rows(page).first().locator('[data-testid^=public-switch-]');
      await expect(pub).toHaveAttribute('aria-checked', 'true');
      await pub.click();
      await seeToast(page, tx.publicOff);
      await expect(pub).toHaveAttribute('aria-checked', 'false');
      await pub.click();
      await seeToast(page, tx.publicOn);
      await expect(pub).toHaveAttribute('aria-checked', 'true');
    });

    await test.step("a reseller's app form offers only its own users", async () => {
      const reseller = await page.context().browser()!.newPage({ viewport: { width: 1440, height: 900 } });
      if (lang === 'en-US') {
        await reseller.goto('/reseller');
        await reseller.evaluate(() => localStorage.setItem('arco-lang', 'en-US'));
      }
      await useSession(reseller, s.reseller.token, 'reseller', '/app/create');
      await reseller.getByTestId('app-user-id').click();
      await reseller.keyboard.type(s.tag);
      // Its two users (the second created above under it), none of anyone else's.
      await expect(options(reseller).filter({ hasText: s.mine.name })).toHaveCount(1);
      await expect(options(reseller).filter({ hasText: `Picked${s.tag}` })).toHaveCount(1);
      await expect(options(reseller)).toHaveCount(2);
      await expect(options(reseller).filter({ hasText: s.other.name })).toHaveCount(0);
      // Typing a foreign user's account finds nothing.
      await reseller.keyboard.press('Control+A');
      await reseller.keyboard.type(s.other.account);
      await expect(reseller.locator('.arco-select-popup:visible')).toContainText(lang === 'zh-CN' ? '没有匹配的结果' : 'No matches');
      await snap(reseller, `picker-reseller-own-users-${lang}`);
      await reseller.close();
    });
  });
}

test('the user picker fits a 390×844 phone', async ({ page }) => {
  const s = await setup('ph');
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAsAdmin(page);
  await page.goto('/app/create');
  await page.getByTestId('app-user-id').click();
  await page.keyboard.type(`chid${s.tag}`);
  await expect(options(page)).toHaveCount(1);
  const popup = await page.locator('.arco-select-popup:visible').boundingBox();
  expect(popup).not.toBeNull();
  expect(popup!.x).toBeGreaterThanOrEqual(0);
  expect(popup!.x + popup!.width).toBeLessThanOrEqual(390);
  await snap(page, 'picker-user-open-phone');
});
