/**
 * First run, as a new user meets it: an empty data directory, no server, no key. The Chat page says
 * what is missing and does each step in one click — the Everything demo server to Ready, the key in
 * Settings — and the first question gets its first answer (the scripted Messages API as the model),
 * with the demo server's tools offered to it.
 */
import { useScriptedLlm } from '../support/scripted-llm';
import { expect, test } from '../support/web-host';

const llm = useScriptedLlm();

test('from nothing to a Ready server and a first answer, guided by the Chat page', async ({ page, webHost }) => {
  const steps = page.getByRole('region', { name: 'Get started' });

  await test.step('a new install opens on Chat, which says there are no servers and no key', async () => {
    await page.goto(webHost.url);
    await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
    await expect(steps).toContainText('No servers yet');
    await expect(steps.getByRole('button', { name: 'Set the API key' })).toBeVisible();
    // The key is asked for once on the screen (issue #41: it was asked twice).
    await expect(page.getByRole('note', { name: 'API key needed' })).toHaveCount(1);
    await expect(page.getByRole('button', { name: /^(Set the API key|Open Settings)$/ })).toHaveCount(1);
    // Nothing claims tools the user does not have.
    await expect(page.getByText('the model can use the tools of your Ready servers')).toHaveCount(0);
  });

  await test.step('one click adds the Everything demo, which becomes Ready here', async () => {
    await steps.getByRole('button', { name: 'Add Everything (demo)' }).click();
    await expect(steps).toContainText('Done: Everything (demo) Ready.', { timeout: 60_000 });
    await expect(steps.getByRole('button', { name: 'Add Everything (demo)' })).toHaveCount(0);
  });

  await test.step('Set the API key goes to the key; saved, the step is done', async () => {
    await steps.getByRole('button', { name: 'Set the API key' }).click();
    await expect(page).toHaveURL(/#\/settings\/preferences$/);
    const form = page.getByRole('form', { name: 'Preferences' });
    await expect(form.getByLabel('API key', { exact: true })).toBeInViewport();
    await form.getByRole('textbox', { name: 'Anthropic base URL', exact: true }).fill(llm().url);
    await form.getByLabel('API key', { exact: true }).fill('sk-ant-first-run');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByTestId('api-key-state')).toHaveText('Set.');
    await page.goBack();
    await expect(page).toHaveURL(/#\/chat$/);
    await expect(steps).toBeHidden(); // a Ready server and a key: nothing left to set up
    await expect(page.getByText('Ask anything; the model can use the tools of Everything (demo).')).toBeVisible();
  });

  await test.step('the first question gets its first answer, with the server’s tools offered', async () => {
    await llm().script([{ type: 'text', text: 'Hello! I can use the tools of Everything (demo).' }]);
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('What tools do you have?');
    await message.press('Enter');
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log.getByText('Hello! I can use the tools of Everything (demo).')).toBeVisible();
    const [request] = await llm().messageRequests();
    expect(request.credential.key).toBe('sk-ant-first-run');
    expect(request.body?.tools?.map((t) => t.name)).toContain('Everything_demo__get-sum');
    // The conversation is now an address of its own.
    await expect(page).toHaveURL(/#\/chat\/[^/]+$/);
  });
});
