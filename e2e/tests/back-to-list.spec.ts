import { expect, test } from '@playwright/test';
import { api, loginAsAdmin, seeToast } from '../helpers';
import { E2E_ADMIN_PASSWORD } from '../env';
import { consoleCall } from '../world';

// A slow device: the router renders a navigation in a transition, so the old list is still on screen (and
// clickable) for a moment after the address bar shows the new filter. The form must still come back to it.
test('on a slow device, a form opened right after a filtered search goes back to the filtered list', async ({ page }) => {
  // The CPU slowed 20×: on a loaded 2-core machine one round took 40 s (a click alone 15 s), past the 60 s budget for two.
  test.slow();
  const tag = `Back${Date.now().toString(36)}`;
  const admin = await api<{ token: string }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin', method: 'account' });
  for (const name of [`${tag} A`, `${tag} B`]) expect((await consoleCall('/corp/create', { name, code: name.replace(' ', ''), is_public: true }, admin.data.token)).code).toBe(0);
  await loginAsAdmin(page);
  const cdp = await page.context().newCDPSession(page);
  for (let round = 0; round < 2; round++) {
    await page.goto('/corp/list');
    const firstEdit = page.locator('[data-testid^=row-edit-]').first();
    await expect(firstEdit).toBeVisible();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
    await page.getByTestId('filter-name').fill(tag);
    await page.getByTestId('search-submit').click();
    await expect(page).toHaveURL(/name=/);
    // Whichever row is first when the click lands (the list before the filter, or after).
    await firstEdit.click();
    // The address changes once the form's chunk has loaded and run, at a twentieth of the speed.
    await expect(page).toHaveURL(/\/corp\/update\?id=/, { timeout: 30_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.getByTestId('form-submit').click();
    await seeToast(page, '更新成功');
    await expect(page).toHaveURL(new RegExp(`/corp/list\\?name=${tag}`));
  }
});
