// Issue 15 part 1, phones and tablets: every admin screen of the route table (lists, create, update and detail
// forms with a record to show) at 390×844 and 768×1024 in both languages, with no horizontal scroll, no label
// wrapping per character, one-column details and search forms on phones, stacked dashboard cards, and the
// menu drawer of the phone layout.
import { expect, test, type Page } from '@playwright/test';
import { ANY_ROLE } from '../../packages/core/src/constants';
import { screenRoutes, type ScreenRoute } from '../../packages/core/src/routes';
import { createReseller, holdRequests, shot } from '../helpers';
import { createWorld, ok, type World } from '../world';

const VIEWPORTS = { phone: { width: 390, height: 844 }, tablet: { width: 768, height: 1024 } } as const;
const LANGS = ['zh-CN', 'en-US'] as const;

/** The admin's screens, in route-table order (each list before its update and detail screens). */
const screens = screenRoutes.filter((r) => !r.path.includes(':') && (r.roles ?? [ANY_ROLE]).some((role) => role === 'admin' || role === ANY_ROLE));

/** A screen that shows one record: its list, where the spec reads a row's id from. */
function listOf(route: ScreenRoute): ScreenRoute | undefined {
  if (route.name === 'finance.billDetail') return screens.find((r) => r.name === 'finance.billList');
  const base = /^(.*)\.(update|detail)$/.exec(route.name)?.[1];
  return base ? screens.find((r) => r.name === `${base}.list` || r.name === `${base}.config`) : undefined;
}

let world: World;

test.beforeAll(async () => {
  test.setTimeout(60_000);
  const tag = `resp${Date.now().toString(36).slice(-5)}`;
  world = await createWorld({ tag, quotas: { text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } } });
  // One call, so the chat log and the dashboard have a row.
  await world.openai.chat.completions.create({ model: world.model, messages: [{ role: 'user', content: 'hello' }] });
  // A reseller (and its site, pending until approved: it serves no domain), a VIP level and a license, so every
  // update and detail screen has a record.
  const reseller = await createReseller(`${tag}r`);
  await ok('/sys/site/create', { domain: `${tag}.example.com`, title: 'Responsive site' }, reseller.token);
  await ok('/sys/vip/create', { name: `VIP ${tag}`, discount: 90 }, world.admin);
  await ok('/license/create', { name: `License ${tag}`, user_count: 0, expires_at: '2099-01-01 00:00:00' }, world.admin);
});

/** Signs the admin in through the page's storage, in `lang`, and opens `path`. */
async function signIn(page: Page, lang: string, path = '/dashboard/workplace') {
  await page.goto('/login');
  await page.evaluate(
    ([token, locale]) => {
      localStorage.setItem('token', token);
      localStorage.setItem('userRole', 'admin');
      localStorage.setItem('arco-lang', locale);
    },
    [world.admin, lang] as const,
  );
  await page.goto(path);
  await expect(page.getByTestId('navbar')).toBeVisible();
}

/**
 * A client-side navigation (react-router follows popstate), no reload of the console per screen. It goes through
 * `/redirect/` (the tab bar's reload), so the previous screen is gone before the new one is awaited.
 */
async function open(page: Page, path: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', `/redirect/${encodeURIComponent(p)}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect.poll(() => page.evaluate(() => location.pathname + location.search)).toBe(path);
  await expect(page.locator('.arco-layout-content').locator('.arco-card, .arco-empty, .arco-result, form').first()).toBeVisible();
  await expect(page.locator('.arco-layout-content .arco-spin-loading')).toHaveCount(0);
}

interface Problems {
  overflow: string | undefined;
  wrappedLabels: string[];
  wideDetails: number;
  /** Phones: a search form whose visible fields are not one column. */
  searchColumns: boolean;
}

