/**
 * An MCP App's call, from its record to its wire: the basic app (`@modelcontextprotocol/server-basic-vanillajs`,
 * `--stdio`) calls `get-time` back through Allow…; its audit entry says `asked by an app`, and its
 * **Timeline** is that call alone (the turn named for who asked); the call's bar leads to the server's
 * Protocol log filtered to exactly that request and its result — whose lines name the app after the id.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';

const BASIC = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
const SERVER = 'Basic app';

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const card = (page: Page) => page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: SERVER, exact: true });

test('an app’s call: its audit entry’s Timeline shows the call asked by an app, and leads to its request’s Protocol log lines', async ({
  page,
  webHost,
}) => {
  test.setTimeout(180_000);
  await page.goto(webHost.url);
  await nav(page, 'Servers').click();
  await page.getByRole('button', { name: 'Add server' }).click();
  const add = page.getByRole('dialog');
  await add.getByLabel('Name', { exact: true }).fill(SERVER);
  await add.getByLabel('Command', { exact: true }).fill(process.execPath);
  await add.getByLabel('Arguments', { exact: true }).fill([BASIC, '--stdio'].join('\n'));
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(card(page)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });

  // The Tools tab's run shows the app; the app's own button calls get-time back through Allow….
  await card(page).getByRole('button', { name: SERVER, exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  await page
    .getByRole('list', { name: `Tools of ${SERVER}` })
    .getByRole('button', { name: 'get-time', exact: true })
    .click();
  await page.getByRole('form', { name: 'Run get-time' }).getByRole('button', { name: 'Run' }).click();
  const view = page.getByRole('region', { name: `App of get-time from ${SERVER}` });
  const app = view.locator('iframe.app-frame').contentFrame().locator('iframe').contentFrame();
  await expect(app.locator('#server-time')).toHaveText(/^\d{4}-\d\d-\d\dT/, { timeout: 60_000 });
  await app.getByRole('button', { name: 'Get Server Time' }).click();
  const allow = page.getByRole('dialog', { name: `Allow the app of ${SERVER} to run get-time?` });
  await allow.getByRole('button', { name: 'Allow once' }).click();
  await expect(allow).toBeHidden();

  await nav(page, 'Settings').click();
  const entry = page
    .getByRole('list', { name: 'Tool calls' })
    .getByRole('listitem')
    .filter({ hasText: 'asked by an app' })
    .filter({ hasText: 'get-time' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('OK');
  await entry.locator('summary').click();
  await entry.getByRole('button', { name: 'Timeline' }).click();

  const dialog = page.getByRole('dialog', { name: 'Timeline' });
  const waterfall = dialog.getByRole('list', { name: 'Turn timeline' });
  // The call alone, under a turn named for who asked: no model request, no consent of a chat.
  await expect(waterfall.getByRole('button')).toHaveCount(3);
  await expect(waterfall.getByRole('button').first()).toHaveAccessibleName(/^Turn: Call from an app, /);
  await expect(waterfall.getByRole('button', { name: /^Consent wait: .*allowed$/ })).toHaveCount(1);
  const call = waterfall.getByRole('button', { name: new RegExp(`^Tool call: ${SERVER} › get-time, .*sent .*received .*succeeded$`) });
  await expect(call).toHaveCount(1);
  await call.click();
  await expect(dialog.getByRole('status')).toContainText(`${SERVER} › get-time`);
  const goTo = dialog.getByRole('group', { name: 'Go to' });
  // Its record is where we came from; no card (no chat); its request's lines.
  await expect(goTo.getByRole('button', { name: 'Show the card' })).toHaveCount(0);
  await goTo.getByRole('button', { name: 'Protocol log' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByRole('tab', { name: 'Protocol', selected: true })).toBeVisible();
  const filter = page.getByRole('toolbar', { name: 'Log view' }).getByRole('searchbox', { name: 'Filter' });
  await expect(filter).toHaveValue(/^tools\/call #\S+ —$/);
  const entries = page.getByRole('list', { name: 'Protocol entries' }).getByRole('listitem');
  // The app's request and its result, nothing else (not the Tools tab's own get-time call).
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText(`from the app of ${SERVER}`);
  await expect(entries.last()).toContainText('result');
  await expect(entries.last()).toContainText(`for the app of ${SERVER}`);
});
