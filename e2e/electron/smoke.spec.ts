/**
 * The Electron app, end to end, from an empty data directory: the window shows the shell, Settings
 * shows the host's facts, settings save and survive quitting and relaunching the app.
 *
 * Skipped (with the reason printed) where the Electron binary is not installed.
 */
import { test as base, expect, type ElectronApplication, type Page } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findElectronBinary, launchElectronApp } from '../support/electron-app';
import { appVersion } from '../support/paths';

const binary = findElectronBinary();
const SKIP_REASON = binary.executablePath
  ? `Electron cannot run here: ${binary.reason}`
  : `Electron binary not installed (download unavailable here): ${binary.reason}`;
if (!binary.usable) console.log(`[e2e/electron] skipping: ${SKIP_REASON}`);

const SAVED = { baseUrl: 'http://127.0.0.1:9/v1', model: 'claude-e2e-model' };

/** A temp data directory and a way to (re)launch the app on it; everything is closed in teardown. */
const test = base.extend<{ electron: { dataDir: string; launch(): Promise<{ app: ElectronApplication; window: Page }> } }>({
  // Playwright requires an object pattern for a fixture's first argument, even when it needs none.
  // eslint-disable-next-line no-empty-pattern
  electron: async ({}, use) => {
    const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-electron-'));
    const dataDir = path.join(tempRoot, 'data');
    const apps: ElectronApplication[] = [];
    try {
      await use({
        dataDir,
        async launch() {
          const app = await launchElectronApp(binary, dataDir);
          apps.push(app);
          const window = await app.firstWindow();
          return { app, window };
        },
      });
    } finally {
      for (const app of apps) await app.close().catch(() => undefined);
      fs.rmSync(tempRoot, { recursive: true, force: true });
    }
  },
});

test.skip(!binary.usable, SKIP_REASON);

function ui(page: Page) {
  const form = page.getByRole('form', { name: 'Preferences' });
  return {
    navButton: (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }),
    theme: (name: string) => form.getByRole('group', { name: 'Theme' }).getByRole('radio', { name, exact: true }),
    baseUrl: form.getByRole('textbox', { name: 'Anthropic base URL', exact: true }),
    model: form.getByRole('textbox', { name: 'Model', exact: true }),
    save: form.getByRole('button', { name: 'Save', exact: true }),
    saveState: form.getByRole('status'),
  };
}

async function expectSavedSettings(page: Page) {
  const { theme, baseUrl, model } = ui(page);
  await expect(theme('Dark')).toBeChecked();
  await expect(baseUrl).toHaveValue(SAVED.baseUrl);
  await expect(model).toHaveValue(SAVED.model);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
}

test('electron: settings save and survive quitting and relaunching the app', async ({ electron }) => {
  let { app, window } = await electron.launch();

  await test.step('the window shows the shell', async () => {
    const nav = window.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    for (const name of ['Chat', 'Servers', 'Logs', 'Settings']) await expect(ui(window).navButton(name)).toBeVisible();
    await expect(ui(window).navButton('Chat')).toHaveAttribute('aria-current', 'page');
  });

  await test.step('Settings shows the host facts', async () => {
    await ui(window).navButton('Settings').click();
    await expect(ui(window).navButton('Settings')).toHaveAttribute('aria-current', 'page');
    await expect(window.getByTestId('host-version')).toHaveText(appVersion());
    await expect(window.getByTestId('host-mode')).toContainText('Electron');
    await expect(window.getByTestId('host-data-dir')).toHaveText(electron.dataDir);
    await expect(window.getByTestId('host-database')).toHaveText(/^OK · .*synchronous FULL$/);
    await expect(ui(window).theme('System')).toBeChecked();
  });

  await test.step('changes are saved; an invalid base URL is refused next to its field', async () => {
    const { theme, baseUrl, model, save, saveState } = ui(window);
    await theme('Dark').check();
    await baseUrl.fill(SAVED.baseUrl);
    await model.fill(SAVED.model);
    await save.click();
    await expect(saveState).toHaveText('Saved');
    await expectSavedSettings(window);

    await baseUrl.fill('not a url');
    await save.click();
    await expect(saveState).toHaveText(/^Not saved/);
    await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(baseUrl).toHaveAccessibleDescription(/invalid/i);
    await expect(baseUrl).toHaveValue('not a url');
  });

  await test.step('after quitting and relaunching on the same data directory, the saved settings are there', async () => {
    await app.close();
    ({ app, window } = await electron.launch());
    await ui(window).navButton('Settings').click();
    await expectSavedSettings(window);
    // Electron talks over IPC: there is no connection to lose, so no banner.
    await expect(window.getByRole('status').filter({ hasText: 'Disconnected' })).toHaveCount(0);
  });
});