/** What does not fit: the document or a card wider than the window, labels broken inside a word or onto three lines, detail rows of more than one item on phones. */
function problems(page: Page, phone: boolean): Promise<Problems> {
  return page.evaluate((phone) => {
    const width = window.innerWidth;
    const doc = document.documentElement.scrollWidth;
    const card = [...document.querySelectorAll('.arco-layout-content .arco-card')].find((c) => c.getBoundingClientRect().right > width + 1);
    // The first element past the window's right edge that also runs past its parent names the culprit.
    const right = (e: Element | null) => e?.getBoundingClientRect().right ?? 0;
    const culprit = [...document.querySelectorAll('#root *')].find((e) => right(e) > width + 1 && right(e) > right(e.parentElement) + 1);
    const name = (e: Element | undefined) => (e ? `${e.tagName.toLowerCase()}.${String(e.getAttribute('class') ?? '').split(' ')[0]}[${e.getAttribute('data-testid') ?? ''}] "${(e.textContent ?? '').slice(0, 30)}"` : '');
    const overflow = doc > width ? `document ${doc} > ${width} (${name(culprit)})` : card ? `card ${name(card)} ends at ${card.getBoundingClientRect().right} (${name(culprit)})` : undefined;
    // A label beside its input may wrap between words onto a second line, not inside a word (or per character).
    const wrappedLabels = [...document.querySelectorAll<HTMLElement>('.arco-form-layout-horizontal > .arco-form-label-item > label')]
      .filter((l) => {
        const lines = Math.round(l.offsetHeight / parseFloat(getComputedStyle(l).lineHeight));
        return l.offsetParent !== null && (lines >= 3 || (lines === 2 && !/\s/.test((l.textContent ?? '').trim())));
      })
      .map((l) => l.textContent ?? '');
    const wideDetails = phone ? [...document.querySelectorAll('.arco-descriptions-row')].filter((r) => r.querySelectorAll('.arco-descriptions-item-label').length > 1).length : 0;
    const search = document.querySelector('[data-testid=search-form]');
    const searchWidth = search?.getBoundingClientRect().width ?? 0;
    const searchColumns =
      phone && !!search && [...search.querySelectorAll<HTMLElement>('.arco-form-item')].some((i) => i.offsetParent !== null && i.getBoundingClientRect().width < searchWidth - 40);
    return { overflow, wrappedLabels, wideDetails, searchColumns };
  }, phone);
}

/** Whether the visible search fields are in one column (every field as wide as the form). */
const oneColumnSearch = (page: Page) =>
  page.getByTestId('search-form').evaluate((form) => {
    const width = form.getBoundingClientRect().width;
    return [...form.querySelectorAll<HTMLElement>('.arco-form-item')].filter((i) => i.offsetParent !== null).every((i) => i.getBoundingClientRect().width > width - 40);
  });

/** What the window shows once drawers finished sliding in. */
async function windowShot(page: Page, name: string) {
  await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
  await shot(page, name, { fullPage: false });
}

const visibleFilters = (page: Page) => page.getByTestId('search-form').locator('.arco-form-item:visible').count();

