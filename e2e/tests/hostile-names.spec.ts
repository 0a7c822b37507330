// HTML in names renders as text (issue 7): a corp, a model and an app named with markup and an
// onerror handler, created through the API, show up in their list pages as the literal characters —
// no <img> or <b> element appears and the handler never runs.
import { expect, test } from '@playwright/test';
import { loginAsAdmin, shot } from '../helpers';
import { adminToken, ok } from '../world';

const HOSTILE = '<img src=x onerror=window.__pwned=1><b>bold</b>';

test('names holding HTML show as literal text in the corp, model and app lists', async ({ page }) => {
  const admin = await adminToken();
  const corp = (await ok<{ id: string }>('/corp/create', { name: HOSTILE, code: 'OpenAI', is_public: true }, admin)).id;
  await ok('/model/create', { corp, name: HOSTILE, model: `e2e-hostile-${Date.now().toString(36)}`, type: 1, is_public: true }, admin);
  const owner = await ok<{ user_id: number }>('/admin/user/create', { name: 'hostile', account: `hostile-${Date.now().toString(36)}`, email: '', password: 'Passw0rd!x' }, admin);
  await ok('/app/create', { user_id: owner.user_id, name: HOSTILE }, admin);

  // Any dialog would mean script ran.
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await loginAsAdmin(page);
  for (const list of ['/corp/list', '/model/list', '/app/list']) {
    await page.goto(`${list}?name=${encodeURIComponent(HOSTILE)}`);
    await expect(page.getByTestId('resource-table')).toBeVisible();
    // The name is on the page as the characters it was written with.
    await expect(page.locator('.arco-table-tr').getByText(HOSTILE, { exact: true }).first()).toBeVisible();
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    // (Names are shown in bold: the markup's own <b> would be an element holding just "bold".)
    await expect(page.locator('b').filter({ hasText: /^bold$/ })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await shot(page, `hostile-names${list.replace(/\//g, '-')}`);
  }
  expect(dialogs).toEqual([]);
});
