/**
 * Every main flow by keyboard alone — no clicks: the skip link, the command palette (Ctrl+K) to go
 * anywhere and run actions, adding a server through its form, running a tool, chatting with a tool
 * call and answering its consent, stopping an answer, and the shortcuts for a new conversation and
 * the message box. The model is the scripted Messages API; the servers are real processes.
 */
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { hostApi } from '../support/host-api';
import { REPO_ROOT } from '../support/paths';
import { useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();
const EVERYTHING = 'Everything (demo)';

/** Presses Tab (or Shift+Tab) until `target` has the focus: how a keyboard user gets somewhere. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** Ctrl+K, type, Enter: runs the palette's best match (checked to be the one meant). */
async function palette(page: Page, text: string, expected: RegExp) {
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  const input = dialog.getByRole('combobox');
  await expect(input).toBeFocused();
  await page.keyboard.type(text);
  await expect(dialog.getByRole('option', { selected: true })).toHaveText(expected);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

test('keyboard only: skip link, palette, add a server, run a tool, chat with consent, stop, shortcuts', async ({ page, webHost }) => {
  const host = await hostApi(webHost);
  try {
    await host.api.updateSettings({ anthropicBaseUrl: llm().url });
    await host.api.setApiKey({ apiKey: 'sk-ant-keyboard' });
    const everything = await host.api.addPresetServer({ preset: 'everything' });
    await expect.poll(async () => (await host.server(everything.config.id)).runtime.status, { timeout: 60_000 }).toBe('ready');
  } finally {
    await host.socket.close();
  }
  await page.goto(webHost.url);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();

  await test.step('the first Tab reaches "Skip to main content", which jumps past the navigation', async () => {
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('main').locator(':focus')).toHaveCount(1);
    await expect(page).toHaveURL(/#\/chat/); // the skip link never changes the address
  });

  await test.step('the palette lists the shortcuts and goes to any page', async () => {
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    await expect(dialog.getByRole('option', { name: /New conversation/ })).toContainText('Ctrl+Shift+O');
    await expect(dialog.getByRole('option', { name: /Focus the message box/ })).toContainText('/');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await palette(page, 'roots', /^Roots/);
    await expect(page.getByRole('heading', { level: 1, name: 'Roots' })).toBeVisible();
  });

  await test.step('add a server: Add server from the palette, its form by keyboard', async () => {
    await palette(page, 'add server', /^Add server/);
    const dialog = page.getByRole('dialog', { name: 'Add server' });
    await tabTo(page, dialog.getByLabel('Name', { exact: true }));
    await page.keyboard.type('echo');
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('Command', { exact: true })).toBeFocused();
    await page.keyboard.type(process.execPath);
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('Arguments', { exact: true })).toBeFocused();
    await page.keyboard.type(path.join(REPO_ROOT, 'e2e', 'fixtures', 'echo.mjs'));
    await tabTo(page, dialog.getByRole('button', { name: 'Save' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    const card = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'echo', exact: true });
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  });

  await test.step('stop and start a server from the palette', async () => {
    const card = page.getByRole('list', { name: 'Servers' }).getByRole('listitem', { name: 'echo', exact: true });
    await palette(page, 'stop echo', /^Stop echo/);
    await expect(card).toHaveAttribute('data-status', 'stopped', { timeout: 30_000 });
    await palette(page, 'start echo', /^Start echo/);
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  });

  await test.step('run a tool: the palette opens it in its server’s Tools tab; the form by keyboard', async () => {
    await palette(page, 'get-sum', /^get-sum/);
    const form = page.getByRole('form', { name: 'Run get-sum' });
    await tabTo(page, form.getByLabel('a', { exact: true }));
    await page.keyboard.type('2');
    await tabTo(page, form.getByLabel('b', { exact: true }));
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: `Result: get-sum on ${EVERYTHING}` })).toContainText('The sum of 2 and 3 is 5.');
  });

  await test.step('chat: / focuses the message box; a tool call is allowed by keyboard; Escape stops an answer', async () => {
    await page.getByRole('main').focus();
    await page.keyboard.press('/');
    const message = page.getByRole('textbox', { name: 'Message' });
    await expect(message).toBeFocused();
    await llm().script([
      { type: 'tool_use', calls: [{ nameEndsWith: '__get-sum', input: { a: 20, b: 22 } }] },
      { type: 'text', text: 'It is 42.' },
    ]);
    await page.keyboard.type('What is 20 + 22?');
    await page.keyboard.press('Enter');
    const consent = page.getByRole('dialog', { name: /^Allow/ });
    await expect(consent).toBeVisible();
    await tabTo(page, consent.getByRole('button', { name: 'Allow once' }));
    await page.keyboard.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log.getByText('It is 42.')).toBeVisible();
    await expect(message).toBeFocused(); // focus came back where it was

    await llm().script([{ type: 'text', text: 'A very long story', chunks: ['A very ', 'long story'], hang: true }]);
    await page.keyboard.type('Tell me a story');
    await page.keyboard.press('Enter');
    await expect(log.getByText('A very long story')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(log.getByText(/^Interrupted/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden();
  });

  await test.step('Ctrl+Shift+O starts a new conversation, ready to type', async () => {
    const before = page.url();
    await page.keyboard.press('Control+Shift+O');
    await expect(page).not.toHaveURL(before);
    await expect(page).toHaveURL(/#\/chat\/[^/]+$/);
    await expect(page.getByRole('heading', { level: 2, name: 'New conversation' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  });

  await test.step('Ctrl+. stops an answer from anywhere on Chat', async () => {
    await llm().script([{ type: 'text', text: 'Another endless tale', chunks: ['Another ', 'endless tale'], hang: true }]);
    await page.keyboard.type('Once more');
    await page.keyboard.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log.getByText('Another endless tale')).toBeVisible();
    await page.getByRole('main').focus();
    await page.keyboard.press('Control+.');
    await expect(log.getByText(/^Interrupted/)).toBeVisible();
  });
});
