/**
 * One folder added while several servers run (issue #17, item 7): every running filesystem server
 * (started without directories, so it takes them from roots) asks for roots after the change, and
 * the user gets ONE "Share folders" dialog listing them with a count and a choice per server — not
 * one dialog per server. Each server then works in the folder it was given, and only those.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { contractClient, openPage } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';

const FILESYSTEM_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
const SERVERS = ['files A', 'files B', 'files C'];

test('roots: one folder added, one dialog for every server that asks, each with its own answer', async ({ page, webHost }) => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'patchbay-e2e-batch-')));
  const folder = path.join(base, 'project');
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'plan.txt'), 'one question for all\n');
  const client = await contractClient(webHost);
  try {
    const ids: string[] = [];
    // Roots as MCP has them (list_changed, no restart): unsandboxed by choice, since a sandboxed server
    // restarts into its new boundary instead (covered by roots.spec and the sandbox tests).
    const sandbox = { enabled: false, network: 'allowed' as const, hosts: [] };
    for (const name of SERVERS)
      ids.push((await client.api.addServer({ name, command: process.execPath, args: [FILESYSTEM_SERVER], sandbox })).config.id);
    for (const id of ids) await client.waitFor(id, 'ready');

    await page.goto(webHost.url);
    await openPage(page, 'Roots');
    await page.getByRole('button', { name: 'Add folder', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add folder' });
    await add.getByRole('textbox', { name: 'Folder path' }).fill(folder);
    await add.getByRole('button', { name: 'Add', exact: true }).click();

    const question = page.getByRole('dialog', { name: 'Share folders' });
    await test.step('one dialog lists the servers that asked, with a count', async () => {
      await expect(question.getByRole('list', { name: 'Servers asking (3)' })).toBeVisible({ timeout: 60_000 });
      await expect(page.getByRole('dialog')).toHaveCount(1);
      await expect(question).toContainText('3 servers ask which of your folders they may see');
      for (const name of SERVERS) await expect(question.getByRole('button', { name: `Share with ${name}`, exact: true })).toBeVisible();
    });

    await test.step("a choice per server: B is told Don't share, then Share answers the two still asking", async () => {
      await question.getByRole('button', { name: "Don't share with files B" }).click();
      await expect(
        question.getByRole('list', { name: 'Servers asking (3)' }).getByRole('listitem').filter({ hasText: 'files B' }),
      ).toContainText('Not shared');
      await expect(question).toContainText('Share and Don’t share answer the 2 servers still asking.');
      await question.getByRole('button', { name: 'Share', exact: true }).click();
      await expect(question).toBeHidden();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });

    await test.step('A and C work in the folder; B was given nothing', async () => {
      const [a, b, c] = ids;
      for (const id of [a, c]) {
        await expect
          .poll(async () => JSON.stringify(await client.api.runTool({ serverId: id, tool: 'list_allowed_directories', args: {} })), {
            timeout: 30_000,
          })
          .toContain(folder);
        const read = await client.api.runTool({ serverId: id, tool: 'read_text_file', args: { path: path.join(folder, 'plan.txt') } });
        expect(JSON.stringify(read.blocks)).toContain('one question for all');
      }
      const refused = await client.api.runTool({ serverId: b, tool: 'read_text_file', args: { path: path.join(folder, 'plan.txt') } });
      expect(refused.status).toBe('tool_error');
      const sharing = (await client.api.getSnapshot()).roots.sharing;
      expect(Object.fromEntries(sharing.map((s) => [s.serverId, s.mode]))).toEqual({ [a]: 'subset', [b]: 'none', [c]: 'subset' });
    });
  } finally {
    for (const server of (await client.api.getSnapshot()).servers) await client.api.removeServer({ id: server.config.id });
    await client.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
});
