/**
 * The Servers page as a list of compact rows (issue #17, item 5), against real server processes: a
 * duplicate quick-add asks first, search and the status filter narrow the list, the protocol reads in
 * plain words, each state offers one primary action, Stop and Start decide what starts with Patchbay,
 * and a failure shows its stack trace line by line.
 */
import { expectServerStatus, openPage, serverRow } from '../support/flows';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

const NODE = process.execPath;

test('servers: compact rows, search and status filter, plain protocol, one primary action, readable failures', async ({
  page,
  webHost,
}) => {
  await page.goto(webHost.url);
  await openPage(page, 'Servers');
  const quickAdd = page.getByRole('group', { name: 'Quick add' });
  const rows = page.getByRole('list', { name: 'Servers' }).getByRole('listitem');

  await test.step('a second quick-add of the same server asks first', async () => {
    await quickAdd.getByRole('button', { name: 'Everything (demo)', exact: true }).click();
    await expectServerStatus(page, 'Everything (demo)', 'ready');
    await quickAdd.getByRole('button', { name: 'Everything (demo)', exact: true }).click();
    const ask = page.getByRole('alertdialog', { name: 'Add another Everything (demo)?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toBeHidden();
    await expect(rows).toHaveCount(1);
    await quickAdd.getByRole('button', { name: 'Everything (demo)', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Add another Everything (demo)?' }).getByRole('button', { name: 'Add another' }).click();
    await expectServerStatus(page, 'Everything (demo) 2', 'ready');
    await expect(rows).toHaveCount(2);
  });

  await test.step('a Ready row: plain protocol words (detail on hover), Stop as its primary action, Restart beside it', async () => {
    const row = serverRow(page, 'Everything (demo)');
    const protocol = row.getByText(/^(Current|Recent|Older|Oldest|Stateless) protocol \(\d{4}-\d{2}-\d{2}\)$/);
    await expect(protocol).toBeVisible();
    await expect(protocol).toHaveAttribute('title', /^MCP \d{4}-\d{2}-\d{2}: /);
    await expect(row).not.toContainText('legacy');
    await expect(row.getByRole('button', { name: 'Start', exact: true })).toHaveCount(0);
    await expect(row.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Restart', exact: true })).toBeVisible();
  });

  await test.step('Stop unticks "Starts with Patchbay", Start ticks it again', async () => {
    const row = serverRow(page, 'Everything (demo) 2');
    const starts = row.getByRole('switch', { name: 'Starts with Patchbay' });
    await expect(starts).toBeChecked();
    await row.getByRole('button', { name: 'Stop', exact: true }).click();
    await expectServerStatus(page, 'Everything (demo) 2', 'stopped');
    await expect(starts).not.toBeChecked();
    await expect(row.getByRole('button', { name: 'Restart', exact: true })).toHaveCount(0);
    await row.getByRole('button', { name: 'Start', exact: true }).click();
    await expectServerStatus(page, 'Everything (demo) 2', 'ready');
    await expect(starts).toBeChecked();
  });

  await test.step('a server that dies at start: Restart only, and its stack trace line by line', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('broken');
    await dialog.getByLabel('Command', { exact: true }).fill(NODE);
    await dialog
      .getByLabel('Arguments', { exact: true })
      .fill(['-e', "console.error(new Error('the config file is missing').stack); process.exit(3)"].join('\n'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectServerStatus(page, 'broken', 'error');
    const row = serverRow(page, 'broken');
    await expect(row.getByRole('button', { name: 'Restart', exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Start', exact: true })).toHaveCount(0);
    const reason = row.getByLabel('What went wrong with broken', { exact: true });
    await expect(reason).toContainText('exit code 3');
    // The stack trace shows once (issue #41): in Last output, not again in the reason.
    await expect(reason).not.toContainText('Error: the config file is missing');
    await row.getByText('Last output').click();
    const output = row.getByLabel('Last output', { exact: true });
    await expect(output).toContainText('Error: the config file is missing');
    expect(((await row.textContent()) ?? '').split('Error: the config file is missing')).toHaveLength(2);
    // Each frame of the stack trace on a line of its own, not one squashed paragraph.
    const text = (await output.textContent()) ?? '';
    expect(text.split('\n').filter((line) => /^\s+at /.test(line)).length).toBeGreaterThan(1);
    expect(await output.evaluate((el) => el.tagName)).toBe('PRE');
  });

  await test.step('search and the status filter narrow the rows', async () => {
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('demo) 2');
    await expect(rows).toHaveCount(1);
    await expect(serverRow(page, 'Everything (demo) 2')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('');
    await expect(rows).toHaveCount(3);
    await choose(page.getByRole('combobox', { name: 'Status' }), 'Error or crashed (1)');
    await expect(rows).toHaveCount(1);
    await expect(serverRow(page, 'broken')).toBeVisible();
    await choose(page.getByRole('combobox', { name: 'Status' }), 'Ready (2)');
    await expect(rows).toHaveCount(2);
    await page.getByRole('searchbox', { name: 'Search servers' }).fill('broken');
    await expect(page.getByText('No server matches “broken” with that status.')).toBeVisible();
    await page.getByRole('button', { name: 'Show all servers' }).click();
    await expect(rows).toHaveCount(3);
  });
});
