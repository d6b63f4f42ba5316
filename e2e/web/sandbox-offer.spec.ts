/**
 * The one-time offer to servers from before the sandbox default, end to end: two local servers that
 * run unsandboxed, in a database from before the offer existed (its setting row removed, as an older
 * Patchbay left it); the next start lists them on the Servers page with what each would see, moves
 * only the one asked for, keeps the other, and never asks again after a restart. Skipped where
 * bubblewrap cannot run.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from '@playwright/test';
import { sandboxSupport } from '../../src-main/core/sandbox/sandbox-support';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';

const ECHO = path.join(REPO_ROOT, 'e2e', 'fixtures', 'echo.mjs');
const support = sandboxSupport();

function row(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
}

async function addUnsandboxed(page: Page, name: string) {
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Command', { exact: true }).fill(process.execPath);
  await dialog.getByLabel('Arguments', { exact: true }).fill(ECHO);
  await dialog.getByRole('switch', { name: 'Sandbox' }).click();
  await expect(dialog.getByText('Runs unsandboxed')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('sandbox offer: servers from before the default are offered the move once, each with what it would see', async ({ page, webHost }) => {
  test.skip(!support.supported, support.supported ? '' : support.reason);
  const servers = () => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers', exact: true }).click();
  await page.goto(webHost.url);
  await servers();
  // A fresh install has nothing to offer: the question is settled, so servers run unsandboxed by choice are not offered.
  await addUnsandboxed(page, 'old echo');
  await addUnsandboxed(page, 'old notes');
  await expect(page.getByRole('region', { name: 'Move servers into the sandbox?' })).toBeHidden();

  // As a Patchbay from before the offer left its database: no such setting yet.
  await webHost.stop();
  const db = new Database(path.join(webHost.dataDir, 'patchbay.db'));
  db.prepare("DELETE FROM settings WHERE key = 'sandboxOffer'").run();
  db.close();
  await webHost.restart();
  await page.goto(webHost.url);
  await servers();

  const offer = page.getByRole('region', { name: 'Move servers into the sandbox?' });
  await expect(offer.getByRole('listitem', { name: 'old echo' })).toContainText('would see no shared folders');
  await expect(offer.getByRole('listitem', { name: 'old notes' })).toContainText('the internet through Patchbay');
  await expect(row(page, 'old echo')).toContainText('Not sandboxed');
  await offer.getByRole('button', { name: 'Move old echo into the sandbox' }).click();
  await expect(row(page, 'old echo')).toContainText('Sandboxed · network allowed');
  await expect(offer.getByRole('listitem', { name: 'old echo' })).toBeHidden();
  await offer.getByRole('button', { name: 'Keep them as they are' }).click();
  await expect(offer).toBeHidden();
  await expect(row(page, 'old notes')).toContainText('Not sandboxed');

  await webHost.restart();
  await page.goto(webHost.url);
  await servers();
  await expect(row(page, 'old notes')).toContainText('Not sandboxed');
  await expect(page.getByRole('region', { name: 'Move servers into the sandbox?' })).toBeHidden();
});
