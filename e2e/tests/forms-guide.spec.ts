// Forms that guide (issue 15 part 3, docs/SPEC.md §5): the browser checks each rule with the item's label and a
// message, as the server does — the display name on the user and reseller forms, user IP lists, the quota
// warning thresholds, group weight 1–100 (shown, not clamped) and the VIP rule's threshold and target. A failed
// submit scrolls its first error below the fixed navbar, and a server field error lands on its item under
// the item's label, never the API field name. Every check at 1280×720 and 390×844, in zh-CN and en-US (viewports.ts).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { seeToast, shot, uniqueEmail } from '../helpers';
import { adminToken } from '../world';
import { COMBOS, comboPage, pick, slug, type Combo } from '../viewports';

const NAVBAR = 60;
/** Screenshots of what the viewport shows after the scroll (a full page would draw the fixed navbar mid-page). */
const VIEWPORT = { fullPage: false };

/** The form item holding the control with this test id. */
const item = (page: Page, testId: string): Locator => page.locator('.arco-form-item').filter({ has: page.getByTestId(testId) }).last();
const errorOf = (page: Page, testId: string): Locator => item(page, testId).locator('.arco-form-message').first();

async function fillAccount(page: Page, name: string) {
  const email = uniqueEmail('guide');
  await page.getByTestId('user-account').fill(email.split('@')[0]!);
  await page.getByTestId('user-name').fill(name);
  await page.getByTestId('user-email').fill(email);
  await page.getByTestId('user-password').fill('secret12');
}

/** Submit from the bottom of the page, as someone who filled the form in would. */
async function submitFromBottom(page: Page) {
  await page.getByTestId('form-submit').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.getByTestId('form-submit').click();
}

/** The item is in view and clear of the fixed navbar once the smooth scroll has settled. */
async function expectBelowNavbar(page: Page, locator: Locator) {
  const height = page.viewportSize()!.height;
  await expect
    .poll(async () => {
      const box = await locator.boundingBox();
      return box !== null && box.y >= NAVBAR && box.y + box.height <= height;
    })
    .toBe(true);
}

/** What the forms say, in each language. */
const TEXT = {
  'zh-CN': {
    name: '名称为2-30位中文、字母、数字、下划线或中划线',
    ip: 'IP 格式不正确：not-an-ip',
    threshold: '开启额度预警时请输入预警阈值',
    serverAnswer: '参数 email 不正确：该邮箱已被使用',
    serverDetail: '该邮箱已被使用',
    serverShown: '邮箱：该邮箱已被使用',
    weight: '权重为 1 到 100 的整数',
    vipThreshold: '充值额度或消费额度至少填写一个',
    vipTarget: '请选择目标等级',
  },
  'en-US': {
    name: 'Name: 2 to 30 Chinese characters, letters, digits, underscores or hyphens',
    ip: 'Invalid IP entry: not-an-ip',
    threshold: 'Enter the warning threshold while quota warnings are on',
    serverAnswer: 'Invalid field email: The address is taken',
    serverDetail: 'The address is taken',
    serverShown: 'Email: The address is taken',
    weight: 'Weight: a whole number from 1 to 100',
    vipThreshold: 'Give a recharged or a used quota',
    vipTarget: 'Choose the target level',
  },
};

let admin: string;
test.beforeAll(async () => {
  admin = await adminToken();
});

for (const combo of COMBOS) {
  test(`forms that guide at ${combo.name}`, async ({ browser }) => {
    const text = pick(combo, TEXT);
    const page = await comboPage(browser, combo, admin, 'admin', '/user/create');
    await userForm(page, combo, text);
    await resellerForm(page, text);
    await serverFieldError(page, combo, text);
    await groupWeight(page, combo, text);
    await vipRule(page, combo, text);
    await page.context().close();
  });
}

type Text = (typeof TEXT)['zh-CN'];

