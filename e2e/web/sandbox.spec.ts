/**
 * A sandboxed server end to end: turned on in the form (Sandbox, Network), it starts inside
 * bubblewrap and the Overview says what it sees; a server whose launch trips over a path outside its
 * sandbox says so, and Run unsandboxed gets it going. Skipped where bubblewrap cannot run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { sandboxSupport } from '../../src-main/core/sandbox/sandbox-support';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

const FIXTURES = path.join(REPO_ROOT, 'e2e', 'fixtures');
const support = sandboxSupport();

function card(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
}

async function addServer(page: Page, name: string, args: string[], network: 'Allowed' | 'Blocked') {
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Command', { exact: true }).fill(process.execPath);
  await dialog.getByLabel('Arguments', { exact: true }).fill(args.join('\n'));
  // The default for a new local server where the sandbox runs: on, network allowed.
  await expect(dialog.getByRole('switch', { name: 'Sandbox' })).toBeChecked();
  await expect(dialog.getByRole('combobox', { name: 'Network' })).toHaveText('Allowed');
  await choose(dialog.getByRole('combobox', { name: 'Network' }), network);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('sandbox: a sandboxed server says what it sees; one stopped by its sandbox can run unsandboxed', async ({ page, webHost }) => {
  test.skip(!support.supported, support.supported ? '' : support.reason);
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-outside-'));
  const scripts = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-server-'));
  const file = path.join(outside, 'settings.json');
  fs.writeFileSync(file, '{}');
  try {
    await page.goto(webHost.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers', exact: true }).click();

    await addServer(page, 'boxed echo', [path.join(FIXTURES, 'echo.mjs')], 'Blocked');
    await expect(card(page, 'boxed echo')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await card(page, 'boxed echo').getByRole('button', { name: 'boxed echo', exact: true }).click();
    await expect(page.getByText('Sandboxed: sees no shared folders; network blocked')).toBeVisible();
    await page.getByRole('button', { name: 'All servers' }).click();

    // Reads a file outside its sandbox as it starts, then serves: stopped by the sandbox only.
    // Its own folder is readable inside (its install location); the config folder is not.
    // The echo server beside it (its install location is this folder), so once the config folder is shared it serves.
    const reader = path.join(scripts, 'reader.mjs');
    fs.copyFileSync(path.join(FIXTURES, 'echo.mjs'), path.join(scripts, 'echo.mjs'));
    fs.cpSync(path.join(FIXTURES, 'lib'), path.join(scripts, 'lib'), { recursive: true });
    fs.writeFileSync(reader, `import fs from 'node:fs';\nfs.readFileSync(${JSON.stringify(file)});\nawait import('./echo.mjs');\n`);
    await addServer(page, 'needs config', [reader], 'Blocked');
    await expect(card(page, 'needs config')).toHaveAttribute('data-status', /error|crashed/, { timeout: 60_000 });
    await card(page, 'needs config').getByRole('button', { name: 'needs config', exact: true }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'outside the sandbox' });
    await expect(notice).toContainText(file);

    // Diagnose names it too, with the same two ways out: Share folder there runs the diagnosis again,
    // inside the wider sandbox, where it now gets through.
    await page.getByRole('button', { name: 'Diagnose', exact: true }).click();
    const diagnosis = page.getByRole('dialog', { name: 'Diagnose needs config' });
    const inside = diagnosis.getByRole('alert').filter({ hasText: 'outside the sandbox' });
    await expect(inside).toContainText(file, { timeout: 60_000 });
    await expect(inside.getByRole('button', { name: 'Run unsandboxed' })).toBeVisible();
    await inside.getByRole('button', { name: 'Share folder' }).click();
    await expect(diagnosis.getByRole('status')).toHaveText('Every step worked: needs config can start.', { timeout: 60_000 });
    await expect(diagnosis.getByRole('listitem', { name: 'Build its sandbox: OK' })).toContainText('sees 1 shared folder');
    await diagnosis.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Run unsandboxed' }).click();
    await expect(page.getByText('Not sandboxed: it can read and write everything you can')).toBeVisible({ timeout: 60_000 });
  } finally {
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(scripts, { recursive: true, force: true });
  }
});

test('sandbox: a folder made read-only restarts a sandboxed server that sees it, asked first, and it then only reads there', async ({
  page,
  webHost,
}) => {
  test.skip(!support.supported, support.supported ? '' : support.reason);
  const shared = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-ro-')));
  const main = page.getByRole('navigation', { name: 'Main' });
  try {
    await page.goto(webHost.url);
    await main.getByRole('button', { name: 'Roots', exact: true }).click();
    await page.getByRole('button', { name: 'Add folder', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add folder' });
    await add.getByRole('textbox', { name: 'Folder path' }).fill(shared);
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(add).toBeHidden();

    await main.getByRole('button', { name: 'Servers', exact: true }).click();
    await addServer(page, 'boxed files', [path.join(FIXTURES, 'echo.mjs')], 'Blocked');
    await expect(card(page, 'boxed files')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await card(page, 'boxed files').getByRole('button', { name: 'boxed files', exact: true }).click();
    const folders = page.getByRole('region', { name: 'Folders' });

    // Sharing the folder moves its boundary: asked first (the box stays as it is until then); Cancel changes nothing.
    await folders.getByRole('checkbox', { name: path.basename(shared) }).click();
    const ask = page.getByRole('alertdialog', { name: 'Restart “boxed files”?' });
    await expect(ask).toContainText('Restarting “boxed files” so its sandbox sees the new folders');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(folders.getByRole('checkbox', { name: path.basename(shared) })).not.toBeChecked();
    await folders.getByRole('checkbox', { name: path.basename(shared) }).click();
    await ask.getByRole('button', { name: 'Restart now' }).click();
    await expect(page.getByText('Sandboxed: sees 1 shared folder; network blocked')).toBeVisible({ timeout: 60_000 });

    await main.getByRole('button', { name: 'Roots', exact: true }).click();
    const item = page.getByRole('list', { name: 'Folders' }).getByRole('listitem', { name: path.basename(shared), exact: true });
    await item.getByRole('checkbox', { name: 'Read only' }).click();
    await ask.getByRole('button', { name: 'Restart now' }).click();
    await expect(item.getByRole('checkbox', { name: 'Read only' })).toBeChecked();
    await main.getByRole('button', { name: 'Servers', exact: true }).click();
    await card(page, 'boxed files').getByRole('button', { name: 'boxed files', exact: true }).click();
    await expect(page.getByText('Sandboxed: sees 1 shared folder, read-only; network blocked')).toBeVisible({ timeout: 60_000 });
  } finally {
    fs.rmSync(shared, { recursive: true, force: true });
  }
});
