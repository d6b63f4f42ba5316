/**
 * The layout defects of issue 41's walk, each measured in a real browser (web mode, 1280×800): Get
 * started is no large empty box, no label runs into its control (Network, Tool set for new
 * conversations, Telemetry's checkboxes) and the Sandbox switch has no second "Sandbox" over it, a
 * server's Overview lines its facts up in one column, and a tool's Markdown result is formatted. The
 * measurements are soft, so a run before the fixes lists every defect, not only the first.
 */
import type { Locator } from '@playwright/test';
import { contractClient, openPage, serverRow } from '../support/flows';
import { expect, test } from '../support/web-host';

test.use({ viewport: { width: 1280, height: 800 } });
test.setTimeout(180_000);

const box = async (locator: Locator) => (await locator.boundingBox())!;
/** The label ends above its control: they do not share a line. */
async function expectAbove(label: Locator, control: Locator) {
  expect.soft((await box(label)).y + (await box(label)).height).toBeLessThanOrEqual((await box(control)).y + 1);
}

test('labels, spacing and results: nothing glued, no empty box, one facts column, Markdown formatted', async ({ page, webHost }) => {
  await page.goto(webHost.url);

  await test.step('Get started: the box drawn around the steps ends with them', async () => {
    const region = page.getByRole('region', { name: 'Get started' });
    await expect(region.getByRole('button', { name: 'Set the API key' })).toBeVisible();
    const emptyBelow = await region.evaluate((section) => {
      const list = section.querySelector('ol')!.getBoundingClientRect();
      const framed = [section, ...Array.from(section.querySelectorAll('*'))].filter(
        (el) => getComputedStyle(el).borderTopStyle !== 'none' && el.contains(section.querySelector('ol')),
      );
      return Math.max(0, ...framed.map((el) => el.getBoundingClientRect().bottom - list.bottom));
    });
    expect.soft(emptyBelow).toBeLessThan(48);
  });

  const client = await contractClient(webHost);
  try {
    const { config } = await client.api.addPresetServer({ preset: 'everything' });
    await client.waitFor(config.id, 'ready', 120_000);
  } finally {
    await client.close();
  }
  await openPage(page, 'Servers');
  const row = serverRow(page, 'Everything (demo)');

  await test.step('the server form: one "Sandbox" (the switch), and Network above its choice', async () => {
    await row.getByRole('button', { name: 'Edit', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const sandbox = dialog.getByRole('switch', { name: 'Sandbox', exact: true });
    await expect(sandbox).toBeVisible();
    await expect.soft(dialog.getByText('Sandbox', { exact: true }).filter({ visible: true })).toHaveCount(1);
    if (await sandbox.isEnabled()) {
      await sandbox.click();
      const network = dialog.getByRole('combobox', { name: 'Network' });
      await expectAbove(dialog.getByText('Network', { exact: true }), network);
    }
    await page.keyboard.press('Escape');
    const discard = page.getByRole('button', { name: 'Discard', exact: true });
    if (await discard.isVisible()) await discard.click();
    await expect(dialog).toBeHidden();
  });

  await test.step('the Overview: Configuration and Runtime values start in one column', async () => {
    await row.getByRole('button', { name: 'Everything (demo)', exact: true }).click();
    const panel = page.getByRole('tabpanel', { name: 'Overview' });
    const lists = panel.locator('dl.facts');
    await expect(lists).toHaveCount(2);
    const starts = await lists.evaluateAll((dls) => dls.map((dl) => Math.round(dl.querySelector('dd')!.getBoundingClientRect().left)));
    expect.soft(new Set(starts).size).toBe(1);
  });

  await test.step('a tool’s Markdown result is formatted, with its text one click away', async () => {
    await page.getByRole('tab', { name: /^Tools/ }).click();
    // The count beside Search tools sits on its line, not above it.
    const middle = async (locator: Locator) => ((b) => b.y + b.height / 2)(await box(locator));
    const count = page.getByRole('status').filter({ hasText: /^\d+ tools$/ });
    expect.soft(Math.abs((await middle(count)) - (await middle(page.getByRole('searchbox', { name: 'Search tools' }))))).toBeLessThan(3);
    await page.getByRole('list', { name: 'Tools of Everything (demo)' }).getByRole('button', { name: 'echo', exact: true }).click();
    const form = page.getByRole('form', { name: 'Run echo' });
    await form.getByLabel('message', { exact: true }).fill('**Report** in [the docs](https://example.com/docs)');
    await form.getByRole('button', { name: 'Run' }).click();
    const result = page.getByRole('region', { name: 'Result: echo on Everything (demo)' });
    await expect.soft(result.locator('strong', { hasText: 'Report' })).toBeVisible();
    await expect(result.getByRole('link', { name: 'the docs' })).toHaveAttribute('target', '_blank');
    await result.getByRole('button', { name: 'Show as text' }).click();
    await expect(result.locator('pre')).toContainText('**Report** in [the docs](https://example.com/docs)');
  });

  await test.step('Settings: Tool set for new conversations above its choice; Telemetry’s checkboxes and buttons on lines of their own', async () => {
    await openPage(page, 'Settings');
    const toolSet = page.getByRole('combobox', { name: 'Tool set for new conversations' });
    await toolSet.scrollIntoViewIfNeeded();
    await expectAbove(page.getByText('Tool set for new conversations', { exact: true }), toolSet);
    const trace = page.getByText('Send trace context to servers', { exact: false });
    const results = page.getByText('Export tool results', { exact: false });
    await results.scrollIntoViewIfNeeded();
    await expectAbove(trace, results);
    await expectAbove(results, page.getByRole('button', { name: 'Turn on export' }));
  });
});
