/**
 * Every page and detail has an address: a reload comes back to it, Back and Forward walk through
 * where the user went, a link opens it, the sidebar always goes to a page's top level, and an
 * address that names something gone (or nothing) falls back with a message, never a blank page.
 */
import type { Page } from '@playwright/test';
import { choose } from '../support/choose';
import { hostApi } from '../support/host-api';
import { expect, test } from '../support/web-host';

const SERVER = 'Everything (demo)';
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

test('routes: reload, Back/Forward, links, the sidebar, and fallbacks', async ({ page, webHost }) => {
  const host = await hostApi(webHost);
  let serverId = '';
  const titles: string[] = [];
  try {
    const added = await host.api.addPresetServer({ preset: 'everything' });
    serverId = added.config.id;
    await expect.poll(async () => (await host.server(serverId)).runtime.status, { timeout: 60_000 }).toBe('ready');
    for (const title of ['Older plans', 'Newer plans']) titles.push((await host.api.createConversation({ title })).id);
  } finally {
    await host.socket.close();
  }
  const base = `${webHost.origin}/`;

  await test.step('the app opens at #/chat, on the newest conversation', async () => {
    await page.goto(webHost.url);
    await expect(page).toHaveURL(`${base}#/chat/${titles[1]}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Newer plans' })).toBeVisible();
    await expect(page).toHaveTitle('Chat — Patchbay');
  });

  await test.step('a server, its tab and its tool each get an address', async () => {
    await nav(page, 'Servers').click();
    await expect(page).toHaveURL(`${base}#/servers`);
    await page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: SERVER, exact: true }).click();
    await expect(page).toHaveURL(`${base}#/servers/${serverId}/overview`);
    await expect(page).toHaveTitle(`${SERVER} — Patchbay`);
    await page.getByRole('tab', { name: /^Tools\b/ }).click();
    await expect(page).toHaveURL(`${base}#/servers/${serverId}/tools`);
    await page
      .getByRole('list', { name: `Tools of ${SERVER}` })
      .getByRole('button', { name: 'get-sum', exact: true })
      .click();
    await expect(page).toHaveURL(`${base}#/servers/${serverId}/tools/get-sum`);
    await expect(page.getByRole('form', { name: 'Run get-sum' })).toBeVisible();
  });

  await test.step('a reload comes back to the same tool', async () => {
    await page.reload();
    await expect(page.getByRole('tab', { name: /^Tools\b/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('form', { name: 'Run get-sum' })).toBeVisible();
  });

  await test.step('Back and Forward walk through where the user went, inside the app', async () => {
    await page.goBack();
    await expect(page).toHaveURL(`${base}#/servers/${serverId}/tools`);
    await expect(page.getByRole('form', { name: 'Run get-sum' })).toHaveCount(0);
    await expect(page.getByText('Choose a tool to see what it does and run it.')).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('tab', { name: 'Overview', exact: true })).toHaveAttribute('aria-selected', 'true');
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Add server' })).toBeVisible();
    await page.goForward();
    await expect(page).toHaveURL(`${base}#/servers/${serverId}/overview`);
    await expect(page.getByRole('heading', { level: 2, name: SERVER })).toBeVisible();
  });

  await test.step('the sidebar always goes to the page’s top level', async () => {
    await page.getByRole('tab', { name: /^Prompts/ }).click();
    await nav(page, 'Servers').click();
    await expect(page).toHaveURL(`${base}#/servers`);
    await expect(page.getByRole('list', { name: 'Servers' })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^Prompts/ })).toHaveCount(0);
  });

  await test.step('conversations: each is an address; Back returns to the one before', async () => {
    await nav(page, 'Chat').click();
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Older plans/ })
      .click();
    await expect(page).toHaveURL(`${base}#/chat/${titles[0]}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Older plans' })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('heading', { level: 2, name: 'Newer plans' })).toBeVisible();
    await page.goto(`${base}#/chat/${titles[0]}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Older plans' })).toBeVisible();
  });

  await test.step('Logs: the server and the stream are in the address', async () => {
    await nav(page, 'Logs').click();
    // The page opens on All servers (issue #41); choosing one puts it in the address.
    await expect(page.getByRole('combobox', { name: 'Server', exact: true })).toContainText('All servers');
    await choose(page.getByRole('combobox', { name: 'Server', exact: true }), SERVER);
    await page.getByRole('tab', { name: 'Protocol', exact: true }).click();
    await expect(page).toHaveURL(`${base}#/logs/${serverId}/protocol`);
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Protocol', exact: true })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveTitle('Logs — Patchbay');
  });

  await test.step('a Settings section is a link: it scrolls there, and a reload keeps it', async () => {
    await nav(page, 'Settings').click();
    await page.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Export and backup' }).click();
    await expect(page).toHaveURL(`${base}#/settings/backup`);
    await expect(page.getByRole('heading', { level: 2, name: 'Export and backup' })).toBeInViewport();
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Export and backup' })).toBeInViewport();
  });

  await test.step('a link to something gone, or to nothing, falls back and says so', async () => {
    await page.goto(`${base}#/servers/no-such-server/tools`);
    await expect(page.getByRole('status').filter({ hasText: 'That server no longer exists' })).toBeVisible();
    await expect(page).toHaveURL(`${base}#/servers`);
    await expect(page.getByRole('list', { name: 'Servers' })).toBeVisible();

    await page.goto(`${base}#/chat/no-such-conversation`);
    await expect(page.getByRole('status').filter({ hasText: 'That conversation no longer exists' })).toBeVisible();
    // Chat's top level: the newest conversation.
    await expect(page.getByRole('heading', { level: 2, name: 'Newer plans' })).toBeVisible();

    await page.goto(`${base}#/nowhere/at-all`);
    await expect(page.getByRole('status').filter({ hasText: 'Patchbay has no page at “#/nowhere/at-all”.' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${base.replace(/[.]/g, '\\.')}#/chat`));
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'no page at' })).toHaveCount(0);
  });
});
