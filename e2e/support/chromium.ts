/**
 * The one way these tests start Chromium: the system browser (Playwright's own download is never used
 * here), with flags for a closed network, a root user and no GPU. Free of `test` imports so that
 * playwright.config.ts can use it too.
 */
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_PATH = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS,
};
