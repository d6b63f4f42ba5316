/**
 * A remote, OAuth-protected server through the web UI: add it with the form (Type: Remote URL), see
 * it ask for a sign-in, click Sign in — the page opens a new tab on the authorization server, which
 * (a test server, no login page) redirects straight to Patchbay's loopback listener — and watch the
 * card turn Ready and "Signed in as …"; then Sign out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';

function card(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
}

/** The OAuth fixture (authorization server + protected MCP endpoint) on a free port of 127.0.0.1. */
async function startOAuthServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'e2e', 'fixtures', 'oauth', 'oauth-mcp-server.mjs'), '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the OAuth fixture exited (${code})`)));
  });
  const { port } = JSON.parse(first) as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

test('remote server: add by URL, sign in through a new tab, signed in, sign out', async ({ page, webHost, context }) => {
  const oauth = await startOAuthServer();
  try {
    await page.goto(webHost.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers', exact: true }).click();

    await test.step('add it with Type: Remote URL', async () => {
      await page.getByRole('button', { name: 'Add server' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('radio', { name: 'Remote URL' }).check();
      await expect(dialog.getByLabel('Command', { exact: true })).toHaveCount(0);
      await dialog.getByLabel('Name', { exact: true }).fill('protected');
      await dialog.getByLabel('URL', { exact: true }).fill(oauth.url);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
    });

    await test.step('it says it needs a sign-in, naming the server', async () => {
      await expect(card(page, 'protected')).toHaveAttribute('data-status', 'error', { timeout: 30_000 });
      await expect(card(page, 'protected')).toContainText('Server "protected" needs you to sign in (127.0.0.1:');
      await expect(card(page, 'protected').getByRole('status').filter({ hasText: 'Not signed in' })).toBeVisible();
    });

    await test.step('Sign in opens the authorization server in a new tab; the loopback redirect completes it', async () => {
      const tabOpened = context.waitForEvent('page');
      await card(page, 'protected').getByRole('button', { name: 'Sign in' }).click();
      const tab = await tabOpened;
      await expect(tab.getByText(/Signed in to protected/)).toBeVisible({ timeout: 30_000 });
      await tab.close();
      await expect(card(page, 'protected')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
      await expect(card(page, 'protected').getByText('Signed in as ada@example.com')).toBeVisible();
    });

    await test.step('Sign out forgets the tokens and disconnects', async () => {
      await card(page, 'protected').getByRole('button', { name: 'Sign out' }).click();
      await expect(card(page, 'protected').getByRole('button', { name: 'Sign in' })).toBeVisible();
      await expect(card(page, 'protected')).toHaveAttribute('data-status', 'stopped');
    });
  } finally {
    oauth.child.kill('SIGKILL');
  }
});

test('remote server signing in as an application: set up under Advanced, Ready by itself, no tab opens', async ({
  page,
  webHost,
  context,
}) => {
  const oauth = await startOAuthServer();
  try {
    const origin = new URL(oauth.url).origin;
    const app = { clientId: 'reporting-bot', clientSecret: 'bot-secret-123' };
    await fetch(`${origin}/_config`, {
      method: 'POST',
      body: JSON.stringify({ grantTypes: ['client_credentials'], authMethods: ['client_secret_basic'], app }),
    });
    let tabs = 0;
    context.on('page', () => tabs++);
    await page.goto(webHost.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers', exact: true }).click();

    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('radio', { name: 'Remote URL' }).check();
    await dialog.getByLabel('Name', { exact: true }).fill('reports');
    await dialog.getByLabel('URL', { exact: true }).fill(oauth.url);
    await dialog.getByText('Advanced').click();
    await dialog.getByRole('radiogroup', { name: 'Sign in' }).getByRole('radio', { name: 'As an application' }).check();
    await dialog.getByLabel('OAuth client ID').fill(app.clientId);
    await dialog.getByLabel('OAuth client secret').fill(app.clientSecret);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    await expect(card(page, 'reports')).toHaveAttribute('data-status', 'ready', { timeout: 30_000 });
    await expect(card(page, 'reports').getByText('Signed in as application reporting-bot')).toBeVisible();
    expect(tabs).toBe(0);
    // The secret never comes back: the edit form says one is stored.
    await card(page, 'reports').getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByRole('dialog').getByLabel('OAuth client secret')).toHaveValue('');
    await expect(page.getByRole('dialog').getByText('A secret is stored: leave this empty to keep it.')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(app.clientSecret);
  } finally {
    oauth.child.kill('SIGKILL');
  }
});
