// Issue 15 part 8, the polish, at 1280×720 and 390×844 in zh-CN and en-US (viewports.ts): one title and header
// convention (list: the screen's name, Create first; form: "新建 X" with Submit before Cancel; detail:
// "X 详情 · name" with Back before Edit), Chinese copy in full-width punctuation, the license email error in
// the page's language, the Top 10 naming users and apps (the id in small print), breadcrumbs without
// repeats, a short page that does not scroll, the colour picker inside the settings drawer and the whole
// captcha countdown.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { shot, uniqueEmail, useSession } from '../helpers';
import { COMBOS, comboPage, pick, slug, type Combo } from '../viewports';
import { createWorld, ok, type World } from '../world';

/** How far the page scrolls past the window (0 when it fits). */
const overscroll = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
const cardTitle = (card: Locator) => card.locator('.arco-card-header-title').first();
/** Whether `a` comes before `b` in the document. */
async function before(a: Locator, b: Locator): Promise<boolean> {
  const other = await b.elementHandle();
  return a.evaluate((x, y) => !!(x.compareDocumentPosition(y!) & Node.DOCUMENT_POSITION_FOLLOWING), other);
}
/** Half-width punctuation touching Chinese text (what locale/punctuation.test.ts forbids in the tables). */
const MIXED = /[\u4e00-\u9fff][,;:!?()]|[,;:!?()] ?[\u4e00-\u9fff]/g;

let w: World;
let tag: string;
let agentId: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  tag = `pol${Date.now().toString(36)}`;
  // A dear model, so the caller ranks in the Top 10 whatever else the run has spent.
  w = await createWorld({ tag, quotas: { text_quota: { billing_method: 1, prompt_ratio: 100, completion_ratio: 100 } } });
  await w.openai.chat.completions.create({ model: w.model, messages: [{ role: 'user', content: `Rank me first, ${tag}.` }] });
  agentId = (await ok<{ items: { id: string }[] }>('/model/agent/page', { current: 1, pageSize: 20, name: w.agentName }, w.admin)).items[0]!.id;
  // The statistics job (every 10 s) ranks today's call.
  await expect
    .poll(async () => (await ok<{ items: { total: number }[] }>('/finance/bill/page', { current: 1, pageSize: 20 }, w.user.token)).items[0]?.total ?? 0, { timeout: 60_000, intervals: [1000, 2000] })
    .toBe(1);
});

for (const combo of COMBOS) {
  test(`polish at ${combo.name}`, async ({ browser }) => {
    test.setTimeout(120_000);
    const page = await comboPage(browser, combo, w.admin, 'admin', '/corp/list');
    await titles(page, combo);
    await punctuation(page, combo);
    await licenseEmail(page, combo);
    await topTen(page, combo);
    await layout(page, combo);
    await captcha(page, combo);
    await page.context().close();
  });
}

async function titles(page: Page, combo: Combo) {
  await test.step('list, form and detail share one title and header convention', async () => {
    const list = page.getByTestId('resource-table');
    await expect(cardTitle(list)).toHaveText(pick(combo, { 'zh-CN': '公司列表', 'en-US': 'Corp list' }));
    // Create is the toolbar's first action.
    const create = page.getByTestId('resource-create');
    await expect(create).toHaveText(pick(combo, { 'zh-CN': '新建', 'en-US': 'Create' }));
    expect(await create.evaluate((b) => b.closest('.arco-space-item')?.previousElementSibling ?? null)).toBeNull();
    await shot(page, `polish-list-${slug(combo)}`);

    await create.click();
    const form = page.getByTestId('resource-form-create');
    await expect(cardTitle(form)).toHaveText(pick(combo, { 'zh-CN': '新建公司', 'en-US': 'Create corp' }));
    await expect(page.getByTestId('form-submit')).toHaveText(pick(combo, { 'zh-CN': '提交', 'en-US': 'Submit' }));
    expect(await before(page.getByTestId('form-submit'), page.getByTestId('form-cancel'))).toBe(true);
    await shot(page, `polish-form-${slug(combo)}`);

    await page.goto(`/agent/detail?id=${agentId}`);
    const detail = page.getByTestId('agent-detail');
    await expect(cardTitle(detail)).toHaveText(`${pick(combo, { 'zh-CN': '代理详情', 'en-US': 'Agent detail' })} · ${w.agentName}`);
    await expect(page.getByTestId('agent-detail-back')).toHaveText(pick(combo, { 'zh-CN': '返回列表', 'en-US': 'Back to the list' }));
    await expect(page.getByTestId('agent-detail-edit')).toHaveText(pick(combo, { 'zh-CN': '编辑', 'en-US': 'Edit' }));
    expect(await before(page.getByTestId('agent-detail-back'), page.getByTestId('agent-detail-edit'))).toBe(true);
    await shot(page, `polish-detail-${slug(combo)}`);
  });
}

