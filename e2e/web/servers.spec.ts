/**
 * The Servers page against real server processes: add one with the form, import a Claude Desktop
 * config, watch a crashing server say why, fix it with a live edit, restart it, and stop it with
 * nothing left running.
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { ContractSocket, signIn } from '../support/raw-client';
import { expect, test, type WebHost } from '../support/web-host';
import { isAlive } from '../support/processes';

const FIXTURES = path.join(REPO_ROOT, 'e2e', 'fixtures');
const NODE = process.execPath;

function card(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
}

/** The status word a card shows (the renderer marks it with data-status too). */
async function expectStatus(page: Page, name: string, status: 'Stopped' | 'Starting' | 'Ready' | 'Error' | 'Crashed') {
  await expect(card(page, name)).toHaveAttribute('data-status', status.toLowerCase(), { timeout: 60_000 });
  await expect(card(page, name).getByText(status, { exact: true }).first()).toBeVisible();
}

/** The server's pid as the host reports it (the card shows it only in the detail view). */
async function pidOf(host: WebHost, name: string): Promise<number | undefined> {
  const client = await ContractSocket.connect(`ws://127.0.0.1:${host.port}/ws`, {
    origin: host.origin,
    credential: (await signIn(host.url)).credential,
  });
  try {
    const frame = await client.call(1, 'getSnapshot');
    const servers = (frame.result as { value: { servers: { config: { name: string }; runtime: { pid?: number } }[] } }).value.servers;
    return servers.find((s) => s.config.name === name)?.runtime.pid;
  } finally {
    await client.close();
  }
}

async function fillServerForm(page: Page, fields: { name?: string; command?: string; args?: string[] }) {
  const dialog = page.getByRole('dialog');
  if (fields.name !== undefined) await dialog.getByLabel('Name', { exact: true }).fill(fields.name);
  if (fields.command !== undefined) await dialog.getByLabel('Command', { exact: true }).fill(fields.command);
  if (fields.args !== undefined) await dialog.getByLabel('Arguments', { exact: true }).fill(fields.args.join('\n'));
}

test('servers: add, crash, edit live, restart, stop, import', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers', exact: true }).click();

  await test.step('add a server with the form → Ready', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    await fillServerForm(page, { name: 'echo', command: NODE, args: [path.join(FIXTURES, 'echo.mjs')] });
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expectStatus(page, 'echo', 'Ready');
    await expect(card(page, 'echo')).toContainText('tools');
  });

  await test.step('bad input is refused on its field and nothing is saved', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    await fillServerForm(page, { name: 'ECHO', command: NODE });
    await page.getByRole('dialog').getByLabel('Working directory', { exact: true }).fill('/no/such/folder');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog')).toContainText('already exists');
    await expect(page.getByRole('dialog')).toContainText('No such directory');
    await expect(page.getByRole('dialog').getByLabel('Name', { exact: true })).toHaveValue('ECHO');
    // What was typed is not dropped without asking.
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('alertdialog', { name: 'Discard changes?' }).getByRole('button', { name: 'Discard' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByRole('list', { name: 'Servers' }).getByRole('listitem')).toHaveCount(1);
  });

  await test.step('a server that crashes says so, with its exit code and last output', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    await fillServerForm(page, { name: 'flaky', command: NODE, args: [path.join(FIXTURES, 'exits-after-ready.mjs')] });
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Advanced').click();
    await dialog.getByRole('checkbox', { name: 'Auto-restart' }).uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectStatus(page, 'flaky', 'Crashed');
    await expect(card(page, 'flaky')).toContainText('exit code 7');
    await card(page, 'flaky').getByText('Last output').click();
    await expect(card(page, 'flaky')).toContainText('database is locked');
  });

  await test.step('edit it live (no app restart) → Ready; Restart gives a new process', async () => {
    await card(page, 'flaky').getByRole('button', { name: 'Edit', exact: true }).click();
    await fillServerForm(page, { args: [path.join(FIXTURES, 'echo.mjs')] });
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog')).toBeHidden();
    // A crashed server that is edited starts again with the new configuration.
    await expectStatus(page, 'flaky', 'Ready');
    const before = (await pidOf(webHost, 'flaky'))!;
    await card(page, 'flaky').getByRole('button', { name: 'Restart', exact: true }).click();
    await expect
      .poll(
        async () => {
          const pid = await pidOf(webHost, 'flaky');
          return pid !== undefined && pid !== before;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    await expectStatus(page, 'flaky', 'Ready');
    await expect.poll(() => isAlive(before)).toBe(false);
  });

  await test.step('Stop → Stopped, and no process is left', async () => {
    const pid = (await pidOf(webHost, 'echo'))!;
    expect(isAlive(pid)).toBe(true);
    await card(page, 'echo').getByRole('button', { name: 'Stop', exact: true }).click();
    await expectStatus(page, 'echo', 'Stopped');
    await expect.poll(() => isAlive(pid)).toBe(false);
  });

  await test.step('import a Claude Desktop config: duplicates and remote entries are skipped with reasons', async () => {
    await page.getByRole('button', { name: 'Import servers' }).click();
    const config = {
      mcpServers: {
        echo: { command: NODE, args: [path.join(FIXTURES, 'echo.mjs')] },
        'imported echo': { command: NODE, args: [path.join(FIXTURES, 'echo.mjs')] },
        // Remote HTTP entries import now; WebSocket ones are still skipped.
        remote: { type: 'ws', url: 'wss://example.com/mcp' },
      },
    };
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Configuration').fill(JSON.stringify(config, null, 2));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect(dialog).toContainText('already exists');
    await expect(dialog).toContainText('WebSocket servers are not supported');
    await dialog.getByRole('button', { name: /^Import 1 server/ }).click();
    await expect(dialog).toContainText('imported echo');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expectStatus(page, 'imported echo', 'Ready');
  });

  await test.step('Remove asks first, then ends the process', async () => {
    const pid = (await pidOf(webHost, 'imported echo'))!;
    await card(page, 'imported echo').getByRole('button', { name: 'Remove', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Remove imported echo?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(card(page, 'imported echo')).toHaveCount(0);
    await expect.poll(() => isAlive(pid)).toBe(false);
  });
});
