import { expect, type Locator, type Page } from '@playwright/test';
import { BASE_URL, E2E_ADMIN_PASSWORD, E2E_MAIL_PORT } from './env';
import { consoleCall } from './world';

type Role = 'user' | 'reseller' | 'admin';

async function mails(to: string): Promise<{ text: string }[]> {
  return (await (await fetch(`http://127.0.0.1:${E2E_MAIL_PORT}/mails?to=${encodeURIComponent(to)}`)).json()) as { text: string }[];
}

/** How many mails `to` has received so far (pass it to mailedCode when a second code is expected). */
export async function mailCount(to: string): Promise<number> {
  return (await mails(to)).length;
}

/** The latest 6-digit code mailed to `to`, read from the test SMTP server, once more than `previous` mails arrived. */
export async function mailedCode(to: string, previous = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const list = await mails(to);
      code = list.length > previous ? list.at(-1)?.text.match(/\b(\d{6})\b/)?.[1] : undefined;
      return code;
    }, { timeout: 10_000 })
    .toBeTruthy();
  return code!;
}

/**
 * Opens a screen from the side menu and waits for it to render. The router renders in a transition: the
 * address bar changes first, and until the new page is drawn the old one's buttons (the same
 * `resource-create`) still answer a click.
 */
export async function openFromMenu(page: Page, name: `${string}.list`) {
  await page.getByTestId(`menu-${name}`).click();
  await expect(page.locator(`[data-screen="${name}"]`)).toBeVisible();
}

/** Holds the page's requests to `url` until release(); held() counts those that arrived. */
export async function holdRequests(page: Page, url: string): Promise<{ held: () => number; release: () => Promise<void> }> {
  const passing: Promise<void>[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  await page.route(url, (route) => {
    const passed = gate.then(() => route.continue());
    passing.push(passed);
    return passed;
  });
  return {
    held: () => passing.length,
    // The held requests go on before the route is taken away (it would answer them otherwise).
    release: async () => {
      open();
      await Promise.all(passing);
      await page.unroute(url);
    },
  };
}

/** A full-page screenshot, or with `fullPage: false` what the viewport shows (where a scroll left the page). */
export async function shot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}) {
  await page.screenshot({ path: `test-results/shots/${name}.png`, fullPage });
}

let counter = 0;
/** A unique address per call, so every test works on its own accounts. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}@e2e.test`;
}

interface Envelope<T> {
  code: number;
  message: string;
  data: T;
}

/** A console API call from outside the browser (public routes, or a bearer token's own calls). */
export async function api<T = unknown>(path: string, body?: object, token?: string): Promise<Envelope<T>> {
  const res = await fetch(`${BASE_URL}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  return (await res.json()) as Envelope<T>;
}

async function ok<T>(call: Promise<Envelope<T>>): Promise<T> {
  const body = await call;
  expect(body.code, body.message).toBe(0);
  return body.data;
}

export interface Account {
  email: string;
  password: string;
  token: string;
}

/** A user registered through the API (email code + register): known email and password. */
export async function createUser(prefix = 'u', password = 'Passw0rd!'): Promise<Account> {
  const email = uniqueEmail(prefix);
  await ok(api('/common/email-code', { email, action: 'register', channel: 'user' }));
  const code = await mailedCode(email);
  const { token } = await ok(api<{ token: string }>('/auth/register', { account: email, password, code, channel: 'user' }));
  return { email, password, token };
}

/**
 * A reseller, created by the admin and signed in with its password. (Resellers do not register
 * themselves unless the reseller channel's registration is on, which is off by default.)
 */
/** A reseller made by the admin; `floor` (percent of list price) lets its groups and VIP levels price below list. */
export async function createReseller(prefix = 'res', opts: { floor?: number } = {}): Promise<Omit<Account, 'password'>> {
  const email = uniqueEmail(prefix);
  const password = 'Passw0rd!';
  const admin = await ok(api<{ token: string }>('/auth/login', { account: 'admin', password: E2E_ADMIN_PASSWORD, channel: 'admin' }));
  await ok(consoleCall('/admin/reseller/create', { name: prefix, account: email, email, password, ...opts }, admin.token));
  const { token } = await ok(api<{ token: string }>('/auth/login', { account: email, password, channel: 'reseller' }));
  return { email, token };
}

const SEEN = 'data-e2e-seen';

/** The newest toast (Arco message) with this text that no `seeToast` has seen yet. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator(`.arco-message:not([${SEEN}])`).filter({ hasText: text }).last();
}

/**
 * Waits for a new toast with this text, then marks every one showing with it as seen. Toasts stay up for
 * seconds: without the mark, the toast of the step before ("保存成功" for another save) would pass for this
 * step's before its call has finished, and the test would race ahead (a reload that lost the save).
 */
export async function seeToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(toast(page, text)).toBeVisible();
  await page
    .locator('.arco-message')
    .filter({ hasText: text })
    .evaluateAll((els, attr) => els.forEach((el) => el.setAttribute(attr, '')), SEEN);
}

/** Signs in through a login screen with account and password and waits for the console's landing page. */
export async function loginWithPassword(page: Page, path: '/login' | '/admin' | '/reseller', account: string, password: string) {
  await page.goto(path);
  await page.getByTestId('login-account').fill(account);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('workplace')).toBeVisible();
}

export const loginAsAdmin = (page: Page) => loginWithPassword(page, '/admin', 'admin', E2E_ADMIN_PASSWORD);

/** Puts an API-made session into the page's storage (what a login stores) and opens `path`. */
export async function useSession(page: Page, token: string, role: Role, path = '/user/center') {
  await page.goto('/login');
  await page.evaluate(([t, r]) => {
    localStorage.setItem('token', t);
    localStorage.setItem('userRole', r);
  }, [token, role] as const);
  await page.goto(path);
}
