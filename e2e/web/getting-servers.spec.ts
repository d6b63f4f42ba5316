/**
 * Getting servers, end to end in web mode: Find servers against a registry on 127.0.0.1 → Install →
 * Ready (npx from the local npm cache); Install bundle (packed with the mcpb CLI) → its tool runs,
 * a hostile bundle is refused with nothing written; an install link pasted into Import servers; and
 * export → wipe → restore with no server lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { listFiles, packBundle, renameZipEntry } from '../../src-main/test-support/bundle-fixtures';
import { REPO_ROOT } from '../support/paths';
import { startRegistry } from '../support/registry';
import { expect, test } from '../support/web-host';

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const card = (page: Page, name: string) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });

test('Find servers: search the registry, install the npm entry, and it becomes Ready', async ({ page, webHost }) => {
  const registry = await startRegistry();
  try {
    await page.goto(webHost.url);
    await nav(page, 'Settings');
    await page.getByLabel('Registry URL', { exact: true }).fill(registry.url);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();

    await nav(page, 'Servers');
    await page.getByRole('button', { name: 'Find servers' }).click();
    const find = page.getByRole('dialog', { name: 'Find servers' });
    await find.getByRole('searchbox', { name: 'Search servers' }).fill('everything');
    const entry = find.getByRole('listitem', { name: 'Everything' });
    await expect(entry).toContainText('io.github.modelcontextprotocol');
    await expect(find.getByRole('listitem')).toHaveCount(1);
    await entry.getByRole('button', { name: 'Install' }).click();

    const install = page.getByRole('dialog', { name: 'Install Everything' });
    await expect(install.getByTestId('install-command-line')).toHaveText('npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio');
    await install.getByRole('button', { name: 'Install' }).click();
    await expect(install).toBeHidden();
    await expect(card(page, 'Everything')).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  } finally {
    await registry.stop();
  }
});

test('Install bundle: its settings by their titles, the tool runs; a hostile bundle is refused and nothing is written', async ({
  page,
  webHost,
}) => {
  await page.goto(webHost.url);
  await nav(page, 'Servers');

  await test.step('a bundle with settings installs and its tool runs', async () => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Install bundle' }).click();
    await (await chooser).setFiles(packBundle('notes'));
    const dialog = page.getByRole('dialog', { name: 'Install Notes (bundle)' });
    await expect(dialog).toContainText('Not signed');
    await dialog.getByLabel('Greeting', { exact: true }).fill('Good morning');
    await dialog.getByLabel('Repeat', { exact: true }).fill('2');
    await expect(dialog.getByTestId('install-command-line')).toContainText('--greeting "Good morning"');
    await dialog.getByRole('button', { name: 'Install' }).click();
    await expect(dialog).toBeHidden();
    const server = card(page, 'Notes (bundle)');
    await expect(server).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await server.getByRole('button', { name: 'Notes (bundle)', exact: true }).click();
    await page.getByRole('tab', { name: /^Tools\b/ }).click();
    await page.getByRole('list', { name: 'Tools of Notes (bundle)' }).getByRole('button', { name: 'greet', exact: true }).click();
    await page.getByRole('form', { name: 'Run greet' }).getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('region', { name: 'Result: greet on Notes (bundle)' })).toContainText('Good morning Good morning');
    await page.getByRole('button', { name: 'All servers' }).click();
  });

  await test.step('a bundle whose archive writes outside its folder is refused; nothing is written', async () => {
    const before = listFiles(path.join(webHost.dataDir, 'bundles'));
    const hostile = packBundle('hostile');
    renameZipEntry(hostile, 'zz/escape.txt', '../escape.txt');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Install bundle' }).click();
    await (await chooser).setFiles(hostile);
    await expect(page.getByRole('alert')).toContainText('This bundle was refused: it holds a path that escapes the bundle');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(listFiles(path.join(webHost.dataDir, 'bundles'))).toEqual(before);
    expect(listFiles(path.join(webHost.dataDir, 'tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(webHost.dataDir, 'escape.txt'))).toBe(false);
    await expect(page.getByRole('list', { name: 'Servers' }).getByRole('listitem')).toHaveCount(1);
  });

  await test.step('a bundle dropped onto the window opens its install dialog', async () => {
    const bytes = fs.readFileSync(packBundle('secret-key')).toString('base64');
    await page.evaluate((data) => {
      const file = new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], 'secret-key.mcpb');
      const transfer = new DataTransfer();
      transfer.items.add(file);
      window.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    const dialog = page.getByRole('dialog', { name: 'Install Secret key (bundle)' });
    await expect(dialog.getByLabel('API key', { exact: true })).toHaveAttribute('type', 'password');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });
});

test('an install link pasted into Import servers: confirmation first, then Ready', async ({ page, webHost }) => {
  const echo = path.join(REPO_ROOT, 'e2e', 'fixtures', 'echo.mjs');
  const link = `patchbay://install?${encodeURIComponent(JSON.stringify({ name: 'linked echo', command: process.execPath, args: [echo] }))}`;
  await page.goto(webHost.url);
  await nav(page, 'Servers');
  await page.getByRole('button', { name: 'Import servers' }).click();
  await page.getByRole('dialog').getByLabel('Configuration').fill(link);
  await page.getByRole('button', { name: 'Review link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Install linked echo' });
  await expect(dialog.getByTestId('install-command-line')).toHaveText(`${process.execPath} ${echo}`);
  await expect(dialog.getByLabel('Start it now')).not.toBeChecked();
  await dialog.getByLabel('Start it now').check();
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(card(page, 'linked echo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
});

test('export → wipe → restore: every server comes back, secrets to be filled', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await nav(page, 'Servers');
  for (const preset of ['Everything (demo)', 'Memory']) {
    await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: preset }).click();
    await expect(card(page, preset)).toBeVisible();
  }
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name', { exact: true }).fill('with secret');
  await form.getByLabel('Command', { exact: true }).fill(process.execPath);
  await form.getByLabel('Arguments', { exact: true }).fill(path.join(REPO_ROOT, 'e2e', 'fixtures', 'echo.mjs'));
  await form.getByLabel('Environment', { exact: true }).fill('API_TOKEN=tok-never-exported');
  await form.getByRole('checkbox', { name: 'API_TOKEN', exact: true }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(card(page, 'with secret')).toBeVisible();

  await nav(page, 'Settings');
  await page.getByRole('button', { name: 'Export as Patchbay JSON' }).click();
  const exported = await page.getByLabel('Exported text').inputValue();
  expect(exported).not.toContain('tok-never-exported');
  await expect(page.getByRole('status').filter({ hasText: 'Exported 3 servers' })).toContainText('with secret: API_TOKEN');

  // Wipe: a new, empty data directory in place of the old one.
  await webHost.stop();
  fs.rmSync(webHost.dataDir, { recursive: true, force: true });
  await webHost.restart();
  await page.goto(webHost.url);
  await nav(page, 'Servers');
  await expect(page.getByText(/No servers yet/)).toBeVisible();

  await page.getByRole('button', { name: 'Import servers' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Configuration').fill(exported);
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog).toContainText('Patchbay export');
  await dialog.getByRole('button', { name: 'Import 3 servers' }).click();
  await expect(dialog).toContainText('Imported 3 servers');
  await expect(dialog).toContainText('with secret: Restored disabled: set API_TOKEN before enabling');
  await dialog.getByRole('button', { name: 'Close' }).click();
  for (const name of ['Everything (demo)', 'Memory', 'with secret']) await expect(card(page, name)).toBeVisible();
  await expect(card(page, 'Everything (demo)')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
});
