// The original console's system-config sections in our console (issue 15 part 9, docs/SPEC.md §3.15.1 to §3.15.3):
// the admin pauses the gateway with a message and the calls get it as a 503, opens it again; a proxy URL
// the gateway cannot use is refused with the server's message. Both languages, desktop and phone.
import { expect, test } from '@playwright/test';
import OpenAI from 'openai';
import { seeToast, shot } from '../helpers';
import { COMBOS, comboPage, pick, slug } from '../viewports';
import { createWorld } from '../world';

const COMBO_NAMES = ['1280x720 zh-CN', '1280x720 en-US', '390x844 zh-CN'];

test('the admin pauses the gateway from the system config and opens it again', async ({ browser }) => {
  test.setTimeout(240_000);
  const w = await createWorld({ tag: `mt${Date.now().toString(36)}`, quotas: { text_quota: { billing_method: 1, prompt_ratio: 1, completion_ratio: 2 } } });
  const call = () => w.openai.chat.completions.create({ model: w.model, messages: [{ role: 'user', content: 'are you there?' }] });
  for (const combo of COMBOS.filter((c) => COMBO_NAMES.includes(c.name))) {
    await test.step(combo.name, async () => {
      const page = await comboPage(browser, combo, w.admin, 'admin', '/sys/config');
      await page.getByTestId('cfg-tab-api').click();
      const card = page.getByTestId('cfg-card-service_unavailable');
      await expect(card).toBeVisible();
      const message = pick(combo, { 'zh-CN': '系统升级中，10:00 恢复。', 'en-US': 'Upgrading, back at 10:00.' });
      await page.getByTestId('cfg-service_unavailable-message').fill(message);
      await page.getByTestId('cfg-service_unavailable-ip_whitelist').fill('10.1.2.3\n192.168.0.0/16');
      await page.getByTestId('cfg-save-service_unavailable').click();
      await seeToast(page, pick(combo, { 'zh-CN': '保存成功', 'en-US': 'Saved' }));
      await page.getByTestId('cfg-switch-service_unavailable').click();
      await expect(page.getByTestId('cfg-switch-service_unavailable')).toHaveClass(/arco-switch-checked/);
      await expect(async () => {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(OpenAI.APIError);
        expect(err).toMatchObject({ status: 503, error: { message, code: 'service_unavailable' } });
      }).toPass({ timeout: 10_000 });
      await card.scrollIntoViewIfNeeded();
      await shot(page, `sys-config-maintenance-${slug(combo)}`, { fullPage: false });

      await page.getByTestId('cfg-switch-service_unavailable').click();
      await expect(page.getByTestId('cfg-switch-service_unavailable')).not.toHaveClass(/arco-switch-checked/);
      await expect(async () => expect((await call()).choices[0]!.message.content).toContain('are you there?')).toPass({ timeout: 10_000 });

      // The upstream HTTP section: a proxy the gateway cannot use is refused with the server's message.
      await page.getByTestId('cfg-tab-general').click();
      await page.getByTestId('cfg-http-proxy_url').fill('socks5://127.0.0.1:1080');
      await page.getByTestId('cfg-save-http').click();
      // With the field's label, on the field too, never the API name.
      await seeToast(page, pick(combo, { 'zh-CN': /^代理地址：代理地址格式不正确/, 'en-US': /^Proxy URL: Invalid proxy URL/ }));
      await expect(page.getByTestId('cfg-card-http').locator('.arco-form-message')).toContainText(pick(combo, { 'zh-CN': '代理地址格式不正确', 'en-US': 'Invalid proxy URL' }));
      await expect(page.getByText('http.proxy_url')).toHaveCount(0);
      await page.getByTestId('cfg-card-http').scrollIntoViewIfNeeded();
      await shot(page, `sys-config-http-${slug(combo)}`, { fullPage: false });
      await page.context().close();
    });
  }
});