async function userForm(page: Page, combo: Combo, text: Text) {
  await test.step('user form: display name, IP lists and warning thresholds are checked in the browser', async () => {
    await expect(page.getByTestId('resource-form-create')).toBeVisible();
    for (const bad of ['r', 'bad name!@#']) {
      await fillAccount(page, bad);
      await submitFromBottom(page);
      await expect(errorOf(page, 'user-name')).toHaveText(text.name);
      // The first error scrolled into view below the navbar, not under it.
      await expectBelowNavbar(page, item(page, 'user-name'));
    }
    await shot(page, `forms-guide-user-name-${slug(combo)}`, VIEWPORT);

    await fillAccount(page, '合法名称_ok-1');
    await page.getByTestId('user-ip-whitelist').fill('10.0.0.*\nnot-an-ip');
    await page.getByTestId('user-warning-threshold').fill('');
    await page.getByTestId('user-warning-threshold').blur();
    await submitFromBottom(page);
    await expect(errorOf(page, 'user-name')).toHaveCount(0);
    await expect(errorOf(page, 'user-ip-whitelist')).toHaveText(text.ip);
    await expect(errorOf(page, 'user-warning-threshold')).toHaveText(text.threshold);
    await expectBelowNavbar(page, item(page, 'user-warning-threshold'));
    await shot(page, `forms-guide-user-ip-threshold-${slug(combo)}`, VIEWPORT);
  });
}

async function resellerForm(page: Page, text: Text) {
  await test.step('reseller form: the same display-name rule', async () => {
    await page.goto('/sys/reseller/create');
    await fillAccount(page, 'r');
    await submitFromBottom(page);
    await expect(errorOf(page, 'user-name')).toHaveText(text.name);
    await expectBelowNavbar(page, item(page, 'user-name'));
  });
}

async function serverFieldError(page: Page, combo: Combo, text: Text) {
  await test.step('a server field error lands on its item with the label, not the API field name', async () => {
    await page.goto('/user/create');
    await fillAccount(page, 'Server_field');
    // The server's code-51 answer naming a field the browser cannot check (a taken address, say).
    await page.route('**/api/v1/admin/user/create', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ code: 51, message: text.serverAnswer, data: null }) }));
    await submitFromBottom(page);
    await expect(errorOf(page, 'user-email')).toHaveText(text.serverDetail);
    await expect(page.getByTestId('form-error')).toHaveText(text.serverShown);
    await expect(page.getByTestId('form-error')).not.toContainText('email');
    // The toast says the same, never "参数 email 不正确" / "Invalid field email".
    await seeToast(page, text.serverShown);
    await expect(page.locator('.arco-message').filter({ hasText: text.serverAnswer })).toHaveCount(0);
    await expectBelowNavbar(page, item(page, 'user-email'));
    await shot(page, `forms-guide-server-field-${slug(combo)}`, VIEWPORT);
    await page.unroute('**/api/v1/admin/user/create');
  });
}

async function groupWeight(page: Page, combo: Combo, text: Text) {
  await test.step('group weight 1–100 with a message, not clamped', async () => {
    await page.goto('/group/create');
    await page.getByTestId('group-name').fill(`guide-${Date.now().toString(36)}`);
    for (const weight of ['0', '101']) {
      await page.getByTestId('group-weight').fill(weight);
      await page.getByTestId('group-weight').blur();
      await expect(page.getByTestId('group-weight')).toHaveValue(weight);
      await submitFromBottom(page);
      await expect(errorOf(page, 'group-weight')).toHaveText(text.weight);
    }
    await page.getByTestId('group-weight').fill('50');
    await page.getByTestId('group-weight').blur();
    await expect(errorOf(page, 'group-weight')).toHaveCount(0);
    await page.getByTestId('group-weight').fill('101');
    await submitFromBottom(page);
    await expect(errorOf(page, 'group-weight')).toHaveText(text.weight);
    await expectBelowNavbar(page, item(page, 'group-weight'));
    await shot(page, `forms-guide-group-weight-${slug(combo)}`, VIEWPORT);
  });
}

async function vipRule(page: Page, combo: Combo, text: Text) {
  await test.step('VIP rule: a threshold and a target, each with its message', async () => {
    await page.goto('/sys/vip/create');
    await page.getByTestId('vip-name').fill(`guide-${Date.now().toString(36)}`);
    await page.getByTestId('vip-rule-add').click();
    await submitFromBottom(page);
    const rules = page.locator('.arco-form-item').filter({ has: page.getByTestId('vip-rules') }).last();
    await expect(rules.locator('.arco-form-message')).toContainText(text.vipThreshold);
    await expect(rules.locator('.arco-form-message')).toContainText(text.vipTarget);
    await expectBelowNavbar(page, rules);
    await shot(page, `forms-guide-vip-rule-${slug(combo)}`, VIEWPORT);
    // A used-quota threshold alone satisfies the rule.
    await page.getByTestId('vip-rule-used-0').fill('1000');
    await page.getByTestId('vip-rule-used-0').blur();
    await expect(rules.locator('.arco-form-message')).not.toContainText(text.vipThreshold);
  });
}
