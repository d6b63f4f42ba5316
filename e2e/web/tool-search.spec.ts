/**
 * Tool search in web mode, end to end: Settings › Tool search set to Always, a real server-everything,
 * and the scripted Messages API as a model that wants `get-sum` but is offered only the search tool:
 * it searches, the chat shows the step ("Searched tools: 'sum' → N found", opening to the tools found),
 * then it calls the found tool through the consent dialog. A search with no match shows "none found"
 * and the answer still comes.
 */
import type { Page } from '@playwright/test';
import { pointAnthropicAt, useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';
import { choose, optionNames } from '../support/choose';

const llm = useScriptedLlm();
const SERVER = 'Everything (demo)';

function ui(page: Page) {
  return {
    nav: (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }),
    message: page.getByRole('textbox', { name: 'Message' }),
    log: page.getByRole('log', { name: 'Messages' }),
  };
}

test('the model searches the tools, the chat shows the search step, then the found tool runs with consent', async ({ page, webHost }) => {
  const { nav, message, log } = ui(page);
  await page.goto(webHost.url);
  await pointAnthropicAt(page, llm().url);

  await test.step('Settings: Tool search is Automatic by default; choose Always', async () => {
    const toolSearch = page.getByRole('form', { name: 'Preferences' }).getByRole('combobox', { name: 'Tool search' });
    await expect(toolSearch).toHaveText('Automatic');
    expect(await optionNames(toolSearch)).toEqual(['Automatic', 'Always', 'Off']);
    await choose(toolSearch, 'Always');
    await expect(page.getByText('Saved', { exact: true })).toBeVisible();
  });

  await nav('Servers').click();
  await page.getByRole('group', { name: 'Quick add' }).getByRole('button', { name: SERVER }).click();
  await expect(page.getByRole('listitem', { name: SERVER }).getByText('Ready', { exact: true })).toBeVisible({ timeout: 60_000 });
  await nav('Chat').click();

  await test.step('search, the step in the chat, then the found tool through consent', async () => {
    await llm().script([
      { type: 'find_tool', nameEndsWith: '__get-sum', query: 'sum', input: { a: 2, b: 3 } },
      { type: 'text', text: 'The sum is 5.' },
    ]);
    await message.fill('What is 2 + 3?');
    await message.press('Enter');
    const step = log.getByText(/^Searched tools: 'sum' → \d+ found$/);
    await expect(step).toBeVisible();
    // The found tool passes consent like any other.
    const card = log.getByRole('article', { name: `Tool call get-sum on ${SERVER}` });
    await page
      .getByRole('dialog', { name: /^Allow/ })
      .getByRole('button', { name: 'Allow once' })
      .click();
    await expect(card.getByRole('status')).toHaveText('Done');
    await step.click();
    await expect(log.getByRole('listitem').filter({ hasText: 'get-sum' })).toBeVisible();
    await expect(log.getByText('The sum is 5.')).toBeVisible();
    const [first, second] = await llm().messageRequests();
    expect((first.body?.tools ?? []).map((t) => t.name)).toEqual(['search_tools']);
    expect((second.body?.tools ?? []).map((t) => t.name)).toContain('Everything_demo__get-sum');
  });

  await test.step('a search with no match: the step says none found, and the answer comes', async () => {
    await llm().reset();
    await llm().script([
      { type: 'find_tool', nameEndsWith: '__teleport', query: 'teleport zzqx' },
      { type: 'text', text: 'No tool can teleport you.' },
    ]);
    await message.fill('Teleport me');
    await message.press('Enter');
    await expect(log.getByText("Searched tools: 'teleport zzqx' → none found", { exact: true })).toBeVisible();
    await expect(log.getByText('No tool can teleport you.')).toBeVisible();
  });
});
