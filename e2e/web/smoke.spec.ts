/**
 * Web mode, end to end, from an empty data directory: the printed link opens the app, Settings shows
 * the host's facts, settings save and survive a host restart, and the open tab reconnects by itself.
 */
import type { Page } from '@playwright/test';
import { appVersion } from '../support/paths';
import { expect, test } from '../support/web-host';

const SAVED = { baseUrl: 'http://127.0.0.1:9/v1', model: 'claude-e2e-model' };

function ui(page: Page) {
  const form = page.getByRole('form', { name: 'Preferences' });
  return {
    nav: page.getByRole('navigation', { name: 'Main' }),
    navButton: (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }),
    theme: (name: string) => form.getByRole('group', { name: 'Theme' }).getByRole('radio', { name, exact: true }),
    baseUrl: form.getByRole('textbox', { name: 'Anthropic base URL', exact: true }),
    model: form.getByRole('textbox', { name: 'Model', exact: true }),
    save: form.getByRole('button', { name: 'Save', exact: true }),
    saveState: form.getByRole('status'),
    disconnected: page.getByRole('status').filter({ hasText: 'Disconnected — reconnecting…' }),
  };
}

async function expectSavedSettings(page: Page) {
  const { theme, baseUrl, model } = ui(page);
  await expect(theme('Dark')).toBeChecked();
  await expect(baseUrl).toHaveValue(SAVED.baseUrl);
  await expect(model).toHaveValue(SAVED.model);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
}

test('web mode: settings save, survive a host restart, and the tab reconnects by itself', async ({ page, webHost }) => {
  const { nav, navButton, theme, baseUrl, model, save, saveState, disconnected } = ui(page);

  await test.step('the printed URL opens the app and scrubs its token from the address bar', async () => {
    await page.goto(webHost.url);
    await expect(page).toHaveURL(`${webHost.origin}/#/chat`);
    await expect(nav).toBeVisible();
    for (const name of ['Chat', 'Servers', 'Logs', 'Settings']) await expect(navButton(name)).toBeVisible();
    await expect(navButton('Chat')).toHaveAttribute('aria-current', 'page');
  });

  await test.step('Settings shows the host facts', async () => {
    await navButton('Settings').click();
    await expect(navButton('Settings')).toHaveAttribute('aria-current', 'page');
    await expect(navButton('Chat')).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('host-version')).toHaveText(appVersion());
    await expect(page.getByTestId('host-mode')).toContainText('Web mode');
    await expect(page.getByTestId('host-data-dir')).toHaveText(webHost.dataDir);
    await expect(page.getByTestId('host-database')).toHaveText(/^OK · .*synchronous FULL$/);
    // A new install shows the defaults.
    await expect(theme('System')).toBeChecked();
    await expect(baseUrl).toHaveValue('');
  });

  await test.step('the theme applies the moment it is chosen; other changes are saved with Save', async () => {
    await theme('Dark').check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(saveState).toHaveText('Saved');
    await baseUrl.fill(SAVED.baseUrl);
    await model.fill(SAVED.model);
    await save.click();
    await expect(saveState).toHaveText('Saved');
    await expectSavedSettings(page);
  });

  await test.step('an invalid base URL is refused next to its field, keeping what was typed', async () => {
    // Not a URL at all: the host's error is shown next to the field, the draft is kept, nothing is
    // committed. (The form must not leave this to the browser's own URL validation, which would block
    // the submit and show nothing in the page.)
    await baseUrl.fill('not a url');
    await save.click();
    await expect(saveState).toHaveText(/^Not saved/);
    await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(baseUrl).toHaveAccessibleDescription(/invalid/i);
    await expect(baseUrl).toHaveValue('not a url');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    // A well-formed URL the host refuses (not http/https): same treatment.
    await baseUrl.fill('ftp://127.0.0.1/v1');
    await expect(baseUrl).not.toHaveAttribute('aria-invalid', 'true');
    await expect(saveState).toHaveText('');
    await save.click();
    await expect(saveState).toHaveText(/^Not saved/);
    await expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(baseUrl).toHaveAccessibleDescription(/invalid/i);
    await expect(baseUrl).toHaveValue('ftp://127.0.0.1/v1');
    await expect(model).toHaveValue(SAVED.model);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

    // Fixing the field clears its error; saving again commits.
    await baseUrl.fill(SAVED.baseUrl);
    await expect(baseUrl).not.toHaveAttribute('aria-invalid', 'true');
    await expect(baseUrl).toHaveAccessibleDescription(/Leave empty for Anthropic/);
    await save.click();
    await expect(saveState).toHaveText('Saved');
  });

  await test.step('a host restart: the open tab says so, then reconnects by itself', async () => {
    // Proves the tab is never reloaded: a reload would lose this.
    await page.evaluate(() => ((window as unknown as { __sameTab: boolean }).__sameTab = true));
    const firstPid = webHost.pid;

    const exit = await webHost.stop();
    expect(exit, `SIGTERM should shut the host down cleanly; it printed:\n${webHost.stdout}`).toEqual({ code: 0, signal: null });
    expect(webHost.stdout).toContain('shutting down');
    await expect(disconnected).toBeVisible();

    await webHost.restart();
    expect(webHost.pid).not.toBe(firstPid);
    await expect(disconnected).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { __sameTab?: boolean }).__sameTab)).toBe(true);
    await expect(page).toHaveURL(`${webHost.origin}/#/settings`);
    await expectSavedSettings(page);
    await expect(page.getByTestId('host-data-dir')).toHaveText(webHost.dataDir);
  });

  await test.step('after a reload (no token in the URL) the saved settings are still there', async () => {
    await page.reload();
    // The reload comes back to the page it was on (its address is #/settings).
    await expect(page).toHaveURL(`${webHost.origin}/#/settings`);
    await expect(navButton('Settings')).toHaveAttribute('aria-current', 'page');
    await expectSavedSettings(page);
    await expect(disconnected).toHaveCount(0);
  });

  await test.step('a new tab opened without the printed link is told how to get in, and gets no access', async () => {
    const other = await page.context().newPage();
    await other.goto(`${webHost.origin}/`);
    await expect(other.getByRole('alert')).toContainText('Open the link that');
    await expect(other.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await other.close();
  });
});
