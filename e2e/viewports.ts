// The screens people use (issue 15 "done when"): desktop 1440×900 and 1280×720 and a phone at 390×844, each in
// both languages. A spec loops over COMBOS and opens one context per combination with `comboPage`. The loops
// skip 1440×900: it is Arco's same breakpoint as 1280×720 (xl), only roomier, so what fits and reads at 1280×720
// does there too, and the flows of several specs run at 1440×900 themselves (missing-screens, pickers, logs,
// dashboard). Each combination is 10–35 s of a 2-core CI machine's CPU.
import { expect, type Browser, type Page } from '@playwright/test';
import { BASE_URL } from './env';
import { useSession } from './helpers';

export type Lang = 'zh-CN' | 'en-US';
type Role = 'user' | 'reseller' | 'admin';

export interface Combo {
  /** `1280x720 zh-CN`: for test titles and screenshot names. */
  name: string;
  viewport: { width: number; height: number };
  lang: Lang;
  /** Below 768 px: the phone layout (sider in a drawer, stacked forms). */
  phone: boolean;
}

const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
] as const;
const LANGS: readonly Lang[] = ['zh-CN', 'en-US'];

export const COMBOS: readonly Combo[] = VIEWPORTS.flatMap((viewport) =>
  LANGS.map((lang) => ({ name: `${viewport.width}x${viewport.height} ${lang}`, viewport, lang, phone: viewport.width < 768 })),
);

/** A file-name-safe form of the combination's name. */
export const slug = (combo: Combo) => combo.name.replace(/\s+/g, '-');

/** Text by language: `pick(combo, { 'zh-CN': '新建', 'en-US': 'Create' })`. */
export const pick = <T>(combo: Combo, text: Record<Lang, T>): T => text[combo.lang];

/**
 * A page in a context of its own at the combination's viewport, the console in its language (the stored
 * choice, set before every load), signed in with `token` and opened at `path`.
 */
export async function comboPage(browser: Browser, combo: Combo, token: string, role: Role, path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: BASE_URL, locale: combo.lang, viewport: combo.viewport });
  await context.addInitScript((lang) => localStorage.setItem('arco-lang', lang), combo.lang);
  const page = await context.newPage();
  await useSession(page, token, role, path);
  await expect(page.locator('html')).toHaveAttribute('lang', combo.lang);
  return page;
}
