import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import { BASE_URL } from './env';

/**
 * Debian's Chromium headless shell (package chromium-headless-shell, the same Blink and V8 without the
 * browser's UI, what Playwright itself runs headless): the suite took about a third less CPU in it than in
 * the full browser on 2 cores. The full browser when only it is installed.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH || (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * Specs that change what every other spec sees: the admin's two-factor sign-in, the gateway paused, the admin
 * session lifetime and this hostname's site identity, the call-log record settings. They run one at a time
 * after the rest (`--no-deps` runs one of them alone).
 */
const SHARED_SETTINGS = /\/(security-2fa|sys-config-maintenance|site-sys-config|business-flow|logs)\.spec\.ts$/;

// Chromium from Debian (no test tool may download a browser); the real server with the built console.
export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers, a spec file each (its tests share a world, in order): every other spec works on accounts,
  // models and sites of its own, so files run side by side.
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'console', testIgnore: SHARED_SETTINGS },
    { name: 'shared-settings', testMatch: SHARED_SETTINGS, dependencies: ['console'], workers: 1 },
  ],
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    locale: 'zh-CN',
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'node_modules/.bin/tsx e2e/serve.ts',
    cwd: '..',
    url: `${BASE_URL}/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
