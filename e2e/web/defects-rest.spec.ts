/**
 * The rest of issue #33's defects, each reproduced in the browser against a real web-mode host: words
 * broken mid-word, Diagnose's buttons out of view, the too-many-tools notice without a way to a tool
 * set, the update fields in web mode, and stack traces in Output.
 */
import type { Locator, Page } from '@playwright/test';
import path from 'node:path';
import { clickWhenStill, expectServerStatus, openPage, serverRow } from '../support/flows';
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

test('relative links in a Markdown resource are read through its server; links it cannot follow say why', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await addServer(page, 'handbook', [path.join(FIXTURES, 'linked-docs.mjs')]);
  await expectServerStatus(page, 'handbook', 'ready');
  await serverRow(page, 'handbook').getByRole('button', { name: 'handbook', exact: true }).click();
  await page.getByRole('tab', { name: /^Resources\b/ }).click();
  await page.getByRole('list', { name: 'Resources of handbook' }).getByRole('button', { name: 'intro.md', exact: true }).click();
  await page.getByRole('button', { name: 'Read', exact: true }).click();
  const intro = page.getByRole('region', { name: 'Contents of docs://handbook/guide/intro.md' });
  const hostUrl = page.url();

  await test.step('a relative link opens the linked resource, read through the server, in the viewer', async () => {
    await intro.getByRole('link', { name: 'Architecture' }).click();
    const viewer = page.getByRole('dialog', { name: 'Resource architecture.md' });
    await expect(viewer).toContainText('docs://handbook/guide/architecture.md');
    await expect(viewer.getByRole('heading', { name: 'Architecture', exact: true })).toBeVisible();
    // A link inside it shows that one in the same viewer.
    await viewer.getByRole('link', { name: 'introduction' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Resource intro.md' }).getByRole('heading', { name: 'Introduction', exact: true }),
    ).toBeVisible();
    await page.getByRole('dialog', { name: 'Resource intro.md' }).getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(page.url()).toBe(hostUrl);
  });

  await test.step('../ resolves against the resource’s folder', async () => {
    await intro.getByRole('link', { name: 'Back to the handbook' }).click();
    const viewer = page.getByRole('dialog', { name: 'Resource README.md' });
    await expect(viewer.getByRole('heading', { name: 'Handbook', exact: true })).toBeVisible();
    await viewer.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('a document the server does not have: its answer, in words', async () => {
    await intro.getByRole('link', { name: 'Missing page' }).click();
    const viewer = page.getByRole('dialog', { name: 'Resource missing.md' });
    await expect(viewer.getByRole('alert')).toContainText('docs://handbook/guide/missing.md');
    await viewer.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('a link out of the server’s URI space is not followed, and says why; the window stays', async () => {
    await intro.getByRole('link', { name: 'Somewhere else' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'leads out of handbook’s resources (docs://handbook)' })).toBeVisible();
    await intro.getByRole('link', { name: 'Setup, below' }).click();
    expect(page.url()).toBe(hostUrl);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('a web link still opens outside, in a new window', async () => {
    const link = intro.getByRole('link', { name: 'The protocol' });
    await expect(link).toHaveAttribute('href', 'https://modelcontextprotocol.io/');
    await expect(link).toHaveAttribute('target', '_blank');
  });
});

test('apps: Ctrl+K works with the focus in an app; a message from the Tools tab is answered at once and can open a chat; no console warnings', async ({
  page,
  webHost,
}) => {
  const consoleLines: { type: string; text: string }[] = [];
  page.on('console', (message) => consoleLines.push({ type: message.type(), text: message.text() }));
  await page.goto(webHost.url);
  const BASIC = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
  await addServer(page, 'Basic app', [BASIC, '--stdio']);
  await expectServerStatus(page, 'Basic app', 'ready');
  await serverRow(page, 'Basic app').getByRole('button', { name: 'Basic app', exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  await page.getByRole('list', { name: 'Tools of Basic app' }).getByRole('button', { name: 'get-time', exact: true }).click();
  await page.getByRole('form', { name: 'Run get-time' }).getByRole('button', { name: 'Run' }).click();
  const view = page.getByRole('region', { name: 'App of get-time from Basic app' });
  const app = view.locator('iframe.app-frame').contentFrame().locator('iframe').contentFrame();
  await expect(app.locator('#server-time')).toHaveText(/^\d{4}-/);

  await test.step('loading the app printed no origin-mismatch or sandbox warning', async () => {
    const warnings = consoleLines.filter(
      (line) => /does not match the recipient window's origin|can escape its sandboxing|sandbox/i.test(line.text) && line.type !== 'debug',
    );
    expect(warnings).toEqual([]);
  });

  await test.step('Ctrl+K with the focus inside the app opens the palette', async () => {
    await app.locator('#message-text').click();
    await page.keyboard.press('ControlOrMeta+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
  });

  await test.step('the app’s message is answered at once (no chat here), and Open in chat starts one with it', async () => {
    const mark = consoleLines.length;
    await app.getByRole('button', { name: 'Send Message' }).click();
    const ask = view.getByRole('group', { name: 'The app of Basic app wants to send a message' });
    await expect(ask).toContainText('This is message text.');
    // The basic app logs how its request ended: refused with Patchbay's reason, not timed out (its limit is 5 s).
    await expect
      .poll(() => consoleLines.slice(mark).find((line) => line.text.startsWith('Message send error'))?.text, { timeout: 4_000 })
      .toContain('There is no chat here');
    await clickWhenStill(ask.getByRole('button', { name: 'Open in chat' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('This is message text.');
  });
});

test('web mode: the update fields are not editable, and a line says why', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await openPage(page, 'Settings');
  const preferences = page.getByRole('form', { name: 'Preferences' });
  await expect(preferences.getByRole('switch', { name: 'Check for updates' })).toBeDisabled();
  await expect(preferences.getByRole('textbox', { name: 'Update feed' })).toBeDisabled();
  await expect(preferences.getByText('Not applicable in web mode: updates are part of the desktop app.')).toBeVisible();
});
