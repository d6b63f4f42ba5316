/**
 * Trusting every tool of a server whose tools say they may do damage (issue #17, item 9), against the
 * real Memory server (its delete_* tools are hinted destructive): the confirmation names them, Cancel
 * trusts nothing, confirming trusts the server, and each tool's control then says what is in force.
 */
import { expectServerStatus, openPage, serverRow } from '../support/flows';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

test('trust all tools: hinted tools are named first; the per-tool control shows the effective decision', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await openPage(page, 'Servers');
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: 'Memory', exact: true }).click();
  await expectServerStatus(page, 'Memory', 'ready');
  await serverRow(page, 'Memory').getByRole('button', { name: 'Memory', exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  const tools = page.getByRole('list', { name: 'Tools of Memory' });
  await expect(tools.getByRole('button', { name: 'delete_entities', exact: true })).toBeVisible();
  const trust = page.getByRole('switch', { name: /Trust all tools of this server/ });

  await test.step('the confirmation names the destructive tools; Cancel trusts nothing', async () => {
    await trust.click();
    const dialog = page.getByRole('alertdialog', { name: 'Trust all tools of Memory?' });
    const hinted = dialog.getByRole('list', { name: 'Tools hinted as risky' });
    for (const name of ['delete_entities', 'delete_observations', 'delete_relations'])
      await expect(hinted.getByRole('listitem').filter({ hasText: name })).toContainText('may destroy or overwrite data');
    await expect(hinted.getByRole('listitem').filter({ hasText: 'read_graph' })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(trust).not.toBeChecked();
    await tools.getByRole('button', { name: 'delete_entities', exact: true }).click();
    const select = page.getByRole('combobox', { name: 'When the model asks to run it' });
    await expect(select).toHaveText('Ask me (default)');
  });

  await test.step('confirming trusts the server; every tool then reads "Allowed (server trusted)"', async () => {
    await trust.click();
    await page.getByRole('alertdialog', { name: 'Trust all tools of Memory?' }).getByRole('button', { name: 'Trust all tools' }).click();
    await expect(trust).toBeChecked();
    const select = page.getByRole('combobox', { name: 'When the model asks to run it' });
    await expect(select).toHaveText('Allowed (server trusted)');
    await expect(page.getByText('The model may run it without asking: you trust all tools of this server')).toBeVisible();
    await expect(tools.getByRole('listitem').filter({ hasText: 'read_graph' })).toContainText('Allowed (server trusted)');
    // A tool's own decision still wins, and says so.
    await choose(select, 'Always deny');
    await expect(tools.getByRole('listitem').filter({ hasText: 'delete_entities' })).toContainText('Always denied');
  });
});
