// Tables that fit (issue 15 part 2, and the table half of part 1): on every admin list, at 1280×720 (the
// narrower desktop; 1440×900 is the same breakpoint with more room, viewports.ts), in zh-CN and en-US, no
// header is cut and the default columns fit the card, so the fixed actions column covers nothing (status
// and created time included); column settings hide a column and change the
// density, both kept across a reload, and reset restores them; on a phone the table scrolls sideways
// inside its card with the first column kept in view and the pagination in its simple form.
import { expect, test, type Page } from '@playwright/test';
import { createReseller, shot, useSession } from '../helpers';
import { createWorld, ok, type World } from '../world';

const SCREENS = [
  ['models', '/model/list'],
  ['agents', '/agent/list'],
  ['keys', '/key/list'],
  ['corps', '/corp/list'],
  ['groups', '/group/list'],
  ['apps', '/app/list'],
  ['app-keys', '/app/key'],
  ['users', '/user/list'],
  ['resellers', '/sys/reseller/list'],
  ['vip', '/sys/vip/list'],
  ['licenses', '/license/list'],
  ['site-configs', '/sys/site/config'],
  ['call-logs', '/log/chat'],
  ['tasks', '/task/video'],
  ['bills', '/finance/bill_list'],
  ['deal-records', '/finance/deal_record'],
  ['audit', '/sys/audit'],
] as const;
/** Screens whose rows this spec makes (the others may be empty: their headers are still checked). */
const WITH_ROWS = new Set(['models', 'agents', 'keys', 'corps', 'groups', 'apps', 'app-keys', 'users', 'resellers', 'vip', 'licenses', 'site-configs', 'call-logs', 'deal-records', 'audit']);

const VIEWPORTS = [{ width: 1280, height: 720 }] as const;
const LANGS = ['zh-CN', 'en-US'] as const;

let world: World;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const tag = Date.now().toString(36);
  world = await createWorld({ tag, quotas: { text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } } });
  await world.openai.chat.completions.create({ model: world.model, messages: [{ role: 'user', content: `hello ${tag}` }] });
  await createReseller(`tbl${tag}`);
  await ok('/sys/vip/create', { name: `Gold ${tag}`, discount: 80 }, world.admin);
  await ok('/license/create', { name: `License ${tag}`, user_count: 0, expires_at: '2099-01-01 00:00:00' }, world.admin);
  await ok('/sys/site/create', { domain: `tables-${tag}.e2e.test`, title: `Tables ${tag}` }, world.admin);
});

async function signIn(page: Page, lang: (typeof LANGS)[number]) {
  await useSession(page, world.admin, 'admin', '/dashboard/workplace');
  await page.evaluate((l) => localStorage.setItem('arco-lang', l), lang);
}

const grid = (page: Page) => page.getByTestId('resource-table-grid');

async function openList(page: Page, name: string, path: string) {
  // The call-log list opens on today in TIME_ZONE: a call made minutes earlier, in beforeAll, falls out of it
  // when the zone's midnight passes in between (seen in CI at 16:00 UTC, Asia/Shanghai).
  if (name === 'call-logs') await world.openai.chat.completions.create({ model: world.model, messages: [{ role: 'user', content: 'hello' }] });
  await page.goto(path);
  await expect(grid(page).locator('thead th').first()).toBeVisible();
  if (WITH_ROWS.has(name)) await expect(grid(page).locator('tbody .arco-table-tr').first().locator('.arco-table-td').nth(1)).toBeVisible();
  await expect(grid(page).locator('.arco-spin-loading')).toHaveCount(0);
}

/** What does not fit: header titles cut, cells spilling over, the table wider than its card, columns under the fixed one. */
function misfits(page: Page) {
  return grid(page).evaluate((root) => {
    const inner = root.querySelector<HTMLElement>('.arco-table-content-inner')!;
    const clipped = [...root.querySelectorAll<HTMLElement>('.arco-table-th-item-title')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent);
    const fixed = root.querySelector<HTMLElement>('thead th.arco-table-col-fixed-right');
    const edge = fixed ? fixed.getBoundingClientRect().left : Infinity;
    const covered = [...root.querySelectorAll<HTMLElement>('thead th:not(.arco-table-col-fixed-right)')].filter((th) => th.getBoundingClientRect().right > edge + 1).map((th) => th.textContent);
    // Cells whose content spills into the next column (ellipsis cells cut on purpose, with a tooltip).
    const spilled = [...root.querySelectorAll<HTMLElement>('tbody .arco-table-cell:not(.arco-table-cell-text-ellipsis)')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent);
    return { clipped, covered, spilled, overflow: inner.scrollWidth - inner.clientWidth };
  });
}

