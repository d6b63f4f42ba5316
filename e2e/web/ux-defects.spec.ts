/**
 * Defects a new user hit (issue #33), each reproduced in the browser against a real web-mode host.
 */
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import path from 'node:path';
import { contractClient, expectServerStatus, serverRow } from '../support/flows';
import { REPO_ROOT } from '../support/paths';
import { ContractSocket, signIn } from '../support/raw-client';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { useScriptedOpenAi } from '../support/scripted-openai';
import { expect, test } from '../support/web-host';
import { choose } from '../support/choose';

const openai = useScriptedOpenAi();
const anthropic = useScriptedLlm();
const EVERYTHING = 'Everything (demo)';
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });

/** Settings › Providers: an OpenAI-compatible provider "Local" at the scripted endpoint. */
async function addLocalProvider(page: Page) {
  await nav(page, 'Settings').click();
  await page.getByRole('button', { name: 'Add provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add provider' });
  await choose(dialog.getByRole('combobox', { name: 'Type' }), 'OpenAI-compatible');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Local');
  await dialog.getByRole('textbox', { name: 'Base URL' }).fill(openai().url);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('list', { name: 'Providers' }).getByRole('listitem', { name: 'Local' })).toContainText('2 models');
}

async function addEverything(page: Page) {
  await nav(page, 'Servers').click();
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: EVERYTHING }).click();
  await expect(page.getByRole('listitem', { name: EVERYTHING }).getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
}

const LONG_TITLE = 'Summarise the attached document about the quarterly results and the plans for next year';

test('a long conversation title starts at the left edge, ends in an ellipsis and shows in full on hover', async ({ page, webHost }) => {
  const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
    origin: webHost.origin,
    credential: (await signIn(webHost.url)).credential,
  });
  await socket.call(1, 'createConversation', { title: LONG_TITLE });
  socket.socket.close();

  await page.goto(webHost.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  const row = list.getByRole('listitem').filter({ hasText: 'Summarise' });
  await expect(row).toBeVisible();
  const boxes = await row.evaluate((li) => {
    const open = li.querySelector<HTMLElement>('.conversation-open')!;
    const title = li.querySelector<HTMLElement>('.conversation-title')!;
    const meta = li.querySelector<HTMLElement>('.conversation-meta')!;
    const menu = li.querySelector<HTMLElement>('.conversation-actions')!;
    const box = (el: HTMLElement) => el.getBoundingClientRect();
    return {
      open: { left: box(open).left, right: box(open).right },
      title: { left: box(title).left, right: box(title).right, scrollWidth: title.scrollWidth, clientWidth: title.clientWidth },
      meta: { left: box(meta).left, right: box(meta).right },
      menuLeft: box(menu).left,
      ellipsis: getComputedStyle(title).textOverflow,
      hover: open.title,
    };
  });
  // The title's first letter is inside the row, where the time line starts.
  expect(boxes.title.left).toBeGreaterThanOrEqual(boxes.open.left);
  expect(boxes.meta.left).toBeGreaterThanOrEqual(boxes.open.left);
  // It is cut at its end (with an ellipsis), not spilling out of the row.
  expect(boxes.title.scrollWidth).toBeGreaterThan(boxes.title.clientWidth);
  expect(boxes.ellipsis).toBe('ellipsis');
  expect(boxes.title.right).toBeLessThanOrEqual(boxes.open.right + 0.5);
  // The ⋯ button sits after the text, never over it.
  expect(boxes.title.right).toBeLessThanOrEqual(boxes.menuLeft + 0.5);
  expect(boxes.meta.right).toBeLessThanOrEqual(boxes.menuLeft + 0.5);
  // Pointing at the row shows the whole title.
  expect(boxes.hover).toContain(LONG_TITLE);

  await test.step('a refused rename says why in words on the screen, not in the contract’s terms', async () => {
    await row.getByRole('button', { name: `Actions for ${LONG_TITLE}` }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename conversation' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('x'.repeat(201));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toContainText('At most 200 characters');
    await expect(dialog).not.toContainText('renameConversation');
    await expect(dialog).not.toContainText('Invalid input');
  });
});