for (const [device, viewport] of Object.entries(VIEWPORTS)) {
  const phone = device === 'phone';
  for (const lang of LANGS) {
    test.describe(`${device} ${lang}`, () => {
      test.use({ viewport });

      test(`${device} ${lang}: every admin screen fits`, async ({ page }) => {
        test.setTimeout(120_000);
        await signIn(page, lang);
        const ids = new Map<string, string>();
        const failures: string[] = [];
        for (const route of screens) {
          const list = listOf(route);
          const id = list ? ids.get(list.name) : undefined;
          await open(page, id ? `${route.path}?id=${encodeURIComponent(id)}` : route.path);
          const firstRow = page.locator('[data-testid^=row-actions-]').first();
          if (route.name.endsWith('.list') || route.name === 'sys.site.config' || route.name === 'finance.billList') {
            if (await firstRow.count()) ids.set(route.name, (await firstRow.getAttribute('data-testid'))!.replace('row-actions-', ''));
          }
          const found = await problems(page, phone);
          if (found.overflow) failures.push(`${route.path}: ${found.overflow}`);
          if (found.wrappedLabels.length) failures.push(`${route.path}: labels wrap: ${found.wrappedLabels.join(', ')}`);
          if (found.wideDetails) failures.push(`${route.path}: ${found.wideDetails} detail rows of several items`);
          if (found.searchColumns) failures.push(`${route.path}: search form not one column`);
          if (['dashboard.workplace', 'model.list', 'model.create', 'model.detail'].includes(route.name)) await shot(page, `responsive-${device}-${lang}-${route.name}`);
        }
        expect(failures).toEqual([]);
        // The drawer of the viewport: the menu on a phone, the settings on a tablet.
        await page.getByTestId(phone ? 'menu-button' : 'settings-button').click();
        await windowShot(page, `responsive-${device}-${lang}-drawer`);
        // Update and detail screens were visited with a record.
        for (const name of ['model.list', 'agent.list', 'corp.list', 'group.list', 'user.list', 'app.list', 'sys.reseller.list', 'sys.vip.list', 'sys.site.config', 'license.list']) {
          expect(ids.get(name), `a row of ${name}`).toBeTruthy();
        }
      });
    });
  }
}