for (const viewport of VIEWPORTS) {
  for (const lang of LANGS) {
    test(`${viewport.width}×${viewport.height} ${lang}: every list's headers are whole and its default columns fit`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      await signIn(page, lang);
      const problems: string[] = [];
      for (const [name, path] of SCREENS) {
        await openList(page, name, path);
        const { clipped, covered, spilled, overflow } = await misfits(page);
        if (spilled.length) problems.push(`${name}: cells spill over: ${spilled.join(', ')}`);
        if (clipped.length) problems.push(`${name}: headers cut: ${clipped.join(', ')}`);
        if (covered.length) problems.push(`${name}: under the actions column: ${covered.join(', ')}`);
        if (overflow > 1) problems.push(`${name}: ${overflow}px wider than its card`);
        // The status switch and the created time are among the defaults where the screen has them.
        if (['models', 'agents', 'keys', 'users'].includes(name)) {
          const heads = await grid(page).locator('thead th').allTextContents();
          for (const want of lang === 'zh-CN' ? ['状态', '创建时间'] : ['Status', 'Created']) {
            if (!heads.some((h) => h.includes(want))) problems.push(`${name}: no ${want} column`);
          }
        }
        if (['models', 'keys', 'users', 'call-logs'].includes(name)) await shot(page, `tables-${name}-1280-${lang}`, { fullPage: false });
      }
      expect(problems).toEqual([]);
    });
  }
}

test('column settings: hide a column and change the density, kept across a reload; reset restores both', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'zh-CN');
  await openList(page, 'models', '/model/list');
  const head = (title: string) => grid(page).locator('thead th').filter({ hasText: new RegExp(`^${title}$`) });
  // Defaults: the model id shows, the type is one of the secondary columns.
  await expect(head('模型')).toHaveCount(1);
  await expect(head('模型类型')).toHaveCount(0);

  await page.getByTestId('column-settings').click();
  const popover = page.getByTestId('column-settings-popover');
  await expect(popover).toBeVisible();
  // The first column and the actions cannot be hidden.
  await expect(popover.getByTestId('column-toggle-name').locator('input')).toBeDisabled();
  await expect(popover.getByTestId('column-toggle-__actions').locator('input')).toBeDisabled();
  await popover.getByTestId('column-toggle-model').click();
  await expect(head('模型')).toHaveCount(0);
  await popover.getByTestId('column-toggle-type').click();
  await expect(head('模型类型')).toHaveCount(1);
  await popover.getByTestId('density-small').click();
  await expect(grid(page)).toHaveClass(/arco-table-size-small/);
  await shot(page, 'tables-settings-popover', { fullPage: false });

  await page.reload();
  await expect(grid(page).locator('thead th').first()).toBeVisible();
  await expect(head('模型')).toHaveCount(0);
  await expect(head('模型类型')).toHaveCount(1);
  await expect(grid(page)).toHaveClass(/arco-table-size-small/);
  // Another screen keeps its own settings.
  await openList(page, 'agents', '/agent/list');
  await expect(grid(page)).toHaveClass(/arco-table-size-default/);

  await openList(page, 'models', '/model/list');
  await page.getByTestId('column-settings').click();
  await page.getByTestId('column-settings-reset').click();
  await expect(head('模型')).toHaveCount(1);
  await expect(head('模型类型')).toHaveCount(0);
  await expect(grid(page)).toHaveClass(/arco-table-size-default/);
  await page.reload();
  await expect(grid(page).locator('thead th').first()).toBeVisible();
  await expect(head('模型')).toHaveCount(1);
  await expect(head('模型类型')).toHaveCount(0);
  await expect(grid(page)).toHaveClass(/arco-table-size-default/);
});

test('390×844: the table scrolls sideways inside its card with the first column in view; simple pagination', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'zh-CN');
  for (const [name, path] of [['models', '/model/list'], ['users', '/user/list']] as const) {
    await openList(page, name, path);
    const inner = grid(page).locator('.arco-table-content-inner');
    const card = page.getByTestId('resource-table');
    // The page itself does not scroll sideways; the table does, inside the card.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
    expect(await inner.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeGreaterThan(100);
    const firstHead = grid(page).locator('thead th').nth(1);
    const before = (await firstHead.boundingBox())!;
    await inner.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => inner.evaluate((el) => el.scrollLeft)).toBeGreaterThan(100);
    const after = (await firstHead.boundingBox())!;
    expect(Math.abs(after.x - before.x)).toBeLessThanOrEqual(1);
    const cardBox = (await card.boundingBox())!;
    expect(after.x).toBeGreaterThanOrEqual(cardBox.x);
    expect(after.x + after.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    await expect(page.locator('.arco-pagination-simple')).toBeVisible();
    await inner.evaluate((el) => el.scrollTo({ left: 120 }));
    await shot(page, `tables-${name}-390`, { fullPage: false });
  }
});
