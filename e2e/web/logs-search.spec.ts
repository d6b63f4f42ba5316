/**
 * Logs as a finished app reads them (issue #17, item 8): the text filter searches the whole entry
 * (a phrase only the full message has is found), the method filter matches any part of a method, the
 * open tab stays when another server is picked, and "All servers" merges every server's stream by time,
 * each row naming its server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contractClient, openPage } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

const MODULES = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol');
const EVERYTHING = path.join(MODULES, 'server-everything', 'dist', 'index.js');
const FILESYSTEM = path.join(MODULES, 'server-filesystem', 'dist', 'index.js');
/** Far past the one-line preview of a protocol entry: only the full message holds it. */
const PHRASE = 'Hello from the far end';

test('Logs: whole-entry search, method by any part, the tab kept across servers, and All servers by time', async ({ page, webHost }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-logs-'));
  const client = await contractClient(webHost);
  try {
    const echo = (await client.api.addServer({ name: 'echoes', command: process.execPath, args: [EVERYTHING] })).config.id;
    const files = (await client.api.addServer({ name: 'files', command: process.execPath, args: [FILESYSTEM, dir] })).config.id;
    await client.waitFor(echo, 'ready');
    await client.waitFor(files, 'ready');
    const result = await client.api.runTool({ serverId: echo, tool: 'echo', args: { message: `${'x'.repeat(400)} ${PHRASE}` } });
    expect(JSON.stringify(result.blocks)).toContain(PHRASE);

    await page.goto(webHost.url);
    await openPage(page, 'Logs');
    const picker = page.getByRole('combobox', { name: 'Server', exact: true });
    await choose(picker, 'echoes');
    await page.getByRole('tab', { name: 'Protocol', exact: true }).click();
    const protocol = page.getByRole('list', { name: 'Protocol entries' });

    await test.step('the filter finds a phrase that only the full message holds', async () => {
      await expect(protocol.getByRole('listitem').filter({ hasText: 'tools/call' }).first()).toBeVisible({ timeout: 30_000 });
      await expect(protocol.getByRole('listitem').filter({ hasText: PHRASE })).toHaveCount(0); // not in any row's preview
      await page.getByRole('searchbox', { name: 'Filter' }).fill(PHRASE);
      // The call and its result, found by what their full messages say.
      await expect(protocol.getByRole('listitem')).toHaveCount(2);
      for (const row of await protocol.getByRole('listitem').all()) await expect(row).toContainText('tools/call');
      await protocol.getByRole('listitem').filter({ hasText: 'result' }).getByRole('button').click();
      await expect(page.getByRole('region', { name: 'Entry detail' })).toContainText(PHRASE);
      await page.getByRole('searchbox', { name: 'Filter' }).fill('');
    });

    await test.step('the method filter matches any part of the method', async () => {
      await page.getByRole('searchbox', { name: 'Method' }).fill('call');
      await expect(protocol.getByRole('listitem')).toHaveCount(2);
      await page.getByRole('searchbox', { name: 'Method' }).fill('LIST');
      await expect(protocol.getByRole('listitem').first()).toBeVisible();
      for (const row of await protocol.getByRole('listitem').all()) await expect(row).toContainText(/\w+\/list/);
    });

    await test.step('picking another server keeps the Protocol tab', async () => {
      await choose(picker, 'files');
      await expect(page.getByRole('tab', { name: 'Protocol', exact: true })).toHaveAttribute('aria-selected', 'true');
      await expect(protocol.getByRole('listitem').filter({ hasText: 'initialize' }).first()).toBeVisible();
    });

    await test.step('All servers: both servers’ handshakes in one list, in time order, each row naming its server', async () => {
      await choose(picker, 'All servers');
      await expect(page.getByRole('tab', { name: 'Protocol', exact: true })).toHaveAttribute('aria-selected', 'true');
      await page.getByRole('searchbox', { name: 'Method' }).fill('initialize');
      const rows = protocol.getByRole('listitem');
      await expect(rows.filter({ hasText: 'echoes' }).first()).toBeVisible();
      await expect(rows.filter({ hasText: 'files' }).first()).toBeVisible();
      const times = (await rows.allTextContents()).map((text) => text.slice(0, 12));
      expect(times.length).toBeGreaterThanOrEqual(4);
      expect(times).toEqual([...times].sort());
      // New entries of any server arrive live in the merged list.
      await page.getByRole('searchbox', { name: 'Method' }).fill('tools/call');
      await expect(rows).toHaveCount(2);
      await client.api.runTool({ serverId: files, tool: 'list_allowed_directories', args: {} });
      await expect(rows).toHaveCount(4);
      await expect(rows.filter({ hasText: 'files' })).toHaveCount(2);
    });
  } finally {
    for (const server of (await client.api.getSnapshot()).servers) await client.api.removeServer({ id: server.config.id });
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
