import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';

/**
 * End-to-end tests. There is no `webServer` block: every spec starts its own host (see
 * e2e/support/web-host.ts) so it can stop and restart it. Timeouts are generous because these run on a
 * small, busy machine; tests wait on conditions, never on fixed sleeps.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/support/global-setup.ts',
  outputDir: 'test-results/artifacts',
  // Each web test runs a host process and (often) a browser: two workers at most on a 2-core box.
  workers: Number(process.env.PLAYWRIGHT_WORKERS ?? 2),
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions,
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'web', testMatch: 'e2e/web/**/*.spec.ts' },
    { name: 'electron', testMatch: 'e2e/electron/**/*.spec.ts' },
  ],
});