test('a provider that names every call call_1: each card keeps its own arguments, edit marker and result, after a reload too', async ({
  page,
  webHost,
}) => {
  await page.goto(webHost.url);
  await addLocalProvider(page);
  await addEverything(page);
  await nav(page, 'Chat').click();
  const message = page.getByRole('textbox', { name: 'Message' });
  const log = page.getByRole('log', { name: 'Messages' });
  const consent = page.getByRole('dialog', { name: /^Allow/ });
  const cards = log.getByRole('article', { name: `Tool call get-sum on ${EVERYTHING}` });

  await openai().script([
    { type: 'tool_calls', calls: [{ nameEndsWith: '__get-sum', arguments: { a: 2, b: 3 }, id: 'call_1' }] },
    { type: 'text', text: 'Forty-two, then.' },
    { type: 'tool_calls', calls: [{ nameEndsWith: '__get-sum', arguments: { a: 5, b: 6 }, id: 'call_1' }] },
    { type: 'text', text: 'Eleven.' },
  ]);
  await choose(page.getByRole('combobox', { name: 'Model', exact: true }), 'llama3.1:8b');
  await message.fill('What is 2 + 3?');
  await message.press('Enter');
  await consent.getByLabel('Arguments').fill('{ "a": 2, "b": 40 }');
  await consent.getByRole('button', { name: 'Allow once' }).click();
  await expect(log.getByText('Forty-two, then.')).toBeVisible();

  await message.fill('And 5 + 6?');
  await message.press('Enter');
  await consent.getByRole('button', { name: 'Allow once' }).click();
  await expect(log.getByText('Eleven.')).toBeVisible();

  const expectCards = async () => {
    await expect(cards).toHaveCount(2);
    const [first, second] = [cards.nth(0), cards.nth(1)];
    await expect(first.getByRole('status')).toHaveText('Done');
    await expect(second.getByRole('status')).toHaveText('Done');
    await expect(first.locator('details > summary').first()).toHaveText('Arguments — edited by you');
    await expect(second.locator('details > summary').first()).toHaveText('Arguments');
    await expect(first.locator('details').first().locator('pre').first()).toContainText('"b": 40', { useInnerText: false });
    await expect(second.locator('details').first().locator('pre').first()).toContainText('"b": 6', { useInnerText: false });
    await expect(first).toContainText('The sum of 2 and 40 is 42.', { useInnerText: false });
    await expect(second).toContainText('The sum of 5 and 6 is 11.', { useInnerText: false });
    await expect(second).not.toContainText('The sum of 2', { useInnerText: false });
  };
  await expectCards();
  await page.reload();
  await expectCards();

  // The provider still gets its own ids back, each paired with its result.
  const last = (await openai().chatRequests()).at(-1)!.body!.messages;
  const calls = last.filter((m) => m.role === 'assistant' && m.tool_calls).map((m) => m.tool_calls![0].id);
  expect(calls).toEqual(['call_1', 'call_1']);
  expect(last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call_1', 'call_1']);
});

test('what was typed is not lost: Add server asks before discarding, a chat draft survives a reload', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await test.step('Add server with a name typed: Esc, a click outside and Cancel ask first', async () => {
    await nav(page, 'Servers').click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add server' });
    const confirm = page.getByRole('alertdialog', { name: 'Discard changes?' });
    // Nothing typed yet: Esc closes at once.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(confirm).toBeHidden();

    await page.getByRole('button', { name: 'Add server' }).click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('My notes server');
    await page.keyboard.press('Escape');
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(confirm).toBeHidden();
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('My notes server');

    await page.mouse.click(5, 5); // the overlay, outside the dialog
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Name' })).toHaveValue('My notes server');

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('a draft in a conversation comes back after a reload', async () => {
    const socket = await ContractSocket.connect(`ws://127.0.0.1:${webHost.port}/ws`, {
      origin: webHost.origin,
      credential: (await signIn(webHost.url)).credential,
    });
    await socket.call(1, 'createConversation', { title: 'Holiday plans' });
    socket.socket.close();
    await page.reload();
    await nav(page, 'Chat').click();
    await page
      .getByRole('navigation', { name: 'Conversations' })
      .getByRole('button', { name: /^Holiday plans/ })
      .click();
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Book the train to Lyon for the');
    await expect.poll(() => savedDraft(webHost.dataDir)).toBe('Book the train to Lyon for the');
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Holiday plans' })).toBeVisible();
    await expect(message).toHaveValue('Book the train to Lyon for the');
  });
});

/** The newest saved draft, read from the database file as a restarted host would. */
function savedDraft(dataDir: string): string | undefined {
  const db = new Database(path.join(dataDir, 'patchbay.db'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare<[], { text: string }>('SELECT text FROM chat_drafts ORDER BY updated_at DESC LIMIT 1').get()?.text;
  } catch {
    return undefined; // no such table before the fix
  } finally {
    db.close();
  }
}

test('"Starts with Patchbay" decides only what happens at launch: it neither stops nor starts the server', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await addEverything(page);
  const client = await contractClient(webHost);
  try {
    const id = (await client.api.getSnapshot()).servers.find((s) => s.config.name === EVERYTHING)!.config.id;
    const row = serverRow(page, EVERYTHING);
    const starts = row.getByRole('switch', { name: 'Starts with Patchbay' });

    await starts.click(); // the switch follows the host: its state changes once the call is answered
    await expect(starts).not.toBeChecked();
    await expect(starts).toBeEnabled();
    expect((await client.server(id)).runtime.status).toBe('ready');
    await expectServerStatus(page, EVERYTHING, 'ready');

    await row.getByRole('button', { name: 'Stop', exact: true }).click();
    await expectServerStatus(page, EVERYTHING, 'stopped');
    await starts.click();
    await expect(starts).toBeChecked();
    await expect(starts).toBeEnabled();
    expect((await client.server(id)).runtime.status).toBe('stopped');
    await expectServerStatus(page, EVERYTHING, 'stopped');
  } finally {
    await client.close();
  }

  // At the next launch it starts, as the switch says.
  await webHost.restart();
  await page.goto(webHost.url);
  await nav(page, 'Servers').click();
  await expectServerStatus(page, EVERYTHING, 'ready');
});

test('a finished task keeps its result: the Tasks tab shows it after leaving the Tools tab and after a reload', async ({
  page,
  webHost,
}) => {
  const LAB = 'Task lab';
  await page.goto(webHost.url);
  await nav(page, 'Servers').click();
  await page.getByRole('button', { name: 'Add server' }).click();
  const add = page.getByRole('dialog', { name: 'Add server' });
  await add.getByLabel('Name', { exact: true }).fill(LAB);
  await add.getByLabel('Command', { exact: true }).fill(process.execPath);
  await add.getByLabel('Arguments', { exact: true }).fill(path.join(REPO_ROOT, 'e2e/fixtures/task-lab.mjs'));
  await add.getByRole('button', { name: 'Save' }).click();
  await expectServerStatus(page, LAB, 'ready');
  await serverRow(page, LAB).getByRole('button', { name: LAB, exact: true }).click();
  await page.getByRole('tab', { name: /^Tools\b/ }).click();
  await page
    .getByRole('list', { name: `Tools of ${LAB}` })
    .getByRole('button', { name: 'doomed', exact: true })
    .click();
  await page.getByRole('form', { name: 'Run doomed' }).getByRole('button', { name: 'Run' }).click();
  const shown = page.getByRole('region', { name: `The tool reported an error: doomed on ${LAB}` });
  await expect(shown).toContainText('The disk is full');

  const showInTasksTab = async () => {
    await page.getByRole('tab', { name: /^Tasks/ }).click();
    const row = page.getByRole('listitem', { name: 'Task doomed: Failed', exact: true });
    await row.getByText('Result', { exact: true }).click();
    await expect(row.getByRole('region', { name: `The tool reported an error: doomed on ${LAB}` })).toContainText('The disk is full');
  };
  await page.getByRole('tab', { name: 'Overview', exact: true }).click();
  await expect(shown).toBeHidden();
  await showInTasksTab();

  await page.reload();
  await nav(page, 'Servers').click();
  await serverRow(page, LAB).getByRole('button', { name: LAB, exact: true }).click();
  await showInTasksTab();
});

test('web mode has a favicon (the app icon) and the page asks for nothing that is not there', async ({ page, webHost }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await page.goto(webHost.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBeTruthy();
  const icon = await page.request.get(new URL(href!, page.url()).toString());
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  // Chromium asks for /favicon.ico by itself when the page names no icon.
  await expect.poll(() => missing).toEqual([]);
});

test('sending after scrolling up brings the view to the new message', async ({ page, webHost }) => {
  await page.goto(webHost.url);
  await pointAnthropicAt(page, anthropic().url);
  await nav(page, 'Chat').click();
  const message = page.getByRole('textbox', { name: 'Message' });
  const log = page.getByRole('log', { name: 'Messages' });
  const longAnswer = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
  await anthropic().script([
    { type: 'text', text: longAnswer },
    { type: 'text', text: 'Short answer.' },
  ]);
  await message.fill('Tell me a lot');
  await message.press('Enter');
  await expect(log.getByText('Line 80 of a long answer.')).toBeVisible();

  await log.evaluate((el) => el.scrollTo(0, 0));
  await expect(log.getByText('Tell me a lot')).toBeInViewport();
  await message.fill('And briefly?');
  await message.press('Enter');
  await expect(log.getByText('And briefly?')).toBeInViewport();
  await expect(log.getByText('Short answer.')).toBeInViewport();
});
