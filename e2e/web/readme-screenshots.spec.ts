/**
 * The README's screenshots (docs/images/chat-light.png, chat-dark.png), made from a real chat: a
 * connected server-everything, a short conversation in which the scripted model calls one of its
 * tools (allowed once), in the light and the dark theme. Running this spec rewrites both files; commit
 * them when the page has changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../support/paths';
import { useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();
const IMAGES = path.join(REPO_ROOT, 'docs', 'images');

test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });

test('README screenshots: a chat with a tool call on server-everything, light and dark', async ({ page, webHost }) => {
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
  await page.goto(webHost.url);

  await nav('Settings').click();
  const form = page.getByRole('form', { name: 'Preferences' });
  await form.getByRole('textbox', { name: 'Anthropic base URL', exact: true }).fill(llm().url);
  await form.getByLabel('API key', { exact: true }).fill('sk-ant-screenshot');
  await form.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('api-key-state')).toHaveText('Set.');

  await nav('Servers').click();
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: 'Everything (demo)' }).click();
  await expect(page.getByRole('listitem', { name: 'Everything (demo)' }).getByText('Ready', { exact: true })).toBeVisible({
    timeout: 60_000,
  });

  await nav('Chat').click();
  await llm().script([
    {
      type: 'tool_use',
      text: 'I will ask the Everything server to add them.',
      calls: [{ nameEndsWith: '__get-sum', input: { a: 1234, b: 5678 } }],
    },
    { type: 'text', text: 'The sum of 1234 and 5678 is **6912**, as computed by the `get-sum` tool on Everything (demo).' },
  ]);
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('What is 1234 + 5678? Use a tool.');
  await message.press('Enter');
  const log = page.getByRole('log', { name: 'Messages' });
  await page
    .getByRole('dialog', { name: /^Allow/ })
    .getByRole('button', { name: 'Allow once' })
    .click();
  await expect(log.getByRole('article', { name: 'Tool call get-sum on Everything (demo)' }).getByRole('status')).toHaveText('Done');
  await expect(log.locator('strong', { hasText: '6912' })).toBeVisible();
  // Nothing left blinking or half-drawn: the composer is idle again.
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
  // The context meter has its count (the tokenizer's first count takes a moment).
  await expect(page.getByRole('button', { name: /^≈ [\d.]+[kM]? tokens$/ })).toBeVisible({ timeout: 60_000 });
  await message.blur();

  fs.mkdirSync(IMAGES, { recursive: true });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.screenshot({ path: path.join(IMAGES, 'chat-light.png'), animations: 'disabled' });
  const light = await background();
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(background).not.toBe(light);
  await page.screenshot({ path: path.join(IMAGES, 'chat-dark.png'), animations: 'disabled' });
  for (const name of ['chat-light.png', 'chat-dark.png']) expect(fs.statSync(path.join(IMAGES, name)).size).toBeGreaterThan(10_000);
});
