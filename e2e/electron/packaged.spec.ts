/**
 * The installed app, as people get it: the unpacked build of `npm run dist` (release/linux-unpacked,
 * release/mac-universal, release/win-unpacked) on an empty data directory. It opens, runs a preset
 * server on its own runtime (ELECTRON_RUN_AS_NODE, from the unpacked side of the archive, with
 * better-sqlite3 built for Electron), takes a `patchbay://` link and a `.mcpb` file handed over by a
 * second launch (each opens the install dialog; nothing is installed without Install), and quits without leaving a process behind.
 *
 * Skipped (with the reason printed) where there is no packaged app or no display.
 */
import { _electron, test as base, expect, type ElectronApplication, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from '../support/processes';
import { findPackagedApp, rootArgs } from '../support/packaged-app';

const packaged = findPackagedApp();
if (!packaged.usable) console.log(`[e2e/electron] skipping the packaged app: ${packaged.reason}`);

const test = base.extend<{ installed: { dataDir: string; app: ElectronApplication; window: Page; env: Record<string, string> } }>({
  // eslint-disable-next-line no-empty-pattern
  installed: async ({}, use) => {
    const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-packaged-'));
    const dataDir = path.join(tempRoot, 'data');
    const env = { ...process.env, PATCHBAY_DATA_DIR: dataDir } as Record<string, string>;
    delete env.ELECTRON_RUN_AS_NODE;
    const app = await _electron.launch({ executablePath: packaged.executablePath!, args: rootArgs(), env, timeout: 60_000 });
    try {
      await use({ dataDir, app, window: await app.firstWindow(), env });
    } finally {
      await app.close().catch(() => undefined);
      fs.rmSync(tempRoot, { recursive: true, force: true });
    }
  },
});

test.skip(!packaged.usable, packaged.reason ?? '');

/** The host's snapshot, through the preload bridge the renderer uses. */
async function snapshot(window: Page): Promise<{
  servers: { config: { name: string }; runtime: { status: string; pid?: number } }[];
  info: { mode: string; logFile: string };
}> {
  return window.evaluate(async () => {
    const result = await (
      window as unknown as { patchbay: { methods: { getSnapshot(): Promise<{ ok: boolean; value: unknown }> } } }
    ).patchbay.methods.getSnapshot();
    return result.value as never;
  });
}

test('packaged app: starts, runs a preset on its own runtime, takes links from a second launch, quits cleanly', async ({ installed }) => {
  const { window, dataDir, env, app } = installed;
  const nav = (name: string) => window.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

  await test.step('the installed app opens on the data directory it was given', async () => {
    await expect(nav('Chat')).toBeVisible();
    await nav('Settings').click();
    await expect(window.getByTestId('host-mode')).toContainText('Electron');
    await expect(window.getByTestId('host-log-file')).toHaveText(path.join(dataDir, 'logs', 'patchbay.log'));
    await expect(window.getByTestId('update-state')).toContainText(/Updates are off|Not applicable/);
  });

  let pid = 0;
  await test.step('a preset server starts from the unpacked archive on the app’s own runtime', async () => {
    await nav('Servers').click();
    await window.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: 'Everything (demo)' }).click();
    const card = window.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'Everything (demo)', exact: true });
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    pid = (await snapshot(window)).servers.find((s) => s.config.name === 'Everything (demo)')!.runtime.pid!;
    expect(isAlive(pid)).toBe(true);
  });

  await test.step('a second launch hands over a link and a bundle: each asks first, and nothing is added', async () => {
    const bundle = path.join(dataDir, 'example.mcpb');
    fs.writeFileSync(bundle, 'not really a zip');
    const link = `patchbay://install?${encodeURIComponent(JSON.stringify({ name: 'echo', command: 'node', args: ['echo.mjs'] }))}`;
    const second = spawn(packaged.executablePath!, [...rootArgs(), link, bundle], { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(0); // it found the first instance and left
    const dialog = window.getByRole('dialog', { name: 'Install echo' });
    await expect(dialog.getByTestId('install-command-line')).toHaveText('node echo.mjs');
    await expect(dialog.getByLabel('Start it now')).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const refusal = window.getByRole('region', { name: 'Install' }).getByRole('alert');
    await expect(refusal).toContainText(`Could not open ${bundle}: This bundle was refused`);
    expect((await snapshot(window)).servers.map((s) => s.config.name)).toEqual(['Everything (demo)']); // nothing was added
    await refusal.getByRole('button', { name: 'Dismiss' }).click();
    await expect(refusal).toHaveCount(0);
  });

  await test.step('quitting stops the server (no orphan) and the app log tells the story', async () => {
    await app.close();
    await expect.poll(() => isAlive(pid), { timeout: 15_000 }).toBe(false);
    const log = fs.readFileSync(path.join(dataDir, 'logs', 'patchbay.log'), 'utf8');
    expect(log).toMatch(/\[app\] Patchbay .* started \(electron mode/);
    expect(log).toMatch(/\[server "Everything \(demo\)" [\w-]+\] spawn: Spawned pid \d+/);
    expect(log).toContain('[open] Asked (second-instance) to install the server "echo" from a link');
    expect(log).toMatch(/\[app\] Stopped: every server stopped/);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'window-state.json'), 'utf8'))).toMatchObject({
      width: expect.any(Number),
      height: expect.any(Number),
    });
  });
});