test.describe('phone', () => {
  test.use({ viewport: VIEWPORTS.phone });

  test('the menu is a drawer from the navbar: it opens, navigates and closes', async ({ page }) => {
    await signIn(page, 'zh-CN');
    await expect(page.getByTestId('layout-sider')).toHaveCount(0);
    const drawer = page.getByTestId('menu-drawer');
    await page.getByTestId('menu-button').click();
    await expect(drawer).toBeVisible();
    await drawer.getByTestId('menu-model.list').click();
    await expect(page).toHaveURL(/\/model\/list$/);
    await expect(drawer).toBeHidden();
    // A click on the mask closes it too.
    await page.getByTestId('menu-button').click();
    await expect(drawer).toBeVisible();
    await page.mouse.click(380, 400);
    await expect(drawer).toBeHidden();
    // Theme and settings live in the user menu.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-theme').click();
    await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-theme').click();
    await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-settings').click();
    const settings = page.getByTestId('settings-drawer');
    await expect(settings).toBeVisible();
    expect((await settings.locator('.arco-drawer').boundingBox())!.width).toBeLessThanOrEqual(390);
    await windowShot(page, 'responsive-phone-zh-CN-settings');

    // The tab bar fits: its tabs scroll inside it.
    await page.getByTestId('settings-tabBar').click();
    await page.getByTestId('settings-close').click();
    for (const name of ['corp.list', 'group.list', 'user.list', 'app.list']) {
      await page.getByTestId('menu-button').click();
      await drawer.getByTestId(`menu-${name}`).click();
      await expect(drawer).toBeHidden();
    }
    expect(await page.getByTestId('tab-bar').locator('.arco-tag').count()).toBeGreaterThanOrEqual(5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect((await page.getByTestId('tab-bar').boundingBox())!.width).toBeLessThanOrEqual(390);
    await windowShot(page, 'responsive-phone-zh-CN-tab-bar');

    // Without the navbar, a fixed button opens the menu.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-settings').click();
    await page.getByTestId('settings-navbar').click();
    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('navbar')).toHaveCount(0);
    await page.getByTestId('menu-button').click();
    await expect(drawer).toBeVisible();
    await drawer.getByTestId('menu-model.list').click();
    await expect(drawer).toBeHidden();
    await page.getByTestId('settings-button').click();
    await page.getByTestId('settings-navbar').click();
    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('navbar')).toBeVisible();

    await page.evaluate(() => localStorage.setItem('arco-lang', 'en-US'));
    await page.reload();
    await page.getByTestId('menu-button').click();
    await expect(drawer).toContainText('Models');
  });

  test('the menu opened again while the picked page still loads stays open when it arrives', async ({ page }) => {
    await signIn(page, 'zh-CN');
    // Hold the console's next chunks (the picked page's), so its navigation is still under way.
    const chunks = await holdRequests(page, '**/assets/*.js');
    const drawer = page.getByTestId('menu-drawer');
    await page.getByTestId('menu-button').click();
    await drawer.getByTestId('menu-corp.list').click();
    await expect(drawer).toBeHidden();
    await expect.poll(chunks.held).toBeGreaterThan(0);
    await page.getByTestId('menu-button').click();
    await expect(drawer).toBeVisible();
    await chunks.release();
    await expect(page).toHaveURL(/\/corp\/list$/);
    await expect(page.getByTestId('resource-create')).toBeVisible();
    await expect(drawer).toBeVisible();
    // Somewhere else from the drawer: it closes.
    await drawer.getByTestId('menu-group.list').click();
    await expect(page).toHaveURL(/\/group\/list$/);
    await expect(drawer).toBeHidden();
  });

  test('search forms fold all but two fields behind "more filters"', async ({ page }) => {
    await signIn(page, 'zh-CN', '/model/list');
    await expect(page.getByTestId('search-form')).toBeVisible();
    expect(await visibleFilters(page)).toBe(2);
    await page.getByTestId('search-more').click();
    await expect(page.getByTestId('search-more')).toHaveText(/收起筛选/);
    expect(await visibleFilters(page)).toBeGreaterThan(2);
    expect(await oneColumnSearch(page)).toBe(true);
    // A folded field's value still searches, and the toggle counts it.
    await page.getByTestId('filter-name').fill(world.model);
    await page.getByTestId('search-submit').click();
    await expect(page).toHaveURL(/name=/);
    await page.getByTestId('search-more').click();
    expect(await visibleFilters(page)).toBe(2);
  });

  test('dashboard cards stack, each as wide as the content, the figures two to a row', async ({ page }) => {
    await signIn(page, 'zh-CN');
    await expect(page.getByTestId('workplace')).toBeVisible();
    const widths = await page.getByTestId('workplace').evaluate((w) => ({
      content: w.getBoundingClientRect().width,
      cards: [...w.querySelectorAll('.arco-card')].map((c) => c.getBoundingClientRect().width),
      stats: [...w.querySelectorAll('[data-testid^=base-]:not([data-testid$=-value])')].map((s) => s.getBoundingClientRect().width),
    }));
    expect(widths.cards.length).toBeGreaterThan(2);
    for (const card of widths.cards) expect(Math.abs(card - widths.content)).toBeLessThan(2);
    // The overview figures: two to a row, inside their card.
    expect(widths.stats.length).toBeGreaterThan(0);
    for (const stat of widths.stats) expect(stat).toBeLessThan(widths.content / 2);
  });

  test('the login page fits', async ({ page }) => {
    for (const lang of LANGS) {
      await page.goto('/login');
      await page.evaluate((l) => localStorage.setItem('arco-lang', l), lang);
      await page.reload();
      await expect(page.getByTestId('login-submit')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(page, `responsive-phone-${lang}-login`);
    }
  });
});

test.describe('tablet', () => {
  test.use({ viewport: VIEWPORTS.tablet });

  test('the login page fits; the sider stays', async ({ page }) => {
    for (const lang of LANGS) {
      await page.goto('/login');
      await page.evaluate((l) => localStorage.setItem('arco-lang', l), lang);
      await page.reload();
      await expect(page.getByTestId('login-submit')).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
      await shot(page, `responsive-tablet-${lang}-login`);
    }
    await signIn(page, 'zh-CN');
    await expect(page.getByTestId('layout-sider')).toBeVisible();
    await expect(page.getByTestId('menu-button')).toHaveCount(0);
  });
});
