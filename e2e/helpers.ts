import { expect, type Page } from '@playwright/test';
import { E2E_MAIL_PORT } from './env';

/** The latest 6-digit code mailed to `to`, read from the test SMTP server. */
export async function mailedCode(to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const mails = (await (await fetch(`http://127.0.0.1:${E2E_MAIL_PORT}/mails?to=${encodeURIComponent(to)}`)).json()) as { text: string }[];
      code = mails.at(-1)?.text.match(/\b(\d{6})\b/)?.[1];
      return code;
    }, { timeout: 10_000 })
    .toBeTruthy();
  return code!;
}

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `test-results/shots/${name}.png`, fullPage: true });
}
