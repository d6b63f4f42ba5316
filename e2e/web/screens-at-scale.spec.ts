/**
 * Screens that scale (issue 41), against 15 real server-everything processes in web mode at 1280×800,
 * in both themes: the Servers page is one row a server (a dozen or more on screen, a quiet action,
 * Diagnose only where it helps), its search and status filter narrow the rows, ticked rows stop and
 * start together; the chat's tool picker lists every server's tools under a heading that folds and
 * finds a tool by its name across all of them. axe finds nothing serious on the Servers page, a server's
 * Tools tab or the picker, in either theme.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { contractClient, openPage, serverRow } from '../support/flows';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

const COPIES = 15;

test.use({ viewport: { width: 1280, height: 800 } });
test.setTimeout(300_000);

/** Serious or critical axe findings (WCAG 2.1 A and AA) on what is on screen. */
async function axeProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

test(`${COPIES} servers: compact rows, filters, several stopped and started at once; the tool picker searches and folds`, async ({
  page,
  webHost,
}) => {
  const client = await contractClient(webHost);
  try {
    const ids: string[] = [];
    for (let i = 0; i < COPIES; i++) ids.push((await client.api.addPresetServer({ preset: 'everything' })).config.id);
    for (const id of ids) await client.waitFor(id, 'ready', 180_000);
  } finally {
    await client.close();
  }
  await page.goto(webHost.url);
  await openPage(page, 'Servers');
  const rows = page.getByRole('list', { name: 'Servers' }).getByRole('listitem');
  await expect(rows).toHaveCount(COPIES);
  const search = page.getByRole('searchbox', { name: 'Search servers' });

  await test.step('at least 12 rows fully on screen at 1280×800; one quiet action a row, no Diagnose on a Ready one', async () => {
    const onScreen = await rows.evaluateAll(
      (items) => items.filter((li) => li.getBoundingClientRect().bottom <= window.innerHeight).length,
    );
    expect(onScreen).toBeGreaterThanOrEqual(12);
    const row = serverRow(page, 'Everything (demo) 3');
    await expect(row.getByText('Ready', { exact: true })).toBeVisible();
    await expect(row.getByText(/^\d+ tools · \d+ resources? · \d+ prompts?$/)).toBeVisible();
    await expect(row.getByText('Not sandboxed')).toBeVisible();
    const stop = row.getByRole('button', { name: 'Stop', exact: true });
    await expect(stop).toBeVisible();
    expect(await stop.evaluate((b) => b.classList.contains('primary'))).toBe(false);
    await expect(page.getByRole('list', { name: 'Servers' }).getByRole('button', { name: 'Diagnose' })).toHaveCount(0);
    for (const name of ['Restart', 'Edit', 'Remove']) await expect(row.getByRole('button', { name, exact: true })).toBeVisible();
    // The name and the row's first line sit on one line: the row is not a tall card.
    expect((await row.boundingBox())!.height).toBeLessThan(60);
  });

  await test.step('search and the status filter narrow the rows', async () => {
    await search.fill('demo) 1');
    await expect(rows).toHaveCount(6); // 10 … 15
    await expect(page.getByText(`6 of ${COPIES} servers`)).toBeVisible();
    await search.fill('');
    await expect(rows).toHaveCount(COPIES);
  });

  await test.step('two ticked rows stop together, show under Stopped, and start together', async () => {
    await page.getByRole('checkbox', { name: 'Select Everything (demo) 2', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Select Everything (demo) 5', exact: true }).check();
    const bulk = page.getByRole('toolbar', { name: 'Selected servers' });
    await bulk.getByRole('button', { name: 'Stop selected (2)' }).click();
    await expect(bulk.getByText('Stopped 2 servers.')).toBeVisible();
    await choose(page.getByRole('combobox', { name: 'Status' }), 'Stopped (2)');
    await expect(rows).toHaveCount(2);
    await expect(serverRow(page, 'Everything (demo) 5')).toHaveAttribute('data-status', 'stopped');
    await bulk.getByRole('checkbox', { name: 'Select all shown' }).check();
    await bulk.getByRole('button', { name: 'Start selected (2)' }).click();
    await expect(bulk.getByText('Started 2 servers.')).toBeVisible();
    await choose(page.getByRole('combobox', { name: /^Status/ }), `All (${COPIES})`);
    for (const name of ['Everything (demo) 2', 'Everything (demo) 5'])
      await expect(serverRow(page, name)).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  });

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeProblems(page), `Servers page, ${scheme}`).toEqual([]);
  }

  await test.step('a server’s Tools tab among 15, a tool open: axe finds nothing serious in either theme', async () => {
    const name = 'Everything (demo) 7';
    await serverRow(page, name).getByRole('button', { name, exact: true }).click();
    await page.getByRole('tab', { name: /^Tools/ }).click();
    await page
      .getByRole('list', { name: `Tools of ${name}` })
      .getByRole('button', { name: 'get-sum', exact: true })
      .click();
    await expect(page.getByRole('form', { name: 'Run get-sum' })).toBeVisible();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), `Tools tab, ${scheme}`).toEqual([]);
    }
  });

  await test.step('the chat tool picker: Search tools finds a tool on every server; a server folds', async () => {
    await openPage(page, 'Chat');
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page
      .locator('summary')
      .filter({ hasText: /^Tools: / })
      .click();
    const picker = page.locator('.server-toggles');
    const box = picker.getByRole('searchbox', { name: 'Search tools' });
    await box.fill('get-sum');
    await expect(picker.getByRole('status')).toHaveText(/^15 of \d+ tools$/);
    // Every server's get-sum, each with its switch on the line of its name (the list scrolls: look at the first).
    const first = picker.getByRole('list', { name: 'Tools of Everything (demo)', exact: true }).getByRole('listitem');
    await expect(first).toHaveCount(1);
    await expect(first.getByRole('switch', { name: 'Offer get-sum to the model' })).toBeChecked();
    const row = await first.boundingBox();
    expect(row!.height).toBeLessThanOrEqual(34);
    const heading = picker.getByRole('button', { name: /^Everything \(demo\) · 1 of \d+ tools$/ });
    await expect(heading).toHaveAttribute('aria-expanded', 'true');
    await box.fill('');
    await picker.getByRole('button', { name: /^Everything \(demo\) · \d+ tools$/ }).click();
    await expect(picker.getByRole('list', { name: 'Tools of Everything (demo)', exact: true })).toHaveCount(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeProblems(page), `tool picker, ${scheme}`).toEqual([]);
    }
  });
});
