/**
 * Roots through the UI, against a real server-filesystem started without directory arguments (so it
 * takes its allowed directories from roots): add a folder with the web-mode dialog and its folder
 * browser, share it when the server asks ("Share folders"), see the server work in it, remove it and
 * see access refused. The server's side is checked through the host contract over the WebSocket (the
 * same `runTool` call the Tools panel makes), since that is where the truth is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { ContractSocket, signIn } from '../support/raw-client';
import { expect, test, type WebHost } from '../support/web-host';
import { isAlive } from '../support/processes';

const FILESYSTEM_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const FOLDER = 'Shared folder ü 日本';

interface Outcome {
  status: string;
  blocks: { type: string; text?: string }[];
  error?: { message: string };
}

/** The host contract over its WebSocket, signed in like a browser tab. */
async function contract(host: WebHost) {
  const socket = await ContractSocket.connect(`ws://127.0.0.1:${host.port}/ws`, {
    origin: host.origin,
    credential: (await signIn(host.url)).credential,
  });
  let id = 0;
  const call = async <T>(method: string, input?: unknown): Promise<T> => {
    const frame = await socket.call(++id, method, input);
    if (!frame.result.ok) throw new Error(`${method}: ${frame.result.error.message}`);
    return frame.result.value as T;
  };
  /** Runs a tool; a server that is not running (e.g. restarting) is reported as a failed outcome, not thrown. */
  const runTool = async (serverId: string, tool: string, args: Record<string, unknown> = {}) => {
    let outcome: Outcome;
    try {
      outcome = await call<Outcome>('runTool', { serverId, tool, args });
    } catch (error) {
      outcome = { status: 'not_called', blocks: [], error: { message: (error as Error).message } };
    }
    return { ...outcome, text: outcome.blocks.map((b) => b.text ?? '').join('\n') || outcome.error?.message || '' };
  };
  return { socket, call, runTool };
}

function nav(page: Page, name: string) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
}

test('roots: add a folder, share it when asked, the server works in it, remove it and access is refused', async ({ page, webHost }) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-roots-')));
  const folder = path.join(base, FOLDER);
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'written before sharing\n');
  const client = await contract(webHost);
  try {
    await page.goto(webHost.url);
    const folderItem = page.getByRole('list', { name: 'Folders' }).getByRole('listitem', { name: FOLDER, exact: true });

    await test.step('Add folder opens the path dialog; its folder browser walks the host’s folders', async () => {
      await nav(page, 'Roots').click();
      await expect(page.getByRole('heading', { name: 'Roots', exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Add folder', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add folder' });
      const pathBox = dialog.getByRole('textbox', { name: 'Folder path' });
      await pathBox.fill(path.join(base, 'missing'));
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(pathBox).toHaveAttribute('aria-invalid', 'true');
      await expect(dialog).toContainText('No such folder');

      await pathBox.fill(base);
      await dialog.getByRole('button', { name: 'Browse here' }).click();
      await dialog.getByRole('navigation', { name: 'Folder browser' }).getByRole('button', { name: FOLDER, exact: true }).click();
      await expect(pathBox).toHaveValue(folder);
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(folderItem).toBeVisible();
      await expect(folderItem).toContainText(folder);
      await expect(folderItem).toContainText('Available');
      await expect(folderItem).toContainText('No server');
    });

    await test.step('a filesystem server without directories asks; the user shares the folder', async () => {
      await nav(page, 'Servers').click();
      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('dialog');
      await form.getByLabel('Name', { exact: true }).fill('files');
      await form.getByLabel('Command', { exact: true }).fill(process.execPath);
      await form.getByLabel('Arguments', { exact: true }).fill(FILESYSTEM_SERVER);
      // Roots as MCP has them (list_changed, no restart): run unsandboxed, a deliberate choice the form states.
      await form.getByRole('switch', { name: 'Sandbox' }).uncheck();
      await expect(form.getByText(/^Runs unsandboxed/)).toBeVisible();
      await form.getByRole('button', { name: 'Save' }).click();

      const question = page.getByRole('dialog', { name: 'Share folders' });
      await expect(question).toBeVisible({ timeout: 60_000 });
      await expect(question).toContainText('files');
      await expect(question.getByRole('checkbox', { name: FOLDER })).toBeChecked();
      await question.getByRole('button', { name: 'Share', exact: true }).click();
      await expect(question).toBeHidden();
    });

    const { servers } = await client.call<{ servers: { config: { id: string; name: string } }[] }>('getSnapshot');
    const serverId = servers.find((s) => s.config.name === 'files')!.config.id;

    await test.step('the server lists the folder as allowed and reads a file in it', async () => {
      await expect
        .poll(async () => (await client.runTool(serverId, 'list_allowed_directories')).text, { timeout: 30_000 })
        .toContain(folder);
      const read = await client.runTool(serverId, 'read_text_file', { path: path.join(folder, 'notes.txt') });
      expect(read.status).toBe('ok');
      expect(read.text).toBe('written before sharing\n');
      const outside = await client.runTool(serverId, 'list_directory', { path: base });
      expect(outside.status).toBe('tool_error');
    });

    await test.step('the Roots page says who sees the folder, and the server page can change it', async () => {
      await nav(page, 'Roots').click();
      await expect(folderItem).toContainText('files');
      await expect(page.getByRole('list', { name: 'Recent sharing' })).toContainText('files');
      await nav(page, 'Servers').click();
      await page.getByRole('button', { name: 'files', exact: true }).click();
      const section = page.getByRole('region', { name: 'Folders' });
      await expect(section.getByRole('radio', { name: 'Only these folders:' })).toBeChecked();
      await expect(section.getByRole('checkbox', { name: FOLDER })).toBeChecked();
    });

    await test.step('Remove: the folder is gone and the server is refused', async () => {
      await nav(page, 'Roots').click();
      await folderItem.getByRole('button', { name: 'Remove', exact: true }).click();
      await expect(folderItem).toBeHidden();
      await expect
        .poll(async () => (await client.runTool(serverId, 'list_allowed_directories')).text, { timeout: 60_000 })
        .toMatch(/^Allowed directories:\s*$/);
      const refused = await client.runTool(serverId, 'read_text_file', { path: path.join(folder, 'notes.txt') });
      expect(refused.status).toBe('tool_error');
      expect(refused.text).toMatch(/access denied/i);
    });

    await test.step('a symlink is added as its real target, and the page says so', async () => {
      const target = path.join(base, 'real target');
      fs.mkdirSync(target);
      const link = path.join(base, 'link');
      fs.symlinkSync(target, link, 'dir');
      await page.getByRole('button', { name: 'Add folder', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add folder' });
      await dialog.getByRole('textbox', { name: 'Folder path' }).fill(link);
      await dialog.getByRole('button', { name: 'Add', exact: true }).click();
      const item = page.getByRole('list', { name: 'Folders' }).getByRole('listitem', { name: 'real target', exact: true });
      await expect(item).toContainText(target);
      await expect(item).toContainText(`You picked ${link}`);
    });

    await test.step('a clean shutdown leaves the server process behind nowhere', async () => {
      const { servers: now } = await client.call<{ servers: { config: { id: string }; runtime: { pid?: number } }[] }>('getSnapshot');
      const pid = now.find((s) => s.config.id === serverId)?.runtime.pid;
      expect(pid).toBeGreaterThan(0);
      await client.socket.close();
      expect(await webHost.stop()).toEqual({ code: 0, signal: null });
      expect(isAlive(pid!)).toBe(false);
    });
  } finally {
    await client.socket.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
});
