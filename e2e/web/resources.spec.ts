/**
 * Resources, templates, subscriptions, prompts, completion and resource links in web mode, against a
 * real server-everything and the content-lab fixture (bad inputs on purpose).
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';

const NODE = process.execPath;
const LAB = path.join(REPO_ROOT, 'e2e', 'fixtures', 'content-lab.mjs');

function nav(page: Page, name: string): Locator {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
}
function card(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name, exact: true });
}

async function addEverything(page: Page): Promise<void> {
  await nav(page, 'Servers').click();
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: 'Everything (demo)' }).click();
  await expect(card(page, 'Everything (demo)')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

async function addLab(page: Page, name: string, flags: string[] = []): Promise<void> {
  await nav(page, 'Servers').click();
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Command', { exact: true }).fill(NODE);
  await dialog.getByLabel('Arguments', { exact: true }).fill([LAB, ...flags].join('\n'));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(card(page, name)).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
}

async function openTab(page: Page, server: string, tab: 'Overview' | 'Tools' | 'Resources' | 'Prompts' | 'Logs'): Promise<void> {
  if (!(await page.getByRole('heading', { level: 2, name: server, exact: true }).isVisible())) {
    await nav(page, 'Servers').click();
    await card(page, server).getByRole('button', { name: server, exact: true }).click();
  }
  await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
}

test('server-everything: read a document, expand templates, follow updates, run prompts with completion, open links', async ({
  page,
  webHost,
}) => {
  await page.goto(webHost.url);
  await addEverything(page);
  const server = 'Everything (demo)';

  await test.step('the tab names its count; a static document reads as rendered Markdown', async () => {
    await openTab(page, server, 'Resources');
    await expect(page.getByRole('tab', { name: /^Resources \d+/ })).toBeVisible();
    const list = page.getByRole('list', { name: `Resources of ${server}` });
    await list.getByRole('button', { name: 'features.md', exact: true }).click();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    const contents = page.getByRole('region', { name: /^Contents of demo:\/\/resource\/static\/document\/features\.md/ });
    await expect(contents.getByRole('heading').first()).toBeVisible();
    await expect(contents).toContainText('text/markdown');
  });

  await test.step('the text template becomes a form whose variable field reads the expanded URI', async () => {
    await page
      .getByRole('list', { name: `Resource templates of ${server}` })
      .getByRole('button', { name: 'Dynamic Text Resource' })
      .click();
    await page.getByRole('combobox', { name: 'resourceId' }).fill('5');
    await expect(page.getByTestId('expanded-uri')).toHaveText('demo://resource/dynamic/text/5');
    // The server's completer offers the number back as a suggestion.
    await expect(page.getByRole('listbox').getByRole('option', { name: '5' })).toBeVisible();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Contents of demo://resource/dynamic/text/5' })).toContainText(
      'Resource 5: This is a plaintext resource',
    );

    await page
      .getByRole('list', { name: `Resource templates of ${server}` })
      .getByRole('button', { name: 'Dynamic Blob Resource' })
      .click();
    await page.getByRole('combobox', { name: 'resourceId' }).fill('6');
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    const blob = page.getByRole('region', { name: 'Contents of demo://resource/dynamic/blob/6' });
    await expect(blob).toContainText('Binary content');
    const download = page.waitForEvent('download');
    await blob.getByRole('button', { name: 'Download' }).click();
    const chunks = (await (await (await download).createReadStream()).toArray()) as Buffer[];
    expect(Buffer.concat(chunks).toString('utf8')).toContain('Resource 6: This is a base64 blob');
  });

  await test.step('subscribe, and an update re-reads the resource and says so', async () => {
    await openTab(page, server, 'Tools');
    await page
      .getByRole('list', { name: `Tools of ${server}` })
      .getByRole('button', { name: 'toggle-subscriber-updates' })
      .click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByText('Started simulated resource updated notifications')).toBeVisible();
    await openTab(page, server, 'Resources');
    await page
      .getByRole('list', { name: `Resources of ${server}` })
      .getByRole('button', { name: 'features.md', exact: true })
      .click();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Unsubscribe', exact: true })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: /^Updated .* shown again below\.$/ })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Subscribe', exact: true })).toBeVisible();
  });

  await test.step('the Prompts tab: completable-prompt suggests names by the chosen department', async () => {
    await openTab(page, server, 'Prompts');
    await page
      .getByRole('list', { name: `Prompts of ${server}` })
      .getByRole('button', { name: 'completable-prompt' })
      .click();
    const department = page.getByRole('combobox', { name: 'department' });
    await department.fill('E');
    await page.getByRole('option', { name: 'Engineering' }).click();
    await expect(department).toHaveValue('Engineering');
    const name = page.getByRole('combobox', { name: 'name' });
    await name.focus();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(['Alice', 'Bob', 'Charlie']);
    await name.press('ArrowDown');
    await name.press('ArrowDown');
    await name.press('Enter');
    await expect(name).toHaveValue('Bob');
    await department.fill('Sales');
    await name.fill('');
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(['David', 'Eve', 'Frank']);
    await page.getByRole('option', { name: 'Eve' }).click();
    await name.press('Escape');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(page.getByRole('list', { name: 'Prompt messages' })).toContainText('Eve');
  });

  await test.step('args-prompt asks for its required argument; resource-prompt shows its embedded resource', async () => {
    await page
      .getByRole('list', { name: `Prompts of ${server}` })
      .getByRole('button', { name: 'args-prompt' })
      .click();
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(page.getByText('city is required')).toBeVisible();
    await page
      .getByRole('textbox', { name: 'city' })
      .or(page.getByRole('combobox', { name: 'city' }))
      .fill('Lisbon');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    await expect(page.getByRole('list', { name: 'Prompt messages' })).toContainText("What's weather in Lisbon?");

    await page
      .getByRole('list', { name: `Prompts of ${server}` })
      .getByRole('button', { name: 'resource-prompt' })
      .click();
    await page.getByRole('combobox', { name: 'resourceType' }).fill('Te');
    await page.getByRole('option', { name: 'Text' }).click();
    await page.getByRole('combobox', { name: 'resourceId' }).fill('2');
    await page.getByRole('button', { name: 'Get prompt' }).click();
    const messages = page.getByRole('list', { name: 'Prompt messages' });
    await expect(messages).toContainText('Embedded resource');
    await expect(messages).toContainText('Resource 2: This is a plaintext resource');
  });

  await test.step('resource links in a tool result open through the server', async () => {
    await openTab(page, server, 'Tools');
    await page
      .getByRole('list', { name: `Tools of ${server}` })
      .getByRole('button', { name: 'get-resource-links' })
      .click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('button', { name: 'Open Text Resource 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resource Text Resource 2' });
    await expect(dialog).toContainText('Resource 2: This is a plaintext resource');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('every read and prompt use is in the trail', async () => {
    await nav(page, 'Settings').click();
    const trail = page.getByRole('list', { name: 'Resource and prompt use' });
    await expect(trail).toContainText('demo://resource/dynamic/text/2');
    await expect(trail).toContainText('resource-prompt');
    await expect(trail).toContainText('demo://resource/dynamic/text/5');
  });
});

test('content-lab: 10,000 resources, safe rendering, and bad inputs said clearly', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await addLab(page, 'lab', ['--resources', '10000', '--page-size', '250']);
  await openTab(page, 'lab', 'Resources');

  await test.step('a long list is virtualized and searchable', async () => {
    await expect(page.getByRole('status').filter({ hasText: '10,009 resources' })).toBeVisible();
    const list = page.getByRole('list', { name: 'Resources of lab' });
    expect(await list.getByRole('listitem').count()).toBeLessThan(60);
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('item-0995');
    await expect(page.getByRole('status').filter({ hasText: '1 of 10,009 resources' })).toBeVisible();
    await list.getByRole('button', { name: 'item-0995' }).click();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Contents of lab://items/0995' })).toContainText('Item 995 (read 1)');
    await page.getByRole('searchbox', { name: 'Search resources' }).fill('');
  });

  const read = async (name: string) => {
    await page.getByRole('searchbox', { name: 'Search resources' }).fill(name);
    await page.getByRole('list', { name: 'Resources of lab' }).getByRole('button', { name, exact: true }).click();
    await page.getByRole('button', { name: 'Read', exact: true }).click();
  };

  await test.step('HTML, SVG and Markdown with script never run; JSON is pretty-printed; images show', async () => {
    await read('page.html');
    await expect(page.getByText('Shown as source: Patchbay never runs HTML or SVG from a server.')).toBeVisible();
    await expect(page.locator('.result-text').filter({ hasText: '<script>window.__pwned = true</script>' })).toBeVisible();
    await read('logo.svg');
    await expect(page.locator('.result-text').filter({ hasText: 'onload="window.__pwned=true"' })).toBeVisible();
    await read('readme.md');
    await expect(page.getByRole('heading', { name: 'Lab notes' })).toBeVisible();
    await read('data.json');
    await expect(page.locator('.result-json')).toContainText('"nested": {\n    "ok": true');
    await read('pixel.png');
    await expect(page.getByRole('img', { name: 'Image lab://media/pixel.png' })).toBeVisible();
    await read('pair');
    await expect(page.getByText('2 content items in this answer.')).toBeVisible();
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
  });

  await test.step('a read error names the server and the cause; a malformed template says what is wrong', async () => {
    await read('broken');
    await expect(page.getByRole('alert').filter({ hasText: 'disk on fire' })).toContainText('lab');
    await page.getByRole('list', { name: 'Resource templates of lab' }).getByRole('button', { name: 'Broken template' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'is malformed' })).toContainText('never closed');
  });
});

test('content-lab: a pagination loop stops with a message and a silent completion leaves the field usable', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await addLab(page, 'looping', ['--loop', '--page-size', '5']);
  await openTab(page, 'looping', 'Resources');
  await expect(page.getByRole('alert').filter({ hasText: 'a pagination loop' })).toContainText('Server "looping"');
  await expect(page.getByRole('status').filter({ hasText: '15 resources' })).toBeVisible();

  await openTab(page, 'looping', 'Prompts');
  await page.getByRole('list', { name: 'Prompts of looping' }).getByRole('button', { name: 'slow-complete' }).click();
  const topic = page.getByRole('combobox', { name: 'topic' });
  await topic.pressSequentially('stars', { delay: 30 });
  await expect(topic).toHaveValue('stars');
  await page.getByRole('button', { name: 'Get prompt' }).click();
  await expect(page.getByRole('list', { name: 'Prompt messages' })).toContainText('Tell me about stars.');
});
