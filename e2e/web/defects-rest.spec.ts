/**
 * The rest of issue #33's defects, each reproduced in the browser against a real web-mode host: words
 * broken mid-word, Diagnose's buttons out of view, the too-many-tools notice without a way to a tool
 * set, the update fields in web mode, and stack traces in Output.
 */
import type { Locator, Page } from '@playwright/test';
import path from 'node:path';
import { contractClient, expectServerStatus, openPage, serverRow } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { expect, test } from '../support/web-host';

const NODE = process.execPath;
const FIXTURES = path.join(REPO_ROOT, 'e2e', 'fixtures');

/** Adds a stdio server through the form. */
async function addServer(page: Page, name: string, args: string[], command = NODE) {
  await openPage(page, 'Servers');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog', { name: 'Add server' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Command', { exact: true }).fill(command);
  await form.getByLabel('Arguments', { exact: true }).fill(args.join('\n'));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();
}

/**
 * The words of `root`'s text that the layout broke across lines although they would fit on one: each
 * word's range gives one box per line it spans.
 */
function wordsBrokenMidWord(root: Locator): Promise<string[]> {
  return root.evaluate((element) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[A-Za-z]{3,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
        const width = range.getBoundingClientRect().width;
        if (tops.size > 1 && width < (node.parentElement?.clientWidth ?? 0)) broken.push(match[0]);
      }
    }
    return broken;
  });
}

test('words wrap between words, not inside them ("spo ken")', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 760, height: 900 });
  await page.goto(webHost.url);
  await addServer(page, 'echo', [path.join(FIXTURES, 'echo.mjs')]);
  await expectServerStatus(page, 'echo', 'ready');
  await serverRow(page, 'echo').getByRole('button', { name: 'echo', exact: true }).click();
  const facts = page.locator('.facts').last();
  await expect(facts).toContainText('as MCP servers have spoken since 2024');
  // Wherever the lines happen to wrap, at a few window widths.
  for (const width of [640, 700, 760, 820, 900]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await wordsBrokenMidWord(facts), `at ${width} px`).toEqual([]);
  }
});

test('Diagnose keeps its buttons in view however long its steps are', async ({ page, webHost }) => {
  await page.setViewportSize({ width: 1024, height: 600 });
  await page.goto(webHost.url);
  // A command that is not on PATH: the step lists every folder searched, and the fixes follow.
  await addServer(page, 'notes', ['notes-mcp'], 'patchbay-no-such-command');
  await expectServerStatus(page, 'notes', 'error');
  await serverRow(page, 'notes').getByRole('button', { name: 'Diagnose' }).click();
  const dialog = page.getByRole('dialog', { name: 'Diagnose notes' });
  await expect(dialog.getByRole('status').filter({ hasText: 'Failed at: Find the command' })).toBeVisible();
  const box = (await dialog.boundingBox())!;
  for (const name of ['Run again', 'Close']) {
    const button = (await dialog.getByRole('button', { name }).boundingBox())!;
    // Inside the dialog's visible box, without scrolling it.
    expect(button.y).toBeGreaterThanOrEqual(box.y);
    expect(button.y + button.height).toBeLessThanOrEqual(box.y + box.height);
  }
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
