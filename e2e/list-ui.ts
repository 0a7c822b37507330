// Steps on the console's list screens shared by the log and task specs: table rows, search-form
// fields, the detail drawer, and screenshots taken once animations settled.
import { expect, type Page } from '@playwright/test';
import { shot } from './helpers';

/** Data rows of the resource table (the header and the empty row have no actions). */
export const rows = (page: Page) => page.getByTestId('resource-table-grid').locator('.arco-table-tr').filter({ has: page.locator('[data-testid^=row-actions-]') });
export const rowWith = (page: Page, text: string) => rows(page).filter({ hasText: text });

/** Picks an option of a search-form select by its exact text. */
export async function choose(page: Page, testId: string, label: string) {
  await page.getByTestId(testId).click();
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: new RegExp(`^${label}$`) }).first().click();
  await page.keyboard.press('Escape');
}

/** Fills a text or number input found by test id (Arco puts the id on the input or on its wrapper). */
export async function fill(page: Page, testId: string, value: string) {
  const el = page.getByTestId(testId);
  const input = (await el.evaluate((n) => n.tagName)) === 'INPUT' ? el : el.locator('input');
  await input.fill(value);
}

export const search = (page: Page) => page.getByTestId('search-submit').click();

export async function closeDrawer(page: Page) {
  await page.locator('.arco-drawer:visible .arco-drawer-close-icon').click();
  await expect(page.locator('.arco-drawer:visible')).toHaveCount(0);
}

/** A screenshot once drawers and modals finished sliding in. */
export async function settledShot(page: Page, name: string) {
  await expect(page.locator('[class*="-enter-active"], [class*="-appear-active"]')).toHaveCount(0);
  await shot(page, name);
}

/**
 * Picks in a server-searched picker (users, resellers, apps; issue 15 part 4): types `typed` (part of a
 * name, an account or the id) and chooses the option showing `match` (e.g. `ID 12` at its end).
 */
export async function pickRemote(page: Page, testId: string, typed: string, match: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(typed);
  await page.locator('.arco-select-popup:visible .arco-select-option').filter({ hasText: match }).first().click();
}

/**
 * Shows columns a list hides by default (issue 15: each screen starts with the columns that fit), through
 * the table's column settings, by column key (the field name); the choice stays for the screen.
 */
export async function showColumns(page: Page, ...keys: string[]) {
  await page.getByTestId('column-settings').click();
  const popover = page.getByTestId('column-settings-popover');
  for (const key of keys) {
    const box = popover.getByTestId(`column-toggle-${key}`);
    if (!(await box.locator('input').isChecked())) await box.click();
  }
  await page.getByTestId('column-settings').click();
  await expect(popover).toBeHidden();
}
