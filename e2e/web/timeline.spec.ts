/**
 * A turn's Timeline in web mode, end to end: the scripted Messages API searches the tools, calls the
 * found tool on a real server-everything through the consent dialog, then answers; the answer's
 * **Timeline** opens a dialog with the turn as a waterfall — the model requests, the consent wait and
 * the call — each bar reachable by keyboard and named with its numbers. Export stays off throughout.
 */
import type { Page } from '@playwright/test';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';
import { axeProblems } from '../support/axe';
import { choose } from '../support/choose';

const llm = useScriptedLlm();
const SERVER = 'Everything (demo)';

function ui(page: Page) {
  return {
    nav: (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }),
    message: page.getByRole('textbox', { name: 'Message' }),
    log: page.getByRole('log', { name: 'Messages' }),
  };
}

test('a turn with a search round, a consent wait and a call, as a waterfall from the answer’s Timeline', async ({ page, webHost }) => {
  const { nav, message, log } = ui(page);
  await page.goto(webHost.url);
  await pointAnthropicAt(page, llm().url);
  await choose(page.getByRole('form', { name: 'Preferences' }).getByRole('combobox', { name: 'Tool search' }), 'Always');
  await expect(page.getByText('Saved', { exact: true })).toBeVisible();

  await test.step('Settings › Telemetry: off by default', async () => {
    const section = page.getByRole('region', { name: 'Telemetry' });
    await expect(section.getByText('Export is off')).toBeVisible();
    // The project's controls: a Select for the protocol, switches for the two choices.
    await expect(section.getByRole('combobox', { name: 'Protocol' })).toHaveText(/http\/protobuf/);
    await expect(section.getByRole('switch', { name: /Send trace context to servers/ })).toBeChecked();
    await expect(section.getByRole('switch', { name: /Export tool results/ })).not.toBeChecked();
    // An endpoint that is not http(s) is refused at entry.
    await section.getByRole('textbox', { name: 'OTLP endpoint' }).fill('ftp://collector.example/');
    await section.getByRole('button', { name: 'Turn on export' }).click();
    await expect(section.getByRole('alert')).toContainText('http:// or https://');
    await expect(section.getByText('Export is off')).toBeVisible();
  });

  await nav('Servers').click();
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: SERVER }).click();
  await expect(page.getByRole('listitem', { name: SERVER }).getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
  await nav('Chat').click();

  await llm().script([
    { type: 'find_tool', nameEndsWith: '__get-sum', query: 'sum', input: { a: 2, b: 3 } },
    { type: 'text', text: 'The sum is 5.' },
  ]);
  await message.fill('What is 2 + 3?');
  await message.press('Enter');
  await page
    .getByRole('dialog', { name: /^Allow/ })
    .getByRole('button', { name: 'Allow once' })
    .click();
  await expect(log.getByText('The sum is 5.')).toBeVisible();

  const answer = log.getByRole('article').filter({ hasText: 'The sum is 5.' });
  await answer.getByRole('button', { name: 'Timeline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Timeline' });
  const waterfall = dialog.getByRole('list', { name: 'Turn timeline' });
  const bars = waterfall.getByRole('button');
  await expect(bars.first()).toHaveAccessibleName(/^Turn: /);
  // Three model requests (the search, the call, the answer), one consent wait, one call.
  await expect(waterfall.getByRole('button', { name: /^Model request: / })).toHaveCount(3);
  const consent = waterfall.getByRole('button', { name: /^Consent wait: .*allowed$/ });
  await expect(consent).toHaveCount(1);
  const call = waterfall.getByRole('button', {
    name: new RegExp(`^Tool call: ${SERVER.replace(/[()]/g, '\\$&')} › get-sum, .*sent .*received .*succeeded$`),
  });
  await expect(call).toHaveCount(1);
  await expect(waterfall.getByRole('button', { name: /tokens in/ }).first()).toBeVisible();
  // The search round is a bar of its own: what was searched and what it found.
  await expect(waterfall.getByRole('button', { name: /^Tool search “sum”: \d+ tools? found, .*succeeded$/ })).toHaveCount(1);

  // Keyboard: the waterfall is one Tab stop (the dialog opens on its first bar); the arrow keys move
  // between bars, End to the last; Enter says the bar's numbers below the waterfall; Tab leaves for its links.
  await expect(bars.first()).toBeFocused();
  await page.keyboard.press('End');
  await expect(bars.last()).toBeFocused();
  await consent.focus();
  await page.keyboard.press('ArrowDown');
  await expect(call).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toContainText('get-sum');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('group', { name: 'Go to' }).getByRole('button', { name: 'Show the card' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(call).toBeFocused();

  await test.step('axe finds nothing serious in the dialog, in the light theme and the dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      expect(await axeProblems(page, '[role="dialog"]'), colorScheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(answer.getByRole('button', { name: 'Timeline' })).toBeFocused();

  const card = log.getByRole('article', { name: `Tool call get-sum on ${SERVER}` });
  const openCallBar = async () => {
    await answer.getByRole('button', { name: 'Timeline' }).click();
    await call.click();
    return dialog.getByRole('group', { name: 'Go to' });
  };

  await test.step('a bar leads to its card: the conversation scrolls to it and focuses it', async () => {
    await (await openCallBar()).getByRole('button', { name: 'Show the card' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toBeFocused();
  });

  await test.step('… to its request’s lines in the server’s Protocol log', async () => {
    await (await openCallBar()).getByRole('button', { name: 'Protocol log' }).click();
    await expect(page.getByRole('tab', { name: 'Protocol', selected: true })).toBeVisible();
    const filter = page.getByRole('toolbar', { name: 'Log view' }).getByRole('searchbox', { name: 'Filter' });
    await expect(filter).toHaveValue(/^tools\/call #\S+ \($/);
    const entries = page.getByRole('list', { name: 'Protocol entries' });
    // The request and its result, nothing else.
    await expect(entries.getByRole('listitem')).toHaveCount(2);
    await expect(entries.getByRole('listitem').last()).toContainText('result');
  });

  await test.step('… and to its audit entry, whose own Timeline is the same turn', async () => {
    await nav('Chat').click();
    await (await openCallBar()).getByRole('button', { name: 'Audit entry' }).click();
    const entry = page.getByRole('list', { name: 'Tool calls' }).getByRole('listitem').filter({ hasText: 'get-sum' });
    await expect(entry.locator('summary')).toBeFocused();
    await entry.getByRole('button', { name: 'Timeline' }).click();
    await expect(dialog.getByRole('list', { name: 'Turn timeline' }).getByRole('button', { name: /^Tool search “sum”/ })).toHaveCount(1);
    await page.keyboard.press('Escape');
  });
});