async function punctuation(page: Page, combo: Combo) {
  if (combo.lang !== 'zh-CN') return;
  await test.step('Chinese copy on screen uses full-width punctuation', async () => {
    const screens = ['/model/create', '/group/create', '/agent/create', `/agent/detail?id=${agentId}`, '/sys/site/config/create', '/sys/config', '/user/center?tab=security', '/dashboard/workplace'];
    for (const path of screens) {
      await page.goto(path);
      await expect(page.locator('.arco-card').first()).toBeVisible();
      await expect(page.locator('.arco-spin-loading')).toHaveCount(0);
      const text = await page.locator('.arco-layout-content').innerText();
      expect(text.match(MIXED), path).toBeNull();
    }
  });
}

async function licenseEmail(page: Page, combo: Combo) {
  await test.step('the license email error is in the page’s language, without the field’s API name', async () => {
    await page.goto('/license/create');
    await page.getByTestId('license-email').fill('not-an-email');
    await page.getByTestId('license-email').blur();
    const error = page.locator('.arco-form-item').filter({ has: page.getByTestId('license-email') }).locator('.arco-form-message');
    await expect(error).toHaveText(pick(combo, { 'zh-CN': '邮箱格式不正确', 'en-US': 'Invalid email address' }));
  });
}

async function topTen(page: Page, combo: Combo) {
  await test.step('the Top 10 names users and apps, the id in small print', async () => {
    await page.goto('/dashboard/workplace');
    const top = page.getByTestId('workplace-top');
    await expect(page.getByTestId('top-type-user')).toHaveClass(/arco-radio-checked/);
    const caller = top.locator('[data-testid^=top-name-]').filter({ hasText: `Caller-${tag}` });
    await expect(caller).toHaveText(`Caller-${tag}ID ${w.user.userId}`);
    await expect(top.locator('.arco-table-th').first()).not.toContainText('ID');
    await caller.scrollIntoViewIfNeeded();
    await shot(page, `polish-top10-admin-${slug(combo)}`, { fullPage: false });

    // A user ranks its apps by name.
    await useSession(page, w.user.token, 'user', '/dashboard/workplace');
    await expect(page.getByTestId('top-type-app')).toHaveClass(/arco-radio-checked/);
    await expect(page.getByTestId('top-name-1')).toHaveText(`E2E app ${tag}ID ${w.appId}`);
    await useSession(page, w.admin, 'admin', '/dashboard/workplace');
  });
}

async function layout(page: Page, combo: Combo) {
  await test.step('breadcrumbs do not repeat; a short page does not scroll; the colour picker stays in the drawer', async () => {
    await page.goto('/app/key');
    await expect(page.getByTestId('resource-table')).toBeVisible();
    const crumbs = await page.getByTestId('breadcrumb').locator('.arco-breadcrumb-item').allInnerTexts();
    expect(new Set(crumbs).size).toBe(crumbs.length);
    if (crumbs.length) expect(crumbs).toEqual([pick(combo, { 'zh-CN': '应用密钥', 'en-US': 'App keys' })]);

    await page.goto('/finance/bill_detail');
    await expect(page.getByTestId('record-unavailable-missingId')).toBeVisible();
    expect(await overscroll(page)).toBeLessThanOrEqual(0);

    // On a phone the settings fold into the user menu.
    if (combo.phone) {
      await page.getByTestId('user-menu').click();
      await page.getByTestId('user-menu-settings').click();
    } else await page.getByTestId('settings-button').click();
    await expect(page.locator('.arco-drawer:visible')).toBeVisible();
    await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
    await page.getByTestId('settings-themeColor').click();
    const panel = page.locator('.arco-color-picker-panel:visible');
    await expect(panel).toBeVisible();
    await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
    const column = (await page.getByTestId('settings-shades').boundingBox())!;
    const box = (await panel.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(column.x - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(column.x + column.width + 1);
    await shot(page, `polish-settings-${slug(combo)}`, { fullPage: false });
    await page.keyboard.press('Escape');
  });
}

async function captcha(page: Page, combo: Combo) {
  await test.step('the captcha countdown shows its whole text', async () => {
    await useSession(page, w.user.token, 'user', '/user/center?tab=security');
    await page.getByTestId('email-new').fill(uniqueEmail('polish'));
    const button = page.getByTestId('email-captcha-button');
    await button.click();
    await expect(button).toContainText(pick(combo, { 'zh-CN': '后重新获取', 'en-US': 'Resend in' }));
    await expect(button).toBeDisabled();
    // The text fits inside the button's padding (a squeezed button lets it run into the padding).
    const fits = await button.evaluate((b) => {
      const range = document.createRange();
      range.selectNodeContents(b);
      const style = getComputedStyle(b);
      return range.getBoundingClientRect().width <= b.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) + 0.5;
    });
    expect(fits).toBe(true);
    await button.scrollIntoViewIfNeeded();
    await shot(page, `polish-captcha-${slug(combo)}`, { fullPage: false });
  });
}
