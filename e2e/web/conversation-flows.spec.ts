/**
 * Everyday conversation handling (issue #17, item 4), in web mode against the scripted Messages API:
 * New conversation leaves no empty ones behind, each row and the header say which model is in use,
 * code blocks and whole messages copy to the clipboard, a search finds a conversation by what was
 * said in it (quoting the match), and Rename / Delete live in each row's menu, usable by keyboard.
 */
import { contractClient } from '../support/flows';
import { useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();
const CODE = 'const flat = [[1, 2], [3]].flat();\nconsole.log(flat);';
const ANSWER = `Use the built-in:\n\n\`\`\`js\n${CODE}\n\`\`\`\n\nThat flattens one level.`;

test('conversations: no empty leftovers, the model shown, copy code and messages, search by content, a row menu', async ({
  page,
  webHost,
}) => {
  const client = await contractClient(webHost);
  await client.api.updateSettings({ anthropicBaseUrl: llm().url });
  await client.api.setApiKey({ apiKey: 'sk-ant-e2e-key' });
  const model = (await client.api.getSnapshot()).settings.defaultModel;
  expect(model).toMatch(/^claude-/);
  await client.close();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: webHost.origin });

  await page.goto(webHost.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  const rows = list.getByRole('listitem');
  const log = page.getByRole('log', { name: 'Messages' });
  const message = page.getByRole('textbox', { name: 'Message' });

  await test.step('a first answer; the model is named in the header and in the row', async () => {
    await llm().script([{ type: 'text', text: ANSWER }]);
    await message.fill('How do I flatten an array?');
    await message.press('Enter');
    await expect(log.getByText('That flattens one level.')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveAttribute('title', new RegExp(`${model}$`));
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(model);
  });

  await test.step('Copy code copies the block as written; Copy message the whole answer', async () => {
    const answer = log.getByRole('article').filter({ hasText: 'That flattens one level.' });
    await answer.getByRole('button', { name: 'Copy code' }).click();
    await expect(answer.getByText('Copied')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    await answer.getByRole('button', { name: 'Copy message' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(ANSWER);
  });

  await test.step('New conversation, clicked again and again, leaves one empty conversation, not three', async () => {
    const fresh = list.getByRole('button', { name: 'New conversation', exact: true });
    for (let i = 0; i < 3; i++) {
      await fresh.click();
      await expect(page.getByRole('heading', { level: 2, name: 'New conversation' })).toBeVisible();
    }
    await expect(rows).toHaveCount(2);
  });

  await test.step('a search finds the conversation by its answer, quoting it', async () => {
    const search = list.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('flattens one');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('That flattens one level.');
    await rows
      .first()
      .getByRole('button', { name: /^How do I flatten an array\?/ })
      .click();
    await expect(page.getByRole('heading', { level: 2, name: 'How do I flatten an array?' })).toBeVisible();
    await search.fill('');
    await expect(rows).toHaveCount(2);
  });

  await test.step('Rename and Delete from the row menu, by keyboard', async () => {
    await list.getByRole('button', { name: 'Actions for How do I flatten an array?' }).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Actions for How do I flatten an array?' });
    await expect(menu.getByRole('menuitem')).toHaveText(['Rename', 'Delete']);
    await page.keyboard.press('Enter'); // the first item has focus
    const rename = page.getByRole('dialog', { name: 'Rename conversation' });
    await rename.getByLabel('Title').fill('Flattening arrays');
    await rename.getByRole('button', { name: 'Save' }).click();
    await expect(rows.filter({ hasText: 'Flattening arrays' })).toHaveCount(1);

    await list.getByRole('button', { name: 'Actions for New conversation' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete conversation?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Flattening arrays');
  });
});
