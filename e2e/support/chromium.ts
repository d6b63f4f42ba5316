/**
 * The one way these tests start Chromium: the system browser (Playwright's own download is never used
 * here), with flags for a closed network, a root user and no GPU. Free of `test` imports so that
 * playwright.config.ts can use it too.
 */
import fs from 'node:fs';
import { chromium, type Browser, type LaunchOptions } from '@playwright/test';

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

/** Launches the system Chromium; fails with a clear message when it is not installed. */
export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it, or set PLAYWRIGHT_CHROMIUM_PATH.`);
  }
  return chromium.launch({ ...chromiumLaunchOptions, ...options, args: [...CHROMIUM_ARGS, ...(options.args ?? [])] });
}
